"""Perspective: turns, objective checks and who has won; the solitaire's moves.

A card's sides are secret from its holder, so the device never asks for them: it runs the turns
(the colour action played, for the log), the objective checks the players report, the victory
for each setup, and the solitaire's move counter and action chain. The published
Perspective Rulebook is the spec; docs/rules/perspective.md has the readings.

Setups (from the player count and the "advanced" option): "solo" (1 player), "duel" (2),
"advanced" (2, no objective cards: the common hand, either side, is the objective), "trio" (3:
the common hand is everyone's partner), "teams" (4: P1 with P3, P2 with P4; a player done sets
their cards aside, and their partner acts alone from then on). With 2 players and in the
solitaire, one copy of each card showing the same colour on both sides is left out.

State (plain JSON data):
  names, kind           the players and the setup
  turn, turns           the active seat (-1 until the first player is chosen), turns begun
  stage                 "start" (the colour is to be played; a check may come first) or "played"
  colour                the first card's colour (the first-player question), or None
  failed, done          per player, failed checks and whether they reached their objective
  rebuilds              times the draw pile was rebuilt from the discard pile
  log                   the newest events (LOG_SIZE): ["play", p, colour], ["check", p, result],
                        ["skip", p] (a done player's turn), ["rebuild"]
  moves, next, ms       the solitaire: actions done (the one that solved it included), the
                        colour of the next action, the time used
  over, winners, outcome
Actions:
  ["first", p, colour]      p starts (colour: the first card's, or None for a random pick)
  ["play", p, colour]       the active player played a card of that colour (its action)
  ["check", p, result]      p checked: False (failed: the turn ends), True (reached), or in the
                            advanced duel "visible"/"hidden" (the common hand's side matched)
  ["end", p]                p ends the turn after playing
  ["rebuild"]               the draw pile was rebuilt (first discard stays, the rest turned over)
  ["start", colour, ms]     the solitaire's first action colour (the last card placed)
  ["move", colour, ms]      one solitaire action done; colour: the next action's
  ["solved", ms]            the action just done solved it (every hand matches its
                            objective): it counts as a move too
"""

from micropython import const

from tablemate import FLAG, RuleError, action_kind

COLOURS = ("yellow", "green", "red", "blue")
ACTIONS = {"yellow": "turn", "green": "exchange", "red": "replace", "blue": "rearrange/inform"}
LOG_SIZE = const(12)
_ARITY = {"first": 3, "play": 3, "check": 3, "end": 2, "rebuild": 1, "start": 3, "move": 3,
          "solved": 2}
_MAX_MS = const(0x1FFFFFFF)
PLAYERS = (1, 4, 4)
OPTIONS = (("advanced", "Advanced (2)", FLAG, False, None),)
FIRST = False  # the first player is the first action's (the first card's colour, or drawn)
NOTE = {1: "solo"}


def unused(opts, players):
    """The advanced game is for two: with another count the setup menu hides its row."""
    return () if players == 2 else ("advanced",)


def setup(opts):
    """Opening state for {"names": [1..4 str], "advanced": bool (2 players only)}."""
    from tablemate.options import check  # at setup only: a game lets the module go
    o = check(opts, PLAYERS, OPTIONS, FIRST)
    names, advanced = o["names"], o["advanced"]
    n = len(names)
    if advanced and n != 2:
        raise RuleError("Advanced: 2 players")
    kind = ("solo", "advanced" if advanced else "duel", "trio", "teams")[n - 1]
    return {"names": list(names), "kind": kind, "turn": -1, "turns": 0, "stage": "start",
            "colour": None, "failed": [0] * n, "done": [False] * n, "rebuilds": 0, "log": [],
            "moves": 0, "next": None, "ms": 0, "over": False, "winners": [], "outcome": None}


def apply(state, action):
    """Apply action to state in place, or raise RuleError and leave state untouched."""
    kind = action_kind(state, action, _ARITY)
    solo = state["kind"] == "solo"
    if kind in ("start", "move", "solved"):
        if not solo:
            raise RuleError("Solitaire only")
        _solo(state, kind, action)
        return
    if solo:
        raise RuleError("Not in a solitaire")
    if kind == "rebuild":
        if state["turn"] < 0:
            raise RuleError("Who starts first?")
        state["rebuilds"] += 1
        _log(state, ["rebuild"])
        return
    p = action[1]
    if type(p) is not int or not 0 <= p < len(state["names"]):
        raise RuleError("No such player")
    if kind == "first":
        if state["turn"] >= 0:
            raise RuleError("Already started")
        colour = action[2]
        if colour is not None and colour not in COLOURS:
            raise RuleError("No such colour")
        state["colour"] = colour
        state["turn"] = p
        state["turns"] = 1
        return
    if state["turn"] < 0:
        raise RuleError("Who starts first?")
    if p != state["turn"]:
        raise RuleError("It is %s's turn" % state["names"][state["turn"]])
    if kind == "play":
        colour = action[2]
        if colour not in COLOURS:
            raise RuleError("No such colour")
        if state["stage"] != "start":
            raise RuleError("Already played")
        state["stage"] = "played"
        _log(state, ["play", p, colour])
    elif kind == "end":
        if state["stage"] != "played":
            raise RuleError("Play a card first")
        _next(state)
    else:
        _check(state, p, action[2])


def _check(state, p, result):
    advanced = state["kind"] == "advanced"
    if result is not True and result is not False and not (
            advanced and result in ("visible", "hidden")):
        raise RuleError("Bad check")
    if advanced and result is True:
        raise RuleError("Which side matched?")
    _log(state, ["check", p, result])
    if result is False:  # discard, draw three: the turn ends
        state["failed"][p] += 1
        _next(state)
        return
    state["done"][p] = True
    if state["kind"] != "teams":
        _finish(state, [p], "side" if advanced else "objective")
        return
    partner = (p + 2) % 4
    if state["done"][partner]:
        _finish(state, sorted([p, partner]), "team")
    else:
        _next(state)  # their cards are set aside: the turn passes


def _next(state):
    """The next player clockwise who still holds cards (a done player's turns are skipped)."""
    n = len(state["names"])
    p = state["turn"]
    for _ in range(n):
        p = (p + 1) % n
        if not state["done"][p]:
            break
        _log(state, ["skip", p])
    state["turn"] = p
    state["turns"] += 1
    state["stage"] = "start"


def _finish(state, winners, outcome):
    state["over"] = True
    state["winners"] = winners
    state["outcome"] = outcome


def _log(state, event):
    log = state["log"]
    log.append(event)
    if len(log) > LOG_SIZE:
        log.pop(0)


def _solo(state, kind, action):
    ms = action[-1]
    if type(ms) is not int or not 0 <= ms <= _MAX_MS:
        raise RuleError("Bad time")
    if kind == "start":
        if state["next"] is not None:
            raise RuleError("Already started")
        if action[1] not in COLOURS:
            raise RuleError("No such colour")
        state["next"] = action[1]
    elif state["next"] is None:
        raise RuleError("First colour?")
    elif ms < state["ms"]:
        raise RuleError("Bad time")  # the time only goes on
    elif kind == "move" and action[1] not in COLOURS:
        raise RuleError("No such colour")
    else:
        state["moves"] += 1  # every action, the one that solved it too
        if kind == "move":
            state["next"] = action[1]
        else:
            _finish(state, [0], "solved")
    state["ms"] = ms


# -- queries --------------------------------------------------------------------------------------
def names(state):
    return state["names"]


def kind(state):
    """"solo", "duel", "advanced", "trio" or "teams"."""
    return state["kind"]


def scores(state):
    """Minus the failed checks per player (the solitaire: its moves), the summary's scores.
    The registry says what they are (``numbers``): the solitaire's moves, fewer being better;
    in any other setup no points, so nothing ranks by them or shows them (issue 32)."""
    if state["kind"] == "solo":
        return [state["moves"]]
    return [-f for f in state["failed"]]


def failed(state):
    return state["failed"]


def done(state):
    return state["done"]


def turn(state):
    """The active seat; -1 before the first player is chosen, in a solitaire and at the end."""
    return -1 if state["over"] or state["kind"] == "solo" else state["turn"]


def turns(state):
    return state["turns"]


def stage(state):
    return state["stage"]


def partner(state, p):
    """Who p acts with: a seat (teams), -1 for the common hand (2 and 3 players), None alone
    (the solitaire, or a team player whose partner is done: that hand is set aside)."""
    kind = state["kind"]
    if kind == "teams":
        mate = (p + 2) % 4
        return None if state["done"][mate] else mate
    return None if kind == "solo" else -1


def removes_doubles(state):
    """True when the setup leaves out one copy of each card showing the same colour on both
    sides (2 players and the solitaire)."""
    return state["kind"] in ("solo", "duel", "advanced")


def log(state):
    return state["log"]


def moves(state):
    return state["moves"]


def next_colour(state):
    """The solitaire's next action colour, None before the first."""
    return state["next"]


def elapsed(state):
    """The solitaire's time used at its last action (ms)."""
    return state["ms"]


def result(state):
    return state["winners"] if state["over"] else None


def outcome(state):
    return state["outcome"]


def summary(state):
    rec = {"names": list(state["names"]), "scores": scores(state),
           "winners": list(state["winners"]), "turns": state["turns"],
           "outcome": state["outcome"], "kind": state["kind"]}
    if state["kind"] == "solo":
        rec["moves"] = state["moves"]
        rec["ms"] = state["ms"]
    return rec
