"""Entering a number with big digits: a player count, a target, a score change, minutes.

Its own module because only setup menus, the scorepad and the chess clock need it: the dialogs
that every game loads (``ui.dialogs``) stay small.
"""

from tablemate import keys as K
from tablemate.ui import Screen, accel, draw_title, text


class NumberEntry(Screen):
    """Enter a number with big digits. UP/RIGHT add, DOWN/LEFT subtract; holding accelerates.

    On a rotary encoder a clockwise turn is DOWN (the next menu row) but, like any volume knob,
    it adds here.

    ``fmt`` turns the value into the string shown (digits, ':', '+', '-' for the big font);
    ``zero`` is a word shown instead of 0 (e.g. "none" for "no target").
    """

    plus_minus = True  # LEFT subtracts, RIGHT adds, whichever way the picture is turned

    def __init__(self, app, title, value, lo, hi, on_done, step=1, fmt=None, zero=None):
        Screen.__init__(self, app)
        self.title = title
        self.value = value
        self.lo = lo
        self.hi = hi
        self.on_done = on_done
        self.step = step
        self.fmt = fmt
        self.zero = zero
        self._repeats = 0

    def key(self, key, kind):
        if kind == K.PRESS and key == K.OK:
            self.app.pop()
            self.on_done(self.value)
            return
        if kind == K.PRESS and key == K.BACK:
            self.app.pop()
            return
        if kind != K.PRESS and kind != K.REPEAT:
            return
        if key == K.UP or key == K.RIGHT:
            sign = 1
        elif key == K.DOWN or key == K.LEFT:
            sign = -1
        else:
            return
        if self.app.layout == "encoder":
            sign = -sign
        self._repeats = self._repeats + 1 if kind == K.REPEAT else 0
        self.value = min(self.hi, max(self.lo, self.value + sign * self.step * accel(self._repeats)))
        self.dirty = True

    def draw(self, fb):
        draw_title(fb, self.title)
        if self.value == 0 and self.zero:
            text.draw_centered(fb, self.zero, 26, text.SMALL, 1)
        else:
            shown = self.fmt(self.value) if self.fmt else "%d" % self.value
            text.draw_centered(fb, shown, 20, text.large()[1], 1)
        cancel = K.BACK_WORD.get(self.app.layout, "BACK") + " cancel"
        # "long push cancel" leaves no room for "OK set" on the same line: it goes above.
        text.draw(fb, "OK set", 0, 56 if text.width(cancel) < 86 else 46)
        text.draw_right(fb, cancel, 128, 56)
