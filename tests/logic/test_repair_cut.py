"""A journal's repair cut by the power at each of its file operations (issue 33).

A resume that finds a damaged line with good lines after it (here: the last checkpoint's state
changed, its CRC broken) cuts the journal back to the line before it, the whole file kept
aside. A long journal's cut takes seconds, time for a power cut or a reset; before issue 33 it
copied the file aside, then rewrote its good part: a reset during the copy left a partial copy
as ``.bad`` and the next resume made ``.bad1``, and so on. Now the good part is written to
``game.jnl.new``, the damaged file renamed aside and the new one renamed into place (the next
look for the journal finishes a repair cut between the two renames).

Each cut, with every torn amount of a cut write: a second resume (the next boot) must come back
with the game and the journal the uncut repair gives, exactly one copy aside (the damaged file,
whole) and nothing else left behind.
"""

import os

import support
from tablemate import lifecycle, modes
from tablemate.rules import scorepad
from tablemate.store import files, game, journal, readback
from tablemate.store.game import Game

OPTS = {"names": ["Ann", "Bob", "Cy"], "target": 0}


def _damaged(path):
    """A scorepad journal of 150 actions, checkpoints every 8, the last one's state changed:
    its bytes."""
    old = game.CHECKPOINT
    game.CHECKPOINT = 8
    try:
        g = Game.new(scorepad, path, OPTS)
        for i in range(150):
            g.do(["add", i % 3, i + 1] if i % 2 == 0 else ["next"])
            if i % 7 == 0:
                g.save()
        g.save()
    finally:
        game.CHECKPOINT = old
    data = support.read_bytes(path)
    at = data.rindex(b'\n{"c": ') + 1
    assert data.count(b"\n", at) > 2
    name = data.index(b'"Ann"', at)
    return data[:name] + b'"Amn"' + data[name + 5:]


def _resume(path):
    g, problem = Game.resume(lifecycle.rules, path)
    return (g.count, g.state) if g else None, problem


def test_a_repair_cut_at_each_file_operation_is_done_once_and_whole():
    d = support.scratch_dir("repair-cut")
    path = d + "/game.jnl"
    damaged = _damaged(path)
    support.write_bytes(path, damaged)
    want = _resume(path)
    assert want[1].startswith("Bad line "), want[1]
    repaired = support.read_bytes(path)
    assert support.read_bytes(path + ".bad") == damaged and len(repaired) < len(damaged)
    for m in (readback, files, journal):
        support.loaded(m)
    cut = 0
    done = False  # the first N whose operation the action never reaches
    while not done:
        assert cut < 64, "the action never ends"
        for torn in range(4):
            support.remove_tree(d)
            os.mkdir(d)
            support.write_bytes(path, damaged)
            flash = support.CutFlash(cut, torn)
            flash.install(readback, files, journal)
            try:
                got = _resume(path)
                was_cut = False
            except support.PowerCut:
                was_cut = True
            finally:
                flash.uninstall()
                for m in (readback, files, journal):
                    support.loaded(m)
            if not was_cut:
                assert got == want, (cut, torn)
                assert cut >= 3, cut  # the copy's writes, the rename aside, the rename in
                done = True
                break
            if torn == 0:
                assert modes.saved(_App(d)) == ("scorepad", True), (cut, "no game offered")
            again = _resume(path)
            assert again[0] == want[0], (cut, torn, again)
            assert support.read_bytes(path) == repaired, (cut, torn)
            left = sorted(os.listdir(d))
            assert left == ["game.jnl", "game.jnl.bad"], (cut, torn, left)
            assert support.read_bytes(path + ".bad") == damaged, (cut, torn)
        cut += 1


class _App:
    def __init__(self, root):
        self.root = root

    def path(self, name):
        return self.root + "/" + name
