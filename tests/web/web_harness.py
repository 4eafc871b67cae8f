"""Helpers for the browser tests: the page's gadget driven like a person, and the same presses on
the host harness for reference.

``WebGadget`` presses the page's buttons with the mouse or the keyboard and reads the 128x64
pixels back from the canvas. ``Recorder`` is the host's ``Device`` (the firmware on CPython fakes,
read through the virtual SSD1306) that records what a flow pressed and what the panel showed at
each checkpoint, so that a test plays the very same presses on the page and compares pixels.
"""

import os
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import build_web  # noqa: E402
from tablemate_host.device import Device  # noqa: E402

KEYS = {"UP": "ArrowUp", "DOWN": "ArrowDown", "LEFT": "ArrowLeft", "RIGHT": "ArrowRight",
        "OK": "Enter", "BACK": "Backspace"}
LIMIT_MS = 600000  # only stops a page that hangs: what a test waits for comes in well under 1 s
SETTLE_PASSES = 6  # loop passes to wait once every button change is in: 60 ms, as Device.press
TICK_MS = 10  # the page's loop: a pass every 10 ms when it keeps up (web/main.js)


def serve(directory):
    """Serve ``directory`` on a free loopback port in a thread: (server, origin)."""
    os.environ.setdefault("TABLEMATE_WEB_QUIET", "1")
    httpd = build_web.server(directory, "127.0.0.1", 0)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, "http://127.0.0.1:%d" % httpd.server_address[1]


def bits(rows):
    """64 rows of 0/1 as one string of 8192 characters."""
    return "".join("".join(str(p) for p in row) for row in rows)


def picture(frame):
    """A frame (8192 characters of 0/1) as 32 lines of half blocks, for assertion messages."""
    chars = (" ", "\u2580", "\u2584", "\u2588")
    lines = []
    for y in range(0, 64, 2):
        top, bottom = frame[y * 128:(y + 1) * 128], frame[(y + 1) * 128:(y + 2) * 128]
        lines.append("".join(chars[int(t) | (int(b) << 1)] for t, b in zip(top, bottom)))
    return "\n".join(lines)


def differs(label, web, host):
    """The message for a canvas that is not the host's frame: both pictures, and the count."""
    n = sum(1 for a, b in zip(web, host) if a != b)
    return "%s: %d pixels differ\n-- page canvas --\n%s\n-- host virtual SSD1306 --\n%s" % (
        label, n, picture(web), picture(host))


class Recorder(Device):
    """The host's gadget, recording a flow: presses, waits and checkpoint frames."""

    def __init__(self, root, **kw):
        self.script = []
        super().__init__(root, **kw)

    def press(self, key, hold_ms=60, after_ms=60):
        self.script.append(("press", key))
        super().press(key, hold_ms, after_ms)

    def wait(self, ms):
        self.script.append(("wait", ms))
        self.advance(ms)

    def check(self, label):
        self.script.append(("check", label, bits(self.panel.pixels())))

    def frame(self):
        return bits(self.panel.pixels())


class WebGadget:
    """The page's gadget. ``via``: "keys" (the keyboard) or "clicks" (the on-screen buttons)."""

    def __init__(self, page, origin, via="keys"):
        self.page = page
        self.origin = origin
        self.via = via

    def open(self, query=""):
        self.page.goto(self.origin + "/" + query)
        self.ready()
        return self

    def ready(self):
        self.page.wait_for_function("window.tablemate && window.tablemate.running && "
                                    "window.tablemate.firstFrameAt > 0", timeout=LIMIT_MS)
        self.settle()

    def passes(self):
        return self.page.evaluate("window.tablemate.passes")

    def settle(self, passes=SETTLE_PASSES):
        """Wait until every button change is in, then ``passes`` loop passes more."""
        self.page.wait_for_function("window.tablemate.settled()", timeout=LIMIT_MS)
        start = self.passes()
        self.page.wait_for_function("window.tablemate.passes >= %d" % (start + passes),
                                    timeout=LIMIT_MS)

    def press(self, key, via=None):
        via = via or self.via
        if via == "keys":
            self.page.keyboard.press(KEYS[key])
        else:
            self.page.click('[data-key="%s"]' % key)
        self.settle()

    def presses(self, *keys):
        for key in keys:
            self.press(key)

    def hold(self, key, ms, via=None):
        """Hold ``key`` for ``ms`` of the page's clock from the pass that handed the press to the
        firmware, and for as many loop passes as ``ms`` has on a page that keeps up (one per
        ``TICK_MS``): the firmware's own repeats run meanwhile, one a pass at most, so a loaded
        machine that runs the page late or slowly holds the key as long as the firmware counts."""
        via = via or self.via
        if via == "keys":
            self.page.keyboard.down(KEYS[key])
            self._held_for(key, ms)
            self.page.keyboard.up(KEYS[key])
        else:
            box = self.page.locator('[data-key="%s"]' % key).bounding_box()
            self.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            self.page.mouse.down()
            self._held_for(key, ms)
            self.page.mouse.up()
        self.settle()

    def _held_for(self, key, ms):
        self.page.wait_for_function(
            "([key, ms, passes]) => window.tablemate.level[key]"
            " && performance.now() - window.tablemate.changedAt[key] >= ms"
            " && window.tablemate.passes >= passes",
            arg=[key, ms, self.passes() + ms // TICK_MS], timeout=LIMIT_MS)

    def wait(self, ms):
        """``ms`` of the page's clock (the firmware's ``ticks_ms`` counts the same real time in
        the page), then the passes of ``settle``: what is due by then has run, however slow."""
        self.page.wait_for_function("(end) => performance.now() >= end",
                                    arg=self.page.evaluate("performance.now()") + ms,
                                    timeout=LIMIT_MS)
        self.settle()

    def frame(self):
        """The canvas as 8192 characters of 0/1 (lit: the blue channel well above the glass)."""
        return self.page.evaluate("""() => {
            const c = document.getElementById("oled");
            const d = c.getContext("2d").getImageData(0, 0, 128, 64).data;
            let s = "";
            for (let i = 0; i < d.length; i += 4) s += d[i + 2] > 60 ? "1" : "0";
            return s;
        }""")

    def replay(self, script):
        """Play a Recorder's script; compare the canvas with the host at every checkpoint."""
        for step in script:
            if step[0] == "press":
                self.press(step[1])
            elif step[0] == "wait":
                self.wait(step[1])
            else:
                label, host = step[1], step[2]
                web = self.frame()
                assert web == host, differs(label, web, host)

    def read(self, path):
        """A file of the gadget's filesystem as text, or None."""
        return self.page.evaluate("""(path) => {
            try { return new TextDecoder().decode(window.tablemate.mp.FS.readFile(path)); }
            catch (e) { return null; }
        }""", path)

    def stored(self):
        """The page's localStorage, as a dict."""
        return self.page.evaluate("() => Object.fromEntries(Object.entries(localStorage))")
