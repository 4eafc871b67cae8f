"""The gadget's side of Phones: its page (joining, the seats, freeing one) and the count of the
phones still choosing, shown over the game while they choose.

The Phones page (Home, the game menu, and at once when Settings switches Phones on): "Join"
shows how a phone joins (the Wi-Fi's QR code, then the page's address); one row per seat of the
game in progress, "Ann: iPhone" for a seat a phone holds (OK frees it, after a question: a
phone lost or passed to someone else) or "Bob: -"; the phones on the Wi-Fi, of the 8 its DHCP
server leases.

``Progress`` covers the game screen while phones are choosing (a ballot, a round's picks): how
many are in of how many, and who is still to choose, never what anyone chose. It goes when no
phone that is here is still to choose (the gadget's own screen then asks for what is left: the
reveal, a seat without a phone); any key sends it away for the rest of that round, and the
gadget's buttons work as ever.
"""

from micropython import const

from tablemate import keys as K
from tablemate import ticks_add, ticks_diff
from tablemate.ui import ActionMenu, Screen, draw_title, shorten, text

_EVERY_MS = const(250)  # how often the pages look at the table again


def show(app, joining=False):
    """The Phones page; ``joining`` (Settings just switched Phones on): the joining screens
    over it as soon as the network is up, once."""
    app.push(PhonesPage(app, joining))


def join(app, phones):
    """How a phone joins: the network's QR code and password, then the page's address
    (``ui/join.py``, imported here: its encoder's RAM goes back when the screens close)."""
    from tablemate.ui.join import Join
    app.push(Join(app, phones.ssid, phones.password, phones.url))


class PhonesPage(ActionMenu):
    """Join, the seats, the phones on the Wi-Fi; refreshed while it is open."""

    def __init__(self, app, joining=False):
        ActionMenu.__init__(self, app, "Phones", [])
        self._next = app.now
        self._joining = joining
        self._refresh()

    def due(self, now):
        ms = ticks_diff(self._next, now)
        return ms if ms > 0 else 0

    def tick(self, now):
        if ticks_diff(now, self._next) >= 0:
            self._refresh()

    def _refresh(self):
        app = self.app
        self._next = ticks_add(app.now, _EVERY_MS)
        phones = app.phones
        if phones is None:
            words = "Phones: on" if app.settings["phones"] else "Phones is off"
            self.set_entries([(words + ": starting" if app.settings["phones"] else words,
                               self._nothing)])
            return
        entries = [("Join: network, page", lambda: join(app, phones))]
        if self._joining and app.top() is self:  # the network is up: how to join, at once
            self._joining = False
            join(app, phones)
        game = app.game
        if game is not None:
            names = game.rules.names(game.state)
            for name in names:
                kind = phones.table.holder(name)
                entries.append(("%s: %s" % (name, kind or "-"), self._freeing(name, kind)))
        n = phones.net.stations()
        if n is not None:
            entries.append(("Wi-Fi: %d of 8 phones" % n, self._limit))
        if phones.problem:
            entries.append((phones.problem + ": seats unsaved", self._nothing))
        self.set_entries(entries)

    def _nothing(self):
        pass

    def _limit(self):
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Notice
        self.app.push(Notice(self.app, "The gadget's Wi-Fi gives addresses to 8 phones at "
                             "most: a ninth joins but cannot open the page."))

    def _freeing(self, name, kind):
        if kind is None:
            return self._nothing

        def ask():
            # .mpy: 2.8 KB a game holds only once a dialog shows
            from tablemate.ui.dialogs import Confirm
            self.app.push(Confirm(self.app, "Free %s's seat? (%s)" % (name, kind),
                                  lambda: self._free(name)))
        return ask

    def _free(self, name):
        if self.app.phones is not None:
            self.app.phones.free(name)
        self._refresh()


class Progress(Screen):
    """How many are in, who is still to choose, over the game screen."""

    def __init__(self, app, table):
        Screen.__init__(self, app)
        self.table = table
        self.round = table.round
        self.shown = None
        self._next = app.now

    def key(self, key, kind):
        if kind == K.PRESS:
            self.table.dismissed = self.round
            self.app.pop()

    def due(self, now):
        ms = ticks_diff(self._next, now)
        return ms if ms > 0 else 0

    def tick(self, now):
        if ticks_diff(now, self._next) < 0:
            return
        self._next = ticks_add(now, _EVERY_MS)
        game = self.app.game
        wait = self.table.waiting(game, now) if game is not None else None
        if wait is None or not wait[0] or self.table.round != self.round:
            self.app.pop()
            return
        if wait != self.shown:
            self.shown = wait
            self.dirty = True

    def draw(self, fb):
        game = self.app.game
        names = game.rules.names(game.state)
        phones, gadget = self.shown or ([], [])
        draw_title(fb, "Phones choosing")
        done = len(names) - len(phones) - len(gadget)
        text.put_centered(fb, "%d of %d in" % (done, len(names)), 2)
        text.put(fb, shorten.names("Phones: ", [names[p] for p in phones], 128), 0, 4)
        if gadget:
            text.put(fb, shorten.names("Gadget: ", [names[p] for p in gadget], 128), 0, 5)
        text.put_centered(fb, "Any key: buttons", 7)
