"""The game journal: one append-only file per game, so a power cut loses at most one key press.

Line 1 is the header {"v": 1, "game": name, "opts": options}; every further line is one action
as JSON. A line counts only once its newline is on flash: the newline is the commit marker.
Appends are one write call each and never rewrite the file (flash wear). The file is rewritten
only to repair it: a torn last line is dropped; a damaged line further up means the whole file
is first copied aside (path + ".bad", ".bad1", ...) and then cut back to its good prefix.
Every rewrite goes through path + ".tmp" and a rename, so the file is always whole.
"""

import json
import os

from micropython import const

from tablemate.files import aside, copy, replace

VERSION = 1
TORN = "Dropped torn entry"
_CHUNK = const(512)


def _keep_prefix(path, length):
    tmp = path + ".tmp"
    copy(path, tmp, length)
    replace(tmp, path)


def _write_line(path, obj, mode):
    f = open(path, mode)
    try:
        f.write((json.dumps(obj) + "\n").encode())  # one write: the newline commits it
        f.flush()
    finally:
        f.close()


def create(path, game, opts):
    """Start a journal for game with opts, replacing any old one atomically."""
    tmp = path + ".tmp"
    _write_line(tmp, {"v": VERSION, "game": game, "opts": opts}, "wb")
    replace(tmp, path)


def append(path, action):
    """Append one action as one line (one write call, flushed, closed)."""
    _write_line(path, action, "ab")


def record_history(path, summary):
    """Append a finished game's summary to the history file, one JSON line."""
    _write_line(path, summary, "ab")


def remove(path):
    """Delete the journal (and a leftover temporary file); missing files are fine."""
    for p in (path, path + ".tmp"):
        try:
            os.remove(p)
        except OSError:
            pass


def _parse(line, want):
    try:
        obj = json.loads(line)
    except ValueError:  # also UnicodeError on both VMs
        return None
    return obj if isinstance(obj, want) and obj else None


def _good_header(h):
    return (h is not None and h.get("v") == VERSION and isinstance(h.get("game"), str)
            and "opts" in h)


def _bad(path, line_no):
    aside(path)
    return "Bad line %d: copy kept" % line_no


def _lines(f):
    """The lines of f, the last one perhaps without its newline, read a chunk at a time.

    ``readline`` on a device file reads one byte per call; a resume reads every line, so one
    read per chunk matters (about twice as fast in the MicroPython VM).
    """
    rest = b""
    while True:
        chunk = f.read(_CHUNK)
        if not chunk:
            break
        rest += chunk
        start = 0
        end = rest.find(b"\n")
        while end >= 0:
            yield rest[start:end + 1]
            start = end + 1
            end = rest.find(b"\n", start)
        rest = rest[start:]
    if rest:
        yield rest


def read_header(path):
    """The header of the journal at path if it is sound, else None; reads only the first line."""
    try:
        with open(path, "rb") as f:
            line = f.readline()
    except OSError:
        return None
    header = _parse(line, dict) if line.endswith(b"\n") else None
    return header if _good_header(header) else None


def load(path):
    """Read a journal: return (header, actions, problem), repairing the file if damaged.

    header is None when there is no game: no file, or no sound header (that file is moved
    aside). problem is None or a short message for the screen (<= 42 chars, two lines).
    """
    try:
        f = open(path, "rb")
    except OSError:
        return None, [], None
    actions = []
    header = None
    good = 0  # length of the good prefix in bytes
    bad_line = 0  # line number (header = 1) of a damaged line that is not the last
    damaged = False  # a line could not be read; torn if nothing follows it
    try:
        for line in _lines(f):
            if damaged:  # more after the damage: it is not a torn tail
                bad_line = len(actions) + 2
                break
            if header is None:
                header = _parse(line, dict) if line.endswith(b"\n") else None
                if not _good_header(header):
                    header = None
                    break
                good = len(line)
                continue
            action = _parse(line, list) if line.endswith(b"\n") else None
            if action is None:
                damaged = True
                continue
            actions.append(action)
            good += len(line)
    finally:
        f.close()
    torn = damaged and not bad_line
    if header is None:
        aside(path, True)
        return None, [], "Bad journal: copy kept"
    problem = None
    if bad_line:
        problem = _bad(path, bad_line)
    elif torn:
        problem = TORN
    if problem:
        _keep_prefix(path, good)
    return header, actions, problem


def cut(path, count):
    """Copy the file aside, then keep only its header and first count actions; return why."""
    good = 0
    with open(path, "rb") as f:
        for _ in range(count + 1):
            good += len(f.readline())
    problem = _bad(path, count + 2)
    _keep_prefix(path, good)
    return problem
