"""``machine`` for Tablemate in a web page: the Pico's parts, wired to the page.

MicroPython's WebAssembly VM has no ``machine``; this module stands in for the rp2 one, so that
the firmware's own boot code (``tablemate/boot.py``) builds the gadget from ``board.py``
in the browser exactly as on a Pico. What each part is wired to:
- I2C: one bus with the OLED at 0x3C. Every write transaction goes to the page as hex text
  (``webio.i2c``), where a decoder of the SSD1306 byte stream draws the canvas. A write to any
  other address raises OSError(EIO), as the rp2 port does for a NACK.
- Pin: an input with a pull-up reads 1 until the page holds its button (``drive``), which also
  runs the pin's interrupt handler on the edge, as the hardware does.
- PWM: every change of frequency or duty goes to the page's oscillator (``webio.pwm``).
- ADC: the supply reads 5.0 V on VSYS (a phone or a USB cable powers this gadget): the battery
  gauge takes that for USB and shows no figure.
- deepsleep: never reached (no battery, no cut-off); were it called, the page's loop stops, as
  a dormant Pico's does, until the page is reloaded (its reset).
- RTC: the page's clock (the browser's local time), as every ``tablemate`` command sets a
  board's to the computer's: the games played in the page are dated.
- WDT: fed by every loop pass, never bites: a browser pauses a page's timers in the background,
  and a page cannot be reset halfway through a pass anyway.
"""

from binascii import hexlify

import webio  # the page's side, registered with registerJsModule before this is imported

PWRON_RESET = 1
WDT_RESET = 3

_NAMED = {"LED": 25}
_EIO = 5
_DISPLAY = 0x3C
_VSYS_U16 = 33095  # 5.0 V through the 1:3 divider on a 3.3 V, 16-bit reading


def _gpio(pin):
    if isinstance(pin, Pin):
        return pin.id
    if isinstance(pin, str):
        if pin in _NAMED:
            return _NAMED[pin]
        if pin.startswith("GP"):
            return int(pin[2:])
        raise ValueError("unknown named pin")
    if isinstance(pin, int) and 0 <= pin < 30:
        return pin
    raise ValueError("invalid pin")


class _Pad:
    def __init__(self):
        self.mode = Pin.IN
        self.pull = None
        self.out = 0
        self.low = False  # held to ground from outside (a button)
        self.handler = None
        self.trigger = 0

    def level(self):
        if self.mode == Pin.OUT:
            return self.out
        if self.low:
            return 0
        return 1 if self.pull == Pin.PULL_UP else 0


_pads = {}


def _pad(gpio):
    pad = _pads.get(gpio)
    if pad is None:
        pad = _pads[gpio] = _Pad()
    return pad


def drive(gpio, low):
    """The page holds (``low``) or lets go of the line ``gpio``; fires its interrupt on an edge."""
    pad = _pad(gpio)
    before = pad.level()
    pad.low = bool(low)
    after = pad.level()
    if pad.handler is not None and before != after:
        if pad.trigger & (Pin.IRQ_RISING if after else Pin.IRQ_FALLING):
            pad.handler(Pin(gpio))


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = _gpio(id)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        pad = _pad(self.id)
        if value is not None:
            pad.out = 1 if value else 0
        if mode != -1:
            pad.mode = mode
        if pull != -1:
            pad.pull = pull or None

    def value(self, v=None):
        pad = _pad(self.id)
        if v is None:
            return pad.level()
        pad.out = 1 if v else 0

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def toggle(self):
        self.value(0 if _pad(self.id).out else 1)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        pad = _pad(self.id)
        pad.handler = handler
        pad.trigger = trigger


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.freq = freq

    def scan(self):
        return [_DISPLAY]

    def writeto(self, addr, buf, stop=True):
        if addr != _DISPLAY:
            raise OSError(_EIO)
        webio.i2c(hexlify(buf).decode())
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        if addr != _DISPLAY:
            raise OSError(_EIO)
        webio.i2c("".join([hexlify(buf).decode() for buf in vector]))


class PWM:
    def __init__(self, dest, freq=None, duty_u16=None):
        self.gpio = _gpio(dest)
        self._freq = 0
        self._duty = 0
        if freq is not None:
            self._freq = int(freq)
        if duty_u16 is not None:
            self._duty = int(duty_u16)
        self._send()

    def _send(self):
        webio.pwm(self._freq, self._duty)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if not 8 <= value <= 62500000:
            raise ValueError("freq out of range")
        self._freq = int(value)
        self._send()

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        if not 0 <= value <= 65535:
            raise ValueError("duty_u16 must be from 0 to 65535")
        self._duty = int(value)
        self._send()

    def deinit(self):
        self._duty = 0
        self._send()


class ADC:
    def __init__(self, src):
        self.src = src

    def read_u16(self):
        return _VSYS_U16


class RTC:
    """The calendar clock, set by the page: ``webio.clock()`` is the browser's local time as
    "year month day weekday hours minutes seconds" (weekday 0 for Monday, as rp2 counts), read
    when the firmware dates a game (``Probe.wall``: a game's start and end)."""

    def datetime(self):
        t = tuple(int(n) for n in webio.clock().split())
        return t + (0,)


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout

    def feed(self):
        pass


def lightsleep(ms=None):
    """Never called: the page runs ``app.step`` on its own timer and has no ``boot.wait``
    (a browser must get its thread back between passes), but the boot's module imports it."""


def reset_cause():
    return PWRON_RESET


def deepsleep(ms=None):
    raise SystemExit("dormant until reset")
