"""A KY-040 style rotary encoder: A/B quadrature on two pins, its push switch on a third.

The main loop ticks every 10 ms, too slowly for a knob spun fast (a 20-detent encoder at two turns
a second changes state every 6 ms, and a worn contact chatters up to 8 times per edge), so edges
are caught by pin interrupts and counted right there: the handler reads both pins and steps the
quadrature state machine below, which adds a detent to one of two counters (clockwise,
anticlockwise). Nothing is buffered, so no burst of bounces can overflow anything, and the handler
allocates nothing (small ints and a tuple lookup), so it may run as a hard IRQ, even in the
middle of an I2C transfer. ``poll`` in the main loop emits the detents counted since the last
pass. Without interrupts (``irq=False``) ``poll`` samples the pins, which is enough for slow
turns. The push switch is a one-button layout of ``tablemate.keys`` ("encoder": short push OK,
long push BACK). Pins arrive built (inputs with pull-ups); this module never imports machine.
Every edge, the switch's included, raises ``woken`` so that the main loop's nap ends at once.

``Encoder`` is the pure part, A/B quadrature as a state machine (levels in, detents out), so it
runs in tests on both VMs. Fed with the A and B levels (at every edge the interrupt caught, or
from polling), it keeps the 2-bit Gray code state and counts quarter steps with a transition table.
Why it does not count edges: a contact bouncing on one edge goes back and forth between two
neighbouring states, which adds +1, -1, +1, ... and nets to nothing; a jump of both bits at once
(a missed sample) says nothing about the direction and is ignored. A detent counts only when the
code comes back to a rest state after a full cycle in one direction (``steps_per_detent``
transitions: 4 on the common 20-detent KY-040 modules, 2 or 1 on others), so a knob wiggled
at its rest position or a cycle with a skipped state never produces a step.

Clockwise (A falls first, from rest at A=B=1) is DOWN, "next"; anticlockwise is UP. A knob that
runs the other way has A and B swapped: swap them in ``board.py``. Each detent is a tap: PRESS
(or REPEAT, see below) then RELEASE, so the app's wake-up key swallowing works as with buttons.
A detent that follows the previous one in the same direction within ``fast_ms`` is a REPEAT, so
screens that accelerate held keys (number entry) accelerate a fast spin too.
"""

from time import ticks_diff

from micropython import const

from tablemate.keys import DOWN, PRESS, RELEASE, REPEAT, UP, Keys

_MASK = const(0x3FFF)  # detent counters wrap here: still a small int, so the IRQ never allocates

# state = A << 1 | B; clockwise runs 3 -> 1 -> 0 -> 2 -> 3. _STEP[old << 2 | new]: +1 clockwise,
# -1 anticlockwise, 0 for no change or an invalid jump (both bits changed).
_STEP = (0, -1, 1, 0,
         1, 0, 0, -1,
         -1, 0, 0, 1,
         0, 1, -1, 0)
_REST = const(3)  # A and B both high (contacts open) at a KY-040's detents


class Encoder:
    """Turns A/B levels into detents: ``step`` for the interrupt, ``update`` for key events."""

    def __init__(self, steps_per_detent=4, fast_ms=40):
        if steps_per_detent not in (1, 2, 4):
            raise ValueError("steps_per_detent")
        self._steps = steps_per_detent
        self._fast = fast_ms
        self._state = -1  # no sample yet
        self._count = 0  # quarter steps since the last rest state, signed
        self._last_key = 0  # key of the last detent, for REPEAT
        self._last_at = 0

    def _at_rest(self, state):
        if self._steps == 4:
            return state == _REST
        if self._steps == 2:
            return state == _REST or state == 0
        return True

    def step(self, a, b):
        """Take the A and B levels (truthy = high): 1 for a clockwise detent completed, -1 for
        an anticlockwise one, else 0. Allocation-free, for a hard interrupt handler."""
        state = (2 if a else 0) | (1 if b else 0)
        old = self._state
        if state == old:
            return 0
        self._state = state
        if old < 0:
            return 0  # the first sample only sets where we are
        self._count += _STEP[old << 2 | state]
        if not self._at_rest(state):
            return 0
        count = self._count
        self._count = 0
        if count == self._steps:
            return 1
        if count == -self._steps:
            return -1
        return 0

    def update(self, a, b, now, emit):
        """Feed one sample of the A and B levels taken at ``now``; emit its detent, if any."""
        turn = self.step(a, b)
        if turn:
            self.detent(DOWN if turn > 0 else UP, now, emit)

    def detent(self, key, now, emit):
        """Emit one detent of ``key`` at ``now``: PRESS, or REPEAT when it follows the last
        one in the same direction within ``fast_ms``; then RELEASE."""
        if key == self._last_key and self._fast and ticks_diff(now, self._last_at) < self._fast:
            emit(key, REPEAT)
        else:
            emit(key, PRESS)
        emit(key, RELEASE)
        self._last_key = key
        self._last_at = now


class EncoderInput:
    """The encoder layout's input: ``poll(now, emit)`` like ``keys.ButtonInput``."""

    def __init__(self, a, b, sw, steps_per_detent=4, irq=True):
        self.layout = "encoder"
        self._a = a
        self._b = b
        self._sw = sw
        self._encoder = Encoder(steps_per_detent)
        self._keys = Keys("encoder")
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

    def poll(self, now, emit):
        """Emit the detents since the last poll (or sample the pins), then the switch, at ``now``."""
        self.woken = False
        enc = self._encoder
        if self._irq:
            # Turns both ways between two passes (10 ms) come out clockwise first: a hand
            # cannot reverse a knob within one pass, so only bounce could, and it nets to zero.
            cw = self._cw
            for _ in range((cw - self._cw_seen) & _MASK):
                enc.detent(DOWN, now, emit)
            self._cw_seen = cw
            ccw = self._ccw
            for _ in range((ccw - self._ccw_seen) & _MASK):
                enc.detent(UP, now, emit)
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
