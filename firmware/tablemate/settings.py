"""The two configurations read at every boot: the board's wiring and the user's settings.

``board.py`` (the wiring) is checked by ``tablemate.boardcheck`` before any driver sees it;
``wired_layouts`` says which button layouts its pins can do. User settings live in a small JSON
file: each value validated, a bad one replaced by its default.

A damaged file is never silently lost: an unreadable one is moved aside (path + ".bad", ".bad1",
...) and defaults are used; one with bad values is copied aside, then saved back repaired so the
next boot is clean. Saves go through a temporary file and a rename, so the file is always whole.
Unknown keys are ignored (and dropped on the next save).
"""

from tablemate import json
from tablemate.keys import LAYOUTS as LAYOUT_KEYS
from tablemate.keys import NAMES as KEY_NAMES

LAYOUTS = ("six", "five", "three", "encoder")
KEYS = ("names", "brightness", "dim_s", "off_min", "sound", "layout")  # fixed order
DEFAULTS = {
    "names": ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"],
    "brightness": 3,
    "dim_s": 30,
    "off_min": 5,
    "sound": True,
    "layout": "six",
}
UNREADABLE = "Settings unreadable: using defaults"
CONTRAST = (2, 24, 64, 144, 255)  # brightness setting 1..5 to SSD1306 contrast


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
    elif key == "sound":
        ok = value is True or value is False
    elif key == "layout":
        ok = value in LAYOUTS
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
    except (ValueError, RuntimeError):  # also UnicodeError on both VMs; RuntimeError:
        # CPython's RecursionError on nesting deeper than its json reads (the simulator)
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
    from tablemate.store.files import write_atomic
    write_atomic(path, json.dumps(out))


def wired_layouts(cfg):
    """The input layouts (``settings.LAYOUTS`` order) whose pins are all in ``cfg``."""
    found = []
    buttons = cfg.get("buttons") or {}
    for name in LAYOUTS:
        if name == "encoder":
            enc = cfg.get("encoder")
            ok = isinstance(enc, dict) and "a" in enc and "b" in enc and "sw" in enc
        else:
            ok = True
            for k in LAYOUT_KEYS[name]:
                ok = ok and KEY_NAMES[k] in buttons
        if ok:
            found.append(name)
    return tuple(found)
