"""Bad input: refused actions, damaged files, bouncing contacts and a fist on the buttons."""

import json
import os

import pytest

from conftest import (NAMES, home_items, actions, choose, commit, dump, highlighted, hold, menu_row,
                      new_scorepad, row_score)

from tablemate_host import machine


def read(path):
    with open(path, "rb") as f:
        return f.read()


# -- illegal actions --------------------------------------------------------------------------
def test_adjusting_after_the_game_is_over_is_refused_on_screen(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=3, target=5, stop=True)
    hold(dev, "RIGHT", 1000)  # +1, then +1 per repeat: past 5
    commit(dev)
    assert dev.shows("Ann wins!"), dump(dev)
    before = read(os.path.join(root, "data", "game.jnl"))
    dev.press("RIGHT")
    assert dev.shows("Game is over"), dump(dev)
    assert not dev.shows("+1")
    commit(dev)
    dev.press("DOWN")  # moving on would commit a pending change: there is none
    assert read(os.path.join(root, "data", "game.jnl")) == before
    dev.advance(3000)  # the refusal fades, the result stays
    assert not dev.shows("Game is over") and dev.shows("Ann wins!"), dump(dev)


def test_undo_with_nothing_to_undo_is_refused_on_screen(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=3)
    before = read(os.path.join(root, "data", "game.jnl"))
    dev.press("BACK")
    choose(dev, "Undo")
    assert dev.shows("Nothing to undo"), dump(dev)
    assert read(os.path.join(root, "data", "game.jnl")) == before
    assert dev.shows("Round 1") and row_score(dev, 0, 0), dump(dev)
    dev.advance(3000)
    assert not dev.shows("Nothing to undo"), dump(dev)


# -- damaged files at boot ------------------------------------------------------------------
def test_garbage_settings_file_gives_a_notice_and_defaults(make_device, root):
    garbage = b"\xff\xfe{\"names\": [\x00\x01garbage"
    path = os.path.join(root, "data", "settings.json")
    with open(path, "wb") as f:
        f.write(garbage)
    dev = make_device(settings=None)
    assert dev.shows("unreadable") and dev.shows("defaults"), dump(dev)
    assert read(path + ".bad") == garbage, "the bad file is kept aside"
    assert not os.path.exists(path), "and never silently overwritten"
    from tablemate.app import CONTRAST
    from tablemate.store.settings import DEFAULTS
    assert dev.panel.contrast == CONTRAST[DEFAULTS["brightness"] - 1]
    dev.press("OK")
    assert not dev.shows("unreadable"), dump(dev)
    choose(dev, "Settings")
    assert dev.shows("Brightness: %d" % DEFAULTS["brightness"]) and dev.shows("Buttons: six"), dump(dev)
    dev.press("BACK")
    new_scorepad(dev, players=2)
    assert dev.shows("P1") and dev.shows("P2"), "default names" + dump(dev)


def test_settings_with_a_bad_value_keep_the_good_ones(make_device, root):
    path = os.path.join(root, "data", "settings.json")
    good = dict(names=NAMES, brightness=5, dim_s=30, off_min=5, sound=True, layout="six")
    bad = dict(good, brightness=99)
    with open(path, "w") as f:
        json.dump(bad, f)
    dev = make_device(settings=None)
    assert dev.shows("Bad setting:") and dev.shows("brightness"), dump(dev)
    assert json.loads(read(path + ".bad")) == bad
    dev.press("OK")
    new_scorepad(dev, players=2)
    assert dev.shows("Ann") and dev.shows("Bob"), "good values kept" + dump(dev)


def saved_game(make_device):
    """A game with four journaled actions; returns the journal path and the actions."""
    dev = make_device()
    new_scorepad(dev, players=3)
    dev.presses("RIGHT", "RIGHT")
    dev.press("OK")
    dev.press("RIGHT")
    dev.press("OK")
    dev.press("LEFT")
    commit(dev)
    done = actions(dev)
    assert done == [["add", 0, 2], ["next"], ["add", 1, 1], ["next"], ["add", 2, -1]]
    return os.path.join(dev.root, "data", "game.jnl"), done


def test_torn_last_line_is_dropped_and_reported(make_device, root):
    path, done = saved_game(make_device)
    with open(path, "ab") as f:
        f.write(b'["add", 0, 1')  # the power went mid-write
    dev = make_device()
    assert dev.shows("Resume game?"), dump(dev)
    dev.press("OK")
    assert dev.shows("Dropped torn entry"), dump(dev)
    dev.press("OK")
    assert not dev.shows("Dropped torn entry"), dump(dev)
    assert all(row_score(dev, i, s) for i, s in enumerate([2, 1, -1])), dump(dev)
    assert actions(dev) == done
    assert read(path).endswith(b"\n")
    dev.press("RIGHT")
    dev.press("OK")
    assert actions(dev) == done + [["add", 2, 1], ["next"]]


def test_damaged_middle_line_keeps_a_copy_and_resumes_the_good_part(make_device, root):
    path, done = saved_game(make_device)
    lines = read(path).split(b"\n")
    lines[3] = b'["add", 1, \xff\xff'  # the third action is garbage
    damaged = b"\n".join(lines)
    with open(path, "wb") as f:
        f.write(damaged)
    dev = make_device()
    dev.press("OK")
    assert dev.shows("Bad line 4: copy") and dev.shows("kept"), dump(dev)
    assert read(path + ".bad") == damaged
    dev.press("OK")
    assert all(row_score(dev, i, s) for i, s in enumerate([2, 0, 0])), dump(dev)
    assert highlighted(dev, "Bob"), dump(dev)
    assert actions(dev) == done[:2]


def test_journal_without_a_header_is_kept_aside(make_device, root):
    path = os.path.join(root, "data", "game.jnl")
    with open(path, "wb") as f:
        f.write(b"\x00\x00\x00")
    dev = make_device()
    assert dev.shows("Bad journal: copy") and dev.shows("kept"), dump(dev)
    assert read(path + ".bad") == b"\x00\x00\x00" and not os.path.exists(path)
    dev.press("OK")
    assert menu_row(dev, "Scorepad") and not dev.shows("Continue"), dump(dev)


# -- the buttons ----------------------------------------------------------------------------
def test_a_bouncing_contact_moves_the_cursor_once(make_device, root):
    dev = make_device()
    assert menu_row(dev, "Scorepad"), dump(dev)
    pin = dev.pin("DOWN")
    for level, ms in ((0, 2), (None, 3), (0, 4), (None, 2), (0, 5), (None, 3)):  # ~19 ms of chatter
        machine.world.drive(pin, level)
        dev.advance(ms)
    machine.world.drive(pin, 0)  # then the contact settles
    dev.advance(200)
    for level, ms in ((None, 3), (0, 2), (None, 4), (0, 3), (None, 5)):  # and chatters on release
        machine.world.drive(pin, level)
        dev.advance(ms)
    dev.advance(200)
    assert menu_row(dev, home_items()[1]), "exactly one move" + dump(dev)


@pytest.mark.parametrize("layout", ["six", "five", "three"])
def test_all_keys_held_at_once(make_device, root, layout):
    dev = make_device(layout=layout)
    new_scorepad_any(dev, layout)
    before = actions(dev)
    for key in ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"):
        dev.down(key)
    dev.advance(2000)
    for key in ("UP", "DOWN", "LEFT", "RIGHT", "OK", "BACK"):
        dev.up(key)
    dev.advance(2000)
    assert not dev.shows("Error:"), dump(dev)
    assert not os.path.exists(os.path.join(root, "data", "errors.log"))
    assert actions(dev)[:len(before)] == before, "nothing journaled is lost"
    # Still responsive: BACK leads back to the game, and OK passes the turn.
    for _ in range(4):
        if dev.shows("Round"):
            break
        back(dev, layout)
    if not dev.shows("Round"):
        choose(dev, "Continue Scorepad")
    assert dev.shows("Round"), dump(dev)
    n = len(actions(dev))
    dev.press("OK")
    assert actions(dev)[n:] == [["next"]], dump(dev)


def back(dev, layout):
    if layout == "six":
        dev.press("BACK")
    else:
        dev.long_press("OK")


def new_scorepad_any(dev, layout):
    """A 3-player game with one committed action, with whatever buttons the layout has."""
    choose(dev, "Scorepad")
    choose(dev, "Players: 2")
    dev.press("UP")
    dev.press("OK")
    choose(dev, "Start")
    assert dev.shows("Round 1"), dump(dev)
    back(dev, layout)
    choose(dev, "Adjust score")
    dev.press("UP")
    dev.press("OK")
    assert actions(dev) == [["add", 0, 1]]


def test_a_journal_for_a_game_that_is_not_registered_is_set_aside_once(make_device, root):
    """Issue 14: a journal naming a module that is not a game mode ("__init__", a name without
    a rules API) passed the name check and was offered at every boot. Only registered modes
    load; such a journal is set aside once, with a notice."""
    path = os.path.join(root, "data", "game.jnl")
    for name in ("__init__", "nosuch"):
        line = b'{"v": 2, "game": "%s", "opts": {"names": ["Ann", "Bob"]}}\n' % name.encode()
        with open(path, "wb") as f:
            f.write(line)
        dev = make_device()
        assert dev.shows("Unknown game: copy") and dev.shows("kept"), dump(dev)
        assert not os.path.exists(path), name
        assert read(sorted(p for p in (path + ".bad", path + ".bad1")
                           if os.path.exists(p))[-1]) == line
        dev.press("OK")
        assert menu_row(dev, "Scorepad") and not dev.shows("Continue"), dump(dev)
        dev = make_device()  # the next boot asks nothing
        assert menu_row(dev, "Scorepad") and not dev.shows("Unknown game"), dump(dev)


def test_damaged_history_lines_are_skipped_and_counted(make_device, root):
    """Issue 14: bad lines (a number, a string, null, a list, names or winners of the wrong
    type, bytes that are not UTF-8) are skipped and counted, and the good games still show."""
    good = b'{"game": "scorepad", "names": ["Ann", "Bob"], "scores": [3, 1], "winners": [0]}\n'
    bad = [b"7\n", b'"x"\n', b"null\n", b"[1, 2]\n", b'{"names": [1], "winners": []}\n',
           b'{"names": ["A"], "winners": ["x"]}\n', b"\xff\xfe{\n"]
    with open(os.path.join(root, "data", "history.jnl"), "wb") as f:
        f.write(good + b"".join(bad) + good.replace(b"[0]", b"[1]"))
    dev = make_device()
    choose(dev, "History")
    assert dev.shows("7 damaged") and dev.shows("kept aside"), dump(dev)
    dev.press("OK")
    assert dev.shows("Scorepad: Bob") and dev.shows("Scorepad: Ann"), dump(dev)
