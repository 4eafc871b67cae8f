#!/usr/bin/env python3
"""The README's picture of the web gadget: the page in headless Chromium at a phone's size.

    .venv/bin/python tools/web_shot.py [docs/screens/web-gadget.png]

Builds the page (tools/build_web.py) into a temporary folder, serves it on loopback, opens it
in the Chromium the browser tests use, starts a 2-player scorepad with the page's own keys and
gives the first player three points, then saves a screenshot of the page. Nothing is drawn by hand: the
canvas is what the firmware sent to its display.
"""

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))

import chromium  # noqa: E402
import web_harness  # noqa: E402

OUT = os.path.join(ROOT, "docs", "screens", "web-gadget.png")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out = argv[0] if argv else OUT
    from playwright.sync_api import sync_playwright
    site = os.path.join(tempfile.mkdtemp(prefix="tablemate-web-"), "site")
    web_harness.build_web.build(site)
    httpd, origin = web_harness.serve(site)
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p)
            page = browser.new_context(viewport={"width": 390, "height": 570},
                                       device_scale_factor=1).new_page()
            gadget = web_harness.WebGadget(page, origin)
            gadget.open()
            # Home: Scorepad -> its setup (2 players by default; UP wraps to Start), then +3
            # for the first player.
            gadget.presses("OK", "UP", "OK")
            gadget.presses("RIGHT", "RIGHT", "RIGHT")
            gadget.wait(2500)  # the pending +3 is committed
            page.screenshot(path=out)
            browser.close()
    finally:
        httpd.shutdown()
    print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
