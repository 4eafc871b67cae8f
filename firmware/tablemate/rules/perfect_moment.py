"""The Perfect Moment: two players change history; the device keeps the points, the deck and time.

The device cannot see the item cards, so the players say what they scored and how well it
matched; the device keeps the points, the fragments (cards scored face up for 1 point, which
either player may score again), the face-down cards, the deck, whose turn it is, the end, and
the players' clocks as the screen last journaled them. The published rulebook (The
Perfect Moment Rulebook) is the spec; docs/rules/perfect-moment.md has the readings of its gaps.

State (plain JSON data):
  names, clock, zero    from the options: the clock kind ("bank", "turn", "off") and what a
                        clock at zero does ("alert": play on, "lose": that player loses)
  base, increment       the clock's time (the bank, or each turn's) and the bank's increment,
                        in ms
  deck                  cards in the deck (18 - the Paradox - two hands of 4 + 2 put back = 11)
  points, frags, down   per player: points, fragments in front of them, face-down cards
  turn, turns, scored   the player to move (-1 until the setup race is settled), turns begun,
                        whether they scored this turn
  clocks                [ms, ms] each player's time left at the last action, or None
  late                  per player, how often their clock reached zero (play on)
  over, winners, outcome ("16", "deck" (a turn ended on an empty deck), "draw" (a card taken
                        from an empty deck), "time" (a clock at zero lost), or None)
Actions; each ends with the clocks at that moment ([ms, ms], or None without clocks):
  ["first", p, clocks]             the setup race: p finished setting up first
  ["score", p, what, pts, clocks]  what: "plan", "paradox", "frag0"/"frag1" (a fragment in
                                   front of seat 0/1); pts: 1 (one item), 2 (both, facing
                                   opposite ways), 3 (both, the same way)
  ["end", p, clocks]               p ends the turn
  ["deck", d, clocks]              an item put a card back (+1) or drew one (-1)
  ["empty", p, clocks]             p takes a card from the empty deck: the game ends
  ["timeout", p, clocks]           p's clock reached zero
"""

from micropython import const

from tablemate import CHOICE, RuleError, action_kind

DECK = const(11)  # after setup: 18 cards - the Paradox - 8 dealt + 2 put back
WIN = const(16)
PLAYERS = (2, 2, 2)
OPTIONS = (("clock", "Clock", CHOICE, "bank",
            (("bank", "turn", "off"), ("time bank", "per turn", "off"))),
           ("minutes", "Bank", CHOICE, 10, ((1, 3, 5, 10, 15, 20, 30, 45, 60), " min")),
           ("increment", "Increment", CHOICE, 5, ((0, 2, 5, 10, 15, 30), "s")),
           ("turn", "Per turn", CHOICE, 60, ((15, 30, 45, 60, 90, 120, 180), "s")),
           ("zero", "At zero", CHOICE, "alert", (("alert", "lose"), ("play on", "you lose"))))
FIRST = False  # the setup race, the game's first action ("first"), says who starts


def unused(opts, players):
    """The options the chosen clock has no use for (the setup menu hides their rows): a time
    bank has no per-turn countdown, a countdown no bank nor increment, no clock none of them."""
    clock = opts["clock"]
    if clock == "bank":
        return ("turn",)
    if clock == "turn":
        return ("minutes", "increment")
    return ("minutes", "increment", "turn", "zero")
WHAT = ("plan", "paradox", "frag0", "frag1")
_ARITY = {"first": 3, "score": 5, "end": 3, "deck": 3, "empty": 3, "timeout": 3}
_MAX_MS = const(0x1FFFFFFF)


def setup(opts):
    """Opening state for {"names": [2 str], and ``OPTIONS``: "clock" (a time bank, a per-turn
    countdown or none), "minutes" (the bank), "increment" (s added after each of the owner's
    turns), "turn" (s of a turn's countdown), "zero" (play on, or lose)}. Who starts is
    settled by the setup race ("first")."""
    from tablemate.options import check  # at setup only: a game lets the module go
    o = check(opts, PLAYERS, OPTIONS, FIRST)
    names, clock, zero = o["names"], o["clock"], o["zero"]
    minutes, increment, turn = o["minutes"], o["increment"], o["turn"]
    ms = minutes * 60000 if clock == "bank" else turn * 1000
    return {"names": names, "clock": clock, "zero": zero, "base": ms,
            "increment": increment * 1000 if clock == "bank" else 0, "deck": DECK,
            "points": [0, 0], "frags": [0, 0], "down": [0, 0],
            "turn": -1, "turns": 0, "scored": False,
            "clocks": None if clock == "off" else [ms, ms], "late": [0, 0],
            "over": False, "winners": [], "outcome": None}


def apply(state, action):
    """Apply action to state in place, or raise RuleError and leave state untouched."""
    kind = action_kind(state, action, _ARITY)
    clocks = _clocks(state, action[-1])
    if kind == "first":
        p = _seat(action[1])
        if state["turn"] >= 0:
            raise RuleError("Already started")
        state["turn"] = p
        state["turns"] = 1
    elif kind == "deck":
        if state["turn"] < 0:
            raise RuleError("Race to start first")
        _deck(state, action[1])
    else:
        p = _seat(action[1])
        if state["turn"] < 0:
            raise RuleError("Race to start first")
        if p != state["turn"]:
            raise RuleError("It is %s's turn" % state["names"][state["turn"]])
        if kind == "timeout":
            if clocks is None:
                raise RuleError("No clocks in game")
            _timeout(state, p)
        else:
            if kind == "score":
                _score(state, p, action[2], action[3])
            elif kind == "end":
                _end(state, p)
            else:  # empty
                if state["deck"]:
                    raise RuleError("The deck is not empty")
                _finish(state, "draw")
    if clocks is not None:
        state["clocks"] = clocks


def _seat(p):
    if type(p) is not int or not 0 <= p <= 1:
        raise RuleError("No such player")
    return p


def _clocks(state, clocks):
    """The action's clocks, checked: None in a game without clocks, else two times in ms."""
    if state["clocks"] is None:
        if clocks is not None:
            raise RuleError("No clocks in game")
        return None
    if not isinstance(clocks, (list, tuple)) or len(clocks) != 2:
        raise RuleError("Bad clocks")
    for ms in clocks:
        if type(ms) is not int or not 0 <= ms <= _MAX_MS:
            raise RuleError("Bad clocks")
    return list(clocks)


def _deck(state, d):
    if d != 1 and d != -1 or type(d) is not int:
        raise RuleError("Deck: +1 or -1")
    if d < 0 and not state["deck"]:
        raise RuleError("The deck is empty")
    state["deck"] += d


def _score(state, p, what, pts):
    if state["scored"]:
        raise RuleError("One score a turn")
    if what not in WHAT:
        if what in ("down0", "down1"):
            raise RuleError("Face down: final")
        raise RuleError("Score what?")
    if type(pts) is not int or not 1 <= pts <= 3:
        raise RuleError("Points: 1, 2 or 3")
    points = state["points"]
    if what[:4] == "frag":
        owner = int(what[4])
        if not state["frags"][owner]:
            raise RuleError("No fragment there")
        if pts == 1:
            raise RuleError("Needs both items")
        state["frags"][owner] -= 1
        points[owner] -= 1
    if pts == 1:
        state["frags"][p] += 1
    else:
        state["down"][p] += 1
    points[p] += pts
    state["scored"] = True
    if points[p] >= WIN:
        _finish(state, "16")
    elif what == "plan" or what == "paradox":
        # The plan's owner draws a new plan; a new Paradox is revealed: from an empty deck,
        # that ends the game at once.
        if not state["deck"]:
            _finish(state, "draw")
        else:
            state["deck"] -= 1


def _end(state, p):
    if not state["deck"]:
        _finish(state, "deck")
        return
    state["turn"] = 1 - p
    state["turns"] += 1
    state["scored"] = False


def _timeout(state, p):
    if state["zero"] == "lose":
        state["over"] = True
        state["winners"] = [1 - p]
        state["outcome"] = "time"
    else:
        state["late"][p] += 1


def _finish(state, outcome):
    """The most points win; a tie goes to the player who took the last turn."""
    points = state["points"]
    state["over"] = True
    state["outcome"] = outcome
    if points[0] == points[1]:
        state["winners"] = [state["turn"]]
    else:
        state["winners"] = [0 if points[0] > points[1] else 1]


# -- queries --------------------------------------------------------------------------------------
def names(state):
    return state["names"]


def scores(state):
    """Both players' points."""
    return state["points"]


def turn(state):
    """The player to move; -1 before the setup race is settled and once the game is over."""
    return -1 if state["over"] else state["turn"]


def turns(state):
    return state["turns"]


def deck(state):
    return state["deck"]


def fragments(state):
    """Per player, the cards scored face up for 1 point lying in front of them."""
    return state["frags"]


def face_down(state):
    """Per player, the cards scored face down (final)."""
    return state["down"]


def scored(state):
    """True when the player to move has scored this turn (one score a turn)."""
    return state["scored"]


def clocks(state):
    """Each player's time left (ms) at the last action, or None in a game without clocks."""
    return state["clocks"]


def clock(state):
    """(kind, base ms, increment ms): "bank" (a time bank with a Fischer increment), "turn" (a
    countdown per turn, from base each turn) or "off"."""
    return state["clock"], state["base"], state["increment"]


def late(state):
    """Per player, how often their clock reached zero and they played on."""
    return state["late"]


def result(state):
    """None while the game runs, else the winner's seat in a list."""
    return state["winners"] if state["over"] else None


def outcome(state):
    """"16", "deck", "draw", "time" or None (running, or ended from the menu)."""
    return state["outcome"]


def summary(state):
    """One history record: names, scores, winners ([] if unfinished), turns, outcome."""
    return {"names": list(state["names"]), "scores": list(state["points"]),
            "winners": list(state["winners"]), "turns": state["turns"],
            "outcome": state["outcome"]}
