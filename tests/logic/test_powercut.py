"""Power cut at every byte of a journal: resume always gives the state after the last whole line.

A scorepad game of 40 journal lines (undos included) is recorded through Game, keeping the live
state after every line. Then the journal is cut at every byte offset and resumed. The expectation
comes from the recording, not from replay: the state after the last line whose newline made it to
the file. A cut inside the header means no game.
"""

import json
import os

import support
from tablemate.game import Game
from tablemate.rules import scorepad

OPTS = {"names": ["Ann", "Bob", "Cy", "Dee"], "target": 300}
SCRIPT = [
    ["add", 0, 12], ["next"], ["add", 1, -7], "undo", ["add", 1, 25], ["next"],
    ["add", 2, 999], "undo", "undo", ["add", 1, 26], ["next"], ["add", 2, 40], ["next"],
    ["add", 3, 8], ["next"], ["round"], ["add", 0, 100], ["add", 0, -50], "undo", ["next"],
    ["add", 1, 120], ["next"], ["add", 2, 7], "undo", "undo", "undo", ["add", 0, 88],
    ["next"], ["add", 1, 33], ["next"], ["add", 2, 61], ["next"], ["add", 3, 15], ["next"],
    ["add", 0, 150], "undo", ["add", 0, 190], "undo", ["add", 0, 200], "undo",
]


def _record(path):
    """Play SCRIPT; return the states after 0, 1, 2, ... journal lines."""
    g = Game.new(scorepad, path, OPTS)
    states = [json.dumps(g.state)]
    for step in SCRIPT:
        if step == "undo":
            g.undo()
        else:
            g.do(step)
        states.append(json.dumps(g.state))
    return states


def test_script_is_a_real_game():
    path = support.scratch_dir("powercut-script") + "/game.jnl"
    states = _record(path)
    assert len(SCRIPT) == 40 and len(states) == 41
    assert len(set(states)) > 25  # most lines change something
    last = json.loads(states[-1])
    assert last["round"] == 4 and last["scores"] == [200, 84, 101, 23] and not last["over"]
    assert json.loads(states[-2])["over"]  # reaching the target, then undoing it, is recorded
    final = Game.resume(scorepad, path)[0]
    final.do(["add", 0, 100])
    assert scorepad.result(final.state) == [0]


def test_cut_at_every_byte():
    d = support.scratch_dir("powercut")
    full_path = d + "/full.jnl"
    states = _record(full_path)
    full = support.read_bytes(full_path)
    header_len = full.index(b"\n") + 1
    assert full.count(b"\n") == len(SCRIPT) + 1
    path = d + "/game.jnl"
    for cut in range(len(full) + 1):
        prefix = full[:cut]
        support.write_bytes(path, prefix)
        g, problem = Game.resume(scorepad, path)
        if cut < header_len:
            assert g is None, cut
            assert problem is not None, cut
            os.remove(path + ".bad")
            continue
        whole = prefix[:prefix.rindex(b"\n") + 1]
        lines = whole.count(b"\n") - 1  # complete action lines
        assert json.dumps(g.state) == states[lines], cut
        if whole == prefix:
            assert problem is None, cut
        else:
            assert problem == "Dropped torn entry", cut
        assert support.read_bytes(path) == whole, cut
    assert sorted(os.listdir(d)) == ["full.jnl", "game.jnl"]


def test_appending_after_a_torn_cut_is_clean():
    d = support.scratch_dir("powercut-append")
    states = _record(d + "/full.jnl")
    full = support.read_bytes(d + "/full.jnl")
    path = d + "/game.jnl"
    ends = [i + 1 for i in range(len(full)) if full[i] == 10]
    for k in (0, 1, 5, 20, 38):  # cut in the middle of the line after action line k
        support.write_bytes(path, full[:ends[k] + 3])
        g, problem = Game.resume(scorepad, path)
        assert problem == "Dropped torn entry"
        assert json.dumps(g.state) == states[k]
        g.do(["add", 3, 1])
        r, problem = Game.resume(scorepad, path)
        assert problem is None and r.state == g.state and r.count == g.count
