"""Logical keys from raw button lines: debounce, long press and auto-repeat as one pure state machine.

The hardware layer only reads pins; everything about timing lives here and is fed ``now``, so the
same code runs on the Pico, in the simulator and in tests with exact control of time. ``update``
allocates nothing: per-line state sits in bit masks and two preallocated lists.

The drivers that feed it (``tablemate.hw.peripherals.ButtonInput`` for buttons,
``tablemate.hw.encoder.EncoderInput`` for the knob, whose turns ``tablemate.knob`` decodes) are
handed a ``Keys`` by the boot, so the hardware layer imports nothing above it.

Choices worth knowing:
- A line's level flips at its first edge, and then the line is deaf for ``debounce_ms``: the
  chatter of a bouncing contact falls inside that window, and a press is acted on at once
  instead of after the contact has settled (on a Pico that wait was most of a key's latency).
  A level that still differs when the window closes flips then (a tap shorter than the window).
  LONG and REPEAT times are counted from the PRESS event.
- Lines already pressed at the first ``update`` (the key that chose a new layout, a key held at
  boot) are ignored until released: no events at all for that hold.
- A late update emits at most one REPEAT (no burst of catch-up repeats) and keeps the cadence.
- Where the layout has no BACK line, OK's PRESS waits for the release, and holding OK for
  ``long_ms`` gives a BACK PRESS instead; that hold then ends with a BACK RELEASE.
"""

from micropython import const

from tablemate import ticks_add, ticks_diff

UP = const(1)
DOWN = const(2)
LEFT = const(3)
RIGHT = const(4)
OK = const(5)
BACK = const(6)

PRESS = const(1)
LONG = const(2)
REPEAT = const(3)
RELEASE = const(4)

NAMES = ("", "UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK")  # NAMES[key]
KIND_NAMES = ("", "PRESS", "LONG", "REPEAT", "RELEASE")  # KIND_NAMES[kind]

# Line i of the button bits carries LAYOUTS[name][i]. Three buttons are PREV, NEXT, OK. The rotary
# encoder's push switch is its only button (turning is ``tablemate.knob``): OK, long push BACK.
LAYOUTS = {
    "six": (UP, DOWN, LEFT, RIGHT, OK, BACK),
    "five": (UP, DOWN, LEFT, RIGHT, OK),
    "three": (UP, DOWN, OK),
    "encoder": (OK,),
}
def linear(layout):
    """True for the layouts without LEFT and RIGHT (three buttons, the knob): their UP and DOWN
    are PREV and NEXT, walking in order instead of moving over the screen."""
    return LEFT not in LAYOUTS.get(layout, ())


# What BACK is called on each layout, for the hints on screen (only keys the layout has).
BACK_WORD = {"six": "BACK", "five": "hold OK", "three": "hold OK", "encoder": "long push"}


LONG_MS = const(700)  # a key held this long is a LONG (on a layout without BACK, OK's is BACK)


class Keys:
    """Turns pressed-line bits sampled over time into (key, kind) events."""

    def __init__(self, layout="six", debounce_ms=30, long_ms=LONG_MS, repeat_delay_ms=450,
                 repeat_ms=110):
        if layout not in LAYOUTS:
            raise ValueError("layout")
        self._map = LAYOUTS[layout]
        n = len(self._map)
        self._n = n
        self._all = (1 << n) - 1
        self._okback = BACK not in self._map  # long OK stands in for BACK
        self._debounce = debounce_ms
        self._long = long_ms
        self._delay = repeat_delay_ms
        self._every = repeat_ms
        self._since = [0] * n  # when each line last flipped
        self._due = [0] * n  # when each held line's next LONG or REPEAT is due
        self._down = 0  # debounced bits
        self._deaf = 0  # lines inside their debounce window
        self._quiet = 0  # held lines with nothing more to time (LONG given, or ignored)
        self._mute = 0  # held lines whose release is silent too
        self._fresh = True  # no update seen yet

    def update(self, pressed_bits, now, emit):
        """Feed the pressed-line bits sampled at ``now``; calls ``emit(key, kind)`` per event."""
        bits = pressed_bits & self._all
        if self._fresh:
            self._fresh = False
            self._down = self._quiet = self._mute = bits
            return
        if not ((bits ^ self._down) or (self._down & ~self._quiet) or self._deaf):
            return  # nothing to flip, nothing held that has a LONG or REPEAT to come
        for i in range(self._n):
            b = 1 << i
            if self._deaf & b:
                if ticks_diff(now, self._since[i]) < self._debounce:
                    continue
                self._deaf &= ~b
            if (bits ^ self._down) & b:
                self._down ^= b
                self._deaf |= b
                self._since[i] = now
                if bits & b:
                    self._pressed(i, b, now, emit)
                else:
                    self._released(i, b, emit)
            elif self._down & b and not self._quiet & b and ticks_diff(now, self._due[i]) >= 0:
                self._held(i, b, now, emit)

    def due(self, now):
        """Milliseconds from ``now`` until ``update`` has something to time without a new edge
        (a debounce window closing, a held key's LONG or REPEAT), 0 if overdue; None when only
        an edge can bring an event: the main loop sleeps that long (``App.due``)."""
        if not ((self._down & ~self._quiet) or self._deaf):
            return None
        best = None
        for i in range(self._n):
            b = 1 << i
            if self._deaf & b:
                ms = self._debounce - ticks_diff(now, self._since[i])
            elif self._down & b and not self._quiet & b:
                ms = ticks_diff(self._due[i], now)
            else:
                continue
            if best is None or ms < best:
                best = ms
        return best if best is None or best > 0 else 0

    def _pressed(self, i, b, now, emit):
        key = self._map[i]
        self._quiet &= ~b
        self._mute &= ~b
        if key <= RIGHT:
            emit(key, PRESS)
            self._due[i] = ticks_add(now, self._delay)
            return
        if not (key == OK and self._okback):
            emit(key, PRESS)
        self._due[i] = ticks_add(now, self._long)

    def _released(self, i, b, emit):
        key = self._map[i]
        if self._mute & b:
            self._mute &= ~b
        elif key == OK and self._okback:
            if self._quiet & b:
                emit(BACK, RELEASE)
            else:
                emit(OK, PRESS)
                emit(OK, RELEASE)
        else:
            emit(key, RELEASE)
        self._quiet &= ~b

    def _held(self, i, b, now, emit):
        key = self._map[i]
        if key <= RIGHT:
            emit(key, REPEAT)
            due = ticks_add(self._due[i], self._every)
            if ticks_diff(due, now) <= 0:  # the update came late: keep going, but no burst
                due = ticks_add(now, self._every)
            self._due[i] = due
            return
        self._quiet |= b
        if key == OK and self._okback:
            emit(BACK, PRESS)
        else:
            emit(key, LONG)

