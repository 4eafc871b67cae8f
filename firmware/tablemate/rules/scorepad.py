"""The generic scorepad: any card game where players add points, in turns and rounds.

State (plain JSON data): {"names", "scores", "round", "turn", "target", "over", "winners",
"start", "rotate", "finish", "final"}. Actions: ["add", player, delta], ["next"], ["round"],
["end"]. Every action is validated in full before the state changes.

Options: "first" is the player who starts (chosen at the setup, or drawn there at random: the
journal keeps the index); "rotate" moves the first seat of each new round one player on, so
nobody always opens. A target above 0 ends the game once an add reaches it: with "finish" the
round is played out first, so that everybody had as many turns (the setup's default); without,
at once. Journals written before these options resume as they were played: a missing option,
or a state without its key, means the old behaviour (player 0 starts, no rotation, the game
ends at once).
"""

from tablemate import RuleError, action_kind

MAX_PLAYERS = 8
MAX_DELTA = 999
MAX_SCORE = 99999
MAX_TIMER = 3600  # seconds of a turn's countdown
_ARITY = {"add": 3, "next": 1, "round": 1, "end": 1}


def _is_int(v):
    # type() rather than isinstance: True is an int on CPython (not on MicroPython).
    return type(v) is int


def setup(opts):
    """Return the opening state for opts {"names": [1..8 str], "target": int >= 0, "first":
    seat, "rotate": bool, "finish": bool, "timer": 0..3600 s}: every option is checked, so a
    damaged journal header is refused here rather than breaking the screen."""
    if not isinstance(opts, dict):
        raise RuleError("Bad options")
    names = opts.get("names")
    if not isinstance(names, (list, tuple)) or not 1 <= len(names) <= MAX_PLAYERS:
        raise RuleError("Need 1-8 players")
    for n in names:
        if not isinstance(n, str) or not 1 <= len(n) <= 8:
            raise RuleError("Bad player name")
    target = opts.get("target", 0)
    if not _is_int(target) or not 0 <= target <= MAX_SCORE:
        raise RuleError("Bad target")
    first = opts.get("first", 0)
    if not _is_int(first) or not 0 <= first < len(names):
        raise RuleError("Bad first player")
    timer = opts.get("timer", 0)  # the screen's per-turn countdown, in seconds
    if not _is_int(timer) or not 0 <= timer <= MAX_TIMER:
        raise RuleError("Bad option timer")
    for key in ("rotate", "finish"):
        if type(opts.get(key, False)) is not bool:
            raise RuleError("Bad option " + key)
    return {"names": list(names), "scores": [0] * len(names), "round": 1, "turn": first,
            "target": target, "over": False, "winners": [], "start": first,
            "rotate": opts.get("rotate") is True, "finish": opts.get("finish") is True,
            "final": False}


def _leaders(scores):
    best = max(scores)
    return [i for i in range(len(scores)) if scores[i] == best]


def _finish(state):
    state["over"] = True
    state["winners"] = _leaders(state["scores"])


def _new_round(state):
    """Start the next round (its first seat moved on when rotating), or end the game when the
    target was reached in the round that just ended."""
    if state.get("final"):
        _finish(state)
        return
    start = state.get("start", 0)
    if state.get("rotate"):
        start = (start + 1) % len(state["scores"])
        state["start"] = start
    state["round"] += 1
    state["turn"] = start


def apply(state, action):
    """Apply action to state in place, or raise RuleError and leave state untouched."""
    kind = action_kind(state, action, _ARITY)
    scores = state["scores"]
    if kind == "add":
        p, delta = action[1], action[2]
        if not _is_int(p) or not 0 <= p < len(scores):
            raise RuleError("No such player")
        if not _is_int(delta) or delta == 0 or not -MAX_DELTA <= delta <= MAX_DELTA:
            raise RuleError("Bad amount")
        new = scores[p] + delta
        if not -MAX_SCORE <= new <= MAX_SCORE:
            raise RuleError("Score out of range")
        scores[p] = new
        if state["target"] and new >= state["target"]:
            if state.get("finish"):
                state["final"] = True  # the round is played out
            else:
                _finish(state)
    elif kind == "next":
        t = (state["turn"] + 1) % len(scores)
        if t == state.get("start", 0):
            _new_round(state)
        else:
            state["turn"] = t
    elif kind == "round":
        _new_round(state)
    else:  # "end"
        _finish(state)


def names(state):
    """The players' names, in seat order."""
    return state["names"]


def target(state):
    """The score that ends the game, or 0 for none."""
    return state["target"]


def scores(state):
    """The list of scores, one per player (read-only)."""
    return state["scores"]


def turn(state):
    """Index of the player whose turn it is."""
    return state["turn"]


def round_no(state):
    """The current round, counting from 1."""
    return state["round"]


def last_round(state):
    """True once the target was reached and the round is being played out."""
    return state.get("final", False) and not state["over"]


def result(state):
    """None while the game runs, else the list of winner indices (several = shared win)."""
    return state["winners"] if state["over"] else None


def summary(state):
    """One history record (session adds the mode's name): names, scores, winners ([] if
    unfinished), rounds."""
    return {"names": list(state["names"]), "scores": list(state["scores"]),
            "winners": list(state["winners"]), "rounds": state["round"]}
