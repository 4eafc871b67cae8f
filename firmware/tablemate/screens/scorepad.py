"""Scorepad: scores for 1-8 players, rounds, a target, undo and a per-turn countdown.

Six buttons: UP/DOWN pick a player, LEFT/RIGHT change their score (hold to speed up), OK ends the
turn, BACK opens the game menu. With fewer buttons the menu's "Adjust score" does the same job.
Presses on LEFT/RIGHT gather into one pending change that is journaled as a single action when the
player moves on or after a short pause, so undo takes back "+7", not "+1" seven times.
"""

from time import ticks_diff

from micropython import const

from tablemate import keys as K
from tablemate import session
from tablemate.clock import BEEP, EXPIRED, Countdown, fmt
from tablemate.ui import ActionMenu, scoretable, text
from tablemate.ui.dialogs import Confirm, NumberEntry, accel
from tablemate.ui.gamescreen import GameScreen

NAME = "scorepad"
_COMMIT_MS = const(1500)
_TABLE_Y = const(11)
BEEP_TICK = ((2093, 60),)
BEEP_TIME_UP = ((880, 500),)
FANFARE = ((1047, 120), (1319, 120), (1568, 300))


def play(app, game):
    """Show ``game`` above the home menu."""
    app.home()
    app.push(Scorepad(app, game))


class Scorepad(GameScreen):
    """The running game: the table, the status line and the message line."""

    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        self.sel = game.state["turn"]
        self.pending = 0
        self._pending_at = 0
        self._repeats = 0
        seconds = game.opts.get("timer", 0)
        self.timer = Countdown(seconds * 1000) if seconds else None
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
            self.sel = self.game.state["turn"]
            self.restart_timer()

    def restart_timer(self):
        """A new turn: the countdown starts again from its full duration."""
        if self.timer:
            self.timer.reset(self.app.now)
            self.timer.start(self.app.now)

    def result_text(self):
        state = self.game.state
        return scoretable.winners_text(state["names"], state["winners"])

    def done(self):
        """A finished game is announced: the winners stay on the message line, with a tune."""
        state = self.game.state
        if state["over"]:
            if self.timer:
                self.timer.stop()
            self.msg.show(self.result_text(), self.app.now, 0)
            self.app.beep(FANFARE)

    # -- screen ---------------------------------------------------------------------------
    def key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        n = len(self.game.state["names"])
        if key == K.UP or key == K.DOWN:
            self.commit()
            self.sel = (self.sel + (1 if key == K.DOWN else -1)) % n
            self.dirty = True
        elif key == K.LEFT or key == K.RIGHT:
            if self.game.state["over"]:
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
            if self.game.state["over"]:  # a refusal covered the result: bring the result back
                self.msg.show(self.result_text(), now, 0)
        timer = self.timer
        if timer and timer.running:
            event = timer.poll(now)
            if event == BEEP:
                self.app.beep(BEEP_TICK)
            elif event == EXPIRED:
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
        text.draw(fb, "Round %d" % state["round"], 0, 0)
        if self.timer:
            right = fmt(self.timer.remaining(self.app.now))
        elif state["target"]:
            right = "to %d" % state["target"]
        else:
            right = ""
        text.draw(fb, right, 128 - text.width(right), 0)
        fb.hline(0, 9, 128, 1)
        scoretable.draw(fb, state["names"], state["scores"], _TABLE_Y, self.sel, state["turn"],
                        self.pending)
        self.msg.draw(fb)


class GameMenu(ActionMenu):
    """Undo, adjust, rounds, ending, a new game with the same players, and home."""

    def __init__(self, app, pad):
        self.pad = pad
        over = pad.game.state["over"]
        if over:
            entries = (("Undo", self._undo), ("New game", self._new), ("Home", self._home))
        else:
            entries = (("Back to game", app.pop), ("Undo", self._undo),
                       ("Adjust score", self._adjust), ("Next round", self._round),
                       ("End game", self._end), ("New game", self._new), ("Home", self._home))
        ActionMenu.__init__(self, app, "Scorepad", entries)

    def _undo(self):
        self.app.pop()
        self.pad.undo()

    def _adjust(self):
        pad = self.pad
        name = pad.game.state["names"][pad.sel]
        self.app.replace(NumberEntry(self.app, name + " +/-", 0, -999, 999,
                                     lambda delta: pad.do(["add", pad.sel, delta]) if delta else None))

    def _round(self):
        self.app.pop()
        if self.pad.do(["round"]):
            self.pad.sel = 0
            self.pad.restart_timer()

    def _end(self):
        self.app.replace(Confirm(self.app, "End the game now?", lambda: self.pad.do(["end"])))

    def _new(self):
        app = self.app
        game = self.pad.game

        def again():
            session.finish(app, game)
            session.start(app, NAME, game.opts)
        if game.state["over"]:
            again()
        else:
            app.replace(Confirm(app, "Start again with the same players?", again))

    def _home(self):
        if self.pad.game.state["over"]:
            session.finish(self.app, self.pad.game)
        self.app.home()
