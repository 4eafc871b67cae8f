"""Perspective: whose turn, the colour played, the objective checks; the solitaire's moves.

Views, chosen by the game:

FIRST (before the first turn): the colour of the draw pile's first card (LEFT/RIGHT, OK), then
"Who wears the most red?" over the players (LEFT/RIGHT, OK), or "Random" (drawn once, kept in
the journal).
TURN: the turn count, the active player and who they act with (their partner, the common
hand, or "partner done": their own hand alone), each player's failed checks and who is done.
The card played is one press: UP yellow (turn), RIGHT green (exchange), DOWN red (replace),
LEFT blue (rearrange or inform), spelt out on the bottom two lines ("Card: ^yellow >green"). OK before playing checks the objective (at the start of the
turn), after playing ends the turn; UP after playing checks it at the end. A check asks
"reached?": a failure ends the turn (and is counted), a success wins or, with four players,
sets that player's cards aside.
SOLO: the moves, the time running, the colour of the action to do, and the keys in words. One press an action
done: the arrow of the next action's colour (as the card the action touched says: UP yellow,
RIGHT green, DOWN red, LEFT blue), or OK when that action made every hand match its objective
("Solved in N moves?", Yes: the time of the OK press; the solving action is a move too).
The best records (fewest moves, fastest time) are kept in ``/data/perspective.json``
(``store/bests.py``), shown when the solitaire starts and when one is beaten; a solve that
beats them marks them with its game, so that its undo takes them back.
With 2 players and in the solitaire, a game that starts first reminds the players to leave out
one copy of each card showing the same colour on both sides (``DOUBLES``).

BACK opens the game menu: the reference card (a page per colour, for the game and for the
solitaire), the game log (the last turns: colours played, checks, passes), the draw pile's
rebuild (a one-press reminder, journaled), and the shared entries.
"""


from micropython import const

from tablemate import random
from tablemate import keys as K
from tablemate import ticks_diff
from tablemate.rules import perspective as rules
from tablemate.ui import Screen, draw_rows, draw_title, text
from tablemate.flow.play import GameScreen

FIRST = const(0)
WHO = const(1)
TURN = const(2)
CHECK = const(3)
SOLO = const(4)

COLOUR_KEY = {K.UP: "yellow", K.RIGHT: "green", K.DOWN: "red", K.LEFT: "blue"}
KEY_MARK = {"yellow": text.ARROW_UP, "green": ">", "red": text.ARROW_DOWN, "blue": "<"}
REFERENCE = {  # 21 x 8 characters a page
    "yellow": "Yellow: turn\nTurn over one card in\nyour hand or in your\npartner's: its public\n"
              "side becomes private.",
    "green": "Green: exchange\nGive one card to your\npartner (not turned),\ntake one of theirs\n"
             "back (not turned).",
    "red": "Red: replace\nPut a card from your\nhand (or partner's)\non the play pile, and\n"
           "one from the pile in\nthat hand: visible\nside made private.",
    "blue": "Blue: rearrange, or\ninform. Reorder your\nhand or partner's, OR\n"
            "ask the colour of one\nof your public sides,\nOR tell your partner\none of theirs.",
}
SOLO_REFERENCE = {
    "yellow": "Yellow: turn a card.\nNext: its new visible\ncolour.",
    "green": "Green: swap two outer\ncards, turning them.\nNext: the colour of\n"
             "one before turning.",
    "red": "Red: swap a central\ncard with another,\nturning them. Next:\none's colour before.",
    "blue": "Blue: look under a\ncard (next: its top)\nOR rearrange a hand\n"
            "(next: the colour not\nin its objective).",
}
# The colour keys in words, on the bottom two lines: a card played (a turn), the next action
# (the solitaire).
KEYS_TURN = ("Card: " + text.ARROW_UP + "yellow >green", text.ARROW_DOWN + "red <blue  OK check")
KEYS_SOLO = ("Next: " + text.ARROW_UP + "yellow >green", text.ARROW_DOWN + "red <blue OK solved")
DOUBLES = "Remove one copy of each card with the same colour on both sides."
_W = const(128)


class Perspective(GameScreen):
    """The running game or solitaire."""

    labels = ("Turn ", "OK end turn", "with ", "partner done") + KEYS_TURN

    def opening(self):
        """The doubles' reminder (2 players and the solitaire), when the game starts."""
        if self.game.count == 0 and rules.removes_doubles(self.game.state):
            return DOUBLES
        return None

    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        state = game.state
        self.cur = 0
        self.colour = 0
        self.solo = rules.kind(state) == "solo"
        self.started = app.now  # the solitaire's clock: the time at its last action + since
        self.base_ms = rules.elapsed(state)
        self.held = self.solo and game.count > 0 and not self.over()  # resumed: paused
        self._shown = -1
        if self.solo:
            self.view = SOLO if rules.next_colour(state) else FIRST
            from tablemate.store import bests  # the solitaire's only: a table's game
            self.rec = bests  # leaves the module unloaded (1-2 KB)
            self.records = bests.read_records(app.path(bests.FILE))
            if not self.over():  # a power cut may have come between a records write and
                self._unsolved()  # the journal line it went with
        else:
            self.view = FIRST if rules.turn(state) < 0 and not self.over() else TURN

    # -- the solitaire's time ----------------------------------------------------------------
    def ms(self):
        if self.held or self.over() or rules.next_colour(self.game.state) is None:
            return self.base_ms
        return self.base_ms + ticks_diff(self.app.now, self.started)

    @property
    def keep_awake(self):
        return self.solo and self.view == SOLO and not self.held and not self.over()

    def tick(self, now):
        GameScreen.tick(self, now)
        if self.keep_awake:
            s = self.ms() // 1000
            if s != self._shown:
                self._shown = s
                self.dirty = True

    def due(self, now):
        """The solitaire's clock shows whole seconds: the next one."""
        due = self.msg.due(now)
        if self.keep_awake:
            ms = 1000 - (self.ms() + ticks_diff(now, self.app.now)) % 1000
            return ms if due is None else min(due, ms)
        return due

    def _stamp(self):
        """The solitaire's time now, kept as the base of its clock (each action carries it)."""
        ms = self.ms()
        self.base_ms = ms
        self.started = self.app.now
        return ms

    # -- actions -----------------------------------------------------------------------------
    def done(self):
        state = self.game.state
        if self.over():
            if self.solo:
                self._solved()
            else:
                from tablemate.flow import standings  # the game ended: loaded now
                from tablemate.ui import shorten
                self.announce(shorten.abbreviate(standings.winners_text(
                    rules.names(state), rules.result(state), rules.outcome(state) == "team"), _W,
                    name=False))
            return
        if not self.solo:
            self.view = TURN

    def _solved(self):
        """The records the solve beat, written at once (before the journal takes "solved": a
        power cut between the two is mended when the game resumes unsolved)."""
        state = self.game.state
        new, beaten = self.rec.records_solved(self.records, self.game.id, rules.moves(state),
                                     rules.elapsed(state))
        if not self._keep(new):
            return
        if beaten:
            self.announce("New record: " + ("both" if len(beaten) == 2 else beaten[0]))
        else:
            self.announce("Solved! OK: standings")

    def _unsolved(self):
        """The records this game set do not stand while it is unsolved: write back those they
        beat, after the frame and so after the journal's undo line (a power cut between the
        two leaves a game that resumes unsolved, and it is mended then)."""
        if self.rec.records_unsolved(self.records, self.game.id) is not self.records:
            self.app.after_frame(lambda: self._keep(self.rec.records_unsolved(self.records,
                                                                     self.game.id)))

    def _keep(self, records):
        """Make ``records`` the records file's (whole, through a temporary file) and this
        screen's; True when they are, False ("Record not saved" shown) when the flash refused
        and the file is as it was."""
        if records == self.records:
            return True
        try:
            self.rec.write(self.app.path(self.rec.FILE), records)
        except OSError:
            self.refuse("Record not saved")
            return False
        self.records = records
        self.dirty = True
        return True

    def undo(self):
        if not GameScreen.undo(self):
            return False
        state = self.game.state
        self.base_ms = rules.elapsed(state)
        self.started = self.app.now
        if self.solo:
            self.view = SOLO if rules.next_colour(state) else FIRST
            self._unsolved()
        else:
            self.view = FIRST if rules.turn(state) < 0 else TURN
        self.msg.show("Undone", self.app.now)
        return True

    def menu_entries(self):
        out = [("Reference card", self._reference)]
        if not self.solo:
            out.append(("Game log", lambda: self.app.push(Log(self.app, self.game))))
        if not self.solo and not self.over() and rules.turn(self.game.state) >= 0:
            out.append(("Draw pile empty", self._rebuild))
        return out

    def _reference(self):
        self.app.push(Reference(self.app, SOLO_REFERENCE if self.solo else REFERENCE))  # over
        # the game menu: BACK goes back one level, there

    def _rebuild(self):
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Notice
        self.app.pop()
        if self.do(["rebuild"]):
            self.app.push(Notice(self.app, "Keep the discard pile's first card; turn the rest "
                                           "over as the new draw pile. No shuffle."))

    # -- keys --------------------------------------------------------------------------------
    def resume(self):
        """A resumed solitaire's first key starts its clock again."""
        self.started = self.app.now

    def play_key(self, key, kind):
        if kind != K.PRESS:
            return
        view = self.view
        if view == FIRST:
            self._first_key(key)
        elif view == WHO:
            self._who_key(key)
        elif view == CHECK:
            self._check_key(key)
        elif view == SOLO:
            if key in COLOUR_KEY:
                self.do(["move", COLOUR_KEY[key], self._stamp()])
            elif key == K.OK:
                self._ask_solved()
        else:
            self._turn_key(key)
        self.dirty = True

    def _ask_solved(self):
        """"Solved in N moves?": a slip of OK is no record. Yes journals the time of the OK."""
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Confirm
        ms = self._stamp()
        n = rules.moves(self.game.state) + 1  # the action that solved it counts ("solved")
        self.app.push(Confirm(self.app, "Solved in %d move%s?" % (n, "" if n == 1 else "s"),
                              lambda: self.do(["solved", ms])))

    def _first_key(self, key):
        if key == K.LEFT or key == K.RIGHT or key == K.UP or key == K.DOWN:
            self.colour = (self.colour + (1 if key in (K.RIGHT, K.DOWN) else -1)) % 4
        elif key == K.OK:
            colour = rules.COLOURS[self.colour]
            if self.solo:
                self.started = self.app.now
                self.do(["start", colour, 0])
                self.view = SOLO
            else:
                self.view = WHO
                self.cur = 0

    def _who_key(self, key):
        n = len(rules.names(self.game.state))
        if key == K.OK:
            colour = rules.COLOURS[self.colour]
            if self.cur == n:  # nobody can tell: a random player, drawn once
                self.do(["first", random.getrandbits(8) % n, None])
            else:
                self.do(["first", self.cur, colour])
        elif key != K.BACK:
            self.cur = (self.cur + (1 if key in (K.RIGHT, K.DOWN) else -1)) % (n + 1)

    def _turn_key(self, key):
        state = self.game.state
        p = rules.turn(state)
        if rules.stage(state) == "start":
            if key in COLOUR_KEY:
                self.do(["play", p, COLOUR_KEY[key]])
            elif key == K.OK:
                self._ask_check()
        elif key == K.OK:
            self.do(["end", p])
        elif key == K.UP:
            self._ask_check()

    def _ask_check(self):
        self.view = CHECK
        self.cur = 0

    def _check_options(self):
        if rules.kind(self.game.state) == "advanced":
            return (("No", False), ("Yes, visible side", "visible"), ("Yes, hidden side",
                                                                       "hidden"))
        return (("No", False), ("Yes", True))

    def _check_key(self, key):
        options = self._check_options()
        if key == K.OK:
            self.view = TURN
            self.do(["check", rules.turn(self.game.state), options[self.cur][1]])
        elif key in (K.UP, K.DOWN, K.LEFT, K.RIGHT):
            self.cur = (self.cur + (1 if key in (K.RIGHT, K.DOWN) else -1)) % len(options)

    # -- frames ------------------------------------------------------------------------------
    def draw(self, fb):
        view = self.view
        if view == FIRST:
            draw_title(fb, "Last card placed?" if self.solo else "First card's colour?")
            self._draw_choices(fb, rules.COLOURS, self.colour)
        elif view == WHO:
            colour = rules.COLOURS[self.colour]
            ask = "Who wears most " + colour + "?"
            draw_title(fb, ask if len(ask) <= 21 else "Most " + colour + " worn by?")
            self._draw_choices(fb, rules.names(self.game.state) + ["Random"], self.cur)
        elif view == CHECK:
            name = rules.names(self.game.state)[rules.turn(self.game.state)]
            draw_title(fb, name + ": objective?")
            self._draw_choices(fb, [o[0] for o in self._check_options()], self.cur)
        elif view == SOLO:
            self._draw_solo(fb)
        else:
            self._draw_turn(fb)
        self.msg.draw(fb)

    def _draw_choices(self, fb, items, cur):
        self._choices = items
        draw_rows(fb, self, len(items), cur)

    def row(self, i, lit):
        """A choice for ``draw_rows`` (colours, players, a check's answers: five at most)."""
        return self._choices[i], None, 0

    def _draw_turn(self, fb):
        state = self.game.state
        names = rules.names(state)
        over = self.over()
        p = rules.turn(state)
        text.put_number(fb, rules.turns(state), text.put(fb, "Turn ", 0, 0), 0)
        if not over:
            mate = rules.partner(state, p)
            text.put_right(fb, "partner done" if mate is None else "+ common hand" if mate == -1
                           else "with " + names[mate], _W, 0)
        fb.hline(0, 9, _W, 1)
        won = rules.result(state) or ()
        for i in range(len(names)):
            page = 2 + i
            lit = i == p or i in won
            label = names[i]
            if lit:
                text.bar(fb, 0, page, _W)
            text.put(fb, label, 2, page, color=0 if lit else 1)
            right = ("done" if rules.done(state)[i] else "") + (
                "  x%d" % rules.failed(state)[i] if rules.failed(state)[i] else "")
            if right:
                text.put_right(fb, right.strip(), _W - 2, page, color=0 if lit else 1)
        if over or self.msg.text is not None:
            return
        if rules.stage(state) == "start":  # the colour keys in words, over two lines
            text.put(fb, KEYS_TURN[0], 0, 6)
            text.put(fb, KEYS_TURN[1], 0, 7)
        else:
            text.put(fb, "OK end turn  " + text.ARROW_UP + " check", 0, 7)

    def _draw_solo(self, fb):
        state = self.game.state
        text.put(fb, "Solitaire", 0, 0)
        text.put_right(fb, self.rec.fmt_ms(self.ms()), _W, 0)
        fb.hline(0, 9, _W, 1)
        big = text.large()[1]
        moves = rules.moves(state)
        w = text.digits_width(moves, big) - big.spacing  # the digits, then "moves" beside them
        x = (_W - w - 6 - text.ink_width("moves")) // 2
        text.put_digits(fb, moves, x, 2, big)
        text.put(fb, "moves", x + w + 6, 3)
        colour = rules.next_colour(state)
        if colour and not self.over():
            action = "look/sort" if colour == "blue" else rules.ACTIONS[colour]
            text.put_centered(fb, "Now: " + colour + " (" + action + ")", 4)
        best = self.records if self.over() else self.rec.records_unsolved(self.records, self.game.id)
        if best:
            text.put_centered(fb, "Best %s moves, %s" % (best.get("moves", "-"),
                                                          self.rec.fmt_ms(best.get("ms", 0))), 5)
        if self.msg.text is None and not self.over():
            if self.held:
                text.put(fb, "Paused: any key", 0, 7)
            else:  # the next colour's keys in words, over two lines
                text.put(fb, KEYS_SOLO[0], 0, 6)
                text.put(fb, KEYS_SOLO[1], 0, 7)


def describe(state, ev):
    """One line of the game log for event ``ev`` (``rules.log``)."""
    names = rules.names(state)
    k = ev[0]
    if k == "play":
        return "%s: %s (%s)" % (names[ev[1]], ev[2], rules.ACTIONS[ev[2]].split("/")[0])
    if k == "check":
        result = ev[2]
        return "%s: %s" % (names[ev[1]], "check failed" if result is False else "done" if
                           result is True else "done, " + result + " side")
    if k == "skip":
        return names[ev[1]] + ": done, passes"
    return "Draw pile rebuilt"


class Log(Screen):
    """The newest events, the last at the bottom; OK or BACK back to the game."""

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game

    def key(self, key, kind):
        if kind == K.PRESS and (key == K.OK or key == K.BACK):
            self.app.pop()

    def draw(self, fb):
        from tablemate.ui import shorten  # the log page's: loaded with it
        state = self.game.state
        draw_title(fb, "Game log, turn %d" % rules.turns(state))
        events = rules.log(state)[-6:]
        for k in range(len(events)):
            text.put(fb, shorten.abbreviate(describe(state, events[k]), _W), 0, 2 + k)


class Reference(Screen):
    """The reference card: a page per colour (LEFT/RIGHT), OK or BACK back to the game menu."""

    def __init__(self, app, pages):
        Screen.__init__(self, app)
        self.pages = pages
        self.i = 0

    def key(self, key, kind):
        if kind != K.PRESS:
            return
        if key == K.OK or key == K.BACK:
            self.app.pop()
        else:
            self.i = (self.i + (1 if key in (K.RIGHT, K.DOWN) else -1)) % 4
            self.dirty = True

    def draw(self, fb):
        lines = self.pages[rules.COLOURS[self.i]].split("\n")
        for k in range(min(len(lines), 8)):
            text.put(fb, lines[k], 0, k)


SCREEN = Perspective  # the mode's game screen (``flow.play.play``)
