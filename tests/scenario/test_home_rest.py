"""The home menu's rest at boot: when the first mode's setup loads, from `.mpy` files and frozen.

A player who presses OK on the first row before that rest pays for its imports in the press
(issue 34: the first setup visit 0.3 s after boot, <= 50 ms on the UF2). From `.mpy` files the
rest waits a second (the `heap-boot` budget); frozen into the UF2 it comes right after the
first frame, and loads the setup menu's own modules too.
"""

import sys

import pytest

import tablemate
from tablemate_host import machine

from conftest import highlighted

SETUP = ("tablemate.flow.setup", "tablemate.store.setups", "tablemate.options",
         "tablemate.rules.scorepad")


@pytest.fixture
def rests(monkeypatch):
    """The rests the home menu takes: (ms since power-up, mode, the home menu on the panel),
    with the setup's modules not loaded before the boot (put back after the test)."""
    from tablemate import lifecycle
    from tablemate import ui
    from tablemate import rules
    for name in SETUP:
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.delattr(ui, "setup", raising=False)
    monkeypatch.delattr(rules, "scorepad", raising=False)
    seen = []
    rest = lifecycle.rest

    def recorded(home, name):
        seen.append((home.app.now, name, bool(highlighted(_Panel(), "Scorepad"))))
        rest(home, name)
    monkeypatch.setattr(lifecycle, "rest", recorded)
    return seen


class _Panel:
    """What ``highlighted`` reads of a Device: its virtual panel, as the boot left it."""

    def __init__(self):
        from tablemate.board import BOARD
        self.panel = machine.world.bus(BOARD["i2c"]).devices[BOARD["addr"]]


def test_from_mpy_files_the_first_setup_loads_a_second_after_boot(make_device, rests,
                                                                   monkeypatch):
    monkeypatch.setattr(tablemate, "FROZEN", False, raising=False)
    dev = make_device()
    dev.advance(300)
    assert rests == [] and "tablemate.rules.scorepad" not in sys.modules
    dev.advance(800)
    assert [name for _, name, _ in rests] == ["scorepad"]
    assert "tablemate.rules.scorepad" in sys.modules and "tablemate.options" in sys.modules
    assert "tablemate.flow.setup" not in sys.modules  # 8-10 KB of a .mpy boot's heap


def test_frozen_the_first_setup_loads_right_after_the_first_frame(make_device, rests,
                                                                  monkeypatch):
    monkeypatch.setattr(tablemate, "FROZEN", True, raising=False)
    dev = make_device()
    dev.advance(100)
    assert [(name, shown) for _, name, shown in rests] == [("scorepad", True)], \
        "one rest, once the home menu is on the panel"
    assert rests[0][0] < 100, "right after the first frame (0.3 s: a player who did not read)"
    for name in SETUP:
        assert name in sys.modules, name
    dev.press("OK")  # before 0.3 s: the setup opens, with nothing more to import
    assert dev.shows("New Scorepad")
