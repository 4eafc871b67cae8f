"""Boot the gadget: build the hardware the board configuration names and run the app loop.

Only this file and ``tablemate.hw`` touch ``machine``. If no display answers on the I2C bus, the
on-board LED blinks the error code (two short flashes, repeating) and the REPL says why, and the
bus is scanned again on every cycle so a loose wire fixed in place lets the boot go on.
"""

import time

from machine import I2C, PWM, Pin

from tablemate import keys
from tablemate.board import BOARD
from tablemate.hw.buttons import Buttons

NO_DISPLAY = 2  # LED error code: flashes per cycle
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


def build(cfg=BOARD, root="", cycles=-1):
    """The app on real hardware, or None when no display appeared."""
    from tablemate.app import App
    from tablemate.hw.buzzer import Buzzer
    from tablemate.hw.ssd1306 import SSD1306
    i2c = I2C(cfg["i2c"], sda=Pin(cfg["sda"]), scl=Pin(cfg["scl"]), freq=cfg["freq"])
    addr = find_display(i2c, cfg)
    if addr is None:
        addr = wait_for_display(i2c, cfg, Pin(cfg["led"], Pin.OUT), cycles)
        if addr is None:
            return None
    display = SSD1306(i2c, addr=addr, sh1106=cfg["display"] == "sh1106", flip=cfg["flip"])

    def buttons_for(layout):
        pins = cfg["buttons"]
        return Buttons([Pin(pins[keys.NAMES[k]], Pin.IN, Pin.PULL_UP) for k in keys.LAYOUTS[layout]])

    buzzer = Buzzer(PWM(Pin(cfg["buzzer"]))) if cfg.get("buzzer") is not None else None
    return App(display, buttons_for, root, buzzer)


def run(cfg=BOARD, root="", loops=-1, cycles=-1):
    """Boot, then tick the app every 10 ms (``loops`` limits the run for tests)."""
    app = build(cfg, root, cycles)
    if app is None:
        return None
    app.start(time.ticks_ms())
    while loops:
        app.tick(time.ticks_ms())
        time.sleep_ms(10)
        loops -= 1
    return app


if __name__ == "__main__":
    run()
