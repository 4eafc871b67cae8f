"""The reference build's wiring: the single source of truth for pins and parts.

``main.py`` builds the hardware from ``BOARD``; the pin map and wiring diagram in ``hardware/``
are generated from it. GP numbers are the Pico's GPIO numbers, not its physical pin numbers.
"""

BOARD = {
    "i2c": 0,            # I2C0: the OLED's bus
    "sda": 4,            # GP4, physical pin 6
    "scl": 5,            # GP5, physical pin 7
    "freq": 400000,      # 1000000 works with short wires
    "display": "ssd1306",  # or "sh1106" for the common 1.3" module
    "addr": 0x3C,
    "flip": False,       # True when the module is mounted upside down
    # Buttons to ground, internal pull-ups. Three-button builds use UP (prev), DOWN (next) and OK.
    "buttons": {"UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "OK": 14, "BACK": 15},
    # KY-040 rotary encoder (the "encoder" layout): A = CLK, B = DT, SW = push switch, to ground.
    # A knob that counts the wrong way has A and B swapped. None when not fitted.
    "encoder": {"a": 18, "b": 19, "sw": 20},
    "buzzer": 16,        # passive piezo through PWM; None when not fitted
    "battery": 29,       # ADC pin for the supply: GP29 reads VSYS/3 inside a Pico; None on a Pico W
    "led": "LED",        # on-board LED, used for error codes
}
