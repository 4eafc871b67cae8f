"""A sixth game is two files and one registry line: nothing else in the project names a mode.

Tally (tests/extra_modes: a rules module and a screen module, outside the firmware) is
registered here with one entry and then played as a player would, through the real boot and
buttons on the virtual display: its setup menu (from its OPTIONS), the game, the standings, the
history, the README-style screenshot of its setup and ``tablemate report``. A host module or a
screen that kept its own list of the modes would miss it, and this test would fail.
"""

import os

import pytest
from tablemate_host import pull, shots, vmbench
from tablemate_host.device import Device

import tablemate
from tablemate import modes
from tablemate.store import history

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENTRY = {"name": "tally", "label": "Tally", "rules": "extra_modes.tally_rules",
         "screens": "extra_modes.tally_screen"}


@pytest.fixture
def tally(monkeypatch):
    """The registry with Tally's one line added (and the tests folder on the import path)."""
    monkeypatch.syspath_prepend(TESTS)
    monkeypatch.setattr(modes, "MODES", modes.MODES + [ENTRY])
    yield ENTRY
    tablemate.unload(["extra_modes.tally_rules", "extra_modes.tally_screen"])


def _play(dev):
    """From the home menu: a 2-player Tally to 3 marks, played to its end."""
    dev.choose("Tally")
    assert dev.shows("Marks to win"), dev.panel.to_text()  # its option, from its OPTIONS
    dev.choose("Start")
    assert dev.shows("Marks to 3"), dev.panel.to_text()
    for _ in range(5):  # Ann, Ben, Ann, Ben, Ann: three marks
        dev.press("OK")
        dev.advance(200)
    assert dev.shows("Ann wins"), dev.panel.to_text()


def test_a_registered_mode_is_played_filed_and_reported(tally, tmp_path, capsys):
    dev = Device(str(tmp_path), settings={"names": ["Ann", "Ben", "Cleo", "Dev", "Eve", "Finn",
                                                    "Gus", "Hana"]})
    _play(dev)
    dev.press("OK")  # the standings
    dev.advance(300)
    assert dev.shows("Ann"), dev.panel.to_text()
    games = history.recent(str(tmp_path / "data" / "history.jnl"), 5)
    assert [(g["game"], g["names"], g["scores"], g["winners"]) for g in games] == [
        ("tally", ["Ann", "Ben"], [3, 2], [0])]
    lines = []
    pull.report(games, lines.append)
    assert any("tally" in line or "Tally" in line for line in lines), lines


def test_a_registered_mode_resumes_from_its_journal(tally, tmp_path):
    dev = Device(str(tmp_path))
    dev.choose("Tally")
    dev.choose("Start")
    dev.press("OK")
    dev.advance(500)
    again = Device(str(tmp_path))  # a power cut, then the boot finds the saved game
    # the question itself, naming the mode ("Tally" alone is also a home menu row)
    assert again.shows("Resume game?") and again.shows("Tally"), again.panel.to_text()
    again.press("OK")
    again.advance(500)
    assert again.shows("Marks to 3"), again.panel.to_text()
    assert again.app.game.state["marks"] == [1, 0]  # the journal's mark is back


def test_a_registered_mode_has_its_setup_picture(tally, tmp_path):
    assert "setup-tally" in shots.names()
    path = shots.render("setup-tally", str(tmp_path / "setup-tally.png"))
    assert os.path.getsize(path) > 0


def test_a_registered_mode_has_a_largest_game_for_the_heap_budget(tally):
    players, actions, play = vmbench.largest("tally")
    assert (players, actions) == (4, 0) and "Resume" in play


def test_the_menus_are_walked_to_their_last_row_however_many_modes(tally, monkeypatch, tmp_path):
    """No press limit in the harness counts the home menu's rows: with more modes registered,
    ``goto`` still reaches its last row (the fixed limit of 12 presses stopped short of it
    once the home menu had more rows than that)."""
    more = [dict(ENTRY, name="tally%d" % i, label="Tally %d" % i) for i in range(2, 5)]
    monkeypatch.setattr(modes, "MODES", modes.MODES + more)
    dev = Device(str(tmp_path))
    dev.goto("About")
    assert dev.menu_row("About")
