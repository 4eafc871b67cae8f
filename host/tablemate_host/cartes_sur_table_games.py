"""Recorded games of Cartes sur Table, for the benchmarks and the emulated Pico's scripts.

Votes agree more often than not (the table reads the Patient alike): for each Patient one card
is the table's favourite and each player votes for it two times in three, else for any card. A
tie is settled by the Patient on the first tied card. ``press_budget`` enters a recorded game's
open votes through the real app's buttons and counts the presses per Patient.
"""

from tablemate_host.dice import Dice
from tablemate.rules import cartes_sur_table as rules


class Table:
    """A seeded game: ``state`` (the rules'), ``actions`` so far."""

    def __init__(self, players, seed=1, names=None, secret=False):
        self.rnd = Dice(seed)
        names = names or ["P%d" % (i + 1) for i in range(players)]
        self.state = rules.setup({"names": names, "secret": secret})
        self.actions = []
        self.favourite = None

    def next_actions(self):
        """The next actions (a secret ballot's seals come with their reveal), or None."""
        state = self.state
        if rules.result(state) is not None:
            return None
        if rules.tie(state):
            return [["tiebreak", rules.tie(state)[0]]]
        m = rules.cards(state)
        if self.favourite is None:
            self.favourite = 1 + self.rnd(m)
        n = len(rules.names(state))
        votes = [self.favourite if self.rnd(3) else 1 + self.rnd(m) for _ in range(n)]
        self.favourite = None
        if rules.secret(state):
            return [["seal", p, self.rnd(1 << 30)] for p in range(n)] + [["reveal", votes]]
        return [["vote", p, votes[p]] for p in range(n)]

    def play(self):
        got = self.next_actions()
        while got is not None:
            for a in got:
                rules.apply(self.state, a)
                self.actions.append(a)
            got = self.next_actions()
        return self


def _path(screen, start, goal, m):
    """The fewest keys from card ``start`` to ``goal`` (``screen.step``), breadth first."""
    from tablemate import keys as K
    seen = {start: []}
    todo = [start]
    while goal not in seen:
        nxt = []
        for at in todo:
            for name, key in (("LEFT", K.LEFT), ("RIGHT", K.RIGHT), ("UP", K.UP),
                              ("DOWN", K.DOWN)):
                to = screen.step(at, key, m)
                if to not in seen:
                    seen[to] = seen[at] + [name]
                    nxt.append(to)
        todo = nxt
    return seen[goal]


def press_budget(players=5, seed=1, root=None):
    """(the most presses for one Patient's votes, their average, Patients) over a recorded
    open-ballot game entered through the app's buttons on the host (the fewest presses: the
    cursor starts on the most-voted card so far; the arrows go round the cards)."""
    import os
    import tempfile
    from tablemate.screens import cartes_sur_table as screen
    from tablemate_host.device import Device
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    table = Table(players, seed, names[:players]).play()
    root = root or tempfile.mkdtemp(prefix="tablemate-cst-")
    os.makedirs(os.path.join(root, "data"), exist_ok=True)
    dev = Device(root, settings={"names": names})
    dev.choose("Cartes sur Table")
    dev.goto("Players: 5")
    for _ in range(abs(players - 5)):
        dev.press("RIGHT" if players > 5 else "LEFT")
    dev.choose("Start")
    dev.advance(300)
    per_patient = []
    count = 0
    for action in table.actions:
        state = dev.app.game.state
        if action[0] == "vote":
            keys = _path(screen, screen.suggest(state), action[2], rules.cards(state)) + ["OK"]
            count += len(keys)
        else:  # a tie-break: the cursor starts on the first tied card
            keys = ["OK"]
        for key in keys:
            dev.press(key)
            dev.advance(60)
        if rules.votes(dev.app.game.state) == [None] * players and not rules.tie(
                dev.app.game.state):
            per_patient.append(count)
            count = 0
            if rules.result(dev.app.game.state) is None:
                dev.press("OK")  # from the result to the next Patient
                dev.advance(60)
    assert dev.app.game.state == table.state
    return max(per_patient), sum(per_patient) / float(len(per_patient)), len(per_patient)
