"""A KY-040 style rotary encoder's turns as key events: A/B quadrature in, detents out.

``Encoder`` is the pure part of the knob (``tablemate.hw.encoder.EncoderInput`` is its driver,
the pins and their interrupts), so it runs in tests on both VMs, and the hardware layer, which is
handed one by the boot, imports nothing above it. Loaded only for the encoder layout.

Fed with the A and B levels (at every edge the interrupt caught, or from polling), it keeps the
2-bit Gray code state and counts quarter steps with a transition table. Why it does not count
edges: a contact bouncing on one edge goes back and forth between two neighbouring states, which
adds +1, -1, +1, ... and nets to nothing; a jump of both bits at once (a missed sample) says
nothing about the direction and is ignored. A detent counts only when the code comes back to a
rest state after a full cycle in one direction (``steps_per_detent`` transitions: 4 on the common
20-detent KY-040 modules, 2 or 1 on others), so a knob wiggled at its rest position or a cycle
with a skipped state never produces a step.

Clockwise (A falls first, from rest at A=B=1) is DOWN, "next"; anticlockwise is UP. A knob that
runs the other way has A and B swapped: swap them in ``board.py``. Each detent is a tap: PRESS
(or REPEAT, see below) then RELEASE, so the app's wake-up key swallowing works as with buttons.
A detent that follows the previous one in the same direction within ``fast_ms`` is a REPEAT, so
screens that accelerate held keys (number entry) accelerate a fast spin too.
"""

from micropython import const

from tablemate import ticks_diff
from tablemate.keys import DOWN, PRESS, RELEASE, REPEAT, UP

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

    def turns(self, cw, ccw, now, emit):
        """Emit ``cw`` clockwise detents, then ``ccw`` anticlockwise ones, all at ``now``."""
        for _ in range(cw):
            self.detent(DOWN, now, emit)
        for _ in range(ccw):
            self.detent(UP, now, emit)
