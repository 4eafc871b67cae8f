"""Generate the README's sample report: game nights played through the rules, and their plots.

    python tools/gen_sample.py           # rewrite docs/report/ (the history, its games, the PNGs)
    python tools/gen_sample.py --check   # exit 1 if any of them is stale

Four Friday nights by four friends: every game is played action by action through its mode's
own rules module (``tablemate.rules.<mode>``: a seeded table of players who do what the rules
accept, each mode's recorded-game table of ``tablemate_host`` where there is one), so every
number in the sample is one a real game reaches: a co-op Contrast has two players, a Cartes sur
Table score is at most what its four rounds give, Viewpoint totals move in its cards' steps. Each
game is filed by the firmware's own history writer (``tablemate.store.history.file``) as the
device files it (``lifecycle.file``: the rules' summary, the mode, the action count, the game's
id, its start and end as a board with its clock set records them).

``games.jsonl`` beside the history keeps what each game was: its number, mode, options and
actions, so that a test (tests/host/test_sample.py) replays every sample game through the rules
and finds the summary that was filed. Everything comes from one seeded generator: the same every
run, and a test (tests/host/test_plots.py) checks that the committed files are what this script
and ``tablemate report --plots`` make today. Needs matplotlib (``pip install
'tablemate[plots]'``; ``make test`` installs it).
"""

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
from datetime import datetime, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
import tablemate_host  # noqa: E402,F401  (the firmware on the path)
from tablemate_host import (cartes_sur_table_games, exports, perfect_moment_games,  # noqa: E402
                            perspective_games, viewpoint_games)

from tablemate import lifecycle  # noqa: E402
from tablemate.store import history  # noqa: E402

OUT = os.path.join(ROOT, "docs", "report")
HISTORY = "history.jnl"
GAMES = "games.jsonl"
FRIENDS = ["Ann", "Bob", "Cleo", "Dev"]
NIGHTS = ("2026-11-06 19:10", "2026-11-13 19:40", "2026-11-20 20:05", "2026-11-27 19:25")
_FMT = "%Y-%m-%d %H:%M:%S"
# mode: (players, minutes a game takes, lo-hi), as each mode is played
_PLAY = {
    "scorepad": ((3, 4), (20, 45)),
    "contrast": ((2, 4), (10, 20)),
    "viewpoint": ((3, 4), (15, 30)),
    "perfect_moment": ((2, 2), (8, 15)),
    "cartes_sur_table": ((3, 4), (20, 35)),
    "perspective": ((1, 4), (12, 25)),
}
_SKILL = {"Ann": 1.25, "Bob": 1.0, "Cleo": 1.1, "Dev": 0.85}


# --- one game of each mode: (options, actions), every action taken by its rules -----------------

def _scorepad(rng, names):
    """A scorepad to 100, the round played out: each turn scores what that player's skill
    brings, now and then nothing."""
    from tablemate.rules import scorepad as rules
    opts = {"names": names, "target": 100, "finish": True, "first": rng.randrange(len(names))}
    state = rules.setup(opts)
    actions = []
    while rules.result(state) is None:
        p = rules.turn(state)
        points = max(0, int(rng.gauss(9 + 4 * (_SKILL[names[p]] - 1), 7)))
        for action in ([["add", p, points]] if points else []) + [["next"]]:
            rules.apply(state, action)
            actions.append(action)
    return opts, actions


def _contrast(rng, names):
    """Contrast (two players: the co-op variant): each round the table leans to one symbol,
    and each player picks it or another from their hand, a skip now and then."""
    from tablemate.rules import contrast as rules
    opts = {"names": names, "coop": len(names) == 2}
    state = rules.setup(opts)
    actions = []
    favourite = None
    while rules.result(state) is None:
        if not rules.picks(state):
            favourite = rng.choice(rules.SYMBOLS)
        p = rules.turn(state)
        hand = [s for s in rules.SYMBOLS if s not in rules.unavailable(state, p)]
        if rng.random() < 0.03:
            action = ["skip", p]
        elif favourite in hand and rng.random() < 0.45 * _SKILL[names[p]]:
            action = ["pick", p, favourite]
        else:
            action = ["pick", p, rng.choice(hand)]
        rules.apply(state, action)
        actions.append(action)
    return opts, actions


def _viewpoint(rng, names):
    """Viewpoint at a table that deals and holds the cards (``viewpoint_games``)."""
    table = viewpoint_games.Table(len(names), rng.randrange(1, 1 << 30), names)
    action = table.next_action()
    while action is not None:
        table.take(action)
        action = table.next_action()
    return {"names": names}, table.actions


def _perfect_moment(rng, names):
    """The Perfect Moment with time banks (``perfect_moment_games``)."""
    table = perfect_moment_games.Table(rng.randrange(1, 1 << 30), names).play()
    return {"names": names, "clock": "bank"}, table.actions


def _cartes_sur_table(rng, names):
    """Cartes sur Table, open votes, the table reading each Patient alike (``cartes_sur_table_games``)."""
    table = cartes_sur_table_games.Table(len(names), rng.randrange(1, 1 << 30), names).play()
    return {"names": names, "secret": False}, table.actions


def _perspective(rng, names):
    """Perspective: the solitaire for one (moves, each with its time, until solved), else turns
    and checks until a player, or a team of four, reaches the objective (``perspective_games``)."""
    opts = {"names": names}
    if len(names) > 1:
        return opts, perspective_games.record(len(names), rng.randrange(1, 1 << 30), rng.randint(6, 16))
    from tablemate.rules import perspective as rules
    ms = 0
    actions = [["start", rng.choice(rules.COLOURS), ms]]
    for _ in range(rng.randint(4, 14)):
        ms += rng.randint(8000, 40000)
        actions.append(["move", rng.choice(rules.COLOURS), ms])
    actions.append(["solved", ms + rng.randint(5000, 30000)])
    return opts, actions


_GAMES = {"scorepad": _scorepad, "contrast": _contrast, "viewpoint": _viewpoint,
          "perfect_moment": _perfect_moment, "cartes_sur_table": _cartes_sur_table,
          "perspective": _perspective}


def replay(mode, opts, actions):
    """The state of a game of ``mode`` set up with ``opts`` after ``actions``, each applied by
    the mode's rules (a RuleError if one is refused)."""
    rules = lifecycle.rules(mode)
    state = rules.setup(opts)
    for action in actions:
        rules.apply(state, action)
    return state


def filed(mode, state, actions, gid, start, end):
    """The history line of a finished game, as ``lifecycle.file`` writes it (before its n)."""
    rec = lifecycle.rules(mode).summary(state)
    rec["game"] = mode
    rec["actions"] = len(actions)
    rec["id"] = gid
    rec["start"] = start
    rec["end"] = end
    return rec


def games():
    """The sample's games in the order they were filed: [(history line, game), ...], a game
    being {"game": mode, "opts": ..., "actions": [...]}."""
    rng = random.Random(32)
    out = []
    for night, begin in enumerate(NIGHTS):
        t = datetime.strptime(begin, "%Y-%m-%d %H:%M")
        for k in range(9 + night % 2):
            names = [p for p in FRIENDS if p != "Dev" or night != 1]  # Dev missed a night
            mode = rng.choice([m for m in sorted(_PLAY) if _PLAY[m][0][0] <= len(names)])
            (lo, hi), (short, long) = _PLAY[mode]
            names = rng.sample(names, rng.randint(lo, min(hi, len(names))))
            opts, actions = _GAMES[mode](rng, names)
            state = replay(mode, opts, actions)
            end = t + timedelta(minutes=rng.randint(short, long), seconds=rng.randint(0, 59))
            rec = filed(mode, state, actions, "%08x" % rng.getrandbits(32), t.strftime(_FMT),
                        end.strftime(_FMT))
            out.append((rec, {"game": mode, "opts": opts, "actions": actions}))
            t = end + timedelta(minutes=rng.randint(2, 12))
    return out


def write(out=OUT):
    """Write the sample history, its games and its plots into ``out``; return the paths."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, HISTORY)
    if os.path.exists(path):
        os.remove(path)
    lines = []
    for rec, game in games():
        n = history.file(path, rec)
        lines.append(json.dumps(dict({"n": n}, **game), separators=(",", ":")))
    kept = os.path.join(out, GAMES)
    with open(kept, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    written = [path, kept]
    from tablemate_host import pull
    played = pull.read_history(path)
    for name, draw, _ in exports.PLOTS:
        draw(played, os.path.join(out, name))
        written.append(os.path.join(out, name))
    return written


def stale(out=OUT):
    """The files of ``out`` that differ from what ``write`` makes now (PNGs by their pixels)."""
    from PIL import Image, ImageChops
    scratch = tempfile.mkdtemp(prefix="tablemate-sample-")
    try:
        found = []
        for fresh in write(scratch):
            name = os.path.basename(fresh)
            kept = os.path.join(out, name)
            if not os.path.exists(kept):
                found.append(name)
            elif name.endswith(".png"):
                a, b = Image.open(fresh), Image.open(kept)
                if a.size != b.size or ImageChops.difference(a.convert("RGB"),
                                                             b.convert("RGB")).getbbox():
                    found.append(name)
            else:
                with open(fresh, "rb") as f, open(kept, "rb") as g:
                    if f.read() != g.read():
                        found.append(name)
        return found
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/report is stale")
    args = parser.parse_args(argv)
    if args.check:
        found = stale()
        for name in found:
            print("stale: docs/report/%s (run python tools/gen_sample.py)" % name)
        return 1 if found else 0
    for path in write():
        print("wrote %s" % os.path.relpath(path, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
