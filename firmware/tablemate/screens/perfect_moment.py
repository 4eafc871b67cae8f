"""The Perfect Moment: both scores, both clocks, the deck and the fragments; one press a turn.

Three views, chosen by the game:

RACE (the game has not started): "the player who finished setup first goes first". Each player
has a key: the left player LEFT (or UP, PREV, the knob back), the right player RIGHT (or DOWN,
NEXT, the knob on). The first press starts the game with that player, unless the other key comes
within 100 ms: then the tie is shown and settled by hand (LEFT/RIGHT, OK).
TABLE: both names with their points in the 14-px digits, the player to move lit; both clocks
(the running one on a lit bar; a clock that lost the game reads "time is up"); "2 face up":
the fragments in front of each (cards scored face up for 1 point, open to either player: what
the score list offers; the face-down cards are final, their points in the score, and a half's
ten characters hold no second count in words); the deck and the turn on the top line. OK
ends the turn (the clock passes to the other player); UP opens the score list on the plan,
DOWN on the Paradox; LEFT and RIGHT take a card from the deck or put one back (an item's
action: one press each; taking from an empty deck asks first, as it ends the game).
SCORE: the cards this player may score (their plan, the Paradox, a fragment in front of either
player), each with the points it would score: LEFT/RIGHT 1, 2 or 3 (what each means is on the
bottom line), UP/DOWN another card, OK scores. Every score is at most four presses from the
table: the list opens on the plan or the Paradox, the fragments are one press round the ends,
and the points start on 2, one press from 1 or 3. With three buttons or a knob (no LEFT/RIGHT)
each card's points are rows of their own ("Plan: 3"), and the game menu takes the deck's cards.

The clocks are ``tablemate.clock``'s chess clock: a time bank with a Fischer increment, or a
countdown per turn, with beeps at 10 s and 5 s left; at zero, by the setup, an alert and play
on, or that player loses. Every action is journaled with both clocks; while a player thinks,
the clocks are kept every 10 s as well (``clock.Autosave``, the chess clock's cadence) in
``/data/times.json`` (``store/clockfile.py``), which holds until the next action is journaled.
So a resumed game shows the times at the last of those writes (or of its last action), paused
until a key is pressed: a power cut takes back at most 10 s of the thinking player's time. The
game menu pauses the clocks while it is open; its "Pause" keeps them paused until a key is
pressed on the table.
"""

from micropython import const

from tablemate import clock
from tablemate import keys as K
from tablemate import ticks_diff
from tablemate.rules import perfect_moment as rules
from tablemate.store import clockfile
from tablemate.ui import draw_rows, draw_title, scroll, table, text
from tablemate.flow.play import GameScreen

RACE = const(0)
TABLE = const(1)
SCORE = const(2)

TIE_MS = const(100)  # two ready presses this close are a tie
_TENTHS_BELOW = const(10000)  # a clock shows tenths of a second under this
WARN = (10, 5)  # seconds left at which a clock beeps
BEEP_WARN = ((1760, 80),)
BEEP_ZERO = ((880, 600),)
MEANS = ("", "1: one item", "2: both, opposite", "3: both, same way")
READY = {"six": ("< LEFT", "RIGHT >"), "three": ("< PREV", "NEXT >"),  # the race's keys
         "encoder": ("< turn", "turn >")}
RACE_WORDS = ("Who is ready first?", "Set up, then press", "your key")
WARM = RACE_WORDS + READY["six"]  # the race's words, rendered while the players read the setup
# (``lifecycle.warm``)
_W = const(128)
_HALF = const(64)


def make_clock(state):
    """The chess clock of the game's options (both players at its full time), None without."""
    kind, base, increment = rules.clock(state)
    if kind == "off":
        return None
    return clock.ChessClock(2, base, increment, per_turn=kind == "turn", warn=WARN)


def choices(state, walk=False):
    """The score list's rows for the player to move: [(what, label, points)], the plan and the
    Paradox first, then the fragments in front of this player and of the other (one press
    round the end from the plan). Points None: chosen on the row with LEFT/RIGHT; with three
    buttons or a knob (``walk``) each number of points is a row of its own."""
    p = rules.turn(state)
    names = rules.names(state)
    frags = rules.fragments(state)
    rows = [("plan", "Plan"), ("paradox", "Paradox")]
    for owner in (p, 1 - p):
        if frags[owner]:
            rows.append(("frag%d" % owner, "Frag. " + names[owner]))
    if not walk:
        return [(what, label, None) for what, label in rows]
    return [(what, "%s: %d" % (label, q), q) for what, label in rows
            for q in ((2, 3) if what[:4] == "frag" else (1, 2, 3))]


def _shown(ms):
    """What a clock shows, as a number: tenths under 10 s, else seconds."""
    return (ms + 99) // 100 if ms < _TENTHS_BELOW else (ms + 999) // 1000 * 100


class PerfectMoment(GameScreen):
    """The running game: the setup race, the table, or the score list."""

    labels = ("Deck ", "Turn ", " face up", "OK end turn", "Paused: any key")

    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        state = game.state
        self.walk = K.LEFT not in K.LAYOUTS[app.layout]  # PREV/NEXT or a knob: no LEFT/RIGHT
        self.clock = make_clock(state)
        self.held = False  # paused until a key is pressed (a resumed game, the menu's Pause)
        self._race = None  # (player, when) of the first ready press
        self.tie = -1  # the starter chosen after a tie, -1 while none is shown
        self.waiting = -1  # the race's loser, until their own "ready" press comes
        self.rows = []
        self.cur = 0
        self.first = 0  # the first score row in view
        self.pts = []  # the points shown on each score row
        self._shown = (-1, -1)  # the clocks' seconds last drawn
        self.autosave = clock.Autosave(app.now)
        if rules.turn(state) < 0 and not self.over():
            self.view = RACE
        else:
            self.view = TABLE
            if self.clock and not self.over():
                self.restore(True)

    # -- time --------------------------------------------------------------------------------
    def times(self):
        """Both clocks now, for the action being journaled (None without clocks)."""
        c = self.clock
        if c is None:
            return None
        now = self.app.now
        return [c.remaining(0, now), c.remaining(1, now)]

    def restore(self, kept=False):
        """The clocks as the last action journaled them, or (``kept``: a resume) as they were
        kept since (``keep_times``), paused until a key is pressed (a player already playing on
        at zero is not told again: ``set_times``)."""
        state = self.game.state
        now = self.app.now
        c = self.clock
        times = None
        if kept:
            times = clockfile.read_times(self.app.path(clockfile.TIMES), self.game.id,
                                         self.game.size)
        c.set_times(times or rules.clocks(state), now)
        c.start(now, rules.turn(state))
        c.pause(now)
        self.held = True

    @property
    def keep_awake(self):
        return self.clock is not None and self.clock.running

    @property
    def plus_minus(self):
        """LEFT and RIGHT take a card and put one back, or take a point off and add one: the
        same keys for the player across, whom the picture faces. Only the race's are sides
        (the left player's key, the right player's), which turn with a flipped picture."""
        return self.view != RACE

    def on_hide(self):
        if self.clock and self.clock.running:
            self.clock.pause(self.app.now)  # the game menu (or a question) is over the table

    def on_open(self):
        GameScreen.on_open(self)
        if self.clock and self.clock.paused and not self.held and not self.over():
            self.clock.resume(self.app.now)
        self.dirty = True

    def hold(self):
        """The menu's Pause: the clocks stay stopped until a key is pressed on the table."""
        self.app.pop()
        if self.clock and not self.over():
            self.clock.pause(self.app.now)
            self.held = True
            self.dirty = True

    def keep_times(self):
        """Keep the running clocks (``/data/times.json``) for a resume after a power cut;
        only while the journal holds every action (else its next save brings the clocks),
        and a flash that refuses is no news: the game's own saves tell the players."""
        game = self.game
        if game.unsaved or game.id is None:
            return
        try:
            clockfile.write_times(self.app.path(clockfile.TIMES), game.id, game.size,
                                  self.times())
        except OSError:
            pass

    def tick(self, now):
        GameScreen.tick(self, now)
        if self.view == RACE and self._race and self.tie < 0:
            if ticks_diff(now, self._race[1]) >= TIE_MS:
                self.begin(self._race[0])
            return
        c = self.clock
        if c is None or self.over():
            return
        event = c.poll(now)
        if event == clock.BEEP:
            self.app.beep(BEEP_WARN)
        elif event == clock.EXPIRED:
            self.time_up()
        elif self.autosave.due(c, now) == 0:
            self.autosave.wrote(now)
            self.app.after_frame(self.keep_times)
        shown = (_shown(c.remaining(0, now)), _shown(c.remaining(1, now)))
        if shown != self._shown:
            self._shown = shown
            self.dirty = True

    def due(self, now):
        """The tie window of a race, else the next figure of the running clock."""
        due = self.msg.due(now)
        if self.view == RACE and self._race and self.tie < 0:
            race = max(0, TIE_MS - ticks_diff(now, self._race[1]))
            return race if due is None else min(due, race)
        c = self.clock
        if c is None or not c.running or self.over():
            return due
        ms = min(clock.change_in(c.remaining(c.current, now), _TENTHS_BELOW),
                 self.autosave.due(c, now))
        return ms if due is None else min(due, ms)

    def time_up(self):
        """The player to move has no time left: by the setup, they lose, or play on."""
        p = rules.turn(self.game.state)
        self.app.beep(BEEP_ZERO)
        if self.do(["timeout", p, self.times()]) and not self.over():
            self.clock.play_on(self.app.now)
            self.msg.show(rules.names(self.game.state)[p] + ": time is up!", self.app.now)

    # -- the race --------------------------------------------------------------------------
    def ready(self, p):
        """Player ``p`` pressed their key: the first press starts the game, unless the other
        comes within TIE_MS."""
        now = self.app.now
        if self._race is None:
            self._race = (p, now)
        elif self._race[0] != p and ticks_diff(now, self._race[1]) < TIE_MS and self.tie < 0:
            self.tie = self._race[0]  # shown as a tie: the players settle it
            self.dirty = True

    def begin(self, p):
        """The game starts with ``p`` to move."""
        if self.do(["first", p, self.times()]):
            self.view = TABLE
            self.waiting = 1 - p
            if self.clock:
                self.clock.start(self.app.now, p)

    # -- actions ---------------------------------------------------------------------------
    def end_turn(self):
        state = self.game.state
        p = rules.turn(state)
        c = self.clock
        if c and not c.press(self.app.now):  # the time ran out before this press
            if c.poll(self.app.now) == clock.EXPIRED:
                self.time_up()
            if self.over() or not c.press(self.app.now):
                return
        self.do(["end", p, self.times()])

    def open_score(self, row):
        state = self.game.state
        if rules.scored(state):
            self.refuse("One score a turn")
            return
        self.rows = choices(state, self.walk)
        self.pts = [2] * len(self.rows)
        self.cur = row % len(self.rows)
        self.first = scroll(0, self.cur, 5)
        self.view = SCORE
        self.dirty = True

    def score(self):
        state = self.game.state
        what, _, pts = self.rows[self.cur]
        pts = self.pts[self.cur] if pts is None else pts
        if self.do(["score", rules.turn(state), what, pts, self.times()]):
            self.view = TABLE

    def deck(self, d):
        state = self.game.state
        if d < 0 and not rules.deck(state):
            # .mpy: 2.8 KB a game holds only once a dialog shows
            from tablemate.ui.dialogs import Confirm
            p = rules.turn(state)
            self.app.push(Confirm(self.app, "The deck is empty: taking a card ends the game.",
                                  lambda: self.do(["empty", p, self.times()])))
            return
        self.do(["deck", d, self.times()])  # the top line shows the deck

    def done(self):
        """After every action (journaled with both clocks: the next keeping is due
        ``SAVE_MS`` on); a finished game: fanfare, the winner lit, OK for the standings."""
        self.autosave.wrote(self.app.now)
        if self.over():
            if self.clock:
                self.clock.pause(self.app.now)
            self.view = TABLE
            state = self.game.state
            from tablemate.flow import standings  # the game ended: loaded now
            from tablemate.ui import shorten
            self.announce(shorten.abbreviate(standings.winners_text(rules.names(state),
                                                                 rules.result(state)), _W,
                                          name=False))

    def undo(self):
        """Take back the last action; the clocks go back to its times, paused."""
        if not GameScreen.undo(self):
            return False
        state = self.game.state
        self.view = RACE if rules.turn(state) < 0 and not self.over() else TABLE
        self._race = None
        self.tie = -1
        self.waiting = -1
        self.clock = make_clock(state)
        if self.clock and self.view == TABLE and not self.over():
            self.restore()
        self.msg.show("Undone", self.app.now)
        return True

    def menu_entries(self):
        if self.over() or self.view == RACE:
            return ()
        out = [("Pause", self.hold)]
        if self.walk:  # no LEFT/RIGHT: an item's card from or to the deck is here
            out += [("Card from the deck", lambda: self._menu_deck(-1)),
                    ("Card to the deck", lambda: self._menu_deck(1))]
        return out

    def _menu_deck(self, d):
        self.app.pop()
        self.deck(d)

    # -- keys ------------------------------------------------------------------------------
    def page_back(self):
        """BACK on the score rows: back to the table, nothing scored."""
        if self.view != SCORE:
            return False
        self.view = TABLE
        self.dirty = True
        return True

    def resume(self):
        if self.clock and self.clock.paused:
            self.clock.resume(self.app.now)
            self.autosave.wrote(self.app.now)  # what a cut would find: these very times

    def play_key(self, key, kind):
        if kind != K.PRESS:
            return
        view = self.view
        if view == RACE:
            if self.tie >= 0:
                if key == K.OK:
                    self.begin(self.tie)
                elif key != K.BACK:
                    self.tie = 0 if key == K.LEFT or key == K.UP else 1
                    self.dirty = True
            elif key == K.LEFT or key == K.UP:
                self.ready(0)
            elif key == K.RIGHT or key == K.DOWN:
                self.ready(1)
            return
        if self.waiting >= 0:  # the other player's "ready" press after the race: only that
            waiting = self.waiting
            self.waiting = -1
            if key == (K.LEFT, K.RIGHT)[waiting]:  # not UP/DOWN: the starter's score keys
                return
        if view == SCORE:
            self._score_key(key)
        elif key == K.OK:
            self.end_turn()
        elif key == K.UP or key == K.DOWN:
            self.open_score(0 if key == K.UP else 1)
        elif key == K.LEFT or key == K.RIGHT:
            self.deck(1 if key == K.RIGHT else -1)

    def _score_key(self, key):
        n = len(self.rows)
        if key == K.OK:
            self.score()
        elif key == K.UP or key == K.DOWN:
            self.cur = (self.cur + (1 if key == K.DOWN else -1)) % n
        elif self.rows[self.cur][2] is None:
            lo = 2 if self.rows[self.cur][0][:4] == "frag" else 1  # a fragment: both items
            step = 1 if key == K.RIGHT else -1
            self.pts[self.cur] = lo + (self.pts[self.cur] - lo + step) % (4 - lo)
        self.dirty = True

    def row(self, i, lit):
        """A score row for ``draw_rows``: its label, and the points the player may change
        ("< 2 >" on the cursor's row), none for a card that scores what it scores."""
        if self.rows[i][2] is not None:
            return self.rows[i][1], None, 0
        value = "< %d >" % self.pts[i] if lit else "%d" % self.pts[i]
        return self.rows[i][1], value, _W - (0 if lit else 12) - text.ink_width(value)

    # -- frames ----------------------------------------------------------------------------
    def draw(self, fb):
        if self.view == RACE:
            self._draw_race(fb)
        elif self.view == SCORE:
            self._draw_score(fb)
        else:
            self._draw_table(fb)
        self.msg.draw(fb)

    def _draw_race(self, fb):
        names = rules.names(self.game.state)
        if self.tie >= 0:
            draw_title(fb, "Tie! Who starts?")
            for p in (0, 1):
                x = p * _HALF + (_HALF - text.width(names[p])) // 2
                if p == self.tie:
                    text.bar(fb, x - 2, 4, text.width(names[p]) + 3)
                text.put(fb, names[p], x, 4, color=0 if p == self.tie else 1)
            text.put_centered(fb, "OK: this player", 7)
            return
        draw_title(fb, RACE_WORDS[0])
        text.put_centered(fb, RACE_WORDS[1], 2)
        text.put_centered(fb, RACE_WORDS[2], 3)
        for p in (0, 1):
            text.put_centered(fb, names[p], 5, x=p * _HALF, w=_HALF)
            text.put_centered(fb, READY.get(self.app.layout, READY["six"])[p], 6, x=p * _HALF,
                              w=_HALF)

    def _draw_table(self, fb):
        state = self.game.state
        over = self.over()
        turn = rules.turn(state)
        text.put_number(fb, rules.deck(state), text.put(fb, "Deck ", 0, 0), 0)
        right = text.put(fb, "Turn ", 128 - 6 * (5 + len("%d" % rules.turns(state))), 0)
        text.put_number(fb, rules.turns(state), right, 0)
        lit = rules.result(state) if over else (turn,)
        table.draw(fb, rules.names(state), rules.scores(state), lit, later=self.app.soon)
        frags = rules.fragments(state)
        c = self.clock
        now = self.app.now
        timed_out = over and rules.outcome(state) == "time"
        for p in (0, 1):
            x = p * _HALF
            if c is not None:
                t = clock.fmt(c.remaining(p, now), True)
                if timed_out and p not in lit:
                    t = "time is up"  # the loser's clock: why the game ended
                running = not over and p == turn and c.running
                if running:
                    text.bar(fb, x + 8, 5, _HALF - 16)
                text.put_centered(fb, t, 5, color=0 if running else 1, x=x, w=_HALF)
            text.put(fb, " face up", text.put_number(fb, frags[p], x + 5, 6), 6)
        if self.msg.text is None:
            if self.held:
                text.put_centered(fb, "Paused: any key", 7, color=1)
            elif not over:
                text.put(fb, "OK end turn", 0, 7)
                text.put_right(fb, text.ARROW_UP + text.ARROW_DOWN + " score", _W, 7)

    def _draw_score(self, fb):
        state = self.game.state
        draw_title(fb, rules.names(state)[rules.turn(state)] + " scores")
        rows = self.rows
        self.first = scroll(self.first, self.cur, 5)  # five rows on pages 2-6
        draw_rows(fb, self, len(rows), self.cur, self.first, 2, 5)
        fixed = rows[self.cur][2]
        text.put(fb, MEANS[self.pts[self.cur] if fixed is None else fixed], 0, 7)


SCREEN = PerfectMoment  # the mode's game screen (``flow.play.play``)
