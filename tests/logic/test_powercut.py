"""Power cut at every byte of a journal: resume always gives the state after the last whole line.

A scorepad game of 40 moves (undos included) is recorded through Game with a checkpoint every 4
actions, saved after every move, keeping the live state after each save. Its journal holds
checkpoints, undos back past them and the base written again right after such an undo. Then the
journal is cut at every byte offset and resumed. The expectation comes from the recording, not
from replay: the state after the last move whose first line (the action or the undo; the
checkpoints after it change nothing) made it to the file with its newline; states are compared
as data (MicroPython's dicts keep no order, so their JSON text may differ). A cut inside the
header means no game. After each cut the game goes on, and a second resume must agree.
"""

import json
import os

import support
from tablemate.store import game
from tablemate.store.game import Game
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
EVERY = 4


def _record(path):
    """Play SCRIPT; return [(offset where the move's first line ends, state after it)]."""
    old = game.CHECKPOINT
    game.CHECKPOINT = EVERY
    try:
        g = Game.new(scorepad, path, OPTS)
        g.save()
        moves = [(os.stat(path)[6], _copy(g.state))]
        for step in SCRIPT:
            size = os.stat(path)[6]
            if step == "undo":
                g.undo()
            else:
                g.do(step)
            g.save()
            data = support.read_bytes(path)
            moves.append((data.index(b"\n", size) + 1, _copy(g.state)))
    finally:
        game.CHECKPOINT = old
    return moves


def _copy(state):
    return json.loads(json.dumps(state))


def _expected(moves, cut):
    state = None
    for end, s in moves:
        if end <= cut:
            state = s
    return state


def test_script_is_a_real_game_and_its_journal_has_what_matters():
    path = support.scratch_dir("powercut-script") + "/game.jnl"
    moves = _record(path)
    assert len(SCRIPT) == 40 and len(moves) == 41
    assert len(set(json.dumps(s) for _, s in moves)) > 25  # most moves change something
    last = moves[-1][1]
    assert last["round"] == 4 and last["scores"] == [200, 84, 101, 23] and not last["over"]
    assert moves[-2][1]["over"]  # reaching the target, then undoing it, is recorded
    final = Game.resume(scorepad, path)[0]
    final.do(["add", 0, 100])
    assert scorepad.result(final.state) == [0]
    lines = support.read_bytes(path).split(b"\n")
    checkpoints = [json.loads(line) for line in lines[1:] if line.startswith(b"{")]
    assert len([c for c in checkpoints if "t" not in c and c["n"]]) >= 2
    assert lines.count(b'["undo"]') == 10
    # Undos went back past the checkpoints of depth 4 and 12: each time the parent (depth 0,
    # depth 8) is written again right after the undo line, with the actions after it.
    again = [json.loads(lines[i]) for i in range(2, len(lines))
             if lines[i - 1] == b'["undo"]' and lines[i].startswith(b"{")]
    assert [(c["n"], len(c["t"])) for c in again] == [(0, 3), (8, 3)]
    assert "e" in again[1] and again[1]["p"] < again[1]["e"]

def test_cut_at_every_byte():
    d = support.scratch_dir("powercut")
    full_path = d + "/full.jnl"
    moves = _record(full_path)
    full = support.read_bytes(full_path)
    header_len = full.index(b"\n") + 1
    path = d + "/game.jnl"
    old = game.CHECKPOINT
    game.CHECKPOINT = EVERY
    try:
        for cut in range(len(full) + 1):
            prefix = full[:cut]
            support.write_bytes(path, prefix)
            g, problem = Game.resume(scorepad, path)
            if cut < header_len:
                assert g is None and problem is not None, cut
                os.remove(path + ".bad")
                continue
            assert g.state == _expected(moves, cut), cut
            if prefix.endswith(b"\n"):
                assert problem is None, cut
                assert support.read_bytes(path) == prefix, cut
            else:  # made void by appending: never a rewrite
                assert problem == "Dropped torn entry", cut
                assert support.read_bytes(path) == prefix + b"\x00\n", cut
            if scorepad.result(g.state) is None:
                g.do(["add", 3, 1])
            else:
                g.undo()
            g.save()
            r, problem = Game.resume(scorepad, path)
            assert problem is None and r.state == g.state and r.count == g.count, cut
    finally:
        game.CHECKPOINT = old
    assert sorted(os.listdir(d)) == ["full.jnl", "game.jnl"]


def test_undo_to_the_start_after_a_cut():
    d = support.scratch_dir("powercut-undo")
    full_path = d + "/full.jnl"
    moves = _record(full_path)
    full = support.read_bytes(full_path)
    path = d + "/game.jnl"
    ends = [i + 1 for i in range(len(full)) if full[i] == 10]
    old = game.CHECKPOINT
    game.CHECKPOINT = EVERY
    try:
        for k in range(1, len(ends), 3):  # cut in the middle of the line after line k
            support.write_bytes(path, full[:ends[k] + 3])
            g, problem = Game.resume(scorepad, path)
            assert problem == "Dropped torn entry"
            assert g.state == _expected(moves, ends[k])
            while g.count:
                g.undo()
                g.save()
                r, problem = Game.resume(scorepad, path)
                assert problem is None and r.state == g.state and r.count == g.count, k
            assert g.state == scorepad.setup(OPTS)
    finally:
        game.CHECKPOINT = old
