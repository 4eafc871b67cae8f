"""Contrast's pick grid: where the cursor goes, and the key presses of a round searched over every
spread of picks (a proof by search of the worst case; the scenario test plays the worst spreads
on the device)."""

import contrast_search as search
from tablemate import keys as K
from tablemate.rules import contrast as c
from tablemate.screens import contrast as screen

S = c.SYMBOLS
UP, DOWN, LEFT, RIGHT = K.UP, K.DOWN, K.LEFT, K.RIGHT


def _i(sym):
    return S.index(sym)


def _new(n=5, expert=False):
    return c.setup({"names": ["P%d" % (i + 1) for i in range(n)], "expert": expert})


def _round(state, picks):
    for i in range(len(picks)):
        c.apply(state, ["pick", c.turn(state), picks[i]])


def test_arrows_move_in_reading_order_and_jump_rows():
    assert screen.step(_i("red"), RIGHT) == _i("blue")
    assert screen.step(_i("round"), RIGHT) == _i("yellow")  # on into the other row
    assert screen.step(_i("red"), LEFT) == _i("square")
    assert screen.step(_i("yellow"), LEFT) == _i("round")
    for a in range(12):
        assert screen.step(a, UP) == screen.step(a, DOWN) == (a + 6) % 12


def test_arrows_pass_over_symbols_not_in_hand():
    out = screen.mask(["blue", "heavy", "green"])
    assert screen.step(_i("red"), RIGHT, out) == _i("wide")
    assert screen.step(_i("wide"), LEFT, out) == _i("red")
    # UP and DOWN go straight to the other row: the only way a dimmed symbol can be reached
    # with the arrows (for a pick the device believes impossible, see the second OK).
    assert screen.step(_i("blue"), DOWN, out) == _i("green")
    assert screen.step(_i("light"), UP, out) == _i("heavy")
    assert screen.first_in_hand(out) == _i("red")
    assert screen.first_in_hand(screen.mask(["red", "blue"])) == _i("heavy")
    assert screen.mask([]) == 0 and screen.mask(["red", "square"]) == 1 | 1 << 11


def test_prev_next_and_the_knob_walk_every_cell():
    out = screen.mask(["blue", "square"])
    walk = [_i("red")]
    for _ in range(12):
        walk.append(screen.step(walk[-1], DOWN, out, walk=True))
    # The symbols in hand in reading order, then the dimmed ones, round again.
    assert [S[i] for i in walk] == ["red", "heavy", "wide", "big", "round", "yellow", "green",
                                    "light", "narrow", "small", "blue", "square", "red"]
    assert screen.step(_i("red"), UP, out, walk=True) == _i("square")
    # The knob has two more cells after them: skip, then count to three.
    assert screen.step(_i("square"), DOWN, out, True, 14) == screen.SKIP
    assert screen.step(screen.SKIP, DOWN, out, True, 14) == screen.COUNT
    assert screen.step(screen.COUNT, DOWN, out, True, 14) == _i("red")
    assert screen.step(_i("red"), UP, out, True, 14) == screen.COUNT


def test_no_symbol_is_more_than_three_arrows_away():
    """And at most five cells are within one press of any cell (the cell and its four arrows):
    the fact behind the floor of 13 presses in the docs (docs/rules/contrast.md)."""
    paths = search.paths(0)
    far = [max(len(paths[a][b]) for b in range(12)) for a in range(12)]
    assert far == [3] * 12, far
    for a in range(12):
        assert sum(1 for b in range(12) if len(paths[a][b]) <= 1) <= 5


def test_the_cursor_starts_on_a_symbol_the_player_has():
    s = _new(5)
    assert search.cursor(s) == _i("red")
    _round(s, ["red", "red", "blue", "red", "green"])
    assert search.cursor(s) == _i("blue")  # P1 laid red out
    c.apply(s, ["pick", 0, "heavy"])
    assert search.cursor(s) == _i("heavy")
    c.apply(s, ["pick", 1, "blue"])
    assert search.cursor(s) == _i("heavy")  # the tie's latest, blue, is P3's own last card


def test_the_hand_cycle_saves_arrows():
    s = _new(5)
    assert search.presses(s, ["heavy"] * 3 + ["wide", "green"]) == 11
    _round(s, ["blue"] * 3 + ["red", "red"])
    # Round 2: P1-P3 no longer hold the blue/green card, so the cursor goes from red straight
    # to heavy.
    assert search.presses(s, ["heavy"] * 3 + ["wide", "green"]) == 10


def test_the_worst_round_of_five_where_three_agree():
    """Every spread of a 5-player round where three agree (13,200 with the other two differing,
    1,320 with them agreeing), from a fresh game, where the device knows no player's cards on
    the table yet: at most 17 presses (15 when the other two agree too), counting the OK that
    leaves the result; before the hand cycle, the reading-order grid and DOWN's jumps along the
    picks, 21 and 26."""
    s = _new(5)
    (most, spreads, n), (most2, spreads2, n2) = search.worst(s)
    assert n == 13200 and n2 == 1320
    assert most == 17 and most2 == 15, (most, most2)
    assert ["wide", "red", "light", "wide", "wide"] in spreads
    assert ["wide", "red", "wide", "red", "wide"] in spreads2
    for seq in spreads[:3] + spreads2[:3]:
        assert search.presses(s, seq) == (most if seq in spreads else most2)


def test_the_worst_round_once_every_hand_is_known():
    """From the third round on, each player has two cards on the table (four symbols out, the
    eight of the hand left): no symbol is more than two arrows away, and no spread of a round
    where three agree takes more than 13 presses: 12 for the five picks, and the OK that
    leaves the result (docs/rules/contrast.md has why 12 is the floor)."""
    s = _new(5)
    _round(s, ["red", "blue", "heavy", "wide", "big"])
    _round(s, ["round", "red", "blue", "heavy", "wide"])
    (most, spreads, n), (most2, _, n2) = search.worst(s)
    assert most == 13 and most2 == 12, (most, most2)
    assert n == 1288 and n2 == 120  # only the symbols in hand are spreads
    assert ["wide", "round", "red", "round", "round"] in spreads
    for p in range(5):
        out = screen.mask(c.unavailable(s, p))
        paths = search.paths(out)  # without DOWN's jumps (nothing picked yet)
        far = max(len(paths[a][b]) for a in range(12) for b in range(12)
                  if not (out >> a | out >> b) & 1)
        assert far == 2, (p, far)
