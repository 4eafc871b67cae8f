"""Viewpoint: the players play real cards and tell the device which; it keeps every view's total.

One screen, five views, chosen by what the rules wait for (``rules.prompt``):

TABLE (a card is due): every player's total in the score digits (15 px up to four players), the
active player's cell lit, each name bar with the cards in that hand (a crossed-out name misses
their next turn), "Needs 35" and the draw pile on the top line, and on the bottom line the card
the device thinks likeliest (the most copies not yet seen: ``rules.likeliest``). OK plays it; any
arrow opens the card list on it: the list opens where the table pointed, and only the next
arrow moves (an arrow that also moved left the cursor on a card the player never chose).
CARDS: the cards a player may still hold in the catalog's order (``rules.held``), value on the
right, the cursor on the likeliest. The order is the same every turn (a card leaves it only
once every copy is seen), so a player's hand learns where a card is; a list sorted by the odds
moved under the thumb each turn. UP/DOWN one card, LEFT/RIGHT six (a screenful), both round
the ends, so that every card is at most three presses from the cursor; OK plays, BACK goes
back to the table.
PICK (an action aims at another player): the table stays, the question on the top line, the
player it would aim at with their name bar lit and named on the bottom line; every arrow moves
it on to the next player the action can act on (``rules.choices``: clockwise from the one
acting, never them; for a discard or a steal only a hand with cards), OK answers. It starts on
the likeliest (the leader for a discard or a Blindsided, the fullest hand for a steal or an
exchange): the players see the totals they aim at, and a press sends a few spans, not a screen.
AIM (an action aims at a card): the cards it can aim at (``rules.choices``) as a list, the
cursor on the likeliest (the best card to take, the leader's best card to destroy, never your
own while another can go, your worst card to swap away). A swap asks for your card, then
theirs.
GO (only with cards that cancel in the game): the card's draw (or its first action of every
player, done by the device) waits for OK, so it can still be cancelled from the game menu.
An action of every player (a catalog card's "all recall 1") asks each player in turn, their
name on the title line.
The turn ends by itself when the card's actions are done, the next player draws by themselves,
and the message line says what happened that the players did not enter (a draw, a missed turn,
an action with nothing to act on, a Mirage that had only itself to destroy). A win lights the
winners' cells; OK shows the standings.

BACK opens the game menu: the Fields of View, the game log, leave out the asked action, reveal
or cancel (with a catalog file's cards), corrections (``screens/viewpoint_menu.py``, loaded
then), and the shared entries. Undo takes back what a player did: a card with its answers
(``rules.JOINS``), a card still asked about, a correction, and the draws that followed.

A catalog file (``/data/viewpoint.jsonl``, see ``viewpoint_extra.parse``) is read when a game
starts (``prepare``); its bad lines are listed on the screen and left out.

A frame copies bytes: the totals and the card order are worked out once per action (``sync``),
not per frame, and list rows are fitted once when the list opens.
"""

import sys

from micropython import const

from tablemate import json, unload
from tablemate import keys as K
from tablemate.rules import viewpoint as rules
from tablemate.store import files
from tablemate.ui import draw_rows, draw_title, scroll, shorten, table, text
from tablemate.flow.play import GameScreen

TABLE = const(0)
CARDS = const(1)
AIM = const(2)
GO = const(3)
PICK = const(4)

CATALOG = "viewpoint.jsonl"  # in /data
_W = const(128)
_MSG = const(126)  # the message line's room (``flow.play.MessageLine``)
_JUMP = const(6)  # LEFT/RIGHT in a list
_MENU = "tablemate.screens.viewpoint_menu"
BEEP_TURN = ((1568, 40),)

QUESTIONS = {"discard": "who discards %d?", "steal": "steal %d from?",
             "exchange": "swap hands with?", "miss": "skip whose turn?",
             "take": "take which card?", "destroy": "destroy which?", "recall": "which to hand?",
             "mirror": "mirror which?", "swap": "give which?", "draw": "draw %d",
             "drop": "discard %d", "passleft": "pass %d left", "passright": "pass %d right"}

_problems = []  # what ``prepare`` found wrong in the catalog file, for ``play`` to show
MARK = "%dc"  # a hand's size in its name bar: "5c", 5 cards (not "05")
# the table's words, and a new game's hand sizes (the first player's has drawn), rendered while
# the players read the setup or the resume question (``lifecycle.warm``)
WARM = ("Needs ", "Pile ", "OK ", MARK % rules.HAND, MARK % (rules.HAND + 1))


def _parse(f):
    from tablemate.rules import viewpoint_extra  # .mpy: 18.5 KB, only for the extra cards
    return viewpoint_extra.parse(rules, f, json.loads)


def prepare(app, opts):
    """The options of a new game with the catalog file's cards (lifecycle.start calls this
    before the game is set up, so its journal carries the cards it is played with)."""
    del _problems[:]
    if not files.exists(app.path(CATALOG)):  # mostly: no import in the press that starts it
        return opts  # no file: the printed cards
    from tablemate.store import textfiles  # .mpy: only for a file a player wrote
    try:
        found = textfiles.read_text(app.path(CATALOG), _parse)
    except OSError:
        found = None
    except UnicodeError:
        found = [], ["not text"]
    if found is None:
        return opts  # no file: the printed cards
    cards, problems = found
    _problems.extend(problems)
    if cards:
        opts = dict(opts)
        opts["cards"] = cards
    return opts


# -- what the device proposes (pure: tests call them) -------------------------------------------
def suggest(state, got=None, totals=None):
    """The index in ``got`` (``rules.choices``, for a swap the other players' cards: its first
    step starts on ``own_cards``' worst) of the likeliest answer to the prompt. ``totals``:
    ``rules.scores``, when the caller has them."""
    want = rules.prompt(state)[1]
    if got is None:
        got = rules.choices(state)
    if totals is None:
        totals = rules.scores(state)
    if rules.AIMS[want] == "target":
        hands = rules.hands(state)
        if want in ("steal", "exchange"):
            key = lambda t: (hands[t], totals[t])
        else:
            key = lambda t: (totals[t], hands[t])
        return _best(got, key)
    if want == "recall":  # your worst card goes back to your hand
        return _best(got, lambda tc: -rules.value(state, tc[1]))
    if want == "mirror":
        return 0
    if want == "destroy":  # the leader's best card; one's own (the worst) only when no other
        by = rules.prompt(state)[0]  # player's card can go
        return _best(got, lambda tc: (1, totals[tc[0]], rules.value(state, tc[1]))
                     if tc[0] != by else (0, -rules.value(state, tc[1])))
    # take, and a swap's second step: the best card, the leader's among equals
    return _best(got, lambda tc: (rules.value(state, tc[1]), totals[tc[0]]))


def own_cards(state, p):
    """A player's view with each card once, the worst first, equal values in the catalog's
    order: what a swap gives away. The card breaks the tie: MicroPython's ``list.sort`` is not
    stable, and both VMs must propose the same card."""
    out = []
    for c in rules.view(state, p):
        if c not in out:
            out.append(c)
    out.sort(key=lambda c: (rules.value(state, c), c))
    return out


def _best(items, key):
    """The index of the first item with the greatest key (0 for none)."""
    best = 0
    for i in range(1, len(items)):
        if key(items[i]) > key(items[best]):
            best = i
    return best


def say(state, ev):
    """The message line's words for event ``ev`` (``rules.log``) that the players did not enter
    themselves, or the event's kind (the game log, ``viewpoint_menu.describe``, says more)."""
    nm = rules.names(state)
    k = ev[0]
    if k == "play":
        return "%s: %s" % (nm[ev[1]], rules.name(state, ev[2]))
    if k == "draw":
        return "%s draws %d" % (nm[ev[1]], ev[2])
    if k == "drop":
        return "%s discards %d" % (nm[ev[1]], ev[2])
    if k == "give":
        return "%s passes %d to %s" % (nm[ev[1]], ev[3], nm[ev[2]])
    if k == "missed":
        return "%s misses the turn" % nm[ev[1]]
    if k == "empty":
        return "%s: no card to play" % nm[ev[1]]
    if k == "none":
        return "No card to " + ev[2]
    if k == "itself":
        return "%s: %s destroyed" % (nm[ev[1]], rules.name(state, ev[2]))
    return k


def tell(state, told):
    """The message line's words for the events an action brought about by itself (``told``,
    oldest first): the last one's, or for the last action every player (or every other) did by
    themselves, from a catalog card's "all draw 1": "Everyone draws 1", "All but Dee discard
    1", or "Drawn: Ann 1, Bob 1, Cy 0" when the pile or a hand ran short (on two lines if need
    be, by initials when even two are too few). The game log has every event."""
    ev = told[-1]
    i = len(told) - 1
    while i > 0 and told[i - 1][0] == ev[0]:
        i -= 1
    group = told[i:]  # the last run of one kind: one action of every player
    if len(group) < 2 or ev[0] not in _VERBS:
        return shorten.abbreviate(say(state, ev), _MSG)
    nm = rules.names(state)
    seats = [e[1] for e in group]
    counts = [e[-1] for e in group]
    one, many, past = _VERBS[ev[0]]
    if min(counts) == max(counts):
        out = [p for p in range(len(nm)) if p not in seats]
        if not out:
            return "Everyone %s %d" % (one, counts[0])
        if len(out) == 1:
            return shorten.abbreviate("All but %s %s %d" % (nm[out[0]], many, counts[0]), _MSG,
                                      name=False)
    from tablemate.ui.dialogs import wrap  # as the message line does for a long one
    for short in (False, True):
        s = past + ": " + ", ".join(["%s %d" % (nm[seats[k]][:1] if short else nm[seats[k]],
                                                counts[k]) for k in range(len(seats))])
        if len(wrap(s, _MSG, 3)) <= 2:
            break
    return s


def _unload_menu():
    unload((_MENU, "tablemate.lifecycle"))


# What the message line says after an action: the events the players did not enter themselves.
_TOLD = ("draw", "drop", "give", "missed", "empty", "none", "itself")
_VERBS = {"draw": ("draws", "draw", "Drawn"), "drop": ("discards", "discard", "Discarded"),
          "give": ("passes", "pass", "Passed")}  # what every player did by themselves (``tell``)


class Viewpoint(GameScreen):
    """The running game: the table, the card list, or an action's question."""

    labels = ("Needs ", "Pile ")  # the table's; the game menu's rows render when it opens


    def opening(self):
        """What a new game's catalog file had wrong (those lines are left out)."""
        if not _problems or self.game.count:
            return None
        more = len(_problems) - 3
        told = CATALOG + " " + ", ".join(_problems[:3]) + (
            " (+%d)" % more if more > 0 else "") + ": left out"
        del _problems[:]
        return told
    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        n = len(rules.names(game.state))
        cols, w, pages = table.layout(n)
        room = w - 3 - text.width(text.CARD + "99")
        self.short = [text.fit(s, room) for s in rules.names(game.state)]
        self.keys = []  # what each row of the open list (or each player to aim at) stands for
        self._make = None  # key -> (left, right): how a row reads
        self.items = {}  # the rows shown so far, as drawn (``row``)
        self.cur = 0
        self.first = 0
        self.mine = None  # a swap's own card, once picked
        self.head = ""  # the list's title: the question, or who plays
        self.view = TABLE
        self._events = rules.events(game.state)  # before the action being taken (``do``) ...
        self._turn = rules.turn(game.state)  # ... and whose turn it was
        self.sync()

    def on_open(self):
        """Back from the game menu's pages: their module goes (4-5 KB of a Pico's heap), in a
        quiet pass, not in the press that closed them."""
        GameScreen.on_open(self)
        if _MENU in sys.modules:
            self.app.soon(_unload_menu)

    def on_close(self):
        """Home from the game menu: its pages' module goes too."""
        if _MENU in sys.modules:
            self.app.soon(_unload_menu)

    # -- which view, and its rows ---------------------------------------------------------
    def sync(self):
        """The view the rules' state asks for, with its rows and the cursor on the suggestion;
        the totals and the card order, worked out once per action, not per frame."""
        state = self.game.state
        self.totals = rules.scores(state)
        got = None if self.over() else rules.prompt(state)
        self.mine = None
        self.order = ()
        best = None
        if got is None:  # a card is due
            left = rules.unseen(state)
            self.order = rules.held(state, left)
            best = rules.likeliest(state, left)
        self.best = self.order.index(best) if best is not None else 0  # its row
        if got is None:
            self.view = TABLE
            self.first = 0
            self.keys = ()  # the answered question's rows go (a 6-player list: 1-2 KB of heap)
            self.items = {}
            return
        by, want, n = got[0], got[1], got[2]
        aim = rules.AIMS[want]
        q = QUESTIONS[want]
        self.head = rules.names(state)[by] + ": " + (q % n if "%" in q else q)
        if aim == "go":
            self.view = GO
            return
        keys = rules.choices(state)
        if aim == "target":
            self.view = PICK
            self.keys = keys
            self.cur = suggest(state, keys, self.totals)
            return
        self.view = AIM
        if aim == "swap":
            self._list(own_cards(state, by), self._card_row, 0)
        else:
            self._list(keys, self._pair_row, suggest(state, keys, self.totals))

    def _list(self, keys, row, cur):
        """Open a list of ``keys``, each row made by ``row`` the first time it is shown."""
        self.keys = keys
        self._make = row
        self.items = {}
        self.first = 0
        self._select(cur)

    def row(self, i, lit):
        """Row ``i`` for ``draw_rows``: (label fitted, value, the value's x), made once."""
        got = self.items.get(i)
        if got is None:
            left, right = self._make(self.keys[i])
            x = _W - 7 - text.width(right)
            got = self.items[i] = (shorten.abbreviate(left, x - 5), right, x)
        return got

    def _card_row(self, c):
        return (rules.name(self.game.state, c), "%d" % rules.value(self.game.state, c))

    def _pair_row(self, tc):
        state = self.game.state
        t, c = tc
        left = rules.name(state, c)
        if t != rules.prompt(state)[0]:  # another player's card: whose it is first
            left = rules.names(state)[t] + " " + left
        return (left, "%d" % rules.value(state, c))

    def open_cards(self):
        """The card list, the cursor on the likeliest card's row."""
        state = self.game.state
        self.msg.clear()
        self.view = CARDS
        self.head = rules.names(state)[rules.turn(state)] + " plays"
        self._list(self.order, self._card_row, self.best)

    def _select(self, i):
        n = len(self.keys)
        self.cur = i % n if n else 0
        self.first = scroll(self.first, self.cur)
        self.dirty = True

    # -- actions --------------------------------------------------------------------------
    def done(self):
        """After an action: the view it calls for, what happened by itself, a win's fanfare."""
        before = self.view
        turn_before = self._turn
        self.sync()
        state = self.game.state
        if self.over():
            self.announce("OK: standings")
            return
        log = rules.log(state)
        told = [ev for ev in log[max(0, len(log) - (rules.events(state) - self._events)):]
                if ev[0] in _TOLD]
        self._events = rules.events(state)
        if told:
            self.msg.show(tell(state, told), self.app.now)
        if rules.turn(state) != turn_before and before != GO:
            self.app.beep(BEEP_TURN)

    def do(self, action):
        state = self.game.state
        self._events = rules.events(state)
        self._turn = rules.turn(state)
        return GameScreen.do(self, action)

    def undo(self):
        """Take back the last thing done (a card with its answers) and say what it was."""
        state = self.game.state
        had = rules.events(state)
        log = list(rules.log(state))
        if not GameScreen.undo(self):
            return False
        state = self.game.state
        gone = had - rules.events(state)
        self.sync()
        if 0 < gone <= len(log):
            ev = log[-gone]  # a card played is named alone: the table shows whose turn it is
            told = rules.name(state, ev[2]) if ev[0] == "play" else say(state, ev)
            self.msg.show(shorten.abbreviate("Undone: " + told, _MSG, name=False), self.app.now)
        return True

    def _ok(self):
        state = self.game.state
        if self.view == TABLE:
            order = self.order
            if order:
                self.do(["play", rules.turn(state), order[self.best]])
            else:
                self.refuse("No card left to play")
        elif self.view == CARDS:
            self.do(["play", rules.turn(state), self.keys[self.cur]])
        elif self.view == GO:
            self.do(["go", rules.prompt(state)[0]])
        else:
            self._answer()

    def _answer(self):
        state = self.game.state
        by, want = rules.prompt(state)[:2]
        aim = rules.AIMS[want]
        k = self.keys[self.cur]
        if aim == "target":  # PICK
            self.do(["target", by, k])
        elif aim == "card":
            self.do(["card", by, k[0], k[1]])
        elif self.mine is None:  # a swap: your card, then theirs
            self.mine = k
            self.head = rules.names(state)[by] + ": for which?"
            got = rules.choices(state)
            self._list(got, self._pair_row, suggest(state, got, self.totals))
        else:
            self.do(["swap", by, self.mine, k[0], k[1]])

    def page_back(self):
        """BACK on the card list goes back to the table; on a swap's second question, to its
        first; else the game menu opens."""
        if self.view == CARDS:
            self.view = TABLE
        elif self.mine is not None:
            self.sync()
        else:
            return False
        self.dirty = True
        return True

    # -- screen ---------------------------------------------------------------------------
    def play_key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        view = self.view
        if key <= K.RIGHT:
            move = (-1, 1, -_JUMP, _JUMP)[key - K.UP]
            if view == TABLE:
                if kind == K.PRESS:
                    self.open_cards()
            elif view == PICK:  # the next or the previous player
                self.cur = (self.cur + (1 if key == K.DOWN or key == K.RIGHT else -1)) % len(
                    self.keys)
                self.dirty = True
            elif view != GO:
                self.msg.clear()  # the player moved on: the list's last row shows again
                self._select(self.cur + move)
            return
        if kind == K.PRESS and key == K.OK:
            self._ok()

    def draw(self, fb):
        if self.view == TABLE or self.view == PICK:
            self._draw_table(fb)
        elif self.view == GO:
            draw_title(fb, shorten.abbreviate(self.head, _W))
            text.put_centered(fb, "OK: go on", 4)
        else:
            self._draw_list(fb)
        self.msg.draw(fb)

    def _draw_table(self, fb):
        state = self.game.state
        over = self.over()
        turn = rules.turn(state)
        totals = self.totals
        pick = self.view == PICK
        aimed = self.keys[self.cur] if pick else -1
        if pick:
            text.put(fb, shorten.abbreviate(self.head, _W), 0, 0)
        else:
            if not over:
                needs = rules.TARGET - totals[turn]
                text.put_number(fb, needs if needs > 0 else 0, text.put(fb, "Needs ", 0, 0), 0)
            pile = rules.pile(state)
            x = _W - len("%d" % pile) * text.SMALL.advance
            text.put(fb, "Pile ", x - text.width("Pile "), 0)
            text.put_number(fb, pile, x, 0)
        lit = rules.result(state) if over else (turn,)
        # struck through: misses the next turn
        table.draw(fb, self.short, totals, lit, aimed, rules.hands(state), rules.missing(state),
                   MARK, self.app.soon)
        if over or self.msg.text is not None:
            return
        if pick:  # who OK aims at
            text.put(fb, rules.names(state)[aimed], text.put(fb, "OK: ", 0, 7), 7)
        elif self.order:  # what OK plays
            card = self.order[self.best]
            pen = text.put(fb, rules.name(state, card), text.put(fb, "OK ", 0, 7), 7)
            v = "%d" % rules.value(state, card)
            if pen + 6 + text.width(v) <= _W:
                text.put_right(fb, v, _W, 7)

    def _draw_list(self, fb):
        draw_title(fb, shorten.abbreviate(self.head, _W))
        draw_rows(fb, self, len(self.keys), self.cur, self.first)

    def menu_entries(self):
        """The game menu's own rows; their pages (``viewpoint_menu``) load in a quiet pass while
        the player reads the menu, not in the press that opens it."""
        self.app.soon(self._menu)
        out = [("Fields of View", lambda: self._page("field_view")),
               ("Game log", lambda: self._page("game_log"))]
        if self.over():
            return out
        got = rules.prompt(self.game.state)
        if got is not None:
            out.append(("Skip this action", lambda: self._skip(got[0])))
        if rules.extended(self.game.state):
            out += self._menu().extra_entries(self)
        out.append(("Correction", lambda: self._page("correct")))
        return out

    def _menu(self):
        from tablemate.screens import viewpoint_menu  # .mpy: 7.9 KB, let go after the menu
        return viewpoint_menu

    def _page(self, name):
        getattr(self._menu(), name)(self)

    def _skip(self, by):
        """Leave the asked action out (a correction: the rulebook would have it performed)."""
        self.app.pop()
        self.do(["pass", by])


SCREEN = Viewpoint  # the mode's game screen (``flow.play.play``)
