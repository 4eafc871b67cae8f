"""The game modes, and what the flash holds of the game in progress.

``MODES`` is the registry: one entry per game mode, and the only place a mode's name, menu label,
player range and history outcomes are written (its setup options are the setup menu's:
``tablemate.ui.setup.OPTIONS``). The home menu, the shared setup menu, the history and the host
tools (``tablemate report``, the README pictures, package.json) all read it. A mode is its entry plus two modules named after it: ``rules/<name>.py`` (the pure
game) and ``screens/<name>.py`` (its play screen); docs/contracts.md has the recipe.

The home menu asks here whether a game is saved (``saved_name``) and whether it had ended
(``ended``): that, and the registry, is all a boot needs. Starting, resuming, filing and leaving
a game is ``tablemate.lifecycle``, loaded with the first setup menu or resume question.
"""

from tablemate import os


# Each mode: name (the rules and screens module), label (menu), players (min, max, default),
# optionally note (a word after the player count, by count), race (no "1st player" in the setup:
# the game's first screen settles who starts, and its first action says who) and outcomes (how a
# finished game reads in the history, by its summary's "outcome", or "coop:" and the outcome for
# a co-operative game, tried first; without a word for it, a game lists its winners, "(tie)"
# after several, or reads "unfinished"). A mode's setup options are the setup menu's business
# (``tablemate.ui.setup.OPTIONS``): the boot loads this registry, and a Pico pays for every
# constant in it at every boot.
MODES = (
    {"name": "scorepad", "label": "Scorepad", "players": (1, 8, 2)},
    {"name": "contrast", "label": "Contrast", "players": (2, 6, 4), "note": {2: "co-op"},
     "outcomes": {"coop:win": "co-op won", "lose": "co-op lost", "draw": "co-op drawn"}},
    {"name": "viewpoint", "label": "Viewpoint", "players": (2, 6, 4)},
    {"name": "perfect_moment", "label": "Perfect Moment", "players": (2, 2, 2), "race": True},
    {"name": "cartes_sur_table", "label": "Cartes sur Table", "players": (3, 7, 5)},
    {"name": "perspective", "label": "Perspective", "players": (1, 4, 4), "race": True,
     "note": {1: "solo"}, "outcomes": {"solved": "solved"}},
)


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


def result(record):
    """How a finished game reads in the history: "Ann", "Ann, Bob (tie)", a mode's word for its
    outcome ("co-op lost"), or "unfinished". ``record`` is a history line, already checked."""
    words = (mode(record.get("game")) or {}).get("outcomes", {})
    outcome = str(record.get("outcome"))
    if record.get("coop") and "coop:" + outcome in words:
        return words["coop:" + outcome]
    if outcome in words:
        return words[outcome]
    names = record.get("names", [])
    won = [names[i] for i in record.get("winners", []) if 0 <= i < len(names)]
    if not won:
        return "unfinished"
    return ", ".join(won) + (" (tie)" if len(won) > 1 else "")


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
        return None, False  # no game: the journal module is not even imported (boot time)
    from tablemate.store import journal
    header = journal.read_header(path)
    name = header["game"] if header else None
    # A game this build does not play is not offered: the boot resumes it to set it aside.
    return (name if mode(name) else None), True


def saved_name(app):
    """The mode name of the saved game, or None when there is none."""
    return saved(app)[0]


def ended(app):
    """True when the saved game ended and was filed (the players had not left it yet)."""
    try:
        os.stat(end_path(app))
        return True
    except OSError:
        return False


def end_path(app):
    """The marker file of a saved game that ended and was filed (see ``lifecycle.file``)."""
    return app.path("game.end")
