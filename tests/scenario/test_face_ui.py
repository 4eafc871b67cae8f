"""Face the player through the buttons: the picture turns when The Perfect Moment's turn passes
to the player across the table, the arrow keys turn with it, and a turn costs one frame.

The virtual panel decodes the remap commands as the controller does (on the SSD1306 the segment
remap only reaches data written after it), so a driver that forgot to resend the frame would
show a wrong picture here. ``panel.reader = 1`` reads the glass from the seat across.
"""

import pytest
from conftest import actions, choose, dump, goto, menu_row
from test_perfect_moment_ui import new_game

PLAYER = 2  # the "turn" setting: to the player


def rotated(frame):
    """A 128x64 MONO_VLSB frame turned 180 degrees."""
    out = bytearray(1024)
    for y in range(64):
        for x in range(128):
            if frame[(y >> 3) * 128 + x] >> (y & 7) & 1:
                yy, xx = 63 - y, 127 - x
                out[(yy >> 3) * 128 + xx] |= 1 << (yy & 7)
    return bytes(out)


def race_won_by_bob(make_device, turn, sh1106):
    """A Perfect Moment race that Bob (RIGHT) wins, on a fresh flash: (device, the I2C bytes
    of that press, the panel's frame after it)."""
    dev = make_device(settings={"turn": turn}, sh1106=sh1106)
    new_game(dev)
    assert not dev.app.display.turned  # the race: no one to face yet
    dev.panel.mark()
    dev.press("RIGHT")  # Bob is ready first: his turn
    return dev, dev.panel.bytes, dev.panel.frame_bytes()


@pytest.mark.parametrize("sh1106", [False, True])
def test_the_turn_passing_across_the_table_turns_the_picture_for_one_frame(
        root, tmp_path, make_device, sh1106):
    import os
    import shutil
    upright, upright_bytes, upright_frame = race_won_by_bob(make_device, 0, sh1106)
    assert not upright.app.display.turned and upright.shows("Deck"), dump(upright)
    upright.app = None
    shutil.rmtree(root)
    os.makedirs(os.path.join(root, "data"))
    dev, turned_bytes, turned_frame = race_won_by_bob(make_device, PLAYER, sh1106)
    assert dev.app.display.turned
    assert turned_frame == rotated(upright_frame) != upright_frame  # the glass, from seat 0
    dev.panel.reader = 1
    assert dev.panel.frame_bytes() == upright_frame and dev.shows("Deck")  # Bob reads it upright
    # the same frames went out (the buffer is drawn upright either way), plus the two remap
    # commands (3 bytes); the race's end is a whole new screen, sent whole either way
    print("\nturn, %s: %d bytes (upright: %d)" % ("SH1106" if sh1106 else "SSD1306", turned_bytes,
                                                  upright_bytes))
    assert turned_bytes == upright_bytes + 3
    assert (0xA0,) in dev.panel.log and (0xC0,) in dev.panel.log


def test_a_turn_alone_costs_the_commands_and_one_whole_frame(make_device):
    """Bob's turn ends (OK): the next frame is only a few changes upright, but it turns back to
    Ann, so it goes whole: 3 command bytes and 1,032 bytes of frame, nothing more."""
    dev, _, _ = race_won_by_bob(make_device, PLAYER, False)
    dev.advance(1000)
    dev.panel.mark()
    dev.press("OK")  # Bob ends his turn: Ann's, read upright
    assert not dev.app.display.turned, dump(dev)
    log = dev.panel.log
    assert log[-1] != (0xA1,) and (0xA1,) in log[-8:] and (0xC8,) in log[-8:]
    print("\nturn back alone: %d bytes" % dev.panel.bytes)
    assert dev.panel.bytes == 3 + 1032, dev.panel.bytes


def test_up_is_up_for_the_reader(make_device):
    dev, _, _ = race_won_by_bob(make_device, PLAYER, False)
    dev.press("BACK")  # the game menu, over Bob's turn: still turned toward him
    assert dev.app.display.turned
    assert not menu_row(dev, "Back to game")  # from seat 0 it reads upside down
    dev.panel.reader = 1
    assert menu_row(dev, "Back to game"), dump(dev)
    first = dev.find_text("Back to game")[0]
    dev.press("UP")  # the button at Bob's bottom edge: DOWN for him
    assert menu_row(dev, "Undo"), dump(dev)
    assert dev.find_text("Undo")[0][1] > first[1]  # further down the page, as Bob reads it
    dev.press("DOWN")  # the button at Bob's top edge: UP
    assert menu_row(dev, "Back to game"), dump(dev)
    goto(dev, "Undo", key="UP")  # reaches it the way Bob reads it
    dev.press("OK")  # undone: the race again, upright, no one faced
    dev.panel.reader = 0
    assert not dev.app.display.turned and dev.shows("Who is ready first?"), dump(dev)


def test_the_player_across_keeps_minus_and_plus(make_device):
    """Bob, across the table, is faced on his turn: UP and DOWN turn with the picture (up is up
    for him), LEFT and RIGHT do not: they are minus and plus (a card taken from the deck, one
    put back; a point less, a point more), the same keys as Ann's. They turned too, so the key
    with which Ann put a card back took one for Bob, and scored him 1 where he meant 3."""
    dev, _, _ = race_won_by_bob(make_device, PLAYER, False)
    assert dev.app.display.turned
    start = len(actions(dev))
    dev.press("LEFT")  # Ann's own "ready" key, too late: nothing (it put a card back)
    assert len(actions(dev)) == start, actions(dev)
    dev.press("RIGHT")  # a card back on the deck, as for Ann
    assert actions(dev)[-1][:2] == ["deck", 1], actions(dev)
    dev.press("LEFT")  # a card taken
    assert actions(dev)[-1][:2] == ["deck", -1], actions(dev)
    dev.panel.reader = 1
    dev.press("DOWN")  # the panel's DOWN, at Bob's top edge: UP for him, the list on his plan
    assert dev.shows("Plan") and dev.app.top().cur == 0, dump(dev)
    dev.press("RIGHT")  # 2 -> 3: both items, the same way
    dev.press("OK")
    assert actions(dev)[-1][:4] == ["score", 1, "plan", 3], actions(dev)
    assert dev.app.display.turned, "still Bob's turn"


def test_the_settings_title_says_which_games_turn(make_device):
    dev = make_device()
    choose(dev, "Settings")
    assert dev.shows("Settings"), dump(dev)
    goto(dev, "Turn: off")
    for word, says in (("off", "Turns no game"), ("flip", "Turns every game"),
                       ("to player", "Turns games of two")):
        while not menu_row(dev, "Turn: " + word):
            dev.press("RIGHT")
        assert dev.shows(says) and not dev.shows("Settings"), dump(dev)
    dev.press("UP")
    assert dev.shows("Settings") and not dev.shows("Turns"), dump(dev)
    dev.press("BACK")


def test_the_setting_reads_whole_and_is_saved(make_device, root):
    import json
    import os
    dev = make_device()
    choose(dev, "Settings")
    goto(dev, "Turn: off")
    for key, word in (("RIGHT", "flip"), ("RIGHT", "to player"), ("RIGHT", "off"),
                      ("LEFT", "to player")):  # round, both ways
        dev.press(key)
        assert menu_row(dev, "Turn: " + word), dump(dev)
    dev.press("BACK")  # saved as the menu is left
    with open(os.path.join(root, "data", "settings.json")) as f:
        assert json.load(f)["turn"] == PLAYER
    assert not dev.app.display.turned and menu_row(dev, "Settings"), dump(dev)  # home, upright
