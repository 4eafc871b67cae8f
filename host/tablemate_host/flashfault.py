"""A flash that fails the way the Pico's does when it is full or mounted read-only.

Tests of the device's files need a filesystem that refuses writes, which a host directory never
does. This wraps ``open`` and the ``os`` calls the firmware uses, for paths under one root only,
and fails them as MicroPython's littlefs does: ``OSError`` whose first argument is the errno
(28 ENOSPC, 30 EROFS). A full littlefs is copy-on-write: a file opened for writing keeps its old
content until its data is committed (flush or close), and a commit that finds no free block
fails with nothing changed; removing and renaming still work, which is how space is freed. A
read-only mount refuses every open for writing and every change of a name.
"""

import builtins
import errno
import gc
import os

_REAL_OPEN = builtins.open


def _writes(mode):
    return any(c in mode for c in "wax+")


class _Pending:
    """A file opened for writing on a full flash: what is written waits for a commit that fails."""

    def __init__(self, path, mode):
        self.name = path
        self.mode = mode
        self._data = 0

    def write(self, data):
        self._data += len(data)
        return len(data)

    def seek(self, offset, whence=0):
        return os.stat(self.name).st_size if whence == 2 and os.path.exists(self.name) else offset

    def tell(self):
        return self._data

    def flush(self):
        if self._data:
            self._data = 0
            raise OSError(errno.ENOSPC, "ENOSPC")

    def close(self):
        self.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FlashFault:
    """Install with ``monkeypatch`` (pytest); set ``mode`` to None, "full" or "readonly"."""

    def __init__(self, root, monkeypatch, mode=None):
        self.root = os.path.abspath(root)
        self.mode = mode
        self.refused = 0  # writes refused so far, so a test can tell the fault was met
        _close_journals()
        monkeypatch.setattr(builtins, "open", self._open)
        for name in ("rename", "remove", "mkdir", "rmdir"):
            monkeypatch.setattr(os, name, self._guard(name, getattr(os, name)))

    def _ours(self, path):
        return isinstance(path, str) and os.path.abspath(path).startswith(self.root)

    def _refuse(self, code):
        self.refused += 1
        raise OSError(code, os.strerror(code))

    def _open(self, path, mode="r", *args, **kw):
        if self.mode and self._ours(path) and _writes(mode):
            if self.mode == "readonly":
                self._refuse(errno.EROFS)
            self.refused += 1
            if "r" in mode and "+" in mode:
                self._refuse(errno.ENOSPC)
            return _Pending(path, mode)
        return _REAL_OPEN(path, mode, *args, **kw)

    def _guard(self, name, real):
        def call(path, *args, **kw):
            if self.mode == "readonly" and self._ours(path):
                self._refuse(errno.EROFS)
            if self.mode == "full" and name == "mkdir" and self._ours(path):
                self._refuse(errno.ENOSPC)
            return real(path, *args, **kw)
        return call


def _close_journals():
    """Close the journal a game keeps open for its next save (``Game.prime``): opened before
    the fault, it would take that save (on the Pico too: littlefs gave it its block then), and
    a test means its next save to meet the fault."""
    from tablemate.store.game import Game
    for obj in gc.get_objects():
        if isinstance(obj, Game):
            obj.close()
