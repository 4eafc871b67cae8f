"""The error screen: what broke, in words, and the way back to the menu.

Shown by the app's error net (``App.fail``), which imports this module only when something broke.
The exception goes to ``errors.log`` first (moved to ``errors.old`` past 16 KB); the game's
journal was never touched by the failure, so the game can be resumed from the home menu.
"""

import sys

from micropython import const

from tablemate import VERSION
from tablemate import keys as K
from tablemate.screens import Home
from tablemate.ui import Screen, text
from tablemate.ui.dialogs import wrap

_ERRLOG_MAX = const(16384)


def show(app, exc):
    """Log ``exc``, close every screen above the home menu and show the error over it."""
    keep(app)
    log(app, exc)
    stack = app.stack
    while len(stack) > 1:
        try:
            stack.pop().on_close()
        except Exception:
            pass
    if not stack:
        stack.append(Home(app))
    app.push(ErrorScreen(app, exc))
    app.redraw()


def keep(app):
    """What of the game in RAM survives the error. A game whose every line is on the flash is
    let go: "Continue" replays the journal rather than trust what was in RAM. One with lines the
    flash has not taken yet (a full flash keeps a game in RAM only), or with what it keeps in
    RAM only (a secret ballot's votes), stays, rebuilt from its recorded actions, and
    "Continue" shows it; it is saved now if the flash takes writes, else when it is shown
    again."""
    game = app.game
    if game is None:
        return
    app.game = None
    game.close()  # its journal kept open: let go, it must not commit after "Continue" read it
    if game.unsaved or game.secret:
        try:
            game.replay()
        except Exception:  # the record itself does not replay: the journal decides
            return
        app.game = game
        app.after_frame(lambda: _save_quietly(app, game))


def _save_quietly(app, game):
    """Save what the flash has not taken yet; a refusal waits for the game's screen."""
    from tablemate.flow import play  # .mpy: 6.7 KB, loaded only by a game
    try:
        play.save(app, game)
    except OSError:
        pass


def log(app, exc):
    """Append the traceback to the error log (and the console); a full flash is no reason to stop."""
    def entry(f):
        f.write("--- %d v%s\n" % (app.now, VERSION))
        sys.print_exception(exc, f)
    from tablemate.store import textfiles  # .mpy: only for a file a player wrote
    try:
        textfiles.append(app.path("errors.log"), entry, _ERRLOG_MAX, app.path("errors.old"))
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
