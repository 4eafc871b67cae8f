"""The game modes, and what the flash holds of the game in progress.

``MODES`` is the registry: one entry per game mode, and the only place a mode's name, menu label
and history outcomes are written. Everything else about a mode is its two modules:
``rules/<name>.py`` (the pure game, with its players, options and what follows from them:
``tablemate.options``) and ``screens/<name>.py`` (its ``SCREEN`` class). The home menu, the
setup menu, the history and the host tools (``tablemate report``, the README pictures,
package.json, the benchmarks) all read the registry, and ``lifecycle.rules`` and
``lifecycle.screen`` find a mode's modules from it: no other place needs a mode's name. The host's
extras for the built-in modes (a recorded long game for the heap figure, the sample report's
games, the README's pictures of a game) name the modes they know and give any other mode a
default or nothing. docs/adding-a-game.md has the recipe.

The home menu asks here whether a game is saved (``saved_name``) and whether it had ended
(``ended``): that, and the registry, is all a boot needs. Starting, resuming, filing and leaving
a game is ``tablemate.lifecycle``, loaded with the first setup menu or resume question.
"""

from tablemate import os


# Each mode: name (its modules' name, and the journal's and history's "game"), label (menus)
# and optionally short (the label where a row has no room for the whole: "Continue Cartes",
# a History row), outcomes (how a finished game reads in the history, by its summary's
# "outcome", or "coop:" and the outcome for a co-operative game, tried first; without a word for
# it, a game lists its winners, "(tie)" after several, "&" between a team's (outcome "team"),
# or reads "unfinished"), ends (why a game ended, by its outcome, where the scores do not say
# it: "%s" the players who did not win; "tie": why the winner won on a number equal to
# another player's; the standings, the History and the report add it), numbers (what its
# summary's scores are: "points", more is better, the default; "moves", fewer is better;
# "none", no numbers: the winners rank first, the others together after them; a dict when the
# setup decides it, by the summary's "kind", "*" for any other: every place that shows or
# exports a result reads it through ``flow.standings.numbers``), and "rules" and "screens"
# (where its modules are, when not tablemate.rules.<name> and tablemate.screens.<name>: a mode
# from outside the firmware, as the tests register one). The boot loads this registry, and a
# Pico pays for every constant in it at every boot: what a mode's setup needs is in its rules
# module, imported when the home menu's cursor rests on it.
MODES = [
    {"name": "scorepad", "label": "Scorepad"},
    {"name": "contrast", "label": "Contrast",
     "outcomes": {"coop:win": "co-op won", "lose": "co-op lost", "draw": "co-op draw"}},
    {"name": "viewpoint", "label": "Viewpoint"},
    {"name": "perfect_moment", "label": "Perfect Moment", "short": "P. Moment",
     "ends": {"time": "%s's time is up", "tie": "Tie: last turn won"}},
    {"name": "cartes_sur_table", "label": "Cartes sur Table", "short": "Cartes"},
    {"name": "perspective", "label": "Perspective", "outcomes": {"solved": "solved"},
     "numbers": {"solo": "moves", "*": "none"}},
]


def mode(name):
    """The registry entry of mode ``name``, or None."""
    for m in MODES:
        if m["name"] == name:
            return m
    return None


def label(name):
    """The menu label of mode ``name`` (the name itself for a mode this build lacks)."""
    m = mode(name)
    return m["label"] if m else name


def short(name):
    """The short label of mode ``name``, where a row has no room for its whole label."""
    m = mode(name)
    return m.get("short", m["label"]) if m else name


def game_path(app):
    return app.path("game.jnl")


def saved(app):
    """(mode name of the saved game or None, whether a journal file is there at all).

    A file without a readable header is a game cut off while it was being created.
    """
    path = game_path(app)
    try:
        os.stat(path)
    except OSError:
        try:
            os.stat(path + ".new")  # a repair a cut stopped between its renames (salvage.keep_start)
        except OSError:
            return None, False  # no game: the journal's reader is not even imported (boot time)
        from tablemate.store import files
        files.finish(path, ".new")
    from tablemate.store import readback  # let go by the game that follows (``Game.new``)
    header = readback.read_header(path)
    name = header["game"] if header else None
    # A game this build does not play is not offered: the boot resumes it to set it aside.
    return (name if mode(name) else None), True


def saved_name(app):
    """The mode name of the saved game, or None when there is none."""
    return saved(app)[0]


def ended(app):
    """True when the saved game ended and was filed (the players had not left it yet): its
    end marker holds for its journal (``readback.marks_end``: an undo appended since reopened
    it, whether or not a power cut kept the marker's removal)."""
    from tablemate.store import readback
    return readback.marks_end(end_path(app), game_path(app))


def end_path(app):
    """The marker file of a saved game that ended and was filed (see ``lifecycle.file``)."""
    return app.path("game.end")
