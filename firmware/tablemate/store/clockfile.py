"""The chess clock's file, ``/data/clock.json``: a clock in use, as a power cut finds it.

One small JSON object (``record``): the format's version, the two names, who starts and whether
that swaps each game, the starter of this game, and the clock as paused at the moment of the
write (``tablemate.clock.ChessClock.to_dict``). Replaced whole (``files.write_atomic``), so a cut
leaves the old clock or the new one. ``read`` checks everything it returns: a file that is not
such an object (or is too long, or has a NUL, where MicroPython's json stops) is damage, which
the screen reports and moves aside.
"""

from micropython import const

from tablemate import json
from tablemate.clock import RANDOM, ChessClock

FILE = "clock.json"
VERSION = 1
DAMAGED = "Saved clock damaged: copy kept"
_FILE_MAX = const(1024)  # a sound file is ~250 bytes


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
    from tablemate.store.files import write_atomic
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


def remove(path):
    """Delete the saved clock (and a temporary file a cut write left)."""
    from tablemate.store import files
    files.remove(path)
