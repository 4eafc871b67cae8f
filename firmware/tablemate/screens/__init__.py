"""The home menu, and beside this file one module per mode or page.

The home menu lives in the package itself: it is the root of every screen stack, so it is
needed at every boot, and on a Pico a module of its own would cost another 10-15 ms of file
lookups there. From it the player starts a mode, continues the saved game, or opens settings,
history, self-test and about. What the boot finds saved (a game to resume, a chess clock) and
the way back into a saved game are ``screens/saved.py``: a Pico keeps a module's code in its
heap, and the home menu stays loaded under every game.
"""

import tablemate
from tablemate import modes, ticks_add, ticks_diff
from tablemate.ui import ROW_WIDTH, ActionMenu, text

# The home menu read at boot: its first row's mode loads then (``lifecycle.rest``). From
# ``.mpy`` files a second after the first frame, when a player who reads has not pressed yet:
# the modules would be in the heap of a boot that goes straight to another page (the
# ``heap-boot`` budget). Frozen (the UF2), right after the first frame: a press 0.3 s into the
# boot then finds them loaded, and opens the setup as fast as after a read.
_BOOT_REST_MS = 1000


class Home(ActionMenu):
    """The root of the screen stack; BACK here does nothing."""

    shows_battery = True

    def __init__(self, app, look=True):
        """``look``: ask the flash for a saved game (at boot that waits for the first frame)."""
        ActionMenu.__init__(self, app, "Tablemate", [], on_back=self._nothing)
        self._look = look
        self._stale = True
        self._first = 0  # the menu row of the first mode
        self.ready = None  # the rules module a rest of the cursor imported (its name)
        # when the boot cursor has rested
        self._resting = ticks_add(app.now, 0 if tablemate.FROZEN else _BOOT_REST_MS)

    def on_open(self):
        """The entries are looked up when the menu is next drawn: uncovered on the way to
        another screen (``app.home()`` before a game is shown), it never asks the flash. A
        rules module the cursor's rest imported is now the game's, or was used: it stays."""
        self._stale = True
        self.ready = None
        self.dirty = True

    def draw(self, fb):
        if self._stale:
            self._refresh()
        ActionMenu.draw(self, fb)

    def key(self, key, kind):
        if self._stale:
            self._refresh()
        index = self.index
        ActionMenu.key(self, key, kind)
        self._resting = None
        if self.index != index:
            self.app.soon(self._rest)

    def due(self, now):
        if self._resting is None:
            return None
        ms = ticks_diff(self._resting, now)
        return ms if ms > 0 else 0

    def tick(self, now):
        # never before the menu is on the panel: the first frame does not wait for the imports
        if self._resting is not None and not self.dirty and ticks_diff(now, self._resting) >= 0:
            self._resting = None
            self._rest()

    def _rest(self):
        """The cursor rests on a row: the setup of a mode loads while the player reads it."""
        i = self.index - self._first
        mode = 0 <= i < len(modes.MODES)
        if self.app.top() is self and (mode or self.ready is not None):
            from tablemate import lifecycle  # .mpy: 3.9 KB kept out of a game's heap
            lifecycle.rest(self, modes.MODES[i]["name"] if mode else None)
            if mode and tablemate.FROZEN:  # frozen, the setup menu too: OK then imports
                from tablemate.flow import setup  # noqa: F401  nothing (.mpy: 8-10 KB at boot)

    def _refresh(self):
        self._stale = False
        entries = []
        game = self.app.game  # in RAM: a game the flash could not file, or save, is there too
        if game is not None:
            saved = game.name
        else:
            saved = modes.saved_name(self.app) if self._look else None
        self._look = True
        if saved:
            entries.append((_fitting(("Continue " + modes.label(saved),
                                      "Continue " + modes.short(saved))), self._continue))
        self._first = len(entries)
        for mode in modes.MODES:
            entries.append((mode["label"], self._mode(mode["name"])))
        if self.app.net is not None and self.app.settings["phones"]:
            entries.append(("Phones", self._phones))
        entries += [("Chess clock", self._clock), ("Settings", self._settings),
                    ("History", self._history), ("Self-test", self._selftest),
                    ("About", self._about)]
        self.set_entries(entries)

    def _nothing(self):
        pass

    def _continue(self):
        from tablemate.screens import saved  # the way back into a saved game: loaded for it
        saved.resume(self.app)

    def _mode(self, name):
        def open_setup():
            from tablemate.flow import setup  # .mpy: 8-10 KB, let go when a game starts
            setup.show(self.app, name)
        return open_setup

    def _clock(self):
        from tablemate.screens import chessclock  # .mpy: loaded when opened
        chessclock.setup(self.app)

    def _settings(self):
        from tablemate.screens import settings  # .mpy: loaded when opened
        settings.show(self.app)

    def _phones(self):
        from tablemate.screens import phones  # .mpy: only with phones on
        phones.show(self.app)

    def _history(self):
        from tablemate.screens import history  # .mpy: loaded when opened
        history.show(self.app)

    def _selftest(self):
        from tablemate.screens import selftest  # .mpy: loaded when opened
        selftest.show(self.app)

    def _about(self):
        free = tablemate.free_ram()
        print("Tablemate %s: %s" % (self.app.version, free))  # for a serial console
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Notice
        self.app.push(Notice(self.app, "Tablemate %s\n%s" % (self.app.version, free)))


def _fitting(labels):
    """The first of ``labels`` that fits a menu row (the last one, fitted, if none does)."""
    for s in labels:
        if text.ink_width(s) <= ROW_WIDTH:
            return s
    return text.fit(s, ROW_WIDTH)
