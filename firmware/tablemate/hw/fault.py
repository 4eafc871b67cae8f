"""What the gadget does when it cannot start: say why on the REPL and blink the on-board LED.

Kept apart from ``tablemate.boot`` so that a healthy boot never loads this code (on a Pico
every module costs 10-15 ms to import). Error codes are flashes per cycle: 2 = no display
answered on the I2C bus, 3 = ``board.py`` names a pin that cannot work.
"""

from tablemate.hw.peripherals import Pin

from tablemate import sleep_ms

NO_DISPLAY = 2
BAD_BOARD = 3


def blink(led, code):
    """One cycle of an error code: ``code`` short flashes, then a pause."""
    for _ in range(code):
        led.on()
        sleep_ms(150)
        led.off()
        sleep_ms(250)
    sleep_ms(1000)


def blink_code(led, code, cycles):
    """Blink ``code`` ``cycles`` times (forever when negative)."""
    while cycles:
        blink(led, code)
        cycles -= 1


def wait_for_display(i2c, cfg, find, cycles=-1):
    """Blink and rescan (with ``find``) until a display answers; None if ``cycles`` run out."""
    led = status_led(cfg)
    print("Tablemate: no display on I2C%d (SDA GP%d, SCL GP%d) at 0x%02X; bus has %s"
          % (cfg["i2c"], cfg["sda"], cfg["scl"], cfg["addr"], [hex(a) for a in i2c.scan()]))
    print("Check the OLED's wiring and power. Blinking error code %d." % NO_DISPLAY)
    while cycles:
        blink(led, NO_DISPLAY)
        addr = find(i2c, cfg)
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


def bad_board(cfg, problems, cycles, source=None):
    """Print every problem of the board configuration (``source``: the file that changes
    board.py's values, if any), then blink code 3."""
    print("Tablemate: the board configuration (tablemate/board.py%s) has a problem:"
          % (", with " + source if source else ""))
    for msg in problems:
        print("  " + msg)
    print("Blinking error code %d." % BAD_BOARD)
    blink_code(status_led(cfg), BAD_BOARD, cycles)
