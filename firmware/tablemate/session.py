"""The saved game: starting, resuming and finishing the one game in progress.

A game in progress is its journal file (``game.jnl``); this module is the only place that decides
when that file is created, replayed, summarised into the history and removed. Game modes are found
by name: the journal header names the rules module, and the screen module of the same name plays it.

The game stays in RAM while the players visit other pages (settings, history...), so "Continue"
shows it at once instead of replaying its journal (a Pico replays about 1 ms per action).
"""

import os
import sys

MODES = (("Scorepad", "scorepad"), ("Contrast", "contrast"))  # (menu label, rules and screen module name)


def label(name):
    for title, mode in MODES:
        if mode == name:
            return title
    return name


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
    from tablemate import journal
    header = journal.read_header(path)
    return (header["game"] if header else None), True


def saved_name(app):
    """The mode name of the saved game, or None when there is none."""
    return saved(app)[0]


def start(app, name, opts):
    """Begin a new game of ``name`` (replacing any saved one) and show its screen."""
    from tablemate.game import Game, rules_for  # not at boot: the home menu needs neither
    game = Game.new(rules_for(name), game_path(app), opts)
    app.game = game
    screen_module(name).play(app, game)


def begin(app, name, opts):
    """Start ``name`` from its setup menu, asking first when that would replace a saved game."""
    if saved_name(app):
        from tablemate.ui.dialogs import Confirm
        app.push(Confirm(app, "Replace the saved game?", lambda: start(app, name, opts)))
    else:
        start(app, name, opts)


def resume(app):
    """Show the saved game (replayed unless still in RAM); report a damaged journal on the way."""
    game = app.game
    if game is not None:
        screen_module(game.rules.__name__.split(".")[-1]).play(app, game)
        return True
    from tablemate.game import Game
    from tablemate.ui.dialogs import Notice
    game, problem = Game.resume(None, game_path(app))
    if game is None:
        if problem:
            app.push(Notice(app, problem))
        return False
    app.game = game
    screen_module(game.rules.__name__.split(".")[-1]).play(app, game)
    if problem:
        app.push(Notice(app, problem))
    return True


def finish(app, game, name):
    """File a finished game in the history and free the journal."""
    app.game = None
    summary = game.rules.summary(game.state)
    summary["game"] = name
    summary["actions"] = game.count
    from tablemate import journal
    journal.record_history(app.path("history.jnl"), summary)
    journal.remove(game_path(app))
