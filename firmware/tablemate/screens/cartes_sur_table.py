"""Cartes sur Table: every vote entered, tallied and settled; a secret ballot passed round.

Views, chosen by the game:

VOTE (open ballot): the progress on the top line (round r of 4, Patient k of n), the Patient,
the player to vote on a lit bar, and the cards (1 to players - 1, three in the last round) in
the 14-px digits with how many voted for each so far. LEFT/RIGHT pick a card, OK votes; the
cursor starts on the most-voted card so far, as votes tend to agree; UP/DOWN jump half the
cards (``step``), so that any card is one press away with up to five cards.
PASS and SECRET (secret ballot): the device goes round the table. PASS shows only the name of
the player it is for ("Ann: OK to vote"); SECRET is that player's picker, without any count,
the cursor on a card drawn at random (so the presses a voter makes say nothing of the card);
OK casts the vote and the screen goes blank again for the next player. A vote is kept off the
display, the journal, the menus and the flash until every player has voted: the journal gets a
random token (``rules`` "seal"), the vote stays in RAM beside the game (``Game.secret``, by
token), and OK on "All votes in" reveals them all at once, into the journal. A seal and the
reveal are journaled before their frame: the next screen shows only once the flash holds them,
and the time of the write says nothing of the card lit. Until the reveal the game menu's
"Change a vote" lets a player vote again. A power cut loses the sealed votes of the ballot in
progress: the seals say who had voted, and those players vote again first (their screen says
so); docs/rules/cartes-sur-table.md has the threat this defends against.
TIE: the Patient picks one of the tied cards (the others cannot be picked).
RESULT: the card the Patient keeps, the votes as a bar per card, who scored; DOWN shows the
score table; OK goes on to the next Patient. FINAL: the ranking (a shared win lists all).

BACK opens the game menu: choose the next Patient (before any vote), change a secret vote,
scores, then the shared entries (undo takes back the last vote, a reveal, a settled Patient).
"""


from tablemate import random
from micropython import const

from tablemate import keys as K
from tablemate.rules import cartes_sur_table as rules
from tablemate.ui import Menu, draw_title, shorten, table, text
from tablemate.flow.play import FANFARE, GameScreen

VOTE = const(0)
PASS = const(1)
SECRET = const(2)
ALL_IN = const(3)
TIE = const(4)
RESULT = const(5)
SCORES = const(6)

_W = const(128)
VARIANT = ("Variant: each player keeps one card for themselves, then passes the rest to the "
           "right, until one is left. Scoring is the same.")
LOST = ("Power cut: 1 secret vote was lost. That player votes again first.",
        "Power cut: %d secret votes were lost. They vote again first.")  # 4 lines of a Notice


def suggest(state):
    """The card the open ballot's cursor starts on: the most voted so far (the lowest of equal
    counts), card 1 before any vote."""
    counts = rules.tally(state)
    best = 0
    for c in range(len(counts)):
        if counts[c] > counts[best]:
            best = c
    return best + 1


def step(card, key, m):
    """The card a key moves the cursor to among cards 1..m, round the ends: LEFT/RIGHT one
    card, UP/DOWN half of them (two of four), so that any card is at most one press away with
    up to five cards (two with six): five votes take at most ten presses."""
    jump = {K.LEFT: -1, K.RIGHT: 1, K.UP: -(m // 2), K.DOWN: m // 2}[key]
    return (card - 1 + jump) % m + 1


PATIENT = "Patient: "  # "Patient: Ann", over the cards
VOTES = " votes"  # "Bob votes", lit


def progress(rnd, done, n):
    """The title: "Round 1/4 Patient 2/5" (``done`` Patients of ``n`` this round)."""
    return "Round %d/4 Patient %d/%d" % (rnd, done + 1, n)


def first_words(opts):
    """The words of a new game's first frame with the options ``opts`` (open votes: the first
    Patient, the first seat to vote), rendered while the players read the setup
    (``lifecycle.warm``)."""
    names = opts["names"]
    return progress(1, 0, len(names)), PATIENT + names[opts.get("first", 0)], names[0] + VOTES


class CartesSurTable(GameScreen):
    """The running game: the ballots, a tie, the result, the scores."""

    labels = ("Round ", "Patient ", " votes", "OK to vote", "All votes in", "OK: reveal",
              "OK: next Patient", "OK to vote again")

    def opening(self):
        """How many secret votes a power cut took, when it did; else the Just met variant's
        dealing, when the game starts."""
        again = len(self.missing())
        if again:
            return LOST[0] if again == 1 else LOST[1] % again
        if self.game.count == 0 and rules.known(self.game.state):
            return VARIANT
        return None

    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        self.cur = 1
        self.ballot = game.secret  # token -> vote: the secret ballot in progress, RAM only
        self.voter = -1  # whose secret vote is being entered
        self.view = RESULT if self.over() else None
        self.sync()

    def missing(self):
        """The players whose sealed vote is not in RAM (the power went since): they vote
        again."""
        state = self.game.state
        sealed = rules.tokens(state)
        return [p for p in range(len(sealed)) if sealed[p] is not None
                and sealed[p] not in self.ballot]

    # -- which view ---------------------------------------------------------------------------
    def sync(self):
        """The view the state asks for (a result stays until OK)."""
        state = self.game.state
        if self.over():
            self.view = RESULT
            return
        if self.view in (RESULT, SCORES):
            return
        if rules.tie(state):
            self.view = TIE
            self.cur = rules.tie(state)[0]
        elif not rules.secret(state):
            self.view = VOTE
            self.cur = suggest(state)
        else:
            p = rules.turn(state)
            missing = self.missing()
            if missing:
                p = missing[0]
            if p < 0:
                self.view = ALL_IN
            else:
                self.view = PASS
                self.voter = p
        self.dirty = True

    def done(self):
        """After an action: the result once a Patient is settled, else the next vote."""
        if self.view in (VOTE, ALL_IN, TIE, SECRET) and self._settled():
            self.view = RESULT
            self.app.beep(FANFARE if self.over() else ((1319, 70), (1760, 110)))
            if self.over():
                self.announce("OK: standings")
            return
        self.view = None
        self.sync()

    def _settled(self):
        """True when the last action settled a Patient (the votes were cleared)."""
        state = self.game.state
        return all(v is None for v in rules.votes(state)) and not rules.tie(state) and (
            rules.last(state) is not None) and not any(rules.sealed(state))

    def undo(self):
        state = self.game.state
        shown = rules.votes(state)  # the votes made public, if the undo takes the reveal back
        if None in shown:
            shown = rules.last(state)["votes"] if rules.last(state) else None
        if not GameScreen.undo(self):
            return False
        state = self.game.state
        sealed = rules.tokens(state)
        if rules.secret(state) and shown and None not in sealed and rules.votes(state) == [
                None] * len(sealed):  # the reveal taken back: its votes are sealed again
            for p in range(len(sealed)):
                self.ballot[sealed[p]] = shown[p]
        elif not any(rules.sealed(state)):
            self.ballot.clear()
        self.view = None
        self.sync()
        self.msg.show("Undone", self.app.now)
        return True

    # -- keys --------------------------------------------------------------------------------
    def play_key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        view = self.view
        if view in (VOTE, SECRET, TIE) and key <= K.RIGHT:
            self._move(key)
            return
        if kind != K.PRESS:
            return
        if view == RESULT or view == SCORES:
            if key == K.OK:
                self.view = None
                self.sync()
            elif key == K.UP or key == K.DOWN:
                self._flip()
        elif key == K.OK:
            self._ok()

    def end_key(self, key, kind):
        """The last result and the final scores, UP/DOWN between them; OK: the standings."""
        if kind == K.PRESS and (key == K.UP or key == K.DOWN):
            self._flip()
        else:
            GameScreen.end_key(self, key, kind)

    def _flip(self):
        self.view = SCORES if self.view == RESULT else RESULT
        self.dirty = True

    def _move(self, key):
        state = self.game.state
        if self.view == TIE:
            tied = rules.tie(state)
            d = 1 if key == K.RIGHT or key == K.DOWN else -1
            self.cur = tied[(tied.index(self.cur) + d) % len(tied)]
        else:
            self.cur = step(self.cur, key, rules.cards(state))
        self.dirty = True

    def _ok(self):
        state = self.game.state
        view = self.view
        if view == VOTE:
            self.do(["vote", rules.turn(state), self.cur])
        elif view == TIE:
            self.do(["tiebreak", self.cur])
        elif view == PASS:
            self.view = SECRET
            self.cur = random.getrandbits(8) % rules.cards(state) + 1
            self.dirty = True
        elif view == SECRET:
            self.seal(self.voter, self.cur)
        elif view == ALL_IN:
            if self.do(["reveal", [self.ballot[t] for t in rules.tokens(state)]], first=True):
                self.ballot.clear()  # in the journal now: RAM keeps nothing of the ballot

    def seal(self, p, card):
        """Cast p's secret vote: a token in the journal, the vote in RAM under it (before the
        action, which looks for it: a refusal takes it out again)."""
        token = random.getrandbits(30)
        self.ballot[token] = card
        if not self.do(["seal", p, token], first=True):
            del self.ballot[token]

    def end(self):
        """"End game": the ballot in progress is abandoned, its sealed votes with it."""
        self.ballot.clear()

    def change_vote(self, p):
        """The menu's "Change a vote": p's picker again (their old vote is replaced)."""
        self.app.pop()
        self.app.pop()
        self.voter = p
        self.view = PASS
        self.dirty = True

    def menu_entries(self):
        if self.over():
            return ()
        state = self.game.state
        out = []
        if not rules.tie(state) and not any(v is not None for v in rules.votes(state)) and (
                not any(rules.sealed(state))):
            out.append(("Choose the Patient", self._choose_patient))
        if rules.secret(state) and any(rules.sealed(state)):
            out.append(("Change a vote", self._change))
        out.append(("Scores", self._scores))
        return out

    def _choose_patient(self):
        state = self.game.state
        done = rules.were_patient(state)
        seats = [p for p in range(len(rules.names(state))) if p not in done]
        items = [rules.names(state)[p] for p in seats]

        def pick(i):
            self.app.pop()
            self.app.pop()
            self.view = None  # not a settled Patient: ``done`` must not show the last result
            self.do(["patient", seats[i]])
        self.app.push(Menu(self.app, "Patient", items, pick))

    def _change(self):
        state = self.game.state
        seats = [p for p in range(len(rules.names(state))) if rules.sealed(state)[p]]
        self.app.push(Menu(self.app, "Whose vote?", [rules.names(state)[p] for p in seats],
                           lambda i: self.change_vote(seats[i])))

    def _scores(self):
        self.app.pop()
        self.view = SCORES
        self.dirty = True

    # -- frames ------------------------------------------------------------------------------
    def draw(self, fb):
        view = self.view
        if view == VOTE or view == SECRET or view == TIE:
            self._draw_picker(fb)
        elif view == PASS:
            self._draw_pass(fb)
        elif view == ALL_IN:
            draw_title(fb, self._progress())
            text.put_centered(fb, "All votes in", 3)
            text.put_centered(fb, "OK: reveal", 5)
        elif view == SCORES:
            self._draw_scores(fb)
        else:
            self._draw_result(fb)
        self.msg.draw(fb)

    def _progress(self):
        state = self.game.state
        return progress(rules.round_no(state), rules.patients_done(state),
                        len(rules.names(state)))

    def _draw_pass(self, fb):
        state = self.game.state
        name = rules.names(state)[self.voter]
        draw_title(fb, self._progress())
        text.put_centered(fb, "Pass the device to", 2)
        text.put_centered(fb, name, 4)
        text.put_centered(fb, "OK to vote again" if self.voter in self.missing() else
                          "OK to vote", 6)

    def _draw_picker(self, fb):
        state = self.game.state
        names = rules.names(state)
        view = self.view
        draw_title(fb, self._progress())
        patient = names[rules.patient(state)]
        if view == TIE:
            who = "Tie: %s picks" % patient
        else:
            text.put(fb, PATIENT + patient, 0, 2)
            who = names[self.voter if view == SECRET else rules.turn(state)] + VOTES
        text.bar(fb, 0, 3, text.width(who) + 3)
        text.put(fb, who, 2, 3, color=0)
        m = rules.cards(state)
        w = _W // m
        big = text.large()[1]
        counts = rules.tally(state) if view != SECRET else None
        tied = rules.tie(state)
        for c in range(1, m + 1):
            x = (c - 1) * w
            dx = x + (w - text.digits_width(c, big) + big.spacing) // 2
            lit = c == self.cur
            if lit:
                text.bar(fb, x + 1, 4, w - 2, 16)
            text.put_digits(fb, c, dx, 4, big, 0 if lit else 1)
            if counts is not None and counts[c - 1] and (not tied or c in tied):
                text.put_centered(fb, "%d" % counts[c - 1], 6, x=x, w=w)

    def _draw_result(self, fb):
        state = self.game.state
        last = rules.last(state)
        names = rules.names(state)
        if last is None:
            draw_title(fb, "No vote yet")
            return
        if last["round"] < rules.ROUNDS:
            draw_title(fb, "%s keeps card %d" % (names[last["patient"]], last["card"]))
        else:  # round 4: the answer scores, nothing is kept
            draw_title(fb, "Most voted: card %d" % last["card"])
        counts = [0] * last["cards"]
        for v in last["votes"]:
            counts[v - 1] += 1
        n = len(names)
        for c in range(len(counts)):  # a bar per card, a pixel row per vote, 5 px a vote
            y = 16 + c * 6 if len(counts) > 5 else 16 + c * 8
            text.draw(fb, "%d" % (c + 1), 0, y)
            fb.fill_rect(8, y + 1, counts[c] * (100 // n), 5, 1)
            if c + 1 == last["card"]:
                text.draw(fb, text.ARROW, 8 + counts[c] * (100 // n) + 2, y)
        scored = shorten.names("+%d " % last["worth"], [names[p] for p in last["scored"]], _W)
        # page 7 is the message line's, which says "OK: standings" once the game is over
        text.put(fb, scored, 0, 6 if self.over() else 7)

    def _draw_scores(self, fb):
        state = self.game.state
        text.put(fb, self._progress() if not self.over() else "Final scores", 0, 0)
        table.draw(fb, rules.names(state), rules.scores(state),
                   rules.result(state) if self.over() else (), later=self.app.soon)


SCREEN = CartesSurTable  # the mode's game screen (``flow.play.play``)
