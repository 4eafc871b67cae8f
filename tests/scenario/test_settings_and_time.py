"""The settings pages through the buttons, boot notices in order, and the 2**30 tick wrap."""

import json
import os

from conftest import (actions, choose, commit, dump, goto, highlighted, history, menu_row,
                      new_scorepad,
                      row_score)

WRAP = 1 << 30


def test_edit_a_name_and_brightness_then_play_with_it(make_device, root):
    dev = make_device(settings={"brightness": 3})
    from tablemate.app import CONTRAST
    choose(dev, "Settings")
    goto(dev, "Brightness: 3")
    dev.press("RIGHT")
    assert menu_row(dev, "Brightness: 4") and dev.panel.contrast == CONTRAST[3], dump(dev)
    choose(dev, "Player names")
    assert highlighted(dev, "Ann"), dump(dev)
    dev.press("OK")
    assert dev.shows("Player 1:"), dump(dev)
    # the name entry (tablemate/ui/names.py): the cursor rests on the check mark in the middle
    dev.presses("DOWN", "LEFT", "LEFT", "OK")  # B
    dev.presses("UP", "OK", "UP", "OK")  # n, n
    dev.press("OK")  # the check mark: save
    assert menu_row(dev, "Player names"), dump(dev)
    assert not os.path.exists(os.path.join(root, "settings.json.tmp"))
    dev.press("BACK")  # leaving the menu saves once
    with open(os.path.join(root, "data", "settings.json")) as f:
        saved = json.load(f)
    assert saved["names"][0] == "Bnn" and saved["brightness"] == 4
    new_scorepad(dev, players=3)
    assert dev.shows("Bnn") and not dev.shows("Ann"), dump(dev)

    dev = make_device(settings=None)  # the saved settings survive a reboot
    assert dev.panel.contrast == CONTRAST[3]
    dev.press("OK")  # resume
    assert dev.shows("Bnn"), dump(dev)


def test_settings_notice_comes_before_the_resume_question(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.press("RIGHT")
    commit(dev)
    with open(os.path.join(root, "data", "settings.json"), "wb") as f:
        f.write(b"\x00not json")
    dev = make_device(settings=None)
    assert dev.shows("unreadable") and not dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert row_score(dev, 0, 1) and dev.shows("Ann"), "the game keeps the names it started with" + dump(dev)


def test_a_won_game_cut_off_before_leaving_is_in_the_history_not_offered_again(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=3, target=5, stop=True)
    dev.presses(*["RIGHT"] * 5)
    commit(dev)
    assert dev.shows("Ann wins!"), dump(dev)
    assert [g["winners"] for g in history(root)] == [[0]], "filed the moment it was won"
    dev = make_device()  # the power is cut before anybody left the game
    assert dev.shows("Last game ended:") and dev.shows("Scorepad: Ann"), dump(dev)
    assert not dev.shows("Resume game?")
    dev.press("OK")
    assert dev.shows("Scorepad") and not dev.shows("Continue"), dump(dev)
    assert not os.path.exists(os.path.join(root, "data", "game.jnl"))
    assert len(history(root)) == 1


def test_everything_keeps_working_across_the_tick_wrap(make_device, root):
    dev = make_device(start_ms=WRAP - 3000, settings={"dim_s": 5, "off_min": 1})
    new_scorepad(dev, players=3)
    dev.advance(WRAP - dev.now - 500)  # half a second before the wrap
    dev.press("RIGHT")
    dev.press("RIGHT")
    commit(dev)  # the 1.5 s pending commit straddles the wrap
    assert dev.now < 10000, "the clock wrapped"
    assert actions(dev) == [["add", 0, 2]] and row_score(dev, 0, 2), dump(dev)
    from tablemate.app import CONTRAST
    dev.advance(5100)
    assert dev.panel.contrast < CONTRAST[2]
    dev.press("OK")  # a dimmed screen's key counts
    assert actions(dev)[-1] == ["next"]
