"""The phones at the table: who holds which seat, what a phone may see, and what a phone asks for
as the very action the gadget's buttons make.

No network here, no clock (``now`` comes in) and no file (the caller keeps ``seats`` through
``store.phones``): the logic tests run it on both VMs. The server (``phones/server.py``) hands
every request to a ``Table``; the gadget's Phones page frees seats through it.

Seats. A phone takes a seat by its player's name and gets a token (64 random bits) that its
page keeps; every later request carries it. A seat is held by one phone: another phone asking
for it is told which kind of phone holds it, and only the gadget frees it (``free``). Seats are
kept by name, so the phones keep them through "New game" with the same players and find them
after a power cut; in a game where two players share a name that name cannot be held (the
gadget names the seats, not the phones). At most ``PHONES`` seats are held at once.

What a phone sees: ``public`` (the same for every phone: the scoreboard, whose turn, how many
voted or picked, never what) and ``mine`` (its own seat: its own vote or pick, its hand). A
mode with something to do on a phone has a module of the same name beside this one
(``cartes_sur_table``, ``contrast``): ``public(state)``, ``mine(table, game, seat)``,
``act(table, screen, seat, request)``, ``pending(state)`` (the seats the round still waits
for), ``round_key(state)`` (what changes when a round or a ballot is over) and
``covers(screen)`` (whether the gadget's count of the phones may cover the game screen now).

Held choices. Where a mode holds them (``hold``), a phone's pick is not played at once: shown on the
gadget's tally it would tell the players still choosing. It waits in ``held`` (RAM, like the
secret ballot's votes) until every seat of the round held by a phone that is still here has
chosen; then ``flush`` plays the held choices through the game screen in the rules' order, the
same actions (and journal lines) as the buttons', as far as the order allows: a seat without a
phone is then entered on the gadget, and the rest follow. A phone is "here" while its event
stream is open, and ``GRACE_MS`` after it closed (a page being reloaded): a phone that left
stops holding the round up by itself, and the gadget can free its seat at once.
"""

import sys

from micropython import const

from tablemate import RuleError, modes

PHONES = const(8)  # MicroPython's DHCP server leases 8 addresses: a ninth phone gets none
GRACE_MS = const(10000)  # a phone whose stream closed still counts this long (a reload)
_ADAPTERS = {}  # mode name -> its phones module, or None when the mode has none


class Refused(Exception):
    """A request the table turns down; ``str(err)`` is what the phone shows, ``status`` the
    HTTP status the server answers with."""

    def __init__(self, message, status=409):
        super().__init__(message)
        self.status = status


def adapter(name):
    """The phones module of mode ``name`` (``tablemate.phones.<name>``), or None."""
    if name not in _ADAPTERS:
        full = "tablemate.phones." + name
        try:
            __import__(full)
            _ADAPTERS[name] = sys.modules[full]
        except ImportError:
            _ADAPTERS[name] = None
    return _ADAPTERS[name]


def screen_of(app):
    """The screen on the gadget's stack that plays ``app.game`` (a menu or a dialog may be over
    it), or None when the game is not open there."""
    game = app.game
    if game is None:
        return None
    for s in app.stack:
        if getattr(s, "game", None) is game and hasattr(s, "do"):
            return s
    return None


def covered(app, table, now):
    """Put ``Progress`` over the game screen when a phone acted and the screen waits for a
    seat's choice (not over a result or a vote being cast on the gadget), unless sent away
    for this round. Here, not with ``Progress`` in ``screens/phones.py``: the table and the
    modes' phones modules it loads stand above the screens."""
    screen = screen_of(app)
    if screen is None or app.top() is not screen:
        return
    ad = adapter(app.game.name)
    wait = table.waiting(app.game, now)
    if wait is None or not wait[0] or not ad.covers(screen) or table.round == table.dismissed:
        return
    from tablemate.screens.phones import Progress  # .mpy: only with phones on
    app.push(Progress(app, table))


class Table:
    """Seats and tokens, the held choices, and who is still here."""

    def __init__(self, seats, token, gadget, grace=GRACE_MS):
        """``seats``: {name: [token, kind]} as ``store.phones`` read it; ``token()``: a new
        token (16 hex characters); ``gadget``: the gadget's name (its network's), which a page
        keeps its token under (the next table's gadget has the same address, not the same
        name); ``grace``: ``GRACE_MS`` (tests shorten it)."""
        self.gadget = gadget
        self.seats = seats
        self.token = token
        self.grace = grace
        self.streams = {}  # token -> how many event streams it has open
        self.left = {}  # token -> when its last stream closed
        self.held = {}  # seat -> the action held for it this round
        self.round = None  # the round the held actions belong to (the mode's ``round_key``)
        self.dismissed = None  # the round whose count the gadget sent away (``Progress``)
        self.dirty = False  # the seats changed since the caller last kept them

    # -- seats -----------------------------------------------------------------------------
    def name_of(self, token):
        """The name whose seat ``token`` holds, or None."""
        if token:
            for name in self.seats:
                if self.seats[name][0] == token:
                    return name
        return None

    def seat_of(self, game, token):
        """The seat index ``token`` holds in ``game``, or -1."""
        name = self.name_of(token)
        if name is None or game is None:
            return -1
        names = game.rules.names(game.state)
        return names.index(name) if names.count(name) == 1 else -1

    def holder(self, name):
        """What kind of phone holds ``name``'s seat ("iPhone", "Android"...), or None."""
        held = self.seats.get(name)
        return held[1] if held else None

    def claim(self, game, token, seat, kind):
        """Give seat ``seat`` of ``game`` to the phone with ``token`` (None: a new phone) and
        return its token. A phone that held another seat moves. Refused: no game, no such seat,
        a name two players share, a seat another phone holds, a ninth phone."""
        if game is None:
            raise Refused("No game on the gadget yet")
        names = game.rules.names(game.state)
        if type(seat) is not int or not 0 <= seat < len(names):
            raise Refused("No such seat", 400)
        name = names[seat]
        if names.count(name) > 1:
            raise Refused("Two players are called %s: rename one on the gadget" % name)
        held = self.seats.get(name)
        if held is not None:
            if held[0] == token:
                return token
            raise Refused("%s's seat is held by another phone (%s). The gadget can free it "
                          "(Phones page)." % (name, held[1]))
        mine = self.name_of(token)
        if mine is not None:
            del self.seats[mine]
        elif len(self.seats) >= PHONES:
            raise Refused("%d phones hold seats, the most the gadget's Wi-Fi serves" % PHONES,
                          503)
        else:
            token = self.token()  # a token this gadget never gave is not taken over
        self.seats[name] = [token, kind]
        self.dirty = True
        return token

    def free(self, name):
        """The gadget frees ``name``'s seat: its phone sees the seat list again."""
        held = self.seats.pop(name, None)
        if held is not None:
            self.dirty = True
            self.streams.pop(held[0], None)
            self.left.pop(held[0], None)

    def leave(self, token):
        """A phone gives its seat up itself."""
        name = self.name_of(token)
        if name is not None:
            self.free(name)

    # -- who is still here -----------------------------------------------------------------
    def opened(self, token):
        """An event stream of ``token``'s phone opened."""
        if self.name_of(token) is not None:
            self.streams[token] = self.streams.get(token, 0) + 1
            self.left.pop(token, None)

    def closed(self, token, now):
        """An event stream of ``token``'s phone closed at ``now``."""
        n = self.streams.get(token, 0) - 1
        if n > 0:
            self.streams[token] = n
        elif n == 0:
            del self.streams[token]
            self.left[token] = now

    def here(self, name, now):
        """True while the phone holding ``name``'s seat has a stream open, or closed its last
        one less than ``grace`` ago."""
        held = self.seats.get(name)
        if held is None:
            return False
        token = held[0]
        if self.streams.get(token):
            return True
        gone = self.left.get(token)
        return gone is not None and now - gone < self.grace

    def waiting(self, game, now):
        """``(phones, gadget)``: the seats the round still waits for, split into those held by a
        phone that is here and has not chosen, and the rest (entered on the gadget); None when
        the mode does nothing on phones or the game is over."""
        ad = adapter(game.name) if game is not None else None
        if ad is None or game.rules.result(game.state) is not None:
            return None
        names = game.rules.names(game.state)
        phones = []
        gadget = []
        for p in ad.pending(game.state):
            if p in self.held:
                continue
            if self.here(names[p], now) and names.count(names[p]) == 1:
                phones.append(p)
            else:
                gadget.append(p)
        return phones, gadget

    # -- held choices --------------------------------------------------------------------
    def hold(self, game, seat, action):
        """Keep ``action`` for ``seat`` until the round's phones are all in (``flush``)."""
        self.new_round(game)
        self.held[seat] = action

    def new_round(self, game):
        """Forget held choices of a round that is over (or of another game)."""
        key = (game.id, adapter(game.name).round_key(game.state))
        if key != self.round:
            self.round = key
            self.held = {}

    def flush(self, app, now):
        """Play the held choices once no phone that is here still has to choose: through the
        game screen, in the rules' order (``turn``), as far as a seat without a held choice
        lets. Returns how many were played."""
        game = app.game
        screen = screen_of(app)
        if screen is None or not self.held:
            return 0
        self.new_round(game)
        pending = adapter(game.name).pending(game.state)
        for p in list(self.held):
            if p not in pending:  # entered on the gadget meanwhile: the buttons come first
                del self.held[p]
        wait = self.waiting(game, now)
        if not self.held or wait is None or wait[0]:
            return 0
        rules = game.rules
        played = 0
        key = self.round
        while self.round == key:
            p = rules.turn(game.state)
            action = self.held.pop(p, None) if p >= 0 else None
            if action is None:
                break
            if not screen.do(action):
                break  # a refusal the gadget shows; the seat is entered there
            played += 1
            self.new_round(game)
        return played

    # -- what a phone sees -----------------------------------------------------------------
    def public(self, game):
        """What every phone may see: the scoreboard, whose turn, who holds a seat, how far the
        round is; never a vote or a pick before the rules have played it."""
        if game is None:
            return {"gadget": self.gadget, "game": None}
        rules = game.rules
        state = game.state
        names = rules.names(state)
        won = rules.result(state)
        out = {"gadget": self.gadget, "game": game.name, "label": modes.label(game.name),
               "n": game.count, "names": names, "scores": rules.scores(state),
               "turn": rules.turn(state), "over": won is not None, "winners": won or [],
               "held": [n in self.seats for n in names]}
        ad = adapter(game.name)
        if ad is not None:
            out.update(ad.public(state))
            if won is None:
                self.new_round(game)
                chose = list(self.held)
                out["chose"] = [p not in ad.pending(state) or p in chose
                                for p in range(len(names))]
        return out

    def mine(self, game, token):
        """What the phone with ``token`` may see of its own seat (its vote, its pick, its
        hand): {"seat": -1} when it holds none in this game."""
        seat = self.seat_of(game, token)
        out = {"seat": seat, "name": self.name_of(token)}
        if seat >= 0:
            ad = adapter(game.name)
            if ad is not None and game.rules.result(game.state) is None:
                self.new_round(game)
                out.update(ad.mine(self, game, seat))
        return out

    def act(self, app, token, request, now):
        """Do what the phone with ``token`` asks (a dict from its page) as the gadget's buttons
        would; Refused or RuleError (the reason, for the phone) when it cannot be done."""
        game = app.game
        seat = self.seat_of(game, token)
        if seat < 0:
            raise Refused("Pick your seat first", 403)
        ad = adapter(game.name)
        if ad is None:
            raise Refused("Nothing to do on a phone in this game")
        screen = screen_of(app)
        if screen is None:
            raise Refused("The game is not open on the gadget")
        if game.rules.result(game.state) is not None:
            raise RuleError("Game is over")
        self.new_round(game)
        ad.act(self, screen, seat, request)
        self.flush(app, now)
