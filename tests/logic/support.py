"""Helpers for logic tests that must run unchanged on CPython and on MicroPython.

Logic tests may not use tempfile, shutil or os.path (MicroPython lacks them), so this module
hides the difference: scratch directories live under the system temp directory on CPython
(one per process, removed at exit) and under /tmp in the MicroPython VM.

A check that only one VM can make (``micropython.heap_lock`` exists only on MicroPython) calls
``skip(reason)`` on the other: it raises ``Skip``, which pytest (``tests/conftest.py``) and the
VM runner (``tools/mpvm/run.mjs``) both report as skipped, so it is never counted as a pass
there. Logic tests stay plain functions: no pytest import.
"""

import os

try:
    import tempfile
except ImportError:  # MicroPython
    tempfile = None

class Skip(Exception):
    """Raised by ``skip``: this test does not apply on this VM (the argument says why)."""


def skip(reason):
    """Stop the test here and report it as skipped on this VM, with ``reason``."""
    raise Skip(reason)


_DIR_BIT = 0x4000  # S_IFDIR in os.stat()[0], on both VMs
_root = None


def _is_dir(path):
    try:
        return os.stat(path)[0] & _DIR_BIT != 0
    except OSError:
        return False


def _makedirs(path):
    """Create path and its missing parents (MicroPython has no os.makedirs)."""
    current = ""
    for part in path.split("/"):
        current += part
        if part and not _is_dir(current):
            os.mkdir(current)
        current += "/"


def remove_tree(path):
    """Remove a file or a directory with everything in it; a missing path is fine."""
    if _is_dir(path):
        for name in os.listdir(path):
            remove_tree(path + "/" + name)
        os.rmdir(path)
    else:
        try:
            os.remove(path)
        except OSError:
            pass


def _scratch_root():
    global _root
    if _root is None:
        if tempfile is None:
            _root = "/tmp/tablemate-tests"
        else:
            import atexit

            _root = tempfile.mkdtemp(prefix="tablemate-tests-").replace("\\", "/")
            atexit.register(remove_tree, _root)
    return _root


def scratch_dir(name):
    """Return the path of an empty directory for this test, wiping what an earlier run left."""
    assert name and "/" not in name and name not in (".", ".."), "bad scratch name: %r" % name
    path = _scratch_root() + "/" + name
    remove_tree(path)
    _makedirs(path)
    return path


def read_bytes(path):
    """Return the whole content of a file as bytes."""
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    """Create or replace a file with data (bytes)."""
    with open(path, "wb") as f:
        f.write(data)


class Lcg:
    """A tiny seeded random source, the same on both VMs (logic tests may not use ``random``)."""

    def __init__(self, seed):
        self.x = seed % 65537

    def below(self, n):
        """A number in range(n)."""
        self.x = (self.x * 75 + 74) % 65537  # small ints only: no bignums on MicroPython
        return self.x % n


def journal_lines(path):
    """The header and the action lines of a journal file, as data.

    Checkpoint lines, void lines (ending in NUL), a last line without its newline and unreadable
    lines are left out: what remains is what the players did, undos included.
    """
    import json

    out = []
    for line in read_bytes(path).split(b"\n")[:-1]:
        if b"\x00" in line:  # void (MicroPython's json would stop at the NUL)
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if out and type(obj) is not list:
            continue
        out.append(obj)
    return out


def refused(rules, state, action, message):
    """Assert ``rules.apply`` refuses ``action`` with ``message`` (one screen line: at most 21
    characters) and leaves ``state`` exactly as it was."""
    import json
    from tablemate import RuleError
    before = json.dumps(state)
    copy = json.loads(before)
    try:
        rules.apply(state, action)
    except RuleError as e:
        assert str(e) == message, (action, str(e))
        assert len(str(e)) <= 21, str(e)
        assert json.dumps(state) == before and state == copy, action
        return
    assert False, "accepted %r" % (action,)


def setup_refused(rules, opts, message):
    """Assert ``rules.setup`` refuses ``opts`` with ``message`` (at most 21 characters)."""
    from tablemate import RuleError
    try:
        rules.setup(opts)
    except RuleError as e:
        assert str(e) == message, (opts, str(e))
        assert len(str(e)) <= 21, str(e)
        return
    assert False, "accepted %r" % (opts,)


# -- power cuts -------------------------------------------------------------------------------
def loaded(module):
    """Put ``module`` back where the firmware's next import of it finds it. The firmware lets
    some modules go after use (``tablemate.unload``: the journal reader after a resume), and
    its next import then makes a new module object: a test that gave this one a stand-in
    ``open`` must have that import get this object."""
    import sys
    name = module.__name__
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    setattr(sys.modules[parent], child, module)


class PowerCut(BaseException):
    """The power went: nothing runs after it (every later change of a ``CutFlash`` raises).
    Not an ``Exception``: no handler of the firmware's (the app's error net) sees it, as none
    runs after a real cut."""


class _Writer:
    def __init__(self, flash, f):
        self._flash = flash
        self._f = f

    def write(self, data):
        keep = self._flash.change(len(data))
        if keep is not None:
            self._f.write(data[:keep])
            self._f.close()
            raise PowerCut()
        return self._f.write(data)

    def seek(self, offset, whence=0):  # an append asks where the file ends
        return self._f.seek(offset, whence)

    def flush(self):
        self._f.flush()

    def close(self):
        self._f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class CutFlash:
    """Files as the firmware's modules see them, with a power cut at change number ``cut``
    (None: never). A change is a write, a rename or a remove.

    ``torn`` picks how much of a cut write reaches the flash: 0 nothing, 1 one byte, 2 half,
    3 all but the last byte. ``fat``: rename does not replace an existing file (FAT), so
    ``files.replace`` removes first. ``install(*modules)`` gives each module this ``open``
    (and ``tablemate.store.files`` this ``os``); ``uninstall()`` takes them back.
    """

    def __init__(self, cut=None, torn=0, fat=False):
        self.cut = cut
        self.torn = torn
        self.fat = fat
        self.changes = 0
        self.dead = False
        self._modules = ()

    def change(self, size=0):
        """Count one change; None to carry it out, else how many bytes of it land."""
        if self.dead:
            raise PowerCut()
        self.changes += 1
        if self.changes - 1 != self.cut:
            return None
        self.dead = True
        return (0, min(1, size), size // 2, max(0, size - 1))[self.torn]

    def open(self, path, mode="r"):
        f = open(path, mode)
        return f if "r" in mode else _Writer(self, f)

    # the os functions tablemate.store.files uses
    def rename(self, old, new):
        if self.fat and _exists(new):
            raise OSError(17)  # EEXIST
        if self.change() is not None:
            raise PowerCut()
        os.rename(old, new)

    def remove(self, path):
        if self.change() is not None:
            raise PowerCut()
        os.remove(path)

    def stat(self, path):
        return os.stat(path)

    def install(self, *modules):
        from tablemate.store import files
        self._modules = modules
        for m in modules:
            m.open = self.open
        files.os = self

    def uninstall(self):
        from tablemate.store import files
        for m in self._modules:
            del m.open
        files.os = os


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False
