"""Contrast at the table: the cards laid out in front of the players (dimmed on the grid, passed
over, a second OK to pick one anyway), skip and the count to three one key away on every layout,
who starts, and a result view read from across the table (score digits measured on the panel,
no winner cut off the winners line, who took a card from the box).

Games are started through ``lifecycle.start`` with the options the setup menu would give (the
setup menu has its own tests), then played with the device's buttons or knob.
"""

from conftest import NAMES, actions, dump, highlighted, hold
from test_contrast_ui import cell_xy, cells, cursor, dimmed, pick, turn_is

from tablemate import lifecycle
from tablemate.rules import contrast as rules
from tablemate.screens import contrast as screen
from tablemate.ui import text


def start(dev, players=5, names=None, **opts):
    """A new Contrast game on ``dev`` (at its home menu), as the setup menu starts one."""
    o = {"names": list(names or NAMES[:players]), "coop": players == 2, "expert": False}
    o.update(opts)
    lifecycle.start(dev.app, "contrast", o)
    dev.advance(100)
    return o


def play_round(dev, picks):
    """The round's picks (symbols, None = skip) through the screen's own action path: quick."""
    top = dev.app.top()
    for sym in picks:
        p = rules.turn(top.game.state)
        top.do(["skip", p] if sym is None else ["pick", p, sym])
    dev.advance(30)


# -- the cards in front of the players -------------------------------------------------------
def test_cards_laid_out_are_dimmed_passed_over_and_take_a_second_ok(make_device):
    dev = make_device()
    start(dev, 4)
    pick(dev, "blue")
    pick(dev, "heavy")
    pick(dev, "blue")
    pick(dev, "wide")
    dev.press("OK")  # round 2
    # Ann's blue card (blue and green) lies on the table: its column is dimmed.
    assert turn_is(dev, "Ann") and dimmed(dev) == ["blue", "green"], dump(dev)
    assert cursor(dev) == "red"
    dev.press("RIGHT")
    assert cursor(dev) == "heavy", "blue is passed over" + dump(dev)
    dev.presses("DOWN", "LEFT")
    assert cursor(dev) == "yellow", "green is passed over" + dump(dev)
    dev.press("LEFT")
    assert cursor(dev) == "round", dump(dev)
    pick(dev, "heavy")  # Bob laid heavy out: his suggestion is the first symbol he has
    assert turn_is(dev, "Bob") and dimmed(dev) == ["heavy", "light"] and cursor(dev) == "red", \
        dump(dev)
    pick(dev, "green")
    # Cy laid blue out: of heavy and green (a tie) only heavy is in his hand.
    assert turn_is(dev, "Cy") and cursor(dev) == "heavy" and dimmed(dev) == ["blue", "green"], \
        dump(dev)
    # Cy insists on blue (maybe round 1 was entered wrong): the menu lets the arrows reach it,
    # the first OK asks, the second picks.
    dev.press("BACK")
    dev.goto("Reach every symbol")
    dev.press("OK")
    dev.press("LEFT")
    assert cursor(dev) == "blue" and cells(dev)["blue"] == (True, True), dump(dev)
    dev.press("OK")
    assert dev.shows(screen.NOT_IN_HAND) and len(actions(dev)) == 6, dump(dev)
    dev.press("RIGHT")  # moving on drops the question
    assert not dev.shows(screen.NOT_IN_HAND) and cursor(dev) == "heavy", dump(dev)
    dev.press("LEFT")
    dev.press("OK")
    dev.press("OK")
    assert actions(dev)[-1] == ["pick", 2, "blue"] and turn_is(dev, "Dee"), dump(dev)
    assert not dev.shows(screen.NOT_IN_HAND), dump(dev)
    dev.press("RIGHT")  # Dee's pick: the arrows pass over her cards again
    assert cursor(dev) != "wide" and dimmed(dev) == ["wide", "narrow"], dump(dev)


def test_prev_next_reach_the_dimmed_symbols_last(make_device):
    dev = make_device(layout="three")
    start(dev, 3)
    play_round(dev, ["blue", "red", "red"])
    dev.press("OK")
    assert dimmed(dev) == ["blue", "green"] and cursor(dev) == "red", dump(dev)
    dev.press("DOWN")
    assert cursor(dev) == "heavy", dump(dev)
    dev.presses("UP", "UP", "UP")
    assert cursor(dev) == "blue", "PREV from the first symbol: the dimmed ones" + dump(dev)
    dev.press("OK")
    assert dev.shows(screen.NOT_IN_HAND), dump(dev)
    dev.press("OK")
    assert actions(dev)[-1] == ["pick", 0, "blue"], dump(dev)


def test_the_expert_row_keeps_three_cards_out(make_device):
    dev = make_device()
    start(dev, 3, expert=True)
    dev.press("OK")  # the reminder
    for picks in (["red"] * 3, ["blue"] * 3, ["heavy"] * 3):
        play_round(dev, picks)
        dev.press("OK")
    assert dimmed(dev) == ["red", "blue", "heavy", "yellow", "green", "light"], dump(dev)
    assert cursor(dev) == "wide", dump(dev)
    play_round(dev, ["wide"] * 3)
    dev.press("OK")
    assert dimmed(dev) == ["blue", "heavy", "wide", "green", "light", "narrow"], dump(dev)
    assert cursor(dev) == "red", dump(dev)


# -- one key away: skip and count to three ---------------------------------------------------
def _hold_keys(make_device, layout):
    dev = make_device(layout=layout)
    start(dev, 3)
    dev.press("DOWN")
    moved = cursor(dev)
    hold(dev, "UP", 900)  # held: the press moves the cursor, the hold takes it back and skips
    assert actions(dev) == [["skip", 0]] and turn_is(dev, "Bob"), dump(dev)
    assert cursor(dev) == "red", dump(dev)
    hold(dev, "DOWN", 900)
    assert dev.shows("Bob, choose!"), "the count to three" + dump(dev)
    dev.advance(3100)
    assert dev.shows("Time is up!"), dump(dev)
    dev.press("OK" if layout != "three" else "OK")
    assert actions(dev) == [["skip", 0], ["skip", 1]] and turn_is(dev, "Cy"), dump(dev)
    hold(dev, "UP", 500)  # too short: just a move
    assert len(actions(dev)) == 2 and cursor(dev) != "red", dump(dev)
    return moved


def test_hold_up_skips_and_hold_down_counts_on_six_buttons(make_device):
    assert _hold_keys(make_device, "six") == "yellow"


def test_hold_up_skips_and_hold_down_counts_on_five_buttons(make_device):
    assert _hold_keys(make_device, "five") == "yellow"


def test_hold_prev_skips_and_hold_next_counts_on_three_buttons(make_device):
    assert _hold_keys(make_device, "three") == "blue"  # NEXT walks the twelve


def test_the_knob_turns_to_skip_and_count_cells(make_device):
    dev = make_device(layout="encoder")
    start(dev, 3)
    assert cursor(dev) == "red"
    dev.turn(-1)  # anticlockwise from the first symbol: the count, then skip
    assert highlighted(dev, "Count to 3") and not [s for s in cells(dev) if cells(dev)[s][0]], \
        dump(dev)
    dev.turn(-1)
    assert highlighted(dev, "Skip Ann"), dump(dev)
    dev.press("OK")
    assert actions(dev) == [["skip", 0]] and turn_is(dev, "Bob"), dump(dev)
    dev.turn(-1)
    dev.press("OK")
    assert dev.shows("Bob, choose!"), dump(dev)
    dev.press("OK")  # chosen: the count stops
    dev.turn(+2)  # back past the end to the first symbol, then on
    assert cursor(dev) == "blue", dump(dev)
    dev.long_press("OK")  # the menu's entries stay
    assert dev.shows("Skip Bob") and dev.shows("Count to 3"), dump(dev)
    dev.press("OK")  # back to the game
    dev.long_press("OK")
    dev.turn(+2)  # past Undo
    dev.press("OK")  # "Skip Bob" from the menu: the tip says where the knob's cells are
    assert dev.shows(screen.TIP_KNOB) and actions(dev)[-1] == ["skip", 1], dump(dev)


# -- who starts ------------------------------------------------------------------------------
def test_the_first_player_enters_first_every_round(make_device):
    dev = make_device()
    start(dev, 4, first=2)
    assert dev.journal()[0]["opts"]["first"] == 2
    assert turn_is(dev, "Cy"), dump(dev)
    for name, sym in (("Cy", "red"), ("Dee", "red"), ("Ann", "blue"), ("Bob", "heavy")):
        assert turn_is(dev, name), dump(dev)
        pick(dev, sym)
    assert dev.shows("red won") and dev.shows("Cy, Dee"), dump(dev)
    dev.press("BACK")
    dev.choose("Undo")  # the round's last pick was Bob's
    assert turn_is(dev, "Bob") and cursor(dev) == "heavy", dump(dev)
    pick(dev, "heavy")
    dev.press("OK")
    assert turn_is(dev, "Cy") and dimmed(dev) == ["red", "yellow"], dump(dev)
    dev = make_device()  # resumed: still Cy first
    dev.press("OK")
    assert turn_is(dev, "Cy"), dump(dev)


# -- the result view from across the table ---------------------------------------------------
def _glyph_rows(dev, x0, x1, y0, y1):
    """The rows between y0 and y1 (exclusive) with a lit pixel in columns x0..x1-1."""
    px = dev.panel.pixels()
    return [y for y in range(y0, y1) if any(px[y][x0:x1])]


def test_score_digits_are_14_px_tall_to_four_players_and_12_for_five_or_six(make_device):
    for players in (2, 3, 4, 5, 6):
        dev = make_device()
        start(dev, players)
        a, b = rules.SYMBOLS[0], rules.SYMBOLS[1]
        for r in range(10):  # scores past 9: two digits (the 6-player deck has 5 left)
            picks = [a, a] if players == 2 else [a] * (players - 1) + [b]
            play_round(dev, picks)
            dev.press("OK")
            a, b = b, rules.SYMBOLS[(rules.SYMBOLS.index(b) + 1) % 12]
        play_round(dev, [a, a] if players == 2 else [a] * (players - 1) + [b])
        dev.advance(3000)  # any message gone
        scores = rules.piles(dev.app.top().game.state) if players == 2 else \
            rules.scores(dev.app.top().game.state)
        cols = players if players <= 4 else 3
        w = 128 // cols
        tall = []
        for i in range(players):
            x0 = (i % cols) * w
            if players <= 4:
                y0, font, need = 32, text.large()[1], 14
            else:
                y0, font, need = (24, 48)[i // 3], text.large()[0], 11
            rows = _glyph_rows(dev, x0, x0 + w, y0, y0 + 16)
            height = rows[-1] - rows[0] + 1
            tall.append(height)
            assert height >= need, (players, i, height, dump(dev))
            shown = "%d" % scores[i]
            x = x0 + w // 2 - text.ink_width(shown, font) // 2
            assert (x, y0) in dev.find_text(shown, font), (players, i, shown, dump(dev))
            assert set(rows) <= set(range(y0, y0 + 16))
        print("%d players: score digits %s px tall" % (players, tall))
        assert max(scores) >= 10, scores


def test_the_winners_line_never_cuts_off_a_winner(make_device):
    long = ["Hannelor", "Benedikt", "Clothild", "Dorothea", "Eberhard", "Fridolin"]
    dev = make_device(settings={"names": long})
    start(dev, 6, names=long)
    play_round(dev, ["red"] * 5 + ["blue"])
    line = screen.names_text(long, [0, 1, 2, 3, 4], 108)
    parts = line.split(",")
    assert len(parts) == 5 and text.width(line) <= 108 and line == "Han,Ben,Clo,Dor,Eb", line
    for name, part in zip(long, parts):
        assert name.startswith(part), (name, part)
    assert (20, 8) in dev.find_text(line), dump(dev)
    for i in range(5):  # and their cells are lit
        short = text.fit(long[i], 38)
        assert highlighted(dev, short), (short, dump(dev))
    # Five short names keep their full names.
    assert screen.names_text(NAMES, [0, 1, 2, 3, 4], 108) == "Ann,Bob,Cy,Dee,Eve"
    assert screen.names_text(NAMES, [0, 1, 3], 108) == "Ann, Bob, Dee"
    assert screen.names_text(long, [2, 5], 108, "From box: ") == "From box: Clot,Fri"
    assert screen.names_text(["Ann", "Ben", "Cleo", "Dev", "Eve"], range(5), 108) \
        == "Ann,Ben,Cl,Dev,Eve"  # two letters short: the one long name gives them up
    assert screen.names_text(long, [0, 1], 127, "Tie: ") == "Tie: Hannelor,Benedi."


def test_the_result_names_who_took_a_card_from_the_box(make_device):
    dev = make_device()
    start(dev, 3)
    play_round(dev, ["red", "blue", "heavy"])  # a tie: a card to the box, 47 left
    dev.press("OK")
    pair = (("red", "red", "blue"), ("blue", "blue", "red"))
    k = 0
    while rules.deck(dev.app.top().game.state) > 1:
        play_round(dev, pair[k % 2])
        k += 1
        dev.press("OK")
    play_round(dev, ["heavy", "heavy", "wide"])  # two winners, one card left
    assert rules.boxed(dev.app.top().game.state) == [1]
    assert dev.shows("Ann, Bob") and (20, 8) in dev.find_text("From box: Bob"), dump(dev)
    assert dev.shows("OK end"), dump(dev)
    dev.press("OK")
    assert dev.shows("Tie: Ann, Bob"), dump(dev)


def test_the_pick_view_reads_without_the_manual(make_device):
    dev = make_device()
    start(dev, 6)
    for i, name in enumerate(NAMES[:6]):
        assert turn_is(dev, name) and dev.shows("Round 1") and dev.shows("Deck 60"), dump(dev)
        pick(dev, rules.SYMBOLS[i % 2])
    assert cell_xy("red") == (3, 16)


def test_down_jumps_along_the_picks_so_far(make_device):
    dev = make_device()
    start(dev, 5)
    pick(dev, "wide")
    pick(dev, "red")
    pick(dev, "light")
    # Three symbols picked once: the cursor is on the latest; DOWN goes along the others,
    # latest first, and back round; UP is the other side of the card.
    assert turn_is(dev, "Dee") and cursor(dev) == "light", dump(dev)
    dev.press("DOWN")
    assert cursor(dev) == "red", dump(dev)
    dev.press("DOWN")
    assert cursor(dev) == "wide", dump(dev)
    dev.press("DOWN")
    assert cursor(dev) == "light", dump(dev)
    dev.press("UP")
    assert cursor(dev) == "heavy", dump(dev)
    dev.press("DOWN")  # from a symbol nobody picked: to the most picked
    assert cursor(dev) == "light", dump(dev)
    dev.presses("DOWN", "DOWN")
    dev.press("OK")
    assert actions(dev)[-1] == ["pick", 3, "wide"], dump(dev)
    # Now wide has two picks: the cursor starts there, DOWN goes to the latest of the rest.
    assert cursor(dev) == "wide", dump(dev)
    dev.press("DOWN")
    assert cursor(dev) == "light", dump(dev)
