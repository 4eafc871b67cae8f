"""Contrast: every player picks the symbol that best fits the top picture; the plurality wins it.

The device resolves each round, so players only enter picks. Readings of the rulebook's gaps are
written down in docs/rules/contrast.md; the published Contrast Rulebook is the spec.

State (plain JSON data):
  names, coop, expert   from the options
  first                 the seat whose pick is entered first in every round (option, default 0)
  deck, box             picture cards in the deck and in the box (74 in all, see _CARDS)
  cards                 picture cards won, one count per player (competitive game)
  piles                 [left, right] piles of the 2-player co-op variant
  rounds                rounds resolved so far
  picks                 this round's picks so far, in entry order (seat first, first + 1, ...):
                        a symbol, or None for a skip
  rows                  per player, the symbols picked with the cards lying face up in front
                        of them that the device saw laid out, newest first (at most face_up):
                        those cards are not in the player's hand (see unavailable)
  last                  the last resolved round (see _resolve), or None before the first
  over, winners, outcome
Actions: ["pick", player, symbol] and ["skip", player], one per player in seat order from seat
``first``. The last player's action resolves the round; the next action starts the next round.
A journal written before ``first`` and ``rows`` existed resumes as it was: its states lack the
keys, which read as seat 0 and rows not yet seen.
"""

from tablemate import FLAG, RuleError, action_kind

# In the rulebook's order. Each symbol card carries SYMBOLS[i] and SYMBOLS[i + 6] (inferred).
SYMBOLS = ("red", "blue", "heavy", "wide", "big", "round",
           "yellow", "green", "light", "narrow", "small", "square")
DECK = {2: 44, 3: 48, 4: 52, 5: 56, 6: 60}  # picture cards in play, by number of players
_CARDS = 74  # picture cards in the box; those not in play stay there
_ARITY = {"pick": 3, "skip": 2}
PLAYERS = (2, 6, 4)
OPTIONS = (("expert", "Expert", FLAG, False, None),)
NOTE = {2: "co-op"}


def fixed(players):
    """The option the player count decides: two players play the co-op variant."""
    return {"coop": players == 2}


def partner(symbol):
    """The other symbol on ``symbol``'s card."""
    return SYMBOLS[(SYMBOLS.index(symbol) + 6) % 12]


def card(symbol):
    """The symbol card that carries ``symbol``: card i carries SYMBOLS[i] and SYMBOLS[i + 6]
    (heavy/light, wide/narrow, big/small, round/square, red/yellow, blue/green: see
    docs/rules/contrast.md), so laying a card out takes both of its symbols out of the hand."""
    return SYMBOLS.index(symbol) % 6


def setup(opts):
    """Opening state for opts {"names": [2..6 str], "coop": bool, "expert": bool, "first": int}.

    Two players play the co-op variant, which must be asked for ("coop": True: ``fixed``).
    ``first`` (seat index, default 0) is the player whose pick is entered first in each round.
    """
    from tablemate.options import check  # at setup only: a game lets the module go
    o = check(opts, PLAYERS, OPTIONS)
    names = o["names"]
    coop = opts.get("coop", False)
    if type(coop) is not bool:
        raise RuleError("Bad option coop")
    if coop != (len(names) == 2):
        raise RuleError("Co-op is for 2 only" if coop else "2 players: co-op only")
    deck = DECK[len(names)]
    return {"names": names, "coop": coop, "expert": o["expert"], "first": o["first"],
            "deck": deck, "box": _CARDS - deck, "cards": [0] * len(names), "piles": [0, 0],
            "rounds": 0, "picks": [], "rows": [[] for _ in names], "last": None,
            "over": False, "winners": [], "outcome": None}


def apply(state, action):
    """Apply action to state in place, or raise RuleError and leave state untouched."""
    kind = action_kind(state, action, _ARITY)
    p = action[1]
    names = state["names"]
    if type(p) is not int or not 0 <= p < len(names):
        raise RuleError("No such player")
    picks = state["picks"]
    due = turn(state)
    if p != due:
        raise RuleError("Next pick: " + names[due])
    symbol = None
    if kind == "pick":
        symbol = action[2]
        if not isinstance(symbol, str) or symbol not in SYMBOLS:
            raise RuleError("Unknown symbol")
    picks.append(symbol)
    if len(picks) == len(names):
        _resolve(state)


def judge(picks, coop=False):
    """(symbol, winners, why) for one round's picks (None = skipped); why is None if won.

    why: "tie" (top count shared), "all same" (everyone who played agreed), "one card" (all
    but one skipped: a card alone agrees with nothing), "no picks"; in co-op "differ" or
    "skipped" (the card goes to the left pile).
    """
    played = [s for s in picks if s is not None]
    if coop:
        if len(played) < 2:
            return None, [], "skipped"
        if played[0] != played[1]:
            return None, [], "differ"
        return played[0], [0, 1], None
    if not played:
        return None, [], "no picks"
    if len(played) == 1:
        return None, [], "one card"
    if len(picks) == 3 and len(played) == 2 and played[0] == played[1]:
        # The 3-player note: one skipped, the other two agreed.
        return played[0], [i for i in range(3) if picks[i] is not None], None
    counts = {}
    for s in played:
        counts[s] = counts.get(s, 0) + 1
    if len(counts) == 1:
        return None, [], "all same"
    best = max(counts.values())
    top = [s for s in counts if counts[s] == best]
    if len(top) > 1:
        return None, [], "tie"
    return top[0], [i for i in range(len(picks)) if picks[i] == top[0]], None


def _resolve(state):
    """Score the complete round, record it in state["last"], lay the cards played out in front
    of their players, and end the game on an empty deck."""
    n = len(state["names"])
    first = state.get("first", 0)
    picks = [None] * n  # in seat order
    k = 0
    for s in state["picks"]:
        picks[(first + k) % n] = s
        k += 1
    symbol, winners, why = judge(picks, state["coop"])
    from_box = 0
    pile = None
    if state["coop"]:
        pile = "left" if why else "right"
        state["piles"][0 if why else 1] += 1
        state["deck"] -= 1
    elif winners:
        cards = state["cards"]
        for w in winners:
            # When the deck runs out, the remaining winners take theirs from the box, which
            # always holds enough (docs/rules/contrast.md).
            if state["deck"]:
                state["deck"] -= 1
            else:
                state["box"] -= 1
                from_box += 1
            cards[w] += 1
    else:
        state["deck"] -= 1
        state["box"] += 1
    rows = state.get("rows")
    if rows is None:  # a state saved before the rows were kept: from now on they are
        rows = state["rows"] = [[] for _ in range(n)]
    keep = face_up(state)
    for p in range(n):
        s = picks[p]
        if s is not None:  # a skipping player lays nothing out, and takes nothing back
            row = [s]
            for t in rows[p]:
                if card(t) != card(s) and len(row) < keep:
                    row.append(t)
            rows[p] = row
    state["rounds"] += 1
    state["last"] = {"round": state["rounds"], "picks": picks, "symbol": symbol,
                     "winners": winners, "why": why, "from_box": from_box, "pile": pile}
    state["picks"] = []
    if not state["deck"]:
        _finish(state)


def _finish(state):
    state["over"] = True
    if state["coop"]:
        left, right = state["piles"]
        state["outcome"] = "win" if right > left else "lose" if left > right else "draw"
        state["winners"] = [0, 1] if right > left else []
        return
    cards = state["cards"]
    best = max(cards)
    state["winners"] = [i for i in range(len(cards)) if cards[i] == best]
    state["outcome"] = "win" if len(state["winners"]) == 1 else "shared"


def names(state):
    """The players' names, in seat order."""
    return state["names"]


def scores(state):
    """Picture cards per player; in co-op both players share the right pile."""
    if state["coop"]:
        return [state["piles"][1]] * 2
    return state["cards"]


def turn(state):
    """Index of the player whose pick is next, or -1 once the game is over."""
    if state["over"]:
        return -1
    return (state.get("first", 0) + len(state["picks"])) % len(state["names"])


def first(state):
    """The seat whose pick is entered first in every round."""
    return state.get("first", 0)


def round_no(state):
    """The round being entered, counting from 1 (the last round once the game is over)."""
    return state["rounds"] if state["over"] else state["rounds"] + 1


def result(state):
    """None while the game runs, else the list of winner indices (several = shared win).

    Co-op: [0, 1] when the players beat the game, [] when they lost or drew (see outcome).
    """
    return state["winners"] if state["over"] else None


def outcome(state):
    """None while running; "win" or "shared" (competitive); "win", "lose" or "draw" (co-op)."""
    return state["outcome"]


def last(state):
    """The last resolved round, or None: {"round", "picks", "symbol", "winners", "why",
    "from_box", "pile"} (pile is "left"/"right" in co-op, else None)."""
    return state["last"]


def picks(state):
    """This round's picks so far, in entry order (seat ``first`` first): a symbol, or None for a
    skip. ``last(state)["picks"]`` has a resolved round's picks in seat order."""
    return state["picks"]


def coop(state):
    """True in the 2-player co-op variant."""
    return state["coop"]


def tally(state):
    """How many players picked each symbol so far this round, in SYMBOLS order."""
    counts = [0] * len(SYMBOLS)
    for s in state["picks"]:
        if s is not None:
            counts[SYMBOLS.index(s)] += 1
    return counts


def unavailable(state, player):
    """The symbols not in ``player``'s hand as far as the device saw: both symbols of each card
    they laid out in their last rounds (newest first, each picked symbol then its partner),
    which lie face up in front of them until face_up(state) more cards have been laid out.

    The cards laid out at setup are unknown, so a hand is known whole from the third round
    (the fourth in the expert variant) on: docs/rules/contrast.md."""
    rows = state.get("rows")
    out = []
    for s in rows[player] if rows else ():
        out.append(s)
        out.append(partner(s))
    return out


def boxed(state):
    """The players who took their card from the box in the last round (the deck ran out)."""
    last = state["last"]
    if not last or not last["from_box"]:
        return []
    return last["winners"][-last["from_box"]:]


def ranked(state):
    """The symbols picked so far this round that the player to pick has in hand, the most
    picked first and, among as many picks, the latest picked first (skips do not count).

    The pick screen starts the cursor on the first and jumps along them, because picks tend
    to agree."""
    picks = state["picks"]
    counts = tally(state)
    if not state["over"]:
        for s in unavailable(state, turn(state)):
            counts[SYMBOLS.index(s)] = 0
    order = []
    for best in range(max(counts), 0, -1):
        for i in range(len(picks) - 1, -1, -1):
            s = picks[i]
            if s is not None and counts[SYMBOLS.index(s)] == best and s not in order:
                order.append(s)
    return order


def suggest(state):
    """The first of ``ranked``: the symbol picked most so far this round among those the player
    to pick has in hand; on a tie the latest picked. None when there is none."""
    order = ranked(state)
    return order[0] if order else None


def deck(state):
    """Picture cards left in the deck."""
    return state["deck"]


def box(state):
    """Picture cards in the box: those not in play plus those removed in rounds nobody won."""
    return state["box"]


def piles(state):
    """The co-op piles as [left, right] (both 0 in a competitive game)."""
    return state["piles"]


def face_up(state):
    """How many symbol cards each player lays out face up: 3 in the expert variant, else 2."""
    return 3 if state["expert"] else 2


def summary(state):
    """One history record (lifecycle adds the mode's name): names, scores, winners ([] if
    unfinished), rounds, outcome, and for co-op "coop" and the two piles."""
    rec = {"names": list(state["names"]), "scores": list(scores(state)),
           "winners": list(state["winners"]), "rounds": state["rounds"],
           "outcome": state["outcome"]}
    if state["coop"]:
        rec["coop"] = True
        rec["piles"] = list(state["piles"])
    return rec
