"""The builder's own board settings in /data/wiring.json: other pins without other firmware.

The UF2 carries board.py frozen, so a gadget wired on other pins says so in a file on its flash
(``store.settings.wiring``); the boot checks the result as it checks board.py. A bad file is
said on the panel (where a display answers) and by the LED, and nothing is lost.
"""

import json
import os

from conftest import NAMES, actions, commit, dump, new_scorepad

from tablemate_host import machine
from tablemate_host.device import Device

THREE = {"UP": 6, "DOWN": 7, "OK": 8}  # a three-button build on other pins


def _flashes():
    return [ms for ms, level in machine.world.history("LED") if level == 1]


def _said(dev, *lines):
    return all(dev.shows(line) for line in lines)


def test_the_file_moves_the_display_and_the_buttons(root):
    wiring = {"i2c": 1, "sda": 2, "scl": 3, "buttons": THREE, "encoder": None, "buzzer": None}
    dev = Device(root, wiring=wiring, settings={"names": NAMES, "layout": "three"})
    assert dev.app is not None and dev.app.layouts == ("three",), "three keys, no encoder"
    assert machine.world.bus(0).writes == 0 and machine.world.bus(1).writes > 0
    assert dev.shows("Scorepad"), dump(dev)
    dev.press("DOWN")  # GP7
    assert dev.app.top().index == 1, dump(dev)
    assert dev.app.buzzer is None


def test_an_edited_file_is_checked_again(root):
    assert Device(root, wiring={"buttons": THREE}).app is not None
    board_json = os.path.join(root, "data", "board.json")
    with open(board_json) as f:
        passed = json.load(f)
    dev = Device(root, wiring={"buttons": dict(THREE, OK=4)})  # GP4 is the display's SDA
    assert dev.app is None
    assert _said(dev, "Board settings", "In /data/wiring.json:", "GP4 used twice: SDA"), dump(dev)
    assert dev.shows("and OK"), dump(dev)
    with open(board_json) as f:
        assert json.load(f) == passed, "a failed check keeps no verdict"


def test_a_file_that_is_not_json_is_said_and_nothing_is_lost(make_device, root, capsys):
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.press("RIGHT")
    dev.press("OK")
    commit(dev)
    journal = actions(dev)
    with open(os.path.join(root, "data", "game.jnl"), "rb") as f:
        saved = f.read()

    broken = '{"sda": 4, "scl": 5,}'
    dev = Device(root, wiring=broken)
    assert dev.app is None
    assert _said(dev, "Board settings", "In /data/wiring.json:", "The file is not a", "JSON object"), dump(dev)
    assert dev.shows("Details on the REPL"), dump(dev)
    out = capsys.readouterr().out
    assert "(tablemate/board.py, with /data/wiring.json) has a problem" in out, out
    assert len(_flashes()) == 3 * 3, "error code 3, three cycles"
    assert machine.world.wdt.timeout is None
    with open(os.path.join(root, "data", "wiring.json")) as f:
        assert f.read() == broken, "the file is the builder's: not repaired, not moved"
    with open(os.path.join(root, "data", "game.jnl"), "rb") as f:
        assert f.read() == saved

    os.remove(os.path.join(root, "data", "wiring.json"))
    dev = make_device()
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert actions(dev) == journal


def test_a_key_board_py_does_not_have_is_named(root, capsys):
    dev = Device(root, wiring={"sdaa": 2})
    assert dev.app is None
    assert _said(dev, "In /data/wiring.json:", "'sdaa' is not a board", "setting"), dump(dev)
    assert "'sdaa' is not a board setting (use addr, battery, buttons" in capsys.readouterr().out


def test_wrong_display_pins_are_said_on_the_display_board_py_wires(root):
    """The file's SDA is no pin of its bus: that bus cannot be made, board.py's can."""
    dev = Device(root, wiring={"sda": 6, "scl": 7})
    assert dev.app is None
    assert _said(dev, "Board settings", "SDA GP6 is not an", "I2C0 SDA pin"), dump(dev)
    assert machine.world.pad(6).function is None


def test_several_problems_say_how_many_more(root):
    dev = Device(root, wiring={"buzzer": 40, "flip": "yes"})
    assert dev.app is None
    assert dev.shows("+1 more on the REPL"), dump(dev)


def test_no_display_anywhere_leaves_the_led(root, capsys):
    dev = Device(root, wiring={"buttons": dict(THREE, OK=7)}, display=False)
    assert dev.app is None
    assert "GP7 used twice: DOWN and OK" in capsys.readouterr().out
    assert len(_flashes()) == 3 * 3
