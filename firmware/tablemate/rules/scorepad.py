"""The generic scorepad: any card game where players add points, in turns and rounds.

State (plain JSON data): {"names", "scores", "round", "turn", "target", "over", "winners",
"start", "rotate", "finish"}. Actions: ["add", player, delta], ["next"], ["round"], ["end"].
Every action is validated in full before the state changes.

Options: "first" is the player who starts (chosen at the setup, or drawn there at random: the
journal keeps the index); "rotate" moves the first seat of each new round one player on, so
nobody always opens. A target above 0 ends the game once an add reaches it: with "finish" the
round is played out first, so that everybody had as many turns (the setup's default); without,
at once. Whether the round being played is the last follows the scores as they stand when it
ends: a score corrected back below the target (or an undo) takes the last round away. Journals
written before these options resume as they were played: a missing option, or a state without
its key, means the old behaviour (player 0 starts, no rotation, the game ends at once). A
state saved before issue 32 may still hold a "final" flag, set by an add that reached the
target and never cleared: it is ignored (the scores decide), so a game whose score was
corrected below the target resumes without its false last round.
"""

from tablemate import CHOICE, FLAG, NUMBER, RuleError, action_kind

MAX_DELTA = 999
MAX_SCORE = 99999
PLAYERS = (1, 8, 2)
OPTIONS = (("target", "Target", NUMBER, 0, (0, 9995, 5, "none")),
           ("finish", "Win", CHOICE, True, ((True, False), ("end of round", "at once")), False),
           ("rotate", "Rotate start", FLAG, False, None),
           ("timer", "Turn timer", CHOICE, 0, ((0, 15, 30, 45, 60, 90, 120, 180, 300), "s")))
_ARITY = {"add": 3, "next": 1, "round": 1, "end": 1}


def unused(opts, players):
    """Without a target there is no moment to win at: the setup menu hides the "Win" row."""
    return () if opts["target"] else ("finish",)


def _is_int(v):
    # type() rather than isinstance: True is an int on CPython (not on MicroPython).
    return type(v) is int


def setup(opts):
    """Return the opening state for opts {"names": [1..8 str], "first": seat, and ``OPTIONS``}:
    every option is checked, so a damaged journal header is refused here rather than breaking
    the screen (``timer``, the per-turn countdown, is the screen's)."""
    from tablemate.options import check  # at setup only: a game lets the module go
    o = check(opts, PLAYERS, OPTIONS)
    return {"names": o["names"], "scores": [0] * len(o["names"]), "round": 1,
            "turn": o["first"], "target": o["target"], "over": False, "winners": [],
            "start": o["first"], "rotate": o["rotate"], "finish": o["finish"]}


def _reached(state):
    """True when a score as it stands reaches the target (there is one)."""
    return state["target"] > 0 and max(state["scores"]) >= state["target"]


def _leaders(scores):
    best = max(scores)
    return [i for i in range(len(scores)) if scores[i] == best]


def _finish(state):
    state["over"] = True
    state["winners"] = _leaders(state["scores"])


def _new_round(state):
    """Start the next round (its first seat moved on when rotating), or end the game when the
    target is reached as the round ends."""
    if state.get("finish") and _reached(state):
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
        if not state.get("finish") and _reached(state):
            _finish(state)  # with "finish", the round is played out first (``_new_round``)
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
    """True while a score reaches the target and the round is being played out."""
    return bool(state.get("finish")) and not state["over"] and _reached(state)


def result(state):
    """None while the game runs, else the list of winner indices (several = shared win)."""
    return state["winners"] if state["over"] else None


def summary(state):
    """One history record (lifecycle adds the mode's name): names, scores, winners ([] if
    unfinished), rounds."""
    return {"names": list(state["names"]), "scores": list(state["scores"]),
            "winners": list(state["winners"]), "rounds": state["round"]}
