"""Five- and three-button builds play a scorepad round; the SH1106 option boots."""

from conftest import (actions, home_items, choose, commit, cursor_at, dump, goto, menu_row, row_score,
                      turn_of)

from tablemate_host import machine


def test_five_buttons_long_ok_is_back(make_device, root):
    dev = make_device(layout="five")
    choose(dev, "Scorepad")
    goto(dev, "Players: 2")
    dev.press("RIGHT")
    choose(dev, "Start")
    assert dev.shows("Round 1"), dump(dev)
    dev.presses("RIGHT", "RIGHT")
    dev.press("DOWN")
    assert actions(dev) == [["add", 0, 2]]
    dev.press("OK")  # a short OK: next turn (sent on release)
    assert actions(dev)[-1] == ["next"] and turn_of(dev, "Bob") and cursor_at(dev, "Bob"), dump(dev)

    dev.long_press("OK")  # long OK stands in for BACK
    assert dev.shows("Back to game") and dev.shows("Next round"), dump(dev)
    assert actions(dev)[-1] == ["next"], "the long press did not also pass the turn"
    choose(dev, "Next round")
    assert dev.shows("Round 2") and row_score(dev, 0, 2), dump(dev)
    assert actions(dev) == [["add", 0, 2], ["next"], ["round"]]

    dev.long_press("OK")
    choose(dev, "Undo")
    assert dev.shows("Round 1"), dump(dev)
    dev.long_press("OK")
    choose(dev, "Home")
    assert menu_row(dev, "Continue Scorepad"), dump(dev)


def test_three_buttons_play_through_the_menu(make_device, root):
    dev = make_device(layout="three")
    for key in ("LEFT", "RIGHT", "BACK"):  # not wired on this build: pressing them does nothing
        machine.world.drive(dev.pin(key), 0)
    dev.advance(500)
    for key in ("LEFT", "RIGHT", "BACK"):
        machine.world.drive(dev.pin(key), None)
    assert menu_row(dev, "Scorepad"), dump(dev)

    choose(dev, "Scorepad")
    choose(dev, "Players: 2")  # OK opens number entry
    assert dev.shows("Players") and dev.shows("2", font=_big()), dump(dev)
    dev.press("UP")  # PREV/NEXT change the value
    assert dev.shows("3", font=_big()), dump(dev)
    dev.press("OK")
    assert menu_row(dev, "Players: 3"), dump(dev)
    choose(dev, "Start")
    assert dev.shows("Round 1") and turn_of(dev, "Ann") and cursor_at(dev, "Ann"), dump(dev)

    # Adjust a score through the game menu's number entry.
    dev.press("DOWN")  # NEXT selects Bob
    assert cursor_at(dev, "Bob"), dump(dev)
    dev.long_press("OK")
    choose(dev, "Adjust score")
    assert dev.shows("Bob +/-"), dump(dev)
    dev.presses("UP", "UP", "UP", "UP", "UP", "UP", "UP", "DOWN")
    assert dev.shows("6", font=_big()), dump(dev)
    dev.press("OK")
    assert actions(dev) == [["add", 1, 6]]
    assert row_score(dev, 1, 6), dump(dev)

    dev.press("OK")  # next turn
    assert actions(dev)[-1] == ["next"]
    dev.long_press("OK")
    choose(dev, "Adjust score")
    dev.presses("DOWN", "DOWN")
    dev.press("OK")
    assert actions(dev)[-1] == ["add", 1, -2] and row_score(dev, 1, 4), dump(dev)

    dev.long_press("OK")
    choose(dev, "Next round")
    assert dev.shows("Round 2"), dump(dev)
    dev.long_press("OK")
    choose(dev, "Undo")
    assert dev.shows("Round 1") and row_score(dev, 1, 4), dump(dev)
    commit(dev)
    assert actions(dev)[-1] == ["undo"]


def test_sh1106_boots_to_the_home_screen(tmp_path):
    from tablemate_host.device import Device
    dev = Device(str(tmp_path), sh1106=True)
    assert dev.panel.sh1106 and dev.panel.lit
    assert dev.shows("Tablemate") and menu_row(dev, "Scorepad"), dump(dev)
    dev.press("DOWN")
    assert menu_row(dev, home_items()[1]), dump(dev)
    choose(dev, "Chess clock")
    assert dev.shows("Minutes: 5"), dump(dev)


def _big():
    from tablemate.ui import text
    return text.large()[1]


def test_hints_name_only_the_keys_the_layout_has(make_device, root):
    """The number entry says how to cancel with the keys at hand: BACK on six buttons, a held
    OK on five or three, a long push on the knob."""
    for layout, word in (("six", "BACK"), ("five", "hold OK"), ("three", "hold OK"),
                         ("encoder", "long push")):
        dev = make_device(layout=layout)
        choose(dev, "Scorepad")
        dev.press("OK")  # the Players row: its number entry
        assert dev.shows("OK set") and dev.shows(word + " cancel"), (layout, dump(dev))
        if layout != "six":
            assert not dev.shows("BACK"), (layout, dump(dev))
