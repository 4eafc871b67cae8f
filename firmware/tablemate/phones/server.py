"""The phones' web server: asyncio's own streams, a handful of routes, every allocation bounded.

Written to the subset of asyncio that MicroPython and CPython share (``start_server``,
``reader.read(n)``, ``writer.write``/``drain``/``close``/``wait_closed``, ``Event``,
``wait_for``), so the very module the Pico W runs is tested on CPython and on MicroPython's unix
port with real sockets on 127.0.0.1. Why not a framework: docs/design-notes.md ("Phones").

Routes (``Connection: close`` on every response, nothing cached: ``no-store``):
  GET  /          the page (``phones/page.py``, gzipped)
  GET  /ev[?t=T]  the event stream: the public frame (``Table.public``) whenever it changes, a
                  comment every ``KEEPALIVE_S``; ``t`` (a seat's token) only says the phone is
                  here. The stream carries nothing a phone may not see: never a vote or a pick.
  GET  /me        the phone's own seat (``Table.mine``), by its X-Token header
  POST /seat      {"seat": i}: take a seat; the answer carries the token
  POST /act       what the phone does (a vote, a pick, a tie settled): the same action as the
                  buttons', through the game's screen
  POST /leave     give the seat up
Limits: ``CONNS_MAX`` connections at once, ``STREAMS_MAX`` of them event streams (a phone's
page keeps one), the head and body bounds of ``phones/http.py``, ``REQUEST_S`` to send a
request. Past them the answer is a status and a sentence the page shows (503 "Too many
phones"), and the connection closes.
"""

import asyncio

from micropython import const

from tablemate import RuleError, json, ticks_ms
from tablemate.phones import http
from tablemate.phones.table import Refused

CONNS_MAX = const(12)  # the event streams, and a request or two at a time besides
STREAMS_MAX = const(9)  # eight phones and a tablet showing the scoreboard
REQUEST_S = const(5)  # a request slower than this is dropped (408): no slow client holds a slot
KEEPALIVE_S = const(15)  # an idle stream gets a comment: a phone gone without a word is found
BUSY = "Too many phones on the gadget's page: close it on one"


class _Stream:
    """One open event stream."""

    def __init__(self, token):
        self.token = token
        self.ready = asyncio.Event()  # a new frame to send, or the stream is over
        self.gone = False


class Server:
    """Serves ``table`` for ``app``; ``page``: the gzipped page; ``kept()``: called when the
    seats changed (they are written to the flash); ``acted()``: after a phone's action."""

    def __init__(self, app, table, page, kept, acted):
        self.app = app
        self.table = table
        self.page = page
        self.kept = kept
        self.acted = acted
        self.conns = 0
        self.streams = []
        self.frame = b""  # the public frame as sent, JSON bytes
        self.server = None
        self.requests = 0  # requests answered (the benchmark and the tests read it)

    async def start(self, host, port):
        self.frame = self._frame()
        self.server = await asyncio.start_server(self._handle, host, port)

    async def stop(self):
        """Close the listening socket and end every stream."""
        for st in self.streams:
            st.gone = True
            st.ready.set()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None

    def _frame(self):
        return json.dumps(self.table.public(self.app.game)).encode()

    def update(self):
        """Send the public frame to every stream if it changed (the poll's and every action's
        last step)."""
        frame = self._frame()
        if frame != self.frame:
            self.frame = frame
            for st in self.streams:
                st.ready.set()
        if self.table.dirty:
            self.kept()

    # -- a connection ----------------------------------------------------------------------
    async def _handle(self, reader, writer):
        self.conns += 1
        try:
            if self.conns > CONNS_MAX:
                await _send(writer, http.reply(503, {"error": BUSY}))
            else:
                await self._serve(reader, writer)
        except Exception as exc:  # a broken connection must not end the server
            if not isinstance(exc, OSError):  # a phone that went (reset, broken pipe) is no fault
                self.app.fail(exc)
        finally:
            self.conns -= 1
            try:
                writer.close()
                await writer.wait_closed()
            except Exception:  # the other end went first
                pass

    async def _serve(self, reader, writer):
        try:
            req = await asyncio.wait_for(_read(reader), REQUEST_S)
        except http.Bad as bad:
            await _send(writer, http.reply(bad.status, {"error": str(bad)}))
            return
        except asyncio.TimeoutError:
            await _send(writer, http.reply(408, {"error": "Too slow"}))
            return
        self.requests += 1
        if req.path == "/ev" and req.method == "GET":
            await self._events(req, reader, writer)
            return
        try:
            status, data = self._route(req)
        except http.Bad as bad:
            status, data = bad.status, {"error": str(bad)}
        except Refused as no:
            status, data = no.status, {"error": str(no)}
        except RuleError as no:
            status, data = 409, {"error": str(no)}
        if type(data) is bytes:
            await _send(writer, data)
        else:
            await _send(writer, http.reply(status, data))

    def _route(self, req):
        """(status, a JSON-able answer, or bytes: the whole response)."""
        path, method = req.path, req.method
        table = self.table
        game = self.app.game
        if path == "/":
            if method != "GET":
                raise http.Bad(405, "GET only")
            return 200, http.head(200, "text/html; charset=utf-8", len(self.page),
                                  "Content-Encoding: gzip\r\n") + self.page
        if path == "/me":
            if method != "GET":
                raise http.Bad(405, "GET only")
            return 200, table.mine(game, req.token)
        if path not in ("/seat", "/act", "/leave"):
            raise http.Bad(404, "No such page")
        if method != "POST":
            raise http.Bad(405, "POST only")
        if path == "/leave":
            table.leave(req.token)
            self.update()
            return 200, {"seat": -1}
        ask = http.body(req)
        if path == "/seat":
            token = table.claim(game, req.token, ask.get("seat"), req.kind)
            self.update()
            out = table.mine(game, token)
            out["token"] = token
            return 200, out
        table.act(self.app, req.token, ask, ticks_ms())
        self.acted()
        self.update()
        return 200, table.mine(game, req.token)

    async def _events(self, req, reader, writer):
        if len(self.streams) >= STREAMS_MAX:
            await _send(writer, http.reply(503, {"error": BUSY}))
            return
        st = _Stream(http.query(req, "t"))
        self.streams.append(st)
        self.table.opened(st.token)
        watch = asyncio.create_task(_watch(reader, st))
        try:
            writer.write(http.head(200, "text/event-stream", -1))
            sent = None
            while not st.gone:
                if sent is not self.frame:
                    sent = self.frame
                    writer.write(http.event(sent))
                else:
                    writer.write(b": still here\n\n")
                await writer.drain()
                try:
                    await asyncio.wait_for(st.ready.wait(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    pass
                st.ready.clear()
        finally:
            watch.cancel()
            self.streams.remove(st)
            self.table.closed(st.token, ticks_ms())


async def _watch(reader, st):
    """A stream's phone sends nothing after its request: a read that returns means it closed
    (or broke the protocol); the stream ends at once."""
    try:
        await reader.read(1)
    except Exception:  # reset by the phone: gone as well
        pass
    st.gone = True
    st.ready.set()


async def _read(reader):
    """The next request from ``reader``, its body read (``http.Bad`` when it is refused)."""
    buf = bytearray()
    end = -1
    while end < 0:
        chunk = await reader.read(http.CHUNK)
        if not chunk:
            raise http.Bad(400, "Cut short")
        start = len(buf) - 3 if len(buf) > 3 else 0
        buf += chunk
        end = http.head_end(buf, start)
        if (end < 0 and len(buf) > http.HEAD_MAX) or end > http.HEAD_MAX:
            raise http.Bad(431, "Request too large")
    req = http.parse(bytes(buf[:end - 4]))
    body = buf[end:end + req.length]
    while len(body) < req.length:
        chunk = await reader.read(req.length - len(body))
        if not chunk:
            raise http.Bad(400, "Cut short")
        body += chunk
    req.body = bytes(body)
    return req


async def _send(writer, data):
    writer.write(data)
    await writer.drain()
