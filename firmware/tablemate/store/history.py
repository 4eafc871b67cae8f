"""The history file: one JSON line per finished game, kept short, read from its end.

Why: the History screen shows the newest dozen games, ``tablemate pull`` copies all of them, and
a Pico has little flash and slow files (``readline`` on a device file reads one byte per call).
So games are filed, moved and read a chunk at a time:
- ``file(path, summary)`` appends the game as one line with a serial number ``n``, one more than
  the newest game filed before it. Once ``path`` holds more than ``CAP`` games, the oldest are
  moved to the archive (``archive_path``: history.jnl -> history.old, appended) and ``path``
  keeps the newest ``KEEP``: one move per hundred games, not a rewrite per game.
- ``recent(path, count)`` reads the file backwards, a chunk at a time, until it has ``count``
  games; a line that is not a game (torn, a number, a list, bad UTF-8) is skipped.

Power cuts. Moving games takes two writes that cannot be made one: append the oldest lines to
the archive, then replace ``path`` by its newest lines (through ``path + ".tmp"`` and a rename).
A cut between them leaves those games in both files, never in neither. The next move appends
only what is newer than the archive's newest ``n``, so the archive never holds a game twice;
a reader of both files (``tablemate report``) keeps the first copy of each ``n``. A line torn
by a cut (no newline: a game that was not filed, and is still in its journal) is closed with
``#`` and a newline before anything is appended after it, so it can never swallow the next game
nor turn into a game itself (even when only its newline was missing). Where rename cannot
replace a file (FAT; LittleFS can), the next ``file`` call finishes a replace that a cut left
half done.
"""


from tablemate import alive, json
from micropython import const

from tablemate.store.files import finish, opened, write_atomic

CAP = 200  # games in the history file before the oldest are moved to the archive
KEEP = 100  # games left in it after a move
_CHUNK = const(512)
_CLOSE = b"#\n"  # ends a torn line; no JSON value ends with "#", so it never reads as a game


def archive_path(path):
    """Where games moved out of ``path`` go: ``history.jnl`` -> ``history.old``."""
    if path.endswith(".jnl"):
        path = path[:-4]
    return path + ".old"


def game(line):
    """The game record on one line (bytes), or None when the line is not a readable game."""
    try:
        g = json.loads(line)
    except (ValueError, RuntimeError):  # torn, not JSON, or bad UTF-8 (a ValueError on both
        # VMs); RuntimeError: nesting too deep for CPython's json (its RecursionError)
        return None
    if not isinstance(g, dict):
        return None
    names = g.get("names")
    won = g.get("winners", [])
    scores = g.get("scores")
    if not (type(names) is list and names and type(won) is list and type(scores) is list
            and len(scores) == len(names)):
        return None
    for name in names:
        if type(name) is not str:
            return None
    for score in scores:
        if type(score) is not int:
            return None
    for i in won:
        if type(i) is not int or not 0 <= i < len(names):
            return None
    return g


def recent(path, count):
    """The newest ``count`` readable games of the history at ``path``, newest first."""
    return read(path, count)[0]


def read(path, count):
    """(the newest ``count`` readable games, newest first; the damaged lines passed over on
    the way: skipped and counted, left in the file).

    A game filed again under the same ``id`` (it ended, an undo reopened it, it ended again or
    was left) counts once, as its newest line says."""
    games = []
    ids = []
    damaged = 0
    try:
        f = open(path, "rb")
    except OSError:
        return games, damaged
    try:
        for line in _backwards(f):
            g = game(line)
            if g is None:
                damaged += line.strip() != b""
            else:
                gid = g.get("id")
                if gid is not None:
                    if gid in ids:
                        continue
                    ids.append(gid)
                games.append(g)
                if len(games) >= count:
                    break
    except OSError:  # a read the flash refuses: what was read (a folder, where a
        # host VM opens one)
        pass
    finally:
        f.close()
    return games, damaged


def file(path, summary, cap=CAP, keep=KEEP):
    """File the game ``summary`` (a dict, not changed) in the history at ``path``; return its n.

    Past ``cap`` games in ``path``, the oldest are moved to the archive so that ``keep`` remain.
    """
    finish(path)  # a cut inside a non-atomic replace (FAT): finish it
    lines, clean = _count(path)
    n = _newest(path)
    if n is None:
        n = _newest(archive_path(path)) or 0
    record = dict(summary)
    record["n"] = n + 1
    data = (json.dumps(record) + "\n").encode()
    if not clean:
        data = _CLOSE + data  # a torn last line: it must not swallow this game
        lines += 1
    with opened(open, path, "ab") as f:
        f.write(data)  # one write: the newline commits the game
        f.flush()
    lines += 1
    if lines > cap:
        _move(path, lines - max(1, keep))
    return n + 1


def _backwards(f):
    """The complete lines of file ``f`` (newline included), last first, read from its end.

    Bytes after the last newline are a line torn by a power cut: they are not a line.
    """
    pos = f.seek(0, 2)
    carry = b""  # the start of a line whose beginning lies in an earlier chunk
    torn = True  # the file's last newline is not found yet
    while pos > 0:
        start = pos - _CHUNK if pos > _CHUNK else 0
        f.seek(start)
        data = f.read(pos - start) + carry
        pos = start
        if torn:
            end = data.rfind(b"\n")
            if end < 0:
                carry = b""
                continue
            data = data[:end + 1]
            torn = False
        end = len(data) - 1  # data ends with the newline of the line to yield next
        prev = data.rfind(b"\n", 0, end)
        while prev >= 0:
            yield data[prev + 1:end + 1]
            end = prev
            prev = data.rfind(b"\n", 0, end)
        carry = data[:end + 1]
    if carry:
        yield carry  # the first line of the file


def _newest(path):
    """The highest game number ``n`` near the end of the file at ``path``, or None."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        for line in _backwards(f):
            g = game(line)
            if g is not None and isinstance(g.get("n"), int):
                return g["n"]
    except OSError:  # read as far as it went
        pass
    finally:
        f.close()
    return None


def _count(path):
    """(newlines in the file, whether it is empty or ends with a newline)."""
    lines = 0
    last = b"\n"
    try:
        f = open(path, "rb")
    except OSError:
        return 0, True
    try:
        while True:
            chunk = f.read(_CHUNK)
            if not chunk:
                break
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    except OSError:  # read as far as it went
        pass
    finally:
        f.close()
    return lines, last == b"\n"


def _ends_clean(path):
    """True when the file at ``path`` is missing, empty, or ends with a newline."""
    try:
        f = open(path, "rb")
    except OSError:
        return True
    try:
        if f.seek(0, 2) == 0:
            return True
        f.seek(-1, 2)
        return f.read(1) == b"\n"
    except OSError:  # read as far as it went
        return True
    finally:
        f.close()


def _move(path, count):
    """Move the first ``count`` lines of ``path`` to the end of the archive, then drop them.

    Lines up to the archive's newest game are already there (a move cut short by a power cut
    after its append): they are not appended again.
    """
    archive = archive_path(path)
    done = _newest(archive)
    skip = 0  # first byte to append to the archive
    split = 0  # first byte to keep
    with open(path, "rb") as f:
        rest = b""
        while count:
            chunk = f.read(_CHUNK)
            if not chunk:
                break
            rest += chunk
            end = rest.find(b"\n")
            while end >= 0 and count:
                split += end + 1
                count -= 1
                if done is not None:
                    g = game(rest[:end + 1])
                    n = g.get("n") if g is not None else None
                    if isinstance(n, int):
                        if n <= done:
                            skip = split
                        else:
                            done = None  # the archive ends before this game: copy from here
                rest = rest[end + 1:]
                end = rest.find(b"\n")
    if skip < split:
        close = not _ends_clean(archive)
        with opened(open, archive, "ab") as fo:
            if close:
                fo.write(_CLOSE)  # a torn last line of the archive must not swallow a game
            _copy(path, skip, split, fo)
            fo.flush()
    write_atomic(path, lambda fo: _copy(path, split, -1, fo))


def _copy(src, start, end, fo):
    """Write bytes start..end of src (to its end when end < 0) to the open file ``fo``."""
    with open(src, "rb") as fi:
        fi.seek(start)
        left = end - start if end >= 0 else -1
        while left:
            alive()
            data = fi.read(_CHUNK if left < 0 or left > _CHUNK else left)
            if not data:
                break
            fo.write(data)
            if left > 0:
                left -= len(data)
