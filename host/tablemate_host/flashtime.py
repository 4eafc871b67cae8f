"""A flash that takes the Pico's time: every write moves the fake clock on as the chip would.

The host's files are written in microseconds, so a host test never sees a repair outrun the
watchdog; the Pico's W25Q16JV takes 0.4 ms to program a 256-byte page and 45 ms to erase a
4 KB sector, and up to 3 ms and 400 ms by its datasheet (the emulated Pico's ``--flash-timing
typ|max``). ``FlashTime`` charges the fake clock (``fakes.clock``, which the app's ``now`` and
the fake watchdog read) for the writes under one root: a page program per 256 bytes written, a
sector erase per 4 KB a file grows into (littlefs writes a file's data to erased blocks), and a
page program for the metadata commit of every flush, close, rename and remove. Reads are free,
as on the emulated Pico. A model, not littlefs: what it charges is the least a real flash takes
for the same writes (littlefs also erases when it compacts a metadata block).
"""

import builtins
import os

from tablemate_host import fakes

_REAL_OPEN = builtins.open
PAGE, SECTOR = 256, 4096
TIMING = {"typ": (0.4, 45.0), "max": (3.0, 400.0)}  # (page program, sector erase) in ms


class _Timed:
    """A file opened for writing: its writes, flush and close charged to the clock."""

    def __init__(self, flash, f):
        self._flash = flash
        self._f = f
        self._size = f.seek(0, 2) if "a" in f.mode else 0

    def write(self, data):
        before = self._size
        self._size += len(data)
        self._flash.charge(pages=-(-len(data) // PAGE),
                           sectors=self._size // SECTOR - before // SECTOR + (before == 0))
        return self._f.write(data)

    def flush(self):
        self._flash.charge(pages=1)
        self._f.flush()

    def close(self):
        if not self._f.closed:
            self._flash.charge(pages=1)
        self._f.close()

    def __getattr__(self, name):  # seek, tell, read...: as the file does
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FlashTime:
    """Install with ``monkeypatch`` (pytest) for the files under ``root``; ``timing`` is "typ"
    or "max". ``spent`` is the flash time charged so far (ms)."""

    def __init__(self, root, monkeypatch, timing="max"):
        self.root = os.path.abspath(root)
        self.page, self.sector = TIMING[timing]
        self.spent = 0.0
        self._owed = 0.0  # charged, not yet a whole ms on the clock
        monkeypatch.setattr(builtins, "open", self._open)
        for name in ("rename", "remove"):
            monkeypatch.setattr(os, name, self._commit(getattr(os, name)))

    def charge(self, pages=0, sectors=0):
        ms = pages * self.page + sectors * self.sector
        self.spent += ms
        self._owed += ms
        whole = int(self._owed)
        if whole:
            self._owed -= whole
            fakes.clock.advance(whole)

    def _ours(self, path):
        return isinstance(path, str) and os.path.abspath(path).startswith(self.root)

    def _open(self, path, mode="r", *args, **kw):
        f = _REAL_OPEN(path, mode, *args, **kw)
        if self._ours(path) and any(c in mode for c in "wax+"):
            return _Timed(self, f)
        return f

    def _commit(self, real):
        def call(path, *args, **kw):
            if self._ours(path):
                self.charge(pages=1)
            return real(path, *args, **kw)
        return call
