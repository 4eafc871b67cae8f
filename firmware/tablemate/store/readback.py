"""Reading a game journal back and repairing it: the decoding and the checks of every kind of
line (its description and its encoding are journal.py's), the scans, resume and the repairs.

Why a module of its own: a game in play only appends (``journal.append``), so these 3.5 KB (.mpy)
are in RAM only while a journal is read: the boot's look at a saved game (``read_header``,
``marks_end``), a resume that reads the file backward from its end, in chunks, to the last valid
checkpoint and then forward from there (load), an undo past a checkpoint that reads the stretch
between two checkpoints (line_at, resolve). A game lets it go (``Game.new``, ``Game.resume``,
``Game.undo``). Repairs: a torn or unreadable last line is made void by appending; a damaged
line with good lines after it, or a line the rules refuse, means a cut with the whole file kept
aside (cut). A flash that refuses the repair (full or read-only) is read as if the file ended
before the damage (load's ``limit``): the game resumes in RAM, and the first save that works
cuts the file there (keeping a copy aside).

A cut rewrites what it keeps (littlefs cannot shorten a file): a long journal takes seconds at
the flash's slowest, so the copy feeds the watchdog chunk by chunk (``tablemate.alive``), and
the damaged file is renamed aside, not copied (``salvage.keep_start``: the new journal
is whole before it takes the name). A reset at any moment of a repair leaves the journal as it
was, to be repaired again, or repaired: never a repair half done or done twice, never a loop of
resets (issue 33: a 6,000-action journal reset the board nine times in a row at the datasheet's
slowest timing, a partial copy aside each time).
"""


from tablemate import alive, crc32, json, os
from micropython import const

from tablemate.store.files import NOT_SAVED, aside, finish, trouble
from tablemate.store.journal import (BAD, LONGEST, OPEN, SIGNED, TORN, UNDO_LINE, VERSION,
                                     VOID, stats, write)

_CHUNK = const(512)


# --- the lines, decoded and checked ---------------------------------------------------------------

def loads(line):
    """The JSON value on line, or None when it is not readable."""
    if b"\x00" in line:  # MicroPython's json stops at a NUL; CPython refuses it
        return None
    try:
        return json.loads(line)
    except (ValueError, RuntimeError):  # also UnicodeError on both VMs; RuntimeError:
        # CPython's RecursionError on nesting deeper than its json reads (the simulator)
        return None


def header(line):
    """The header on a whole first line if it is sound, else None."""
    h = loads(line)
    if (type(h) is dict and h.get("v") in (1, 2, VERSION) and isinstance(h.get("game"), str)
            and type(h.get("opts")) is dict):
        return h
    return None


def signed(head):
    """Whether the checkpoints of the journal with header head carry their CRC."""
    return head.get("v", 0) >= SIGNED


def action(line):
    """The action on a whole line, or None when it is not a readable action line."""
    obj = loads(line)
    return obj if type(obj) is list and obj else None


def _crc_holds(line):
    """Whether line starts with '{"c": crc, ' and crc is the CRC-32 of the rest of it."""
    if not line.startswith(b'{"c": '):
        return False
    crc = 0
    k = 6
    while k < len(line) and k < 17 and 0x30 <= line[k] <= 0x39:  # 10 digits at most
        crc = crc * 10 + line[k] - 0x30
        k += 1
    end = len(line) - line.endswith(b"\n")
    return k > 6 and line[k:k + 2] == b", " and crc == crc32(memoryview(line)[k + 2:end])


def checkpoint(line, offset, crc=True):
    """The checkpoint dict on the line at offset, checked, or None when it is not one.

    crc: the line must carry its CRC (journals of version SIGNED on).
    """
    if crc and not _crc_holds(line):
        return None
    obj = loads(line)
    if type(obj) is not dict or "s" not in obj:
        return None
    n = obj.get("n")
    p = obj.get("p", -1)
    e = obj.get("e", offset)
    t = obj.get("t", [])
    if type(n) is not int or n < 0 or type(p) is not int or type(e) is not int:
        return None
    if n and not 0 <= p < e <= offset:
        return None
    if type(t) is not list:
        return None
    for a in t:
        if type(a) is not list or not a:
            return None
    return obj


# --- what boot reads of a saved game: its header, its end marker ------------------------------

def end_marker(data):
    """(game name, journal size) from an end marker's bytes, or None when they are not one."""
    parts = data.split()
    if len(parts) != 2 or not parts[1].isdigit():
        return None
    try:
        return parts[0].decode(), int(parts[1])
    except ValueError:  # UnicodeError too, on both VMs
        return None


def marks_end(path, journal):
    """Whether the end marker at ``path`` holds for the journal at ``journal``: it names the
    size the journal has. Whatever was appended since (the undo that reopened the game) makes
    it stale, however a power cut left the marker itself; so is a marker of another format
    (older versions wrote the name alone), torn, or unreadable: the game is offered again,
    never discarded while it runs."""
    try:
        f = open(path, "rb")
    except OSError:
        return False
    try:
        mark = end_marker(f.read(64))
        return mark is not None and mark[1] == os.stat(journal)[6]
    except OSError:
        return False
    finally:
        f.close()


def first_line(f):
    """The first line of f with its newline, or b"" when there is none."""
    data = b""
    while len(data) < LONGEST:
        chunk = f.read(256)
        if not chunk:
            break
        i = chunk.find(b"\n")
        if i >= 0:
            return data + chunk[:i + 1]
        data += chunk
    return b""


def read_header(path):
    """The header of the journal at path if it is sound, else None; reads only the first line."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        return header(first_line(f))
    except OSError:  # a read the flash refuses (or a folder, where a host VM opens one)
        return None
    finally:
        f.close()


# --- the lines read, from the end or from an offset -----------------------------------------------

def backward(f, stop, size):
    """(offset, line) for the lines of f between offsets stop and size, the last one first.

    The last line may lack its newline. Reads _CHUNK bytes per seek.
    """
    pos = size  # file offset of rest[0]
    rest = b""
    end = 0  # rest[:end] is still to be yielded (no copy of rest per line)
    while pos > stop or end:
        j = rest.rfind(b"\n", 0, end - 1) if end > 1 else -1  # the newline before the last line
        if j < 0 and pos > stop:
            if end > LONGEST:
                raise ValueError("line too long")
            n = min(_CHUNK, pos - stop)
            pos -= n
            alive()
            f.seek(pos)
            rest = f.read(n) + rest[:end]
            end = len(rest)
            stats[1] += n
            continue
        stats[0] += 1
        yield pos + j + 1, rest[j + 1:end]
        end = j + 1


def forward(f, start, end):
    """(offset, line) for the lines of f between offsets start and end, in order."""
    f.seek(start)
    pos = start  # file offset of rest[0]
    rest = b""
    left = end - start
    while left > 0:
        alive()
        chunk = f.read(min(_CHUNK, left))
        if not chunk:
            break
        left -= len(chunk)
        stats[1] += len(chunk)
        rest = rest + chunk if rest else chunk
        s = 0
        k = rest.find(b"\n")
        while k >= 0:
            stats[0] += 1
            yield pos + s, rest[s:k + 1]
            s = k + 1
            k = rest.find(b"\n", s)
        pos += s
        rest = rest[s:]
        if len(rest) > LONGEST:
            raise ValueError("line too long")
    if rest:
        stats[0] += 1
        yield pos, rest


def line_at(f, offset):
    """The line starting at offset (with its newline, or b"" if it has none)."""
    for _, line in forward(f, offset, offset + LONGEST):
        return line if line.endswith(b"\n") else b""
    return b""


def resolve(f, start, end, stack, offs=None):
    """Push the actions of the lines [start, end) onto stack, undos popping; skip the rest.

    offs, when given, gets the offset of each pushed line alongside. Returns (bad, last): bad is
    -1, or the offset of the first line that breaks the journal (an unreadable line, or an undo
    with nothing left to undo); last is True when that line is an unreadable last line.
    """
    pending = -1  # an unreadable line, judged by the next one: void if that one is void
    for off, line in forward(f, start, end):
        void = line.endswith(VOID)
        if pending >= 0:
            if not void:
                return pending, False
            pending = -1
            continue
        if void or line[0] == OPEN:  # checkpoints are no-ops when lines are replayed
            continue
        if line == UNDO_LINE:
            if not stack:
                return off, False
            stack.pop()
            if offs is not None:
                offs.pop()
            continue
        a = action(line) if line.endswith(b"\n") else None
        if a is None:
            pending = off
            continue
        stack.append(a)
        if offs is not None:
            offs.append(off)
    return pending, pending >= 0


# --- resume -----------------------------------------------------------------------------------

class Read:
    """What ``load`` read of a journal, and what ``_scan`` found on the way.

    ``header`` is None when there is no game (no file, or no sound header). ``base`` is
    (offset, checkpoint dict or None for the header); ``tail`` the effective actions after the
    base's state (its "t" first) and ``offs`` their line offsets; ``size`` where the journal ends
    (the next save appends there); ``since`` the number of lines after the base line;
    ``problem`` None or a short message for the screen. ``_scan`` also sets ``end`` (the offset
    just after the base line), ``frag`` (the offset of a last line without its newline, else the
    size), ``bad`` (the offset of an unreadable checkpoint line that is not the last line, else
    -1) and ``last`` (the offset of an unreadable last line, torn: to be made void, else -1).
    """

    def __init__(self, problem=None):
        self.header = None
        self.base = None
        self.tail = None
        self.offs = None
        self.size = 0
        self.since = 0
        self.problem = problem
        self.end = 0
        self.frag = 0
        self.bad = -1
        self.last = -1


def _scan(f, stop, size, crc, got):
    """Find the base, the last valid checkpoint, reading back from the end of the file, into
    ``got`` (a ``Read``: base, end, since, frag, bad, last). crc: whether the journal's
    checkpoints carry their CRC."""
    low = 0  # lowest depth reached after the current line, relative to it (<= 0)
    since = 0
    got.frag = size
    void = False  # the line after the current one is void
    real = 0  # lines seen that are neither void nor voided
    got.base, got.end, got.bad, got.last = (0, None), stop, -1, -1
    for off, line in backward(f, stop, size):
        if off + len(line) == size and not line.endswith(b"\n"):
            got.frag = off  # a torn fragment: it becomes void once neutralised
            void = True
            since += 1
            continue
        since += 1
        if line.endswith(VOID):
            void = True
            continue
        if void:
            void = False
            if action(line) is None and checkpoint(line, off, crc) is None:
                continue
        real += 1
        if line[0] == OPEN:
            cp = checkpoint(line, off, crc)
            if cp is None:
                if real > 1:
                    got.bad, got.last = off, -1
                    break
                got.last = off
                continue
            if low >= -len(cp.get("t", ())):
                got.base, got.end = (off, cp), off + len(line)
                since -= 1
                break
        elif line == UNDO_LINE:
            low -= 1
        else:  # an action (an unreadable one is found when the lines are replayed)
            low = min(0, low + 1)
    got.since = since


def cut(path, offset):
    """A damaged line starts at offset: keep the file aside, cut it there, return the message."""
    from tablemate.store.salvage import keep_start  # .mpy: loaded by a repair only (rare)
    return "Bad line %d: copy kept" % (keep_start(path, offset) + 1)  # the header: 1


def _open(path):
    """The journal opened to read, or None; a repair that a cut stopped between its renames is
    finished first (``salvage.keep_start``)."""
    try:
        return open(path, "rb")
    except OSError:
        pass
    try:
        finish(path, ".new")
        return open(path, "rb")
    except OSError:
        return None


def load(path, limit=-1):
    """Read the end of a journal: the game header, its base checkpoint and the actions after it,
    as a ``Read``. A file without a sound header is moved aside. Damage is repaired on the way
    (see the module docstring); limit >= 0 reads the file as if it ended there.
    """
    problem = None
    while True:
        f = _open(path)
        if f is None:
            return Read(problem)
        got = Read(problem)
        try:
            first = line_at(f, 0)
            got.header = h = header(first)
            if h is not None:
                got.size = size = f.seek(0, 2) if limit < 0 else limit
                _scan(f, len(first), size, signed(h), got)
                if got.bad < 0:
                    cp = got.base[1]
                    got.tail = list(cp.get("t", ())) if cp else []
                    got.offs = [got.base[0]] * len(got.tail)
                    bad, torn = resolve(f, got.end, got.frag, got.tail, got.offs)
                    got.bad, got.last = (-1, bad) if torn else (bad, got.last)
        except (ValueError, OSError):  # a line longer than any the firmware writes, or a
            h = None  # read the flash refuses (a folder, where a host VM opens one): not a journal
        finally:
            f.close()
        if h is None:
            try:
                aside(path, True)
            except OSError as exc:
                return Read("Bad journal\n" + trouble(exc) + NOT_SAVED)
            return Read(BAD)
        if got.bad < 0 and got.last < 0 and got.frag == size:
            return got
        if limit < 0:  # repair the file
            try:
                if got.bad >= 0:
                    problem = cut(path, got.bad)
                    continue
                write(path, VOID, "ab")  # the fragment (or the unreadable last line) is now void
                got.size += len(VOID)
                got.since += 1
                got.problem = problem or TORN
                return got
            except OSError as exc:
                problem = trouble(exc) + NOT_SAVED
        limit = got.bad if got.bad >= 0 else (got.last if got.last >= 0 else got.frag)
