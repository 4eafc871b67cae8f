"""The clocks' files: the chess clock in use (``/data/clock.json``), and a game's clocks
between two of its actions (``/data/times.json``), as a power cut finds them.

One small JSON object (``record``): the format's version, the two names, who starts and whether
that swaps each game, the starter of this game, and the clock as paused at the moment of the
write (``tablemate.clock.ChessClock.to_dict``). Replaced whole (``files.write_atomic``), so a cut
leaves the old clock or the new one. ``read`` checks everything it returns: a file that is not
such an object (or is too long, or has a NUL, where MicroPython's json stops) is damage, which
the screen reports and moves aside.

``times.json`` holds The Perfect Moment's two clocks while a player thinks (``write_times``,
every ``clock.SAVE_MS``): its actions journal the clocks, and what ran since the last one
would be lost to a cut. It names the game (its id) and the journal's size: it holds only until
the next line is journaled, and a resume that finds it stale or damaged takes the times of the
journal's last action (what a cut cost before it existed), with nothing to tell.
"""

from micropython import const

from tablemate import json
from tablemate.clock import RANDOM, ChessClock
from tablemate.store import files
from tablemate.store.files import write_atomic

FILE = "clock.json"
TIMES = "times.json"
VERSION = 1
DAMAGED = "Saved clock damaged: copy kept"
_FILE_MAX = const(1024)  # a sound file is ~250 bytes
_MAX_MS = const(0x1FFFFFFF)  # a longer time is damage (the clocks' own bound)


def record(names, first, alternate, starter, clock, now):
    """What ``clock.json`` holds: plain data, the clock as paused at ``now``."""
    return {"v": VERSION, "names": names, "first": first, "alt": alternate,
            "starter": starter, "clock": clock.to_dict(now)}


def parse(d, now):
    """(names, first, alternate, starter, clock) from ``record`` data; the clock is stopped
    (paused when it was running). ValueError, KeyError or TypeError when ``d`` is damaged."""
    if type(d) is not dict or d.get("v") != VERSION:
        raise ValueError("version")
    names = d["names"]
    if type(names) is not list or len(names) != 2:
        raise ValueError("names")
    for name in names:
        if type(name) is not str or not 1 <= len(name) <= 8:
            raise ValueError("names")
    first, alternate, starter = d["first"], d["alt"], d["starter"]
    if first not in (0, 1, RANDOM) or type(first) is not int or starter not in (0, 1) \
            or type(starter) is not int or (alternate is not True and alternate is not False):
        raise ValueError("setup")
    clock = ChessClock.from_dict(d["clock"], now)
    if clock.players != 2:
        raise ValueError("players")
    return names, first, alternate, starter, clock


def write(path, data):
    """Replace the file at ``path`` by ``data`` as JSON: whole or not at all (tmp + rename)."""
    write_atomic(path, json.dumps(data))


def read(path, now):
    """(``parse`` result, None); (None, None) without a file; (None, DAMAGED) when unreadable."""
    try:
        f = open(path, "rb")
    except OSError:
        return None, None
    try:
        try:
            data = f.read(_FILE_MAX + 1)
        finally:
            f.close()
        if len(data) > _FILE_MAX or b"\x00" in data:  # MicroPython's json stops at a NUL
            raise ValueError("size")
        return parse(json.loads(data), now), None
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, RuntimeError):
        return None, DAMAGED  # ValueError: UnicodeError and bad JSON too, on both VMs;
        # RuntimeError: CPython's RecursionError on nesting deeper than its json can read


def write_times(path, gid, size, times):
    """Keep the clocks ``times`` of the game ``gid`` whose journal is ``size`` bytes long."""
    write_atomic(path, json.dumps({"id": gid, "size": size, "t": times}))


def read_times(path, gid, size):
    """The clocks ``write_times`` kept for the game ``gid`` with its journal ``size`` bytes long,
    else None: no file, another game, a line journaled since, or damage."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        data = f.read(_FILE_MAX + 1)
        got = json.loads(data) if b"\x00" not in data else None
    except (OSError, ValueError, RuntimeError):  # RuntimeError: CPython's RecursionError
        return None
    finally:
        f.close()
    if type(got) is not dict or got.get("id") != gid or got.get("size") != size:
        return None
    times = got.get("t")
    if type(times) is not list or len(times) != 2:
        return None
    for ms in times:
        if type(ms) is not int or not 0 <= ms <= _MAX_MS:
            return None
    return times


def remove(path):
    """Delete the saved clock (and a temporary file a cut write left)."""
    files.remove(path)
