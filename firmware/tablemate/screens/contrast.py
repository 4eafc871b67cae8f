"""Contrast: the players reveal their cards, and the device is told the picks and settles the round.

One screen, three views. PICK: the player named in the status line has a 6x2 grid of the twelve
symbols; arrows move the cursor (wrapping; with three buttons PREV/NEXT walk all twelve), OK picks.
Each pick is journaled at once. The cursor starts on the symbol picked most so far this round
(rules.suggest), because picks tend to agree; a new round starts on the top-left cell, since each
player's last card lies face up and cannot be played again at once. RESULT: after the last pick,
the winning icon (or why nobody won), the winners, every score, the deck and the box; OK goes on
to the next round, and an arrow goes on and already moves the next pick's cursor. FINAL: the
ranking (co-op: won, lost or drawn, with both piles); OK files the game in the history and goes
home.

BACK opens the game menu: skip the current player, count to three (3-2-1 with beeps, then an
offer to skip), scores, then the shared entries (undo: the last pick, which takes a finished round
back too; end, new game, home). The setup menu is the shared one (``tablemate.ui.setup``).
"""

from time import ticks_diff

from micropython import const

from tablemate import keys as K
from tablemate import lifecycle
from tablemate.rules import contrast as rules
from tablemate.ui import Screen, draw_title, icons, text
from tablemate.ui.play import FANFARE, GameMenu, GameScreen, draw_standings, winners_text

SYMBOLS = rules.SYMBOLS
BEEP_COUNT = ((1568, 70),)
BEEP_ZERO = ((784, 450),)
BEEP_WON = ((1319, 70), (1760, 110))
BEEP_NOBODY = ((523, 160),)

PICK = const(0)
RESULT = const(1)
FINAL = const(2)

_COLS = const(6)
_PITCH = const(21)  # columns from one symbol of the grid to the next
_GRID_X = const(3)
_GRID_PAGES = (2, 5)  # the two rows of 16x16 symbols, on pages 2-3 and 5-6
_BOTTOM = const(7)  # the page of the bottom line
_COUNT_MS = const(1000)

# The grid's two rows of symbols, laid out when the module loads (while the player reads the
# setup menu or the resume question) and copied whole at each cursor move.
_ROWS = [icons.row(SYMBOLS[r * _COLS:(r + 1) * _COLS], _GRID_X, _PITCH) for r in range(2)]

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
    if game.count == 0 and rules.face_up(game.state) == 3:
        from tablemate.ui.dialogs import Notice
        app.push(Notice(app, "Expert game:\nLay out 3 cards face up"))


def winners_line(state):
    """'Cy wins!', 'Tie: Ann, Cy' or, in co-op, 'You won!', 'You lost', 'Draw'."""
    if rules.coop(state):
        return {"win": "You won!", "lose": "You lost", "draw": "Draw"}[rules.outcome(state)]
    return winners_text(rules.names(state), rules.result(state))


class Contrast(GameScreen):
    """The running game: the pick grid, a round's result, or the final ranking."""

    labels = ("Round ", "OK next", "Deck ", "  Box ", ", ", text.CHECK, "0", "1", "2") \
        + tuple(s + " wins" for s in SYMBOLS)

    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        self.name_rows = None  # the result view's names: composed in a quiet pass
        app.soon(self._name_rows)
        self.cur = 0
        self.view = FINAL if self.over() else PICK
        self._suggest()

    # -- actions ------------------------------------------------------------------------
    def done(self):
        """After a pick: the next player's cursor, or the round's result with its sound."""
        state = self.game.state
        if rules.picks(state):
            self._suggest()
        else:  # that action settled the round
            self.view = RESULT
            self.cur = 0
            if self.over():
                self.app.beep(FANFARE)
            else:
                self.app.beep(BEEP_WON if rules.last(state)["winners"] else BEEP_NOBODY)

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
        last = rules.last(state)
        if rules.picks(state):
            taken = rules.picks(state)[-1]
        else:
            taken = last["picks"][-1] if last else None
        if not GameScreen.undo(self):
            return False
        state = self.game.state
        self.view = PICK
        if taken is not None:
            self.cur = SYMBOLS.index(taken)
        self.msg.show("Undone: " + rules.names(state)[rules.turn(state)], self.app.now)
        return True

    def go_on(self):
        """Leave the result view: the next round's picks, or the ranking after the last round."""
        self.view = FINAL if self.over() else PICK
        self.dirty = True

    def leave(self):
        """A finished game goes to the history; the players go home."""
        lifecycle.finish(self.app, self.game)
        self.app.home()

    def _name_rows(self):
        """The result view's three rows of names (two columns), composed once for the game."""
        if self.name_rows is None:
            short = [text.fit(n, 40) for n in rules.names(self.game.state)]
            self.name_rows = [text.line([(short[i], (i // 3) * 65 + 6)
                                         for i in (r, r + 3) if i < len(short)])
                              for r in range(3)]
        return self.name_rows

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
        name = rules.names(state)[rules.turn(state)]
        fb.fill_rect(0, 0, text.width(name) + 3, 9, 1)
        text.put(fb, name, 2, 0, color=0)
        if rules.coop(state):
            right = "R%d D%d" % (rules.round_no(state), rules.deck(state))
        else:
            right = "R%d D%d B%d" % (rules.round_no(state), rules.deck(state), rules.box(state))
        text.put_right(fb, right, 128, 0)
        fb.hline(0, 9, 128, 1)
        # The symbols sit on whole pages and the selected one is its own square inverted: a
        # move changes two 16-column spans of two pages each (and the name below).
        icons.put_row(fb, _ROWS[0], _GRID_PAGES[0])
        icons.put_row(fb, _ROWS[1], _GRID_PAGES[1])
        cur = self.cur
        icons.put(fb, SYMBOLS[cur], _GRID_X + (cur % _COLS) * _PITCH, _GRID_PAGES[cur // _COLS], 0)
        text.put_centered(fb, SYMBOLS[self.cur], _BOTTOM)

    def _draw_result(self, fb):
        # Text sits on the display's pages (text.put: a byte copy, not a blit) and is drawn in
        # pieces (a label, then its number; names one by one): each piece's image stays in the
        # text cache from round to round, where a whole line with this round's numbers would
        # be rendered anew every time (about 1 ms a line on a Pico).
        state = self.game.state
        last = rules.last(state)
        coop = rules.coop(state)
        if last:
            text.put_number(fb, last["round"], text.put(fb, "Round ", 0, 0), 0)
        else:
            text.put(fb, "Scores", 0, 0)
        fb.hline(0, 9, 128, 1)
        text.put_right(fb, "OK " + ("end" if self.over() else "next"), 128, 0)
        names = rules.names(state)
        x = 0
        if last is None:
            lines = ("No round yet", "")
        elif last["why"]:
            lines = WHY[last["why"]]
        else:
            icons.put(fb, last["symbol"], 0, 2)
            x = 20
            if coop:
                lines = ("Same: " + last["symbol"], "Card to right pile")
            else:
                lines = (last["symbol"] + " wins", "")
                pen = x
                for n in range(len(last["winners"])):
                    if n:
                        pen = text.put(fb, ", ", pen, 3)
                    pen = text.put(fb, names[last["winners"][n]], pen, 3)
        text.put(fb, lines[0], x, 2)  # every first line fits (the longest is 18 characters)
        if lines[1]:
            text.put(fb, text.fit(lines[1], 127 - x), x, 3)
        if coop:
            left, right = rules.piles(state)
            text.put_number(fb, left, text.put(fb, "Left pile ", 0, 4), 4)
            text.put_number(fb, right, text.put(fb, "Right pile ", 0, 5), 5)
            deck = rules.deck(state)
            pen = 64 - 3 * (5 + len("%d" % deck))  # centred: the font is 6 px a character
            text.put_number(fb, deck, text.put(fb, "Deck ", pen, _BOTTOM), _BOTTOM)
        else:
            won = last["winners"] if last else ()
            cards = rules.scores(state)
            buf = fb.buf
            rows = self.name_rows or self._name_rows()
            for r in range(3):
                o = (4 + r) * 128
                buf[o:o + 128] = rows[r]
            for i in range(len(names)):
                x = 0 if i < 3 else 65
                page = 4 + i % 3
                if i in won:
                    text.put(fb, text.CHECK, x, page)
                text.put_number(fb, cards[i], x + 60, page, True)
            deck = rules.deck(state)
            box = rules.box(state)
            pen = 64 - 3 * (11 + len("%d%d" % (deck, box)))  # centred: 6 px a character
            pen = text.put_number(fb, deck, text.put(fb, "Deck ", pen, _BOTTOM), _BOTTOM)
            text.put_number(fb, box, text.put(fb, "  Box ", pen, _BOTTOM), _BOTTOM)

    def _draw_final(self, fb):
        state = self.game.state
        if rules.coop(state):
            draw_title(fb, "Game over")
            line = winners_line(state)
            w = text.width(line)
            fb.fill_rect(62 - w // 2, 15, w + 5, 11, 1)
            text.draw_centered(fb, line, 17, color=0)
            left, right = rules.piles(state)
            text.draw_centered(fb, "Right pile %d" % right, 31)
            text.draw_centered(fb, "Left pile %d" % left, 40)
            text.put_centered(fb, "OK: finish", _BOTTOM)
            return
        draw_title(fb, text.fit(winners_line(state), 127))
        draw_standings(fb, rules.names(state), rules.scores(state), rules.result(state))

    def menu_entries(self):
        if self.over():
            return ()
        name = rules.names(self.game.state)[rules.turn(self.game.state)]
        return (("Skip " + name, self._skip_now), ("Count to 3", self._count),
                ("Scores", self._scores))

    def _skip_now(self):
        self.app.pop()
        self.skip()

    def _count(self):
        self.view = PICK
        self.app.replace(CountToThree(self.app, self))

    def _scores(self):
        self.app.pop()
        self.view = RESULT
        self.dirty = True


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
        self.name = rules.names(pad.game.state)[rules.turn(pad.game.state)]
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
        from tablemate.ui.dialogs import Confirm
        self.app.replace(Confirm(self.app, "Time is up!\n%s skips?" % self.name, self.pad.skip,
                                 yes="Skip", no="Pick"))

    def draw(self, fb):
        draw_title(fb, "Count to three")
        text.draw_centered(fb, self.name + ", choose!", 12)
        text.draw_centered(fb, "%d" % max(self.shown, 0), 24, text.large()[1])
        text.put_centered(fb, "Any key: chosen", _BOTTOM)
