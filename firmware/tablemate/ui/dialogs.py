"""Modal dialogs: confirm and notice (a number is entered with ``ui.numberentry``).

Each is a screen pushed over the current one; it pops itself and then calls back, so the callback
may push the next screen. Confirm and notice are boxes drawn over the screen below (not opaque),
which keeps the context visible while the player decides.
"""

from micropython import const

from tablemate import keys as K
from tablemate.ui import Screen, text

_BOX_X = const(4)
_BOX_W = const(120)
_PAGES = const(4)  # boxes of four lines a notice may fill


def wrap(message, max_width, most=4):
    """Split ``message`` into at most ``most`` lines no wider than ``max_width`` pixels, at
    spaces where possible; a word wider than a line is cut. A message with more than ``most``
    lines ends its last one in ``fit``'s '.', so that nothing is dropped without a mark.

    The work is bounded by what the lines show, not by the message: a name of 20 KB from a
    damaged file costs a few measures of it, where cutting it a character at a time from its
    end measured it once per character (minutes on a Pico).
    """
    lines = []
    for para in message.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = word if not line else line + " " + word
            if text.width(trial) <= max_width:
                line = trial
                continue
            if line:
                lines.append(line)
            while len(lines) < most and text.width(word) > max_width:
                cut = text.fitting(word, max_width) or 1  # one at least: a line moves on
                lines.append(word[:cut])
                word = word[cut:]
            if len(lines) >= most:
                lines[-1] = text.fit(lines[-1] + " " + word, max_width)
                return lines
            line = word
        lines.append(line)
        if len(lines) >= most:
            return lines
    return lines


class _Box(Screen):
    """A framed box over the screen below, with wrapped lines of text."""

    opaque = False

    def __init__(self, app, lines):
        Screen.__init__(self, app)
        self.lines = lines

    def draw_box(self, fb, with_buttons):
        h = len(self.lines) * 9 + (16 if with_buttons else 6)
        y = (64 - h) // 2
        fb.fill_rect(_BOX_X, y, _BOX_W, h, 0)
        fb.rect(_BOX_X, y, _BOX_W, h, 1)
        ty = y + 4
        for line in self.lines:
            text.draw_centered(fb, line, ty, text.SMALL, 1)
            ty += 9
        return ty


class Confirm(_Box):
    """A yes/no question. Any arrow toggles the choice, OK answers, BACK answers no."""

    def __init__(self, app, question, on_yes, on_no=None, yes="Yes", no="No", default=True):
        _Box.__init__(self, app, wrap(question, _BOX_W - 8))
        self.on_yes = on_yes
        self.on_no = on_no
        self.labels = (yes, no)
        self.choice = 0 if default else 1

    def key(self, key, kind):
        if kind != K.PRESS:
            return
        if key == K.OK or key == K.BACK:
            yes = key == K.OK and self.choice == 0
            self.app.pop()
            callback = self.on_yes if yes else self.on_no
            if callback:
                callback()
        else:
            self.choice ^= 1
            self.dirty = True

    def draw(self, fb):
        y = self.draw_box(fb, True)
        for i in range(2):
            label = self.labels[i]
            w = text.width(label) + 8
            x = 36 - w // 2 if i == 0 else 92 - w // 2
            if i == self.choice:
                fb.fill_rect(x, y, w, 10, 1)
                text.draw(fb, label, x + 4, y + 1, color=0)
            else:
                fb.rect(x, y, w, 10, 1)
                text.draw(fb, label, x + 4, y + 1)


class Notice(_Box):
    """A message the player acknowledges (a problem found at boot, a rule to read, a result).

    A message longer than the box's four lines is read a box at a time: an arrow at the box's
    lower right says more follows, OK (or DOWN, RIGHT) shows the next four lines, UP or LEFT the
    ones before; OK on the last box, or BACK on any, closes it. Nothing a notice says is lost to
    its size (up to ``_PAGES`` boxes: what a name from a damaged file could make longer)."""

    def __init__(self, app, message, on_done=None):
        lines = wrap(message, _BOX_W - 8, 4 * _PAGES)
        if len(lines) > 4:  # narrower lines: room for the arrow beside them
            lines = wrap(message, _BOX_W - 24, 4 * _PAGES)
        _Box.__init__(self, app, lines[:4])
        self._all = lines
        self._page = 0
        self.on_done = on_done

    def key(self, key, kind):
        if kind != K.PRESS:
            return
        last = (len(self._all) - 1) // 4
        if (key == K.OK or key == K.DOWN or key == K.RIGHT) and self._page < last:
            self._turn(self._page + 1)
        elif (key == K.UP or key == K.LEFT) and self._page:
            self._turn(self._page - 1)
        elif key == K.OK or key == K.BACK:
            self.app.pop()
            if self.on_done:
                self.on_done()

    def _turn(self, page):
        self._page = page
        self.lines = self._all[4 * page:4 * page + 4]
        self.dirty = True  # (the app draws the screen below again too: the box may shrink)

    def draw(self, fb):
        end = self.draw_box(fb, False)
        if 4 * self._page + 4 < len(self._all):
            text.draw(fb, text.ARROW_DOWN, _BOX_X + _BOX_W - 8, end - 9)
