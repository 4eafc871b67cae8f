"""Recorded games of The Perfect Moment, for the benchmarks and the emulated Pico's scripts.

Two players take turns: now and then an item's action moves a card to or from the deck, most
turns score a card (the plan, the Paradox, or a fragment when one lies on the table, matched
with one item or both), and every turn ends with one press. Each action carries both clocks as
a time bank with an increment would show them, so a journal written from a recorded game resumes
with the times of its last action. ``press_budget`` enters a recorded game through the real
app's buttons and counts the presses.
"""

from tablemate_host.dice import Dice
from tablemate.rules import perfect_moment as rules


class Table:
    """A seeded game: ``state`` (the rules'), ``actions`` so far."""

    def __init__(self, seed=1, names=("Ann", "Bob"), clocks=True):
        self.rnd = Dice(seed)
        self.state = rules.setup({"names": list(names), "clock": "bank" if clocks else "off"})
        self.actions = []
        self.take(["first", self.rnd(2)])

    def take(self, action):
        """Apply ``action`` (without its clocks: this adds them, some seconds later)."""
        times = rules.clocks(self.state)
        if times is not None:
            times = list(times)
            p = max(0, rules.turn(self.state))
            times[p] = max(0, times[p] - 1000 * (2 + self.rnd(20)))
            if action[0] == "end":
                times[p] += rules.clock(self.state)[2]
        action = action + [times]
        rules.apply(self.state, action)
        self.actions.append(action)

    def next_action(self):
        """The next action at this table, without its clocks (None once the game is over)."""
        state = self.state
        if rules.result(state) is not None:
            return None
        p = rules.turn(state)
        if not rules.scored(state):
            roll = self.rnd(10)
            if roll == 0 and rules.deck(state):
                return ["deck", -1 if self.rnd(2) else 1]
            if roll < 8:
                frags = rules.fragments(state)
                owners = [o for o in (1 - p, p) if frags[o]]
                if owners and self.rnd(3) == 0:
                    return ["score", p, "frag%d" % owners[0], 2 + self.rnd(2)]
                return ["score", p, ("plan", "paradox")[self.rnd(2)], 1 + self.rnd(3)]
        return ["end", p]

    def play(self, limit=400):
        a = self.next_action()
        while a is not None and len(self.actions) < limit:
            self.take(a)
            a = self.next_action()
        return self


def record(seed=1, clocks=True):
    """A whole recorded game: its actions (clocks included) and final state."""
    t = Table(seed, clocks=clocks).play()
    return t.actions, t.state


# -- the key-press budget, through the real app ---------------------------------------------------
def score_keys(rows, what, pts):
    """The fewest keys from the table to score ``what`` for ``pts`` (the score list opens on the
    plan with UP, on the Paradox with DOWN; rows wrap; the points start on 2 and wrap)."""
    target = [r[0] for r in rows].index(what)  # rows as ``choices`` gives them (six buttons)
    n = len(rows)
    best = None
    for opener, start in (("UP", 0), ("DOWN", 1)):
        down = (target - start) % n
        moves = ["DOWN"] * down if down <= n - down else ["UP"] * (n - down)
        span = 2 if what[:4] == "frag" else 3  # a fragment: 2 or 3 points
        right = (pts - 2) % span
        left = (2 - pts) % span
        points = ["RIGHT"] * right if right <= left else ["LEFT"] * left
        keys = [opener] + moves + points + ["OK"]
        if best is None or len(keys) < len(best):
            best = keys
    return best


def press_budget(seed=3, root=None):
    """(the most presses for one score, their average, presses per turn end, scores counted,
    actions) over a recorded game (no clocks) entered through the app's buttons on the host."""
    import os
    import tempfile
    from tablemate.screens import perfect_moment as screen
    from tablemate_host.device import Device
    table = Table(seed, clocks=False).play()
    root = root or tempfile.mkdtemp(prefix="tablemate-pm-")
    os.makedirs(os.path.join(root, "data"), exist_ok=True)
    dev = Device(root, settings={"names": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus",
                                          "Hal"]})
    dev.choose("Perfect Moment")
    dev.goto("Clock: time bank")
    dev.press("LEFT")  # off: the presses do not depend on the clocks
    dev.choose("Start")
    dev.advance(300)
    scores = []
    ends = []
    for action in table.actions:
        if action[0] == "first":
            keys = ["LEFT" if action[1] == 0 else "RIGHT"]
        elif action[0] == "score":
            keys = score_keys(screen.choices(dev.app.game.state), action[2], action[3])
            scores.append(len(keys))
        elif action[0] == "end":
            keys = ["OK"]
            ends.append(1)
        else:  # deck
            keys = ["RIGHT" if action[1] > 0 else "LEFT"]
        for key in keys:
            dev.press(key)
            dev.advance(150)
        assert dev.app.game.state == table_state(table, action), action
    return max(scores), sum(scores) / float(len(scores)), sum(ends) / float(len(ends)), \
        len(scores), len(table.actions)


def table_state(table, action):
    """The recorded state right after ``action`` (replayed from the start)."""
    state = rules.setup({"names": ["Ann", "Bob"], "clock": "off"})
    for a in table.actions:
        rules.apply(state, a)
        if a is action:
            return state
    raise ValueError(action)
