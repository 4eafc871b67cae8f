"""Tablemate firmware package: game rules, UI and drivers shared by the Pico and the host.

``RuleError`` lives here, in the package every module imports anyway: the rules raise it and the
game screens catch it, and ``rules/`` is then a plain folder of game modules (a namespace
package) that costs the Pico no extra module load when a game starts.
"""

import gc
import sys

# time, os, json, random and crc32 for every module, imported once, here. On the Pico these are
# "extensible" built-ins: an import statement first looks for a file of that name on the flash,
# 3.6 ms a statement even when the module is loaded already (measured on the emulated Pico; gc,
# sys, micropython and framebuf take 0.1 ms). With sys.path empty MicroPython imports the
# built-in without looking (the docs' "Extending built-in libraries"), and a name taken from
# this package, which every module imports anyway, costs 0.07 ms. (CPython, whose standard
# library is on its path, imports them as usual.)
_path = sys.path
if sys.implementation.name == "micropython":
    sys.path = ()
try:
    import json  # noqa: F401
    import os  # noqa: F401
    import random  # noqa: F401
    from binascii import crc32  # noqa: F401
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms  # noqa: F401
finally:
    sys.path = _path
    del _path

VERSION = "0.1.0"
# Whether the package runs frozen into the firmware (the UF2 of ``make uf2``): its modules' code
# then stays in the flash and an import costs the heap little, so what the ``.mpy`` install
# loads late to keep its heap small may load early. MicroPython sets a package's ``__path__``
# before its ``__init__`` runs: ".frozen/tablemate" when frozen.
FROZEN = str(__path__).startswith(".frozen")
_feed = None  # the watchdog's feed once the boot started it (``keep_fed``)


def keep_fed(feed):
    """Have long work call ``feed`` between its steps (``alive``): the boot gives it its
    watchdog's, so that no repair or copy of a file depends on the flash being fast (a
    journal's repair takes seconds at the flash's slowest, and the watchdog resets in 5)."""
    global _feed
    _feed = feed


def alive():
    """Called by long work between its steps (a copy or a repair of a file, chunk by chunk; a
    replay, action by action): the watchdog is fed, if the boot started one. The loop feeds it
    once a pass; this keeps one long pass from being taken for a hang."""
    if _feed is not None:
        _feed()


def unload(names):
    """Let modules that are done go: out of ``sys.modules`` and off their package, so the
    garbage collector can take them (a Pico holds a module's code in its heap: a setup menu's
    modules are 8-10 KB that a game needs more; the next use imports them again, 15-30 ms each
    on a Pico)."""
    for full in names:
        if sys.modules.pop(full, None) is not None:
            parent, _, child = full.rpartition(".")
            package = sys.modules.get(parent)
            if package is not None and hasattr(package, child):
                delattr(package, child)


class RuleError(Exception):
    """An action or option the rules refuse; str(err) fits a 21-character screen line.

    Every game refuses an impossible action with it and leaves its state untouched when it does.
    """


# The kinds of a game's options (``tablemate.options``), here so that a rules module's table of
# them needs no import: the setup menu imports the rules module while its player reads.
NUMBER = 0  # params (lo, hi, step, word shown for 0 or None): any int lo..hi
CHOICE = 1  # params (values, unit or words): one of the values
FLAG = 2  # params None: True or False

# The battery chemistries the "battery" setting names, in the order of ``battery.CURVES``: here
# so that neither the settings' checker nor the gauge loads the other (the gauge stays in RAM
# all session; the settings' code leaves it after the boot).
BATTERIES = ("alkaline", "NiMH", "LiPo")


def action_kind(state, action, arity):
    """The kind of ``action`` (its first item) once its shape is checked against ``arity``
    ({kind: length}); RuleError when the game is over or the action is malformed. Every game's
    ``apply`` starts here, so they refuse the same things in the same words."""
    if state["over"]:
        raise RuleError("Game is over")
    if not isinstance(action, (list, tuple)) or not action or not isinstance(action[0], str):
        raise RuleError("Bad action")
    kind = action[0]
    if kind not in arity:
        raise RuleError("Unknown action")
    if len(action) != arity[kind]:
        raise RuleError("Bad action")
    return kind


def free_ram():
    """The free heap after a collection, the line that About (the home menu) and the self-test
    show: both pages stand above this module. A port that cannot tell returns -1 from
    ``gc.mem_free()`` (MicroPython's documentation), as the host's stand-in for CPython does:
    that is said in words, not shown as a figure."""
    gc.collect()
    free = gc.mem_free()
    if free < 0:
        return "Free RAM not known"
    return "Free RAM %d B" % free
