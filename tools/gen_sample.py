"""Generate the README's sample report: a history of game nights and the plots drawn from it.

    python tools/gen_sample.py           # rewrite docs/report/ (history.jnl and the PNGs)
    python tools/gen_sample.py --check   # exit 1 if any of them is stale

The history is 38 games over four Friday nights by four friends, filed by the firmware's own
history writer (``tablemate.store.history.file``) with the summaries each mode's rules write and
the start and end times a board with its clock set records. The games are drawn from a seeded
random generator: the same every run, so a test (tests/host/test_sample_current.py) checks that
the committed files are what this script and ``tablemate report --plots`` make today. Needs
matplotlib (``pip install 'tablemate[plots]'``; ``make test`` installs it).
"""

import argparse
import os
import random
import shutil
import sys
import tempfile
from datetime import datetime, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
import tablemate_host  # noqa: E402,F401  (the firmware on the path)
from tablemate_host import records  # noqa: E402

from tablemate.store import history  # noqa: E402

OUT = os.path.join(ROOT, "docs", "report")
HISTORY = "history.jnl"
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
    "perspective": ((4, 4), (12, 25)),
}
_SKILL = {"Ann": 1.25, "Bob": 1.0, "Cleo": 1.1, "Dev": 0.85}


def summary(rng, mode, names):
    """A history record of ``mode`` for ``names``, shaped as that mode's ``rules.summary``."""
    n = len(names)
    if mode == "contrast":  # co-operative: everybody wins or nobody does
        win = rng.random() < 0.6
        score = rng.randint(8, 14)
        return {"names": names, "scores": [score] * n, "winners": list(range(n)) if win else [],
                "rounds": rng.randint(5, 9), "outcome": "win" if win else "lose", "coop": True,
                "piles": [rng.randint(0, 6), rng.randint(0, 6)]}
    if mode == "perspective":  # two teams of two: seats 0 and 2 against 1 and 3
        team = rng.choice([[0, 2], [1, 3]])
        scores = [0 if i in team else -rng.randint(0, 2) for i in range(n)]
        return {"names": names, "scores": scores, "winners": team, "turns": rng.randint(8, 16),
                "outcome": "team", "kind": "teams"}
    scale = {"scorepad": 60, "viewpoint": 12, "perfect_moment": 9, "cartes_sur_table": 15}[mode]
    scores = [int(rng.gauss(scale * _SKILL[p], scale * 0.25)) for p in names]
    if mode == "scorepad" and rng.random() < 0.15:  # now and then a tie for first
        scores[1] = max(scores)
    best = max(scores)
    rec = {"names": names, "scores": scores,
           "winners": [i for i, s in enumerate(scores) if s == best]}
    if mode in ("scorepad", "cartes_sur_table"):
        rec["rounds"] = rng.randint(4, 10)
    else:
        rec["turns"] = rng.randint(10, 30)
        rec["outcome"] = "time" if mode == "perfect_moment" and rng.random() < 0.3 else "points"
    if mode == "cartes_sur_table":
        rec["secret"] = False
    return rec


def games():
    """The sample's games in the order they were filed: (summary with "game", start, end)."""
    rng = random.Random(27)
    out = []
    for night, begin in enumerate(NIGHTS):
        t = datetime.strptime(begin, "%Y-%m-%d %H:%M")
        for k in range(9 + night % 2):
            names = [p for p in FRIENDS if p != "Dev" or night != 1]  # Dev missed a night
            mode = rng.choice([m for m in sorted(_PLAY) if _PLAY[m][0][0] <= len(names)])
            (lo, hi), (short, long) = _PLAY[mode]
            count = rng.randint(lo, hi)
            names = rng.sample(names, min(count, len(names)))
            rec = summary(rng, mode, names)
            rec["game"] = mode
            rec["actions"] = rng.randint(20, 120)
            rec["id"] = "%08x" % rng.getrandbits(32)
            end = t + timedelta(minutes=rng.randint(short, long), seconds=rng.randint(0, 59))
            rec["start"] = t.strftime(_FMT)
            rec["end"] = end.strftime(_FMT)
            out.append(rec)
            t = end + timedelta(minutes=rng.randint(2, 12))
    return out


def write(out=OUT):
    """Write the sample history and its plots into ``out``; return the paths written."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, HISTORY)
    if os.path.exists(path):
        os.remove(path)
    for rec in games():
        history.file(path, rec)
    written = [path]
    from tablemate_host import pull
    played = pull.read_history(path)
    for name, draw, _ in records.PLOTS:
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
