"""Helpers for scenario tests: the real firmware on the host fakes, driven through its buttons.

Everything a test learns about the device comes from the virtual SSD1306 (pixels decoded from the
I2C bytes the driver sent), the fake GPIO/PWM world and the files on the device's "flash" (a
pytest tmp_path). Navigation helpers look for the highlighted menu row on the panel, so they also
prove that the cursor is drawn where the firmware thinks it is.
"""

import json
import os

import pytest

from tablemate_host import machine
from tablemate_host.device import Device, render_rows

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def root(tmp_path):
    """The device's flash filesystem (with its /data folder, for files a test writes first)."""
    path = str(tmp_path / "flash")
    os.makedirs(os.path.join(path, "data"))
    return path


@pytest.fixture
def make_device(root):
    """Build a Device on the test's root: ``make_device(**kw)``; call again to 'reboot'."""
    def make(**kw):
        if "settings" not in kw:
            kw["settings"] = {"names": NAMES}
        elif kw["settings"] is not None:  # None: leave the settings file as the test made it
            kw["settings"] = dict({"names": NAMES}, **kw["settings"])
        return Device(root, **kw)
    return make


# -- reading the panel ------------------------------------------------------------------------
def highlighted(dev, words):
    """Positions where ``words`` are drawn dark on a lit bar (a selected menu row or player)."""
    from tablemate.ui import text
    rows = render_rows(words, text.SMALL)
    return dev.panel.find([[1 - p for p in row] for row in rows])


def plain(dev, words, font=None):
    """Positions where ``words`` are drawn lit on a dark background."""
    from tablemate.ui import text
    return dev.panel.find(render_rows(words, font or text.SMALL))


def shows_at(dev, words, x, y, font=None):
    return (x, y) in dev.find_text(words, font)


def _players(dev):
    from tablemate.rules import scorepad
    return len(scorepad.names(dev.app.game.state))


def score_font(n):
    """The font of the scores in a table of ``n`` players (16 px up to four, 12 px beyond)."""
    from tablemate.ui import text
    medium, big = text.large()
    return big if n <= 4 else medium


def table_cell(n, i):
    """(x, first page, width) of player ``i``'s cell in the score table of ``n`` players, from
    the table's layout (``ui/table.py``)."""
    from tablemate.ui import table
    cols, w, rows = table.layout(n)
    return (i % cols) * w, rows[i // cols], w


def row_score(dev, i, value):
    """True when player ``i``'s cell of the score table shows ``value`` in the score font."""
    n = _players(dev)
    x, page, w = table_cell(n, i)
    font = score_font(n)
    shown = "%d" % value
    sw = font_width(shown, font)
    return shows_at(dev, shown, x + (w - sw) // 2, (page + 1) * 8, font)


def big_score(dev, i, value):
    """True when player ``i`` of a 1-2 player table shows ``value`` in big digits."""
    return row_score(dev, i, value)


def font_width(s, font):
    from tablemate.ui import text
    return text.width(s, font) - font.spacing


def dump(dev):
    """The panel as text, for assertion messages."""
    return "\n" + dev.panel.to_text()


# -- driving the menus ------------------------------------------------------------------------
def home_items():
    """The home menu's rows without a saved game: the game modes, then the fixed pages."""
    from tablemate import modes
    return [m["label"] for m in modes.MODES] + ["Chess clock", "Settings", "History", "Self-test",
                                                    "About"]


def choose(dev, label, key="DOWN", limit=None):
    """Move the cursor to the menu row ``label`` (seen highlighted on the panel), then press OK."""
    dev.choose(label, key, limit)


def menu_row(dev, label):
    """True when the highlighted menu row reads exactly ``label`` (nothing more on the bar)."""
    return dev.menu_row(label)


def goto(dev, label, key="DOWN", limit=None):
    """Move the cursor with ``key`` until the menu row ``label`` is highlighted."""
    dev.goto(label, key, limit)


def _cell_of(dev, name):
    from tablemate.rules import scorepad
    names = scorepad.names(dev.app.game.state)
    return table_cell(len(names), names.index(name))


def cursor_at(dev, name):
    """Score table: ``name``'s name bar is lit (their cell is the one LEFT/RIGHT change)."""
    x, page, w = _cell_of(dev, name)
    px = dev.panel.pixels()
    return all(px[page * 8 + j][x] for j in range(-1, 8)) and bool(highlighted(dev, name))


def turn_of(dev, name):
    """Score table: ``name``'s whole cell is lit, whose turn it is."""
    x, page, w = _cell_of(dev, name)
    px = dev.panel.pixels()
    top = page * 8 - 1  # a lit band takes the row over its text (``text.bar``)
    return all(px[y][x] and px[y][x + w - 1] for y in range(top, top + 24))


def select_player(dev, name, key="DOWN", limit=9):
    """Scorepad: move the cursor with ``key`` until it points at ``name``."""
    for _ in range(limit):
        if cursor_at(dev, name):
            return
        dev.press(key)
    raise AssertionError("player %r never selected" % name + dump(dev))


def new_scorepad(dev, players=3, target=0, timer_steps=0, stop=False):
    """From the home menu: set up and start a scorepad with LEFT/RIGHT in the setup menu.

    ``stop``: the game ends the moment the target is reached (the default plays the round
    out)."""
    choose(dev, "Scorepad")
    assert dev.shows("New Scorepad"), dump(dev)
    setup = dev.app.top()  # it opens as the scorepad was last set up: step from there
    while len(setup.seats) != players:
        dev.press("RIGHT" if len(setup.seats) < players else "LEFT")
    assert highlighted(dev, "Players: %d" % players), dump(dev)
    goto(dev, "Target: %d" % setup.values[0] if setup.values[0] else "Target: none")
    while setup.values[0] != target:
        dev.press("RIGHT" if setup.values[0] < target else "LEFT")
    assert highlighted(dev, "Target: %d" % target if target else "Target: none"), dump(dev)
    if target:  # the "Win" row shows only with a target
        goto(dev, "Win: " + ("end of round" if setup.values[1] else "at once"))
        if setup.values[1] == stop:
            dev.press("RIGHT")
    timers = setup.option_rows[3][4][0]
    goto(dev, "Turn timer: " + ("%ds" % setup.values[3] if setup.values[3] else "off"))
    while setup.values[3] != timers[timer_steps]:
        dev.press("RIGHT")
    choose(dev, "Start")


def commit(dev):
    """Wait for the scorepad's pending change to be journaled (1.5 s after the last press)."""
    dev.advance(1600)


def actions(dev):
    """The journal's actions (header dropped)."""
    return dev.journal()[1:]


def header(dev):
    """The journal's header without the game's id (random), after checking it has one."""
    head = dict(dev.journal()[0])
    gid = head.pop("id")
    assert type(gid) is str and len(gid) == 8, gid
    return head


def history(root):
    path = os.path.join(root, "data", "history.jnl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f]


def hold(dev, key, ms):
    dev.down(key)
    dev.advance(ms)
    dev.up(key)


def beeps(freq, gpio=16):
    """Times at which the buzzer started a note of ``freq`` Hz (from the fake PWM log)."""
    out = []
    prev = (0, 0)
    for ms, f, duty in machine.world.pwm.get(gpio, []):
        if f == freq and duty and not (prev[0] == f and prev[1]):
            out.append(ms)
        prev = (f, duty)
    return out


@pytest.fixture(autouse=True)
def text_fits():
    """Every frame of every scenario is checked for text that is clipped, cut, runs into its
    neighbour or is drawn over (tablemate_host/textcheck.py): a fault fails the test."""
    from tablemate_host import textcheck
    with textcheck.Watch() as watch:
        yield watch
    assert not watch.problems, "text that does not read as drawn:\n" + "\n".join(watch.problems)
