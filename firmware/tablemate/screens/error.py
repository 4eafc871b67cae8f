"""The error screen: what broke, in words, and the way back to the menu.

Shown by the app's error net. The exception is already in the error log; the game's journal was
never touched by the failure, so the game can be resumed from the home menu.
"""

from tablemate import keys as K
from tablemate.ui import text
from tablemate.ui.dialogs import wrap
from tablemate.ui.screen import Screen


class ErrorScreen(Screen):
    """Type and message of an exception; OK or BACK returns to the home menu."""

    def __init__(self, app, exc):
        Screen.__init__(self, app)
        self.kind = type(exc).__name__
        self.lines = wrap(str(exc) or "(no message)", 126)[:4]

    def key(self, key, kind):
        if kind == K.PRESS and (key == K.OK or key == K.BACK):
            self.app.home()

    def draw(self, fb):
        fb.fill_rect(0, 0, 128, 10, 1)
        text.draw(fb, "Error: " + self.kind, 1, 1, color=0)
        y = 13
        for line in self.lines:
            text.draw(fb, line, 1, y)
            y += 9
        text.draw(fb, "Logged. OK: menu", 1, 56)
