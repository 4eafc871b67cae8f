"""Contrast: the players reveal their cards, and the device is told the picks and settles the round.

One screen, three views. PICK: the player named in the status line has a 6x2 grid of the twelve
symbols; arrows move the cursor (wrapping; with three buttons PREV/NEXT walk all twelve), OK picks.
Each pick is journaled at once. The cursor starts on the symbol picked most so far this round
(rules.suggest), because picks tend to agree; a new round starts on the top-left cell, since each
player's last card lies face up and cannot be played again at once. RESULT: after the last pick,
the winning icon (or why nobody won), the winners, every score, the deck and the box; OK goes on
to the next round, and an arrow goes on and already moves the next pick's cursor. FINAL: the ranking (co-op: won, lost or drawn, with both piles);
OK files the game in the history and goes home.

BACK opens the game menu: skip the current player, count to three (3-2-1 with beeps, then an
offer to skip), undo (the last pick, which takes a finished round back too), scores, end, home.
"""

from time import ticks_diff

from micropython import const

from tablemate import keys as K
from tablemate import session
from tablemate.rules import contrast as rules
from tablemate.ui import ActionMenu, Screen, draw_title, icons, scoretable, text
from tablemate.ui.dialogs import Confirm, Notice
from tablemate.ui.gamescreen import GameScreen

NAME = "contrast"
SYMBOLS = rules.SYMBOLS
BEEP_COUNT = ((1568, 70),)
BEEP_ZERO = ((784, 450),)
BEEP_WON = ((1319, 70), (1760, 110))
BEEP_NOBODY = ((523, 160),)
FANFARE = ((1047, 120), (1319, 120), (1568, 300))

PICK = const(0)
RESULT = const(1)
FINAL = const(2)

_COLS = const(6)
_CELL = const(21)  # grid pitch; a cell is 20x20 with the 16x16 icon 2 px in
_GRID_X = const(1)
_GRID_Y = const(11)
_BOTTOM = const(56)
_COUNT_MS = const(1000)

WHY = {  # rules.judge's reasons, as two lines for the result view
    "tie": ("Tie: nobody wins", "Top card to the box"),
    "all same": ("All same: nobody", "wins; card to box"),
    "no picks": ("Nobody picked", "Top card to the box"),
    "differ": ("Different!", "Card to left pile"),
    "skipped": ("A player skipped", "Card to left pile"),
}


def play(app, game):
    """Show ``game`` above the home menu (with the expert reminder when it starts)."""
    app.home()
    app.push(Contrast(app, game))
    if game.count == 0 and game.state["expert"]:
        app.push(Notice(app, "Expert game:\nLay out 3 cards face up"))


def winners_line(state):
    """'Cy wins!', 'Tie: Ann, Cy' or, in co-op, 'You won!', 'You lost', 'Draw'."""
    if state["coop"]:
        return {"win": "You won!", "lose": "You lost", "draw": "Draw"}[state["outcome"]]
    return scoretable.winners_text(state["names"], state["winners"])


class Contrast(GameScreen):
    """The running game: the pick grid, a round's result, or the final ranking."""

    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        self.cur = 0
        self.view = FINAL if game.state["over"] else PICK
        self._suggest()

    # -- actions ------------------------------------------------------------------------
    def done(self):
        """After a pick: the next player's cursor, or the round's result with its sound."""
        state = self.game.state
        if state["picks"]:
            self._suggest()
        else:  # that action settled the round
            self.view = RESULT
            self.cur = 0
            if state["over"]:
                self.app.beep(FANFARE)
            else:
                self.app.beep(BEEP_WON if state["last"]["winners"] else BEEP_NOBODY)

    def pick(self):
        """The current player picks the symbol under the cursor."""
        self.do(["pick", rules.turn(self.game.state), SYMBOLS[self.cur]])

    def skip(self):
        """The current player lays out no card this round."""
        self.view = PICK if self.view == RESULT else self.view
        self.do(["skip", rules.turn(self.game.state)])

    def undo(self):
        """Take back the last pick (a round it settled is open again), cursor on that pick."""
        state = self.game.state
        if state["picks"]:
            taken = state["picks"][-1]
        else:
            taken = state["last"]["picks"][-1] if state["last"] else None
        if not GameScreen.undo(self):
            return False
        state = self.game.state
        self.view = PICK
        if taken is not None:
            self.cur = SYMBOLS.index(taken)
        self.msg.show("Undone: " + state["names"][rules.turn(state)], self.app.now)
        return True

    def go_on(self):
        """Leave the result view: the next round's picks, or the ranking after the last round."""
        self.view = FINAL if self.game.state["over"] else PICK
        self.dirty = True

    def leave(self):
        """A finished game goes to the history; the players go home."""
        session.finish(self.app, self.game)
        self.app.home()

    def _suggest(self):
        s = rules.suggest(self.game.state)
        if s is not None:
            self.cur = SYMBOLS.index(s)

    def _move(self, key):
        cur = self.cur
        if K.LEFT not in K.LAYOUTS[self.app.layout]:  # PREV/NEXT or a knob: walk the twelve
            self.cur = (cur + (1 if key == K.DOWN else -1)) % 12
        elif key == K.UP or key == K.DOWN:
            self.cur = (cur + _COLS) % 12
        else:
            row = cur - cur % _COLS
            self.cur = row + (cur % _COLS + (1 if key == K.RIGHT else -1)) % _COLS
        self.dirty = True

    # -- screen -------------------------------------------------------------------------
    def key(self, key, kind):
        if kind == K.REPEAT and self.view == PICK and key <= K.RIGHT:
            self._move(key)
            return
        if kind != K.PRESS:
            return
        if key == K.BACK:
            self.app.push(GameMenu(self.app, self))
        elif self.view == PICK:
            if key == K.OK:
                self.pick()
            else:
                self._move(key)
        elif self.view == RESULT:
            self.go_on()
            if key != K.OK and self.view == PICK:
                self._move(key)  # an arrow already starts the next pick: one press saved
        elif key == K.OK:
            self.leave()

    def draw(self, fb):
        if self.view == PICK:
            self._draw_pick(fb)
        elif self.view == RESULT:
            self._draw_result(fb)
        else:
            self._draw_final(fb)
        self.msg.draw(fb)

    def _draw_pick(self, fb):
        state = self.game.state
        name = state["names"][rules.turn(state)]
        w = text.width(name)
        fb.fill_rect(0, 0, w + 3, 9, 1)
        text.draw(fb, name, 2, 0, color=0)
        if state["coop"]:
            right = "R%d D%d" % (rules.round_no(state), state["deck"])
        else:
            right = "R%d D%d B%d" % (rules.round_no(state), state["deck"], state["box"])
        text.draw_right(fb, right, 128, 0)
        fb.hline(0, 9, 128, 1)
        for i in range(12):
            x = _GRID_X + (i % _COLS) * _CELL
            y = _GRID_Y + (i // _COLS) * _CELL
            if i == self.cur:
                fb.fill_rect(x, y, _CELL - 1, _CELL - 1, 1)
                icons.draw(fb, SYMBOLS[i], x + 2, y + 2, 0)
            else:
                icons.draw(fb, SYMBOLS[i], x + 2, y + 2)
        text.draw_centered(fb, SYMBOLS[self.cur], _BOTTOM)

    def _draw_result(self, fb):
        state = self.game.state
        last = state["last"]
        draw_title(fb, "Round %d" % last["round"] if last else "Scores")
        text.draw_right(fb, "OK " + ("end" if state["over"] else "next"), 128, 0)
        names = state["names"]
        if last is None:
            lines = ("No round yet", "")
        elif last["why"]:
            lines = WHY[last["why"]]
        else:
            icons.draw(fb, last["symbol"], 0, 12)
            if state["coop"]:
                lines = ("Same: " + last["symbol"], "Card to right pile")
            else:
                lines = (last["symbol"] + " wins",
                         ", ".join(names[i] for i in last["winners"]))
        x = 20 if last and last["symbol"] else 0
        text.draw(fb, text.fit(lines[0], 127 - x), x, 12)
        text.draw(fb, text.fit(lines[1], 127 - x), x, 21)
        if state["coop"]:
            left, right = state["piles"]
            text.draw(fb, "Left pile %d" % left, 0, 32)
            text.draw(fb, "Right pile %d" % right, 0, 41)
            bottom = "Deck %d" % state["deck"]
        else:
            won = last["winners"] if last else ()
            cards = state["cards"]
            for i in range(len(names)):
                x = 0 if i < 3 else 65
                y = 31 + (i % 3) * 8
                if i in won:
                    text.draw(fb, text.CHECK, x, y)
                text.draw(fb, text.fit(names[i], 40), x + 7, y)
                text.draw_right(fb, "%d" % cards[i], x + 62, y)
            bottom = "Deck %d  Box %d" % (state["deck"], state["box"])
        text.draw_centered(fb, bottom, _BOTTOM)

    def _draw_final(self, fb):
        state = self.game.state
        if state["coop"]:
            draw_title(fb, "Game over")
            line = winners_line(state)
            w = text.width(line)
            fb.fill_rect(62 - w // 2, 15, w + 5, 11, 1)
            text.draw_centered(fb, line, 17, color=0)
            left, right = state["piles"]
            text.draw_centered(fb, "Right pile %d" % right, 31)
            text.draw_centered(fb, "Left pile %d" % left, 40)
            text.draw_centered(fb, "OK: finish", _BOTTOM)
            return
        draw_title(fb, text.fit(winners_line(state), 127))
        cards = state["cards"]
        order = sorted(range(len(cards)), key=lambda i: (-cards[i], i))
        rank = 0
        for n in range(len(order)):
            i = order[n]
            if n == 0 or cards[i] != cards[order[n - 1]]:
                rank = n + 1
            y = 11 + n * 9
            text.draw(fb, "%d" % rank, 0, y)
            if i in state["winners"]:
                text.draw(fb, text.CHECK, 8, y)
            text.draw(fb, state["names"][i], 16, y)
            text.draw_right(fb, "%d" % cards[i], 128, y)


class CountToThree(Screen):
    """The rulebook's count to three for a player who cannot decide: 3, 2, 1 with beeps.

    Any key stops it (the player has laid out a card); at zero it offers to skip the player.
    """

    keep_awake = True

    def __init__(self, app, pad):
        Screen.__init__(self, app)
        self.pad = pad
        self.t0 = app.now
        self.shown = 3
        self.name = pad.game.state["names"][rules.turn(pad.game.state)]
        app.beep(BEEP_COUNT)

    def key(self, key, kind):
        if kind == K.PRESS:
            self.app.pop()

    def tick(self, now):
        n = 3 - ticks_diff(now, self.t0) // _COUNT_MS
        if n == self.shown:
            return
        self.shown = n
        self.dirty = True
        if n > 0:
            self.app.beep(BEEP_COUNT)
            return
        self.app.beep(BEEP_ZERO)
        self.app.replace(Confirm(self.app, "Time is up!\n%s skips?" % self.name, self.pad.skip,
                                 yes="Skip", no="Pick"))

    def draw(self, fb):
        draw_title(fb, "Count to three")
        text.draw_centered(fb, self.name + ", choose!", 12)
        text.draw_centered(fb, "%d" % max(self.shown, 0), 24, text.BIG)
        text.draw_centered(fb, "Any key: chosen", _BOTTOM)


class GameMenu(ActionMenu):
    """Skip, count to three, undo, scores, end and home; after the game: undo, new game, home."""

    def __init__(self, app, pad):
        self.pad = pad
        state = pad.game.state
        if state["over"]:
            entries = (("Undo", self._undo), ("New game", self._new), ("Home", self._home))
        else:
            name = state["names"][rules.turn(state)]
            entries = (("Skip " + name, self._skip), ("Count to 3", self._count),
                       ("Undo", self._undo), ("Scores", self._scores),
                       ("End game", self._end), ("Home", self._home))
        ActionMenu.__init__(self, app, "Contrast", entries)

    def _skip(self):
        self.app.pop()
        self.pad.skip()

    def _count(self):
        self.pad.view = PICK
        self.app.replace(CountToThree(self.app, self.pad))

    def _undo(self):
        self.app.pop()
        self.pad.undo()

    def _scores(self):
        self.app.pop()
        self.pad.view = RESULT

    def _end(self):
        pad = self.pad
        self.app.replace(Confirm(self.app, "End the game now? It is filed unfinished.", pad.leave))

    def _new(self):
        app = self.app
        game = self.pad.game
        session.finish(app, game)
        session.start(app, NAME, game.opts)

    def _home(self):
        if self.pad.game.state["over"]:
            self.pad.leave()
        else:
            self.app.home()
