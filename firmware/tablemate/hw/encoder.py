"""A KY-040 style rotary encoder: A/B quadrature on two pins, its push switch on a third.

The main loop ticks every 10 ms, too slowly for a knob spun fast (a 20-detent encoder at two turns
a second changes state every 6 ms), so edges are caught by pin interrupts: the handler only stores
the A/B levels in a small ring (no allocation, so it may run as a hard IRQ, even in the middle of
an I2C transfer), and ``poll`` replays them through the pure ``tablemate.encoder.Encoder`` in the
main loop, where events are emitted. Without interrupts (``irq=False``) ``poll`` samples the pins,
which is enough for slow turns. The push switch is a one-button layout of ``tablemate.keys``
("encoder": short push OK, long push BACK). Pins arrive built (inputs with pull-ups); this module
never imports machine. Every edge, the switch's included, raises ``woken`` so that the main
loop's nap ends at once.
"""

from micropython import const

from tablemate.encoder import Encoder
from tablemate.keys import Keys

_RING = const(32)  # A/B states buffered between two polls (a spin fills ~8 per 10 ms)
_MASK = const(0xFFFF)


class EncoderInput:
    """The encoder layout's input: ``poll(now, emit)`` like ``keys.ButtonInput``."""

    def __init__(self, a, b, sw, steps_per_detent=4, irq=True):
        self.layout = "encoder"
        self._a = a
        self._b = b
        self._sw = sw
        self._encoder = Encoder(steps_per_detent)
        self._keys = Keys("encoder")
        self._ring = bytearray(_RING)
        self._w = 0  # written by the interrupt handler only
        self._r = 0  # written by poll only
        self._last = self._sample()
        self._encoder.update(self._last & 2, self._last & 1, 0, None)  # where the knob rests
        self._irq = irq
        self.woken = False  # an edge since the last poll
        if irq:
            handler = self._edge
            a.irq(handler, a.IRQ_RISING | a.IRQ_FALLING, hard=True)
            b.irq(handler, b.IRQ_RISING | b.IRQ_FALLING, hard=True)
            sw.irq(self._push, sw.IRQ_RISING | sw.IRQ_FALLING)

    def _sample(self):
        return (2 if self._a.value() else 0) | (1 if self._b.value() else 0)

    def _push(self, pin):
        self.woken = True

    def _edge(self, pin):
        self.woken = True
        state = self._sample()
        if state != self._last:
            self._last = state
            self._ring[self._w % _RING] = state
            self._w = (self._w + 1) & _MASK

    def poll(self, now, emit):
        """Feed the A/B states seen since the last poll, then the switch, at ``now``."""
        self.woken = False
        enc = self._encoder
        if self._irq:
            w = self._w
            r = self._r
            if (w - r) & _MASK > _RING:  # more edges than the ring holds: keep the newest
                r = (w - _RING) & _MASK
            while r != w:
                state = self._ring[r % _RING]
                enc.update(state & 2, state & 1, now, emit)
                r = (r + 1) & _MASK
            self._r = r
        else:
            enc.update(self._a.value(), self._b.value(), now, emit)
        self._keys.update(0 if self._sw.value() else 1, now, emit)

    def close(self):
        """Detach the interrupt handlers (the layout is being replaced)."""
        if self._irq:
            self._a.irq(None)
            self._b.irq(None)
            self._sw.irq(None)
