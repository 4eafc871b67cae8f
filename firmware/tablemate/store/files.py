"""Flash file helpers shared by the journal and the settings: safe replace, copy, keep aside.

A damaged file is never silently lost: it is kept under the first free name of ``.bad``,
``.bad1``, ... before anything repairs it, and repairs go through a temporary file and a rename
so the real file is always whole. A flash that is full or mounted read-only refuses writes with
an OSError; ``trouble`` puts that in words, so every caller that can play on without writing
tells the player the same thing.
"""

import os

from micropython import const

_CHUNK = const(256)
_NOSPC = const(28)  # errno.ENOSPC: littlefs found no free block
_ROFS = const(30)  # errno.EROFS: the filesystem is mounted read-only
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
    """Rename tmp to path, replacing path."""
    # LittleFS (the Pico) and POSIX rename over an existing file; FAT does not.
    try:
        os.rename(tmp, path)
    except OSError:
        os.remove(path)
        os.rename(tmp, path)


def copy(src, dst, length=-1):
    """Copy the first length bytes of src (all if length < 0) to dst."""
    with open(src, "rb") as fi:
        with open(dst, "wb") as fo:
            while length:
                n = _CHUNK if length < 0 else min(_CHUNK, length)
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
