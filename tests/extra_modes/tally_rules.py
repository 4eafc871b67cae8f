"""Tally, a mode that is not in the firmware: first to the target number of marks wins.

It lives in the tests folder to show that a game is two files and one registry entry: the
sixth-mode test (tests/host/test_sixth_mode.py) registers it and plays it through the app, the
screenshots, the history and ``tablemate report`` with no other file changed, and
tests/host/test_adding_a_game.py adds it to a copy of the firmware as a built-in mode, by
docs/adding-a-game.md's steps. A real rules
module in the same contract as the firmware's: pure, plain data, every action checked.
"""

from tablemate import NUMBER, RuleError, action_kind

PLAYERS = (2, 4, 2)
OPTIONS = (("target", "Marks to win", NUMBER, 3, (2, 9, 1, None)),)
_ARITY = {"mark": 2}


def setup(opts):
    from tablemate.options import check
    o = check(opts, PLAYERS, OPTIONS)
    return {"names": o["names"], "marks": [0] * len(o["names"]), "turn": o["first"],
            "target": o["target"], "over": False, "winners": []}


def apply(state, action):
    """["mark", player]: the player whose turn it is makes a mark; the turn passes on."""
    action_kind(state, action, _ARITY)
    p = action[1]
    if p != state["turn"]:
        raise RuleError("Not their turn")
    state["marks"][p] += 1
    if state["marks"][p] >= state["target"]:
        state["over"] = True
        state["winners"] = [p]
    else:
        state["turn"] = (p + 1) % len(state["marks"])


def names(state):
    return state["names"]


def target(state):
    """The marks that win (the screen reads the game through accessors, as a built-in's)."""
    return state["target"]


def scores(state):
    return state["marks"]


def turn(state):
    return state["turn"]


def result(state):
    return state["winners"] if state["over"] else None


def summary(state):
    return {"names": list(state["names"]), "scores": list(state["marks"]),
            "winners": list(state["winners"])}
