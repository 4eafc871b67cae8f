"""Viewpoint's game-menu pages: looking at the table, and what the card flow cannot say.

Loaded when one of them is picked in the game menu, not with the game (a turn needs none of it,
and a Pico keeps the RAM; the game screen lets it go again). The Fields of View and the game
log are read-only pages; "Reveal a card" and "Cancel ..." exist when the catalog file brought
cards that do that; "Correction" moves any one card from any place to any other (a misplay, a
house rule), asking from where, to where and, when the device must know, which card.
"""

from tablemate import keys as K
from tablemate.rules import viewpoint as rules
from tablemate.ui import ROW_WIDTH, Menu, Screen, draw_title, shorten, text

_W = 128
_RIGHT = 121  # where a row's value ends, clear of the scroll arrows


def field_view(screen):
    screen.app.push(FieldView(screen.app, screen.game))  # over the game menu: BACK returns there


def game_log(screen):
    screen.app.push(Log(screen.app, screen.game))


def extra_entries(screen):
    """(label, callback) for the cards a catalog file brought: reveal, and cancel while the
    card whose actions are due can still be cancelled."""
    from tablemate.rules import viewpoint_extra as extra  # .mpy: 18.5 KB, only for the extra cards
    state = screen.game.state
    out = []
    if extra.cancellable(rules, state):
        card = rules.name(state, extra.due_card(state))
        out.append(("Cancel " + card, lambda: _ask_player(
            screen, "Who cancels?", lambda q: _ask_card(
                screen, "With which card?", extra.cancellers(rules, state),
                lambda c: _then(screen, ["cancel", q, c])))))
    if extra.revealers(rules, state):
        out.append(("Reveal a card", lambda: _ask_player(
            screen, "Who reveals?", lambda q: _ask_card(
                screen, "Which card?", extra.revealers(rules, state),
                lambda c: _then(screen, ["reveal", q, c])))))
    return out


def _back_to(screen):
    """Close the menus above the game screen."""
    app = screen.app
    while app.top() is not screen:
        app.pop()


def _then(screen, action):
    _back_to(screen)
    screen.do(action)


def _ask(screen, title, items, keys, then):
    """One question as a menu: OK answers with the row's key, BACK goes back a question."""
    screen.app.push(Menu(screen.app, title, items, lambda i: then(keys[i])))


def _ask_player(screen, title, then):
    names = rules.names(screen.game.state)
    screen.app.pop()  # the game menu
    _ask(screen, title, list(names), list(range(len(names))), then)


def _ask_card(screen, title, cards, then, extra=None):
    """Which card, from ``cards``; ``extra`` is (label, key) of a row before them. A single
    choice is taken without asking."""
    state = screen.game.state
    items = [rules.name(state, c) for c in cards]
    keys = list(cards)
    if extra:
        items.insert(0, extra[0])
        keys.insert(0, extra[1])
    if len(keys) == 1:
        then(keys[0])
        return
    _ask(screen, title, items, keys, then)


def places(state):
    """[(label, place)]: every view and hand, the draw pile, the discard pile."""
    out = []
    names = rules.names(state)
    for p in range(len(names)):
        out.append((names[p] + "'s view", "v%d" % p))
        out.append((names[p] + "'s hand", "h%d" % p))
    return out + [("Draw pile", "pile"), ("Discard pile", "discard")]


def correct(screen):
    """From where, to where, which card: one journaled ``move``."""
    state = screen.game.state
    screen.app.pop()  # the game menu
    every = places(state)
    _ask(screen, "Move a card from", [p[0] for p in every], [p[1] for p in every],
         lambda src: _correct_to(screen, src))


def _correct_to(screen, src):
    every = [p for p in places(screen.game.state) if p[1] != src]
    _ask(screen, "To", [p[0] for p in every], [p[1] for p in every],
         lambda dst: _correct_card(screen, src, dst))


def _correct_card(screen, src, dst):
    state = screen.game.state
    done = lambda c: _then(screen, ["move", src, dst, c])
    if src[0] == "v":
        mine = []
        for c in rules.view(state, int(src[1])):
            if c not in mine:
                mine.append(c)
        if not mine:
            _back_to(screen)
            screen.refuse("%s's view empty" % rules.names(state)[int(src[1])][:8])
            return
        _ask_card(screen, "Which card?", mine, done)
    elif src == "discard":
        seen, unseen = rules.discard(state)
        known = []
        for c in seen:
            if c not in known:
                known.append(c)
        if not known and not (unseen and dst[0] != "v"):
            _back_to(screen)  # an unseen card cannot go into a view: it must be named
            screen.refuse("Seen cards only" if unseen else "Discard pile empty")
            return
        _ask_card(screen, "Which card?", known, done,
                  ("An unseen card", -1) if unseen and dst[0] != "v" else None)
    elif dst[0] == "v" or dst == "discard":
        extra = ("A card not known", -1) if dst == "discard" else None
        _ask_card(screen, "Which card?", rules.held(state), done, extra)
    else:
        done(-1)


def describe(state, ev):
    """One line of the game log for event ``ev`` (``rules.log``), at most 21 characters."""
    nm = rules.names(state)
    k = ev[0]

    def card(c):
        return rules.name(state, c)
    if k == "play":
        s = "%s: %s" % (nm[ev[1]], card(ev[2]))
    elif k == "draw":
        s = "%s draws %d" % (nm[ev[1]], ev[2])
    elif k in ("discard", "steal"):
        s = ("%s discards %d" % (nm[ev[2]], ev[3]) if k == "discard"
             else "%s takes %d of %s" % (nm[ev[1]], ev[3], nm[ev[2]]))
    elif k == "drop":
        s = "%s discards %d" % (nm[ev[1]], ev[2])
    elif k == "give":
        s = "%s passes %d to %s" % (nm[ev[1]], ev[3], nm[ev[2]])
    elif k == "exchange":
        s = "%s<>%s hands" % (nm[ev[1]], nm[ev[2]])
    elif k == "miss":
        s = "%s will miss a turn" % nm[ev[2]]
    elif k in ("take", "destroy", "recall", "mirror"):
        s = {"take": "Took ", "destroy": "Destroyed ", "recall": "To hand: ",
             "mirror": "Mirrors "}[k] + card(ev[3])
    elif k == "itself":
        s = "Destroyed " + card(ev[2])
    elif k == "swap":
        s = "%s<>%s" % (card(ev[2]), card(ev[4]))
    elif k in ("none", "pass"):
        s = ("No card to " if k == "none" else "Left out: ") + ev[2]
    elif k == "cancel":
        s = "%s cancels %s" % (nm[ev[1]], card(ev[3]))
    elif k == "reveal":
        s = "%s reveals %s" % (nm[ev[1]], card(ev[2]))
    elif k == "missed":
        s = "%s misses the turn" % nm[ev[1]]
    elif k == "empty":
        s = "%s: no card to play" % nm[ev[1]]
    elif k == "move":
        s = "Fix: %s %s>%s" % ("a card" if ev[3] < 0 else card(ev[3]), ev[1], ev[2])
    else:  # won
        s = ("%s wins" % nm[ev[1]]) if ev[1] >= 0 else "Shared win"
    return s if len(s) <= 21 else s[:20] + "."


class _Page(Screen):
    """A read-only page of rows under a title: UP/DOWN scroll, OK or BACK go back one level, to
    the game menu it was opened from (page -> menu -> game, as in every mode)."""

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        self.top = 0

    def rows(self):
        return []

    def title(self):
        return ""

    def key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        if key == K.UP or key == K.DOWN:
            n = len(self.rows())
            self.top = max(0, min(self.top + (1 if key == K.DOWN else -1), n - 6))
            self.dirty = True
        elif key == K.OK or key == K.BACK:
            if kind == K.PRESS:
                self.app.pop()
        else:
            self.side(1 if key == K.RIGHT else -1)

    def side(self, d):
        """LEFT/RIGHT."""

    def draw(self, fb):
        draw_title(fb, shorten.abbreviate(self.title(), _W))
        rows = self.rows()
        page = 2
        for left, right in rows[self.top:self.top + 6]:  # the scroll arrows have column 123 on
            text.put(fb, shorten.abbreviate(left, _RIGHT - 32 if right else ROW_WIDTH), 0, page)
            if right:
                text.put_right(fb, right, _RIGHT, page)
            page += 1
        if self.top > 0:
            text.put(fb, text.ARROW_UP, 123, 2)
        if self.top + 6 < len(rows):
            text.put(fb, text.ARROW_DOWN, 123, 7)


class FieldView(_Page):
    """One player's Field of View, card by card (LEFT/RIGHT: the other players)."""

    def __init__(self, app, game):
        _Page.__init__(self, app, game)
        t = rules.turn(game.state)
        self.p = t if t >= 0 else 0

    def side(self, d):
        self.p = (self.p + d) % len(rules.names(self.game.state))
        self.top = 0
        self.dirty = True

    def title(self):
        state = self.game.state
        return "%s %d %s%d" % (rules.names(state)[self.p], rules.total(state, self.p),
                               text.CARD, rules.hands(state)[self.p])

    def rows(self):
        state = self.game.state
        cards = rules.view(state, self.p)
        if not cards:
            return [("(no cards)", "")]
        return [(rules.name(state, c), "%d" % rules.value(state, c)) for c in cards]


class Log(_Page):
    """The game log: the newest events at the bottom."""

    def __init__(self, app, game):
        _Page.__init__(self, app, game)
        self.top = max(0, len(rules.log(game.state)) - 6)

    def title(self):
        return "Game log, turn %d" % rules.turns(self.game.state)

    def rows(self):
        state = self.game.state
        return [(describe(state, ev), "") for ev in rules.log(state)]
