"""The name entry (tablemate/ui/names.py) through the buttons of every layout, presses counted.

A name's presses are counted from the opened entry to the saved name. The keys come from a small
planner that knows the entry's rules (arrows move one cell and wrap; three buttons and the encoder
walk the cells in reading order; the cursor goes back to the check mark after each character):
the device must then show each step and save the name, so a planner that disagreed with the
firmware would fail here, never flatter the count.
"""

import itertools
import json
import os

import pytest
from conftest import NAMES, dump, highlighted, plain

from tablemate_host import machine

DEFAULTS = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]  # no recent names to offer
LAYOUTS = ("six", "five", "three", "encoder")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
ARROWS = ("UP", "DOWN", "LEFT", "RIGHT")


# -- the planner -------------------------------------------------------------------------------
def _names():
    from tablemate.ui import names
    return names


def _path(layout, cell, recents=0):
    """Keys from the check mark to grid ``cell`` of the letters page (shortest)."""
    from tablemate import keys as K
    names = _names()
    if K.linear(layout):
        ring = recents + names.CELLS
        forward = cell - names.HOMES[1]
        back = ring - forward
        return ["DOWN"] * forward if forward <= back else ["UP"] * back
    from tablemate import keys as K
    codes = {"UP": K.UP, "DOWN": K.DOWN, "LEFT": K.LEFT, "RIGHT": K.RIGHT}
    paths = {names.HOME: []}
    todo = [names.HOME]
    while cell not in paths:
        here = todo.pop(0)
        for key in ARROWS:
            there = names.move(here, codes[key])
            if there not in paths:
                paths[there] = paths[here] + [key]
                todo.append(there)
    return paths[cell]


def _grid(layout):
    from tablemate import keys
    return _names().GRIDS[1 if keys.linear(layout) else 0][0]


def keys_for(layout, chars):
    """The keys that type ``chars`` (letters in the case the entry gives them, digits), from
    the check mark and back to it."""
    keys = []
    for ch in chars:
        keys += _path(layout, _grid(layout).index(ch.lower())) + ["OK"]
    return keys


def back(path):
    """The way back along ``path``."""
    return [{"UP": "DOWN", "DOWN": "UP", "LEFT": "RIGHT", "RIGHT": "LEFT"}[k] for k in path[::-1]]


def plan(layout, name, hold=True):
    """The keys that type ``name`` (a capital, then small letters or digits) and save it.

    On six buttons the last OK is held ("HOLD"), which types the letter and saves; elsewhere, or
    with ``hold=False``, an OK on the check mark (where the cursor is after a letter) saves.
    """
    keys = keys_for(layout, name)
    if layout == "six" and hold:
        keys[-1] = "HOLD"
    else:
        keys.append("OK")
    return keys


def worst(layout, hold=True):
    """The 3-letter name (a capital, two small letters) that takes the most presses."""
    return max(("".join(t).capitalize() for t in itertools.product(LETTERS, repeat=3)),
               key=lambda n: len(plan(layout, n, hold)))


# -- the device --------------------------------------------------------------------------------
class Typist:
    """Presses logical keys on ``dev`` the way its layout makes them; counts the presses."""

    def __init__(self, dev, layout):
        self.dev = dev
        self.layout = layout
        self.count = 0

    def key(self, key):
        dev = self.dev
        self.count += 1
        if self.layout == "encoder" and key in ("UP", "DOWN"):
            dev.turn(-1 if key == "UP" else +1)  # clockwise is DOWN
        elif key == "HOLD":
            dev.long_press("OK")
        elif key == "BACK" and self.layout != "six":
            dev.long_press("OK")  # long OK, or a long push, is BACK
        else:
            dev.press(key)

    def keys(self, *keys):
        for key in keys:
            self.key(key)

    def choose(self, label):
        """A menu row, by what the panel shows; not counted."""
        for _ in range(14):
            if self.dev.menu_row(label):
                self.dev.press("OK")
                return
            if self.layout == "encoder":
                self.dev.turn(+1)
            else:
                self.dev.press("DOWN")
        raise AssertionError("menu row %r never highlighted" % label + dump(self.dev))


def open_entry(make_device, layout, names=DEFAULTS, slot=0):
    dev = make_device(layout=layout, settings={"names": names})
    typist = Typist(dev, layout)
    typist.choose("Settings")
    typist.choose("Player names")
    for _ in range(slot):
        typist.key("DOWN")
    dev.press("OK")
    assert dev.shows("Player %d: " % (slot + 1)), dump(dev)
    typist.count = 0
    return dev, typist


def saved_names(dev, typist, root):
    """Leave the settings menu (which saves it) and read the names back from the file."""
    assert dev.menu_row("Player names"), "back in the settings menu" + dump(dev)
    typist.key("BACK")
    with open(os.path.join(root, "data", "settings.json")) as f:
        return json.load(f)["names"]


def cell_at(dev, ch, cell, page=2):
    """The grid cell ``cell`` is under the cursor and shows ``ch`` (dark on its lit cell, the
    row over it lit too: a capital's top row is not cut by the cell's edge, issue 32)."""
    names = _names()
    x = 1 + (cell % names.COLS) * 14 + 4
    y = (page + cell // names.COLS) * 8
    px = dev.panel.pixels()
    return (x, y) in highlighted(dev, ch) and all(px[y - 1][x - 4 + i] for i in range(13))


def plain_at(dev, ch, cell, page=2):
    """The grid cell ``cell`` shows ``ch`` (lit, the cursor elsewhere)."""
    names = _names()
    x = 1 + (cell % names.COLS) * 14 + 4
    y = (page + cell // names.COLS) * 8
    return (x, y) in plain(dev, ch)


def type_name(dev, typist, layout, name, hold=True):
    """Type ``name`` with the planned keys, checking the panel at each character."""
    grid = _grid(layout)
    keys = plan(layout, name, hold)
    typed = ""
    for key in keys:
        if key in ("OK", "HOLD") and len(typed) < len(name):
            ch = name[len(typed)]
            assert cell_at(dev, ch, grid.index(ch.lower())), (name, typed, dump(dev))
            typist.key(key)
            typed += ch
            assert key == "HOLD" or dev.shows("Player 1: " + typed), (name, typed, dump(dev))
        else:
            typist.key(key)
    return len(keys)


# -- a 3-letter name in at most 15 presses -------------------------------------------------------
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["Ann", "Bob", "Zoe", "worst"])
def test_three_letter_names_presses_counted(make_device, root, layout, name):
    if name == "worst":
        name = worst(layout)
    dev, typist = open_entry(make_device, layout)
    planned = type_name(dev, typist, layout, name)
    assert typist.count == planned
    assert saved_names(dev, typist, root)[0] == name
    print("\n%-7s %-4s %2d presses" % (layout, name, planned))
    if layout == "six":
        assert planned <= 15, (name, planned)
    if layout == "five":  # no held OK: one more press, on the check mark
        assert planned <= 16, (name, planned)


def test_six_buttons_the_figures():
    """What the docstring of tablemate/ui/names.py promises, from the planner alone."""
    assert [len(plan("six", n)) for n in ("Ann", "Bob", "Zoe")] == [6, 11, 10]
    assert [len(plan("six", n, hold=False)) for n in ("Ann", "Bob", "Zoe")] == [7, 12, 11]
    assert len(plan("six", worst("six"))) == 15
    assert len(plan("six", worst("six", hold=False), hold=False)) == 16
    rare = set("wxzq")
    over = [n for n in ("".join(t).capitalize() for t in itertools.product(LETTERS, repeat=3))
            if len(plan("six", n, hold=False)) > 15]
    assert over and all(set(n.lower()) <= rare for n in over)


def test_ending_on_the_check_mark_instead_of_holding(make_device, root):
    dev, typist = open_entry(make_device, "six")
    assert type_name(dev, typist, "six", "Ann", hold=False) == 7
    assert saved_names(dev, typist, root)[0] == "Ann"


# -- recent names --------------------------------------------------------------------------------
def test_a_recent_name_whole(make_device, root):
    names = _names()
    dev, typist = open_entry(make_device, "six", names=NAMES)  # Ann's entry offers the others
    # the old name stands in the title without the cursor (typing replaces it)
    assert plain(dev, "Player 1: Ann") and not dev.shows("Ann_") and plain(dev, "Bob"), dump(dev)
    typist.keys("UP", "UP", "UP")  # over the top row: the first recent name
    assert highlighted(dev, "Bob"), dump(dev)
    typist.key("OK")  # Bob, as the old name stands (typing replaces it), the cursor on the check
    assert plain(dev, "Player 1: Bob") and not dev.shows("Bob_"), dump(dev)
    assert cell_at(dev, names.DONE, names.HOME), dump(dev)
    typist.key("OK")
    assert typist.count == 5
    assert saved_names(dev, typist, root)[:2] == ["Bob", "Bob"]


def test_recent_names_follow_what_is_typed_and_include_replaced_ones(make_device, root):
    dev, typist = open_entry(make_device, "six", names=NAMES)
    type_name(dev, typist, "six", "Zed")  # Ann becomes Zed ...
    dev.press("OK")
    dev.press("DOWN")
    dev.press("OK")  # ... then Bob's entry offers Ann first, replaced a moment ago
    assert dev.shows("Player 2: ") and plain(dev, "Ann Zed Cy"), dump(dev)
    typist.keys(*keys_for("six", "R"))
    assert dev.shows("Player 2: R_") and not dev.shows("Ann") and not dev.shows("Zed"), dump(dev)
    typist.keys(*keys_for("six", "a"))
    typist.keys("UP", "UP", "UP")  # no recent name begins with "Ra": over the top is the bottom
    typist.keys("DOWN", "DOWN", "DOWN")
    typist.keys(*keys_for("six", "n"))
    assert dev.shows("Player 2: Ran_"), dump(dev)
    typist.key("OK")
    assert saved_names(dev, typist, root)[:2] == ["Zed", "Ran"]


@pytest.mark.parametrize("layout", ("three", "encoder"))
def test_walking_layouts_reach_the_recent_names_backwards(make_device, root, layout):
    dev, typist = open_entry(make_device, layout, names=NAMES, slot=1)  # Bob's entry
    typist.key("UP")  # one step back from the check mark: the last recent name
    assert highlighted(dev, "Hal"), dump(dev)
    for _ in range(6):
        typist.key("UP")
    assert highlighted(dev, "Ann"), dump(dev)
    typist.keys("OK", "OK")
    assert saved_names(dev, typist, root)[:2] == ["Ann", "Ann"]


# -- editing -------------------------------------------------------------------------------------
def test_back_deletes_then_leaves_unchanged(make_device, root):
    dev, typist = open_entry(make_device, "six", names=NAMES)
    assert dev.shows("BACK: leave"), dump(dev)
    typist.keys(*keys_for("six", "An"))
    assert dev.shows("Player 1: An_") and dev.shows("BACK:del"), dump(dev)
    typist.key("BACK")
    assert dev.shows("Player 1: A_"), dump(dev)
    typist.keys("BACK", "BACK")  # A deleted, then nothing typed: leave, Ann kept
    assert saved_names(dev, typist, root)[0] == "Ann"


@pytest.mark.parametrize("layout", ("five", "three", "encoder"))
def test_long_ok_deletes_where_there_is_no_back(make_device, root, layout):
    dev, typist = open_entry(make_device, layout, names=NAMES)
    hint = "long push" if layout == "encoder" else "hold OK"
    assert dev.shows(hint + ": leave") and not dev.shows("BACK"), dump(dev)
    typist.keys(*keys_for(layout, "Al"))
    assert dev.shows("Player 1: Al_") and dev.shows(hint + ": delete"), dump(dev)
    typist.key("BACK")
    assert dev.shows("Player 1: A_"), dump(dev)
    typist.keys(*keys_for(layout, "nn"))
    typist.key("OK")
    assert saved_names(dev, typist, root)[0] == "Ann"


def test_delete_cell_edits_the_old_name(make_device, root):
    names = _names()
    dev, typist = open_entry(make_device, "six", names=NAMES)
    to_delete = _path("six", names.LETTERS.index(names.DELETE))
    typist.keys(*to_delete)
    typist.key("OK")  # Ann -> An: the cursor stays on delete
    assert dev.shows("Player 1: An_") and highlighted(dev, "<-"), dump(dev)
    typist.key("OK")
    assert dev.shows("Player 1: A_"), dump(dev)
    typist.keys(*back(to_delete))
    typist.key("OK")  # the check mark
    assert saved_names(dev, typist, root)[0] == "A"


def test_case_symbols_space_and_eight_characters(make_device, root):
    names = _names()
    dev, typist = open_entry(make_device, "six")

    def cell(ch, grid=names.LETTERS, stay=False):
        path = _path("six", grid.index(ch))
        typist.keys(*path)
        typist.key("OK")
        if stay:  # a control cell keeps the cursor: walk back to the check mark
            typist.keys(*back(path))

    cell("a")  # A: a capital first
    cell(names.SHIFT, stay=True)  # the next letter in the other case: J, not j
    k = names.LETTERS.index("k")
    assert plain_at(dev, "K", k), dump(dev)
    cell("j")
    assert plain_at(dev, "k", k), "one letter only" + dump(dev)
    cell(" ")
    cell("b")  # a capital after a space
    cell(names.PAGE, stay=True)  # digits and symbols
    assert plain_at(dev, "~", names.SYMBOLS.index("~")) and plain(dev, "ab"), dump(dev)
    for ch in "!4~?":
        cell(ch, names.SYMBOLS)
    assert dev.shows("Player 1: AJ B!4~?"), dump(dev)
    cell("@", names.SYMBOLS)  # a ninth character is not taken
    assert dev.shows("Player 1: AJ B!4~?") and not dev.shows("?@"), dump(dev)
    typist.key("OK")
    assert saved_names(dev, typist, root)[0] == "AJ B!4~?"


def test_a_cursor_move_sends_few_bytes(make_device, root):
    dev, typist = open_entry(make_device, "six")
    bus = machine.world.bus(dev.cfg["i2c"])
    for key in ("LEFT", "UP", "DOWN", "RIGHT", "DOWN", "DOWN"):
        before = bus.bytes
        typist.key(key)
        moved = bus.bytes - before
        print("\ncursor %s: %d bytes" % (key, moved))
        assert 0 < moved <= 200, (key, moved)
