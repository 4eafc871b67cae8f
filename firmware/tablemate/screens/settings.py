"""Settings: brightness, dimming, screen-off, sound, button layout, turn, player names, the
battery's chemistry on a board that senses it (its curve, ``tablemate.battery``), and on a board
with Wi-Fi the Phones option (off by default: the radio costs power; ``screens/phones.py``).

LEFT/RIGHT (or OK) step a value in place; a player's name opens the name entry
(``tablemate.ui.names``). Nothing is written while the player browses: the file is saved once,
atomically, when the menu is left, and the display and buttons take the new values at once.
"""

from tablemate import BATTERIES, ticks_add, ticks_diff

from tablemate import keys as K
from tablemate.ui import Menu, Screen, draw_title, text

DIM_STEPS = (0, 10, 30, 60, 120, 300)
TURNS = ("off", "flip", "to player")  # TURNS[turn]: the "turn" setting's words
# What each turns, in the title while the cursor is on its row: "to player" turns a game of two
# (and the chess clock) to the player to move, "flip" every game ("Face the player",
# docs/design-notes.md); the row alone did not say which games turn.
TURNED = ("Turns no game", "Turns every game", "Turns games of two")
_TURN_ROW = 5
OFF_STEPS = (0, 1, 2, 5, 10, 30, 60)
_PICK_TOP = 11  # the player picker's first row, under the title bar
_KEEP_MS = 10000


def show(app):
    app.push(SettingsMenu(app))


def _step(choices, value, step):
    """The next value in ``choices`` from ``value`` (which may be off the list)."""
    i = 0
    while i < len(choices) - 1 and choices[i] < value:
        i += 1
    return choices[min(len(choices) - 1, max(0, i + step))]


class SettingsMenu(Menu):
    def __init__(self, app):
        self.s = dict(app.settings)
        self.s["names"] = list(app.settings["names"])
        Menu.__init__(self, app, "Settings", [], self._pick, on_adjust=self._adjust,
                      on_back=self._leave)
        self._relabel()

    def _relabel(self):
        s = self.s
        self.items = [
            "Brightness: %d" % s["brightness"],
            "Dim after: " + ("%ds" % s["dim_s"] if s["dim_s"] else "never"),
            "Screen off: " + ("%dmin" % s["off_min"] if s["off_min"] else "never"),
            "Sound: " + ("on" if s["sound"] else "off"),
            "Buttons: " + s["layout"],
            "Turn: " + TURNS[s["turn"]],
            "Player names",
        ]
        if self.app.battery is not None:
            self.items.append("Battery: " + s["battery"])
        self._phones = None  # the Phones row, on a board with Wi-Fi (screens/phones.py)
        if self.app.net is not None:
            self._phones = len(self.items)
            self.items.append("Phones: " + ("on" if s["phones"] else "off"))
        self.dirty = True

    def _adjust(self, index, step):
        s = self.s
        if index == self._phones:
            s["phones"] = not s["phones"]
        elif index == 0:
            s["brightness"] = min(5, max(1, s["brightness"] + step))
            self.app.brightness(s["brightness"])
        elif index == 1:
            s["dim_s"] = _step(DIM_STEPS, s["dim_s"], step)
        elif index == 2:
            s["off_min"] = _step(OFF_STEPS, s["off_min"], step)
        elif index == 3:
            s["sound"] = not s["sound"]
        elif index == 4:
            wired = self.app.layouts  # only layouts this board's pins can do
            i = wired.index(s["layout"]) if s["layout"] in wired else -step
            s["layout"] = wired[(i + step) % len(wired)]
        elif index == _TURN_ROW:
            s["turn"] = (s["turn"] + step) % 3
        elif index == 7:
            s["battery"] = BATTERIES[(BATTERIES.index(s["battery"]) + step) % len(BATTERIES)]
        self._relabel()

    def draw(self, fb):
        self.title = TURNED[self.s["turn"]] if self.index == _TURN_ROW else "Settings"
        Menu.draw(self, fb)

    def _pick(self, index):
        if index == 0:
            self._adjust(0, 1 if self.s["brightness"] < 5 else -4)
        elif index == 6:
            self.app.push(PlayerPicker(self.app, "Edit which name?", self.s["names"], self._edit))
        else:
            self._adjust(index, 1)

    def _edit(self, i):
        from tablemate.ui import names  # .mpy: 6.2 KB, only while a name is typed

        def done(name):
            self.s["names"][i] = name
            self._relabel()
        names.edit(self.app, self.s["names"], i, done)

    def _leave(self):
        app = self.app
        app.pop()
        new_layout = self.s["layout"]
        old_layout = app.settings["layout"]
        self.s["layout"] = old_layout  # a new layout is saved only once it has been seen to work
        if self.s != app.settings:
            app.settings = self.s
            app.save_settings()
        if app.battery is not None:
            app.battery.chosen(app)
        if app.settings["phones"] and app.phones is None:  # just switched on: how to join
            from tablemate.screens import phones  # .mpy: only with phones on
            phones.show(app, joining=True)
        if new_layout != old_layout:
            app.settings["layout"] = new_layout
            app.apply_settings()
            app.push(KeepLayout(app, old_layout))
        else:
            app.apply_settings()


class KeepLayout(Screen):
    """Keep a new button layout only if OK is pressed with it within 10 s; else go back.

    A layout the build does not have wired (an encoder layout on a button build) would leave the
    player with no working key, so the old layout returns by itself unless the new one is proven.
    """

    def __init__(self, app, old_layout):
        Screen.__init__(self, app)
        self.old = old_layout
        self.deadline = ticks_add(app.now, _KEEP_MS)
        self.left = -1

    def key(self, key, kind):
        if kind != K.PRESS:
            return
        if key == K.OK:
            self.app.pop()
            self.app.save_settings()
        elif key == K.BACK:
            self._revert()

    def tick(self, now):
        left = ticks_diff(self.deadline, now)
        if left <= 0:
            self._revert()
        elif (left + 999) // 1000 != self.left:
            self.left = (left + 999) // 1000
            self.dirty = True

    def due(self, now):
        """The next second of the countdown (the revert at 0)."""
        left = ticks_diff(self.deadline, now)
        return (left - 1) % 1000 + 1 if left > 0 else 0

    def _revert(self):
        app = self.app
        app.pop()
        app.settings["layout"] = self.old
        app.apply_settings()

    def draw(self, fb):
        draw_title(fb, "Buttons: " + self.app.settings["layout"])
        text.draw(fb, "Press OK with the new", 0, 16)
        text.draw(fb, "buttons to keep them.", 0, 26)
        text.draw(fb, "Back to %s: %ds" % (self.old, max(self.left, 0)), 0, 44)


class PlayerPicker(Screen):
    """Pick one player from up to eight names laid out in two columns of four."""

    def __init__(self, app, title, names, on_pick, index=0):
        Screen.__init__(self, app)
        self.title = title
        self.names = names
        self.on_pick = on_pick
        self.index = index

    def key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        n = len(self.names)
        if key == K.UP or key == K.DOWN:
            self.index = (self.index + (1 if key == K.DOWN else -1)) % n
        elif key == K.LEFT or key == K.RIGHT:
            other = (self.index + 4) % 8
            if other < n:
                self.index = other
        elif kind == K.PRESS and key == K.OK:
            self.on_pick(self.index)
            return
        elif kind == K.PRESS and key == K.BACK:
            self.app.pop()
            return
        self.dirty = True

    def draw(self, fb):
        draw_title(fb, self.title)
        for i in range(len(self.names)):
            x = 0 if i < 4 else 64
            y = _PICK_TOP + 1 + (i % 4) * 13
            label = text.fit(self.names[i], 58)
            if i == self.index:
                fb.fill_rect(x, y - 2, 63, 12, 1)
                text.draw(fb, label, x + 3, y, color=0)
            else:
                text.draw(fb, label, x + 3, y)
