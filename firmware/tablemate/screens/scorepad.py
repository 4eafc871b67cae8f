"""Scorepad: scores for 1-8 players, rounds, a target, undo and a per-turn countdown.

Six buttons: UP/DOWN pick a player, LEFT/RIGHT change their score (hold to speed up), OK ends the
turn, BACK opens the game menu. With fewer buttons the menu's "Adjust score" does the same job.
Presses on LEFT/RIGHT gather into one pending change that is journaled as a single action when the
player moves on or after a short pause, so undo takes back "+7", not "+1" seven times.
The setup menu is the shared one (``tablemate.ui.setup``, from the registry in ``session``).
"""

from time import ticks_diff

from micropython import const

from tablemate import keys as K
from tablemate.rules import scorepad as rules
from tablemate.ui import accel, text
from tablemate.ui.play import GameMenu, GameScreen, draw_table, winners_text

_COMMIT_MS = const(1500)
_TABLE_Y = const(11)
BEEP_TICK = ((2093, 60),)
BEEP_TIME_UP = ((880, 500),)


def play(app, game):
    """Show ``game`` above the home menu."""
    app.home()
    app.push(Scorepad(app, game))


class Scorepad(GameScreen):
    """The running game: the table, the status line and the message line."""

    labels = ("Adjust score", "Next round")

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
            from tablemate import clock
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
        """Drop a pending change, or else take back the last journaled action."""
        if self.pending:
            self.pending = 0
            self.dirty = True
            return False
        if not GameScreen.undo(self):
            return False
        if self.timer and not self.timer.running:
            self.timer.start(self.app.now)  # the end undone: the turn's countdown goes on
        return True

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
        return winners_text(rules.names(state), rules.result(state))

    def done(self):
        """A finished game is announced: the winners stay on the message line, with a tune."""
        if self.over():
            if self.timer:
                self.timer.stop()
            self.announce(self.result_text())

    def end(self):
        """End game: the leaders win (a tie is shared)."""
        self.commit()
        self.do(["end"])

    def menu_entries(self):
        if self.over():
            return ()
        return (("Adjust score", self._adjust), ("Next round", self._round))

    def _adjust(self):
        from tablemate.ui.dialogs import NumberEntry
        app = self.app
        name = rules.names(self.game.state)[self.sel]
        app.replace(NumberEntry(app, name + " +/-", 0, -999, 999,
                                lambda delta: self.do(["add", self.sel, delta]) if delta else None))

    def _round(self):
        self.app.pop()
        if self.do(["round"]):
            self.sel = 0
            self.restart_timer()

    # -- screen ---------------------------------------------------------------------------
    def key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        n = len(rules.names(self.game.state))
        if key == K.UP or key == K.DOWN:
            self.commit()
            self.sel = (self.sel + (1 if key == K.DOWN else -1)) % n
            self.dirty = True
        elif key == K.LEFT or key == K.RIGHT:
            if self.over():
                self.msg.show("Game is over", self.app.now)
            else:
                self._repeats = self._repeats + 1 if kind == K.REPEAT else 0
                step = accel(self._repeats)
                self.pending += step if key == K.RIGHT else -step
                self._pending_at = self.app.now
            self.dirty = True
        elif kind == K.REPEAT:
            return
        elif key == K.OK:
            self.next_turn()
        elif key == K.BACK:
            self.commit()
            self.app.push(GameMenu(self.app, self))

    def tick(self, now):
        if self.pending and ticks_diff(now, self._pending_at) >= _COMMIT_MS:
            self.commit()
        if self.msg.tick(now):
            self.dirty = True
            if self.over():  # a refusal covered the result: bring the result back
                self.msg.show(self.result_text(), now, 0)
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

    def on_hide(self):
        self.commit()

    def on_close(self):
        self.commit()

    def draw(self, fb):
        state = self.game.state
        text.draw(fb, "Round %d" % rules.round_no(state), 0, 0)
        if self.timer:
            right = self.clock.fmt(self.timer.remaining(self.app.now))
        elif rules.target(state):
            right = "to %d" % rules.target(state)
        else:
            right = ""
        text.draw(fb, right, 128 - text.width(right), 0)
        fb.hline(0, 9, 128, 1)
        draw_table(fb, rules.names(state), rules.scores(state), _TABLE_Y, self.sel,
                   rules.turn(state), self.pending)
        self.msg.draw(fb)
