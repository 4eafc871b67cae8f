"""What the boot finds saved, and the way back into a saved game: "Resume game?", the chess
clock a power cut stopped, "Continue" on the home menu.

A power cut or a flat battery must never cost the table its game, so the boot asks about a game
that was in progress. Apart from the home menu (``screens/__init__.py``), which stays in RAM
under every game: this module is imported once the home menu's first frame is on the panel, and
when "Continue" is chosen, and let go once the question is answered.
"""

from tablemate import os  # not "import os": on a Pico that searches the flash first
from tablemate import modes, unload


def offer(app):
    """At boot: ask to resume a saved game; "No" keeps it for "Continue" on the menu.

    A game that had ended (and was filed) is not offered as if it were running: it is cleared
    and the player is told where it is. A chess clock cut off while in use comes back instead,
    paused (the game stays on the menu)."""
    try:
        os.stat(app.path("clock.json"))  # only then is the clock's module loaded
    except OSError:
        pass
    else:
        from tablemate.screens import chessclock  # .mpy: loaded when opened
        if chessclock.restore(app):
            return
    name, present = modes.saved(app)
    if name and modes.ended(app):
        from tablemate import lifecycle  # .mpy: 3.9 KB kept out of a game's heap
        lifecycle.discard(app)
        from tablemate.store import history  # .mpy: 3 KB, only to file a game
        from tablemate.screens.history import headline  # .mpy: only to offer a game
        last = history.recent(app.path("history.jnl"), 1)
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Notice
        app.push(Notice(app, "Last game ended:\n%s\nIt is in the History."
                        % (headline(last[0]) if last else modes.label(name))))
    elif name:
        from tablemate.ui.dialogs import Confirm  # only then: RAM at boot is tight
        app.push(Confirm(app, "Resume game?\n" + modes.label(name), lambda: resume(app)))
        from tablemate import lifecycle  # .mpy: 3.9 KB kept out of a game's heap
        lifecycle.prefetch(app, name, saved=True)
    elif present:
        resume(app)  # reports the damage and keeps the file aside


def resume(app):
    """Show the saved game, and what a damaged journal cost if it was repaired on the way."""
    from tablemate import lifecycle  # .mpy: 3.9 KB kept out of a game's heap
    problem = lifecycle.resume(app)[1]
    if problem:
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Notice
        app.push(Notice(app, problem))
    else:  # the question is answered: the game can have this RAM until it needs them again
        unload(("tablemate.ui.dialogs", "tablemate.options", "tablemate.lifecycle",
                "tablemate.screens.saved"))
