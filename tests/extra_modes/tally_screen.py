"""Tally's game screen: the score table and OK to mark for the player whose turn it is."""

from extra_modes import tally_rules as rules
from tablemate import keys as K
from tablemate.ui import table, text
from tablemate.flow.play import GameScreen


class Tally(GameScreen):
    labels = ("Marks to ",)

    def play_key(self, key, kind):
        if kind == K.PRESS and key == K.OK:
            self.do(["mark", rules.turn(self.game.state)])

    def done(self):
        if self.over():
            self.announce(rules.names(self.game.state)[rules.result(self.game.state)[0]]
                          + " wins")

    def draw(self, fb):
        state = self.game.state
        text.put(fb, "Marks to %d" % rules.target(state), 0, 0)
        over = self.over()
        table.draw(fb, rules.names(state), rules.scores(state),
                   rules.result(state) if over else (rules.turn(state),), -1,
                   later=self.app.soon)  # the cells kept in a quiet pass
        self.msg.draw(fb)


SCREEN = Tally
