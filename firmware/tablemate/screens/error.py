"""The error screen: what broke, in words, and the way back to the menu.

Shown by the app's error net (``App.fail``), which imports this module only when something broke.
The exception goes to ``errors.log`` first (moved to ``errors.old`` past 16 KB); the game's
journal was never touched by the failure, so the game can be resumed from the home menu.
"""

import os
import sys

from micropython import const

from tablemate import VERSION
from tablemate import keys as K
from tablemate.ui import Screen, text
from tablemate.ui.dialogs import wrap

_ERRLOG_MAX = const(16384)


def show(app, exc):
    """Log ``exc``, close every screen above the home menu and show the error over it."""
    log(app, exc)
    stack = app.stack
    while len(stack) > 1:
        try:
            stack.pop().on_close()
        except Exception:
            pass
    if not stack:
        from tablemate.screens import Home
        stack.append(Home(app))
    app.push(ErrorScreen(app, exc))
    app.redraw()


def log(app, exc):
    """Append the traceback to the error log (and the console); a full flash is no reason to stop."""
    path = app.path("errors.log")
    try:
        if os.stat(path)[6] > _ERRLOG_MAX:
            old = app.path("errors.old")
            try:
                os.remove(old)
            except OSError:
                pass
            os.rename(path, old)
    except OSError:
        pass
    try:
        with open(path, "a") as f:
            f.write("--- %d v%s\n" % (app.now, VERSION))
            sys.print_exception(exc, f)
    except OSError:
        pass
    sys.print_exception(exc)


class ErrorScreen(Screen):
    """Type and message of an exception; OK or BACK returns to the home menu."""

    def __init__(self, app, exc):
        Screen.__init__(self, app)
        self.kind = type(exc).__name__
        self.lines = wrap(str(exc) or "(no message)", 126)

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
