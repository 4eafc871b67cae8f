"""The rulebook's count to three, for a Contrast player who cannot decide.

Its own module, imported only when a player hesitates: the pick screen is in RAM for the whole
game, this only for the count.
"""

from tablemate import ticks_diff

from micropython import const

from tablemate import keys as K
from tablemate.rules import contrast as rules
from tablemate.ui import Screen, draw_title, text

BEEP_COUNT = ((1568, 70),)
BEEP_ZERO = ((784, 450),)
_COUNT_MS = const(1000)
_BOTTOM = const(7)


class CountToThree(Screen):
    """The rulebook's count to three for a player who cannot decide: 3, 2, 1 with beeps.

    Any key stops it (the player has laid out a card); at zero it offers to skip the player.
    """

    keep_awake = True

    def __init__(self, app, pad):
        Screen.__init__(self, app)
        self.pad = pad
        self.t0 = app.now
        self.shown = 3
        self.name = rules.names(pad.game.state)[rules.turn(pad.game.state)]
        app.beep(BEEP_COUNT)

    def key(self, key, kind):
        if kind == K.PRESS:
            self.app.pop()

    def tick(self, now):
        n = 3 - ticks_diff(now, self.t0) // _COUNT_MS
        if n == self.shown:
            return
        self.shown = n
        self.dirty = True
        if n > 0:
            self.app.beep(BEEP_COUNT)
            return
        self.app.beep(BEEP_ZERO)
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Confirm
        self.app.replace(Confirm(self.app, "Time is up!\n%s skips?" % self.name, self.pad.skip,
                                 yes="Skip", no="Pick"))

    def due(self, now):
        return _COUNT_MS - ticks_diff(now, self.t0) % _COUNT_MS

    def draw(self, fb):
        draw_title(fb, "Count to three")
        text.draw_centered(fb, self.name + ", choose!", 12)
        text.draw_centered(fb, "%d" % max(self.shown, 0), 24, text.large()[1])
        text.put_centered(fb, "Any key: chosen", _BOTTOM)
