"""The Pico's peripherals as the boot builds them, and the small drivers that run on them.

This module is the firmware's only import of ``machine`` (``fault`` takes its ``Pin`` from
here). On the rp2 port ``machine`` is an extensible built-in module: an import statement first
looks for a file of that name on the flash, about 3.6 ms on the emulated Pico, so the boot pays
for one statement. (Not with sys.path emptied, as ``tablemate/__init__.py`` imports ``time``:
the web page's and the test VM's ``machine`` are files.) The
constructors (``pull_up``, ``bus``...) are the boot's only way to make a device object; the
drivers below take theirs built, so the simulator, the web page and the tests hand them fakes.
Nothing here imports the layers above: the key machine arrives in ``ButtonInput`` too.
"""

import sys

from machine import ADC, I2C, PWM, RTC, WDT, WDT_RESET, Pin, deepsleep, lightsleep, reset_cause
from micropython import const

from tablemate import ticks_add, ticks_diff

_HALF = const(32768)  # duty_u16 of a square wave: the piezo's loudest note
_SET_SINCE = const(2022)  # an earlier year: the clock was never set (a Pico boots in 2021)
_FULL_MV = const(9900)  # the ADC's full scale is 3.3 V; VSYS reaches it through 1:3
_FLOOR_MV = const(1800)  # the least VSYS a Pico runs on (RT6150 buck-boost: 1.8-5.5 V)


def pull_up(gp):
    """An input pin with its pull-up: every button and the encoder's three contacts."""
    return Pin(gp, Pin.IN, Pin.PULL_UP)


def bus(cfg, freq=None):
    """The display's I2C bus, as ``board.py`` wires it, at ``freq`` Hz (board.py's by default).
    The rp2 has one object per controller, and making it again sets it up again: a bus made
    at another speed is the display's own bus at that speed (``Probe.speed``)."""
    return I2C(cfg["i2c"], sda=Pin(cfg["sda"]), scl=Pin(cfg["scl"]), freq=freq or cfg["freq"])


def pwm(gp):
    """The buzzer's PWM output."""
    return PWM(Pin(gp))


def adc(gp):
    """The battery sense input (VSYS through its divider)."""
    return ADC(Pin(gp))


def watchdog(ms):
    """Start the watchdog: from here on, a loop pass longer than ``ms`` resets the Pico."""
    return WDT(timeout=ms)


def nap(ms):
    """Sleep up to ``ms`` with the clocks stopped (``machine.lightsleep``), until the timer
    alarm or an interrupt: a key's edge (a pin with an IRQ handler wakes an rp2 lightsleep
    that has a timeout), or the USB host, which wakes a connected board every millisecond
    or so. The timer and the watchdog go on counting (both run from the crystal); PWM and
    I2C stop, so the loop never naps this way while a note plays (``boot.wait``)."""
    lightsleep(ms)


def watchdog_off():
    """Stop the watchdog: a computer took the board over USB (its Ctrl-C stopped the loop that
    fed it), and mpremote, mip or ``tablemate`` must never be cut off by a reset. MicroPython's
    ``WDT`` has no stop, the chip's watchdog has: ENABLE is bit 30 of its CTRL register, cleared
    through the register's atomic clear alias (+0x3000) on the RP2040 and the RP2350 alike.
    ``watchdog()`` starts it again at the next boot."""

    import machine  # here, not at the top: only a computer's Ctrl-C comes here
    base = 0x400D8000 if "RP2350" in getattr(sys.implementation, "_machine", "") else 0x40058000
    machine.mem32[base + 0x3000] = 1 << 30


def has_wifi():
    """True on a Pico W or a Pico 2 W (MicroPython names the board "... Pico W with RP2040"):
    Phones can start an access point there (``hw/wifi.py``, imported only then)."""
    return " W with " in getattr(sys.implementation, "_machine", "")


def reset_by_watchdog():
    """True when this boot follows a watchdog reset."""
    return reset_cause() == WDT_RESET


class Buttons:
    """Samples a fixed sequence of pull-up input pins."""

    def __init__(self, pins):
        self._pins = tuple(pins)
        self._n = len(self._pins)

    def read(self):
        """Return the pressed bits: bit i is set when pins[i] reads low."""
        bits = 0
        pins = self._pins
        for i in range(self._n):
            if pins[i].value() == 0:
                bits |= 1 << i
        return bits


class ButtonInput:
    """The buttons of one layout (pins in ``keys.LAYOUTS[layout]`` order) through ``keys``,
    that layout's ``tablemate.keys.Keys``: the object the app polls.

    Its pin interrupts only raise ``woken``, which ends the main loop's nap early: a press is
    sampled within a millisecond of its first edge, while the loop still sleeps between passes.
    """

    def __init__(self, pins, keys):
        self._pins = tuple(pins)
        self._buttons = Buttons(self._pins)
        self._keys = keys
        self.woken = False  # an edge since the last poll
        edge = self._edge
        for pin in self._pins:
            pin.irq(edge, pin.IRQ_FALLING | pin.IRQ_RISING)

    def _edge(self, pin):
        self.woken = True

    def due(self, now):
        """Milliseconds until a held key's LONG or REPEAT (or a debounce window's end) is due,
        None when only an edge can bring a key event (``Keys.due``)."""
        return self._keys.due(now)

    def poll(self, now, emit):
        """Sample the buttons at ``now``; calls ``emit(key, kind)`` for each key event."""
        self.woken = False
        self._keys.update(self._buttons.read(), now, emit)

    def close(self):
        """Detach the interrupts (the layout is being replaced)."""
        for pin in self._pins:
            pin.irq(None)


class Buzzer:
    """Plays (frequency_hz, ms) notes (0 = a rest) on a ``machine.PWM``, one note change per
    ``tick``, so that a tune never blocks the loop."""

    def __init__(self, pwm):
        self.pwm = pwm
        self.pwm.duty_u16(0)
        self._pattern = ()
        self._index = 0
        self._until = 0

    @property
    def busy(self):
        return self._index < len(self._pattern)

    def play(self, pattern, now):
        """Start ``pattern`` now, cutting off whatever was playing."""
        self._pattern = pattern
        self._index = 0
        self._note(now)

    def due(self, now):
        """Milliseconds until the note playing ends, None when silent."""
        if self._index >= len(self._pattern):
            return None
        ms = ticks_diff(self._until, now)
        return ms if ms > 0 else 0

    def tick(self, now):
        if self._index < len(self._pattern) and ticks_diff(now, self._until) >= 0:
            self._index += 1
            self._note(now)

    def _note(self, now):
        if self._index >= len(self._pattern):
            self.pwm.duty_u16(0)
            return
        freq, ms = self._pattern[self._index]
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(_HALF)
        else:
            self.pwm.duty_u16(0)
        self._until = ticks_add(now, ms)


class Probe:
    """``scan()`` the display's bus; ``speed(hz)`` sets its clock (``hz``: the speed now, None
    without the board's configuration ``cfg``); ``battery_mv()`` when a battery sense pin is
    wired; ``wall()``, the calendar clock; ``dormant()`` at the battery's cut-off."""

    def __init__(self, i2c, adc=None, cfg=None):
        self._i2c = i2c
        self._adc = adc
        self._cfg = cfg
        self.hz = cfg["freq"] if cfg else None

    def speed(self, hz):
        """Run the display's bus at ``hz`` from now on (the self-test's fast display)."""
        self._i2c = bus(self._cfg, hz)
        self.hz = hz

    def scan(self):
        """7-bit addresses that answer on the display's I2C bus."""
        return self._i2c.scan()

    def battery_mv(self):
        """The supply voltage in mV (VSYS, through the 1:3 divider), an int (a reading
        allocates nothing); None when not wired, or when the pin reads less than any running
        Pico's VSYS: it is not sensing the supply (a Pico W's GP29 is the radio's clock, a
        divider off its pin, the emulated Pico's ADC at 0 V), and 0 V is no empty battery."""
        if self._adc is None:
            return None
        mv = self._adc.read_u16() * _FULL_MV // 65535
        return mv if mv >= _FLOOR_MV else None

    def wall(self):
        """(year, month, day, hours, minutes, seconds) of the board's calendar clock, or None
        when nobody set it: a Pico's RTC starts at 2021-01-01 at power-up and keeps the time
        the host gives it at ``tablemate flash`` and ``pull`` (until the power goes). The only
        read of the wall clock: the game's logic runs on ``ticks_ms``; this dates a game."""
        t = RTC().datetime()  # (year, month, day, weekday, hours, minutes, seconds, subseconds)
        if t[0] < _SET_SINCE:
            return None
        return t[0], t[1], t[2], t[4], t[5], t[6]

    def dormant(self):
        """Sleep until reset: ``machine.deepsleep()`` without a time is, on rp2 (1.28's
        ``modmachine.c``), ``lightsleep()`` without a time, the RP2040's DORMANT state (the
        crystal stopped, no wake source armed: the pins' interrupts are not dormant wakes),
        then a reset once something wakes it: the RUN pin, or power off and on. The panel keeps
        what it shows, and the watchdog, whose tick comes from the stopped crystal (clk_ref),
        counts nothing."""
        deepsleep()
