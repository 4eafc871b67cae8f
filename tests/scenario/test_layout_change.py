"""Changing the button layout in Settings cannot lock the player out.

A new layout is only kept once OK has been pressed with it; otherwise the old one returns after
10 s, and the settings file keeps the old layout until the new one is proven.
"""

import json
import os

from conftest import choose, goto, menu_row


def _settings_file(root):
    with open(os.path.join(root, "settings.json")) as f:
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


def test_an_unproven_layout_reverts_by_itself(make_device, root):
    dev = make_device()
    _pick_layout(dev, "encoder")  # a build with buttons has no knob to turn
    assert dev.shows("Buttons: encoder") and dev.shows("Back to six in 10s")
    assert _settings_file(root).get("layout", "six") == "six"
    dev.advance(10500)
    assert dev.app.layout == "six"
    assert _settings_file(root).get("layout", "six") == "six"
    dev.press("DOWN")  # the six buttons work again
    assert menu_row(dev, "Chess clock") or dev.shows("Chess clock")


def test_a_layout_confirmed_with_ok_is_saved(make_device, root):
    dev = make_device()
    _pick_layout(dev, "five")
    assert dev.shows("Back to six in 10s")
    dev.press("OK")  # five buttons: OK is sent on release
    assert dev.app.layout == "five"
    assert _settings_file(root)["layout"] == "five"
    assert not dev.shows("Back to six")
