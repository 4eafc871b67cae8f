"""The base of every game mode's screen: actions go through the journal, refusals to the screen.

A player's key press becomes a rules action; the rules either take it (it is journaled, so it
survives a power cut) or refuse it with a short reason, which the message line shows while the
state stays as it was. Undo is the journal's. What a mode does after an accepted action (announce
a winner, show a round's result) goes in ``done``; a mode that redraws differently after an undo
extends ``undo``.
"""

from tablemate.rules import RuleError
from tablemate.ui.msgline import MessageLine
from tablemate.ui.screen import Screen


class GameScreen(Screen):
    """Holds the ``Game`` and the message line; subclasses draw the game and map keys."""

    def __init__(self, app, game):
        Screen.__init__(self, app)
        self.game = game
        self.msg = MessageLine()

    def refuse(self, reason):
        """Show why an action was not taken."""
        self.msg.show(str(reason), self.app.now)
        self.dirty = True

    def do(self, action):
        """Apply and journal ``action``; True when taken, False (reason shown) when refused."""
        try:
            self.game.do(action)
            self.game.save()
        except RuleError as err:
            self.refuse(err)
            return False
        self.dirty = True
        self.done()
        return True

    def undo(self):
        """Take back the last action; True when there was one."""
        try:
            self.game.undo()
            self.game.save()
        except RuleError as err:
            self.refuse(err)
            return False
        self.dirty = True
        self.msg.clear()
        return True

    def done(self):
        """Called after every accepted action (not after an undo)."""

    def tick(self, now):
        if self.msg.tick(now):
            self.dirty = True
