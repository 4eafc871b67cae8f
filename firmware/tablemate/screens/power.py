"""What the battery gauge (``tablemate.battery``) makes the players read: a low battery, and the
cut-off. Loaded the first time it warns; a board without a battery sense never loads it.

The cut-off, in this order, within one loop pass:
1. The empty page goes on top: the game screen below gets ``on_hide``, which commits what it
   holds (a scorepad's pending points become an action).
2. The game in RAM is saved the way every save goes (``flow.play.save``: what the journal has
   queued, a replaced game filed first), before the page says so.
3. The page shows "Battery empty: game saved" (or that the flash refused, or just "Battery
   empty" with no game in RAM: a game on the flash is safe already).
4. After that frame: the panel at its lowest contrast, then ``Probe.dormant()``: the Pico
   sleeps until reset. The panel is not switched off: an SSD1306 asleep shows nothing, and the
   players must be able to read why the gadget stopped. Lit at contrast 0 (the dimmest the
   controller has) with two short lines, it draws little beside the Pico's dormant current;
   ``docs/design-notes.md`` weighs it.
"""

from tablemate.ui import Screen, text

EMPTY = "Battery empty"
SAVED = "Battery empty:\ngame saved"
NOT_SAVED = "Battery empty:\ngame NOT saved"


def low(app):
    """A warning level crossed (``battery.Gauge.tell``): a Notice with the figure."""
    from tablemate.ui.dialogs import Notice  # .mpy: 2.8 KB a game holds only once a dialog shows
    app.push(Notice(app, "Battery low: %d%%" % app.battery.percent))


def cut_off(app):
    """Save the game, say so, and sleep until reset (steps 1-4 above)."""
    page = Empty(app)
    app.push(page)
    game = app.game
    if game is not None:
        from tablemate.flow import play  # .mpy: 6.7 KB, loaded only by a game
        try:
            play.save(app, game)
        except OSError:
            page.words = NOT_SAVED
    print("Tablemate: %s (VSYS %d mV): dormant until reset"
          % (page.words.replace("\n", " "), app.battery.vsys))  # for a serial console
    app.after_frame(lambda: _sleep(app))


def _sleep(app):
    app.display.contrast(0)
    app.probe.dormant()


class Empty(Screen):
    """The last page before dormant: its words, centred; no key does anything."""

    keep_awake = True  # not dimmed or switched off by the idle timer in the pass before

    def __init__(self, app):
        Screen.__init__(self, app)
        self.words = SAVED if app.game is not None else EMPTY

    def draw(self, fb):
        lines = self.words.split("\n")
        page = 4 - len(lines)
        for s in lines:
            text.put_centered(fb, s, page)
            page += 2
