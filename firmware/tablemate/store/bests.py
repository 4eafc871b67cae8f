"""The solitaire's bests, ``/data/perspective.json``: the fewest moves and the fastest time.

``{"moves": n, "ms": n}`` (either may be missing yet); when a game with an id set them, also
``"game"``: that id and ``"before"``: the records it beat, so that an undo reopening that game,
or resuming it unsolved after a power cut, puts those back (``records_unsolved``). Replaced
whole (``files.write_atomic``). What a solve does to the records lives here with the format,
so the screen, the host's backup check and the tests read it one way.
"""

from micropython import const

from tablemate import json
from tablemate.store import files

FILE = "perspective.json"
_RECORD_MAX = {"moves": 100000, "ms": 100 * 3600 * 1000}  # past these a record is damage
_ID_MAX = const(16)  # a game's id is 8 characters (``store.game``); past 16 it is damage


def read_records(path):
    """The solitaire's records (``records_in``): {"moves": fewest, "ms": fastest}, with
    "game" and "before" when a game with an id set them; {} when none.

    A damaged file is moved aside (``perspective.json.bad``) with whatever sound record it held
    kept in RAM: the next record then writes a new file instead of over the only copy."""
    try:
        with open(path) as f:
            got = json.loads(f.read())
    except OSError:
        return {}
    except (ValueError, RuntimeError):  # RuntimeError: too deep for CPython's json
        got = None
    ok, sound = records_in(got)
    if not sound:
        try:
            files.aside(path, True)
        except OSError:  # a locked flash: left as it is (a record will not be saved either)
            pass
    return ok


def records_in(got):
    """(the sound records in the JSON value ``got``, whether all of it is sound).

    Records are {"moves": n, "ms": n} (either may be missing), and when the game that set
    them had an id, "game": that id and "before": the records it beat (moves and ms only).
    Other keys are let be. A "game" without a sound "before", or the reverse, is damage:
    the moves and the time are kept, the mark is not."""
    ok, sound = _best_in(got)
    if type(got) is dict and ("game" in got or "before" in got):
        before, whole = _best_in(got.get("before"))
        if _sound_id(got.get("game")) and whole:
            ok["game"] = got["game"]
            ok["before"] = before
        else:
            sound = False
    return ok, sound


def _best_in(got):
    """(the sound "moves" and "ms" of ``got``, whether ``got`` is a dict with no bad one)."""
    ok = {}
    sound = is_dict = type(got) is dict
    for key in ("moves", "ms"):
        if is_dict and key in got:
            v = got[key]
            if type(v) is int and 0 <= v < _RECORD_MAX[key]:  # a bigint from a damaged file
                ok[key] = v  # would be drawn as a line of 20,000 digits: left out
            else:
                sound = False
    return ok, sound


def _sound_id(gid):
    return type(gid) is str and 0 < len(gid) <= _ID_MAX


def records_solved(records, gid, moves, ms):
    """(the records after the game ``gid`` is solved in ``moves`` and ``ms``, what it beat).

    It competes with the records as they stand without its own solve (``records_unsolved``:
    a solve taken back whose undo never reached the flash does not count). What it beats is
    marked with its id and keeps the records it beat, for its undo; a game without a sound id
    (a journal from before ids) sets unmarked records. Nothing beaten: the records it competed
    with, ``records`` itself unless they were its own."""
    base = records_unsolved(records, gid)
    best = _best_in(base)[0]  # the moves and the time alone: no other game's mark
    new, beaten = better(best, moves, ms)
    if not beaten:
        return base, beaten
    if _sound_id(gid):
        new["game"] = gid
        new["before"] = best
    return new, beaten


def records_unsolved(records, gid):
    """The records as they stand while the game ``gid`` is unsolved: those its solve beat when
    the records are its own, else ``records`` itself."""
    if _sound_id(gid) and records.get("game") == gid:
        return records["before"]
    return records


def better(records, moves, ms):
    """The records after a solitaire solved in ``moves`` and ``ms``, and what was beaten."""
    new = dict(records)
    beaten = []
    if "moves" not in records or moves < records["moves"]:
        new["moves"] = moves
        beaten.append("moves")
    if "ms" not in records or ms < records["ms"]:
        new["ms"] = ms
        beaten.append("time")
    return new, beaten


def fmt_ms(ms):
    """A record's time as it reads, on the screen and in the host's backup: "m:ss"."""
    s = ms // 1000
    return "%d:%02d" % (s // 60, s % 60)


def write(path, records):
    """Make ``records`` the file's, whole or not at all (OSError: the file is as it was)."""
    files.write_atomic(path, json.dumps(records))
