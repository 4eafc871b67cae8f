"""Key presses of a Contrast round on the six-button layout, searched over every spread of picks.

The model is the firmware itself: the rules (``suggest``, ``unavailable``) say where the cursor
starts for each player, ``screens.contrast.step`` where each arrow takes it, and a breadth-first
search over ``step`` how many arrows a player needs from there to their symbol. A round's
presses are, for each of its picks, the arrows to the symbol and OK, then the OK that leaves
the round's result view. Used by ``test_contrast_cursor.py`` (both VMs) and by the scenario test
that plays the worst spreads found on the device.
"""

from tablemate import keys as K
from tablemate.rules import contrast as rules
from tablemate.screens import contrast as screen

ARROWS = (K.UP, K.DOWN, K.LEFT, K.RIGHT)
_PATHS = {}  # (unavailable bits, ranked) -> paths[a][b]: the arrows from cell a to cell b


def ranked(state):
    """The cells DOWN jumps along for the player to pick (``rules.ranked``)."""
    return tuple(rules.SYMBOLS.index(s) for s in rules.ranked(state))


def paths(out=0, jumps=()):
    """paths[a][b]: a shortest list of arrows from cell ``a`` to cell ``b`` (the cursor passing
    over the cells whose bit is set in ``out``, DOWN jumping along ``jumps``); None where ``b``
    cannot be reached."""
    got = _PATHS.get((out, jumps))
    if got is None:
        got = []
        for a in range(12):
            row = [None] * 12
            row[a] = []
            todo = [a]
            while todo:
                c = todo.pop(0)
                for key in ARROWS:
                    d = screen.step(c, key, out, False, 12, jumps)
                    if row[d] is None:
                        row[d] = row[c] + [key]
                        todo.append(d)
            got.append(row)
        _PATHS[(out, jumps)] = got
    return got


def cursor(state):
    """The cell the pick view puts the cursor on for the player to pick (as the screen does)."""
    s = rules.suggest(state)
    if s is not None:
        return rules.SYMBOLS.index(s)
    return screen.first_in_hand(screen.mask(rules.unavailable(state, rules.turn(state))))


def presses(state, picks):
    """Presses to enter ``picks`` (symbols, in entry order) from ``state`` at a round's start,
    then leave the result view: arrows + OK per pick, and one OK. ``state`` is not changed."""
    s = _copy(state)
    n = 1
    for sym in picks:
        p = rules.turn(s)
        out = screen.mask(rules.unavailable(s, p))
        n += len(paths(out, ranked(s))[cursor(s)][rules.SYMBOLS.index(sym)]) + 1
        rules.apply(s, ["pick", p, sym])
    return n


def _copy(state):
    s = dict(state)
    s["picks"] = list(state["picks"])
    s["rows"] = [list(r) for r in state.get("rows") or [[] for _ in state["names"]]]
    for key in ("cards", "piles"):
        s[key] = list(state[key])
    return s


def _fits(counts):
    """Can this round's counts so far still end as three agreeing picks and two others (3-1-1,
    or 3-2 when the two others agree)?"""
    vals = sorted((v for v in counts if v), reverse=True)
    for pattern in ((3, 1, 1), (3, 2)):
        if len(vals) <= len(pattern) and all(vals[i] <= pattern[i] for i in range(len(vals))):
            return True
    return False


def worst(state):
    """Over every round of five picks from ``state`` in which three players agree, each player
    picking only symbols the device thinks they have: ((most presses, the spreads that take
    them, how many spreads) when the other two picks differ (3-1-1), and the same when they
    agree (3-2))."""
    best = ([0, [], 0], [0, [], 0])
    _search(state, [0] * 12, [], 0, best)
    return tuple(tuple(b) for b in best)


def _search(state, counts, seq, n, best):
    """Depth first over the picks: the cursor of each node is worked out once for all the
    spreads below it."""
    p = rules.turn(state)
    out = screen.mask(rules.unavailable(state, p))
    cur = cursor(state)
    dist = paths(out, ranked(state))[cur]
    last = len(seq) == 4
    for i in range(12):
        if out >> i & 1:
            continue
        counts[i] += 1
        if _fits(counts):
            m = n + len(dist[i]) + 1
            sym = rules.SYMBOLS[i]
            if last:
                m += 1  # the OK that leaves the round's result
                b = best[1 if 2 in counts else 0]
                b[2] += 1
                if m > b[0]:
                    b[0] = m
                    b[1] = []
                if m == b[0]:
                    b[1].append(seq + [sym])
            else:
                s = dict(state)
                s["picks"] = list(state["picks"])
                rules.apply(s, ["pick", p, sym])  # no round settles before the fifth pick
                _search(s, counts, seq + [sym], m, best)
        counts[i] -= 1
