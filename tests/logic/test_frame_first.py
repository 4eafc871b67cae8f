"""The screen first, then the journal: a taken action is on the panel before it is on flash.

On a Pico a journal write can meet a 45 ms flash erase; the player must not wait for it. So the
frame that shows an action is sent before the action's line is written, in the same loop pass
(a power cut in between loses only that action). The bus below notes, at every frame it carries,
how many lines the journal holds.
"""

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
    try:
        with open(path) as f:
            return len(f.read().split("\n")) - 1
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
