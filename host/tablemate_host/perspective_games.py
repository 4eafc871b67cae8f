"""Recorded games of Perspective, for the VM heap benchmark and the emulated Pico's scripts.

Four players in two teams take turns: each plays a card of some colour and ends the turn, now
and then checks the objective (most checks fail); late in the game the first player reaches it,
then their partner. A journal written from it resumes a long team game.
"""

from tablemate_host.dice import Dice
from tablemate.rules import perspective as rules


def record(players=4, seed=1, turns=120):
    """The actions of a recorded game of ``players`` (2-4), ended by a success after about
    ``turns`` turns."""
    state = rules.setup({"names": ["P%d" % (i + 1) for i in range(players)]})
    actions = []
    rnd = Dice(seed)

    def take(a):
        rules.apply(state, a)
        actions.append(a)
    take(["first", rnd(players), rules.COLOURS[rnd(4)]])
    while rules.result(state) is None:
        p = rules.turn(state)
        late = rules.turns(state) > turns
        if rnd(8) == 0 or late:
            take(["check", p, late and (p % 2 == 0)])  # the team of P1 and P3 wins at last
            continue
        take(["play", p, rules.COLOURS[rnd(4)]])
        take(["end", p])
    return actions
