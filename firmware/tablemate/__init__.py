"""Tablemate firmware package: game rules, UI and drivers shared by the Pico and the host.

``RuleError`` lives here, in the package every module imports anyway: the rules raise it and the
game screens catch it, and ``rules/`` is then a plain folder of game modules (a namespace
package) that costs the Pico no extra module load when a game starts.
"""

# The standard modules the firmware needs, imported once, here. On the Pico, time, os and json
# are "extensible" built-ins: each import statement first looks for a file of that name on the
# flash, 3.6 ms a statement even when the module is already loaded (measured on the emulated
# Pico: gc, sys, micropython and framebuf take 0.1 ms). Modules take them from this package,
# which every module imports anyway: 0.07 ms. (random, needed only by a game, is imported by
# the modules that use it, while the player reads a setup menu.)
import json  # noqa: F401
import os  # noqa: F401
from time import sleep_ms, ticks_add, ticks_diff, ticks_ms  # noqa: F401

VERSION = "0.1.0"


class RuleError(Exception):
    """An action or option the rules refuse; str(err) fits a 21-character screen line.

    Every game refuses an impossible action with it and leaves its state untouched when it does.
    """
