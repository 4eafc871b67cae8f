"""The terminal simulator: keys become button holds, frames are half-blocks or braille, games
survive a kill.

The terminal itself is tested for real at the end of this file: ``tablemate sim`` (and ``make
sim``) runs in a pseudo-terminal, is resized and killed, and the pty's termios settings and the
bytes it wrote are checked.
"""

import fcntl
import json
import os
import re
import select
import shlex
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from tablemate import keys as K
from tablemate_host import cli, sim, simdraw
from tablemate_host.device import Device

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST = os.path.join(ROOT, "host")
RIGHT = "\x1b[C"
LIMIT_S = 60  # what a test waits for comes in ~1 s, in seconds on a loaded machine: a
# simulator that has not done it in a minute will not (the test fails and says what it waited for)


def test_split_keys_keeps_escape_sequences_whole():
    assert sim.split_keys("\x1b[Aw\r\x1b[D\x7f") == ["\x1b[A", "w", "\r", "\x1b[D", "\x7f"]


def _tap(s, token):
    s.key(token)
    s.run_for(300)


def _listen(dev):
    """Record every key event the app receives from its input: [(ms, key name, kind name)]."""
    seen = []
    app = dev.app
    receive = app._emit

    def emit(key, kind):
        seen.append((dev.now, K.NAMES[key], K.KIND_NAMES[kind]))
        receive(key, kind)

    app._emit = emit
    return seen


def _scorepad(root, **kw):
    """A sim on a fresh two-player scorepad, first player's turn."""
    s = sim.Sim(Device(root), **kw)
    s.dev.choose("Scorepad")
    s.dev.choose("Start")
    assert s.dev.shows("Round 1")
    return s


def _sized(lines, drawing):
    """``lines`` are exactly the size of ``drawing`` (the SGR codes of a dim panel aside)."""
    cols, rows = simdraw.SIZES[drawing]
    return len(lines) == rows and all(len(re.sub("\x1b\\[[0-9]*m", "", line)) == cols
                                      for line in lines)


def test_keys_drive_the_firmware_and_frames_are_half_blocks(tmp_path):
    s = sim.Sim(Device(str(tmp_path)))
    lines = s.frame()
    assert _sized(lines, "full")
    assert any("\u2580" in line or "\u2584" in line for line in lines)
    for token in ("\r", "\x1b[C", "\x1b[A", "\r", "\x1b[C"):
        _tap(s, token)
    s.run_for(2000)
    assert s.dev.journal()[1] == ["add", 0, 1]
    assert s.dev.shows("Round 1")


def test_terminal_autorepeat_is_one_held_button(tmp_path):
    s = sim.Sim(Device(str(tmp_path)))
    for token in ("\r", "\x1b[A"):
        _tap(s, token)
    _tap(s, "\r")
    for _ in range(40):  # a held arrow key: the terminal repeats it every 30 ms
        s.key("\x1b[C")
        s.run_for(30)
    s.run_for(2000)
    adds = [line for line in s.dev.journal()[1:] if line[0] == "add"]
    assert len(adds) == 1 and adds[0][2] > 5  # one action, accelerated by the firmware


def test_back_is_long_ok_without_a_back_button(tmp_path):
    s = sim.Sim(Device(str(tmp_path)), layout="three")
    for token in ("\r", "\x1b[A", "\r"):
        _tap(s, token)
    s.key("\x7f")
    s.run_for(1200)
    assert s.dev.shows("Back to game")


@pytest.mark.parametrize("layout", ["six", "five", "three", "encoder"])
def test_the_hold_key_leaves_the_self_tests_key_page(tmp_path, layout):
    """The key page says how long to hold ("Hold OK 3s" on the knob: the long push that is
    BACK, then BACK for 2 s); the sim's hold key ``o`` holds that long, read from the page
    (a 900-ms long OK left the page open on every layout without BACK)."""
    from tablemate.screens.selftest import KeyTest
    s = sim.Sim(Device(str(tmp_path)), layout=layout)
    s.dev.app.push(KeyTest(s.dev.app))  # over the home menu
    s.run_for(100)
    hint, seconds = ("Hold BACK 2s: leave", 2) if layout == "six" else ("Hold OK 3s: leave", 3)
    assert s.dev.shows(hint), s.dev.panel.to_text()
    s.key("o")
    s.run_for(seconds * 1000 + 500)
    assert type(s.dev.app.top()).__name__ == "Home", s.dev.panel.to_text()


def test_a_killed_simulator_resumes_on_the_same_flash(tmp_path):
    s = sim.Sim(Device(str(tmp_path)))
    for token in ("\r", "\x1b[A", "\r", "\x1b[C", "\x1b[C", "\r"):
        _tap(s, token)
    again = sim.Sim(Device(str(tmp_path)))  # the process died; a new one starts on the same data
    assert again.dev.shows("Resume game?")
    _tap(again, "\r")
    assert again.dev.shows("Round 1")
    assert again.dev.app.top().game.state["scores"] == [2, 0]


def test_fresh_wipes_the_whole_simulated_flash(tmp_path):
    s = _scorepad(str(tmp_path))
    s.key(RIGHT)
    s.run_for(2000)
    assert os.path.exists(os.path.join(str(tmp_path), "data", "game.jnl"))
    sim.wipe(str(tmp_path))
    assert os.listdir(str(tmp_path)) == []


# -- taps and holds: terminal characters in, button levels out ---------------------------------

@pytest.mark.parametrize("pass_ms", [10, 60, 150])
def test_ten_taps_100_ms_apart_are_ten_presses(tmp_path, pass_ms):
    """The terminal loop reads keys between passes that run the device and draw; a pass over a
    slow link can take longer than the pause between two taps. Each tap still counts."""
    s = _scorepad(str(tmp_path))
    seen = _listen(s.dev)
    start = s.dev.now
    taps = [(start + 100 * i, RIGHT) for i in range(10)]
    now = start
    while taps or now - start < 1000:
        now += pass_ms
        arrived = [tap for tap in taps if tap[0] <= now]
        taps = taps[len(arrived):]
        s.play(arrived, now)
    assert [key for _, key, kind in seen if kind == "PRESS"] == ["RIGHT"] * 10
    s.run_for(2000)  # the scorepad commits the pending change
    assert s.dev.journal()[1:] == [["add", 0, 10]]


@pytest.mark.parametrize("phase", range(10))
def test_a_tap_just_after_a_release_is_a_press_of_its_own(tmp_path, phase):
    """Taps ``RELEASE_MS`` + 2 ms apart: each key is let go 2 ms before the next tap, less than
    one 10 ms loop pass; the release must still reach the firmware, at any phase of its loop."""
    s = _scorepad(str(tmp_path))
    s.run_for(phase)
    seen = _listen(s.dev)
    start = s.dev.now
    s.play([(start + (sim.RELEASE_MS + 2) * i, RIGHT) for i in range(6)], start + 1000)
    assert len([e for e in seen if e[2] == "PRESS"]) == 6


def test_holding_a_key_holds_the_button(tmp_path):
    """A real terminal: one character, a pause of ~500 ms, then repeats every 30 ms. The first
    character is a tap; from the first repeat on, the button stays down until they stop."""
    s = _scorepad(str(tmp_path))
    seen = _listen(s.dev)
    start = s.dev.now
    keys = [(start, RIGHT)] + [(start + 500 + 30 * i, RIGHT) for i in range(50)]
    last = keys[-1][0]
    s.play(keys, last + 500)
    kinds = [kind for _, key, kind in seen if key == "RIGHT"]
    assert kinds[:3] == ["PRESS", "RELEASE", "PRESS"]
    assert kinds[-1] == "RELEASE" and kinds.count("PRESS") == 2
    assert kinds.count("REPEAT") >= 5  # the firmware's own auto-repeat ran
    release = [ms for ms, key, kind in seen if kind == "RELEASE"][-1]
    assert 0 < release - last <= sim.RELEASE_MS + 10


# -- --layout: this run only --------------------------------------------------------------------

def _settings_file(root):
    with open(os.path.join(root, "data", "settings.json")) as f:
        return json.load(f)


def _saved_layout(root, layout):
    """The device's settings file, saved with ``layout``."""
    from tablemate.store import settings
    os.makedirs(os.path.join(root, "data"))
    settings.save(os.path.join(root, "data", "settings.json"),
                  dict(settings.defaults(), layout=layout))


@pytest.mark.parametrize("saved, run", [("six", "three"), ("three", "six"), ("six", "encoder"),
                                        ("encoder", "five")])
def test_the_layout_option_does_not_touch_the_saved_settings(tmp_path, saved, run):
    root = str(tmp_path)
    _saved_layout(root, saved)
    path = os.path.join(root, "data", "settings.json")
    with open(path, "rb") as f:
        before = f.read()
    s = sim.Sim(Device(root), layout=run)
    assert s.dev.app.layout == run
    s.run_for(1000)
    with open(path, "rb") as f:
        assert f.read() == before


def test_the_layout_option_is_accepted_for_every_layout():
    for layout in ("six", "five", "three", "encoder"):
        assert cli.build_parser().parse_args(["sim", "--layout", layout]).layout == layout


def test_no_settings_file_is_written_for_the_layout_option(tmp_path):
    s = sim.Sim(Device(str(tmp_path)), layout="five")
    s.run_for(1000)
    assert s.dev.app.layout == "five"
    assert not os.path.exists(os.path.join(str(tmp_path), "data", "settings.json"))


def _open_settings(dev):
    dev.choose("Settings")
    assert dev.menu_row("Brightness: 3")


def test_settings_saved_during_the_run_keep_the_saved_layout(tmp_path):
    root = str(tmp_path)
    _saved_layout(root, "six")
    s = sim.Sim(Device(root), layout="three")
    dev = s.dev
    _open_settings(dev)
    dev.press("OK")  # brightness 3 -> 4
    dev.long_press("OK")  # BACK on three buttons: leave, and save
    assert _settings_file(root)["brightness"] == 4
    assert _settings_file(root)["layout"] == "six"
    assert dev.app.layout == "three"


def test_a_layout_the_player_keeps_in_settings_is_saved(tmp_path):
    root = str(tmp_path)
    _saved_layout(root, "six")
    s = sim.Sim(Device(root), layout="three")
    dev = s.dev
    _open_settings(dev)
    dev.choose("Buttons: three")  # the next layout: encoder
    assert dev.menu_row("Buttons: encoder")
    dev.long_press("OK")  # leave: the new layout is tried
    assert dev.shows("Press OK with the new")
    dev.press("OK")  # the encoder's push: kept
    assert _settings_file(root)["layout"] == "encoder"
    assert dev.app.layout == "encoder"


def test_the_run_layout_survives_a_watchdog_reset(tmp_path):
    root = str(tmp_path)
    _saved_layout(root, "six")
    s = sim.Sim(Device(root), layout="three")
    s.dev.watchdog_reset()
    s.run_for(100)
    assert s.dev.app.layout == "three"
    assert _settings_file(root)["layout"] == "six"


# -- the help line -----------------------------------------------------------------------------

# What the help line calls each key, and what the terminal sends for it.
KEY_NAMES = {
    "\u2190": "\x1b[D", "\u2191": "\x1b[A", "\u2192": "\x1b[C", "\u2193": "\x1b[B",
    "w": "w", "a": "a", "s": "s", "d": "d", "Enter": "\r", "Space": " ", "o": "o",
    "Backspace": "\x7f", "Esc": "\x1b", "b": "b", "q": "q",
}


def _named_keys(help_line):
    """The keys a help line names: each entry is 'keys/keys action', keys a name or a run of
    one-character names ('wasd')."""
    named = []
    for entry in help_line.split("  "):
        for part in entry.split(" ")[0].split("/"):
            named += [part] if part in KEY_NAMES else list(part)
    return named


@pytest.mark.parametrize("layout", ["six", "five", "three", "encoder"])
def test_the_help_line_names_only_keys_of_the_layout(tmp_path, layout):
    s = sim.Sim(Device(str(tmp_path)), layout=layout)
    help_line = s.help()
    assert not re.search(r"[`*_]", help_line)
    assert s.frame()[-1].strip() == help_line
    named = _named_keys(help_line)
    assert set(named) <= set(KEY_NAMES), named
    seen = _listen(s.dev)
    for name in named:
        if name == "q":
            continue
        del seen[:]
        s.key(KEY_NAMES[name])
        s.run_for(1500)
        assert seen, "%r does nothing with the %s layout" % (name, layout)
        s.dev.app.home()
        s.run_for(100)
    s.key("q")
    assert s.quit


def test_the_help_line_follows_a_layout_change(tmp_path):
    s = sim.Sim(Device(str(tmp_path)), layout="six")
    assert "\u2190" in s.help()
    s.dev.app.settings["layout"] = "three"
    s.dev.app.apply_settings()
    assert s.frame()[-1].strip() == sim.HELP["three"]


# -- the compact drawing: braille ----------------------------------------------------------------

def _unbraille(lines):
    """Pixels back from lines of braille cells, by Unicode's dot numbering: dots 1, 2, 3, 7 down
    a cell's left column are bits 0x01, 0x02, 0x04, 0x40; dots 4, 5, 6, 8 down its right column
    are 0x08, 0x10, 0x20, 0x80."""
    left, right = (0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80)
    px = [[0] * (2 * len(lines[0])) for _ in range(4 * len(lines))]
    for row, line in enumerate(lines):
        for col, cell in enumerate(line):
            bits = ord(cell) - 0x2800
            assert 0 <= bits <= 0xFF, "not a braille cell: %r" % cell
            for dy in range(4):
                px[4 * row + dy][2 * col] = 1 if bits & left[dy] else 0
                px[4 * row + dy][2 * col + 1] = 1 if bits & right[dy] else 0
    return px


def test_the_compact_drawing_fits_80x24_and_decodes_to_the_exact_pixels(tmp_path):
    s = _scorepad(str(tmp_path))
    s.key(RIGHT)
    s.run_for(300)  # a score, a name bar, a status line: every shape of dot pattern
    lines = s.frame("compact")
    cols, rows = simdraw.SIZES["compact"]
    assert cols <= 80 and rows <= 24 and _sized(lines, "compact")
    assert lines[0] == "\u250c" + "\u2500" * 64 + "\u2510"
    assert lines[17] == "\u2514" + "\u2500" * 64 + "\u2518"
    assert all(line[0] == line[-1] == "\u2502" for line in lines[1:17])
    px = s.dev.panel.pixels()
    assert 500 < sum(map(sum, px)) < 64 * 128 - 500
    assert _unbraille([line[1:-1] for line in lines[1:17]]) == px


def test_the_compact_drawing_of_a_dark_screen_is_blank(tmp_path):
    s = sim.Sim(Device(str(tmp_path)))
    s.dev.panel.display_on = False
    lines = s.frame("compact")
    assert _sized(lines, "compact") and lines[18].startswith(" screen off")
    assert all(line == "\u2502" + " " * 64 + "\u2502" for line in lines[1:17])


@pytest.mark.parametrize("layout", ["six", "five", "three", "encoder"])
def test_the_compact_help_names_every_key_on_its_two_lines(tmp_path, layout):
    s = sim.Sim(Device(str(tmp_path)), layout=layout)
    lines = s.frame("compact")
    assert " ".join(lines[-2:]).split() == s.help().split()
    assert all(entry in lines[-2] or entry in lines[-1] for entry in s.help().split("  "))


def test_the_drawing_is_the_largest_the_terminal_holds_unless_one_is_asked_for():
    assert simdraw.choose(80, 24) == "compact"
    assert simdraw.choose(130, 36) == "full"
    assert simdraw.choose(129, 50) == simdraw.choose(200, 35) == "compact"
    assert simdraw.choose(65, 24) is None and simdraw.choose(80, 20) is None
    assert simdraw.choose(200, 60, "compact") == "compact"
    assert simdraw.choose(100, 30, "full") is None
    for drawing in ("auto", "full", "compact"):
        assert cli.build_parser().parse_args(["sim", "--drawing", drawing]).drawing == drawing
    assert cli.build_parser().parse_args(["sim"]).drawing == "auto"


# -- what the firmware prints: About ------------------------------------------------------------

def test_about_prints_off_the_picture_and_says_free_ram_is_not_known(tmp_path, capsys):
    """About prints its line for the Pico's serial console; in the simulator that line goes to
    the status line, never onto the terminal the picture is drawn on. The host has no figure for
    the device's free RAM, and About says so rather than "0 B"."""
    import tablemate
    s = sim.Sim(Device(str(tmp_path)))
    capsys.readouterr()
    for token in ("\x1b[A", "\r"):  # up from the first row: the last one, About
        _tap(s, token)
    assert s.dev.shows("Tablemate " + tablemate.VERSION)
    assert s.dev.shows("Free RAM not known")
    assert capsys.readouterr() == ("", "")
    line = "Tablemate %s: Free RAM not known" % tablemate.VERSION
    assert s.console.text == line + "\n"
    assert s.frame()[-2].strip() == "screen on  serial: " + line
    assert s.frame("compact")[-3].strip() == "screen on  serial: " + line


def test_about_shows_the_free_ram_a_device_reports(tmp_path, monkeypatch):
    """On the Pico ``gc.mem_free()`` is a figure, and About shows it in bytes."""
    import gc
    s = sim.Sim(Device(str(tmp_path)))
    monkeypatch.setattr(gc, "mem_free", lambda: 151872)
    for token in ("\x1b[A", "\r"):
        _tap(s, token)
    assert s.dev.shows("Free RAM 151872 B")
    assert s.console.last.endswith(": Free RAM 151872 B")


# -- the real terminal: a pty ------------------------------------------------------------------

def _child(ignored):
    """What the child runs before the simulator: make the pty its controlling terminal, so
    resizing it sends SIGWINCH, and give it SIGTERM, SIGHUP and SIGINT at their defaults but for
    the ``ignored`` ones.

    Why the defaults: a signal ignored is ignored in every child too, and the simulator keeps a
    hangup that it was started ignoring (nohup's contract: ``sim.Signals.install``). pytest run
    under nohup, or by a CI runner that ignores SIGHUP, would start it so, and a test sending it
    SIGHUP would wait for an end that never comes: the test of SIGHUP hung for 600 s once."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, signal.SIG_IGN if sig in ignored else signal.SIG_DFL)


class PtySim:
    """``tablemate sim --data data`` (or ``command``, which runs it) in a pseudo-terminal of
    ``cols`` x ``rows``; its stderr is the terminal too unless ``stderr`` says otherwise, and
    the signals in ``ignored`` are ignored from its start (``_child``)."""

    def __init__(self, data, cols, rows, command=None, env=None, stderr=None, ignored=()):
        self.data = data
        self.master, self.slave = os.openpty()
        self.size = (cols, rows)
        self._set_size(cols, rows)
        self.before = termios.tcgetattr(self.slave)
        self.out = bytearray()
        self.proc = subprocess.Popen(
            command or [sys.executable, "-m", "tablemate_host.cli", "sim", "--data", data],
            stdin=self.slave, stdout=self.slave, stderr=stderr or self.slave,
            env=dict(env or os.environ, PYTHONPATH=HOST),
            start_new_session=True, preexec_fn=lambda: _child(ignored))

    def _set_size(self, cols, rows):
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def resize(self, cols, rows):
        """Resize the terminal (the kernel sends SIGWINCH to the simulator)."""
        self.size = (cols, rows)
        self._set_size(cols, rows)

    def drain(self, seconds):
        """Read what the simulator writes for ``seconds``."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([self.master], [], [], 0.02)[0]:
                self.out += os.read(self.master, 65536)

    def until(self, needle, start=0, timeout=LIMIT_S):
        """Read until ``needle`` (bytes) appears in the output after ``start``, then a little
        more, so that the picture is complete."""
        end = time.monotonic() + timeout
        while self.out.find(needle, start) < 0:
            assert self.proc.poll() is None, "the simulator ended (%s) before showing %r%s" % (
                self.proc.returncode, needle, self._tail())
            assert time.monotonic() < end, "no %r from the simulator in %d s%s" % (
                needle, timeout, self._tail())
            self.drain(0.05)
        self.drain(0.3)

    def wait(self, timeout=LIMIT_S):
        """Read until the simulator exits; its return code."""
        end = time.monotonic() + timeout
        while self.proc.poll() is None:
            assert time.monotonic() < end, "the simulator did not end in %d s%s" % (
                timeout, self._tail())
            self.drain(0.05)
        self.drain(0.1)
        return self.proc.returncode

    def text(self):
        return self.out.decode("utf-8", "replace")

    def _tail(self):
        """The end of the output, for a failure message: its text, the escapes left out."""
        return "; it last wrote: %r" % re.sub("\x1b\\[[?0-9;]*[A-Za-z]", " ", self.text())[-300:]

    def close(self):
        """End what is left of the run: the session's process group (make and its child)."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        if self.proc.stderr:
            self.proc.stderr.close()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def pty_sim(tmp_path):
    started = []

    def start(cols=140, rows=40, **kw):
        started.append(PtySim(str(tmp_path / "flash"), cols, rows, **kw))
        return started[-1]

    yield start
    for p in started:
        p.close()


FRAME_END = "\u2518".encode()  # the bottom right corner of the panel's frame
HELP_END = b"q quit"  # the end of the help line, the last line of a full frame


class Screen:
    """What a terminal shows, for the escape sequences the simulator may write (any other one
    fails the test, so the model never passes what it does not understand).

    After a resize what a terminal shows is up to the terminal (reflowed lines, old text at odd
    places): the model assumes the worst and fills the screen with junk, so only a full redraw
    leaves a clean picture.
    """

    def __init__(self, cols, rows):
        self.resize(cols, rows)
        self.cells = [[" "] * cols for _ in range(rows)]
        self.modes = {}

    def resize(self, cols, rows):
        self.cols, self.rows = cols, rows
        self.cells = [["~"] * cols for _ in range(rows)]
        self.row = self.col = 0

    def feed(self, text):
        for m in re.finditer(r"\x1b\[(\??)([0-9;]*)([A-Za-z])|\x1b|.", text, re.S):
            if m.group(0) == "\x1b":
                raise AssertionError("unknown escape at %r" % text[m.start():m.start() + 12])
            if m.group(3) is None:
                self._char(m.group(0))
            else:
                self._csi(m.group(1), m.group(2), m.group(3))

    def _csi(self, private, params, final):
        if private and final in "hl":
            self.modes[params] = final
        elif final == "H":
            row, _, col = params.partition(";")
            self.row, self.col = int(row or 1) - 1, int(col or 1) - 1
        elif final == "J" and params == "2":
            self.cells = [[" "] * self.cols for _ in range(self.rows)]
        elif final != "m":
            raise AssertionError("unknown sequence %r" % (private + params + final))

    def _char(self, c):
        if c == "\r":
            self.col = 0
        elif c == "\n":
            self.row = min(self.row + 1, self.rows - 1)
        else:
            assert self.col < self.cols and self.row < self.rows, "text past the edge"
            self.cells[self.row][self.col] = c
            self.col += 1

    def lines(self):
        return ["".join(row).rstrip() for row in self.cells]


def _assert_shows_the_device(screen, drawing="full"):
    """The device's frame in ``drawing`` at the top left and nothing else on the screen; its
    status line (the line under the frame)."""
    cols, rows = simdraw.SIZES[drawing]
    panel = rows - 3 - simdraw.HELP_LINES[drawing]  # lines of the panel inside the frame
    lines = screen.lines()
    assert lines[0] == "\u250c" + "\u2500" * (cols - 2) + "\u2510", lines[0]
    assert all(line.startswith("\u2502") and line.endswith("\u2502") and len(line) == cols
               for line in lines[1:panel + 1]), lines
    pixels = "".join(line[1:-1] for line in lines[1:panel + 1])
    assert ("\u2580" in pixels) == (drawing == "full")
    assert all("\u2800" <= c <= "\u28ff" for c in pixels) == (drawing == "compact")
    assert lines[panel + 1] == "\u2514" + "\u2500" * (cols - 2) + "\u2518"
    assert lines[panel + 2].startswith(" screen on")
    assert " ".join(lines[panel + 3:rows]).split() == sim.HELP["six"].split()
    assert all(line == "" for line in lines[rows:]), lines[rows:]
    return lines[panel + 2]


def _assert_shows_only(screen, text):
    lines = screen.lines()
    assert lines[0] == text and all(line == "" for line in lines[1:]), lines


def _restored_modes(out):
    """Each DEC private mode the simulator set, as it was left at the end."""
    modes = {}
    for params, final in re.findall(r"\x1b\[\?([0-9;]+)([hl])", out):
        for mode in params.split(";"):
            modes[mode] = final
    return modes


# What each mode is outside a full-screen program: the cursor shown, the main screen.
MODE_DEFAULTS = {"25": "h", "1049": "l"}


@pytest.mark.parametrize("ending", ["q", signal.SIGTERM, signal.SIGHUP])
def test_the_terminal_is_restored_however_the_simulator_ends(pty_sim, ending):
    p = pty_sim()
    p.until(HELP_END)
    assert termios.tcgetattr(p.slave) != p.before  # keys unbuffered, no echo while it runs
    if ending == "q":
        os.write(p.master, b"q")
    else:
        p.proc.send_signal(ending)
    code = p.wait()
    assert code == (0 if ending == "q" else -ending)
    assert termios.tcgetattr(p.slave) == p.before
    out = p.text()
    modes = _restored_modes(out)
    assert set(modes) <= set(MODE_DEFAULTS), "a mode without its default here: %s" % modes
    assert modes == {mode: MODE_DEFAULTS[mode] for mode in modes} and modes
    last = list(re.finditer(r"\x1b\[[?0-9;]*[A-Za-z]", out))[-1]  # nothing drawn after it:
    assert out[last.end():].strip() == "Game data kept in %s (run again to resume)." % p.data


def test_a_hangup_ignored_from_the_start_stays_ignored(pty_sim):
    """Started under nohup (SIGHUP ignored), the simulator outlives a hangup, as nohup promises;
    q still ends it, the terminal restored."""
    p = pty_sim(ignored=(signal.SIGHUP,))
    p.until(HELP_END)
    p.proc.send_signal(signal.SIGHUP)
    p.drain(1.0)
    assert p.proc.poll() is None
    os.write(p.master, b"q")
    assert p.wait() == 0
    assert termios.tcgetattr(p.slave) == p.before


def test_the_drawing_fits_the_terminal_and_follows_each_resize(pty_sim):
    """A default 80x24 terminal shows the compact drawing, within its 80x24; a resize switches
    to the drawing the new size holds, either way, and a terminal too small for both says so."""
    p = pty_sim(80, 24)
    p.until(HELP_END)
    screen = Screen(80, 24)  # which fails on any text past its edge
    screen.feed(p.text())
    _assert_shows_the_device(screen, "compact")

    steps = ((140, 40, "full"), (100, 30, "compact"), (150, 45, "full"), (60, 20, None),
             (80, 24, "compact"))
    for cols, rows, drawing in steps:
        fed = len(p.out)
        p.resize(cols, rows)
        screen.resize(cols, rows)
        p.until(HELP_END if drawing else b"q quits", fed)
        if drawing is None:
            p.drain(0.5)
        screen.feed(p.out[fed:].decode())
        if drawing:
            _assert_shows_the_device(screen, drawing)
        else:
            assert p.out[fed:].count(b"q quits") == 1 and FRAME_END not in p.out[fed:]
            _assert_shows_only(screen, "Tablemate needs 66x21; this terminal is 60x20 (q quits)")
    os.write(p.master, b"q")
    assert p.wait() == 0


def test_a_drawing_asked_for_is_kept_at_any_size(pty_sim, tmp_path):
    command = [sys.executable, "-m", "tablemate_host.cli", "sim", "--data", str(tmp_path / "f")]
    p = pty_sim(150, 45, command=command + ["--drawing", "compact"])
    p.until(HELP_END)
    screen = Screen(150, 45)
    screen.feed(p.text())
    _assert_shows_the_device(screen, "compact")
    os.write(p.master, b"q")
    assert p.wait() == 0
    p = pty_sim(100, 30, command=command + ["--drawing", "full"])
    p.until(b"q quits")
    screen = Screen(100, 30)
    screen.feed(p.text())
    _assert_shows_only(screen, "Tablemate needs 130x36; this terminal is 100x30 (q quits)")
    os.write(p.master, b"q")
    assert p.wait() == 0


def test_what_the_firmware_prints_stays_off_the_picture(pty_sim):
    """About prints a line for the serial console: the picture stays whole, the line is on the
    status line, and it is in the shell after the run, before the last words."""
    import tablemate
    p = pty_sim()
    p.until(HELP_END)
    fed = len(p.out)
    os.write(p.master, b"\x1b[A")  # up from the first row: the last one, About
    time.sleep(0.3)
    os.write(p.master, b"\r")
    p.until(b"Free RAM", fed)
    screen = Screen(140, 40)
    screen.feed(p.text())
    line = "Tablemate %s: Free RAM not known" % tablemate.VERSION
    assert _assert_shows_the_device(screen) == " screen on  serial: " + line
    os.write(p.master, b"q")
    assert p.wait() == 0
    out = p.text()
    last = list(re.finditer(r"\x1b\[[?0-9;]*[A-Za-z]", out))[-1]
    assert out[last.end():].split() == (
        line + " Game data kept in %s (run again to resume)." % p.data).split()


def _children(pid):
    with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
        return [int(child) for child in f.read().split()]


@pytest.mark.parametrize("signalled", ["make", "sim"])
def test_make_sim_ended_by_sigterm_says_nothing(pty_sim, tmp_path, signalled):
    """``make sim`` ended by SIGTERM, sent to make (which passes it on to the simulator) or to
    the simulator alone: the terminal comes back and make reports no failed recipe; make,
    when it was the one signalled, still dies of it (``tablemate sim`` run directly dies of it
    too: test_the_terminal_is_restored_however_the_simulator_ends)."""
    venv = tmp_path / "venv"  # a stand-in for .venv, whose tablemate is the one under test
    os.makedirs(str(venv / "bin"))
    (venv / ".sim").write_text("")
    tablemate = venv / "bin" / "tablemate"
    tablemate.write_text("#!/bin/sh\nexec %s -m tablemate_host.cli \"$@\"\n"
                         % shlex.quote(sys.executable))
    tablemate.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    env["XDG_DATA_HOME"] = str(tmp_path / "share")  # the default --data, out of the home
    p = pty_sim(env=env, stderr=subprocess.PIPE, command=[
        "make", "--no-print-directory", "-C", ROOT, "-o", str(venv / ".sim"),
        "VENV=" + str(venv), "sim"])
    p.until(HELP_END)
    (child,) = _children(p.proc.pid)
    os.kill(p.proc.pid if signalled == "make" else child, signal.SIGTERM)
    assert p.wait() == (-signal.SIGTERM if signalled == "make" else 0)
    assert p.proc.stderr.read() == b""
    assert termios.tcgetattr(p.slave) == p.before
    data = os.path.join(str(tmp_path / "share"), "tablemate", "sim")
    assert p.text().rstrip().endswith("Game data kept in %s (run again to resume)." % data)
