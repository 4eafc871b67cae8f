"""The fake clock: the Pico's millisecond ticks, moving only when a test or the simulator says so.

Why a module of its own: ``fakes`` installs it as the ``time`` functions the firmware calls, and
the fake ``machine`` (``machine.py``) stamps what its pins, PWM, watchdog and RTC do with it;
here, below both, it lets ``fakes`` import ``machine`` without ``machine`` importing it back.
"""

TICKS_PERIOD = 1 << 30  # the rp2 port wraps ticks_ms at 2**30
_TICKS_MAX = TICKS_PERIOD - 1
_TICKS_HALF = TICKS_PERIOD // 2


def ticks_add(ticks, delta):
    """Add like the Pico: the result wraps into 0..2**30-1."""
    return (ticks + delta) & _TICKS_MAX


def ticks_diff(end, start):
    """Signed difference of two wrapped tick values, as MicroPython computes it."""
    return ((end - start + _TICKS_HALF) & _TICKS_MAX) - _TICKS_HALF


class Clock:
    """A millisecond clock that only moves when told to, and wraps like the Pico's."""

    def __init__(self, start=0):
        self.ms = start & _TICKS_MAX

    def ticks_ms(self):
        return self.ms

    def ticks_us(self):
        return (self.ms * 1000) & _TICKS_MAX

    def advance(self, ms):
        self.ms = ticks_add(self.ms, ms)
        return self.ms

    def set(self, ms):
        self.ms = ms & _TICKS_MAX


clock = Clock()
