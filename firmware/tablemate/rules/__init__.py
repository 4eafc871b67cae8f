"""Pure game rules: one module per game, imported lazily by name (see tablemate.game.rules_for).

Every game refuses an impossible action with RuleError, whose message fits one 21-character
screen line, and leaves its state untouched when it does.
"""


class RuleError(Exception):
    """An action or option the rules refuse; str(err) fits a 21-character screen line."""
