"""The screen first, then the journal: a taken action is on the panel before it is on flash.

On a Pico a journal write can meet a 45 ms flash erase; the player must not wait for it. So the
frame that shows an action is sent before the action's line is written, in the same loop pass
(a power cut in between loses only that action). The bus below notes, at every frame it carries,
how many lines the journal holds.
"""

import support
from rig import FakeI2C, Rig
from support import scratch_dir
from tablemate import keys as K


class WatchingI2C(FakeI2C):
    """Records the journal's line count each time frame data is sent."""

    def __init__(self, path):
        FakeI2C.__init__(self)
        self.path = path
        self.seen = []

    def writevto(self, addr, vector, stop=True):
        FakeI2C.writevto(self, addr, vector, stop)
        self.seen.append(_lines(self.path))


def _lines(path):
    """The journal's whole lines but void ones (a primed journal's: ``Game.prime``)."""
    try:
        with open(path, "rb") as f:
            return len([line for line in f.read().split(b"\n")[:-1] if line != b"\x00"])
    except OSError:
        return 0


def _watch(rig):
    bus = WatchingI2C(rig.root + "/data/game.jnl")
    rig.display.i2c = bus
    rig.display.invalidate()
    return bus


def test_a_pick_is_shown_before_it_is_written():
    rig = Rig(scratch_dir("frame_first_pick"))
    rig.choose("Contrast")
    rig.choose("Start")
    rig.advance(200)
    bus = _watch(rig)
    before = _lines(rig.root + "/data/game.jnl")
    rig.press(K.OK)  # Ann picks
    assert bus.seen and bus.seen[0] == before, (before, bus.seen)  # the frame: no line yet
    assert _lines(rig.root + "/data/game.jnl") == before + 1  # the same pass wrote it after
    assert rig.app.game.unsaved == 0


def test_an_undo_is_shown_before_it_is_written():
    rig = Rig(scratch_dir("frame_first_undo"))
    rig.choose("Scorepad")
    rig.choose("Start")
    rig.presses(K.RIGHT, K.OK)
    rig.press(K.BACK)
    bus = _watch(rig)
    before = _lines(rig.root + "/data/game.jnl")
    rig.choose("Undo")
    assert bus.seen and bus.seen[-1] == before, (before, bus.seen)
    assert _lines(rig.root + "/data/game.jnl") == before + 1


def test_a_new_game_is_shown_before_its_journal_is_created():
    rig = Rig(scratch_dir("frame_first_new"))
    rig.choose("Contrast")
    rig.goto("Start")
    bus = _watch(rig)
    rig.press(K.OK)
    assert bus.seen and bus.seen[0] == 0, bus.seen  # the game's first frame: no journal yet
    assert _lines(rig.root + "/data/game.jnl") == 1  # the same pass created it after
    assert rig.app.game.unsaved == 0


def test_after_the_frame_a_long_journal_only_takes_the_lines():
    """Issue 33: littlefs readies a new block (an erase, 45 ms; 400 at the flash's slowest) at
    the first write to a file after a commit, and that came after the frame, before the line
    was on the flash: a window in which a power cut took back an action already shown. Now
    the journal is opened and primed right after each save (``Game.prime``, a void line not
    committed yet): after the next frame nothing is opened, the lines go into the file
    already open; the next prime comes after them."""
    from tablemate.store import journal
    rig = Rig(scratch_dir("frame_first_primed"))
    rig.choose("Contrast")
    rig.choose("Start")
    path = rig.root + "/data/game.jnl"
    while len(support.read_bytes(path)) < 700:  # past what littlefs keeps inline (512 B on
        rig.press(K.OK)  # rp2: ``journal.INLINE``), where an append erases nothing
        rig.advance(200)
    real_show = rig.display.show
    events = []

    def show():
        real_show()
        events.append("frame")

    def opened(p, mode="r"):
        events.append(("open", mode, _lines(path)))
        return open(p, mode)
    rig.display.show = show
    journal.open = opened
    try:
        for _ in range(3):  # the first OK that journals a pick (not one that reads a result)
            del events[:]
            before = _lines(path)
            rig.press(K.OK)
            rig.advance(100)
            if _lines(path) > before:
                break
    finally:
        del journal.open
    assert rig.app.game.unsaved == 0 and _lines(path) == before + 1
    assert events[0] == "frame" and events[1:] == [("open", "ab", before + 1)], events
    tail = support.read_bytes(path).split(b"\n")[-4:]  # the void line the prime committed
    assert tail[0] == tail[2] == b"\x00" and tail[1].startswith(b"[") and tail[3] == b"", tail
