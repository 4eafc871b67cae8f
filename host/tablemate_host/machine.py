"""An honest fake of MicroPython's ``machine`` module for the rp2 port (Raspberry Pi Pico).

Why: ``main.py`` and ``tablemate/hw`` must run on CPython in tests and in the simulator, and a
test is only worth something if the fake behaves like the Pico where it matters: an input with a
pull-up reads 1 until something drives it low; I2C writes to an absent address raise the same
OSError the rp2 port raises; PWM and output pins remember *when* they changed (on the fake clock
``tablemate_host.fakes.clock``) so a test can check a blink or a beep. Nothing here is a mock
that accepts anything: unknown pins, bad I2C pin pairs and out-of-range values fail as on the
device.

All state lives in the module-level ``world`` (pins, I2C buses and attached devices, PWM, ADC,
watchdog); tests call ``world.reset()`` to start clean.
"""

import errno

from tablemate_host.fakeclock import clock, ticks_diff

_NUM_GPIO = 30  # GP0..GP29 on the RP2040
_NAMED = {"LED": 25}  # Pico: the on-board LED is GP25 (on the Pico W it sits on the radio chip)

PWRON_RESET = 1
WDT_RESET = 3
_BOOT_DATE = (2021, 1, 1, 4, 0, 0, 0, 0)  # rp2's RTC after power-up: Friday 2021-01-01


class ResetCalled(BaseException):
    """Raised by reset()/soft_reset(): on the device they never return.

    A BaseException, so that firmware's ``except Exception`` cannot swallow it.
    """


def _pin_id(pin):
    """Resolve a Pin, an int or a name ('GP5', 'LED') to a GPIO number, as mp_hal_get_pin_obj does."""
    if isinstance(pin, Pin):
        return pin.id
    if isinstance(pin, bool):
        raise TypeError("expecting a pin")
    if isinstance(pin, int):
        if 0 <= pin < _NUM_GPIO:
            return pin
        raise ValueError("invalid pin")
    if isinstance(pin, str):
        if pin in _NAMED:
            return _NAMED[pin]
        if pin.startswith("GP") and pin[2:].isdigit() and int(pin[2:]) < _NUM_GPIO:
            return int(pin[2:])
        raise ValueError("unknown named pin \"%s\"" % pin)
    raise TypeError("expecting a pin")


class _Pad:
    """One GPIO pad: its configuration, what drives it, and the history of its output level."""

    def __init__(self, gpio):
        self.gpio = gpio
        self.mode = Pin.IN
        self.pull = None
        self.out = 0  # the output latch
        self.external = None  # level forced by the outside world (None: nothing drives it)
        self.history = []  # (ms, level) each time the level seen on the pad changes by our output
        self.irq_handler = None
        self.irq_trigger = 0
        self.function = None  # "PWM", "I2C", ... when a peripheral owns the pad

    def level(self):
        """The level the pad reads: our output if we drive it, else the outside world, else the pull."""
        if self.mode == Pin.OUT:
            return self.out
        if self.mode == Pin.OPEN_DRAIN and self.out == 0:
            return 0
        if self.external is not None:
            return self.external
        if self.pull == Pin.PULL_UP:
            return 1
        if self.mode == Pin.OPEN_DRAIN:
            return 1  # released open-drain lines have pull-ups in every circuit we build
        return 0  # floating or pulled down: reads low (a real floating pin is undefined)

    def record(self):
        lvl = self.level()
        if not self.history or self.history[-1][1] != lvl:
            self.history.append((clock.ms, lvl))


class _I2CBus:
    """The wires of one I2C bus: attached devices by address and the log of transactions."""

    def __init__(self):
        self.devices = {}
        self.log = []  # (addr, bytes) per successful write transaction
        self.writes = 0
        self.bytes = 0
        self.reads = 0
        self.nacks = 0
        self.bits = 0  # clock cycles on the wire (9 per byte incl. ACK, + address byte)
        self.freq = None  # SCL in Hz, as the last I2C(...) on this bus set it

    def clear(self):
        """Forget the log and counters, keep the devices."""
        self.log = []
        self.writes = self.bytes = self.reads = self.nacks = self.bits = 0


class _Watchdog:
    def __init__(self):
        self.timeout = None
        self.started = None
        self.feeds = []
        self.stops = 0  # times it was stopped through mem32 (boot.run on a computer's Ctrl-C)
        self.bit = None  # fake-clock ms at which a feed came too late (the Pico had reset by then)

    def starved(self):
        """True when the fake clock has run past the timeout since the last feed (the Pico would reset)."""
        if self.timeout is None:
            return False
        if self.bit is not None:
            return True
        last = self.feeds[-1] if self.feeds else self.started
        return ticks_diff(clock.ms, last) > self.timeout

    def feed(self):
        """A feed after the timeout has run out does not count: on the device it never happens."""
        if self.starved():
            if self.bit is None:
                self.bit = clock.ms
            return
        self.feeds.append(clock.ms)


class World:
    """Everything outside the CPU: pads, buses, devices, analogue levels, watchdog, resets."""

    def __init__(self):
        self.reset()

    def reset(self):
        """Start a test from power-on: no pins configured, no devices, no history."""
        self.pads = {}
        self.i2c = {}
        self.pwm = {}  # gpio -> list of (ms, freq, duty_u16); duty 0 and freq 0 after deinit
        self.adc = {}  # channel -> u16 value
        self.wdt = _Watchdog()
        self.rtc = _BOOT_DATE  # the RTC's datetime() tuple: a Pico's at power-up until set
        self.rtc_set = None  # (the tuple RTC.datetime(t) set, clock.ms then): it runs from there
        self.resets = []  # ("hard"|"soft", ms)
        self.cause = PWRON_RESET
        self.cpu_freq = 125_000_000
        self.sleeps = []  # (kind, ms) for lightsleep/deepsleep
        self.irq_disabled = 0
        self.emergency_buf = 0  # size given to micropython.alloc_emergency_exception_buf
        self.hard_irqs_too_early = []  # pins given a hard IRQ before that buffer existed

    def pad(self, pin):
        gpio = _pin_id(pin)
        pad = self.pads.get(gpio)
        if pad is None:
            pad = self.pads[gpio] = _Pad(gpio)
        return pad

    def drive(self, pin, level):
        """Force a pin's level from outside (a button to ground: 0); None releases it. Fires IRQs."""
        pad = self.pad(pin)
        before = pad.level()
        pad.external = None if level is None else (1 if level else 0)
        after = pad.level()
        if pad.irq_handler is not None and before != after:
            edge = Pin.IRQ_RISING if after else Pin.IRQ_FALLING
            if pad.irq_trigger & edge:
                pad.irq_handler(Pin(pad.gpio))

    def level(self, pin):
        """The level on a pin right now."""
        return self.pad(pin).level()

    def history(self, pin):
        """[(ms, level), ...] of an output pin: when its level changed."""
        return list(self.pad(pin).history)

    def bus(self, bus_id):
        bus = self.i2c.get(bus_id)
        if bus is None:
            bus = self.i2c[bus_id] = _I2CBus()
        return bus

    def attach_i2c(self, bus_id, addr, device):
        """Put device (with ``write(data)`` and optionally ``read(n)``) on a bus at a 7-bit address.

        bus_id is 0 or 1 for the hardware buses, ("soft", scl_gpio, sda_gpio) for a SoftI2C.
        """
        self.bus(bus_id).devices[addr] = device
        return device

    def set_adc(self, channel_or_pin, value):
        """Set what ADC(channel or pin).read_u16() returns (0..65535)."""
        self.adc[_adc_channel(channel_or_pin)] = int(value) & 0xFFFF


world = World()


class Pin:
    """machine.Pin for rp2: Pin(id, mode=-1, pull=-1, *, value=None, alt=-1)."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, *, value=None, alt=-1):
        self.id = _pin_id(id)
        self.init(mode, pull, value=value, alt=alt)

    def init(self, mode=-1, pull=-1, *, value=None, alt=-1):
        """Reconfigure; -1 keeps the current mode/pull, value sets the output latch first."""
        pad = world.pad(self.id)
        if mode not in (-1, Pin.IN, Pin.OUT, Pin.OPEN_DRAIN, Pin.ALT):
            raise ValueError("invalid pin mode: %r" % (mode,))
        if pull not in (-1, None, 0, Pin.PULL_UP, Pin.PULL_DOWN):
            raise ValueError("invalid pull: %r" % (pull,))
        if value is not None:
            pad.out = 1 if value else 0
        if mode != -1:
            pad.mode = mode
            pad.function = None
        if pull != -1:
            pad.pull = pull or None
        if pad.mode in (Pin.OUT, Pin.OPEN_DRAIN):
            pad.record()

    def value(self, v=None):
        """Read the pad level, or set the output latch."""
        pad = world.pad(self.id)
        if v is None:
            return pad.level()
        pad.out = 1 if v else 0
        if pad.mode in (Pin.OUT, Pin.OPEN_DRAIN):
            pad.record()
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def high(self):
        self.value(1)

    def low(self):
        self.value(0)

    def toggle(self):
        pad = world.pad(self.id)
        self.value(0 if pad.out else 1)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, *, hard=False):
        """Call handler(pin) on the chosen edges when a test drives the pin."""
        pad = world.pad(self.id)
        pad.irq_handler = handler
        pad.irq_trigger = trigger
        if hard and handler is not None and not world.emergency_buf:
            world.hard_irqs_too_early.append(self.id)  # an exception there could not be reported
        return _PinIRQ(pad)

    def __eq__(self, other):
        return isinstance(other, Pin) and other.id == self.id

    def __hash__(self):
        return hash(("Pin", self.id))

    def __repr__(self):
        pad = world.pad(self.id)
        return "Pin(GPIO%d, mode=%s)" % (self.id, ("IN", "OUT", "OPEN_DRAIN", "ALT")[pad.mode])


class _PinIRQ:
    def __init__(self, pad):
        self._pad = pad

    def trigger(self):
        return self._pad.irq_trigger

    def flags(self):
        return 0


class _I2CBase:
    _ENOACK = errno.EIO

    def __init__(self, bus_id, freq):
        self.bus_id = bus_id
        # rp2: one static object per controller, and I2C(id, freq=...) initialises it again:
        # every object of a bus runs at the speed the last one set
        world.bus(bus_id).freq = freq

    @property
    def _bus(self):
        return world.bus(self.bus_id)  # looked up each time, so world.reset() takes effect

    @property
    def freq(self):
        return self._bus.freq

    def _device(self, addr, nbytes):
        dev = self._bus.devices.get(addr)
        self._bus.bits += 9 * (1 + nbytes)
        limit = getattr(dev, "max_hz", None)  # a device that does not keep up at this speed
        if dev is None or (limit is not None and self._bus.freq > limit):
            self._bus.nacks += 1
            raise OSError(self._ENOACK, errno.errorcode[self._ENOACK])
        return dev

    def scan(self):
        """Addresses 0x08..0x77 that acknowledge (at this bus speed)."""
        bus = self._bus
        return sorted(a for a, dev in bus.devices.items() if 0x08 <= a <= 0x77
                      and (getattr(dev, "max_hz", None) is None or bus.freq <= dev.max_hz))

    def writeto(self, addr, buf, stop=True):
        """One write transaction; returns the number of bytes acknowledged."""
        data = bytes(buf)
        dev = self._device(addr, len(data))
        bus = self._bus
        bus.log.append((addr, data))
        bus.writes += 1
        bus.bytes += len(data)
        dev.write(data)
        return len(data)

    def writevto(self, addr, vector, stop=True):
        """Write several buffers as ONE transaction (rp2 joins them), e.g. [b'\\x40', pixels]."""
        return self.writeto(addr, b"".join(bytes(b) for b in vector), stop)

    def readfrom_into(self, addr, buf, stop=True):
        dev = self._device(addr, len(buf))
        self._bus.reads += 1
        data = dev.read(len(buf)) if hasattr(dev, "read") else b"\xff" * len(buf)
        buf[:] = bytes(data)[: len(buf)]

    def readfrom(self, addr, nbytes, stop=True):
        buf = bytearray(nbytes)
        self.readfrom_into(addr, buf, stop)
        return bytes(buf)

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        """Register write: the memory address bytes then buf, in one transaction."""
        return self.writeto(addr, memaddr.to_bytes(addrsize // 8, "big") + bytes(buf))

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        self.writeto(addr, memaddr.to_bytes(addrsize // 8, "big"), False)
        self.readfrom_into(addr, buf)

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        buf = bytearray(nbytes)
        self.readfrom_mem_into(addr, memaddr, buf, addrsize=addrsize)
        return bytes(buf)


class I2C(_I2CBase):
    """Hardware I2C (rp2): I2C(id=0, freq=400000, *, scl, sda, timeout); a NACK raises OSError(EIO)."""

    _DEFAULT_PINS = {0: (5, 4), 1: (7, 6)}

    def __init__(self, id=0, freq=400_000, *, scl=None, sda=None, timeout=50_000):
        if id not in (0, 1):
            raise ValueError("I2C(%d) doesn't exist" % id)
        dscl, dsda = self._DEFAULT_PINS[id]
        self.scl = dscl if scl is None else _pin_id(scl)
        self.sda = dsda if sda is None else _pin_id(sda)
        # rp2: SCL on odd pins, SDA on even pins, I2C0/I2C1 on alternating pairs of pins
        if not (self.scl & 1 == 1 and (self.scl & 2) >> 1 == id):
            raise ValueError("bad SCL pin")
        if not (self.sda & 1 == 0 and (self.sda & 2) >> 1 == id):
            raise ValueError("bad SDA pin")
        for gpio in (self.scl, self.sda):
            world.pad(gpio).function = "I2C"
        super().__init__(id, freq)


class SoftI2C(_I2CBase):
    """Bit-banged I2C on any two pins; a NACK raises OSError(ENODEV) like extmod's soft I2C."""

    _ENOACK = errno.ENODEV

    def __init__(self, scl, sda, *, freq=400_000, timeout=50_000):
        self.scl = _pin_id(scl)
        self.sda = _pin_id(sda)
        super().__init__(("soft", self.scl, self.sda), freq)


class PWM:
    """rp2 PWM on a pin; every change is logged in world.pwm[gpio] as (ms, freq, duty_u16)."""

    def __init__(self, dest, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        self.gpio = _pin_id(dest)
        world.pad(self.gpio).function = "PWM"
        self._freq = 0
        self._duty = 0
        self._active = True
        self.init(freq=freq, duty_u16=duty_u16, duty_ns=duty_ns, invert=invert)

    def init(self, *, freq=None, duty_u16=None, duty_ns=None, invert=False):
        self._active = True
        if freq is not None:
            self._set_freq(freq)
        if duty_u16 is not None:
            self._set_duty(duty_u16)
        if duty_ns is not None:
            self.duty_ns(duty_ns)
        self._log()

    def _log(self):
        world.pwm.setdefault(self.gpio, []).append((clock.ms, self._freq if self._active else 0,
                                                     self._duty if self._active else 0))

    def _set_freq(self, f):
        if not 8 <= f <= 62_500_000:  # the RP2040 divider range at 125 MHz
            raise ValueError("freq too small" if f < 8 else "freq too large")
        self._freq = int(f)

    def _set_duty(self, d):
        if not 0 <= d <= 65535:
            raise ValueError("duty_u16 must be from 0 to 65535")
        self._duty = int(d)

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._set_freq(value)
        self._log()

    def duty_u16(self, value=None):
        if value is None:
            return self._duty if self._active else 0
        self._set_duty(value)
        self._log()

    def duty_ns(self, value=None):
        if value is None:
            return 0 if not self._freq else self._duty * 1_000_000_000 // (self._freq * 65536)
        self._set_duty(min(65535, value * self._freq * 65536 // 1_000_000_000))
        self._log()

    def deinit(self):
        """Stop the output; logged as freq 0, duty 0."""
        self._active = False
        self._log()


def _adc_channel(src):
    if isinstance(src, Pin) or isinstance(src, str):
        gpio = _pin_id(src)
    elif isinstance(src, int) and 26 <= src <= 29:
        gpio = src
    elif isinstance(src, int) and 0 <= src <= 4:
        return src
    else:
        raise ValueError("invalid channel")
    if not 26 <= gpio <= 29:
        raise ValueError("Pin doesn't have ADC capabilities")
    return gpio - 26


class ADC:
    """ADC(channel 0-4, or GP26-29): read_u16() returns what the test set with world.set_adc()."""

    CORE_TEMP = 4

    def __init__(self, src):
        self.channel = _adc_channel(src)

    def read_u16(self):
        return world.adc.get(self.channel, 0)


class RTC:
    """The calendar clock. ``datetime(t)`` sets it (the host's commands do on a board, and the
    simulator with the computer's time, ``flash.rtc_time``), and from then on it runs with the
    fake clock, as a Pico's RTC counts the seconds; ``datetime()`` reads it. A test that puts a
    tuple in ``world.rtc`` stops it there: that is the time until it puts another."""

    def datetime(self, t=None):
        if t is None:
            return _rtc_now()
        if len(t) != 8:
            raise ValueError("requested length 8 but object has length %d" % len(t))
        world.rtc = tuple(t)
        world.rtc_set = (world.rtc, clock.ms)
        return None


def _rtc_now():
    """``world.rtc``, run on by the fake clock's milliseconds since ``RTC.datetime(t)`` set it."""
    if world.rtc_set is None or world.rtc_set[0] is not world.rtc:
        return world.rtc
    from datetime import datetime, timedelta
    y, mo, d, _, h, mi, s, _ = world.rtc
    t = datetime(y, mo, d, h, mi, s) + timedelta(milliseconds=ticks_diff(clock.ms,
                                                                         world.rtc_set[1]))
    return (t.year, t.month, t.day, t.weekday(), t.hour, t.minute, t.second, 0)


class _Mem32:
    """``machine.mem32``: only the watchdog's CTRL register (and its atomic clear alias, which
    stops the watchdog when bit 30 is written) exists here; any other address raises."""

    _CTRL = 0x40058000
    _ENABLE = 1 << 30

    def __getitem__(self, addr):
        if addr != self._CTRL:
            raise ValueError("no fake register at 0x%08x" % addr)
        return self._ENABLE if world.wdt.timeout is not None else 0

    def __setitem__(self, addr, value):
        if addr != self._CTRL + 0x3000:
            raise ValueError("no fake register at 0x%08x" % addr)
        if value & self._ENABLE:
            world.wdt.timeout = None  # stopped: it never bites again until WDT() starts it
            world.wdt.stops += 1


mem32 = _Mem32()


class WDT:
    """Watchdog; rp2 limits the timeout to 8388 ms. feed() times are recorded; see world.wdt.starved()."""

    def __init__(self, id=0, timeout=5000):
        if not 1 <= timeout <= 8388:
            raise ValueError("timeout exceeds 8388")
        world.wdt.timeout = timeout
        world.wdt.started = clock.ms

    def feed(self):
        world.wdt.feed()


def reset():
    """Hard reset: recorded, then raises ResetCalled (it never returns on the device)."""
    world.resets.append(("hard", clock.ms))
    raise ResetCalled("machine.reset()")


def soft_reset():
    world.resets.append(("soft", clock.ms))
    raise ResetCalled("machine.soft_reset()")


def reset_cause():
    return world.cause


def freq(hz=None):
    if hz is None:
        return world.cpu_freq
    world.cpu_freq = int(hz)


def unique_id():
    return b"\xe6\x61\x38\x52\x83\x4a\x2b\x2d"


def idle():
    pass


def lightsleep(ms=None):
    """Sleeps on the fake clock (a test sees the time pass)."""
    world.sleeps.append(("light", ms))
    if ms:
        clock.advance(ms)


def deepsleep(ms=None):
    world.sleeps.append(("deep", ms))
    world.resets.append(("deepsleep", clock.ms))
    raise ResetCalled("machine.deepsleep()")


def disable_irq():
    world.irq_disabled += 1
    return world.irq_disabled


def enable_irq(state=None):
    world.irq_disabled = max(0, world.irq_disabled - 1)
