"""The user's settings, read at every boot, and the ``/data`` folder that holds what the device writes.

Settings live in a small JSON file, ``/data/settings.json``: each value validated, a bad one
replaced by its default. ``data_folder`` makes the folder, and moves in the files that versions
before it kept at the root.

A damaged file is never silently lost: an unreadable one is moved aside (path + ".bad", ".bad1",
...) and defaults are used; one with bad values is copied aside, then saved back repaired so the
next boot is clean. Saves go through a temporary file and a rename, so the file is always whole.
Unknown keys are ignored (and dropped on the next save).
"""

from tablemate import BATTERIES, json, os

LAYOUTS = ("six", "five", "three", "encoder")
KEYS = ("names", "brightness", "dim_s", "off_min", "sound", "layout", "turn",
        "battery", "phones")  # fixed order
DEFAULTS = {
    "names": ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"],
    "brightness": 3,
    "dim_s": 30,
    "off_min": 5,
    "sound": True,
    "layout": "six",
    "turn": 0,  # who the picture faces (``ui/face.py``): 0 off, 1 flip the games, 2 to the player
    "battery": "LiPo",  # the battery option of hardware/README.md
    "phones": False,  # the phones' Wi-Fi (a Pico W's access point and page): costs power
}
UNREADABLE = "Settings unreadable: using defaults"


def defaults():
    """A fresh copy of the default settings."""
    s = dict(DEFAULTS)
    s["names"] = list(DEFAULTS["names"])
    return s


def _name_ok(n):
    if not isinstance(n, str) or not 1 <= len(n) <= 8 or n.strip() == "":
        return False
    for c in n:
        if not " " <= c <= "~":
            return False
    return True


def _int_in(v, lo, hi):
    return type(v) is int and lo <= v <= hi  # type(): True is an int on CPython


def validate(key, value):
    """None if value is acceptable for key, else a short message (<= 42 chars)."""
    if key == "names":
        ok = isinstance(value, list) and len(value) == 8
        if ok:
            for n in value:
                ok = ok and _name_ok(n)
    elif key == "brightness":
        ok = _int_in(value, 1, 5)
    elif key == "dim_s":
        ok = _int_in(value, 0, 0) or _int_in(value, 5, 600)
    elif key == "off_min":
        ok = _int_in(value, 0, 60)
    elif key == "sound" or key == "phones":
        ok = value is True or value is False
    elif key == "layout":
        ok = value in LAYOUTS
    elif key == "turn":
        ok = _int_in(value, 0, 2)
    elif key == "battery":
        ok = value in BATTERIES
    else:
        ok = False  # not one of KEYS
    return None if ok else "Bad setting: " + str(key)[:24]


def load(path):
    """Read settings: (settings, problem). Missing file: defaults, no problem."""
    try:
        f = open(path, "rb")
    except OSError:
        return defaults(), None
    try:
        raw = json.loads(f.read())
    except (ValueError, RuntimeError, OSError):  # also UnicodeError on both VMs; RuntimeError:
        # CPython's RecursionError on nesting deeper than its json reads (the simulator);
        # OSError: a read the flash refuses (a folder, where a host VM opens one)
        raw = None
    finally:
        f.close()
    if not isinstance(raw, dict):
        return defaults(), _repaired(path, None, UNREADABLE)
    s = defaults()
    problem = None
    for key in KEYS:
        if key in raw:
            value = raw[key]
            msg = validate(key, value)
            if msg is None:
                s[key] = list(value) if key == "names" else value
            elif problem is None:
                problem = msg
    if problem:
        problem = _repaired(path, s, problem)
    return s, problem


def _repaired(path, good, problem):
    """Keep the damaged file aside and write ``good`` (None: nothing) in its place; a flash
    that refuses leaves the file as it is and says so: the app runs on what was read."""
    from tablemate.store import files  # only for a damaged file: boot imports stay few
    try:
        files.aside(path, good is None)
        if good is not None:
            save(path, good)
    except OSError as exc:
        return problem + "\n" + files.trouble(exc) + files.NOT_SAVED
    return problem


def save(path, settings):
    """Validate every known key (ValueError with the message if bad), then write atomically."""
    out = {}
    for key in KEYS:
        value = settings.get(key, DEFAULTS[key])
        msg = validate(key, value)
        if msg:
            raise ValueError(msg)
        out[key] = value
    # .mpy: 2 KB the home menu and its boot do without
    from tablemate.store.files import write_atomic
    write_atomic(path, json.dumps(out))


# -- the board check's verdict -------------------------------------------------------------------
# The boot checks the board configuration (``boardcheck``: a pin used twice, a pin the Pico does
# not have...) and works out which button layouts it wires. The board only changes when someone
# edits ``board.py`` or installs another version, yet the check's import and run cost a Pico
# 22 ms of every boot; so its verdict is kept here with a fingerprint of what it checked.
BOARD_FILE = "board.json"


def checked_board(folder, mark):
    """The layouts the board check found for the board whose fingerprint is ``mark``, or None
    when this board was not checked on this flash (or the file is missing or damaged: then the
    check simply runs again)."""
    try:
        f = open(folder + BOARD_FILE, "rb")
    except OSError:
        return None
    try:
        raw = json.loads(f.read())
    except (ValueError, RuntimeError, OSError):
        return None
    finally:
        f.close()
    if type(raw) is not dict or raw.get("board") != mark:
        return None
    layouts = raw.get("layouts")
    if type(layouts) is not list or not layouts:
        return None
    for layout in layouts:
        if layout not in LAYOUTS:
            return None
    return tuple(layouts)  # as the check gives them


def board_passed(folder, mark, layouts):
    """Remember that the board ``mark`` passed the check and wires ``layouts``; a flash that
    refuses (full, read-only, no /data yet on a first boot) only means the check runs again."""
    # .mpy: 2 KB the home menu and its boot do without
    from tablemate.store.files import write_atomic
    try:
        write_atomic(folder + BOARD_FILE, json.dumps({"board": mark, "layouts": list(layouts)}))
    except OSError:
        pass


# -- the board's own settings -------------------------------------------------------------------
# A builder who wired other pins, fitted another display or wants the fast bus writes what
# differs from board.py in /data/wiring.json, and builds no firmware: the UF2 carries board.py
# frozen. Each key replaces board.py's value whole ("buttons" with three keys is a three-button
# board). The boot checks the result as it checks board.py (``boardcheck``, its verdict kept as
# above under a fingerprint of the result, so an edited file is checked again).
WIRING_FILE = "wiring.json"
WIRING_PATH = "/data/" + WIRING_FILE  # as the messages name it


def wiring(folder, cfg):
    """``(board, problems)``: ``cfg`` (board.py's values) with those of ``folder`` +
    ``WIRING_FILE`` in their place, and the file's own problems as messages (the boot says
    which file they are about): a file that is not a JSON object, a key board.py does not have
    (the known keys still apply, so the boot can try them to show the problem). No file:
    ``(cfg, [])``."""
    try:
        f = open(folder + WIRING_FILE, "rb")
    except OSError:
        return cfg, []
    try:
        raw = json.loads(f.read())
    except (ValueError, RuntimeError):  # UnicodeError is a ValueError
        raw = None
    finally:
        f.close()
    if type(raw) is not dict:
        return cfg, ['The file is not a JSON object such as {"sda": 2, "scl": 3}']
    board = dict(cfg)
    problems = []
    for key in raw:
        if key in cfg:
            board[key] = raw[key]
        else:
            problems.append("%r is not a board setting (use %s)" % (key, ", ".join(sorted(cfg))))
    return board, problems


def rewire(folder, key, value):
    """Set ``key`` of ``WIRING_FILE`` to ``value``, its other keys kept (the self-test's fast
    display); OSError when the flash refuses, ValueError when the file there is not a JSON
    object (the boot says so until it is fixed: it is not overwritten)."""
    raw = {}
    try:
        f = open(folder + WIRING_FILE, "rb")
    except OSError:
        pass
    else:
        try:
            raw = json.loads(f.read())
        except (ValueError, RuntimeError):
            raw = None
        finally:
            f.close()
        if type(raw) is not dict:
            raise ValueError(WIRING_PATH + " is not a JSON object")
    raw[key] = value
    # .mpy: 2 KB the home menu and its boot do without
    from tablemate.store.files import write_atomic
    write_atomic(folder + WIRING_FILE, json.dumps(raw))


# What the device writes, kept in /data: littlefs looks a name up by reading its folder's log of
# changes, and a journal appended to at every action would otherwise slow down every module
# import in the folder next to it (the root, where the code's folder is found).
_DATA_FILES = ("settings.json", "game.jnl", "history.jnl", "history.old", "errors.log",
               "errors.old")
# What earlier versions left in /data and this one must not keep: the sealed votes of a
# secret ballot (they stay in RAM now; the seals in the journal ask those players again).
_STALE = ("ballot.json", "ballot.json.tmp")


def data_folder(root, now=False):
    """Make ``/data`` if it is missing (only ``now``, or to move in the files versions before it
    kept at the root); one listing of the root per boot, a few names.

    A first boot makes the folder after its first frame (``App.start``): a folder is a flash
    write, 50 ms on a Pico when it meets an erase.
    """
    try:
        names = os.listdir(root or "/")
        moving = []
        for name in names:
            for data in _DATA_FILES:  # the file, or a copy of it (.bad, .bad1, .tmp)
                if name == data or name.startswith(data + "."):
                    moving.append(name)
                    break
        if "data" not in names and (now or moving):
            os.mkdir(root + "/data")
        for name in moving:
            os.rename(root + "/" + name, root + "/data/" + name)
    except OSError:
        pass  # a full or read-only flash: the settings load as defaults, nothing is saved
    if now:
        for name in _STALE:
            try:
                os.remove(root + "/data/" + name)
            except OSError:
                pass

