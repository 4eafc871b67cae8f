"""Phones on: the access point, the server and the app's loop share one asyncio event loop.

``boot.loop`` hands the loop over here while the "Phones" setting is on (on a board with Wi-Fi:
``app.net()`` makes its access point) and gets it back when the setting goes off. With
Phones off nothing of this package, of asyncio or of ``network`` is imported, and the loop
sleeps in ``machine.lightsleep`` as before.

The loop here: the app's pass exactly as ``boot.loop`` makes it (``app.step``,
``app.collect``), then ``asyncio.sleep`` until the app's next deadline, at most ``PASS_MS``,
while the server answers the phones. No lightsleep: the radio's driver and lwIP run from the
core's interrupts and timers, which a lightsleep stops, and the Wi-Fi's own current (tens of mA,
``hardware/power.md``) dwarfs what the core saves by sleeping. A key is therefore seen within
``PASS_MS``, and a phone's action is on the gadget's screen in the pass after it. A poll every
``POLL_MS`` plays the held picks whose round the gadget completed (``Table.flush``) and sends a
new public frame to the phones when it changed (``Server.update``): the app knows nothing of
the phones.

``app.net()`` gives an object with ``ssid()``, ``start(ssid, password) -> (host, port, url)``,
``stop()`` and ``stations()`` (the phones joined, or None): ``hw/wifi.py`` on a Pico W; the test
rigs give one that serves on 127.0.0.1.
"""

import asyncio
import sys

from micropython import const

from tablemate import os, random, ticks_ms
from tablemate.app import collect, due, step
from tablemate.phones.page import PAGE
from tablemate.phones.server import Server
from tablemate.phones.table import GRACE_MS, Table, covered
from tablemate.store import phones as kept
from tablemate.store.files import trouble

PASS_MS = const(10)  # the longest wait between two passes of the app (a key's latency)
POLL_MS = const(200)  # how often the public frame is checked for news
PASSWORD_CHARS = "abcdefghjkmnpqrstuvwxyz23456789"  # read off the gadget's screen: no 0/o, 1/l/i
PASSWORD_LEN = const(12)  # 59 bits


def _rand32():
    """32 random bits: ``os.urandom`` where the port has it (the rp2's comes from its ring
    oscillator), else ``random`` (which the rp2 seeds from it too)."""
    if hasattr(os, "urandom"):
        b = os.urandom(4)
        return b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
    return random.getrandbits(32)


def new_token():
    """A seat's token: 64 random bits as 16 hex characters."""
    return "%08x%08x" % (_rand32(), _rand32())


def new_password():
    return "".join(PASSWORD_CHARS[_rand32() % len(PASSWORD_CHARS)]
                   for _ in range(PASSWORD_LEN))


class Phones:
    """The phones' service while it runs: ``app.phones``. The gadget's Phones page reads
    ``ssid``, ``password``, ``url`` and the ``table`` here."""

    def __init__(self, app, grace=None):
        self.app = app
        self.net = app.net()
        self.path = app.path("phones.json")
        password, seats = kept.load(self.path)
        self.password = password or new_password()
        self.ssid = self.net.ssid()
        self.table = Table(seats, new_token, self.ssid, GRACE_MS if grace is None else grace)
        self.table.dirty = password is None  # a new password is kept at once
        self.url = None
        self.server = None
        self.problem = None  # why the seats are not kept (a full flash), for the Phones page

    def keep(self):
        """Write the password and the seats (after a seat was taken or freed)."""
        self.table.dirty = False
        try:
            kept.save(self.path, self.password, self.table.seats)
            self.problem = None
        except OSError as exc:
            self.problem = trouble(exc)

    def free(self, name):
        """The gadget frees ``name``'s seat."""
        self.table.free(name)
        self.server.update()

    def page(self):
        """The gadget's Phones page (``screens/phones.py``), which the game menu's Phones row
        opens: the game flow stands below the screens and names none of them."""
        from tablemate.screens.phones import PhonesPage  # .mpy: only with phones on
        return PhonesPage(self.app)

    async def main(self, wdt, loops, host, port):
        app = self.app
        self.server = Server(app, self.table, PAGE, self.keep, self._acted)
        await self.server.start(host, port)
        poll = asyncio.create_task(self._poll())
        keys = app.keys
        try:
            while loops and app.settings["phones"]:
                step(app, wdt)
                keys = collect(app, keys)
                ms = due(app, keys, ticks_ms())
                await asyncio.sleep((ms if ms < PASS_MS else PASS_MS) / 1000)
                loops -= 1
        finally:
            poll.cancel()
            await self.server.stop()
        return loops

    def _acted(self):
        """After a phone's action: the gadget counts the phones still choosing."""
        covered(self.app, self.table, ticks_ms())

    async def _poll(self):
        table = self.table
        server = self.server
        app = self.app
        while True:
            table.flush(app, ticks_ms())
            server.update()
            await asyncio.sleep(POLL_MS / 1000)


def run(app, wdt, loops):
    """Start the access point and serve the phones beside the app's loop until the Phones
    setting goes off (or ``loops`` passes, for tests); returns the passes left. A radio that
    does not start switches the setting off and says why."""
    phones = Phones(app)
    try:
        host, port, phones.url = phones.net.start(phones.ssid, phones.password)
    except OSError as exc:
        app.settings["phones"] = False
        # .mpy: 2.8 KB a game holds only once a dialog shows
        from tablemate.ui.dialogs import Notice
        app.push(Notice(app, "Wi-Fi did not start (%s): Phones is off" % exc))
        return loops
    if phones.table.dirty:
        phones.keep()
    app.phones = phones
    try:
        return asyncio.run(phones.main(wdt, loops, host, port))
    finally:
        app.phones = None
        phones.net.stop()
        if sys.implementation.name == "micropython":
            asyncio.new_event_loop()  # a clean loop for the next time Phones is switched on
