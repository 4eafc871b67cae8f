"""Tablemate firmware package: game rules, UI and drivers shared by the Pico and the host.

``RuleError`` lives here, in the package every module imports anyway: the rules raise it and the
game screens catch it, and ``rules/`` is then a plain folder of game modules (a namespace
package) that costs the Pico no extra module load when a game starts.
"""

VERSION = "0.1.0"


class RuleError(Exception):
    """An action or option the rules refuse; str(err) fits a 21-character screen line.

    Every game refuses an impossible action with it and leaves its state untouched when it does.
    """
