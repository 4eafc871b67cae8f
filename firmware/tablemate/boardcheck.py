"""Check a board configuration (``board.BOARD`` or an edited copy) before any driver sees it.

A wrong pin otherwise surfaces as a ValueError from deep inside ``machine.I2C`` or, worse, as a
button that silently never works. ``check_board`` returns every problem as a sentence that names
the setting, the pin and what to use instead, so the boot code can print them and blink its
error code. Pure: it knows the Raspberry Pi Pico's pinout, not the hardware, so it runs in tests
on both VMs. The boot code imports it, runs it once and drops it from ``sys.modules``: its 2 KB
of bytecode are not kept in RAM for the rest of the day.
"""

from tablemate.keys import LAYOUTS as LAYOUT_KEYS
from tablemate.keys import NAMES as KEY_NAMES
from tablemate.store.settings import LAYOUTS

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
    flip = cfg.get("flip", False)
    if flip is not True and flip is not False:
        problems.append("flip: %r is not true or false" % (flip,))
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


def wired_layouts(cfg):
    """The input layouts (``store.settings.LAYOUTS`` order) whose pins are all in ``cfg``."""
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
