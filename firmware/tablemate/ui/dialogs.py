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


def wrap(message, max_width, most=4):
    """Split ``message`` into at most ``most`` lines no wider than ``max_width`` pixels, at
    spaces where possible; a word wider than a line is cut.

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
                return lines
            line = word
        lines.append(line)
        if len(lines) >= most:
            return lines
    return lines


class _Box(Screen):
    """A framed box over the screen below, with wrapped lines of text."""

    opaque = False

    def __init__(self, app, message):
        Screen.__init__(self, app)
        self.lines = wrap(message, _BOX_W - 8)

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
        _Box.__init__(self, app, question)
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
    """A message the player acknowledges with OK or BACK (a problem found at boot, a result)."""

    def __init__(self, app, message, on_done=None):
        _Box.__init__(self, app, message)
        self.on_done = on_done

    def key(self, key, kind):
        if kind == K.PRESS and (key == K.OK or key == K.BACK):
            self.app.pop()
            if self.on_done:
                self.on_done()

    def draw(self, fb):
        self.draw_box(fb, False)
