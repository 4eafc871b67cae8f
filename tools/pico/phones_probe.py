"""The device side of tools/pico/phones_heap.py (copied to the flash as main.py): the frozen
firmware's app in a 7-player Cartes sur Table secret ballot, then the phones' Python side
exactly as phones.run builds it (table, server, poll, the app's loop in asyncio) with 7 seated
phones and a tablet on open event streams, four votes and a request in flight, over fake streams
(the rig has no Wi-Fi). Prints the free heap at each step."""
import gc
import sys
import time

import micropython

import asyncio
from tablemate import boot, lifecycle
from tablemate.app import collect, step

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"]


def heap(label):
    gc.collect()
    print("HEAP %s free=%d alloc=%d" % (label, gc.mem_free(), gc.mem_alloc()))


heap("start")
app, wdt = boot.start()
for _ in range(80):
    step(app, wdt)
    time.sleep_ms(10)
heap("home")
print("NET", app.net is not None, sys.implementation._machine)
assert lifecycle.start(app, "cartes_sur_table", {"names": NAMES, "secret": True}) is None
for _ in range(80):
    step(app, wdt)
    time.sleep_ms(10)
heap("game")


class Net:
    def ssid(self):
        return "Tablemate-RIG1"

    def start(self, ssid, password):
        return "192.168.4.1", 80, "http://192.168.4.1/"

    def stop(self):
        pass

    def stations(self):
        return 8


class Reader:
    def __init__(self, data):
        self.data = data

    async def read(self, n):
        if self.data:
            got, self.data = self.data[:n], self.data[n:]
            return got
        await asyncio.sleep(3600)  # a phone's page keeps its stream open
        return b""


class Writer:
    def __init__(self):
        self.sent = 0

    def write(self, data):
        self.sent += len(data)

    async def drain(self):
        pass

    def close(self):
        pass

    async def wait_closed(self):
        pass


HEAD = ("%s %s HTTP/1.1\r\nHost: 192.168.4.1\r\nUser-Agent: Mozilla/5.0 (Linux; Android 10; K) "
        "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36\r\n"
        "Accept: */*\r\nAccept-Encoding: gzip, deflate\r\nAccept-Language: en-GB,en;q=0.9\r\n"
        "X-Token: %s\r\nContent-Length: %d\r\n\r\n%s")


def request(method, path, token="", body=""):
    return (HEAD % (method, path, token, len(body), body)).encode()


app.net = lambda: Net()
from tablemate.phones.run import Phones  # noqa: E402
from tablemate.phones.page import PAGE  # noqa: E402
from tablemate.phones.server import Server  # noqa: E402

phones = Phones(app)
phones.url = "http://192.168.4.1/"
heap("phones object")


async def main():
    server = Server(app, phones.table, PAGE, phones.keep, phones._acted)
    phones.server = server
    app.phones = phones
    server.frame = server._frame()
    poll = asyncio.create_task(phones._poll())
    toks = []
    for i in range(7):  # seven phones take their seats
        w = Writer()
        await server._handle(Reader(request("POST", "/seat", "", '{"seat": %d}' % i)), w)
        toks.append(phones.table.seats[NAMES[i]][0])
    streams = [Writer() for _ in range(8)]
    for i in range(8):  # their live streams, and a tablet's
        t = toks[i] if i < 7 else ""
        asyncio.create_task(server._handle(Reader(request("GET", "/ev?t=" + t if t else "/ev")),
                                           streams[i]))
    for i in range(4):  # four vote
        await server._handle(Reader(request("POST", "/act", toks[i],
                                            '{"do": "vote", "card": %d}' % (1 + i % 3))),
                             Writer())
    # a request in flight: half a head, the connection held open
    asyncio.create_task(server._handle(Reader(b"GET /me HTTP/1.1\r\nHost: 192"), Writer()))
    keys = app.keys
    for _ in range(100):  # a second of the app's loop as phones.run passes it
        step(app, wdt)
        keys = collect(app, keys)
        await asyncio.sleep_ms(10)
    print("STREAMS sent", [w.sent for w in streams], "conns", server.conns)
    heap("phones 7+1 streams")
    micropython.mem_info()
    page = Writer()
    await server._handle(Reader(request("GET", "/")), page)
    heap("after the page")
    poll.cancel()


asyncio.run(main())
print("PROBE DONE")
