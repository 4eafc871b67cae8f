"""Viewpoint: every card in every Field of View, so totals, swaps and the end follow by themselves.

The players play real cards; the device is told which card was played and the answers to its
actions (a target, a card), and keeps every Field of View card by card, each hand's size, the
draw pile, the discard pile, whose turn it is and who misses a turn. The published
Viewpoint Rulebook is the spec; docs/rules/viewpoint.md has the readings of its gaps.

Cards are the catalog's indices. The catalog is ``CARDS`` (the printed list, 42 cards), plus the
entries of an optional catalog file (``parse``), carried in the options so that a journal always
replays with the cards it was played with. An entry is [name, value, copies, actions, flags,
reveal actions, where a revealed card goes]; an action is [kind, n].

State (plain JSON data):
  names, first, extra   from the options (extra: the catalog file's entries, often [])
  view                  per player, the cards in their Field of View, in the order laid out
  hand                  per player, how many cards they hold (the device never sees which)
  pile                  cards in the draw pile
  discard, gone         the cards on the discard pile the device saw go there, and how many
                        others (discarded from hands, unseen) lie there too
  turn, turns           the active seat, and the turns begun so far
  phase                 "play" (the active player's card is due) or "act" (its actions are)
  stack                 the cards whose actions are being performed, the last on top:
                        {"by", "card", "self", "how" ("play", "reveal", "mirror"), "fx",
                        "then", "began"}; the top's first action is the one prompted. fx:
                        the actions left, each [kind, n] (performed by "by"), [kind, n,
                        "all"|"others"] (by every player, or every other, not yet one per
                        player: ``viewpoint_extra.each``) or [kind, n, seat] (by that seat)
  miss                  per player, True when they miss their next turn
  log, events           the newest events, at most LOG_SIZE (see ``log``), and how many
                        there have been (what an action added is the log's last events)
  over, winners, outcome ("100", "most", or None while running or when the game was ended)
Actions, each naming the player who acts (a refusal names who is due):
  ["play", p, card]            the active player lays a card from their hand in their view
  ["target", p, t]             the player the prompted action aims at (discard, steal,
                               exchange, miss): one it can act on (``choices``)
  ["card", p, owner, card]     the Field of View card it aims at (take, destroy, recall,
                               mirror)
  ["swap", p, mine, owner, theirs]
  ["go", p]                    perform the prompted automatic action (draw): asked only when
                               cards that cancel are in the game, so that a card can be
                               cancelled before any of its actions is performed
  ["pass", p]                  leave the prompted action out (a correction)
  ["cancel", q, card]          q cancels the card whose actions are due, with a card from hand
  ["reveal", q, card]          q reveals a card from hand: not a card play
  ["move", src, dst, card]     a correction: one card from anywhere to anywhere; a place is
                               "v<seat>" (view), "h<seat>" (hand), "pile" or "discard"; card
                               -1 is one the device does not know (from a hand, the pile, or
                               the unseen discards), which cannot go into a view
The turn ends by itself once the card's actions are done; the next player draws at once. After
every action, whatever its kind, a turn whose card is due from an empty hand ends there, with
its end-of-turn check (``_run``).
"""

import sys

from micropython import const

from tablemate import RuleError, action_kind

JOINS = ("target", "card", "swap", "go")  # an answer continues the card (or reveal, or
# cancel) it answers: one undo takes them back together (``store/game.py``), as one thing done
CHECKPOINT = 16  # the journal's checkpoints (store/game.py): an action here costs 1.7 ms to
# replay on a Pico, so a resume replays at most 15 of them
TARGET = const(100)  # Viewpoints that win at the end of one's own turn
HAND = const(5)  # cards dealt to each player
LOG_SIZE = const(16)
PLAYERS = (2, 6, 4)
OPTIONS = ()  # the catalog file's cards come from the flash (``screens.viewpoint.prepare``)
NODESTROY = const(1)  # entry flags
CANCEL = const(2)
REVEAL = const(4)

# The printed card list: name, Viewpoints, copies, actions, flags (reveal actions and where a
# revealed card goes are for cards from other sets: see ``parse``).
CARDS = (
    ("All-Seeing Eye", 10, 2, (("take", 1),), 0, (), "discard"),
    ("Blackout", 0, 1, (("discard", 3),), 0, (), "discard"),
    ("Blindspot", 20, 6, (("discard", 1),), 0, (), "discard"),
    ("Blindsided", 10, 4, (("miss", 1),), 0, (), "discard"),
    ("Blink", 10, 3, (("draw", 2),), 0, (), "discard"),
    ("Blurred Vision", 10, 3, (("discard", 2),), 0, (), "discard"),
    ("Cross-eyed", -5, 2, (("exchange", 1),), 0, (), "discard"),
    ("Eye Spy", 0, 3, (("steal", 2),), 0, (), "discard"),
    ("Hindsight", 20, 4, (("recall", 1),), NODESTROY, (), "discard"),
    ("Insight", 10, 4, (("steal", 1),), 0, (), "discard"),
    ("Mirage", 10, 4, (("destroy", 1),), 0, (), "discard"),
    ("Mirror Image", 0, 2, (("mirror", 1),), 0, (), "discard"),
    ("Peripheral Vision", 10, 4, (("swap", 1),), 0, (), "discard"),
)
# What each action kind is answered with. "draw" needs no answer.
AIMS = {"discard": "target", "steal": "target", "exchange": "target", "miss": "target",
        "take": "card", "destroy": "card", "recall": "card", "mirror": "card",
        "swap": "swap", "draw": "go", "drop": "go", "passleft": "go", "passright": "go"}
# "drop": one discards from one's own hand (a catalog card's "all discard"/"others discard");
# "passleft"/"passright": one passes cards to the next player clockwise / the one before.
_ARITY = {"play": 3, "target": 3, "card": 4, "swap": 5, "go": 2, "pass": 2, "cancel": 3,
          "reveal": 3, "move": 4}


# -- the catalog --------------------------------------------------------------------------------
_merged = [None, None]  # (extra, catalog) of the last call: a game asks for the same catalog


def catalog(state_or_extra):
    """The cards of a game (its state, or the catalog file's entries): the printed list with
    the file's entries replacing those of the same name and the others after them."""
    extra = state_or_extra
    if isinstance(extra, dict):
        extra = extra["extra"]
    if not extra:
        return CARDS
    if _merged[0] is extra:
        return _merged[1]
    cat = list(CARDS)
    names = [c[0] for c in cat]
    for e in extra:
        if e[0] in names:
            cat[names.index(e[0])] = e
        else:
            cat.append(e)
    _merged[0] = extra
    _merged[1] = cat
    return cat


def name(state, card):
    return catalog(state)[card][0]


def value(state, card):
    return catalog(state)[card][1]


def _extra():
    """The catalog file's part of the rules and the corrections (``viewpoint_extra``), loaded
    when a game needs them. It imports nothing of this module: its functions get it as ``v``
    (``_v``) for the card helpers both parts use."""
    from tablemate.rules import viewpoint_extra
    return viewpoint_extra


def _v():
    """This module, as ``viewpoint_extra``'s functions take it."""
    return sys.modules[__name__]


# -- setup ----------------------------------------------------------------------------------------
def setup(opts):
    """Opening state for {"names": [2..6 str], "first": seat, "cards": catalog file entries}.

    Five cards are dealt to each player; the first player has drawn their card."""
    from tablemate.options import check  # at setup only: a game lets the module go
    o = check(opts, PLAYERS, OPTIONS)
    names, first = o["names"], o["first"]
    extra = opts.get("cards", [])
    if extra != []:
        _extra().check(_v(), extra)
    total = sum(c[2] for c in catalog(extra))
    n = len(names)
    if total < HAND * n:
        raise RuleError("Too few cards")
    state = {"names": list(names), "first": first, "extra": list(extra),
             "view": [[] for _ in names], "hand": [HAND] * n, "pile": total - HAND * n,
             "discard": [], "gone": 0, "turn": first, "turns": 0, "phase": "play",
             "stack": [], "miss": [False] * n, "log": [], "events": 0,
             "over": False, "winners": [], "outcome": None}
    _begin(state, first)
    return state


# -- actions --------------------------------------------------------------------------------------
def apply(state, action):
    """Apply action to state in place, or raise RuleError and leave state untouched."""
    kind = action_kind(state, action, _ARITY)
    if kind == "move":
        _extra().move(_v(), state, action[1], action[2], action[3])
    else:
        p = _seat(state, action[1])
        if kind == "reveal":
            _extra().reveal(_v(), state, p, _card(state, action[2]))
        elif kind == "cancel":
            _extra().cancel(_v(), state, p, _card(state, action[2]))
        elif kind == "play":
            _play(state, p, _card(state, action[2]))
        else:
            _answer(state, p, kind, action)
    _run(state)  # the one check after every action, whatever its kind


def _seat(state, p):
    if type(p) is not int or not 0 <= p < len(state["names"]):
        raise RuleError("No such player")
    return p


def _card(state, c):
    if type(c) is not int or not 0 <= c < len(catalog(state)):
        raise RuleError("No such card")
    return c


def _due(state, p):
    """Refuse p unless p is the player to answer the prompt (or to play)."""
    stack = state["stack"]
    due = _actor(stack[-1]) if stack else state["turn"]
    if p != due:
        raise RuleError("It is %s's turn" % state["names"][due][:8])


def _from_hand(state, p, c):
    if not state["hand"][p]:
        raise RuleError(state["names"][p][:8] + ": no cards")
    seen = state["discard"].count(c)
    for cards in state["view"]:
        seen += cards.count(c)
    if seen >= catalog(state)[c][2]:
        raise RuleError("No %s left" % name(state, c)[:12])


def _play(state, p, c):
    _due(state, p)
    if state["phase"] != "play" or state["stack"]:
        raise RuleError("Actions pending")
    _from_hand(state, p, c)
    state["hand"][p] -= 1
    state["view"][p].append(c)
    state["phase"] = "act"
    e = catalog(state)[c]
    _log(state, ["play", p, c])
    state["stack"].append({"by": p, "card": c, "self": c, "how": "play",
                           "fx": [list(a) for a in e[3]], "then": None, "began": False})


def prompt(state):
    """The action waiting for an answer: [player, kind, n, card] (card: the one whose action it
    is), or None when the active player's card is due (or the game is over)."""
    stack = state["stack"]
    if not stack or state["over"]:
        return None
    top = stack[-1]
    a = top["fx"][0]
    return [_actor(top), a[0], a[1], top["card"]]


def _actor(top):
    """Who performs the first of ``top``'s actions: its player, or the seat an action of every
    player has come to (``viewpoint_extra.each``)."""
    a = top["fx"][0]
    return a[2] if len(a) > 2 else top["by"]


def _answer(state, p, kind, action):
    got = prompt(state)
    if got is None:
        raise RuleError("Nothing to answer")
    _due(state, p)
    top = state["stack"][-1]
    want = got[1]
    if kind == "pass":
        top["fx"].pop(0)
        _log(state, ["pass", p, want])
        return
    if AIMS[want] != kind:
        raise RuleError("Expected: " + AIMS[want])
    hand = state["hand"]
    view = state["view"]
    n = got[2]
    if kind == "go":
        _auto(state, top)
        return
    if kind == "target":
        t = _other(state, p, action[2])
        if t not in _targets(state, p, want):
            raise RuleError(state["names"][t][:8] + " has no cards")
        if want == "miss":
            state["miss"][t] = True
            _log(state, ["miss", p, t])
        elif want == "exchange":
            hand[p], hand[t] = hand[t], hand[p]
            _log(state, ["exchange", p, t])
        else:
            k = min(n, hand[t])
            hand[t] -= k
            if want == "steal":
                hand[p] += k
            else:
                state["gone"] += k
            _log(state, [want, p, t, k])
    elif kind == "card":
        owner = _seat(state, action[2])
        c = _card(state, action[3])
        if c not in view[owner]:
            raise RuleError("No %s there" % name(state, c)[:12])
        if want == "take" and owner == p:
            raise RuleError("Already yours")
        if want == "recall" and owner != p:
            raise RuleError("Pick one of yours")
        if want in ("recall", "mirror") and _itself(state, top, owner, c):
            raise RuleError("Pick another card")
        e = catalog(state)[c]
        if want == "destroy" and e[4] & NODESTROY:
            raise RuleError("Cannot be destroyed")
        if want == "mirror" and _mirrors(e):
            raise RuleError("Can't mirror a mirror")
        if want != "mirror":
            _take_out(view[owner], c)
        if want == "take":
            view[p].append(c)
        elif want == "destroy":
            state["discard"].append(c)
        elif want == "recall":
            hand[p] += 1
        _log(state, [want, p, owner, c])
    else:  # swap
        mine = _card(state, action[2])
        owner = _other(state, p, action[3])
        theirs = _card(state, action[4])
        if mine not in view[p]:
            raise RuleError("No %s there" % name(state, mine)[:12])
        if theirs not in view[owner]:
            raise RuleError("No %s there" % name(state, theirs)[:12])
        _take_out(view[p], mine)
        _take_out(view[owner], theirs)
        view[p].append(theirs)
        view[owner].append(mine)
        _log(state, ["swap", p, mine, owner, theirs])
    if kind == "card":
        _did_one(top)
    else:  # a hand action is done in one answer, partly if the hand is short; a swap is one
        top["began"] = True
        top["fx"].pop(0)
    if want == "mirror":  # the mirrored card's actions, performed by the same player
        e = catalog(state)[action[3]]
        state["stack"].append({"by": p, "card": action[3], "self": top["self"], "how": "mirror",
                               "fx": [list(a) for a in e[3]], "then": None, "began": True})


def _other(state, p, t):
    t = _seat(state, t)
    if t == p:
        raise RuleError("Another player")
    return t


def _itself(state, top, owner, c):
    """True when ``c`` in ``owner``'s view is the card whose action ``top`` is (not another copy
    of it): what "another card" leaves out."""
    return c == top["self"] and owner == top["by"] and state["view"][owner].count(c) < 2


def _mirrors(e):
    for a in e[3]:
        if a[0] == "mirror":
            return True
    return False


def _take_out(cards, c):
    """Remove the last ``c`` (the newest laid out) from a list of cards."""
    for i in range(len(cards) - 1, -1, -1):
        if cards[i] == c:
            cards.pop(i)
            return


def _possible(state, by, want, top):
    """False when the prompted action has nothing to act on: it is then left out, as the
    rulebook's "all possible actions" asks (a discard from a short hand is partly done)."""
    if AIMS[want] == "target":
        return bool(_targets(state, by, want))
    if want == "swap" and not state["view"][by]:
        return False  # a revealed card's swap, with no card of one's own to give
    return bool(_aims(state, by, want, top, True))  # a card to aim at


def _targets(state, by, want):
    """The seats a target action of ``by`` can act on, clockwise from ``by`` (never ``by``):
    any other player for a miss; one holding a card for a discard or a steal; for an exchange,
    any other player while ``by`` holds a card, else one holding a card (two empty hands
    exchange nothing)."""
    hand = state["hand"]
    n = len(hand)
    out = []
    for k in range(1, n):
        t = (by + k) % n
        if want == "miss" or hand[t] or (want == "exchange" and hand[by]):
            out.append(t)
    return out


def _run(state):
    """Perform what needs no answer (draws, actions with nothing to act on, a finished card),
    end the turn once the played card's actions are done, then the check that follows every
    action: a turn whose card is due from an empty hand ends ("skip to step 4"), however the
    hand emptied (a reveal, a cancel, a correction, ...), and the next such one too."""
    stack = state["stack"]
    wait = _cancels(state)
    while stack:
        top = stack[-1]
        fx = top["fx"]
        if not fx:
            stack.pop()
            if top["how"] == "reveal":
                q = top["by"]
                where = top["then"]
                if where == "hand":
                    state["hand"][q] += 1
                elif where == "view":
                    state["view"][q].append(top["card"])
                else:
                    state["discard"].append(top["card"])
            continue
        if len(fx[0]) > 2 and type(fx[0][2]) is str:  # "all"/"others": one action per player
            _extra().each(state, top)
            continue
        want = fx[0][0]
        by = _actor(top)
        if AIMS[want] == "go":
            if wait and not top["began"]:
                return  # a card that cancels may still be played against it
            _auto(state, top)
        elif not _possible(state, by, want, top):
            _log(state, ["none", by, want])
            fx.pop(0)
        elif want == "destroy" and _aims(state, by, want, top) == [[top["by"], top["self"]]]:
            # The only card it can destroy is itself: "all possible actions must be performed".
            if wait and not top["began"]:
                return  # asked, so that a card that cancels may come first
            _take_out(state["view"][top["by"]], top["self"])
            state["discard"].append(top["self"])
            _log(state, ["itself", top["by"], top["self"]])
            _did_one(top)
        else:
            return
    if state["phase"] == "act":
        _end_turn(state)
    while not state["over"] and not state["hand"][state["turn"]]:
        _log(state, ["empty", state["turn"]])
        _end_turn(state)  # it stops: a hand or the pile holds a card, or the game ends by the
        # most, or by 100 at the end of that player's turn, at most two rounds on (a missed
        # turn is passed once)


def _auto(state, top):
    """Perform the first of ``top``'s actions that needs no answer (a draw; a catalog card's
    discard from one's own hand or pass), partly if the pile or the hand is short."""
    kind, n = top["fx"][0][:2]
    q = _actor(top)
    if kind == "draw":
        k = min(n, state["pile"])
        state["pile"] -= k
        state["hand"][q] += k
        _log(state, ["draw", q, k])
    else:
        _extra().hand_out(_v(), state, kind, n, q)
    top["began"] = True
    top["fx"].pop(0)


def _did_one(top):
    """One of the first action's n is done: the next one of them is prompted, or the action
    after it."""
    top["began"] = True
    a = top["fx"][0]
    if a[1] > 1:
        a[1] -= 1
    else:
        top["fx"].pop(0)


def _cancels(state):
    """True when cards that cancel are in the game (only a catalog file brings them)."""
    if not state["extra"]:
        return False
    for e in catalog(state):
        if e[4] & CANCEL and e[2]:
            return True
    return False


def _end_turn(state):
    """The rulebook's fourth step for the active player, then the next turn begins."""
    p = state["turn"]
    if total(state, p) >= TARGET:
        _finish(state, [p], "100")
        return
    if _exhausted(state):
        return
    n = len(state["names"])
    _begin(state, (p + 1) % n)


def _begin(state, p):
    """The turn of seat p, or of the next player who does not miss it (one who does is passed,
    once), with its draw while the pile has cards; an empty hand is ``_run``'s check."""
    n = len(state["names"])
    while True:
        state["turn"] = p
        state["turns"] += 1
        state["phase"] = "play"
        if not state["miss"][p]:
            break
        state["miss"][p] = False
        _log(state, ["missed", p])
        p = (p + 1) % n
    if state["pile"]:
        state["pile"] -= 1
        state["hand"][p] += 1


def _exhausted(state):
    """End the game when the draw pile and every hand are empty and no player has 100
    Viewpoints: the most win. While one has, turns go on (each ends at once, on an empty hand)
    until one with 100 ends theirs: they win then."""
    if state["pile"] or any(state["hand"]):
        return False
    totals = scores(state)
    best = max(totals)
    if best >= TARGET:
        return False
    _finish(state, [i for i in range(len(totals)) if totals[i] == best], "most")
    return True


def _finish(state, winners, outcome):
    state["over"] = True
    state["winners"] = winners
    state["outcome"] = outcome
    state["stack"] = []
    _log(state, ["won", winners[0] if len(winners) == 1 else -1, outcome])


def _log(state, event):
    state["events"] += 1
    log = state["log"]
    log.append(event)
    if len(log) > LOG_SIZE:
        log.pop(0)


# -- queries --------------------------------------------------------------------------------------
def names(state):
    """The players' names, in seat order."""
    return state["names"]


def total(state, p):
    """Player p's Viewpoints: the sum of the cards in their Field of View."""
    return _sum(catalog(state), state["view"][p])


def scores(state):
    """Every player's Viewpoints (the catalog looked up once: a screen asks after every
    action, and a Pico took 1.2 ms for six players asking per player)."""
    cat = catalog(state)
    return [_sum(cat, cards) for cards in state["view"]]


def _sum(cat, cards):
    t = 0
    for c in cards:
        t += cat[c][1]
    return t


def turn(state):
    """The active seat, or -1 once the game is over."""
    return -1 if state["over"] else state["turn"]


def turns(state):
    return state["turns"]


def view(state, p):
    """The cards in player p's Field of View, in the order laid out."""
    return state["view"][p]


def hands(state):
    """How many cards each player holds."""
    return state["hand"]


def pile(state):
    """Cards left in the draw pile."""
    return state["pile"]


def discard(state):
    """(the cards seen going to the discard pile, how many others lie there)."""
    return state["discard"], state["gone"]


def missing(state):
    """Per player, True when they miss their next turn."""
    return state["miss"]


def log(state):
    """The newest events, oldest first, each a list: ["play", p, card], ["draw", p, n],
    ["discard"|"steal", p, t, n], ["drop", p, n] (p discarded n of their own), ["give", p, t,
    n] (p passed n to t), ["exchange"|"miss", p, t], ["take"|"destroy"|"recall"|
    "mirror", p, owner, card], ["swap", p, mine, owner, theirs], ["itself", p, card] (p's card
    destroyed by its own action, the only card it could destroy), ["none", p, kind] (nothing to
    act on), ["pass", p, kind], ["cancel", q, card, cancelled], ["reveal", q, card],
    ["missed", p] (a turn missed), ["empty", p] (a turn with no card to play),
    ["move", src, dst, card], ["won", p or -1 for a shared win, outcome]."""
    return state["log"]


def events(state):
    """How many events the game has logged: an action's own are the last ones of ``log``."""
    return state["events"]


def unseen(state):
    """Per card of the catalog, the copies not in a view or seen on the discard pile: those in
    hands or in the draw pile (or unseen among the discards)."""
    left = [c[2] for c in catalog(state)]
    for cards in state["view"]:
        for c in cards:
            left[c] -= 1
    for c in state["discard"]:
        left[c] -= 1
    return left


def held(state, left=None):
    """The cards a player may still hold (a copy not yet seen), in the catalog's order: the
    card picker's order, the same every turn, so that a player's hand learns where a card is.
    ``left``: ``unseen(state)`` when the caller has it (a screen wants this and ``likeliest``
    after every card: one count of the views instead of two, 0.8 ms of a Pico's press)."""
    if left is None:
        left = unseen(state)
    return [c for c in range(len(left)) if left[c] > 0]


def likeliest(state, left=None):
    """The card with the most copies not yet seen (the catalog's first among equals), or None
    when none is left: what the card picker proposes. ``left`` as in ``held``."""
    if left is None:
        left = unseen(state)
    best = 0
    for c in range(1, len(left)):
        if left[c] > left[best]:
            best = c
    return best if left[best] > 0 else None


def choices(state):
    """What the prompted action can aim at: seats for a "target" (the players it can act on,
    clockwise from the one acting: ``_targets``), [owner, card] pairs for a "card" (each card
    once per view) and for a "swap" (the other players' cards: the player's own are
    ``view(state, by)``), [] for a "go". The screen's pickers offer only these; the rules
    refuse the others."""
    got = prompt(state)
    if got is None:
        return []
    by, want = got[0], got[1]
    aim = AIMS[want]
    if aim == "target":
        return _targets(state, by, want)
    if aim == "go":
        return []
    return _aims(state, by, want, state["stack"][-1])


def _aims(state, by, want, top, one=False):
    """The [owner, card] pairs a card action of ``by`` can aim at (each card once per view),
    clockwise from ``by``; ``top`` is the card whose action it is (never its own target).
    ``one``: stop at the first (is there any?)."""
    cat = catalog(state)
    view = state["view"]
    n = len(view)
    out = []
    for k in range(n):
        t = (by + k) % n
        if (want in ("take", "swap") and t == by) or (want == "recall" and t != by):
            continue
        seen = []
        for c in view[t]:
            if c in seen:
                continue
            seen.append(c)
            if want in ("recall", "mirror") and _itself(state, top, t, c):
                continue  # "another card" (Hindsight, Mirror Image)
            if want == "destroy" and cat[c][4] & NODESTROY:
                continue
            if want == "mirror" and _mirrors(cat[c]):
                continue
            out.append([t, c])
            if one:
                return out
    return out


def extended(state):
    """True when the game carries a catalog file's cards (``viewpoint_extra`` has their
    queries: ``cancellers``, ``cancellable``, ``revealers``)."""
    return bool(state["extra"])


def result(state):
    """None while the game runs, else the winners' seats (several: a shared win)."""
    return state["winners"] if state["over"] else None


def outcome(state):
    """"100" (reached at the end of the winner's turn), "most" (the cards ran out), or None."""
    return state["outcome"]


def summary(state):
    """One history record: names, scores, winners ([] if unfinished), turns, outcome."""
    return {"names": list(state["names"]), "scores": scores(state),
            "winners": list(state["winners"]), "turns": state["turns"],
            "outcome": state["outcome"]}
