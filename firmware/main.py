"""Boot the gadget: build the hardware the board configuration names and run the app loop.

Only this file and ``tablemate.hw`` touch ``machine``. What can stop a boot, and what it does:
- a board configuration with a wrong or missing pin: the REPL lists every problem, the on-board
  LED blinks error code 3 (three short flashes, repeating), nothing else is touched;
- OK or BACK (or the encoder's push) held while powering up: safe mode, main.py returns to the
  REPL without starting the app or the watchdog, so mpremote can always reach the board;
- no display on the I2C bus: error code 2, and the bus is scanned again on every cycle, so a
  loose wire fixed in place lets the boot go on.
Once the app runs, a watchdog resets the Pico if one pass of the loop takes longer than WDT_MS;
the game survives in its journal and is offered again at boot. The blinking error loops run
before the watchdog starts, so they never reset the board.
"""

import time

from machine import ADC, I2C, PWM, WDT, WDT_RESET, Pin, reset_cause

from tablemate import boardcheck, keys
from tablemate.board import BOARD

NO_DISPLAY = 2  # LED error codes: flashes per cycle
BAD_BOARD = 3
WDT_MS = 5000  # rp2 allows up to 8388 ms; a loop pass takes ~10 ms, a journal write a few more
SAFE_MODE = "Safe mode: app not started, watchdog off"
_DISPLAY_ADDRS = (0x3C, 0x3D)


def find_display(i2c, cfg):
    """The display's address on the bus, or None."""
    found = i2c.scan()
    if cfg["addr"] in found:
        return cfg["addr"]
    for addr in _DISPLAY_ADDRS:
        if addr in found:
            return addr
    return None


def blink(led, code):
    """One cycle of an error code: ``code`` short flashes, then a pause."""
    for _ in range(code):
        led.on()
        time.sleep_ms(150)
        led.off()
        time.sleep_ms(250)
    time.sleep_ms(1000)


def blink_code(led, code, cycles):
    """Blink ``code`` ``cycles`` times (forever when negative)."""
    while cycles:
        blink(led, code)
        cycles -= 1


def wait_for_display(i2c, cfg, led, cycles=-1):
    """Blink and rescan until a display answers; None if ``cycles`` run out first."""
    print("Tablemate: no display on I2C%d (SDA GP%d, SCL GP%d) at 0x%02X; bus has %s"
          % (cfg["i2c"], cfg["sda"], cfg["scl"], cfg["addr"], [hex(a) for a in i2c.scan()]))
    print("Check the OLED's wiring and power. Blinking error code %d." % NO_DISPLAY)
    while cycles:
        blink(led, NO_DISPLAY)
        addr = find_display(i2c, cfg)
        if addr is not None:
            return addr
        cycles -= 1
    return None


def status_led(cfg):
    """The LED for error codes: the configured one, or the Pico's own when that one is bad."""
    try:
        return Pin(cfg.get("led", "LED"), Pin.OUT)
    except (ValueError, TypeError):
        return Pin("LED", Pin.OUT)


def safe_mode(cfg):
    """True when OK, BACK or the encoder's push is held at power-up (checked twice, 20 ms apart)."""
    gps = [cfg["buttons"][k] for k in ("OK", "BACK") if k in cfg.get("buttons", {})]
    if cfg.get("encoder"):
        gps.append(cfg["encoder"]["sw"])
    pins = [Pin(gp, Pin.IN, Pin.PULL_UP) for gp in gps]
    for _ in range(2):
        time.sleep_ms(20)  # lets the pull-ups settle, then debounces
        held = False
        for pin in pins:
            held = held or pin.value() == 0
        if not held:
            return False
    return True


def build(cfg=BOARD, root="", cycles=-1):
    """The app on real hardware, or None (bad board configuration, safe mode, no display)."""
    problems = boardcheck.check(cfg)
    if problems:
        print("Tablemate: the board configuration (tablemate/board.py) has a problem:")
        for msg in problems:
            print("  " + msg)
        print("Blinking error code %d." % BAD_BOARD)
        blink_code(status_led(cfg), BAD_BOARD, cycles)
        return None
    if safe_mode(cfg):
        print(SAFE_MODE)
        return None
    from tablemate.app import App
    from tablemate.hw.buzzer import Buzzer
    from tablemate.hw.probe import Probe
    from tablemate.hw.ssd1306 import SSD1306
    i2c = I2C(cfg["i2c"], sda=Pin(cfg["sda"]), scl=Pin(cfg["scl"]), freq=cfg["freq"])
    addr = find_display(i2c, cfg)
    if addr is None:
        addr = wait_for_display(i2c, cfg, status_led(cfg), cycles)
        if addr is None:
            return None
    display = SSD1306(i2c, addr=addr, sh1106=cfg["display"] == "sh1106", flip=cfg["flip"])

    def input_for(layout):
        if layout == "encoder":
            from tablemate.hw.encoder import EncoderInput
            enc = cfg["encoder"]
            return EncoderInput(Pin(enc["a"], Pin.IN, Pin.PULL_UP), Pin(enc["b"], Pin.IN, Pin.PULL_UP),
                                Pin(enc["sw"], Pin.IN, Pin.PULL_UP))
        from tablemate.hw.buttons import ButtonInput
        pins = cfg["buttons"]
        return ButtonInput([Pin(pins[keys.NAMES[k]], Pin.IN, Pin.PULL_UP) for k in keys.LAYOUTS[layout]],
                           layout)

    buzzer = Buzzer(PWM(Pin(cfg["buzzer"]))) if cfg.get("buzzer") is not None else None
    battery = cfg.get("battery")
    probe = Probe(i2c, ADC(Pin(battery)) if battery is not None else None)
    return App(display, input_for, root, buzzer, probe, boardcheck.layouts(cfg))


def start(cfg=BOARD, root="", cycles=-1):
    """Boot and start the app, then the watchdog: ``(app, wdt)``, or None when nothing runs."""
    if reset_cause() == WDT_RESET:
        print("Tablemate: restarted by the watchdog (the loop stopped for %d ms)" % WDT_MS)
    app = build(cfg, root, cycles)
    if app is None:
        return None
    app.start(time.ticks_ms())
    return app, WDT(timeout=WDT_MS)


def step(app, wdt):
    """One pass of the loop: tick the app, then feed the watchdog."""
    app.tick(time.ticks_ms())
    wdt.feed()


def run(cfg=BOARD, root="", loops=-1, cycles=-1):
    """Boot, then pass the loop every 10 ms (``loops`` limits the run for tests)."""
    booted = start(cfg, root, cycles)
    if booted is None:
        return None
    app, wdt = booted
    while loops:
        step(app, wdt)
        time.sleep_ms(10)
        loops -= 1
    return app


if __name__ == "__main__":
    run()
