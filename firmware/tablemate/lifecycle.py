"""A game's life: starting it, resuming it, filing it in the history, leaving it.

A game in progress is its journal file (``game.jnl``); this module is the only place that decides
when that file is created, replayed, summarised into the history and removed. It shows no dialog
itself: what the player must be told comes back to the caller as a short text. Of the widgets
below it, it uses only ``ui.text``, to render the words of a game's first frame while the players
read (``prefetch``); the modules above it that a game runs on (a mode's screen, the game flow's
``flow.play``) it imports by name, as the registry names them. The game stays in
RAM while the players visit other pages (settings, history...), so "Continue" shows it at once
instead of replaying its journal. It is loaded with the first setup menu or resume question,
not at boot: the home menu needs only ``modes`` (the registry and what is saved).
"""

import sys

from tablemate import FROZEN, RuleError, modes, unload


def rules(name):
    """The rules module of the registered mode ``name``, imported if it is not yet; RuleError
    ("Unknown game") for any other name: a journal naming another module is not a game."""
    return module(name, "rules")


def screen(name):
    """The game screen class of the registered mode ``name`` (its screens module's
    ``SCREEN``), imported if it is not yet."""
    return module(name, "screens").SCREEN


def module(name, part):
    """The registered mode ``name``'s ``part`` module ("rules" or "screens"), imported: the
    registry entry's own, else tablemate.<part>.<name>."""
    m = modes.mode(name) if type(name) is str else None
    if m is None:
        raise RuleError("Unknown game")
    full = m.get(part) or "tablemate." + part + "." + name
    loaded = sys.modules.get(full)  # mostly: imported while the player read the setup (an
    if loaded is not None:  # __import__ would look the dotted name up level by level)
        return loaded
    try:
        __import__(full)
    except ImportError:
        raise RuleError("Unknown game")
    return sys.modules[full]


def rest(home, name):
    """The home menu's cursor rests on mode ``name`` (None: another row): its rules module and
    the options' (the setup menu is drawn from them) are imported while the player reads, a
    Pico taking 15-30 ms for each. The rules module a rest imported before goes (only that: one
    a game or any other loaded stays), so passing the modes by costs no RAM."""
    if home.ready is not None:
        unload((home.ready,))
        home.ready = None
    if name is not None:
        loaded = len(sys.modules)
        ready = rules(name)
        if len(sys.modules) > loaded:  # this rest imported it
            home.ready = ready.__name__
        __import__("tablemate.options")  # let go with the setup's modules


def prefetch(app, name, saved=False):
    """Have the app import mode ``name``'s modules in its quiet passes, one module a pass, then,
    for the saved game (``saved``), render the words of its first frame (``warm``, with its
    players' names: a setup asks for its own).

    Called while the player reads a question or a setup menu, so that starting or resuming the
    game then costs no imports (a Pico spends 15-30 ms on each; five of them are half the 150 ms
    a resume may take) and few renders (about 1 ms a word).
    """
    from tablemate.ui import text
    # readback only reads a journal back (``Game.resume``, which lets it go): a new game never
    # needs it; the score table's kept cells, ``ui.table.keeps`` (not imported here: a .mpy
    # game that draws no table would hold it)
    for full in ((("tablemate.store.readback",) if saved else ()) + ("tablemate.store.game",
                                                                  "tablemate.flow.play")
                 + (("tablemate.ui.cells",) if FROZEN or app.display.fast() else ())):
        app.soon(lambda m=full: __import__(m))
    app.soon(lambda: module(name, "screens"))  # its rules too
    app.soon(lambda: __import__("tablemate.options"))  # a resume's check of the options
    app.soon(text.large)  # the score digits of the game's first frame
    if saved:
        app.soon(lambda: _warm_saved(app, name))


def _warm_saved(app, name):
    from tablemate.store import readback  # prefetched with a saved game
    header = readback.read_header(modes.game_path(app))
    names = header and header.get("opts", {}).get("names")
    warm(app, name, [s for s in names if isinstance(s, str)] if isinstance(names, list) else ())


def warm(app, name, names, opts=None):
    """Have the words of a game's first frame rendered in the quiet passes to come: mode
    ``name``'s screen module's ``WARM``, the players' ``names`` and, for a new game with the
    options ``opts``, its ``first_words(opts)``. A word stays in the text cache while its last
    two generations hold it, and a setup's every frame renders its own rows: the setup asks
    again after each of its frames (``flow.setup.Setup``), or its Start would render them (a
    word costs a Pico about 1 ms)."""
    from tablemate.ui import text
    screens = module(name, "screens")
    words = tuple(getattr(screens, "WARM", ())) + tuple(names)
    first = getattr(screens, "first_words", None)
    if first is not None and opts is not None:
        words += tuple(first(opts))
    for s in words:
        app.soon(lambda s=s: text.warm(s))


def start(app, name, opts, replacing=None):
    """Begin a new game of ``name`` and show its screen.

    A saved game it replaces is filed in the history first (as it stands: unfinished, unless it
    had ended), after the new game's first frame and before the new journal takes its place.
    ``replacing``: whether there is a saved game, when the caller knows (None: look on the
    flash, a few ms on a Pico). Returns None, or the reason the rules refuse these options
    (Perspective's Advanced with four players, a Viewpoint catalog leaving too few cards):
    then nothing has changed, the saved game included.
    """
    from tablemate import RuleError
    from tablemate.store.game import Game  # not at boot: the home menu needs it not
    old = app.game
    if old is not None:
        replacing = True
    elif replacing is None:
        replacing = modes.saved_name(app) is not None
    screens = module(name, "screens")
    prepare = getattr(screens, "prepare", None)  # a mode's options from the flash (Viewpoint's
    try:  # catalog file), into the journal's header with the others
        if prepare:
            opts = prepare(app, opts)
        game = Game.new(rules(name), modes.game_path(app), opts, name)
    except RuleError as err:
        return str(err)
    game.start = stamp(app)
    app.game = game
    if replacing:  # filed by the save that creates the new journal, after the first frame
        game.replaces = old if old is not None else True
    _show(app, game, screens.SCREEN)
    return None


def file_replaced(app, game):
    """File the saved game that the new ``game`` replaces (``game.replaces``), before its first
    save creates the new journal over it (``flow.play.save``). An OSError leaves ``replaces``
    set: a flash that refuses keeps both games as they are, and the next save tries again."""
    old = game.replaces
    if old is not True:
        old.close()  # its journal kept open: before the new one takes the file's name
    if old is True:
        from tablemate.store.game import Game
        old = Game.resume(rules, modes.game_path(app))[0]  # None: unreadable, nothing to file
    if old is not None and not modes.ended(app):
        file(app, old)
    unload(("tablemate.store.readback",))  # the end marker's check read it: a game holds none
    _forget_end(app)
    game.replaces = None


def resume(app):
    """Show the saved game, replayed unless still in RAM: (shown, problem text or None).

    The problem is what a damaged journal cost (its copy is kept aside); the caller shows it.
    A game found finished (a power cut came before it was filed) is filed by its screen
    (``flow.play.GameScreen``), which says so when the flash refuses.
    """
    game = app.game
    if game is not None:
        _show(app, game)
        return True, None
    from tablemate.store.game import Game
    game, problem = Game.resume(rules, modes.game_path(app))
    if game is None:
        return False, problem
    app.game = game
    _show(app, game)
    return True, problem


def _show(app, game, cls=None):
    """Show ``game`` on its mode's screen (``cls``, when the caller has it: the registry is not
    walked again in the press that starts a game) above the home menu: the screen shows what
    the players must read first itself (``GameScreen.enter``)."""
    app.home()
    (cls or screen(name_of(game)))(app, game).enter()


def name_of(game):
    """The mode name of a game, as the registry, its journal and the history know it."""
    return game.name


def file(app, game):
    """File ``game`` in the history as it stands: when it ends, and when it is left or replaced
    unfinished. A game filed again under its id (an undo reopened it) replaces its first line
    in the History and in ``tablemate report``. While an ended game stays on the screen (an undo
    may reopen it) a marker file says it is filed, so a power cut does not offer it again: it
    names the journal's size, and holds only while the journal is that size
    (``modes.ended``), so that an undo on the flash reopens the game whatever a cut left of
    the marker; none is written while lines are unsaved (then the game is offered again)."""
    summary = game.rules.summary(game.state)
    summary["game"] = name_of(game)
    summary["actions"] = game.count
    if game.id is not None:
        summary["id"] = game.id
    if game.start is not None:
        summary["start"] = game.start
    end = stamp(app)
    if end is not None:
        summary["end"] = end
    from tablemate.store import history
    history.file(app.path("history.jnl"), summary)
    game.filed = game.count
    if game.rules.result(game.state) is not None and not game.unsaved:
        from tablemate.store import journal
        try:
            journal.end_mark(modes.end_path(app), name_of(game), game.size)
        except OSError:  # filed all the same: after a power cut the game is offered again,
            pass  # and filing it again under its id changes nothing in the history


def stamp(app):
    """The board's calendar time as "YYYY-MM-DD HH:MM:SS", or None when it is not known (no
    probe, or a clock nobody set since the power came: ``hw.peripherals.Probe.wall``). A game's
    start and end in the history are these; ``tablemate report`` says "unknown" for None."""
    t = app.probe.wall() if app.probe is not None else None
    return None if t is None else "%04d-%02d-%02d %02d:%02d:%02d" % t


def reopened(app, game):
    """An undo took back the end of a filed game: it runs again, and is filed again later."""
    game.filed = None
    _forget_end(app)


def discard(app):
    """Remove the saved game's journal and its end marker (the game is in the history)."""
    from tablemate.store import files
    game = app.game
    app.game = None
    if game is not None:
        game.close()
    files.remove(modes.game_path(app))
    _forget_end(app)


def finish(app, game):
    """The players leave ``game``: file it unless it was filed as it stands, free the journal.

    Returns None, or what stopped the filing (a full or read-only flash): then the game stays
    saved and in RAM (Continue shows it), to be filed when the players leave it again."""
    if game.filed is None:
        try:
            file(app, game)
        except OSError as exc:
            from tablemate.store.files import trouble
            return trouble(exc) + ":\ngame not filed;\nit stays saved"
    discard(app)
    return None


def _forget_end(app):
    from tablemate.store import files
    files.remove(modes.end_path(app))
