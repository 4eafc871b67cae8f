"""Changing the button layout in Settings cannot lock the player out.

A new layout is only kept once OK has been pressed with it; otherwise the old one returns after
10 s, and the settings file keeps the old layout until the new one is proven.
"""

import json
import os

from conftest import choose, dump, goto, home_items, menu_row


def _settings_file(root):
    with open(os.path.join(root, "data", "settings.json")) as f:
        return json.load(f)


def _pick_layout(dev, layout):
    choose(dev, "Settings")
    goto(dev, "Buttons: six")
    for _ in range(4):
        if menu_row(dev, "Buttons: " + layout):
            break
        dev.press("RIGHT")
    assert menu_row(dev, "Buttons: " + layout)
    dev.press("BACK")


def _home_cursor_on(dev, label):
    """The home menu's cursor is on ``label`` and nowhere else (a row both seen and unique)."""
    return [row for row in home_items() if menu_row(dev, row)] == [label]


def _six_buttons_work(dev):
    """From the home menu with the cursor on Settings, each of the six keys does its job.

    What is checked is what the panel shows: the cursor on the next row after DOWN, the page
    that row opens after OK, a value that LEFT and RIGHT step, and BACK and UP coming back.
    """
    assert _home_cursor_on(dev, "Settings"), dump(dev)
    dev.press("DOWN")
    assert _home_cursor_on(dev, "History"), "DOWN moves to the next row" + dump(dev)
    dev.press("OK")
    assert dev.shows("No finished games"), "OK opens History (no games yet)" + dump(dev)
    dev.press("BACK")
    assert not dev.shows("No finished games") and _home_cursor_on(dev, "History"), dump(dev)
    dev.press("UP")
    assert _home_cursor_on(dev, "Settings"), dump(dev)
    dev.press("OK")
    assert menu_row(dev, "Brightness: 3"), "OK opens Settings" + dump(dev)
    dev.press("RIGHT")
    assert menu_row(dev, "Brightness: 4"), dump(dev)
    dev.press("LEFT")
    assert menu_row(dev, "Brightness: 3"), dump(dev)
    dev.press("BACK")
    assert _home_cursor_on(dev, "Settings"), "BACK leaves Settings" + dump(dev)


def test_an_unproven_layout_reverts_by_itself(make_device, root):
    dev = make_device()
    _pick_layout(dev, "encoder")  # a build with buttons has no knob to turn
    assert dev.shows("Buttons: encoder") and dev.shows("Back to six: 10s")
    assert _settings_file(root).get("layout", "six") == "six"
    dev.advance(9000)
    assert dev.app.layout == "encoder" and dev.shows("Back to six: 1s"), dump(dev)
    dev.advance(1500)
    assert dev.app.layout == "six"
    assert _settings_file(root).get("layout", "six") == "six"
    _six_buttons_work(dev)


def test_a_layout_confirmed_with_ok_is_saved(make_device, root):
    dev = make_device()
    _pick_layout(dev, "five")
    assert dev.shows("Back to six: 10s")
    dev.press("OK")  # five buttons: OK is sent on release
    assert dev.app.layout == "five"
    assert _settings_file(root)["layout"] == "five"
    assert not dev.shows("Back to six")
    # The five buttons work: DOWN moves the cursor, OK opens that row, a long OK is BACK.
    assert _home_cursor_on(dev, "Settings"), dump(dev)
    dev.press("DOWN")
    assert _home_cursor_on(dev, "History"), dump(dev)
    dev.press("OK")
    assert dev.shows("No finished games"), dump(dev)
    dev.long_press("OK")
    assert not dev.shows("No finished games") and _home_cursor_on(dev, "History"), dump(dev)
    dev.advance(11000)
    assert dev.app.layout == "five" and _settings_file(root)["layout"] == "five"
