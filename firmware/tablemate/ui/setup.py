"""The new-game menu every mode shares, built from the mode's registry entry (``session.MODES``).

Rows: the player count, one row per option, Start. LEFT/RIGHT change the row's value in place;
OK on a number opens the number entry, on a choice or a flag moves it on, on Start begins the
game (asking first when that would replace a saved one). Players' names come from the saved
names in the settings. A mode needs no setup code of its own, so opening a mode's setup imports
this one module, not the mode's screens (a Pico pays 10-15 ms per module).
"""

from tablemate import session
from tablemate.session import CHOICE, FLAG, NUMBER
from tablemate.ui import Menu, text


def show(app, name):
    """Open the new-game menu of mode ``name``: while the player sets up, its modules load and
    the players' names are rendered, so the game's first frame waits for neither."""
    app.push(Setup(app, session.mode(name)))
    session.prefetch(app, name)
    for player in app.settings["names"][:session.mode(name)["players"][1]]:
        app.soon(lambda s=player: text.warm(s))


def value_text(option, value):
    """How an option's value reads in its row."""
    kind, params = option[2], option[4]
    if kind == FLAG:
        return "on" if value else "off"
    if kind == CHOICE:
        return "%d%s" % (value, params[1]) if value else "off"
    return "%d" % value if value or params[3] is None else params[3]


class Setup(Menu):
    """Players, the mode's options, then Start."""

    def __init__(self, app, mode):
        Menu.__init__(self, app, "New " + mode["label"], [], self._pick, on_adjust=self._adjust)
        self.mode = mode
        self.players = mode["players"][2]
        self.values = [opt[3] for opt in mode["options"]]
        self._relabel()

    def _relabel(self):
        note = self.mode.get("note", {}).get(self.players)
        items = ["Players: %d" % self.players + (" (%s)" % note if note else "")]
        options = self.mode["options"]
        for i in range(len(options)):
            items.append(options[i][1] + ": " + value_text(options[i], self.values[i]))
        items.append("Start")
        self.items = items
        self.dirty = True

    def _adjust(self, index, step):
        if index == 0:
            lo, hi = self.mode["players"][0], self.mode["players"][1]
            self.players = min(hi, max(lo, self.players + step))
        elif index <= len(self.values):
            self._step(index - 1, step)
        self._relabel()

    def _step(self, i, step):
        option = self.mode["options"][i]
        kind, params = option[2], option[4]
        if kind == FLAG:
            self.values[i] = not self.values[i]
        elif kind == CHOICE:
            values = params[0]
            self.values[i] = values[(values.index(self.values[i]) + step) % len(values)]
        else:
            self.values[i] = min(params[1], max(params[0], self.values[i] + step * params[2]))

    def _pick(self, index):
        app = self.app
        if index == 0:
            from tablemate.ui.dialogs import NumberEntry
            lo, hi = self.mode["players"][0], self.mode["players"][1]
            app.push(NumberEntry(app, "Players", self.players, lo, hi, self._set_players))
        elif index <= len(self.values):
            option = self.mode["options"][index - 1]
            if option[2] == NUMBER:
                from tablemate.ui.dialogs import NumberEntry
                p = option[4]
                app.push(NumberEntry(app, option[1], self.values[index - 1], p[0], p[1],
                                     lambda v: self._set(index - 1, v), step=p[2], zero=p[3]))
            else:
                self._adjust(index, 1)
        else:
            self.start()

    def _set_players(self, value):
        self.players = value
        self._relabel()

    def _set(self, i, value):
        self.values[i] = value
        self._relabel()

    def options(self):
        """The options the rules' ``setup`` gets for what the menu shows."""
        n = self.players
        opts = {"names": self.app.settings["names"][:n]}
        options = self.mode["options"]
        for i in range(len(options)):
            opts[options[i][0]] = self.values[i]
        fixed = self.mode.get("fixed")
        if fixed:
            opts.update(fixed(n))
        return opts

    def start(self):
        """Begin the game; ask first when a saved game would be replaced."""
        app = self.app
        name = self.mode["name"]
        opts = self.options()
        if session.saved_name(app):
            from tablemate.ui.dialogs import Confirm
            app.push(Confirm(app, "Replace the saved game?", lambda: session.start(app, name, opts)))
        else:
            session.start(app, name, opts)
