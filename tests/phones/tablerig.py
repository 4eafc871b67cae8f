"""The table rig: the real App and the phones' server on 127.0.0.1, under CPython or under
MicroPython's unix port, driven through a control channel that only the rig has.

    python tests/phones/tablerig.py REPO ROOT PORT [GRACE_MS]
    micropython tests/phones/tablerig.py REPO ROOT PORT [GRACE_MS]

The app is ``tests/logic/rig.py``'s (a real SSD1306 driver on a fake bus, a scripted input) with
the Phones setting on and an "access point" that serves on 127.0.0.1:PORT: ``boot.loop`` hands
the loop to ``phones.run`` exactly as on a Pico W. The control channel is the rig's stdin and
stdout, read by its input object in each pass of the app's loop (so a command runs between two
passes, as a key does): one command line in, one JSON line out. The firmware knows nothing of
it. Commands:
  keys K...          press and release each key (UP DOWN LEFT RIGHT OK BACK; K:LONG for a hold)
  start NAME JSON    start a game of mode NAME with the options JSON, as its setup menu does
  state              the game in RAM: mode, actions, state, the top screen, the game's view
  free NAME          the gadget's Phones page frees NAME's seat (*: every seat)
  heap               gc figures (after a collection)
  stop               switch Phones off; once the server has closed, "stopped" and exit
A power cut is the test killing the process; a new rig on the same ROOT boots from its flash.
Until the server listens the rig prints nothing; then "ready" and the commands' answers.
"""

import sys

REPO = sys.argv[1]
sys.path.insert(0, REPO + "/firmware")
sys.path.insert(0, REPO + "/tests/logic")
if sys.implementation.name != "micropython":
    sys.path.insert(0, REPO + "/host")
    import time

    import tablemate_host  # noqa: F401  (micropython, machine: the host's stand-ins)
    time.ticks_ms = lambda: int(time.monotonic() * 1000) & 0x3FFFFFFF  # real time, wrapping
    # as the Pico's does (the host's clock only moves when a test moves it)

import gc  # noqa: E402
import json  # noqa: E402
import select  # noqa: E402

from rig import Rig  # noqa: E402

from tablemate import boot, keys  # noqa: E402

ROOT, PORT = sys.argv[2], int(sys.argv[3])
if len(sys.argv) > 4:
    from tablemate.phones import table
    table.GRACE_MS = int(sys.argv[4])


class Loopback:
    """The access point's stand-in: the server listens on 127.0.0.1."""

    def ssid(self):
        return "Tablemate-RIG1"

    def start(self, ssid, password):
        return "127.0.0.1", PORT, "http://127.0.0.1:%d/" % PORT

    def stop(self):
        pass

    def stations(self):
        return None


class Watchdog:
    def feed(self):
        pass


def say(data):
    sys.stdout.write(json.dumps(data) + "\n")
    if hasattr(sys.stdout, "flush"):
        sys.stdout.flush()


class Control:
    """The rig's input: queued key events, and the control channel's commands."""

    def __init__(self, script):
        self.script = script  # the rig's ScriptInput: its queue is played by ``poll``
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.ready = False
        self.stopping = False
        self.woken = False

    def due(self, now):
        return self.script.due(now)

    def close(self):
        pass

    def poll(self, now, emit):
        self.script.poll(now, emit)
        app = rig.app
        if self.stopping and app.phones is None:  # the server closed, the loop is its own
            say("stopped")
            raise SystemExit
        if not self.ready:
            if app.phones is None or app.phones.server is None:
                return
            self.ready = True
            say("ready")
        if self.poller.poll(0):
            line = sys.stdin.readline()
            if line:
                self.command(line.strip())

    def command(self, line):
        app = rig.app
        word, _, rest = line.partition(" ")
        if word == "keys":
            q = self.script.queue
            for k in rest.split():
                name, _, kind = k.partition(":")
                key = getattr(keys, name)
                q.append((key, keys.PRESS))
                if kind == "LONG":
                    q.append((key, keys.LONG))
                q.append((key, keys.RELEASE))
            say("ok")
        elif word == "start":
            from tablemate import lifecycle
            name, _, opts = rest.partition(" ")
            app.home()
            say(lifecycle.start(app, name, json.loads(opts)) or "ok")
        elif word == "state":
            game = app.game
            top = app.top()
            screen = None
            for s in app.stack:
                if game is not None and getattr(s, "game", None) is game:
                    screen = s
            say({"mode": game.name if game else None, "count": game.count if game else 0,
                 "unsaved": game.unsaved if game else 0,
                 "state": game.state if game else None, "top": type(top).__name__,
                 "view": getattr(screen, "view", None), "cur": getattr(screen, "cur", None),
                 "message": getattr(getattr(screen, "msg", None), "text", None),
                 "keys": app.keys,
                 "stack": len(app.stack)})
        elif word == "free":
            for name in list(app.phones.table.seats) if rest == "*" else [rest]:
                app.phones.free(name)
            say("ok")
        elif word == "heap":
            gc.collect()
            say({"free": gc.mem_free() if hasattr(gc, "mem_free") else -1,
                 "alloc": gc.mem_alloc() if hasattr(gc, "mem_alloc") else -1})
        elif word == "stop":
            app.settings["phones"] = False
            self.stopping = True
        else:
            say("unknown command " + word)


rig = Rig(ROOT)
rig.app.net = Loopback
rig.app.settings["phones"] = True
rig.app.settings["dim_s"] = rig.app.settings["off_min"] = 0  # the rig's clock jumps to real time
rig.app.input = Control(rig.input)
try:
    boot.loop(rig.app, Watchdog(), -1)
except SystemExit:
    pass
