"""``tablemate flash`` against an in-memory board that behaves like a Pico's littlefs over mpremote.

The fake is strict where the real board is: writing into a missing folder, making a folder that
exists, removing a missing file or a non-empty folder all raise OSError with the board's errno, and
a write that does not fit raises ENOSPC (leaving the truncated file, as ``open(p, 'wb')`` does).
Space is counted the way littlefs spends it: every file takes whole 4 KB blocks (at least one),
every folder a block pair. Its connection can drop at any operation (``cut_at``), as a pulled
cable does: a write then leaves the half of its file that reached the board.
"""

import ast
import errno
import json
import os
import shutil
import types

import pytest

from tablemate_host import cli, flash

BLOCK = 4096
RP2040 = 6 | (3 << 8) | (4 << 10)      # MicroPython 1.23+ on a Pico: .mpy 6.3, armv6m
RP2350 = 6 | (3 << 8) | (7 << 10)      # Pico 2 (Arm): armv7emsp
MPY_1_22 = 6 | (2 << 8) | (4 << 10)    # MicroPython 1.22: .mpy 6.2
MPY_1_20 = 6 | (1 << 8) | (4 << 10)
WRITES = ("write", "mkdir", "remove", "rmdir", "rename", "reset")

USER_FILES = {
    "/settings.json": b'{"names": ["Ann", "Bob"]}',
    "/game.jnl": b'["scorepad", {"players": 2}, 1]\n["add", 0, 5]\n',
    "/history.jnl": b'{"game": "scorepad"}\n',
    "/errors.log": b"Traceback...\n",
    "/game.jnl.bad": b"torn",
    "/boot.py": b"# the user's own\n",
    "/lib/other.py": b"x = 1\n",
}


def _oserror(code, path):
    return OSError(code, os.strerror(code), path)


def _blocks(data):
    return max(1, -(-len(data) // BLOCK))


class _Files(dict):
    """The fake board's files, counting the blocks they take as they change: a space check per
    write that walked every file made the cut-at-every-operation test slow."""

    def __init__(self):
        super().__init__()
        self.blocks = 0

    def __setitem__(self, path, data):
        self.blocks += _blocks(data) - (_blocks(self[path]) if path in self else 0)
        super().__setitem__(path, data)

    def __delitem__(self, path):
        self.blocks -= _blocks(self[path])
        super().__delitem__(path)

    def pop(self, path):
        data = self[path]
        del self[path]
        return data


class FakeBoard(flash.Transport):
    """A MicroPython board's filesystem and sys/os answers, in memory; every call is recorded."""

    def __init__(self, version=(1, 27, 0, ""), mpy=RP2040, files=None, blocks=352,
                 machine="Raspberry Pi Pico with RP2040", fail_on_write=None, cut_at=None,
                 frozen=None):
        self.name = "/dev/ttyFAKE"
        self.frozen = frozen  # the Tablemate version its firmware carries (a UF2), or None
        self.files = _Files()
        self.dirs = {"/"}
        self.blocks = blocks
        self.ops = []
        self.fail_on_write = fail_on_write  # n: the nth write loses the connection
        self.cut_at = cut_at  # n: the connection drops during the nth operation of any kind
        self.writes = 0
        self.lost = False
        self.alive = True
        self.fat = False  # True: rename does not replace a file, as on FAT
        for path, data in (files or {}).items():
            for d in _parents(path):
                self.dirs.add(d)
            self.files[path] = data
        impl = types.SimpleNamespace(name="micropython", version=version, _mpy=mpy,
                                     _machine=machine)
        self._ns = {"sys": types.SimpleNamespace(implementation=impl, platform="rp2",
                                                 path=["", ".frozen", "/lib"], modules={}),
                    "os": types.SimpleNamespace(statvfs=self._statvfs),
                    "getattr": getattr, "tuple": tuple,
                    "__import__": __import__}  # the host's modules stand for the board's

    # the board's side
    @staticmethod
    def norm(path):
        # littlefs skips repeated slashes, so "//main.py" (mip --target /) is "/main.py"
        parts = [p for p in path.split("/") if p and p != "."]
        return "/" + "/".join(parts)

    def used_blocks(self):
        return 2 * len(self.dirs) + self.files.blocks

    def _statvfs(self, path):
        free = self.blocks - self.used_blocks()
        return (BLOCK, BLOCK, self.blocks, free, free, 0, 0, 0, 0, 255)

    def _op(self, *op, data=None):
        """Record ``op``, or raise ConnectionLost when the link is gone or drops now; a write
        cut short leaves the first half of its ``data`` on the board."""
        if not self.lost:
            assert self.alive, "the board was used after reset/close"
            self.ops.append(op)
            self.writes += op[0] == "write"
            self.lost = len(self.ops) == self.cut_at or (
                op[0] == "write" and self.fail_on_write is not None
                and self.writes >= self.fail_on_write)
            if not self.lost:
                return
            if data is not None and _parent(op[1]) in self.dirs and op[1] not in self.dirs:
                self.files[op[1]] = bytes(data[:len(data) // 2])
        raise flash.ConnectionLost("Lost the connection to the board on %s" % self.name)

    def user_view(self):
        return {p: d for p, d in self.files.items() if not p.startswith("/tablemate/")
                and p != "/main.py"}

    # flash.Transport
    def eval(self, expr):
        self._op("eval", expr)
        return eval(expr, {"__builtins__": {}}, self._ns)

    def statvfs(self, path):
        self._op("statvfs", path)
        return self._statvfs(path)

    def frozen_version(self):
        self._op("frozen_version")
        return self.frozen

    def listdir(self, path):
        path = self.norm(path)
        self._op("listdir", path)
        if path not in self.dirs:
            raise _oserror(errno.ENOENT, path)
        prefix = path.rstrip("/") + "/"
        out = []
        for d in sorted(self.dirs):
            if d != path and d.startswith(prefix) and "/" not in d[len(prefix):]:
                out.append((d[len(prefix):], True, 0))
        for f, data in sorted(self.files.items()):
            if f.startswith(prefix) and "/" not in f[len(prefix):]:
                out.append((f[len(prefix):], False, len(data)))
        return out

    def stat(self, path):
        path = self.norm(path)
        self._op("stat", path)
        if path in self.dirs:
            return True, 0
        if path in self.files:
            return False, len(self.files[path])
        return None

    def read(self, path):
        path = self.norm(path)
        self._op("read", path)
        if path in self.dirs:
            raise _oserror(errno.EISDIR, path)
        if path not in self.files:
            raise _oserror(errno.ENOENT, path)
        return self.files[path]

    def write(self, path, data):
        path = self.norm(path)
        self._op("write", path, len(data), data=data)
        if path in self.dirs:
            raise _oserror(errno.EISDIR, path)
        if _parent(path) not in self.dirs:
            raise _oserror(errno.ENOENT, path)
        self.files[path] = b""  # open(path, "wb") truncates first
        if self.used_blocks() - 1 + _blocks(data) > self.blocks:
            raise _oserror(errno.ENOSPC, path)
        self.files[path] = bytes(data)

    def mkdir(self, path):
        path = self.norm(path)
        self._op("mkdir", path)
        if path in self.dirs or path in self.files:
            raise _oserror(errno.EEXIST, path)
        if _parent(path) not in self.dirs:
            raise _oserror(errno.ENOENT, path)
        if self.used_blocks() + 2 > self.blocks:
            raise _oserror(errno.ENOSPC, path)
        self.dirs.add(path)

    def remove(self, path):
        path = self.norm(path)
        self._op("remove", path)
        if path in self.dirs:
            raise _oserror(errno.EISDIR, path)
        if path not in self.files:
            raise _oserror(errno.ENOENT, path)
        del self.files[path]

    def rmdir(self, path):
        path = self.norm(path)
        self._op("rmdir", path)
        if path not in self.dirs or path == "/":
            raise _oserror(errno.ENOENT if path not in self.dirs else errno.EPERM, path)
        prefix = path + "/"
        if any(p.startswith(prefix) for p in list(self.files) + list(self.dirs)):
            raise _oserror(errno.ENOTEMPTY, path)
        self.dirs.discard(path)

    def rename(self, src, dst):
        src, dst = self.norm(src), self.norm(dst)
        self._op("rename", src, dst)
        if src not in self.files:
            raise _oserror(errno.ENOENT, src)
        if dst in self.dirs or _parent(dst) not in self.dirs:
            raise _oserror(errno.EISDIR if dst in self.dirs else errno.ENOENT, dst)
        if self.fat and dst in self.files:
            raise _oserror(errno.EEXIST, dst)
        self.files[dst] = self.files.pop(src)  # littlefs renames over a file

    def reset(self):
        self._op("reset")
        self.alive = False

    def close(self):
        self.alive = False

    # mpremote's Transport methods that its mip installer uses
    def fs_exists(self, path):
        return self.stat(path) is not None

    def fs_mkdir(self, path):
        self.mkdir(path)

    def fs_writefile(self, path, data, chunk_size=256, progress_callback=None):
        self.write(path, data)


def _parent(path):
    return path.rsplit("/", 1)[0] or "/"


def _parents(path):
    out = []
    while path != "/":
        path = _parent(path)
        out.append(path)
    return out


def _changes(board):
    return [op for op in board.ops if op[0] in WRITES]


def _firmware_copy(tmp_path):
    dst = tmp_path / "firmware"
    shutil.copytree(flash.FIRMWARE, str(dst), ignore=shutil.ignore_patterns("__pycache__"))
    return str(dst)


def _run(board, lines=None, **kw):
    out = lines if lines is not None else []
    return flash.flash(board, out=out.append, revision="abc1234", **kw)


# --- a fresh board ------------------------------------------------------------------------------

def test_fresh_flash_writes_every_file_compiled_but_main():
    board = FakeBoard(files=USER_FILES)
    lines = []
    _run(board, lines)
    expected = set()
    for rel in flash.firmware_files():
        if rel != "main.py" and rel.endswith(".py"):
            rel = rel[:-3] + ".mpy"
        expected.add("/" + rel)
    written = set(p for p in board.files if p.startswith("/tablemate/") or p == "/main.py")
    assert written == expected | {"/" + flash.MANIFEST, "/" + flash.VERSION_FILE}
    with open(os.path.join(flash.FIRMWARE, "main.py"), "rb") as f:
        assert board.files["/main.py"] == f.read()
    assert not any(p.endswith(".py") for p in written - {"/main.py"})
    # main.py goes in after the whole package, each file under a temporary name first
    order = [op[2] for op in board.ops if op[0] == "rename" and op[2] not in (
        "/" + flash.MANIFEST, "/" + flash.VERSION_FILE)]
    assert order[-1] == "/main.py"
    assert [op[1] for op in board.ops if op[0] == "write"] == [path + ".part" for path in (
        ["/" + flash.MANIFEST] + order + ["/" + flash.MANIFEST, "/" + flash.VERSION_FILE])]


def test_mpy_header_matches_the_board():
    board = FakeBoard()
    _run(board)
    for path, data in board.files.items():
        if path.endswith(".mpy"):
            major, sub, arch = flash.mpy_header(data)
            assert major == 6
            assert arch in (0, 4)  # bytecode only, or armv6m native code
            if arch:
                assert sub == 3


NATIVE = b"import micropython\n\n@micropython.native\ndef add(a, b):\n    return a + b\n"


def _native_firmware(tmp_path):
    fw = tmp_path / "fw"
    (fw / "tablemate").mkdir(parents=True)
    (fw / "tablemate" / "__init__.py").write_text('VERSION = "9.9.9"\n')
    (fw / "tablemate" / "fast.py").write_bytes(NATIVE)
    (fw / "main.py").write_text("import tablemate.fast\n")
    return str(fw)


@pytest.mark.parametrize("mpy,sub,arch", [(RP2040, 3, 4), (RP2350, 3, 7), (MPY_1_22, 2, 4)])
def test_native_code_is_compiled_for_the_boards_arch_and_subversion(tmp_path, mpy, sub, arch):
    board = FakeBoard(mpy=mpy, version=(1, 22, 2) if mpy == MPY_1_22 else (1, 27, 0))
    _run(board, firmware=_native_firmware(tmp_path))
    assert flash.mpy_header(board.files["/tablemate/fast.mpy"]) == (6, sub, arch)


@pytest.mark.parametrize("mpy,text", [(7 | (4 << 10), "7.0"), (7 | (1 << 8) | (7 << 10), "7.1")])
def test_mpy_version_without_a_compiler_refuses_and_offers_source(mpy, text):
    board = FakeBoard(version=(1, 30, 0), mpy=mpy)
    with pytest.raises(flash.FlashError) as err:
        _run(board)
    assert "--source" in str(err.value) and ".mpy version %s" % text in str(err.value)
    assert _changes(board) == []
    board = FakeBoard(version=(1, 30, 0), mpy=mpy)
    _run(board, source=True)
    assert "/tablemate/app.py" in board.files


def test_source_writes_py_files():
    board = FakeBoard()
    _run(board, source=True)
    for rel in flash.firmware_files():
        with open(os.path.join(flash.FIRMWARE, rel), "rb") as f:
            assert board.files["/" + rel] == f.read()
    assert not any(p.endswith(".mpy") for p in board.files)
    stamp = json.loads(board.files["/" + flash.VERSION_FILE])
    assert stamp["source"] is True and stamp["mpy"] is None


def test_progress_line_per_file():
    lines = []
    _run(FakeBoard(), lines)
    n = len(flash.firmware_files())
    progress = [line for line in lines if line.startswith("[")]
    assert len(progress) == n
    width = len(str(n))
    assert progress[0].startswith("[%*d/%d] tablemate/__init__.mpy  " % (width, 1, n))
    assert progress[-1].startswith("[%d/%d] main.py  " % (n, n))
    assert all(line.endswith(" KB") for line in progress)
    assert lines[0].startswith("Board on /dev/ttyFAKE: MicroPython 1.27.0")


def test_version_file_and_reset_last():
    board = FakeBoard()
    _run(board)
    stamp = json.loads(board.files["/" + flash.VERSION_FILE])
    assert stamp == {"version": flash.firmware_version(), "git": "abc1234", "mpy": "6.3",
                     "source": False}
    assert board.ops[-1] == ("reset",)
    manifest = flash.parse_manifest(board.files["/" + flash.MANIFEST])
    assert sorted(manifest) == sorted(p[1:] for p in board.files
                                      if p.startswith("/tablemate/") or p == "/main.py"
                                      if p[1:] not in (flash.MANIFEST, flash.VERSION_FILE))


def test_user_files_survive():
    board = FakeBoard(files=dict(USER_FILES, **{"/tablemate/mine.py": b"# user's own module\n"}))
    _run(board)
    _run(FakeBoard(files=board.files))
    for path, data in USER_FILES.items():
        assert board.files[path] == data
    assert board.files["/tablemate/mine.py"] == b"# user's own module\n"  # not in any manifest
    assert "/lib" in board.dirs


# --- a board with an earlier version ------------------------------------------------------------

def _reconnect(board, **kw):
    """The same flash, seen by a new connection."""
    kw.setdefault("blocks", board.blocks)
    new = FakeBoard(files=board.files, **kw)
    new.dirs = set(board.dirs)
    return new


def test_a_flash_writes_only_the_files_that_differ(tmp_path):
    """Issue 27: a re-flash compares sizes, then hashes on the board, and writes what changed
    (and the manifest and version file), saying how many files it skipped."""
    fw = _firmware_copy(tmp_path)
    board = FakeBoard(files=USER_FILES)
    _run(board, firmware=fw)
    total = len(flash.firmware_files(fw))
    again = _reconnect(board)
    lines = []
    _run(again, lines, firmware=fw)
    written = sorted(op[1] for op in again.ops if op[0] == "write")
    assert written == ["/" + flash.MANIFEST + ".part", "/" + flash.MANIFEST + ".part",
                       "/" + flash.VERSION_FILE + ".part"]
    assert "Writing 0 files (0.0 KB, compiled .mpy); %d unchanged on the board, skipped" % total \
        in lines[1], lines[:2]
    assert again.files == board.files or set(again.files) == set(board.files)
    with open(os.path.join(fw, "tablemate", "keys.py"), "a") as f:
        f.write("\nCHANGED = 1\n")
    third = _reconnect(again)
    lines = []
    _run(third, lines, firmware=fw)
    assert sorted(op[1] for op in third.ops if op[0] == "write"
                  and "MANIFEST" not in op[1] and "version" not in op[1]) == [
        "/tablemate/keys.mpy.part"]
    assert "%d unchanged on the board, skipped" % (total - 1) in lines[1]


def test_second_flash_removes_what_the_firmware_dropped(tmp_path):
    fw = _firmware_copy(tmp_path)
    board = FakeBoard(files=USER_FILES)
    _run(board, firmware=fw)
    assert "/tablemate/ui/dialogs.mpy" in board.files
    assert "/tablemate/rules/contrast.mpy" in board.files
    os.remove(os.path.join(fw, "tablemate", "ui", "dialogs.py"))
    shutil.rmtree(os.path.join(fw, "tablemate", "rules"))
    board = _reconnect(board)
    lines = []
    _run(board, lines, firmware=fw)
    assert "/tablemate/ui/dialogs.mpy" not in board.files
    assert not any(p.startswith("/tablemate/rules") for p in board.files)
    assert "/tablemate/rules" not in board.dirs  # the emptied folder goes too
    assert "/tablemate/ui/text.mpy" in board.files
    assert "removed tablemate/ui/dialogs.mpy (no longer part of Tablemate)" in lines
    assert "removed folder tablemate/rules" in lines
    for path, data in USER_FILES.items():
        assert board.files[path] == data
    assert board.ops[-1] == ("reset",)


def test_py_twin_is_removed_when_mpy_is_written():
    # a board set up by hand with `mpremote cp -r tablemate :` (no manifest): .py shadows .mpy
    files = dict(USER_FILES)
    for rel in flash.firmware_files():
        with open(os.path.join(flash.FIRMWARE, rel), "rb") as f:
            files["/" + rel] = f.read()
    board = FakeBoard(files=files)
    lines = []
    _run(board, lines)
    assert "/tablemate/app.py" not in board.files
    assert "/tablemate/app.mpy" in board.files
    assert "removed tablemate/app.py (replaced by tablemate/app.mpy)" in lines
    assert not any(p.endswith(".py") for p in board.files
                   if p.startswith("/tablemate/"))
    assert "/main.py" in board.files and "/boot.py" in board.files
    # and back: --source removes the .mpy twins
    board = _reconnect(board)
    _run(board, source=True)
    assert "/tablemate/app.py" in board.files and "/tablemate/app.mpy" not in board.files


def test_interrupted_flash_is_cleaned_up_by_the_next(tmp_path):
    fw = _firmware_copy(tmp_path)
    board = FakeBoard()
    _run(board, firmware=fw)
    os.remove(os.path.join(fw, "tablemate", "ui", "dialogs.py"))
    with open(os.path.join(fw, "tablemate", "extra.py"), "w") as f:
        f.write("X = 1\n")
    cut = _reconnect(board, fail_on_write=2)  # the manifest, then extra.mpy (the only change)
    with pytest.raises(flash.ConnectionLost):
        _run(cut, firmware=fw)
    assert "/tablemate/ui/dialogs.mpy" in cut.files  # leftovers go after the new files
    assert any(path.endswith(".part") for path in cut.files)
    os.remove(os.path.join(fw, "tablemate", "extra.py"))  # and the next version drops it again
    board = _reconnect(cut)
    _run(board, firmware=fw)
    assert "/tablemate/extra.mpy" not in board.files
    assert "/tablemate/ui/dialogs.mpy" not in board.files
    assert not any(path.endswith(".part") for path in board.files)
    assert "/tablemate/app.mpy" in board.files and board.files["/tablemate/app.mpy"]


def test_a_board_formatted_fat_is_flashed_too():
    # FAT does not rename over a file: the old one is removed just before
    board = FakeBoard(files=USER_FILES)
    _run(board)
    littlefs = _reconnect(board)
    _run(littlefs)
    fat = _reconnect(board)
    fat.fat = True
    _run(fat)
    assert fat.files == littlefs.files


def test_manifest_never_makes_flash_delete_user_data():
    files = dict(USER_FILES)
    files["/" + flash.MANIFEST] = flash.manifest_bytes(
        ["settings.json", "game.jnl", "history.jnl", "errors.log", "game.jnl.bad", "boot.py",
         "../etc/passwd", "/lib/other.py", "tablemate/old.mpy"])
    files["/tablemate/old.mpy"] = b"M\x06\x00\x1f"
    board = FakeBoard(files=files)
    _run(board)
    for path, data in USER_FILES.items():
        assert board.files[path] == data
    assert "/tablemate/old.mpy" not in board.files


def test_user_names_count_at_the_root_only():
    """The owner's /boot.py is kept; the firmware's own tablemate/boot.py is firmware."""
    assert flash.is_user_data("boot.py") and flash.is_user_data("settings.json")
    assert flash.is_user_data("data/anything") and flash.is_user_data("tablemate/x.jnl")
    assert not flash.is_user_data("tablemate/boot.py")
    assert not flash.is_user_data("tablemate/store/settings.json")


# --- a flash cut short at any operation leaves a board that boots -------------------------------

DATA = dict(USER_FILES, **{
    "/data/settings.json": b'{"names": ["Ann", "Bob"]}',
    "/data/game.jnl": b'["scorepad", {"players": 2}, 1]\n["add", 0, 5]\n',
    "/data/history.jnl": b'{"game": "scorepad"}\n',
    "/tablemate/mine.py": b"# the user's own module, in no manifest\n",
})


def _version(tmp_path, name, boot_line, extra):
    """A copy of the firmware whose boot (imported by main.py) imports modules only this
    version has, ``extra`` ({rel: text}), a folder among them."""
    fw = tmp_path / name
    shutil.copytree(flash.FIRMWARE, str(fw), ignore=shutil.ignore_patterns("__pycache__"))
    with open(str(fw / "tablemate" / "boot.py"), "a") as f:
        f.write("\n" + boot_line + "  # noqa\n")
    for rel, text in extra.items():
        (fw / rel).parent.mkdir(parents=True, exist_ok=True)
        (fw / rel).write_text(text)
    return str(fw)


@pytest.fixture(scope="module")
def versions(tmp_path_factory):
    """Old and new firmware (the new one drops the old one's ``oldonly`` module and ``oldpkg``
    folder, and adds its own); what a flash of either writes, .mpy and .py; and every whole file
    among them: {board path: {bytes: (source text, "old", "new" or "both")}}."""
    tmp = tmp_path_factory.mktemp("versions")
    old = _version(tmp, "old", "from tablemate import oldonly", {
        "tablemate/oldonly.py": "from tablemate.oldpkg import mod\nOLD = mod.X\n",
        "tablemate/oldpkg/__init__.py": "", "tablemate/oldpkg/mod.py": "X = 1\n"})
    new = _version(tmp, "new", "import tablemate.newonly", {
        "tablemate/newonly.py": "from tablemate.newpkg import mod\nNEW = mod.Y\n",
        "tablemate/newpkg/__init__.py": "", "tablemate/newpkg/mod.py": "Y = 2\n"})
    info = flash.query_board(FakeBoard())
    built = dict(((fw, source), flash.build(info, fw, source))
                 for fw in (old, new) for source in (False, True))
    whole = {}
    for tag, fw in (("old", old), ("new", new)):
        for source in (False, True):
            for rel, data in built[fw, source]:
                src = rel[:-4] + ".py" if rel.endswith(".mpy") else rel
                with open(os.path.join(fw, src)) as f:
                    text = f.read()
                seen = whole.setdefault("/" + rel, {})
                seen[data] = (text, "both" if seen.get(data, (0, tag))[1] != tag else tag)
    modules = set()
    for fw in (old, new):
        for rel in flash.firmware_files(fw):
            parts = rel[:-3].split("/")
            modules.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return types.SimpleNamespace(old=old, new=new, built=built, whole=whole, modules=modules)


_IMPORTS = {}


def _imports(text, modules):
    """The firmware modules a source imports, wherever in its code (screens import their mode's
    modules when they open): ``import a.b`` and ``from a import b`` where ``a.b`` is a module,
    with their packages."""
    if text not in _IMPORTS:
        names = set()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
                names.update(node.module + "." + a.name for a in node.names)
        found = set()
        for name in names:
            parts = name.split(".")
            found.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        _IMPORTS[text] = found
    return _IMPORTS[text] & modules


def _resolve(board, module):
    """The file MicroPython runs for ``import module`` on ``board`` (py/builtinimport.c: a folder
    is a package, its ``__init__`` optional; else ``.py`` before ``.mpy``); the folder itself for
    a package without ``__init__``; None when the import fails."""
    path = "/" + module.replace(".", "/")
    if path in board.dirs:
        candidates = (path + "/__init__.py", path + "/__init__.mpy", path)
    else:
        candidates = (path + ".py", path + ".mpy")
    return next((p for p in candidates if p in board.files or p in board.dirs), None)


def _booted(board, v):
    """{file: "old"/"new"/"both"} for main.py and every firmware module it can import (at boot,
    or when a screen opens: the modes' rules and screens, which are imported by name). Fails
    the test when one of them cannot be imported or is not whole."""
    from tablemate import modes
    used = {}
    todo = {"main"} | set("tablemate.%s.%s" % (kind, m["name"]) for m in modes.MODES
                          for kind in ("rules", "screens"))
    done = set()
    while todo:
        module = todo.pop()
        done.add(module)
        path = "/main.py" if module == "main" else _resolve(board, module)
        assert path is not None, "import %s fails" % module
        if path in board.dirs:
            continue
        assert board.files[path] in v.whole.get(path, {}), "%s is not whole" % path
        text, used[path] = v.whole[path][board.files[path]]
        todo |= _imports(text, v.modules) - done
    return used


def _installed(v, kind, source):
    """A board with the old version and user data: flashed (.py or .mpy), or .py files copied
    by hand (no manifest). Its flash is a Pico's (352 blocks, 1408 KB), or as large as the
    flash of the new version (``source``: as .py) needs, and the new version once more (the
    flash after a cut finds part of it written beside the old): a .py version flashed as .mpy
    holds both versions until the old files go, which no longer fits a Pico beside the
    fixture's extra folders. The cuts, not the space, are these tests' subject (the space check
    has its own), and the firmware grows: a fixed size broke each time it did."""
    board = FakeBoard(files=DATA, blocks=1 << 20)
    if kind == "py by hand":
        for rel in flash.firmware_files(v.old):
            with open(os.path.join(v.old, rel), "rb") as f:
                board.files["/" + rel] = f.read()
            board.dirs.update(_parents("/" + rel))
    else:
        _run(board, firmware=v.old, source=kind == "py")
    board = _reconnect(board)
    probe = _reconnect(board)
    plan = flash.make_plan(probe, flash.query_board(probe), v.built[v.new, source])
    again = sum(_blocks(data) for _, data in v.built[v.new, source])  # the flash after a cut
    board.blocks = max(352, board.used_blocks() + -(-plan.need // BLOCK) + again)
    return board


CHANGES = ("write", "mkdir", "remove", "rmdir", "rename")


@pytest.mark.parametrize("before,source", [("py", False), ("py by hand", False),
                                           ("mpy", False), ("mpy", True)])
def test_a_flash_cut_at_any_operation_leaves_a_bootable_board(versions, before, source,
                                                             monkeypatch):
    """Issue 14: the connection drops during each operation of a flash in turn. Every time, main.py
    and each module it imports resolve to a whole file, user data is as it was, the error says
    whether the board was changed, and the next flash leaves what an uncut one does."""
    v = versions
    # the same files for each of the ~1,000 flashes below: compile once
    monkeypatch.setattr(flash, "build", lambda info, fw, source=False: v.built[fw, source])
    installed = _installed(v, before, source)
    assert set(_booted(installed, v).values()) <= {"old", "both"}
    clean = _reconnect(installed)
    _run(clean, firmware=v.new, source=source)
    assert set(_booted(clean, v).values()) <= {"new", "both"}
    first_change = next(i for i, op in enumerate(clean.ops, 1) if op[0] in CHANGES)
    first_remove = next(i for i, op in enumerate(clean.ops, 1) if op[0] == "remove")
    repaired = {}
    for n in range(1, len(clean.ops) + 1):
        board = _reconnect(installed, cut_at=n)
        try:
            _run(board, firmware=v.new, source=source)
            assert board.ops[-1] == ("reset",), n  # only a cut as it restarts lets it finish
        except flash.ConnectionLost as er:
            said = flash.UNCHANGED if n < first_change else flash.HALF_WRITTEN
            assert str(er).endswith(said), (n, board.ops[-1], str(er))
        used = _booted(board, v)
        if before.startswith("py") and not source and n <= first_remove:
            # the new .mpy files are shadowed: the board runs the old version, all of it
            assert set(used.values()) <= {"old", "both"}, (n, board.ops[-1])
        for path, data in DATA.items():
            assert board.files[path] == data, (n, path)
        state = (tuple(sorted(board.files.items())), tuple(sorted(board.dirs)))
        if state not in repaired:  # a cut during a read leaves what the next change's cut does
            again = _reconnect(board)
            _run(again, firmware=v.new, source=source)
            repaired[state] = again.files == clean.files and again.dirs == clean.dirs
        assert repaired[state], (n, board.ops[-1])


def test_cli_says_the_board_may_be_half_written_when_the_cable_is_pulled(capsys):
    board = FakeBoard(files=USER_FILES, cut_at=40)
    args = cli.build_parser().parse_args(["flash"])
    assert flash.main(args, connect=lambda port: board) == 1
    err = capsys.readouterr().err
    assert err.startswith("tablemate flash: Lost the connection to the board on /dev/ttyFAKE"), err
    assert err.strip().endswith(flash.HALF_WRITTEN) and "refused" not in err
    board = FakeBoard(files=USER_FILES, cut_at=2)  # while it asks the board what it is
    assert flash.main(args, connect=lambda port: board) == 1
    assert capsys.readouterr().err.strip().endswith(flash.UNCHANGED)


# --- refusals change nothing --------------------------------------------------------------------

def test_old_micropython_is_refused_and_nothing_changes():
    board = FakeBoard(version=(1, 20, 0), mpy=MPY_1_20, files=USER_FILES)
    before = dict(board.files)
    with pytest.raises(flash.FlashError) as err:
        _run(board)
    assert str(err.value) == ("MicroPython 1.20 on the board; Tablemate needs 1.22 or newer. "
                              "Update it (see README).")
    assert _changes(board) == [] and board.files == before


def test_a_board_running_the_uf2_is_refused_and_nothing_changes():
    """Its frozen main.py imports the frozen package: the files would never run, and its next
    start would remove them (store/leftovers.py). The message says how to update instead."""
    board = FakeBoard(files=USER_FILES, frozen="0.1.0")
    before = dict(board.files)
    for dry_run in (False, True):
        with pytest.raises(flash.FlashError) as err:
            _run(board, dry_run=dry_run)
        assert str(err.value) == flash.UF2 % "0.1.0"
        assert _changes(board) == [] and board.files == before
    assert "Nothing was changed" in str(err.value) and "newer Tablemate UF2" in str(err.value)


def test_the_serial_adapter_tells_a_uf2_from_stock_micropython(capsys):
    """The question goes through the raw REPL: the frozen package, imported with the frozen
    modules alone on the path, and the board's modules left as they were."""
    for frozen in ("0.1.0", None):
        board = FakeBoard(files=USER_FILES, frozen=frozen)
        port = _RawReplBoard(board)
        try:
            real = flash.connect(port.port)
            assert real.frozen_version() == frozen
            assert board._ns["sys"].path == ["", ".frozen", "/lib"]
            assert "tablemate" not in board._ns["sys"].modules
            real.close()
        finally:
            port.close()
    board = FakeBoard(files=USER_FILES, frozen="0.1.0")
    port = _RawReplBoard(board)
    try:
        args = cli.build_parser().parse_args(["flash", "--port", port.port])
        assert flash.main(args) == 1
        port.wait_for_reset()
    finally:
        port.close()
    assert capsys.readouterr().err.strip() == "tablemate flash: " + flash.UF2 % "0.1.0"
    assert [op for op in _changes(board) if op[0] != "reset"] == [] and port.resets == 1


def test_not_enough_space_is_refused_and_nothing_changes():
    board = FakeBoard(files=USER_FILES, blocks=40)
    before = dict(board.files)
    with pytest.raises(flash.FlashError) as err:
        _run(board)
    assert str(err.value).startswith("Not enough space on the board: this flash needs ")
    assert _changes(board) == [] and board.files == before


def test_space_check_is_not_optimistic():
    # whatever the check lets through must fit on the board, with KEEP_FREE to spare
    for blocks in range(40, 120, 4):
        board = FakeBoard(files=USER_FILES, blocks=blocks)
        try:
            _run(board)
        except flash.FlashError as err:
            assert "Not enough space" in str(err) and _changes(board) == []
            continue
        free = board._statvfs("/")[4] * BLOCK
        assert free >= flash.KEEP_FREE, blocks


def test_dry_run_changes_nothing():
    board = FakeBoard(files=USER_FILES)
    lines = []
    _run(board, lines, dry_run=True)
    assert _changes(board) == []
    assert lines[-1] == "Dry run: nothing was written to the board."
    assert sum(1 for line in lines if line.startswith("[")) == len(flash.firmware_files())


def test_no_board_is_a_clear_error(monkeypatch, capsys):
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    with pytest.raises(flash.FlashError) as err:
        flash.connect()
    assert str(err.value) == flash.NO_BOARD
    assert cli.main(["flash"]) == 1
    assert capsys.readouterr().err.strip() == "tablemate flash: " + flash.NO_BOARD


def test_missing_port_is_a_clear_error(capsys):
    assert cli.main(["flash", "--port", "/dev/tablemate-no-such-port"]) == 1
    err = capsys.readouterr().err
    assert "No board found on /dev/tablemate-no-such-port" in err


def test_cli_refusal_restarts_the_firmware_unchanged(capsys):
    board = FakeBoard(version=(1, 20, 0), mpy=MPY_1_20)
    args = cli.build_parser().parse_args(["flash"])
    assert flash.main(args, connect=lambda port: board) == 1
    assert "Tablemate needs 1.22 or newer" in capsys.readouterr().err
    assert _changes(board) == [("reset",)]


def test_cli_flash_with_a_board(capsys):
    board = FakeBoard(files=USER_FILES)
    args = cli.build_parser().parse_args(["flash", "--port", "/dev/ttyFAKE"])
    seen = []
    assert flash.main(args, connect=lambda port: seen.append(port) or board) == 0
    assert seen == ["/dev/ttyFAKE"]
    assert board.ops[-1] == ("reset",) and "/tablemate/app.mpy" in board.files
    assert "is on the board; restarting it." in capsys.readouterr().out


# --- the real adapter, over a pseudo-terminal that speaks MicroPython's raw REPL -----------------

class _RawReplBoard:
    """A serial port answering like MicroPython's raw REPL; the commands mpremote sends run on
    CPython against a FakeBoard (their ``os``, ``sys`` and ``open`` are the fake board's). When
    the fake board's connection drops, the port hangs up, as a pulled USB cable does."""

    def __init__(self, board):
        import threading
        self.board = board
        self.master, slave = os.openpty()
        self.port = os.ttyname(slave)
        self._slave = slave
        self.raw = False
        self.resets = 0
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def wait_for_reset(self, timeout=5.0):
        import time
        end = time.monotonic() + timeout
        while not self.resets and time.monotonic() < end:
            time.sleep(0.01)

    def close(self):
        self._stop = True
        self._thread.join(2)
        if not self.board.lost:
            os.close(self.master)
        os.close(self._slave)

    def _send(self, data):
        os.write(self.master, data)

    def _serve(self):
        import select
        cmd = b""
        while not self._stop:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if not ready:
                continue
            for b in os.read(self.master, 4096):
                c = bytes([b])
                if c == b"\x03":
                    cmd = b""
                elif c == b"\x01":
                    self.raw, cmd = True, b""
                    self._send(b"raw REPL; CTRL-B to exit\r\n>")
                elif c == b"\x02":
                    self.raw, cmd = False, b""
                    self._send(b"\r\nMicroPython v1.27.0 on 2025-12-09; fake\r\n>>> ")
                elif c == b"\x04" and not self.raw:
                    self.resets += 1
                    self.board.reset()
                elif c == b"\x04":
                    if not cmd.strip(b"\r"):
                        self._send(b"MPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>")
                    else:
                        self._send(b"OK")
                        try:
                            out, err = self._exec(cmd.lstrip(b"\r").decode())
                        except flash.ConnectionLost:
                            os.close(self.master)
                            return
                        self._send(out + b"\x04" + err + b"\x04>")
                    cmd = b""
                elif self.raw:
                    cmd += c
                    if cmd.endswith(b"\x05A\x01"):  # raw-paste: "understood, not supported"
                        cmd = cmd[:-3]
                        self._send(b"R\x00")

    def _exec(self, code):
        import io
        board, out = self.board, io.StringIO()

        class File:
            def __init__(self, path, mode):
                self.path, self.mode = path, mode
                self.data = io.BytesIO(board.read(path) if "r" in mode else b"")

            def read(self, n=-1):
                return self.data.read(n)

            def readinto(self, b):
                return self.data.readinto(b)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.close()

            def write(self, b):
                return self.data.write(b)

            def close(self):
                if "w" in self.mode:
                    board.write(self.path, self.data.getvalue())

        def stat(path):
            st = board.stat(path)
            if st is None:
                raise _oserror(errno.ENOENT, path)
            return (0x4000 if st[0] else 0x8000, 0, 0, 0, 0, 0, st[1], 0, 0, 0)

        fake_os = types.SimpleNamespace(
            ilistdir=lambda path="/": [(n, 0x4000 if d else 0x8000, 0, s)
                                       for n, d, s in board.listdir(path)],
            stat=stat, mkdir=board.mkdir, remove=board.remove, rmdir=board.rmdir,
            rename=board.rename, statvfs=board._statvfs)
        ops = board.ops

        class WDT:  # the running firmware's watchdog, fed by the flash tool between operations
            def __init__(self, timeout):
                self.timeout = timeout

            def feed(self):
                ops.append(("wdt feed", self.timeout))

        class RTC:  # the calendar clock every connection sets
            def datetime(self, t):
                ops.append(("rtc", t))

        import binascii
        import hashlib
        ctrl = 0x40000000 if getattr(board, "watchdog", False) else 0
        fake_machine = types.SimpleNamespace(mem32={0x40058000: ctrl}, WDT=WDT, RTC=RTC)
        modules = {"os": fake_os, "sys": board._ns["sys"], "machine": fake_machine,
                   "hashlib": hashlib, "binascii": binascii}

        def board_import(name, *args):
            """The board's modules; ``tablemate`` only from its frozen modules (a UF2), found
            only with ``.frozen`` on the path (no flash install is modelled here)."""
            sys = modules["sys"]
            if name == "tablemate" and board.frozen and ".frozen" in sys.path:
                sys.modules["tablemate"] = types.SimpleNamespace(VERSION=board.frozen)
                return sys.modules["tablemate"]
            if name not in modules:
                raise ImportError("no module named '%s'" % name)
            return modules[name]

        builtins = {"__import__": board_import, "open": File, "ImportError": ImportError,
                    "print": lambda *a, **k: print(*a, file=out, **k), "repr": repr,
                    "tuple": tuple, "getattr": getattr, "bytearray": bytearray,
                    "memoryview": memoryview, "OSError": OSError}
        self.globals = getattr(self, "globals", {})
        self.globals["__builtins__"] = builtins
        try:
            exec(code, self.globals)
        except OSError as er:
            return out.getvalue().encode(), (
                "Traceback (most recent call last):\r\nOSError: [Errno %d] %s\r\n"
                % (er.errno, errno.errorcode[er.errno])).encode()
        return out.getvalue().encode(), b""


def test_serial_adapter_flashes_through_mpremote(tmp_path):
    # a small firmware keeps it quick: the raw REPL without raw-paste sends 256 bytes per 10 ms
    fw = _native_firmware(tmp_path)
    board = FakeBoard(files=dict(USER_FILES, **{"/tablemate/fast.py": b"old = 1\n"}))
    port = _RawReplBoard(board)
    try:
        real = flash.connect(port.port)
        assert isinstance(real, flash.SerialBoard)
        lines = []
        flash.flash(real, firmware=fw, out=lines.append, revision="abc1234")
        port.wait_for_reset()
    finally:
        port.close()
    assert port.resets == 1 and not port.raw  # left the raw REPL, then ctrl-D: main.py runs
    assert board.ops[-1] == ("reset",)
    assert "/tablemate/fast.py" not in board.files
    assert flash.mpy_header(board.files["/tablemate/fast.mpy"]) == (6, 3, 4)
    assert board.files["/main.py"] == b"import tablemate.fast\n"
    assert json.loads(board.files["/" + flash.VERSION_FILE])["version"] == "9.9.9"
    for path, data in USER_FILES.items():
        assert board.files[path] == data
    assert lines[0].startswith("Board on %s: MicroPython 1.27.0" % port.port)
    assert ("wdt feed", 8388) not in board.ops  # no watchdog ran: none was started


def test_serial_adapter_keeps_a_running_watchdog_fed(tmp_path):
    # Tablemate's firmware runs a watchdog that survives the soft reset mpremote does on connect:
    # unfed, it would reset the Pico half way through the copy.
    fw = _native_firmware(tmp_path)
    board = FakeBoard(files=dict(USER_FILES))
    board.watchdog = True
    port = _RawReplBoard(board)
    try:
        real = flash.connect(port.port)
        assert real.watchdog
        flash.flash(real, firmware=fw, out=lambda line: None, revision="abc1234")
        port.wait_for_reset()
    finally:
        port.close()
    writes = [i for i, op in enumerate(board.ops) if op[0] == "write"]
    assert writes
    for i in writes:  # every write comes right after a feed
        assert board.ops[i - 1] == ("wdt feed", 8388), board.ops[i - 2:i + 1]


def test_a_long_read_keeps_a_running_watchdog_fed_between_its_chunks():
    """Issue 14, seen on the emulated Pico: `pull` read a history.old of a megabyte in one call,
    and the firmware's watchdog reset the board half way (8.4 s unfed). Now a feed every 8 KB."""
    board = FakeBoard(files={"/data/history.old": bytes(range(256)) * 96})  # 24 KB
    board.watchdog = True
    port = _RawReplBoard(board)
    try:
        real = flash.connect(port.port)
        assert real.read("/data/history.old") == board.files["/data/history.old"]
        real.reset()
        port.wait_for_reset()
    finally:
        port.close()
    ops = [op[0] for op in board.ops]
    at = ops.index("read")  # the file is opened: its chunks follow, then the reset
    assert ops[at + 1:at + 3] == ["wdt feed", "wdt feed"], board.ops[at - 1:]  # at 8 and 16 KB


@pytest.mark.parametrize("fault,said", [
    ("cable", "tablemate flash: Lost the connection to the board on %s while writing "),
    ("full", "tablemate flash: the board refused: [Errno 28] ")])
def test_serial_adapter_tells_a_pulled_cable_from_a_refusal(fault, said, capsys):
    """Issue 14: the port hanging up mid-flash (pyserial's SerialException, EIO from the pty)
    is a lost connection, said as such; an OSError the board reports stays a refusal."""
    board = FakeBoard(files=dict(USER_FILES), fail_on_write=2 if fault == "cable" else None)
    if fault == "full":
        write = board.write

        def full(path, data):
            if ".mpy" in path:
                raise _oserror(errno.ENOSPC, path)
            write(path, data)
        board.write = full
    port = _RawReplBoard(board)
    try:
        args = cli.build_parser().parse_args(["flash", "--port", port.port])
        assert flash.main(args) == 1
    finally:
        port.close()
    err = capsys.readouterr().err
    assert err.startswith(said.replace("%s", port.port)), err
    if fault == "cable":
        assert err.strip().endswith(flash.HALF_WRITTEN), err
    for path, data in USER_FILES.items():
        assert board.files[path] == data


def test_a_board_flashed_before_data_moved_to_its_folder_is_tidied():
    # versions before 0.2 kept the manifest and the version file in /tablemate itself
    files = dict(USER_FILES)
    files["/tablemate/MANIFEST"] = flash.manifest_bytes(["tablemate/old.mpy", "main.py"])
    files["/tablemate/version.json"] = b'{"version": "0.1.0"}\n'
    files["/tablemate/old.mpy"] = b"M\x06"
    board = FakeBoard(files=files)
    lines = []
    _run(board, lines)
    assert "/tablemate/MANIFEST" not in board.files and "/tablemate/version.json" not in board.files
    assert "/tablemate/old.mpy" not in board.files  # the legacy manifest was read
    assert "removed tablemate/MANIFEST (now in tablemate/store)" in lines
    for path, data in USER_FILES.items():
        assert board.files[path] == data


# --- a dry run without a board --------------------------------------------------------------------

def test_dry_run_without_a_board_shows_the_plan_for_the_newest_micropython(monkeypatch, capsys):
    import serial.tools.list_ports
    monkeypatch.setattr(serial.tools.list_ports, "comports", lambda: [])
    assert cli.main(["flash", "--dry-run"]) == 0
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert out.err == ""
    newest = flash.newest_micropython()
    assert newest[:2] >= flash.MIN_VERSION
    major, sub = flash.pinned_mpy_version()
    assert lines[0] == "No board found. Dry run without a board:"
    assert lines[1].startswith("The plan for Tablemate ") and lines[1].endswith(
        "on a Pico with MicroPython %d.%d.%d (.mpy %d.%d), flashed for the first time:"
        % (newest + (major, sub)))
    files = flash.firmware_files()
    assert lines[2].startswith("Would write %d files (" % len(files))
    assert lines[2].endswith("compiled .mpy)")
    written = [_listed(line) for line in lines if line.startswith("[")]
    assert sorted(written) == sorted(rel[:-3] + ".mpy" if rel != "main.py" else rel
                                     for rel in files)
    unknown = [line for line in lines if line.startswith("Not known until a board is connected")]
    assert unknown and all(what in unknown[0] for what in (
        "free space", "MicroPython and .mpy version", "files of an earlier flash"))
    assert any(line.startswith("Space: it needs about ") for line in lines)
    assert lines[-1] == "Dry run: no board connected, nothing was written."


def test_dry_run_without_a_board_plans_what_a_flash_of_that_version_writes():
    lines = []
    planned = flash.plan_without_board(out=lines.append)
    newest = flash.newest_micropython()
    board = FakeBoard(version=newest + ("",))  # a fresh Pico (armv6m) with the newest MicroPython
    plan = _run(board, dry_run=True)
    assert "Space: it needs about %s free on the board" % flash._size(plan.need) in "\n".join(lines)
    board = FakeBoard(version=newest + ("",))
    _run(board)
    assert len(planned) == len(flash.firmware_files())
    for rel, data in planned:
        assert board.files["/" + rel] == data, rel


def test_dry_run_without_a_board_from_source(capsys):
    args = cli.build_parser().parse_args(["flash", "--dry-run", "--source", "--port", "/dev/nope"])
    assert flash.main(args, connect=_no_board) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "No board found on /dev/nope. Dry run without a board:"
    assert "any MicroPython 1.22 or newer" in lines[1]
    assert sum(1 for line in lines if line.startswith("[")) == len(flash.firmware_files())
    assert all(_listed(line).endswith(".py") for line in lines if line.startswith("["))


def test_flash_without_a_board_is_still_an_error(capsys):
    args = cli.build_parser().parse_args(["flash"])
    assert flash.main(args, connect=_no_board) == 1
    assert capsys.readouterr().err.startswith("tablemate flash: No board found")


def test_dry_run_with_a_board_is_as_before(capsys):
    board = FakeBoard(files=USER_FILES)
    before = dict(board.files)
    args = cli.build_parser().parse_args(["flash", "--dry-run"])
    assert flash.main(args, connect=lambda port: board) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Board on /dev/ttyFAKE: MicroPython 1.27.0")
    assert lines[-1] == "Dry run: nothing was written to the board."
    assert _changes(board) == [("reset",)] and board.files == before


def _listed(line):
    """The file of a "[ 3/37] tablemate/app.mpy  3.3 KB" line."""
    return line.split("]", 1)[1].split()[0]


def _no_board(port):
    if port:
        raise flash.NoBoard("No board found on %s: check the name" % port)
    raise flash.NoBoard(flash.NO_BOARD)
