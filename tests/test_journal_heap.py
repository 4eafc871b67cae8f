"""Resume allocates a bounded amount however long the game, measured in the MicroPython VM.

The WASM VM never collects garbage inside one call, so gc.mem_alloc() read before and after a
resume in the same call is everything that resume allocated: the peak a Pico would need at
worst. A journal of 5,000 moves is written on the host through Game (checkpoints included),
copied into the VM and resumed there. Before checkpoints, resume read every line into a list
and replayed it all: a Pico raised MemoryError at about 1,100 actions.
"""

import json
import os
import random

from tablemate.store.game import Game
from tablemate.rules import scorepad
from tablemate_host import mpvm

LIMIT = 32 * 1024  # bytes one resume may allocate, whatever the length of the game

SETUP = """
import gc, json
from tablemate import lifecycle
from tablemate.store.game import Game
G, P = Game.resume(lifecycle.rules, "/j/game.jnl")  # imports the rules once
G = P = None
gc.collect()
"""

MEASURE = """
A0 = gc.mem_alloc()
G, P = Game.resume(lifecycle.rules, "/j/game.jnl")
A1 = gc.mem_alloc()
print(json.dumps({"alloc": A1 - A0, "count": G.count, "problem": P, "scores": G.state["scores"]}))
"""


def _journal(path, moves, seed):
    """A 6-player scorepad game of moves adds, turns and undos; returns the live game."""
    rnd = random.Random(seed)
    g = Game.new(scorepad, path, {"names": ["P%d" % i for i in range(6)], "target": 0})
    for i in range(moves):
        if i % 9 == 8 and g.count:
            g.undo()
        elif i % 4 == 3:
            g.do(["next"])
        else:
            g.do(["add", g.state["turn"], rnd.choice((1, 2, 5, 10, -1))])
    g.save()
    return g


def _resume_in_vm(path):
    out = mpvm.run([SETUP, MEASURE], files={"/j/game.jnl": path})
    return json.loads(out.strip().splitlines()[-1])


def test_resume_of_5000_moves_allocates_a_small_fixed_amount(tmp_path):
    # Games ending at every point of a checkpoint interval (the tail is what resume reads).
    worst = 0
    for moves in (5000, 5013, 5027, 5050):
        path = str(tmp_path / ("game%d.jnl" % moves))
        g = _journal(path, moves, moves)
        got = _resume_in_vm(path)
        assert got["problem"] is None and got["count"] == g.count
        assert got["scores"] == g.state["scores"]
        worst = max(worst, got["alloc"])
    assert worst <= LIMIT, worst
    assert os.path.getsize(path) > 60 * 1024  # the journal itself is long


def test_a_short_game_allocates_as_much_as_a_long_one(tmp_path):
    short = str(tmp_path / "short.jnl")
    long = str(tmp_path / "long.jnl")
    _journal(short, 300, 1)
    _journal(long, 300 + 16 * 288, 1)  # the same end: the moves repeat every 36, their depth
    # modulo the checkpoint interval every 288
    a = _resume_in_vm(short)["alloc"]
    b = _resume_in_vm(long)["alloc"]
    assert b <= a + 2048, (a, b)


PLAY = """
import gc
from tablemate.store.game import Game
from tablemate.rules import scorepad
G = Game.new(scorepad, "/tmp/long.jnl", {"names": ["A", "B", "C", "D", "E", "F"], "target": 0})
gc.collect()
""", "A0 = gc.mem_alloc()", """
for i in range(%d):  # no undo: nothing ever goes back past a checkpoint
    if i %% 4 == 3:
        G.do(["next"])
    else:
        G.do(["add", G.state["turn"], 1 + i %% 5])
    G.save()
gc.collect()
""", "print(gc.mem_alloc() - A0, G.count)"


def test_a_long_game_keeps_no_history_in_ram():
    grown = {}
    for moves in (300, 3000):
        out = mpvm.run([PLAY[0], PLAY[1], PLAY[2] % moves, PLAY[3]])
        grown[moves] = int(out.split()[0])
    assert grown[3000] <= grown[300] + 1024, grown
