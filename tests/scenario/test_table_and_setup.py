"""At the table: scores readable from across it, who starts, setups remembered, and a player
renamed from the setup.

Heights are measured on the virtual display: the ink of each player's score, in the two pages
below their name, as a person would see it (dark digits on a lit cell count as ink too).
"""

import json
import os

from conftest import (NAMES, actions, choose, cursor_at, dump, goto, header, highlighted,
                      menu_row, new_scorepad, table_cell, turn_of)


def _score_ink_height(dev, n, i):
    """Rows from the top to the bottom of player ``i``'s score digits, on the panel."""
    x, page, w = table_cell(n, i)
    px = dev.panel.pixels()
    top = (page + 1) * 8
    background = px[top][x]  # a lit cell's background is lit
    rows = [y for y in range(top, top + 16)
            if any(px[y][c] != background for c in range(x + 1, x + w - 1))]
    return rows[-1] - rows[0] + 1 if rows else 0


def test_scores_are_14_px_tall_up_to_four_players_and_11_px_beyond(tmp_path):
    from tablemate_host.device import Device
    for n in range(1, 9):
        dev = Device(str(tmp_path / str(n)), settings={"names": NAMES})
        new_scorepad(dev, players=n)
        for _ in range(n):  # every player scores 8, the tallest digit
            dev.presses(*["RIGHT"] * 8)
            dev.press("OK")
        dev.advance(200)
        for i in range(n):
            h = _score_ink_height(dev, n, i)
            assert h >= (14 if n <= 4 else 11), (n, i, h, dump(dev))


def test_the_win_row_shows_only_with_a_target(make_device):
    """Win "end of round" or "at once" means nothing without a target: its row comes with one
    (the setup's ``rules.unused``, issue 32)."""
    dev = make_device()
    choose(dev, "Scorepad")
    goto(dev, "Target: none")
    assert not dev.shows("Win:"), dump(dev)
    dev.press("RIGHT")
    assert menu_row(dev, "Target: 5") and dev.shows("Win: end of round"), dump(dev)
    dev.press("LEFT")
    assert menu_row(dev, "Target: none") and not dev.shows("Win:"), dump(dev)


def test_perspectives_advanced_row_shows_for_two_players_only(make_device):
    """"Advanced (2)" is a game for two: with four seated its row is not there (switched on,
    it refused the Start), and a value set with two does not follow a table of four."""
    dev = make_device()
    choose(dev, "Perspective")  # it opens at four players
    assert menu_row(dev, "Players: 4") and not dev.shows("Advanced"), dump(dev)
    dev.presses("LEFT", "LEFT")
    assert menu_row(dev, "Players: 2") and dev.shows("Advanced (2): off"), dump(dev)
    goto(dev, "Advanced (2): off")
    dev.press("RIGHT")
    assert menu_row(dev, "Advanced (2): on"), dump(dev)
    goto(dev, "Players: 2", "UP")
    dev.presses("RIGHT", "RIGHT")
    assert menu_row(dev, "Players: 4") and not dev.shows("Advanced"), dump(dev)
    choose(dev, "Start")
    assert header(dev)["opts"]["advanced"] is False and dev.app.game.state["kind"] == "teams"


def test_the_first_player_is_chosen_at_the_setup_and_kept_by_the_journal(make_device):
    dev = make_device()
    choose(dev, "Scorepad")
    goto(dev, "Players: 2")
    dev.press("RIGHT")  # three players
    goto(dev, "1st player: Ann")
    dev.press("RIGHT")
    assert highlighted(dev, "1st player: Bob"), dump(dev)
    choose(dev, "Start")
    assert header(dev)["opts"]["first"] == 1
    assert turn_of(dev, "Bob") and cursor_at(dev, "Bob") and not turn_of(dev, "Ann"), dump(dev)

    dev = make_device()  # a power cut: the resumed game still started with Bob
    dev.press("OK")
    assert turn_of(dev, "Bob"), dump(dev)


def test_a_random_first_player_is_drawn_once(make_device):
    dev = make_device()
    choose(dev, "Contrast")
    goto(dev, "1st player: Ann")
    dev.press("LEFT")
    assert highlighted(dev, "1st player: random"), dump(dev)
    choose(dev, "Start")
    first = header(dev)["opts"]["first"]
    assert 0 <= first < 4
    dev = make_device()
    dev.press("OK")
    assert dev.app.top().game.opts["first"] == first


def test_rotation_moves_the_first_seat_each_round_and_each_new_game(make_device):
    dev = make_device()
    choose(dev, "Scorepad")
    goto(dev, "Players: 2")
    dev.press("RIGHT")
    goto(dev, "Rotate start: off")
    dev.press("OK")
    choose(dev, "Start")
    dev.presses("OK", "OK", "OK")  # Ann, Bob and Cy have played round 1
    assert dev.shows("Round 2") and turn_of(dev, "Bob"), "round 2 opens one seat on" + dump(dev)
    dev.presses("OK", "OK", "OK")
    assert dev.shows("Round 3") and turn_of(dev, "Cy"), dump(dev)
    dev.press("BACK")
    choose(dev, "New game")
    dev.press("OK")  # yes, again with the same players
    assert dev.shows("Round 1") and turn_of(dev, "Bob"), "the next game opens one seat on" + dump(dev)


def test_who_plays_is_ticked_from_the_saved_names(make_device):
    dev = make_device()
    choose(dev, "Scorepad")
    choose(dev, "Names: Ann Bob")
    assert dev.shows("Who plays?"), dump(dev)
    choose(dev, "\x04 Ann")  # untick Ann
    choose(dev, "  Dee")  # tick Dee
    assert dev.shows("\x04 Bob") and dev.shows("\x04 Dee") and dev.shows("  Ann"), dump(dev)
    choose(dev, "Done")
    assert highlighted(dev, "Names: Bob Dee"), dump(dev)
    assert dev.shows("Players: 2"), dump(dev)
    choose(dev, "Start")
    assert header(dev)["opts"]["names"] == ["Bob", "Dee"]


def test_a_player_is_renamed_from_the_setup_and_the_setup_is_kept(make_device, root):
    """Renaming was only in the settings, and leaving the setup for them lost "4 players,
    target 50": the setup's Who plays? list names a player, and the setup is as it was."""
    from test_names import Typist, plan
    dev = make_device()
    choose(dev, "Scorepad")
    setup = dev.app.top()
    dev.presses("RIGHT", "RIGHT")  # 4 players
    goto(dev, "Target: none")
    while setup.values[0] != 50:
        dev.press("RIGHT")
    dev.press("UP")  # the names row (four names are 125 px: their initials)
    assert highlighted(dev, "Names: A B C D"), dump(dev)
    dev.press("OK")
    choose(dev, "Rename a player")
    assert dev.shows("Rename which?"), dump(dev)
    choose(dev, "Bob")
    assert dev.shows("Player 2: "), dump(dev)
    typist = Typist(dev, "six")
    typist.keys(*plan("six", "Zoe"))  # the last OK held: typed and saved
    assert dev.shows("Who plays?") and menu_row(dev, "Done"), "back in the list" + dump(dev)
    goto(dev, "\x04 Zoe", key="UP")  # ticked, as Bob was
    choose(dev, "Done")
    assert highlighted(dev, "Names: A Z C D"), dump(dev)
    assert dev.shows("Players: 4") and dev.shows("Target: 50"), "every choice kept" + dump(dev)
    with open(os.path.join(root, "data", "settings.json")) as f:
        assert json.load(f)["names"][:4] == ["Ann", "Zoe", "Cy", "Dee"]
    choose(dev, "Start")
    opts = header(dev)["opts"]
    assert opts["names"] == ["Ann", "Zoe", "Cy", "Dee"] and opts["target"] == 50, opts


def test_each_mode_opens_its_setup_as_it_was_last_started(make_device):
    dev = make_device()
    choose(dev, "Contrast")
    goto(dev, "Players: 4")
    dev.press("LEFT")  # three players
    goto(dev, "Expert: off")
    dev.press("OK")
    goto(dev, "1st player: Ann")
    dev.press("RIGHT")
    choose(dev, "Start")
    assert header(dev)["opts"] == {"names": NAMES[:3], "first": 1, "expert": True, "coop": False}
    dev.press("OK")  # the expert reminder
    dev.press("BACK")
    choose(dev, "Home")

    dev = make_device()  # even after a power cut
    dev.press("RIGHT")  # "Resume game?" No
    dev.press("OK")
    choose(dev, "Contrast")
    for row in ("Players: 3", "Names: Ann Bob Cy", "Expert: on", "1st player: Bob"):
        goto(dev, row)
    dev.press("BACK")
    choose(dev, "Scorepad")  # another mode keeps its own defaults
    goto(dev, "Players: 2")
    assert actions(dev) == []


def test_an_unreadable_setups_file_is_reported_and_kept_aside(make_device, root):
    import os
    data = os.path.join(root, "data")
    os.makedirs(data, exist_ok=True)
    with open(os.path.join(data, "setups.json"), "w") as f:
        f.write('{"scorepad": {"seats": [0, 1')  # cut off
    dev = make_device()
    choose(dev, "Scorepad")
    assert dev.shows("Saved setups") and dev.shows("unreadable"), dump(dev)
    dev.press("OK")
    assert dev.shows("New Scorepad") and dev.shows("Players: 2"), dump(dev)
    assert os.path.exists(os.path.join(data, "setups.json.bad"))
    choose(dev, "Start")
    dev.advance(100)
    import json
    with open(os.path.join(data, "setups.json")) as f:
        assert json.load(f)["scorepad"]["seats"] == [0, 1]
