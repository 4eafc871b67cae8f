"""The message line: a refused action or a notice shown on the bottom row for a few seconds.

It is a component, not a screen, so a game screen keeps its table visible while telling the player
why a key press did nothing. Rule errors are at most 21 characters: one line of the small font.
"""

from time import ticks_add, ticks_diff

from micropython import const

from tablemate.ui import text

_SHOW_MS = const(2500)


class MessageLine:
    """Holds one short message until it times out (or stays, with ``ms=0``)."""

    def __init__(self):
        self.text = None
        self._timed = False
        self._until = 0

    def show(self, message, now, ms=_SHOW_MS):
        """Show ``message`` from ``now`` for ``ms`` milliseconds (0: until cleared)."""
        self.text = message
        self._timed = ms > 0
        self._until = ticks_add(now, ms)

    def clear(self):
        self.text = None

    def tick(self, now):
        """Return True when the message just expired (the owner must redraw)."""
        if self.text is not None and self._timed and ticks_diff(now, self._until) >= 0:
            self.text = None
            return True
        return False

    def draw(self, fb, y=56):
        if self.text is not None:
            fb.fill_rect(0, y - 1, 128, 65 - y, 1)
            text.draw_centered(fb, self.text, y, text.SMALL, 0)
