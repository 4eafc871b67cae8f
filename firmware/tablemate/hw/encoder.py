"""A KY-040 style rotary encoder's driver: A/B quadrature on two pins, its push switch on a third.

The main loop sleeps while nothing is due, and a pass takes a millisecond or more: too slow for
a knob spun fast (a 20-detent encoder at two turns a second changes state every 6 ms, and a
worn contact chatters up to 8 times per edge), so edges are caught by pin interrupts and
counted right there: the handler reads both pins and steps the quadrature state machine
(``tablemate.knob.Encoder``, handed in by the boot), which adds a detent to one of two
counters (clockwise, anticlockwise). Nothing is buffered, so no burst of bounces can overflow
anything, and the handler allocates nothing (small ints and a tuple lookup), so it may
run as a hard IRQ, even in the middle of an I2C transfer. ``poll`` in the main loop emits the
detents counted since the last pass. Without interrupts (``irq=False``) ``poll`` samples the
pins, which is enough for slow turns. The push switch is a one-button layout of the key machine
(``keys``, a ``tablemate.keys.Keys("encoder")``: short push OK, long push BACK). Pins arrive built
(inputs with pull-ups). Every edge, the switch's included, raises ``woken`` so that the main
loop's nap ends at once.
"""

from micropython import const

_MASK = const(0x3FFF)  # detent counters wrap here: still a small int, so the IRQ never allocates
_POLL_MS = const(10)  # without interrupts, the pins are sampled this often


class EncoderInput:
    """The encoder layout's input: ``poll(now, emit)`` like ``peripherals.ButtonInput``."""

    def __init__(self, a, b, sw, encoder, keys, irq=True):
        self._a = a
        self._b = b
        self._sw = sw
        self._encoder = encoder
        self._keys = keys
        # Detents counted by the interrupt handler (written there only) and the counts poll has
        # emitted (written by poll only): one writer each, so no lock is needed.
        self._cw = 0
        self._ccw = 0
        self._cw_seen = 0
        self._ccw_seen = 0
        self._encoder.step(a.value(), b.value())  # where the knob rests
        self._irq = irq
        self.woken = False  # an edge since the last poll
        if irq:
            handler = self._edge
            a.irq(handler, a.IRQ_RISING | a.IRQ_FALLING, hard=True)
            b.irq(handler, b.IRQ_RISING | b.IRQ_FALLING, hard=True)
            sw.irq(self._push, sw.IRQ_RISING | sw.IRQ_FALLING)

    def _push(self, pin):
        self.woken = True

    def _edge(self, pin):
        self.woken = True
        turn = self._encoder.step(self._a.value(), self._b.value())
        if turn > 0:
            self._cw = (self._cw + 1) & _MASK
        elif turn < 0:
            self._ccw = (self._ccw + 1) & _MASK

    def due(self, now):
        """Milliseconds until the push switch has a LONG (or a debounce window's end) due, None
        when only an edge can bring an event; without interrupts the pins are sampled every
        ``_POLL_MS``."""
        due = self._keys.due(now)
        if not self._irq and (due is None or due > _POLL_MS):
            return _POLL_MS
        return due

    def poll(self, now, emit):
        """Emit the detents since the last poll (or sample the pins), then the switch, at ``now``."""
        self.woken = False
        enc = self._encoder
        if self._irq:
            # Turns both ways between two passes (milliseconds) come out clockwise first: a hand
            # cannot reverse a knob within one pass, so only bounce could, and it nets to zero.
            cw = self._cw
            ccw = self._ccw
            enc.turns((cw - self._cw_seen) & _MASK, (ccw - self._ccw_seen) & _MASK, now, emit)
            self._cw_seen = cw
            self._ccw_seen = ccw
        else:
            enc.update(self._a.value(), self._b.value(), now, emit)
        self._keys.update(0 if self._sw.value() else 1, now, emit)

    def close(self):
        """Detach the interrupt handlers (the layout is being replaced)."""
        if self._irq:
            self._a.irq(None)
            self._b.irq(None)
            self._sw.irq(None)
