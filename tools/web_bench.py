#!/usr/bin/env python3
"""Benchmark the web gadget in headless Chromium: first frame, and a press to the canvas.

    .venv/bin/python tools/web_bench.py [--runs N] [--presses N]

Prints, never asserts (the budgets of issue 15, section 1):
- first frame: from opening the page (the navigation's start) to the first frame on the canvas,
  with nothing cached (a first visit) and again with the page's offline copy (a return visit);
  budget 2 s;
- a button press to the canvas: from the key's or the touch's event to the canvas drawn with
  the firmware's answer (and to the next animation frame, when the browser shows it), pressing
  DOWN and UP on the home menu; budget 50 ms;
- I2C bytes the firmware sent for one such press (deterministic: the driver's partial frames).
The page is built by tools/build_web.py into a temporary folder and served on loopback;
Chromium is the one the browser tests use (tests/web/chromium.py). The figures are this
machine's and this browser's: a phone is slower, a desktop faster.
"""

import argparse
import os
import statistics
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))

import build_web  # noqa: E402
import chromium  # noqa: E402

READY = "window.tablemate && window.tablemate.running && window.tablemate.firstFrameAt > 0"


def settle(page, passes=6):
    page.wait_for_function("window.tablemate.settled()")
    start = page.evaluate("window.tablemate.passes")
    page.wait_for_function("window.tablemate.passes >= %d" % (start + passes))


STAGES = (("start", "main.js runs"), ("vm", "VM ready"), ("files", "firmware files in"),
          ("imported", "boot code imported"), ("booted", "firmware booted"))


def first_frames(browser, url, runs):
    cold, warm, marks = [], [], []
    for _ in range(runs):
        ctx = browser.new_context()
        page = ctx.new_page()
        page.goto(url)
        page.wait_for_function(READY)
        cold.append(page.evaluate("window.tablemate.firstFrameAt"))
        marks.append(page.evaluate("window.tablemate.marks"))
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        page.reload()
        page.wait_for_function(READY)
        warm.append(page.evaluate("window.tablemate.firstFrameAt"))
        ctx.close()
    return cold, warm, marks


def presses(browser, url, n, via):
    ctx = browser.new_context(viewport={"width": 412, "height": 860}, device_scale_factor=2)
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_function(READY)
    settle(page)
    page.evaluate("window.tablemate.latency = []; window.tablemate.paintLatency = []")
    before = page.evaluate("window.tablemate.panel.bytes")
    for i in range(n):
        key = "DOWN" if i % 2 == 0 else "UP"
        if via == "keys":
            page.keyboard.press("ArrowDown" if key == "DOWN" else "ArrowUp")
        else:
            page.click('[data-key="%s"]' % key)
        settle(page)
    page.wait_for_timeout(100)
    draw = page.evaluate("window.tablemate.latency")
    paint = page.evaluate("window.tablemate.paintLatency")
    sent = page.evaluate("window.tablemate.panel.bytes") - before
    ctx.close()
    return draw, paint, sent


def summary(values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return "median %6.1f ms   p95 %6.1f ms   max %6.1f ms   (n=%d)" % (
        statistics.median(values), p95, values[-1], len(values))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads (5)")
    parser.add_argument("--presses", type=int, default=40, help="presses per input (40)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("TABLEMATE_WEB_QUIET", "1")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "site")
        files = build_web.build(out)
        httpd = build_web.server(out)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = "http://127.0.0.1:%d/" % httpd.server_address[1]
        try:
            with sync_playwright() as p:
                browser = chromium.launch(p)
                print("Tablemate web gadget, build %s (firmware %s), headless Chromium %s"
                      % (files["version"], files["firmware"], browser.version))
                print("served from %s on loopback; figures of this machine, printed, not asserted"
                      % url)
                cold, warm, marks = first_frames(browser, url, args.runs)
                print()
                print("first frame after opening the page                          budget 2000 ms")
                print("  first visit (nothing cached)   " + summary(cold))
                print("  return visit (offline copy)    " + summary(warm))
                print("  first visit, median ms since the page was opened: " + ", ".join(
                    "%s %.0f" % (label, statistics.median(m[key] for m in marks))
                    for key, label in STAGES) + ", first frame %.0f" % statistics.median(cold))
                print()
                print("button press to the canvas (home menu, DOWN/UP)             budget   50 ms")
                for via in ("keys", "clicks"):
                    draw, paint, sent = presses(browser, url, args.presses, via)
                    print("  %-6s to the canvas drawn      %s" % (via, summary(draw)))
                    print("  %-6s to the next frame shown  %s" % (via, summary(paint)))
                print("  I2C bytes the driver sent per press: %.0f" % (sent / args.presses))
                browser.close()
        finally:
            httpd.shutdown()
            httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
