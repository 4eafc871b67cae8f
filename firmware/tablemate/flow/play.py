"""What every game screen shares: the game's plumbing, the message line, the game menu, the
standings and the winner's fanfare (the score table is ``ui/table.py``).

One module, because a Pico pays 10-15 ms per module imported and a resumed game must be on the
screen within 150 ms: a mode's screen module plus this one is all a game needs to load. The
standings (``flow/standings.py``) load when a game ends: a Pico keeps module code in its heap.

Plumbing (``GameScreen``): a key press becomes a rules action; the rules take it or refuse it
with a short reason, which the message line shows while the state stays as it was. A taken
action changes the game in RAM at once and is written to the journal after the frame is sent
(``App.after_frame``): the screen never waits for the flash, and a power cut in between loses
only that action. The window is short: after each save the journal is kept open and readied
for the next one (``Game.prime``: littlefs's erase for the next append is done then), so the
next action's write only programs its lines and commits them. What the next frame confirms to someone who must be able to trust it (a
secret vote, its reveal) is written first instead (``do(action, first=True)``). What a mode does after an action (announce a winner, show a round's result)
goes in ``done``; a mode that redraws differently after an undo extends ``undo``; a mode's own
game-menu entries come from ``menu_entries``; ``end`` is what "End game" does to the rules.
The action that ends a game also files it in the history, after the frame (an undo that takes
the end back has it filed again later, under the same id).

Screens read the game through the rules module's accessors (``names``, ``scores``, ``turn``,
``result``), so a mode's state layout stays its rules module's business.
"""

from tablemate import ticks_add, ticks_diff

from micropython import const

from tablemate import RuleError, modes, unload
from tablemate import keys as K
from tablemate.store.files import trouble
from tablemate.ui import ActionMenu, Screen, text

FANFARE = ((1047, 120), (1319, 120), (1568, 300))
_MENU_LABELS = ("Back to game", "Undo", "End game", "New game", "Home")
_SHOW_MS = const(2500)
_W = const(126)  # the message line's text, a column clear at each side
# The narrowest name cell of a game's view (a quarter of the screen, seven or eight players in
# ``ui/table.py``): names wider than this are abbreviated there (``tablemate players set`` says
# which).
NAME_PX = const(29)
# What filing a game loads: let go once it is filed (leaving the game imports them again).
FILING = ("tablemate.store.history", "tablemate.lifecycle")


def save(app, game):
    """Write what ``game`` queued: the one way a game reaches its journal (its screen, the
    error net and a computer's Ctrl-C all save through here). A new game first files the saved
    game it replaces (``lifecycle.file_replaced``). OSError: nothing more was written."""
    if game.replaces is not None:
        _lifecycle().file_replaced(app, game)
    game.save()


def _lifecycle():
    """``tablemate.lifecycle``, imported where it is used: a game does not keep it in RAM (the
    setup menu lets it go once the game is on the panel; filing a game imports it again, after
    the frame)."""
    from tablemate import lifecycle  # .mpy: 3.9 KB kept out of a game's heap
    return lifecycle


# -- the message line --------------------------------------------------------------------------
class MessageLine:
    """One short message on the bottom row (a refusal, a result) until it times out.

    A component, not a screen, so a game screen keeps its table visible while telling the player
    why a key press did nothing. Rule errors are at most 21 characters: one line of the font.
    """

    def __init__(self):
        self.text = None
        self.lines = None
        self._timed = False
        self._until = 0

    def show(self, message, now, ms=_SHOW_MS):
        """Show ``message`` from ``now`` for ``ms`` milliseconds (0: until cleared)."""
        self.text = message
        # a long one ("Undone: Dominiqu: Peripheral Vision") takes the page above too
        self.lines = None
        if text.ink_width(message) > _W:
            from tablemate.ui.dialogs import wrap  # only for a long one
            self.lines = wrap(message, _W, 2)
        self._timed = ms > 0
        self._until = ticks_add(now, ms)

    def clear(self):
        self.text = None

    def due(self, now):
        """Milliseconds until the message times out, None when none is timed."""
        if self.text is None or not self._timed:
            return None
        ms = ticks_diff(self._until, now)
        return ms if ms > 0 else 0

    def tick(self, now):
        """Return True when the message just expired (the owner must redraw)."""
        if self.text is not None and self._timed and ticks_diff(now, self._until) >= 0:
            self.text = None
            return True
        return False

    def draw(self, fb):
        """The message, dark on a lit bottom page (page 7; pages 6-7 for two lines), over
        whatever was there."""
        if self.text is not None:
            lines = self.lines or (self.text,)
            page = 8 - len(lines)
            text.bar(fb, 0, page, 128, 8 * len(lines))
            for s in lines:
                text.put_centered(fb, s, page, color=0)
                page += 1


# -- the game screen ---------------------------------------------------------------------------
class GameScreen(Screen):
    """Holds the ``Game`` and the message line; subclasses draw the game and map keys.

    ``key`` is every game's: BACK goes one level up (a page of the mode's own, ``page_back``,
    else the game menu); a game whose clock waits (``held``: resumed after a power cut, paused)
    takes its first key to go on and nothing else (``resume``); once the game is over the keys
    go to ``end_key`` (OK: the standings), before that to the mode's ``play_key``."""

    labels = ()  # strings this mode's views will show: rendered in quiet passes (``on_open``)
    shows_battery = True  # on the status line, where it has room (``battery.Gauge.mark``)
    held = False  # the game's clock waits for a key (see ``key``)

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        self.rules = game.rules
        self.title = modes.label(game.name)  # the registry's label
        self.msg = MessageLine()
        self._unsaved = False  # a save failed and none has worked since (the players know)
        if game.unsaved:  # a new game: its journal is created once its first frame is sent
            app.after_frame(self.save)
        if game.filed is None and self.over():  # resumed after it ended, or filing failed
            app.after_frame(self._file)

    def on_open(self):
        """Have the labels of the game menu and of this mode's views rendered while the players
        look at the game: the first time a screen shows them is then no slower than the next."""
        self._unready = list(_MENU_LABELS + (self.title,) + self.labels)
        self.app.soon(self._prepare)

    def _prepare(self):
        """Render one label, and come back in the next quiet pass for the next one."""
        todo = self._unready
        if todo:
            text.prepare(todo.pop())
            if todo:
                self.app.soon(self._prepare)

    def key(self, key, kind):
        if key == K.BACK:
            if kind == K.PRESS and not self.page_back():
                self.app.push(GameMenu(self.app, self))
            return
        if self.held:
            if kind == K.PRESS:
                self.held = False
                self.resume()
                self.dirty = True
            return
        if self.over():
            self.end_key(key, kind)
        else:
            self.play_key(key, kind)

    def play_key(self, key, kind):
        """A key of the running game (any kind: PRESS, REPEAT, LONG, RELEASE), not BACK."""

    def end_key(self, key, kind):
        """A key once the game is over (not BACK): OK shows the standings."""
        if kind == K.PRESS and key == K.OK:
            show_standings(self.app, self.game)

    def enter(self):
        """Come on top (``lifecycle`` has just started or resumed the game), and over the game
        what the players must read first (``opening``): every mode's way in."""
        self.app.push(self)
        told = self.opening()
        if told:
            from tablemate.ui.dialogs import Notice
            self.app.push(Notice(self.app, told))

    def opening(self):
        """What the players must read before the game (a variant's dealing, a reminder), or
        None: ``enter`` shows it over the game."""
        return None

    def page_back(self):
        """BACK on a page of the mode's own (a list, a question): close it and return True;
        False on the game itself (the game menu opens)."""
        return False

    def resume(self):
        """The first key after ``held``: start the clock again."""

    def refuse(self, reason):
        """Show why an action was not taken."""
        self.msg.show(str(reason), self.app.now)
        self.dirty = True

    def do(self, action, first=False):
        """Take ``action``: True when the rules accept it, False (reason shown) when refused.

        ``first``: journal it before the frame, not after, so that what the frame confirms is
        on the flash when the players see it (a secret vote, its reveal). The press then waits
        for the write: a few ms, 65 ms when it meets an erase."""
        try:
            self.game.do(action)
        except RuleError as err:
            self.refuse(err)
            return False
        self.dirty = True
        if first:
            self.save()
        else:
            self.app.after_frame(self.save)
        self.done()
        if self.game.filed is None and self.over():  # it ended: in the history at once
            self.app.after_frame(self._file)
        return True

    def undo(self):
        """Take back the last action; True when there was one.

        An undo that reopens a filed game is journaled before its frame (``do``'s ``first``):
        until it is on the flash, a power cut finds the game ended and clears it, so the
        players would lose the whole game they saw reopened, not one action."""
        try:
            self.game.undo()
        except RuleError as err:
            self.refuse(err)
            return False
        except OSError:  # past a checkpoint, undo reads the journal, which holds nothing queued
            self.refuse("Undo needs the flash")
            return False
        self.dirty = True
        self.msg.clear()
        if self.game.filed is not None and not self.over():
            self.save()
            self.app.after_frame(lambda: _lifecycle().reopened(self.app, self.game))
        else:
            self.app.after_frame(self.save)
        return True

    def save(self):
        """Write what the game queued to its journal (after the frame: see the module notes).

        A flash that refuses (full, read-only) leaves it all queued: the game goes on in RAM,
        the players are told once, and the first save that works writes everything."""
        try:
            save(self.app, self.game)
        except OSError as exc:
            if not self._unsaved:
                self._unsaved = True
                # .mpy: 2.8 KB a game holds only once a dialog shows
                from tablemate.ui.dialogs import Notice
                self.app.push(Notice(self.app, trouble(exc) + ":\nthis game is not\nbeing saved"))
            return
        if self._unsaved:
            self._unsaved = False
            self.refuse("Saved again")
        if not self.over():  # the next action's frame then waits for no erase (``Game.prime``)
            self.app.after_frame(self._prime)

    def _prime(self):
        try:
            self.game.prime()
        except OSError:  # a flash that refuses: the next save tells the players
            pass

    def _file(self):
        try:
            _lifecycle().file(self.app, self.game)
        except OSError:
            self.refuse("Not filed: flash?")  # filed when the players leave the game
        unload(FILING)  # 5 KB the game on the screen no longer needs

    def over(self):
        """True once the rules say the game has ended."""
        return self.rules.result(self.game.state) is not None

    def done(self):
        """Called after every accepted action (not after an undo)."""

    def menu_entries(self):
        """The mode's own game-menu entries, (label, callback), shown above the shared ones."""
        return ()

    def end(self):
        """What "End game" does to the rules (default: nothing; the game is filed unfinished)."""

    def announce(self, message):
        """A result that stays on the message line, with the fanfare."""
        self.msg.show(message, self.app.now, 0)
        self.app.beep(FANFARE)

    def tick(self, now):
        if self.msg.tick(now):
            self.dirty = True

    def due(self, now):
        return self.msg.due(now)


class GameMenu(ActionMenu):
    """Back to game, Undo, the mode's entries, then End game, New game (same players) and Home.

    "Back to game" comes first because with three buttons or a knob BACK is a long press: OK at
    once on the opened menu must be a way out. Undo comes next, in every mode: BACK, DOWN, OK
    takes back what the player did (three presses, however many entries the mode adds).
    """

    def __init__(self, app, screen):
        self.screen = screen
        entries = [("Back to game", app.pop), ("Undo", self._undo)]
        entries += screen.menu_entries()
        if not screen.over():
            entries.append(("End game", self._end))
        if app.phones is not None:  # Phones on: a late phone joins, a seat is freed
            entries.append(("Phones", self._phones))
        entries += [("New game", self._new), ("Home", self._home)]
        ActionMenu.__init__(self, app, screen.title, entries)

    def _undo(self):
        self.app.pop()
        self.screen.undo()

    def _phones(self):
        self.app.replace(self.app.phones.page())

    def _end(self):
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Confirm
        self.app.replace(Confirm(self.app, "End the game now?", self._ended))

    def _ended(self):
        screen = self.screen
        screen.end()
        screen.dirty = True
        if screen.over():
            screen.done()
        show_standings(self.app, screen.game)

    def _new(self):
        app = self.app
        game = self.screen.game

        def again():
            from tablemate.flow.standings import leave  # .mpy: 3.8 KB, only once a game ends
            if leave(app, game):
                return
            opts = dict(game.opts)
            if opts.get("rotate"):  # the next game opens one seat on, as the next round would
                opts["first"] = (opts.get("first", 0) + 1) % len(opts["names"])
            refused = _lifecycle().start(app, _lifecycle().name_of(game), opts)
            if refused:  # the options changed on the flash (a Viewpoint catalog): filed, home
                # .mpy: 2.8 KB a game holds only once a dialog shows
                from tablemate.ui.dialogs import Notice
                app.home()
                app.push(Notice(app, "Cannot start:\n" + refused))
        if self.screen.over():
            again()
        else:
            # .mpy: 2.8 KB a game holds only once a dialog shows
            from tablemate.ui.dialogs import Confirm
            app.replace(Confirm(app, "Start again with the same players?", again))

    def _home(self):
        if self.screen.over():
            from tablemate.flow.standings import leave  # .mpy: 3.8 KB, only once a game ends
            if leave(self.app, self.screen.game):
                return
        self.app.home()


# -- the end -----------------------------------------------------------------------------------
def show_standings(app, game):
    """Replace the game's screens by its standings (``flow/standings.py``, loaded at the end of a
    game, not during it); OK files the game and goes home."""
    from tablemate.flow import standings  # .mpy: 3.8 KB, only once a game ends
    standings.show(app, game)
