"""The two configurations read at every boot, each checked before anything uses it.

``board.py`` (the wiring) is checked by ``check_board`` before any driver sees it: a wrong pin
otherwise surfaces as a ValueError from deep inside ``machine.I2C`` or, worse, as a button that
silently never works. It returns every problem as a sentence that names the setting, the pin and
what to use instead, so the boot code can print them and blink its error code. Pure: it knows
the Raspberry Pi Pico's pinout, not the hardware, so it runs in tests on both VMs. (It lives
here rather than in a module of its own because a Pico pays 10-15 ms for every module imported
at boot.)

User settings live in a small JSON file: each value validated, a bad one replaced by its default.

A damaged file is never silently lost: an unreadable one is moved aside (path + ".bad", ".bad1",
...) and defaults are used; one with bad values is copied aside, then saved back repaired so the
next boot is clean. Saves go through a temporary file and a rename, so the file is always whole.
Unknown keys are ignored (and dropped on the next save).
"""

import json

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
        return "Unknown setting: " + str(key)[:24]
    return None if ok else "Bad setting: " + key


def load(path):
    """Read settings: (settings, problem). Missing file: defaults, no problem."""
    try:
        f = open(path, "rb")
    except OSError:
        return defaults(), None
    try:
        raw = json.loads(f.read())
    except ValueError:  # also UnicodeError on both VMs
        raw = None
    finally:
        f.close()
    if not isinstance(raw, dict):
        from tablemate.store.files import aside  # only for a damaged file: boot imports stay few
        aside(path, True)
        return defaults(), UNREADABLE
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
        from tablemate.store.files import aside
        aside(path)
        save(path, s)
    return s, problem


def save(path, settings):
    """Validate every known key (ValueError with the message if bad), then write atomically."""
    out = {}
    for key in KEYS:
        value = settings.get(key, DEFAULTS[key])
        msg = validate(key, value)
        if msg:
            raise ValueError(msg)
        out[key] = value
    from tablemate.store.files import replace
    tmp = path + ".tmp"
    f = open(tmp, "wb")
    try:
        f.write(json.dumps(out).encode())
        f.flush()
    finally:
        f.close()
    replace(tmp, path)


# -- the board configuration ------------------------------------------------------------------
DISPLAYS = ("ssd1306", "sh1106")
_INSIDE = {23: "the power supply's mode pin", 24: "VBUS sense", 25: "the on-board LED",
           29: "VSYS sense"}  # GPIOs the Pico uses on the board, not on its header
_ADC = (26, 27, 28, 29)


def _board_pin(name, gp, allowed_inside=()):
    """A problem with ``gp`` as a GPIO for ``name``, or None."""
    if type(gp) is not int:  # type(): True is an int on CPython
        return "%s: %r is not a GP number" % (name, gp)
    if not 0 <= gp <= 29:
        return "%s: GP%d does not exist (Pico has GP0-GP28)" % (name, gp)
    if gp in _INSIDE and gp not in allowed_inside:
        return "%s GP%d is not wired on a Pico (it is %s)" % (name, gp, _INSIDE[gp])
    return None


def _i2c_pins(bus, role):
    """Header GPIOs that carry ``role`` (0 SDA, 1 SCL) of I2C ``bus`` on the RP2040."""
    return [gp for gp in range(29) if gp not in _INSIDE and gp & 1 == role and (gp >> 1) & 1 == bus]


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


def check_board(cfg):
    """Every problem with ``cfg`` as a list of messages; [] when the board can boot."""
    problems = []
    used = {}  # gp -> name of the first user

    def pin(name, gp, allowed_inside=()):
        msg = _board_pin(name, gp, allowed_inside)
        if msg:
            problems.append(msg)
        elif gp in used:
            msg = "GP%d used twice: %s and %s" % (gp, used[gp], name)
            problems.append(msg)
        else:
            used[gp] = name
        return msg is None  # a usable pin of its own

    bus = cfg.get("i2c")
    if bus not in (0, 1):
        problems.append("i2c: %r is not a bus (the Pico has I2C 0 and 1)" % (bus,))
    for name, role in (("SDA", 0), ("SCL", 1)):
        gp = cfg.get(name.lower())
        if pin(name, gp) and bus in (0, 1) and (gp & 1 != role or (gp >> 1) & 1 != bus):
            problems.append("%s GP%d is not an I2C%d %s pin (use GP%s)" % (
                name, gp, bus, name, "/".join(str(g) for g in _i2c_pins(bus, role))))
    if cfg.get("display") not in DISPLAYS:
        problems.append("display: %r is unknown (use %s)" % (cfg.get("display"), " or ".join(DISPLAYS)))
    addr = cfg.get("addr")
    if type(addr) is not int or not 0x08 <= addr <= 0x77:
        problems.append("addr: %r is not an I2C address (the OLED is 0x3C or 0x3D)" % (addr,))
    freq = cfg.get("freq", 400000)
    if type(freq) is not int or not 10000 <= freq <= 1000000:
        problems.append("freq: %r Hz is not an I2C speed (use 100000 to 1000000)" % (freq,))

    buttons = cfg.get("buttons") or {}
    if not isinstance(buttons, dict):
        problems.append("buttons: must map key names to GP numbers")
        buttons = {}
    for k in KEY_NAMES[1:]:
        if k in buttons:
            pin(k, buttons[k])
    for k in buttons:
        if k not in KEY_NAMES[1:]:
            problems.append("buttons: %r is not a key (use %s)" % (k, " ".join(KEY_NAMES[1:])))
    enc = cfg.get("encoder")
    if enc is not None:
        if not isinstance(enc, dict):
            problems.append("encoder: must be {\"a\": GP, \"b\": GP, \"sw\": GP} or None")
        else:
            for part in ("a", "b", "sw"):
                if part in enc:
                    pin("encoder " + part.upper(), enc[part])
                else:
                    problems.append("encoder: %r is missing (it needs a, b and sw)" % part)
    if not wired_layouts(cfg):
        problems.append("No complete input: buttons need UP, DOWN and OK, or add an encoder")

    if cfg.get("buzzer") is not None:
        pin("buzzer", cfg["buzzer"])
    battery = cfg.get("battery")
    if battery is not None and pin("battery", battery, (29,)) and battery not in _ADC:
        problems.append("battery GP%d has no ADC (use GP26-28, or 29 for VSYS)" % battery)
    led = cfg.get("led", "LED")
    if led != "LED":
        pin("LED", led, (25,))
    return problems
