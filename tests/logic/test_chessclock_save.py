"""The chess clock's file (``/data/clock.json``): its format, damage, and when the app writes it.

The format tests call the screen module's ``record``/``parse``/``write``/``read`` directly; the
rest drive the real app on the rig (both VMs): the frame before the write, writes only while a
clock runs (start, each turn, pause, every 10 s), a "power cut" (a new app on the same flash)
bringing the clock back paused, the file removed when the game ends or is left, and idle
passes of a paused clock that allocate nothing.
"""

import json

import micropython
import support
from rig import FakeI2C, Rig
from support import read_bytes, scratch_dir, write_bytes
from tablemate import keys as K
from tablemate.clock import RANDOM, ChessClock
from tablemate.store import clockfile


def _exists(path):
    import os
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _clock():
    c = ChessClock(2, 180000, 2000)
    c.start(0, 1)
    c.press(10000)  # the right player moves after 10 s and gets 2 s
    return c


def test_record_parse_round_trip():
    data = json.loads(json.dumps(clockfile.record(["Ann", "Bob"], RANDOM, True, 1, _clock(),
                                                   14000)))
    assert data["v"] == 1 and data["names"] == ["Ann", "Bob"]
    assert data["first"] == RANDOM and data["alt"] is True and data["starter"] == 1
    names, first, alternate, starter, clock = clockfile.parse(data, 77)
    assert names == ["Ann", "Bob"] and first == RANDOM and alternate and starter == 1
    assert clock.paused and clock.current == 0 and clock.moves == 1
    assert clock.base == 180000 and clock.increment == 2000
    assert clock.remaining(0, 99999) == 176000 and clock.remaining(1, 99999) == 172000
    clock.resume(100)
    assert clock.remaining(0, 1100) == 175000


def test_write_and_read_a_file():
    root = scratch_dir("clock_file")
    path = root + "/clock.json"
    assert clockfile.read(path, 0) == (None, None)
    clockfile.write(path, clockfile.record(["Ann", "Bob"], 0, False, 0, _clock(), 14000))
    assert not _exists(path + ".tmp")  # written aside, then renamed over the file
    found, problem = clockfile.read(path, 0)
    assert problem is None and found[4].remaining(1, 5) == 172000
    clockfile.write(path, clockfile.record(["Ann", "Bob"], 0, False, 0, _clock(), 20000))
    assert clockfile.read(path, 0)[0][4].remaining(0, 5) == 170000  # replaced whole
    clockfile.remove(path)
    assert not _exists(path) and clockfile.read(path, 0) == (None, None)


def test_damaged_files_are_told_apart_from_none():
    root = scratch_dir("clock_damaged")
    path = root + "/clock.json"
    good = json.dumps(clockfile.record(["Ann", "Bob"], 0, True, 0, _clock(), 14000)).encode()
    variants = [b"", b"{", good[:len(good) // 2], good + b"\x00", b"\x00" * 40, b"\xff\xfe{}",
                b"[]", b"null", good.replace(b'"v": 1', b'"v": 9'),
                good.replace(b'"Bob"', b'""'), good.replace(b'"Bob"', b'"Bobbobbob"'),
                good.replace(b'"Bob"', b'7'), good.replace(b'"starter": 0', b'"starter": 2'),
                good.replace(b'"first": 0', b'"first": 3'), good.replace(b'"alt": true', b'"alt": 1'),
                good.replace(b'"cur": 0', b'"cur": 5'), b" " * 2000 + good]
    for data in variants:
        write_bytes(path, data)
        assert clockfile.read(path, 0) == (None, clockfile.DAMAGED), data
    write_bytes(path, good)
    assert clockfile.read(path, 0)[1] is None


# -- the app ----------------------------------------------------------------------------------
class _Writes:
    """Counts the clock's file writes and keeps what each frame found in the file."""

    def __init__(self, rig):
        self.rig = rig
        self.count = 0
        self.real = clockfile.write

    def __enter__(self):
        def counting(path, data):
            self.count += 1
            self.real(path, data)
        clockfile.write = counting
        return self

    def __exit__(self, *exc):
        clockfile.write = self.real


def _saved(rig):
    """The file as data, or None."""
    path = rig.root + "/data/clock.json"
    if not _exists(path):
        return None
    return json.loads(read_bytes(path))


def _left(rig):
    d = _saved(rig)["clock"]
    return [cd["left"] for cd in d["cds"]]


def _start(rig):
    rig.choose("Chess clock")
    rig.choose("Start")
    assert rig.top() == "ClockScreen"


def test_writes_only_while_the_clock_runs():
    rig = Rig(scratch_dir("clock_writes"))
    with _Writes(rig) as w:
        _start(rig)
        rig.advance(20000)  # idle: nobody's time runs, nothing is written (30 s would dim)
        assert w.count == 0 and _saved(rig) is None
        rig.press(K.OK)  # Ann's time starts: written once
        assert w.count == 1 and _saved(rig)["clock"]["cur"] == 0
        rig.advance(9000)
        assert w.count == 1
        rig.advance(1000)  # 10 s after the latest write
        assert w.count == 2 and _left(rig)[0] <= 290000
        rig.press(K.OK)  # a turn switch
        assert w.count == 3 and _saved(rig)["clock"]["cur"] == 1
        rig.advance(25000)  # Bob thinks: written at 10 and 20 s
        assert w.count == 5
        rig.press(K.BACK)  # paused: written with the time at the pause
        assert w.count == 6 and _saved(rig)["clock"]["state"] == 2
        paused = _left(rig)
        rig.advance(60000)  # nothing while paused, however long the table talks
        assert w.count == 6 and _left(rig) == paused
        rig.press(K.OK)  # the dimmed menu is read: OK on its first row, Resume
        assert not rig.app.top().clock.paused
        assert w.count == 6  # the file already holds this moment
        rig.advance(10000)
        assert w.count == 7


def test_the_frame_goes_first_then_the_file():
    rig = Rig(scratch_dir("clock_frame_first"))
    _start(rig)
    rig.press(K.OK)
    rig.advance(3000)
    path = rig.root + "/data/clock.json"

    class Watching(FakeI2C):
        def __init__(self):
            FakeI2C.__init__(self)
            self.seen = []

        def writevto(self, addr, vector, stop=True):
            FakeI2C.writevto(self, addr, vector, stop)
            self.seen.append(json.loads(read_bytes(path))["clock"]["cur"])
    bus = Watching()
    rig.display.i2c = bus
    rig.press(K.OK)  # Ann ends her turn: the frame shows Bob to move, then the file says so
    assert bus.seen and bus.seen[0] == 0, bus.seen
    assert _saved(rig)["clock"]["cur"] == 1


def test_power_cut_brings_the_clock_back_paused():
    root = scratch_dir("clock_cut")
    rig = Rig(root)
    rig.choose("Chess clock")
    rig.goto("Starts: Ann")
    rig.press(K.OK)  # Bob starts
    rig.choose("Start")
    rig.press(K.OK)  # Bob's time runs
    rig.advance(4000)
    rig.press(K.OK)  # Bob moves: +3 s; Ann's time runs
    clock = rig.app.top().clock
    bob = clock.remaining(1, rig.now)
    rig.advance(12000)  # Ann thinks: a write at 10 s
    ann = clock.remaining(0, rig.now)
    again = Rig(root)  # the power is cut and comes back
    screen = again.app.top()
    assert again.top() == "ClockScreen" and screen.clock.paused
    assert screen.starter == 1 and screen.clock.current == 0 and screen.clock.moves == 1
    assert screen.clock.remaining(1, again.now) == bob  # exact: saved at the switch
    lost = screen.clock.remaining(0, again.now) - ann
    assert 0 <= lost <= 10000, lost  # at most the time since the latest write
    assert lost <= 2500, lost  # here a write came 10 s into Ann's turn, 2 s before the cut
    assert screen.base == 300000 and screen.increment == 3000 and screen.names == ["Ann", "Bob"]
    again.advance(5000)
    assert screen.clock.paused  # nothing runs until the table says so
    again.press(K.OK)
    assert screen.clock.running and screen.clock.current == 0
    again.press(K.BACK)
    again.choose("Home")
    assert again.top() == "Confirm" and _saved(again) is not None  # the times: asked first
    again.press(K.OK)
    assert again.top() == "Home" and _saved(again) is None


def test_time_up_and_a_new_game_remove_the_file():
    rig = Rig(scratch_dir("clock_over"))
    rig.choose("Chess clock")
    rig.presses(K.LEFT, K.LEFT, K.LEFT, K.LEFT)  # Minutes: 1
    rig.choose("Start")
    rig.press(K.OK)
    assert _saved(rig) is not None
    rig.advance(61000)  # Ann's time is up: the game is over
    assert rig.app.top().clock.flagged(rig.now) == 0 and _saved(rig) is None
    rig.press(K.BACK)
    rig.choose("New game")  # Bob starts this one (swapping is on)
    screen = rig.app.top()
    assert screen.starter == 1 and screen.clock.idle and _saved(rig) is None
    rig.press(K.OK)
    assert _saved(rig)["starter"] == 1 and _saved(rig)["clock"]["cur"] == 1
    rig.press(K.BACK)
    rig.choose("New game")  # an unfinished game is dropped too
    assert rig.app.top().starter == 0 and _saved(rig) is None


def test_a_damaged_file_is_reported_and_kept_aside_at_boot():
    root = scratch_dir("clock_bad")
    Rig(root)  # makes /data
    write_bytes(root + "/data/clock.json", b'{"v": 1, "names": ["Ann"')
    rig = Rig(root)
    assert rig.top() == "Notice" and " ".join(rig.app.top().lines) == clockfile.DAMAGED
    assert not _exists(root + "/data/clock.json")
    assert read_bytes(root + "/data/clock.json.bad") == b'{"v": 1, "names": ["Ann"'
    rig.press(K.OK)
    assert rig.top() == "Home"


def test_idle_passes_of_a_waiting_clock_allocate_nothing():
    if not hasattr(micropython, "heap_lock"):
        support.skip("CPython has no heap lock: the MicroPython VM runs this test")
    rig = Rig(scratch_dir("clock_idle"))
    _start(rig)
    rig.advance(500)
    rig.idle_locked()  # not started
    assert rig.top() == "ClockScreen"
    rig.press(K.OK)
    rig.advance(2000)
    rig.press(K.BACK)  # paused, the menu over the times
    rig.advance(500)
    rig.idle_locked()
    assert rig.top() == "ClockMenu"
    rig.press(K.BACK)  # the menu closed, still paused
    rig.advance(500)
    rig.idle_locked()
    assert rig.top() == "ClockScreen" and rig.app.top().clock.paused


def test_a_games_clocks_are_kept_until_its_journal_grows():
    root = scratch_dir("clock_times")
    path = root + "/" + clockfile.TIMES
    assert clockfile.read_times(path, "0a1b2c3d", 120) is None  # no file
    clockfile.write_times(path, "0a1b2c3d", 120, [5000, 7000])
    assert not _exists(path + ".tmp")
    assert clockfile.read_times(path, "0a1b2c3d", 120) == [5000, 7000]
    assert clockfile.read_times(path, "0a1b2c3d", 129) is None  # a line journaled since
    assert clockfile.read_times(path, "99999999", 120) is None  # another game
    for bad in (b"", b"[", b"\x00", b'{"id": "0a1b2c3d", "size": 120, "t": [5000]}',
                b'{"id": "0a1b2c3d", "size": 120, "t": [5000, -1]}',
                b'{"id": "0a1b2c3d", "size": 120, "t": [5000, true]}', b'["0a1b2c3d", 120]'):
        write_bytes(path, bad)
        assert clockfile.read_times(path, "0a1b2c3d", 120) is None, bad
