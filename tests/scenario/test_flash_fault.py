"""A full or read-only flash (issue 14): the gadget boots to a screen, says what is wrong, plays
on in RAM and loses nothing already saved; freed space lets saving resume.

The faults come from ``tablemate_host.flashfault``, which fails writes as MicroPython's littlefs
does (OSError 28 ENOSPC for a full flash, 30 EROFS read-only); the same cases on the real rp2
firmware with a really full littlefs are in tools/pico/flashfull.py.
"""

import json
import os

import pytest

from conftest import (NAMES, actions, choose, commit, dump, menu_row, new_scorepad, row_score)

from tablemate_host.flashfault import FlashFault

FULL = "Flash full"
READ_ONLY = "Flash read-only"
WORDS = {"full": FULL, "readonly": READ_ONLY}


def read(path):
    with open(path, "rb") as f:
        return f.read()


def data(root, name):
    return os.path.join(root, "data", name)


def played(make_device, presses=("RIGHT", "RIGHT", "OK", "RIGHT", "OK", "LEFT")):
    """A scorepad game with a few saved actions; returns the device."""
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.presses(*presses)
    commit(dev)
    return dev


def files(root):
    """Every file on the flash and its bytes: nothing may change under a fault."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = os.path.join(dirpath, name)
            out[os.path.relpath(path, root)] = read(path)
    return out


# -- at boot ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_settings_that_need_repair_boot_to_a_notice(make_device, root, monkeypatch, mode):
    path = data(root, "settings.json")
    with open(path, "w") as f:
        json.dump(dict(names=NAMES, brightness=99), f)
    before = files(root)
    FlashFault(root, monkeypatch, mode)
    dev = make_device(settings=None)
    assert dev.shows(WORDS[mode]), dump(dev)
    assert files(root) == before
    dev.press("OK")
    assert menu_row(dev, "Scorepad"), dump(dev)
    new_scorepad(dev, players=2)
    assert dev.shows(WORDS[mode]) and dev.shows("being saved"), dump(dev)
    dev.press("OK")
    assert dev.shows("Ann") and dev.shows("Bob"), "the good settings are used" + dump(dev)


@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_unreadable_settings_boot_with_defaults(make_device, root, monkeypatch, mode):
    path = data(root, "settings.json")
    with open(path, "wb") as f:
        f.write(b"\xff{garbage")
    FlashFault(root, monkeypatch, mode)
    dev = make_device(settings=None)
    assert dev.shows("unreadable"), dump(dev)
    if mode == "readonly":
        assert dev.shows(READ_ONLY), dump(dev)
        assert read(path) == b"\xff{garbage"
    else:  # a rename needs no free block: the file is kept aside as on a healthy flash
        assert read(path + ".bad") == b"\xff{garbage"
    dev.press("OK")
    assert menu_row(dev, "Scorepad"), dump(dev)


@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_a_journal_with_a_damaged_header_boots_to_the_menu(make_device, root, monkeypatch, mode):
    with open(data(root, "settings.json"), "w") as f:
        json.dump(dict(names=NAMES), f)
    with open(data(root, "game.jnl"), "wb") as f:
        f.write(b'{"v": 2, "game": "scorepad", "opts": {"names": ["Ann"], "timer": "x"}}\n')
    before = files(root)
    FlashFault(root, monkeypatch, mode)
    dev = make_device(settings=None)
    assert dev.shows("Resume game?"), dump(dev)  # the header names a game: it is asked
    dev.press("OK")
    if mode == "readonly":
        assert dev.shows("Bad journal") and dev.shows(READ_ONLY), dump(dev)
        assert files(root) == before
    else:  # a rename needs no free block: kept aside as on a healthy flash
        assert dev.shows("Bad journal: copy"), dump(dev)
    dev.press("OK")
    assert dev.app.top().__class__.__name__ == "Home", dump(dev)


@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_a_torn_journal_resumes_in_ram(make_device, root, monkeypatch, mode):
    dev = played(make_device)
    done = actions(dev)
    with open(data(root, "game.jnl"), "ab") as f:
        f.write(b'["add", 0, 1')
    before = files(root)
    FlashFault(root, monkeypatch, mode)
    dev = make_device(settings=None)
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    for _ in range(3):
        if dev.app.top().__class__.__name__ == "Scorepad":
            break
        assert dev.shows(WORDS[mode]) or dev.shows("torn"), dump(dev)
        dev.press("OK")
    assert all(row_score(dev, i, s) for i, s in enumerate([2, 1, -1])), dump(dev)
    assert dev.app.game.count == len(done)
    assert files(root) == before


# -- in a game --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_the_flash_failing_in_a_game_says_so_once_and_plays_on(make_device, root, monkeypatch,
                                                               mode):
    dev = played(make_device)
    saved = read(data(root, "game.jnl"))
    fault = FlashFault(root, monkeypatch, mode)
    dev.press("RIGHT")
    commit(dev)
    assert fault.refused, "the fault was met"
    assert dev.shows(WORDS[mode]) and dev.shows("being saved"), dump(dev)
    dev.press("OK")
    assert dev.app.top().__class__.__name__ == "Scorepad", dump(dev)
    for _ in range(40):  # more than a checkpoint's worth, all in RAM
        dev.press("RIGHT")
        commit(dev)
    assert dev.app.top().__class__.__name__ == "Scorepad", "said once" + dump(dev)
    assert read(data(root, "game.jnl")) == saved, "nothing saved is lost"
    live = dev.app.game.state
    fault.mode = None  # space freed (the history pulled to the computer), or a writable flash
    dev.press("RIGHT")
    commit(dev)
    assert dev.app.game.unsaved == 0, "saving resumed"
    live = json.loads(json.dumps(dev.app.game.state))
    dev = make_device(settings=None)  # a power cut
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.app.game.state == live


def test_settings_changed_on_a_full_flash_are_kept_for_this_session(make_device, root,
                                                                    monkeypatch):
    dev = make_device()
    before = files(root)
    FlashFault(root, monkeypatch, "full")
    level = dev.app.settings["brightness"]
    choose(dev, "Settings")
    dev.press("OK")  # Brightness
    dev.press("RIGHT")
    for _ in range(3):
        if dev.shows(FULL):
            break
        dev.press("BACK")
    assert dev.shows(FULL) and dev.shows("until switched off"), dump(dev)
    assert files(root) == before
    dev.press("OK")
    assert dev.app.top().__class__.__name__ == "Home", dump(dev)
    assert dev.app.settings["brightness"] != level, "in force for this session"


@pytest.mark.parametrize("mode", ["full", "readonly"])
def test_a_damaged_line_on_a_locked_flash_is_cut_once_saving_works(make_device, root,
                                                                   monkeypatch, mode):
    dev = played(make_device)
    done = actions(dev)
    path = data(root, "game.jnl")
    lines = read(path).split(b"\n")
    lines[3] = b'["add", 1, \xff\xff'  # the third action is garbage: the good part is two
    damaged = b"\n".join(lines)
    with open(path, "wb") as f:
        f.write(damaged)
    fault = FlashFault(root, monkeypatch, mode)
    dev = make_device(settings=None)
    dev.press("OK")  # Resume game?
    assert dev.shows(WORDS[mode]), dump(dev)
    assert read(path) == damaged, "the flash was not changed"
    dev.press("OK")
    assert dev.app.game.count == 2 and all(row_score(dev, i, s) for i, s in enumerate([2, 0, 0]))
    fault.mode = None
    dev.press("RIGHT")
    commit(dev)
    assert read(path + ".bad") == damaged, "the damage is kept aside before the cut"
    assert actions(dev) == done[:2] + [["add", 1, 1]]
    live = dev.app.game.state
    dev = make_device(settings=None)
    dev.press("OK")
    assert dev.app.game.state == live and not dev.shows("Bad line"), dump(dev)


# -- the error net and a game held in RAM ------------------------------------------------------
def _break_next_draw(monkeypatch):
    """The next frame of the score table raises (a screen bug), once."""
    from tablemate.ui import table
    real = table.draw
    calls = []

    def broken(*args, **kw):
        if not calls:
            calls.append(1)
            raise ValueError("bad table")
        return real(*args, **kw)
    monkeypatch.setattr(table, "draw", broken)
    return calls


def _game_in_ram(make_device, root, monkeypatch):
    """A scorepad started on a full flash, three actions played in RAM only: (device, fault,
    the actions, the live state)."""
    dev = make_device()
    fault = FlashFault(root, monkeypatch, "full")
    new_scorepad(dev, players=3)
    assert dev.shows(FULL) and dev.shows("being saved"), dump(dev)
    dev.press("OK")
    dev.presses("RIGHT", "RIGHT", "OK", "RIGHT")
    commit(dev)
    game = dev.app.game
    assert game.count == 3 and game.unsaved and not os.path.exists(data(root, "game.jnl"))
    return dev, fault, game.count, json.loads(json.dumps(game.state))


def test_the_error_net_keeps_a_game_the_flash_holds_no_line_of(make_device, root, monkeypatch):
    dev, fault, count, live = _game_in_ram(make_device, root, monkeypatch)
    calls = _break_next_draw(monkeypatch)
    dev.press("DOWN")
    assert calls and dev.shows("Error: ValueError") and dev.shows("bad table"), dump(dev)
    dev.press("OK")
    assert menu_row(dev, "Continue Scorepad"), "the game is still there" + dump(dev)
    fault.mode = None  # room again (the history pulled to the computer)
    choose(dev, "Continue Scorepad")
    assert all(row_score(dev, i, s) for i, s in enumerate([2, 1, 0])), dump(dev)
    assert dev.app.game.unsaved == 0, "saved at its first frame"
    assert len(actions(dev)) == count
    dev = make_device(settings=None)  # a power cut: everything played is on the flash
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.app.game.count == count and dev.app.game.state == live


def test_the_error_net_saves_a_kept_game_at_once_when_the_flash_takes_writes(
        make_device, root, monkeypatch):
    dev, fault, count, live = _game_in_ram(make_device, root, monkeypatch)
    fault.mode = None
    _break_next_draw(monkeypatch)
    dev.press("DOWN")
    assert dev.shows("Error: ValueError"), dump(dev)
    dev = make_device(settings=None)  # the power goes while the error is on the screen
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.app.game.count == count and dev.app.game.state == live
