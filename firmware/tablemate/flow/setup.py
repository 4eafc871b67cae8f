"""The new-game menu every mode shares, built from the mode's registry entry (``modes.MODES``).

Rows: the player count, who plays, one row per option that applies (the rules' ``unused``
says which do not, for the values chosen above them), who starts, Start. LEFT/RIGHT change the
row's value in place; OK on a number opens the number entry, on "Names" a list of the saved
names to tick (or to rename one, the setup kept), on a choice or a flag moves it on, on Start begins the game (asking first when
that would replace a saved game, which is then filed as unfinished). The menu opens as the mode
was last set up (``store/setups.py``): a table plays the same game with the same people again
and again. A mode needs no setup code of its own, so opening a mode's setup imports this one
module, not the mode's screens (a Pico pays 10-15 ms per module).
"""

from tablemate import random

from tablemate import modes, unload
from tablemate import CHOICE, FLAG, NUMBER
from tablemate.options import (DEFAULT, HI, KEY, KIND, LABEL, LO, PARAMS, STEP, UNIT, VALUES, ZERO,
                               valid)
from tablemate import lifecycle
from tablemate.store import setups
from tablemate.ui import ROW_WIDTH, ActionMenu, Menu, text

RANDOM = -1  # "1st player: random": drawn when the game starts, then kept in its journal
_UNKNOWN = ()  # Setup.saved before it is looked up
# What a setup menu loads and its game does not need (``unload``, once the game is shown).
SETUP_MODULES = ("tablemate.flow.setup", "tablemate.store.setups", "tablemate.ui.numberentry",
                 "tablemate.options", "tablemate.lifecycle")


def show(app, name):
    """Open the new-game menu of mode ``name``: while the player sets up, its modules load and
    the players' names are rendered, so the game's first frame waits for neither. Its rows
    are the rules module's declaration (``tablemate.options``): the home menu imports that
    module while its cursor rests on the mode (``lifecycle.rules``)."""
    mode = modes.mode(name)
    records, problem = setups.load(app.path("setups.json"))
    menu = Setup(app, mode, lifecycle.rules(name), records)
    app.push(menu)
    if problem:
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Notice
        app.push(Notice(app, problem))
    app.soon(menu.look_for_saved)
    app.soon(lambda: _prefetch(app, name))  # lifecycle too loads while the player reads


def _prefetch(app, name):
    lifecycle.prefetch(app, name)


def value_text(option, value):
    """How an option's value reads in its row."""
    kind, params = option[KIND], option[PARAMS]
    if kind == FLAG:
        return "on" if value else "off"
    if kind == CHOICE:
        if type(params[UNIT]) is tuple:  # a word for each value
            return params[UNIT][params[VALUES].index(value)]
        return "%d%s" % (value, params[UNIT]) if value else "off"
    return "%d" % value if value or params[ZERO] is None else params[ZERO]


class Setup(Menu):
    """Players, names, the mode's options, who starts, then Start."""

    def __init__(self, app, mode, rules, records):
        Menu.__init__(self, app, "New " + mode["label"], [], self._pick, on_adjust=self._adjust)
        self.mode = mode
        self.rules = rules
        self.option_rows = rules.OPTIONS  # (key, label, kind, default, params)
        self.race = not getattr(rules, "FIRST", True)  # the game's first screen says who starts
        self.records = records
        roster = len(app.settings["names"])
        lo, hi, n = rules.PLAYERS
        self.seats = list(range(min(n, roster)))  # positions in the settings' names
        self.values = [opt[DEFAULT] for opt in self.option_rows]
        self.starter = 0  # a seat, or RANDOM
        self.saved = _UNKNOWN  # the saved game's mode name or None, looked up in a quiet pass
        self._warming = False  # the first frame's words asked for (``warm``)
        rec = records.get(mode["name"])
        if type(rec) is dict:
            self._remember(rec, lo, min(hi, roster), roster)
        self._relabel()

    def _remember(self, rec, lo, hi, roster):
        """Take what is still valid of the mode's last setup (a record from another version,
        or from before the names changed, never seats a player who is not there)."""
        seats = rec.get("seats")
        if (type(seats) is list and lo <= len(seats) <= hi
                and not [s for s in seats if type(s) is not int or not 0 <= s < roster]
                and len(set(seats)) == len(seats)):
            self.seats = seats
        values = rec.get("values")
        if type(values) is dict:
            options = self.option_rows
            for i in range(len(options)):
                key = options[i][KEY]
                if key in values and valid(options[i], values[key]):
                    self.values[i] = values[key]
        first = rec.get("first")
        if type(first) is int and RANDOM <= first < len(self.seats):
            self.starter = first

    # -- the first frame's words -------------------------------------------------------------
    def key(self, key, kind):
        Menu.key(self, key, kind)
        if self.dirty:
            self.warm()

    def on_open(self):
        Menu.on_open(self)
        self.warm()

    def warm(self):
        """Render the game's first words (``lifecycle.warm``) after the frames to come: a frame
        of this menu renders its rows, and after two of them the text cache no longer held
        the names it rendered when the menu opened (on the emulated Pico a Perfect Moment
        Start then rendered seven words, Viewpoint's ten)."""
        if not self._warming:
            self._warming = True
            self.app.soon(self._warm)

    def _warm(self):
        self._warming = False
        if self.app.top() is self:  # not once the game has started
            lifecycle.warm(self.app, self.mode["name"], self._names(),
                           self.options(0 if self.starter == RANDOM else self.starter))

    # -- rows ----------------------------------------------------------------------------
    def _names(self):
        names = self.app.settings["names"]
        return [names[s] for s in self.seats]

    def _unused(self):
        """The keys of the options that do not apply to what is chosen (``rules.unused``): a
        time bank has no "Per turn", a game without a target no "Win" rule."""
        unused = getattr(self.rules, "unused", None)
        if unused is None:
            return ()
        options = self.option_rows
        return unused(dict((options[i][KEY], self.values[i]) for i in range(len(options))),
                      len(self.seats))

    def _relabel(self):
        n = len(self.seats)
        note = getattr(self.rules, "NOTE", {}).get(n)
        items = ["Players: %d" % n + (" (%s)" % note if note else ""),
                 _names_row(self._names())]
        options = self.option_rows
        unused = self._unused()
        self.rows = [i for i in range(len(options)) if options[i][KEY] not in unused]
        for i in self.rows:
            items.append(options[i][LABEL] + ": " + value_text(options[i], self.values[i]))
        if not self.race:
            items.append("1st player: " + ("random" if self.starter == RANDOM
                                           else self._names()[self.starter]))
        items.append("Start")
        self.items = items
        self.select(self.index)  # rows come and go below the one changed: the cursor stays

    def _option(self, index):
        """The option index of menu row ``index``, or None for the other rows."""
        i = index - 2
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def _adjust(self, index, step):
        if index == 0:
            self._set_players(len(self.seats) + step)
        elif index == 1:
            return
        elif self._option(index) is not None:
            self._step(self._option(index), step)
        elif index == len(self.items) - 2 and not self.race:  # who starts
            n = len(self.seats)
            self.starter = (self.starter + 1 + step) % (n + 1) - 1
        self._relabel()

    def _step(self, i, step):
        option = self.option_rows[i]
        kind, params = option[KIND], option[PARAMS]
        if kind == FLAG:
            self.values[i] = not self.values[i]
        elif kind == CHOICE:
            values = params[VALUES]
            self.values[i] = values[(values.index(self.values[i]) + step) % len(values)]
        else:
            self.values[i] = min(params[HI], max(params[LO], self.values[i] + step * params[STEP]))

    def _pick(self, index):
        app = self.app
        if index == 0:
            # .mpy: 1.4 KB and its import, only for a number typed
            from tablemate.ui.numberentry import NumberEntry
            lo, hi = self.rules.PLAYERS[0], self._most()
            app.push(NumberEntry(app, "Players", len(self.seats), lo, hi, self._set_players))
        elif index == 1:
            app.push(WhoPlays(app, self))
        elif self._option(index) is not None:
            i = self._option(index)
            option = self.option_rows[i]
            if option[KIND] == NUMBER:
                # .mpy: 1.4 KB and its import, only for a number typed
                from tablemate.ui.numberentry import NumberEntry
                p = option[PARAMS]
                app.push(NumberEntry(app, option[LABEL], self.values[i], p[LO], p[HI],
                                     lambda v: self._set(i, v), step=p[STEP], zero=p[ZERO]))
            else:
                self._adjust(index, 1)
        elif index == len(self.items) - 2 and not self.race:
            self._adjust(index, 1)
        else:
            self.start()

    def _most(self):
        return min(self.rules.PLAYERS[1], len(self.app.settings["names"]))

    def _set_players(self, n):
        """Seat ``n`` players: the next saved names join, the last seated leave."""
        n = min(self._most(), max(self.rules.PLAYERS[0], n))
        seats = self.seats[:n]
        k = 0
        while len(seats) < n:
            if k not in seats:
                seats.append(k)
            k += 1
        self.seats = seats
        if self.starter >= n:
            self.starter = 0
        self._relabel()

    def _set(self, i, value):
        self.values[i] = value
        self._relabel()

    # -- starting ------------------------------------------------------------------------
    def options(self, first):
        """The options the rules' ``setup`` gets for what the menu shows, ``first`` drawn: an
        option that does not apply gets its default (a hidden "Advanced (2): on" must not
        refuse a game of four); the menu keeps the value chosen, for when it applies again."""
        n = len(self.seats)
        opts = {"names": self._names()}
        if not self.race:  # else the race, the game's first action, says who
            opts["first"] = first
        options = self.option_rows
        for i in range(len(options)):
            opts[options[i][KEY]] = self.values[i] if i in self.rows else options[i][DEFAULT]
        fixed = getattr(self.rules, "fixed", None)
        if fixed:
            opts.update(fixed(n))
        return opts

    def start(self):
        """Begin the game; ask first when a saved game would be replaced."""
        app = self.app
        name = self.mode["name"]
        first = self.starter
        if first == RANDOM:
            first = random.getrandbits(8) % len(self.seats)
        opts = self.options(first)
        options = self.option_rows
        rec = {"seats": self.seats, "first": self.starter,
               "values": dict((options[i][KEY], self.values[i]) for i in range(len(options)))}

        if self.saved is _UNKNOWN:  # Start came before the quiet pass that looks
            self.look_for_saved()
        saved = self.saved

        def go():
            refused = lifecycle.start(app, name, opts, saved is not None)
            if refused:  # the menu stays as it was, for the player to change what is refused
                # .mpy: 2.8 KB a game holds only once a dialog shows
                from tablemate.ui.dialogs import Notice
                app.push(Notice(app, "Cannot start:\n" + refused))
            else:
                app.after_frame(lambda: self._save(rec))
        if saved:
            # .mpy: 2.8 KB a game holds only once a dialog shows
            from tablemate.ui.dialogs import Confirm
            app.push(Confirm(app, "Replace the saved %s? The History files it unfinished."
                             % modes.label(saved), go))
        else:
            go()

    def look_for_saved(self):
        """Whether starting will replace a saved game: looked up while the player reads (a
        file lookup is a few ms on a Pico), not in the press on Start."""
        self.saved = modes.saved_name(self.app)

    def _save(self, rec):
        """After the game's first frame: remember its setup, then let the setup's modules go
        (the game is on; the game menu's "New game" starts one without them)."""
        try:
            setups.save(self.app.path("setups.json"), self.records, self.mode["name"], rec)
        except OSError:
            pass  # the game is on; only the menu's memory of it is lost
        unload(SETUP_MODULES)


def _names_row(names):
    """The setup's "Names:" row: the names whole when they fit, as they mostly do, else by
    ``shorten``'s rules, which are imported only then (on a Pico an import is 10-15 ms of the
    first visit to a setup, and the module's code would stay on the heap with the game)."""
    s = "Names: " + " ".join(names)
    if text.ink_width(s) > ROW_WIDTH:
        from tablemate.ui import shorten  # .mpy: 1.1 KB, only for a text too long (shorten.py)
        s = shorten.names("Names: ", names, ROW_WIDTH, " ")
    return s


class WhoPlays(ActionMenu):
    """The saved names, ticked for those who play; OK ticks or unticks, Done (or BACK) returns.

    "Rename a player" names one of them here, saved in the settings at once: leaving the setup
    for the settings' "Player names" lost every choice made in it ("4 players, target 50"), and
    this way the setup stays as it was, its "Names" row reading the new name."""

    def __init__(self, app, setup):
        self.setup = setup
        ActionMenu.__init__(self, app, "Who plays?", self._entries(), on_back=app.pop)

    def _entries(self):
        app = self.setup.app
        names = app.settings["names"]
        seats = self.setup.seats
        entries = [(("%s " % text.CHECK if i in seats else "  ") + names[i], self._toggle(i))
                   for i in range(len(names))]
        return entries + [("Rename a player", self._rename), ("Done", app.pop)]

    def _rename(self):
        """Which player, then the name entry in place of that list; back here once named, the
        cursor on Done."""
        app = self.app
        names = list(app.settings["names"])

        def pick(i):
            from tablemate.ui import names as entry  # .mpy: 6.2 KB, only while a name is typed

            def done(name):
                settings = dict(app.settings)
                names[i] = name
                settings["names"] = names
                app.settings = settings
                app.save_settings()
                self.setup._relabel()
                self.set_entries(self._entries())
                self.select(len(self.items) - 1)
                app.soon(lambda: text.warm(name))  # the game's first frame draws it
            entry.edit(app, names, i, done)
        app.push(Menu(app, "Rename which?", list(names), pick))

    def _toggle(self, i):
        def toggle():
            setup = self.setup
            seats = setup.seats
            lo, hi = setup.rules.PLAYERS[0], setup._most()
            if i in seats and len(seats) > lo:
                seats = [s for s in seats if s != i]
            elif i not in seats and len(seats) < hi:
                seats = sorted(seats + [i])
            else:
                # .mpy: 2.8 KB a game holds only once a dialog shows
                from tablemate.ui.dialogs import Notice
                self.app.push(Notice(self.app, "%s takes %d to %d players"
                                     % (setup.mode["label"], lo, hi)))
                return
            setup.seats = seats
            if setup.starter >= len(seats):
                setup.starter = 0
            setup._relabel()
            self.set_entries(self._entries())
        return toggle
