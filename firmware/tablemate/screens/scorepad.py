"""Scorepad: scores for 1-8 players, rounds, a target, undo and a per-turn countdown.

Six buttons: UP/DOWN pick a player (the seats in order, as the turn goes), LEFT/RIGHT change their score (hold to speed up), OK ends the
turn, BACK opens the game menu. With fewer buttons the menu's "Adjust score" does the same job.
Presses on LEFT/RIGHT gather into one pending change that is journaled as a single action when the
player moves on or after a short pause, so undo takes back "+7", not "+1" seven times; until then
the status line says "pending" (a power cut in those 1.5 s loses that change, and only it).
The cursor follows the turn: after OK, after an undo (which says what it took back) and after a
new round, LEFT/RIGHT change the score of the player whose turn it is; UP/DOWN move it on purpose.
Once the game is over the winners' cells are lit and OK shows the final standings.
The setup menu is the shared one (``tablemate.flow.setup``, from the registry in ``modes``).
"""

from micropython import const

from tablemate import ticks_diff
from tablemate import keys as K
from tablemate.rules import scorepad as rules
from tablemate.ui import accel, table, text
from tablemate.flow.play import GameScreen

_COMMIT_MS = const(1500)
BEEP_TICK = ((2093, 60),)
BEEP_TIME_UP = ((880, 500),)


def signed(value):
    """"+7" or "-3": a change of score."""
    return "+%d" % value if value > 0 else "%d" % value


def undone(before, after):
    """What an undo took back, from the state before and after it, for the message line."""
    names = rules.names(after)
    old, new = rules.scores(before), rules.scores(after)
    for i in range(len(names)):
        if old[i] != new[i]:
            return "Undone: %s %s" % (names[i], signed(old[i] - new[i]))
    if rules.round_no(before) != rules.round_no(after):
        return "Undone: new round"
    if rules.result(before) is not None:
        return "Undone: game end"
    return "Turn undone: %s" % names[rules.turn(after)]


class Scorepad(GameScreen):
    """The running game: the status line, the table of scores and the message line."""

    labels = ("Adjust score", "Next round", "Round ", "Last round", "+", " pending", "OK: standings")
    plus_minus = True  # LEFT/RIGHT take points off and add them, for whoever reads

    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        self.sel = rules.turn(game.state)
        self.pending = 0
        self._pending_at = 0
        self._repeats = 0
        seconds = game.opts.get("timer", 0)
        self.clock = None
        self.timer = None
        if seconds:  # only a timed game loads the clock module
            from tablemate import clock  # .mpy: 6.1 KB, only with a turn timer
            self.clock = clock
            self.timer = clock.Countdown(seconds * 1000)
        self._shown_s = -1
        if self.timer:
            self.timer.start(app.now)
        self.done()

    @property
    def keep_awake(self):
        return self.timer is not None and self.timer.running

    # -- actions -----------------------------------------------------------------------
    def commit(self):
        """Journal the pending score change as one action."""
        if self.pending:
            delta = self.pending
            self.pending = 0
            self.do(["add", self.sel, delta])

    def undo(self):
        """Drop a pending change, or else take back the last journaled action; either way the
        cursor is back on the player whose turn it is, and the message line says what went."""
        if self.pending:
            self.msg.show("Undone: %s %s" % (rules.names(self.game.state)[self.sel],
                                             signed(self.pending)), self.app.now)
            self.pending = 0
            self.sel = rules.turn(self.game.state)
            self.dirty = True
            return False
        before = self.game.state  # an undo replays into a new state: this one stays as it was
        if not GameScreen.undo(self):
            return False
        state = self.game.state
        self.sel = rules.turn(state)
        self.msg.show(undone(before, state), self.app.now)
        if self.timer and not self.timer.running:
            self.timer.start(self.app.now)  # the end undone: the turn's countdown goes on
        return True

    def limited(self, pending):
        """``pending`` within what the rules accept (a change of at most 999 either way, a score
        within 99,999): a held key stops there and says so, instead of entering a change the
        rules would refuse and drop."""
        score = rules.scores(self.game.state)[self.sel]
        lo = max(-rules.MAX_DELTA, -rules.MAX_SCORE - score)
        hi = min(rules.MAX_DELTA, rules.MAX_SCORE - score)
        if not lo <= pending <= hi:
            self.msg.show("Limit reached", self.app.now)
            return lo if pending < lo else hi
        return pending

    def next_turn(self):
        self.commit()
        if self.do(["next"]):
            self.sel = rules.turn(self.game.state)
            self.restart_timer()

    def restart_timer(self):
        """A new turn: the countdown starts again from its full duration."""
        if self.timer:
            self.timer.reset(self.app.now)
            self.timer.start(self.app.now)

    def result_text(self):
        state = self.game.state
        from tablemate.flow import standings  # the game ended: loaded now
        return standings.winners_text(rules.names(state), rules.result(state))

    def done(self):
        """A finished game is announced with a tune; the winners' cells are lit, every score
        stays in view, and OK shows the final standings."""
        if self.over():
            if self.timer:
                self.timer.stop()
            self.announce("OK: standings")

    def end(self):
        """End game: the leaders win (a tie is shared)."""
        self.commit()
        self.do(["end"])

    def menu_entries(self):
        if self.over():
            return ()
        return (("Adjust score", self._adjust), ("Next round", self._round))

    def _adjust(self):
        # .mpy: 1.4 KB and its import, only for a number typed
        from tablemate.ui.numberentry import NumberEntry
        app = self.app
        name = rules.names(self.game.state)[self.sel]
        app.replace(NumberEntry(app, name + " +/-", 0, -999, 999,
                                lambda delta: self.do(["add", self.sel, delta]) if delta else None))

    def _round(self):
        self.app.pop()
        if self.do(["round"]):
            self.sel = rules.turn(self.game.state)
            self.restart_timer()

    # -- screen ---------------------------------------------------------------------------
    def play_key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        if key == K.UP or key == K.DOWN:
            self._select(key)
        elif key == K.LEFT or key == K.RIGHT:
            self._repeats = self._repeats + 1 if kind == K.REPEAT else 0
            step = accel(self._repeats)
            self.pending = self.limited(self.pending + (step if key == K.RIGHT else -step))
            self._pending_at = self.app.now
            self.dirty = True
        elif kind == K.PRESS and key == K.OK:
            self.next_turn()

    def end_key(self, key, kind):
        """The cursor still moves over the final scores; a change is refused."""
        if key == K.UP or key == K.DOWN:
            if kind == K.PRESS or kind == K.REPEAT:
                self._select(key)
        elif key == K.LEFT or key == K.RIGHT:
            if kind == K.PRESS:
                self.refuse("Game is over")
        else:
            GameScreen.end_key(self, key, kind)

    def _select(self, key):
        """DOWN the next seat, UP the one before, round the table: the order the turn takes,
        and the order every picker walks the players in (Viewpoint's, a tie's), whatever
        columns the table draws them in."""
        self.commit()
        n = len(rules.names(self.game.state))
        self.sel = (self.sel + (1 if key == K.DOWN else -1)) % n
        self.dirty = True

    def tick(self, now):
        if self.pending and ticks_diff(now, self._pending_at) >= _COMMIT_MS:
            self.commit()
        if self.msg.tick(now):
            self.dirty = True
            if self.over():  # a refusal covered the hint: bring it back
                self.msg.show("OK: standings", now, 0)
        timer = self.timer
        if timer and timer.running:
            event = timer.poll(now)
            if event == self.clock.BEEP:
                self.app.beep(BEEP_TICK)
            elif event == self.clock.EXPIRED:
                self.app.beep(BEEP_TIME_UP)
                self.msg.show("Time is up!", now)
            shown = (timer.remaining(now) + 999) // 1000
            if shown != self._shown_s:
                self._shown_s = shown
                self.dirty = True

    def due(self, now):
        """The pending add's commit, the message's timeout, the timer's next second."""
        due = self.msg.due(now)
        if self.pending:
            ms = max(0, _COMMIT_MS - ticks_diff(now, self._pending_at))
            due = ms if due is None else min(due, ms)
        timer = self.timer
        if timer and timer.running:
            ms = self.clock.change_in(timer.remaining(now))
            due = ms if due is None else min(due, ms)
        return due

    def on_hide(self):
        self.commit()

    def on_close(self):
        self.commit()

    def draw(self, fb):
        state = self.game.state
        scores = rules.scores(state)
        over = self.over()
        if over:
            from tablemate.ui import shorten  # the game ended: loaded now
            # lit text, not dark on a bar: page 0 has no row above for the bar's row over the
            # capitals (``text.bar``); the winners' cells are lit below it
            text.put(fb, shorten.abbreviate(self.result_text(), 128, name=False), 0, 0)
        else:
            if self.pending:
                pen = text.put(fb, "+", 0, 0) if self.pending > 0 else 0
                text.put(fb, " pending", text.put_number(fb, self.pending, pen, 0), 0)
            elif rules.last_round(state):
                text.put(fb, "Last round", 0, 0)
            else:
                text.put_number(fb, rules.round_no(state), text.put(fb, "Round ", 0, 0), 0)
            if self.timer:
                text.put_right(fb, self.clock.fmt(self.timer.remaining(self.app.now)), 128, 0)
            elif rules.target(state):
                text.put_right(fb, "to %d" % rules.target(state), 128, 0)
        turn = rules.turn(state)
        if self.pending:
            scores = list(scores)
            scores[self.sel] += self.pending
        table.draw(fb, rules.names(state), scores, rules.result(state) if over else (turn,),
                   -1 if over or self.sel == turn else self.sel, later=self.app.soon)
        self.msg.draw(fb)


SCREEN = Scorepad  # the mode's game screen (``flow.play.play``)
