"""A passive piezo on a PWM pin, playing short note patterns without blocking the loop.

``play`` starts a pattern of (frequency_hz, ms) notes (frequency 0 is a rest); ``tick`` moves to
the next note when its time is up. The app calls ``tick`` every loop with ``now``.
"""

from time import ticks_add, ticks_diff

from micropython import const

_HALF = const(32768)


class Buzzer:
    """Drives an already-built ``machine.PWM`` (injected, so this module never imports machine)."""

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
