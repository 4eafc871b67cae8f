"""The game journal: its format (every kind of line: what it holds, and its encoding) and the
appends of a game in play; readback.py decodes and checks the lines, reads a journal back and
repairs it.

Why this shape: a game may run to thousands of actions, and a Pico can neither hold them all in
RAM nor replay them in time, and its flash must not be rewritten per key press. So the file is
only ever appended to, and every few actions a checkpoint line holds the whole state: resume
reads back from the end of the file to the last valid checkpoint and replays only what follows.
Why the format is told here and decoded in readback: a game in play encodes its lines and
appends them, and reads nothing back but at an undo past a checkpoint, so this module stays in
RAM while it plays and readback (the decoders, their checks, the scans and the repairs: 3.5 KB
on the .mpy path) is imported for a read and let go after it. Each decoder is named below
beside its encoder; no other module spells a byte of the format (tests/host/
test_journal_format.py), and nothing here imports readback.

Lines (each counts only once its newline is on flash; the first byte tells the kind):
  header      {"v": 3, "game": name, "opts": {...}, "id": "..."}   (version 1: without
              checkpoints; version 2: checkpoints without "c"): ``header_line``,
              ``readback.header``
  action      a JSON list: a rules action, or ["undo"] which takes back the latest effective
              one: ``action_line``, ``UNDO_LINE``, ``readback.action``
  checkpoint  {"c": crc, "n": depth, "p": parent, "e": end, "t": [actions], "s": state}: the
              CRC-32 of the line's bytes after '{"c": crc, ' (its newline excluded) comes first,
              because a checkpoint is trusted as the game's state: a flipped digit in a score or
              a value the rules never make would otherwise be played on. The state after
              depth effective actions is s, and the actions t follow on top of it (so the depth
              just after the line is n + len(t), the same as just before it). p is the offset of
              the parent checkpoint line (depth < n; the header, offset 0, is the checkpoint of
              depth 0); the lines from the end of the parent line to offset e (the line's own
              offset when there is no "e") resolve, on top of the parent's t, to a stack whose
              first n - n(parent) actions lead from the parent's state to s. A checkpoint is
              valid while the depth never drops below n after it: ``checkpoint_line``,
              ``readback.checkpoint``; its first byte is ``OPEN``.
  void        any line ending in NUL + newline: a torn fragment made harmless by appending those
              two bytes; an unreadable line right before a void line is void too: ``VOID``.
Damage: a torn or unreadable last line is neutralised by appending (never a rewrite); a damaged
line with good lines after it, or a bad header, means the file is kept aside whole, as path +
".bad", ".bad1", ... (renamed), its good prefix written first as path + ".new" (``readback``).
"""


from tablemate import crc32, json
from micropython import const

from tablemate.store.files import opened, write_atomic

VERSION = 3
SIGNED = 3  # the first version whose checkpoints carry their CRC
TORN = "Dropped torn entry"
BAD = "Bad journal: copy kept"
UNDO_LINE = b'["undo"]\n'
VOID = b"\x00\n"
OPEN = 0x7B  # "{": the first byte of a checkpoint line (actions are lists: "[")
INLINE = const(512)  # a shorter file lives in its folder's metadata (littlefs on rp2: the
# least of its cache, 1 KB, and an eighth of a 4 KB block): an append to it erases nothing
LONGEST = const(16384)  # a longer line is damage, the header's too: a Viewpoint game's header
# holds its catalog (up to 40 cards, ~5 KB), checkpoints stay well below 2 KB
# Lines and bytes readback's scans read: tests check that resume does not read more as a game
# grows (kept here because readback is let go after each read).
stats = [0, 0]


# --- the lines, encoded ----------------------------------------------------------------------

def header_line(game, opts, gid=None, start=None):
    """The header of a new journal of game with opts (and the game's id, and when it began if
    the clock knows), its newline included."""
    head = {"v": VERSION, "game": game, "opts": opts}
    if gid is not None:
        head["id"] = gid
    if start is not None:
        head["start"] = start
    return (json.dumps(head) + "\n").encode()


def action_line(action):
    """The line of a rules action (a list)."""
    return (json.dumps(action) + "\n").encode()


def checkpoint_line(n, p, e, t, s):
    """The checkpoint of depth n, parent line p, stretch end e (None: the line itself; p and e
    are left out at depth 0), actions t after the state and the state s, already JSON text
    (a game keeps its base so): its CRC first."""
    body = '"n": %d' % n
    if n:
        body += ', "p": %d' % p
        if e is not None:
            body += ', "e": %d' % e
    if t:
        body += ', "t": ' + json.dumps(t)
    body = (body + ', "s": ' + s + "}").encode()
    return ('{"c": %d, ' % crc32(body)).encode() + body + b"\n"


# --- the appends of a game in play -----------------------------------------------------------

def write(path, data, mode):
    """Write data to path opened with mode: one write, flushed, closed."""
    f = opened(open, path, mode)
    try:
        f.write(data)  # one write: the newline at its end commits the line
        f.flush()
    finally:
        f.close()


def create(path, game, opts, gid=None, start=None):
    """Start a journal for game with opts (and the game's id, and when it began if the clock
    knows), replacing any old one atomically; return its size."""
    data = header_line(game, opts, gid, start)
    write_atomic(path, data)
    return len(data)


def prime(path, expect):
    """The journal at ``path`` (``expect`` bytes long) opened for its next append, a void line
    written into it and not committed: the open file (None when the file is not as expected:
    the next append goes the usual way). OSError when the flash refuses.

    Why: littlefs gives a file appended to a new block at the first write after a commit: an
    erase (45 ms, 400 ms at the flash's slowest) and a copy of its last block, before the
    lines are programmed and committed. The players see an action's frame before its line is
    on the flash, so that work, done at the append, was a window in which a power cut took back
    an action already shown: 54 ms at every action of a game past its first 512 bytes, 450 ms
    at the slowest. Done here, after the save before (the same pause after a frame as before),
    it leaves the next append to program its lines and commit them (``append``'s ``primed``).
    A power cut drops the uncommitted line; a close (``Game.close``) commits it: a void line is
    nothing to every reader. A journal shorter than ``INLINE`` is not primed: littlefs keeps it
    in the folder's metadata, where an append is one program and no erase."""
    f = opened(open, path, "ab")
    try:
        if f.seek(0, 2) == expect:
            f.write(VOID)
            return f
    except OSError:
        f.close()
        raise
    f.close()
    return None


def append(path, expect, render, primed=None):
    """Append render(offset) at the end of the file, which should be expect bytes long.

    One open, write, flush and close (``primed``: the file ``prime`` opened, its void line
    before the new lines, which it commits with them). Returns the new size. If an earlier
    append failed part way, the file is longer than expect: when what it left is the start of
    the same lines (after a primed void line, committed when its file was closed), the rest is
    written after it (the journal ends as if nothing had failed); anything else is cut off.
    Raises OSError (then nothing is known to be saved: call again later).
    """
    if primed is not None:
        expect += len(VOID)
        try:
            data = render(expect)
            primed.write(data)
            primed.flush()
        finally:
            primed.close()
        return expect + len(data)
    f = opened(open, path, "ab")
    try:
        size = f.seek(0, 2)
        if size == expect:
            data = render(expect)
            f.write(data)
            f.flush()
            return expect + len(data)
    finally:
        f.close()
    if size < expect:
        raise OSError("journal shorter than saved")
    f = open(path, "rb")
    try:
        f.seek(expect)
        extra = f.read(size - expect)
    finally:
        f.close()
    if extra.startswith(VOID):  # primed, then closed: the void line is the journal's
        expect += len(VOID)
        extra = extra[len(VOID):]
    data = render(expect)
    if data.startswith(extra):
        write(path, data[len(extra):], "ab")
    else:  # not lines of ours: damage that a full or read-only flash kept a resume from
        from tablemate.store.salvage import keep_start  # .mpy: loaded by this repair only
        keep_start(path, expect, data)  # cutting, or junk a file system wrote
    return expect + len(data)


def end_mark(path, game, size):
    """Write the marker of a filed game that ended (``lifecycle.file``): the game's name and
    its journal's size when it was filed."""
    write(path, "%s %d" % (game, size), "w")
