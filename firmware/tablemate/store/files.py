"""Flash file helpers shared by every file the device keeps: the atomic write, copy, keep aside.

A file replaced whole goes through ``write_atomic`` (a temporary file, then a rename), the one
copy of that sequence: a power cut at any moment leaves the old file or the new one, whole.
A damaged file is never silently lost: it is kept under the first free name of ``.bad``,
``.bad1``, ... before anything repairs it, and repairs go through a temporary file and a rename
so the real file is always whole. A folder standing where a file goes (made from a computer)
is kept aside the same way by the first write it blocks (``opened``, ``replace``). A flash that is full or mounted read-only refuses writes with
an OSError; ``trouble`` puts that in words, so every caller that can play on without writing
tells the player the same thing.
"""


from tablemate import alive, os
from micropython import const

CHUNK = const(256)  # bytes a long copy reads at once, feeding the watchdog between
_NOSPC = const(28)  # errno.ENOSPC: littlefs found no free block
_ROFS = const(30)  # errno.EROFS: the filesystem is mounted read-only
_DIR = const(0x4000)  # S_IFDIR in os.stat()[0], on littlefs and on the host
NOT_SAVED = ":\nnothing is saved"


def trouble(exc):
    """What a write's OSError says about the flash, for the screen (at most 16 characters)."""
    code = exc.args[0] if exc.args else 0
    if code == _NOSPC:
        return "Flash full"
    if code == _ROFS:
        return "Flash read-only"
    return "Flash error"


def exists(path):
    """True when something is at ``path`` (MicroPython has no os.path)."""
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def replace(tmp, path):
    """Rename tmp to path, replacing path (a folder there is moved aside: ``in_the_way``)."""
    # LittleFS (the Pico) and POSIX rename over an existing file; FAT does not.
    try:
        os.rename(tmp, path)
    except OSError:
        if not in_the_way(path):
            os.remove(path)
        os.rename(tmp, path)


def in_the_way(path):
    """Move a folder that stands where the file ``path`` goes aside, whole, as a damaged file
    is kept (path.bad, ...); True when there was one.

    Why: a computer can make a folder at any name (``mpremote mkdir``, a backup unpacked the
    wrong way), and littlefs will neither open it as a file nor rename a file over it: every
    write of that file would fail, a game at ``game.jnl`` "not being saved" for good."""
    try:
        if not os.stat(path)[0] & _DIR:
            return False
    except OSError:
        return False
    aside(path, True)
    return True


def opened(opener, path, mode):
    """``opener(path, mode)``, a file opened for writing: once more after moving aside a
    folder that stands at ``path`` (``in_the_way``). ``opener`` is the caller's ``open``,
    which tests stand in for module by module."""
    try:
        return opener(path, mode)
    except OSError:
        if not in_the_way(path):
            raise
    return opener(path, mode)


def write_atomic(path, data, keep=False):
    """Replace the file at ``path`` by ``data``, whole or not at all; return what ``data``
    returned when it is a function.

    ``data`` is bytes, a str, or a function that writes the new content into the open file
    (a copy streamed from another file, too big for the heap). It goes to ``path + ".tmp"``,
    is flushed, and the temporary file is renamed over ``path``: littlefs commits a rename
    atomically, so a cut before it leaves the old file and a cut after it the new one. A write
    the flash refuses (full, read-only) raises OSError with the old file untouched and no
    partial temporary file left behind.

    ``keep``: the old file is kept aside (``aside``: renamed, not copied: a repair of a long
    journal copies only what it keeps), and the new one waits as ``path + ".new"`` until it is
    renamed into place; a cut between the two renames leaves it there whole, and ``finish(path,
    ".new")`` (the next look for the file) puts it in place. So a repair cut at any moment is
    either not done (and done again whole) or done: never half, never twice.
    """
    tmp = path + (".new" if keep else ".tmp")
    try:
        f = opened(open, tmp, "wb")
        try:
            if type(data) is bytes:
                got = f.write(data)
            elif type(data) is str:
                got = f.write(data.encode())
            else:
                got = data(f)
            f.flush()
        finally:
            f.close()
    except OSError:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    if keep:
        aside(path, True)
    replace(tmp, path)
    return got


def remove(path):
    """Delete the file at ``path`` and a temporary file a cut ``write_atomic`` left; missing
    files are fine."""
    for p in (path, path + ".tmp"):
        try:
            os.remove(p)
        except OSError:
            pass


def finish(path, suffix=".tmp"):
    """Complete a replace that a power cut left half done: the old file is gone and the new one
    is still at its temporary name, ``path + suffix`` (".tmp": removed first where a rename
    cannot replace a file, FAT, in ``replace``; ".new": renamed aside, ``write_atomic``'s
    ``keep``, a journal's repair). A plain replace on littlefs never needs it."""
    tmp = path + suffix
    if not exists(path) and exists(tmp) and not in_the_way(tmp):  # a folder is no new file
        replace(tmp, path)


def copy(src, dst, length=-1):
    """Copy the first length bytes of src (all if length < 0) to dst."""
    with open(src, "rb") as fi:
        with open(dst, "wb") as fo:
            while length:
                alive()  # a long copy: seconds at the flash's slowest
                n = CHUNK if length < 0 else min(CHUNK, length)
                data = fi.read(n)
                if not data:
                    break
                fo.write(data)
                if length > 0:
                    length -= len(data)


def aside(path, move=False):
    """Copy (or move) path to the first free name of path.bad, path.bad1, ...; return it."""
    name = path + ".bad"
    i = 0
    while exists(name):
        i += 1
        name = path + ".bad" + str(i)
    if move:
        os.rename(path, name)
        return name
    try:
        copy(path, name)
    except OSError:  # no room for the copy: leave no partial one that looks like the file
        try:
            os.remove(name)
        except OSError:
            pass
        raise
    return name
