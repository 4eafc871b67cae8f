"""A littlefs image that receives every change the firmware makes to a host flash folder.

Scenario tests run the firmware on a host folder; what a Pico's flash would hold afterwards is
more than its files: littlefs is copy-on-write, so a file rewritten or removed leaves its old
data in blocks that are only erased when they are needed again. To read every byte a real
flash would hold, ``LfsMirror`` wraps ``open`` and the ``os`` calls the firmware uses (for paths
under one root) and does each change on a ``littlefs.LittleFS`` too, with the geometry of
MicroPython's rp2 filesystem (4 KB blocks, 352 of them, 256-byte programs: the emulated Pico's
``tools/mkfs.py``). The folder stays what the firmware reads; ``image()`` is the raw flash.
"""

import builtins
import os

from littlefs import LittleFS

_REAL_OPEN = builtins.open


def _writes(mode):
    return any(c in mode for c in "wax+")


class _Twin:
    """A file open for writing on the host, its every write and flush done on littlefs too."""

    def __init__(self, real, lfs):
        self._real = real
        self._lfs = lfs

    def write(self, data):
        self._lfs.write(data.encode() if isinstance(data, str) else data)
        return self._real.write(data)

    def flush(self):
        self._lfs.flush()
        self._real.flush()

    def seek(self, offset, whence=0):
        self._lfs.seek(offset, whence)
        return self._real.seek(offset, whence)

    def tell(self):
        return self._real.tell()

    def close(self):
        self._lfs.close()
        self._real.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class LfsMirror:
    """Install with ``monkeypatch`` (pytest) before the firmware touches ``root``."""

    def __init__(self, root, monkeypatch):
        self.root = os.path.abspath(root)
        self.fs = LittleFS(block_size=4096, block_count=352, prog_size=256, read_size=32)
        for dirpath, dirs, names in os.walk(self.root):  # what the test put there first
            rel = self._rel(dirpath)
            for d in dirs:
                self.fs.mkdir(rel.rstrip("/") + "/" + d)
            for name in names:
                with _REAL_OPEN(os.path.join(dirpath, name), "rb") as f:
                    data = f.read()
                with self.fs.open(rel.rstrip("/") + "/" + name, "wb") as f:
                    f.write(data)
        monkeypatch.setattr(builtins, "open", self._open)
        for name in ("rename", "remove", "mkdir", "rmdir"):
            monkeypatch.setattr(os, name, self._twin(name, getattr(os, name)))

    def image(self):
        """Every byte of the flash, as littlefs left it."""
        return bytes(self.fs.context.buffer)

    def _rel(self, path):
        return "/" + os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/") \
            .lstrip(".")

    def _ours(self, path):
        return isinstance(path, str) and os.path.abspath(path).startswith(self.root)

    def _open(self, path, mode="r", *args, **kw):
        real = _REAL_OPEN(path, mode, *args, **kw)
        if not (self._ours(path) and _writes(mode)):
            return real
        lmode = mode.replace("t", "")
        if "b" not in lmode:
            lmode += "b"
        return _Twin(real, self.fs.open(self._rel(path), lmode))

    def _twin(self, name, real):
        def call(path, *args, **kw):
            done = real(path, *args, **kw)
            if self._ours(path):
                lfs = getattr(self.fs, name)
                if name == "rename":
                    lfs(self._rel(path), self._rel(args[0]))
                else:
                    lfs(self._rel(path))
            return done
        return call
