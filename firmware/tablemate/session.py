"""The game modes, and the one game in progress: starting, resuming and finishing it.

``MODES`` is the registry: one entry per game mode, and the only place a mode's name, menu label,
player range, setup options and history outcomes are written. The home menu, the shared setup
menu, the history and the host tools (``tablemate report``, the README pictures, package.json)
all read it. A mode is its entry plus two modules named after it: ``rules/<name>.py`` (the pure
game) and ``screens/<name>.py`` (its play screen); docs/contracts.md has the recipe.

A game in progress is its journal file (``game.jnl``); this module is the only place that decides
when that file is created, replayed, summarised into the history and removed. It shows no dialog
itself: what the player must be told comes back to the caller as a short text. The game stays in
RAM while the players visit other pages (settings, history...), so "Continue" shows it at once
instead of replaying its journal.
"""

import os
import sys

# Setup option kinds, for the shared setup menu (tablemate.ui.setup). An option is
# (key, label, kind, default, params):
NUMBER = 0  # params (lo, hi, step, word shown for 0 or None)
CHOICE = 1  # params (values, unit or words): LEFT/RIGHT cycle through the values; with a unit a
# value reads "30s" (0 reads "off"), with a tuple of words each value reads as its word
FLAG = 2  # params None: on or off

# Each mode: name (the rules and screens module), label (menu), players (min, max, default),
# options (see above; every mode also gets "first", the player who starts, from the setup), note (a word after the player count, by count), fixed(players) (options
# that follow from the player count), outcomes (how a finished game reads in the history, by its
# summary's "outcome", or "coop:" and the outcome for a co-operative game, tried first; without a
# word for it, a game lists its winners, "(tie)" after several, or reads "unfinished").
MODES = (
    {"name": "scorepad", "label": "Scorepad", "players": (1, 8, 2),
     "options": (("target", "Target", NUMBER, 0, (0, 9995, 5, "none")),
                 ("finish", "Win", CHOICE, True, ((True, False), ("end of round", "at once"))),
                 ("rotate", "Rotate start", FLAG, False, None),
                 ("timer", "Turn timer", CHOICE, 0, ((0, 15, 30, 45, 60, 90, 120, 180, 300), "s")))},
    {"name": "contrast", "label": "Contrast", "players": (2, 6, 4), "note": {2: "co-op"},
     "options": (("expert", "Expert", FLAG, False, None),),
     "fixed": lambda n: {"coop": n == 2},
     "outcomes": {"coop:win": "co-op won", "lose": "co-op lost", "draw": "co-op drawn"}},
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


def screen_module(name):
    """Import ``tablemate.screens.<name>`` on first use (RAM is only spent on the mode played)."""
    full = "tablemate.screens." + name
    __import__(full)
    return sys.modules[full]


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
    return (header["game"] if header else None), True


def saved_name(app):
    """The mode name of the saved game, or None when there is none."""
    return saved(app)[0]


def prefetch(app, name):
    """Have the app import mode ``name``'s modules in its quiet passes, one module a pass.

    Called while the player reads a question or a setup menu, so that starting or resuming the
    game then costs no imports (a Pico spends 15-30 ms on each; five of them are half the 150 ms
    a resume may take).
    """
    for module in ("tablemate.store.jfile", "tablemate.store.game", "tablemate.rules." + name,
                   "tablemate.ui.play", "tablemate.screens." + name):
        app.soon(lambda m=module: __import__(m))


def start(app, name, opts):
    """Begin a new game of ``name`` and show its screen.

    A saved game it replaces is filed in the history first (as it stands: unfinished, unless it
    had ended), after the new game's first frame and before the new journal takes its place.
    """
    from tablemate.store.game import Game, rules_for  # not at boot: the home menu needs neither
    old = app.game
    replacing = old is not None or saved_name(app) is not None
    game = Game.new(rules_for(name), game_path(app), opts)
    app.game = game
    if replacing:
        app.after_frame(lambda: _file_replaced(app, old))
    screen_module(name).play(app, game)


def _file_replaced(app, old):
    if old is None:
        from tablemate.store.game import Game
        old = Game.resume(None, game_path(app))[0]  # None: unreadable, nothing to file
    if old is not None and not ended(app):
        file(app, old)
    _forget_end(app)


def resume(app):
    """Show the saved game, replayed unless still in RAM: (shown, problem text or None).

    The problem is what a damaged journal cost (its copy is kept aside); the caller shows it.
    A game found finished (a power cut came before it was filed) is filed at once.
    """
    game = app.game
    if game is not None:
        screen_module(name_of(game)).play(app, game)
        return True, None
    from tablemate.store.game import Game
    game, problem = Game.resume(None, game_path(app))
    if game is None:
        return False, problem
    app.game = game
    if game.rules.result(game.state) is not None:
        app.after_frame(lambda: file(app, game))
    screen_module(name_of(game)).play(app, game)
    return True, problem


def name_of(game):
    """The mode name of a game (its rules module's name)."""
    return game.rules.__name__.split(".")[-1]


def file(app, game):
    """File ``game`` in the history as it stands: when it ends, and when it is left or replaced
    unfinished. A game filed again under its id (an undo reopened it) replaces its first line
    in the History and in ``tablemate report``. While an ended game stays on the screen (an undo
    may reopen it) a marker file says it is filed, so a power cut does not offer it again."""
    summary = game.rules.summary(game.state)
    summary["game"] = name_of(game)
    summary["actions"] = game.count
    if game.id is not None:
        summary["id"] = game.id
    from tablemate.store import history
    history.file(app.path("history.jnl"), summary)
    game.filed = game.count
    if game.rules.result(game.state) is not None:
        with open(_end_path(app), "w") as f:
            f.write(name_of(game))


def reopened(app, game):
    """An undo took back the end of a filed game: it runs again, and is filed again later."""
    game.filed = None
    _forget_end(app)


def ended(app):
    """True when the saved game ended and was filed (the players had not left it yet)."""
    try:
        os.stat(_end_path(app))
        return True
    except OSError:
        return False


def discard(app):
    """Remove the saved game's journal and its end marker (the game is in the history)."""
    from tablemate.store import journal
    app.game = None
    journal.remove(game_path(app))
    _forget_end(app)


def finish(app, game):
    """The players leave ``game``: file it unless it was filed as it stands, free the journal."""
    if game.filed is None:
        file(app, game)
    discard(app)


def _end_path(app):
    return app.path("game.end")


def _forget_end(app):
    try:
        os.remove(_end_path(app))
    except OSError:
        pass
