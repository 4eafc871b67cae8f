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
SCORE_ROW_Y0 = 13  # 3-4 players: row i's text is drawn at y = 13 + 13 * i, scores right-aligned
SCORE_ROW_PITCH = 13


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


def row_score(dev, i, value):
    """True when player row ``i`` (3-4 player table) shows ``value`` as its score."""
    from tablemate.ui import text
    shown = "%d" % value
    return shows_at(dev, shown, 126 - text.width(shown), SCORE_ROW_Y0 + i * SCORE_ROW_PITCH)


def big_score(dev, i, value, players=2):
    """True when player ``i`` of a 1-2 player table shows ``value`` in big digits."""
    from tablemate.ui import text
    shown = "%d" % value
    w = 64 if players == 2 else 128
    x = i * 64 + (w - text.width(shown, text.large()[1])) // 2
    return shows_at(dev, shown, x, 11 + 14, text.large()[1])


def dump(dev):
    """The panel as text, for assertion messages."""
    return "\n" + dev.panel.to_text()


# -- driving the menus ------------------------------------------------------------------------
def home_items():
    """The home menu's rows without a saved game: the game modes, then the fixed pages."""
    from tablemate import session
    return [m["label"] for m in session.MODES] + ["Chess clock", "Settings", "History", "Self-test",
                                                    "About"]


def choose(dev, label, key="DOWN", limit=12):
    """Move the cursor to the menu row ``label`` (seen highlighted on the panel), then press OK."""
    dev.choose(label, key, limit)


def menu_row(dev, label):
    """True when the highlighted menu row reads exactly ``label`` (nothing more on the bar)."""
    return dev.menu_row(label)


def goto(dev, label, key="DOWN", limit=12):
    """Move the cursor with ``key`` until the menu row ``label`` is highlighted."""
    dev.goto(label, key, limit)


def cursor_at(dev, name):
    """Score table: the cursor arrow stands just left of ``name`` (on a lit or dark row)."""
    from tablemate.ui import text
    arrows = set(dev.find_text(text.ARROW))
    return any((x - 7, y) in arrows for x, y in dev.find_text(name))


def turn_of(dev, name):
    """Score table: ``name``'s row is the inverted one, whose turn it is."""
    return bool(highlighted(dev, name))


def select_player(dev, name, key="DOWN", limit=9):
    """Scorepad: move the cursor with ``key`` until it points at ``name``."""
    for _ in range(limit):
        if cursor_at(dev, name):
            return
        dev.press(key)
    raise AssertionError("player %r never selected" % name + dump(dev))


def new_scorepad(dev, players=3, target=0, timer_steps=0):
    """From the home menu: set up and start a scorepad with LEFT/RIGHT in the setup menu."""
    choose(dev, "Scorepad")
    assert dev.shows("New Scorepad"), dump(dev)
    goto(dev, "Players: 2")
    for _ in range(players - 2):
        dev.press("RIGHT")
    assert highlighted(dev, "Players: %d" % players), dump(dev)
    dev.press("DOWN")
    for _ in range(target // 5):
        dev.press("RIGHT")
    assert highlighted(dev, "Target: %d" % target if target else "Target: none"), dump(dev)
    dev.press("DOWN")
    for _ in range(timer_steps):
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
