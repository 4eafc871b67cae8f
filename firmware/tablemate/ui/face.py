"""Face the player: which way the picture is turned, for the "turn" setting.

Loaded only while the setting is on (or the picture is still turned): a gadget that never turns
spends no heap on it, and a game's screen needs no method for it.

Who reads: the screen right over the home menu says (a game, the chess clock, a game's
standings); what is over it (the game menu, a dialog) keeps its facing; the home menu and its
pages (settings, history, a setup) are upright. A screen may say it with ``seat()``: -1, a game
that faces no one seat; 0 or 1, a seat. A game's screen (``flow/play.py``: it holds the
``game``) needs none: in a game of two it faces the player to move (the rules' ``turn``; -1
while no one is: the race for the first move, the end); a game of more faces no one (-1).

Seat 0 reads the panel as mounted, seat 1 across the table. "to player" (2): a two-player game
faces its player to move; "flip" (1): every game is turned, whoever moves (for a table where
the gadget sits the other way round); "off" (0): upright. UP and DOWN turn with the picture
(``App``), LEFT and RIGHT too unless they are minus and plus (``Screen.plus_minus``);
docs/design-notes.md says why so.
"""

from micropython import const

FLIP = const(1)  # the "turn" setting (``store/settings.py``)
PLAYER = const(2)


def seat(screen):
    """Who reads ``screen`` (the one over the home menu): None (no game), -1, 0 or 1."""
    own = getattr(screen, "seat", None)
    if own is not None:
        return own()
    game = getattr(screen, "game", None)
    if game is None:
        return None
    rules, state = game.rules, game.state
    return rules.turn(state) if len(rules.names(state)) == 2 else -1


def turned(setting, seat):
    """True when the picture is turned, for the "turn" ``setting`` and the ``seat`` reading."""
    return seat is not None and (setting == FLIP or setting == PLAYER and seat == 1)


def update(app):
    """Turn the panel to whoever reads the app's screens now (a change: one whole frame)."""
    stack = app.stack
    app.display.turn(turned(app.settings["turn"], seat(stack[1]) if len(stack) > 1 else None))
