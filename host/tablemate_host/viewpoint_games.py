"""Recorded Viewpoint games: a simulated table with real, hidden hands, for benchmarks and scripts.

The device never sees a hand, so a recorded game needs a table that does: a seeded shuffle of the
42 cards, five dealt to each player, and players who play a card they actually hold. Their
answers follow what players do at a table most of the time (attack the leader, steal from the
fullest hand, swap away the worst card: the screen's own suggestion) and something else the rest
of the time. The firmware's rules keep the score; this module only keeps the hands in step with
what the rules' log says happened, so every action it yields is one the rules accept.
"""

from tablemate_host.dice import Dice
from tablemate.rules import viewpoint as rules
from tablemate.screens import viewpoint as screen


class Table:
    """A seeded game: ``state`` (the rules'), the hidden ``hands`` and ``pile``, ``actions``."""

    def __init__(self, players, seed=1, names=None, smart=70):
        self.rnd = Dice(seed)
        self.smart = smart  # percent of answers that are the screen's suggestion
        names = names or ["P%d" % (i + 1) for i in range(players)]
        self.state = rules.setup({"names": names})
        deck = []
        for c in range(len(rules.CARDS)):
            deck += [c] * rules.CARDS[c][2]
        for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates on our own generator
            j = self.rnd(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        self.hands = [deck[5 * p:5 * p + 5] for p in range(players)]
        self.pile = deck[5 * players:]
        self.hands[0].append(self.pile.pop())  # the first player's draw, done by setup
        self.events = rules.events(self.state)
        self.actions = []

    def next_action(self):
        """The next action a player at this table takes (None once the game is over)."""
        state = self.state
        if rules.result(state) is not None:
            return None
        got = rules.prompt(state)
        if got is None:
            p = rules.turn(state)
            hand = self.hands[p]
            return ["play", p, hand[self.rnd(len(hand))]]
        by, want = got[0], got[1]
        aim = rules.AIMS[want]
        if aim == "go":
            return ["go", by]
        pick = self.rnd(100) < self.smart
        if aim == "swap":
            mine = screen.own_cards(state, by)
            c = mine[0] if pick else mine[self.rnd(len(mine))]
            theirs = rules.choices(state)
            t = theirs[screen.suggest(state)] if pick else theirs[self.rnd(len(theirs))]
            return ["swap", by, c, t[0], t[1]]
        choices = rules.choices(state)
        k = choices[screen.suggest(state)] if pick else choices[self.rnd(len(choices))]
        return ["target", by, k] if aim == "target" else ["card", by, k[0], k[1]]

    def take(self, action):
        """Apply ``action`` to the rules and move the hidden cards as its log says."""
        rules.apply(self.state, action)
        self.actions.append(action)
        self.follow()

    def follow(self):
        state = self.state
        log = rules.log(state)
        new = rules.events(state) - self.events
        for ev in log[len(log) - new:] if new else ():
            self._event(ev)
        self.events = rules.events(state)
        if len(self.pile) > rules.pile(state):  # the active player's draw as their turn began
            self.hands[rules.turn(state) if rules.turn(state) >= 0 else 0].append(self.pile.pop())
        assert [len(h) for h in self.hands] == rules.hands(state), (self.hands, state)

    def _event(self, ev):
        k, hands = ev[0], self.hands
        if k == "play":
            hands[ev[1]].remove(ev[2])
        elif k == "draw":
            for _ in range(ev[2]):
                hands[ev[1]].append(self.pile.pop())
        elif k in ("discard", "steal"):
            for _ in range(ev[3]):
                c = hands[ev[2]].pop(self.rnd(len(hands[ev[2]])))
                if k == "steal":
                    hands[ev[1]].append(c)
        elif k == "exchange":
            hands[ev[1]], hands[ev[2]] = hands[ev[2]], hands[ev[1]]
        elif k == "recall":
            hands[ev[1]].append(ev[3])


def record(players, seed=1, limit=2000):
    """A whole game at a table of ``players``: (the actions, the final state)."""
    t = Table(players, seed)
    while len(t.actions) < limit:
        a = t.next_action()
        if a is None:
            break
        t.take(a)
    return t.actions, t.state


# -- the key-press budget, through the real app -------------------------------------------------
_MOVES = (("UP", -1), ("DOWN", 1), ("LEFT", -screen._JUMP), ("RIGHT", screen._JUMP))
_STEPS = (("UP", -1), ("DOWN", 1))


def path(start, goal, size, moves=_MOVES):
    """The fewest keys from row ``start`` to row ``goal`` of a list of ``size`` rows (both ends
    wrap: UP/DOWN one row, LEFT/RIGHT six; on the table's player picker every key is one
    step, ``_STEPS``), breadth first."""
    seen = {start: []}
    todo = [start]
    while goal not in seen:
        nxt = []
        for at in todo:
            for key, d in moves:
                to = (at + d) % size
                if to not in seen:
                    seen[to] = seen[at] + [key]
                    nxt.append(to)
        todo = nxt
    return seen[goal]


def press_game(dev, actions, states):
    """Enter ``actions`` (a recorded game) on the Viewpoint screen of ``dev`` (a host Device
    with that game just started), with the fewest presses the screen allows. Returns, per card
    played, (presses for the card, presses for each answer it asked for); a swap's two steps
    count as two answers. Checks that after each action the game is as recorded (``states``)."""
    out = []
    for action, state in zip(actions, states):
        scr = dev.app.top()
        keys = []
        if action[0] == "play":
            order = scr.order  # the card list as the screen has it, the cursor on scr.best
            k = order.index(action[2])
            if k != scr.best:  # an arrow opens the list on scr.best, the next ones move
                keys = ["DOWN"] + path(scr.best, k, len(order))
            keys.append("OK")
            out.append([len(keys)])
        elif action[0] == "go":
            keys = ["OK"]
            out[-1].append(1)
        elif action[0] == "swap":
            first = path(scr.cur, scr.keys.index(action[2]), len(scr.keys)) + ["OK"]
            _press(dev, first)
            scr = dev.app.top()
            second = path(scr.cur, scr.keys.index([action[3], action[4]]), len(scr.keys))
            keys = second + ["OK"]
            out[-1] += [len(first), len(keys)]
        elif action[0] == "target":
            keys = path(scr.cur, scr.keys.index(action[2]), len(scr.keys), _STEPS) + ["OK"]
            out[-1].append(len(keys))
        else:
            want = [action[2], action[3]]
            keys = path(scr.cur, scr.keys.index(want), len(scr.keys)) + ["OK"]
            out[-1].append(len(keys))
        _press(dev, keys)
        assert dev.app.game.state == state, action
    return out


def _press(dev, keys):
    for key in keys:
        dev.press(key)
        dev.advance(40)


def press_budget(players=4, seed=3, root=None):
    """(averages {answers asked: presses per card played}, plays counted, actions, outcome)
    over a recorded game played through the buttons of the real app on the host."""
    import json
    import os
    import tempfile
    from tablemate_host.device import Device
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    table = Table(players, seed, names[:players])
    states = []
    action = table.next_action()
    while action is not None:
        table.take(action)
        states.append(json.loads(json.dumps(table.state)))
        action = table.next_action()
    root = root or tempfile.mkdtemp(prefix="tablemate-vp-")
    os.makedirs(os.path.join(root, "data"), exist_ok=True)
    dev = Device(root, settings={"names": names})
    dev.choose("Viewpoint")
    dev.goto("Players: 4")
    for _ in range(abs(players - 4)):
        dev.press("RIGHT" if players > 4 else "LEFT")
    dev.choose("Start")
    dev.advance(300)
    plays = press_game(dev, table.actions, states)
    groups = {}
    for p in plays:
        groups.setdefault(len(p) - 1, []).append(sum(p))
    avg = dict((k, sum(v) / float(len(v))) for k, v in groups.items())
    counts = dict((k, len(v)) for k, v in groups.items())
    return avg, counts, len(table.actions), rules.outcome(table.state)


def press_figures(seeds=range(1, 11), players=4):
    """Presses per card played over the recorded games of ``seeds``: {answers: (average,
    plays)} (0: a card that asks nothing, 1: one target, 2: a swap's two), over them all."""
    total = {}
    plays = {}
    for seed in seeds:
        avg, counts = press_budget(players, seed)[:2]
        for k in avg:
            total[k] = total.get(k, 0) + avg[k] * counts[k]
            plays[k] = plays.get(k, 0) + counts[k]
    return dict((k, (total[k] / plays[k], plays[k])) for k in total)
