"""Chess clock for two players: a Fischer increment, pause, who starts, and power cuts survived.

Keys: OK ends the turn of whoever is to move (the only key play needs, so a three-button build
or a knob can run a game); on six or five buttons LEFT and RIGHT are each player's own key and
only count on that player's turn. Before the first move OK starts the starter's time (so does
the other player's own key, as on a chess clock). BACK pauses and opens the menu; a layout
without BACK does that with a long OK, and the screen's hint says which. The menu leaves both
times in view. The clock core is ``tablemate.clock.ChessClock``, shared with the game modes.

Setup: minutes each, increment, who starts (left, right, or drawn at random once per game) and
whether the starter swaps each new game (a rematch from the menu), ``clock.first_player``.

Saving: a clock in use is one small JSON file, ``/data/clock.json`` (``store/clockfile.py``
says what is in it), replaced whole, after the frame (``App.after_frame``). It is written when the clock starts, at each turn switch, when it is
paused and, while a player thinks, 10 s after the latest write (``clock.Autosave``, which The
Perfect Moment's clocks go by too); never while the clock is idle or paused. A power cut
therefore costs at most the last 10 s of the player to move (given back to them); the other
player's time is exact. The boot brings a saved clock back paused
(``restore``); time up, a new game and leaving the clock remove the file. A damaged file is
reported and moved aside (``clock.json.bad``, as every damaged file: ``store/files.py``).
"""

from micropython import const

from tablemate import random
from tablemate import keys as K
from tablemate.clock import (BEEP, EXPIRED, RANDOM, Autosave, ChessClock, change_in,
                             first_player, fmt)
from tablemate.store import clockfile
from tablemate.store import files
from tablemate.ui import Menu, Screen, draw_rows, text
from tablemate.ui.numberentry import NumberEntry

_TENTHS_BELOW = const(10000)
BEEP_LOW = ((2093, 50),)
BEEP_FLAG = ((880, 700),)
BEEP_PRESS = ((1568, 15),)


def setup(app):
    """Open the clock's setup; a saved clock (left by a screen that broke) comes back instead."""
    screen, problem = saved(app)
    app.push(screen or Setup(app))
    if problem:
        _tell(app, problem)


def restore(app):
    """At boot, when ``clock.json`` is there: the clock in use at a power cut comes back paused,
    with its times, the player to move and its settings; a damaged file is reported and kept
    aside.
    Returns True when the clock is shown (the boot then asks nothing else)."""
    screen, problem = saved(app)
    if screen:
        app.push(screen)
    if problem:
        _tell(app, problem)
    return screen is not None


def saved(app):
    """(the saved clock's screen, paused, or None; the problem or None). A damaged file is
    moved aside; a flash that refuses even that leaves it (the clock starts anew anyway)."""
    path = app.path(clockfile.FILE)
    found, problem = clockfile.read(path, app.now)
    if found is None:
        if problem:
            try:
                files.aside(path, True)
            except OSError as exc:
                problem = "Saved clock damaged\n" + files.trouble(exc)
        return None, problem
    names, first, alternate, starter, clock = found
    return ClockScreen(app, clock.base, clock.increment, first, alternate, names, clock,
                       starter), None


def _tell(app, problem):
    from tablemate.ui.dialogs import Notice  # .mpy: 2.8 KB a game holds only once a dialog shows
    app.push(Notice(app, problem))


# -- setup -------------------------------------------------------------------------------------
class Setup(Menu):
    """Minutes per player, the increment, who starts, swapping each game, then Start."""

    def __init__(self, app):
        Menu.__init__(self, app, "Chess clock", [], self._pick, on_adjust=self._adjust)
        self.names = app.settings["names"][:2]
        self.minutes = 5
        self.increment = 3
        self.first = 0  # 0: left, 1: right, RANDOM
        self.alternate = True
        self._relabel()

    def _relabel(self):
        who = "random" if self.first == RANDOM else self.names[self.first]
        self.items = ["Minutes: %d" % self.minutes, "Increment: %ds" % self.increment,
                      "Starts: " + who, "Swap each game: " + ("on" if self.alternate else "off"),
                      "Start"]
        self.dirty = True

    def _adjust(self, index, step):
        if index == 0:
            self.minutes = min(180, max(1, self.minutes + step))
        elif index == 1:
            self.increment = min(60, max(0, self.increment + step))
        elif index == 2:
            self.first = (self.first + step) % 3
        elif index == 3:
            self.alternate = not self.alternate
        self._relabel()

    def _pick(self, index):
        app = self.app
        if index == 0:
            app.push(NumberEntry(app, "Minutes each", self.minutes, 1, 180, self._set_minutes))
        elif index == 1:
            app.push(NumberEntry(app, "Increment (s)", self.increment, 0, 60, self._set_increment))
        elif index < 4:  # OK moves a choice on: how three buttons or a knob change it
            self._adjust(index, 1)
        else:
            app.replace(ClockScreen(app, self.minutes * 60000, self.increment * 1000, self.first,
                                    self.alternate, self.names))

    def _set_minutes(self, value):
        self.minutes = value
        self._relabel()

    def _set_increment(self, value):
        self.increment = value
        self._relabel()


def _draw_coin():
    return random.getrandbits(1)


# -- the clock ---------------------------------------------------------------------------------
class ClockScreen(Screen):
    """Two big times; the side to move is marked (a lit bar while its time runs, a frame while
    the clock waits). ``clock`` and ``starter`` are given for a restored clock."""

    def __init__(self, app, base_ms, increment_ms, first=0, alternate=False, names=None,
                 clock=None, starter=-1):
        Screen.__init__(self, app)
        self.base = base_ms
        self.increment = increment_ms
        self.first = first
        self.alternate = alternate
        self.names = names or app.settings["names"][:2]
        self.starter = starter
        self.clock = clock
        self._shown = [-1, -1]
        self.autosave = Autosave(app.now)
        self.problem = None  # why the latest save failed
        if clock is None:
            self._new_clock(-1)

    def _new_clock(self, previous):
        self.starter = first_player(self.first, self.alternate, previous, _draw_coin)
        self.clock = ChessClock(2, self.base, self.increment)
        self._shown[0] = self._shown[1] = -1
        self.dirty = True

    def new_game(self):
        """The same settings again; the starter swaps if so set up. The old game is forgotten."""
        self._new_clock(self.starter)
        self.app.after_frame(self.forget)

    @property
    def keep_awake(self):
        return self.clock.running

    def seat(self):
        """The side to move faces the picture (``ui/face.py``); before the first move, the
        starter. Side 0 (left on the panel) is seat 0."""
        clock = self.clock
        return self.starter if clock.idle else clock.current

    # -- saving --------------------------------------------------------------------------------
    def save_soon(self):
        """Have the clock written once this pass's frame is sent."""
        self.autosave.wrote(self.app.now)
        self.app.after_frame(self.save)

    def save(self):
        """Write the clock (after the frame: ``App.after_frame``)."""
        app = self.app
        self.autosave.wrote(app.now)
        try:
            clockfile.write(app.path(clockfile.FILE), clockfile.record(self.names, self.first, self.alternate, self.starter,
                                         self.clock, app.now))
            if self.problem:
                self.problem = None
                self.dirty = True
        except OSError:
            self.problem = "Not saved: flash?"
            self.dirty = True

    def forget(self):
        """The game is over or left: no clock to bring back after a power cut."""
        clockfile.remove(self.app.path(clockfile.FILE))

    # -- keys and time -------------------------------------------------------------------------
    def key(self, key, kind):
        if kind != K.PRESS:
            return
        clock = self.clock
        app = self.app
        now = app.now
        if key == K.BACK:
            if clock.running:
                clock.pause(now)
                self.save_soon()
            app.push(ClockMenu(app, self))
        elif clock.paused:
            if key == K.OK:
                clock.resume(now)
                self.autosave.wrote(now)  # the file holds this very moment already
        elif clock.idle:
            other = K.RIGHT if self.starter == 0 else K.LEFT  # the other player's own key
            if key == K.OK or key == other:
                clock.start(now, self.starter)
                self.save_soon()
        elif key == K.OK or (key == K.LEFT and clock.current == 0) or \
                (key == K.RIGHT and clock.current == 1):
            if clock.press(now):
                app.beep(BEEP_PRESS)
                self.save_soon()
        self.dirty = True

    def tick(self, now):
        clock = self.clock
        event = clock.poll(now)
        if event == BEEP:
            self.app.beep(BEEP_LOW)
        elif event == EXPIRED:
            self.app.beep(BEEP_FLAG)
            self.dirty = True
            self.app.after_frame(self.forget)  # the game is over
        elif self.autosave.due(clock, now) == 0:
            self.save_soon()
        for i in range(2):
            left = clock.remaining(i, now)
            shown = (left + 99) // 100 if left < _TENTHS_BELOW else (left + 999) // 1000 * 10
            if shown != self._shown[i]:
                self._shown[i] = shown
                self.dirty = True

    def due(self, now):
        """The next figure of the running clock (its beeps and flag fall on one), or the save
        that bounds what a power cut takes back."""
        clock = self.clock
        if not clock.running:
            return None
        return min(change_in(clock.remaining(clock.current, now), _TENTHS_BELOW),
                   self.autosave.due(clock, now))

    # -- drawing -------------------------------------------------------------------------------
    def draw(self, fb):
        clock = self.clock
        now = self.app.now
        flagged = clock.flagged(now)
        running = clock.running
        mark = self.starter if clock.idle else clock.current if clock.paused else -1
        for i in range(2):
            x = i * 64
            if running and clock.current == i:
                fb.fill_rect(x, 0, 63, 11, 1)
                text.draw(fb, text.fit(self.names[i], 58), x + 3, 2, color=0)
            else:
                if i == mark:
                    fb.rect(x, 0, 63, 11, 1)
                text.draw(fb, text.fit(self.names[i], 58), x + 3, 2)
            shown = fmt(clock.remaining(i, now), True)
            text.draw(fb, shown, x + (64 - text.width(shown, text.large()[1])) // 2, 20, text.large()[1])
        if running:
            fb.vline(63, 12, 40, 1)
        else:  # waiting: how to reach the menu, in this layout's keys
            fb.vline(63, 12, 26, 1)
            text.put_centered(fb, menu_hint(self.app.layout), 5)
        if self.problem:
            status = self.problem
        elif flagged >= 0:
            status = "Time up: " + self.names[flagged]
        elif clock.paused:
            status = "Paused - OK resumes"
        elif clock.idle:
            status = "OK starts " + self.names[self.starter]
        else:
            status = "Move %d" % (clock.moves + 1)
        text.draw_centered(fb, status, 56, text.SMALL, 1)


def menu_hint(layout):
    """The key that opens the clock's menu, named as the layout has it."""
    return "BACK: menu" if K.BACK in K.LAYOUTS[layout] else "Hold OK: menu"


class ClockMenu(Menu):
    """Over the clock's lower half, so both times stay in view: resume (or back to the clock),
    a new game with the same settings, or home. BACK leaves the clock paused. Home from a
    paused clock asks first: the game's times cannot be had back (before the first move and
    after a flag there is nothing to lose)."""

    opaque = False

    def __init__(self, app, screen):
        self.screen = screen
        first = "Resume" if screen.clock.paused else "Back to clock"
        Menu.__init__(self, app, "Clock", [first, "New game", "Home"], self._pick)

    def draw(self, fb):
        fb.fill_rect(0, 38, 128, 26, 0)
        fb.hline(0, 38, 128, 1)
        draw_rows(fb, self, len(self.items), self.index, 0, 5, 3)
        if self.screen.clock.paused:
            text.put_right(fb, "Paused", 127, 5)

    def _pick(self, index):
        screen = self.screen
        app = self.app
        if index == 2 and screen.clock.paused:
            # .mpy: 2.8 KB a game holds only once a dialog shows
            from tablemate.ui.dialogs import Confirm
            app.replace(Confirm(app, "Leave the clock? Its times are lost.", self._leave))
            return
        app.pop()
        if index == 0:
            if screen.clock.paused:
                screen.clock.resume(app.now)
                screen.autosave.wrote(app.now)
        elif index == 1:
            screen.new_game()
        else:
            self._leave()

    def _leave(self):
        self.app.home()
        self.app.after_frame(self.screen.forget)
