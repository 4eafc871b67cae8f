#!/usr/bin/env python3
"""The README's picture of a phone's page: Ann's phone during a Cartes sur Table secret ballot.

    .venv/bin/python tools/phones_shot.py [docs/screens/phones-vote.png]

Runs the table rig of the tests (tests/phones/tablerig.py: the real firmware on CPython, the
phones' server on 127.0.0.1), plays one ballot with five phones (four over HTTP as the page
speaks it, Ann's in headless Chromium), lets three vote in the next, Ann among them, and saves
Ann's page at a phone's size. Nothing is drawn by hand: it is the page the firmware serves.
"""

import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))
sys.path.insert(0, os.path.join(ROOT, "tests", "phones"))

import chromium  # noqa: E402
from phones_rig import NAMES, Phone, TableRig  # noqa: E402

OUT = os.path.join(ROOT, "docs", "screens", "phones-vote.png")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    out = argv[0] if argv else OUT
    from playwright.sync_api import sync_playwright
    rig = TableRig("cpython", os.path.join(tempfile.mkdtemp(prefix="tablemate-phones-"), "flash"))
    try:
        rig.start_game("cartes_sur_table", {"names": NAMES, "secret": True})
        with sync_playwright() as p:
            browser = chromium.launch(p)
            page = browser.new_context(viewport={"width": 390, "height": 720},
                                       device_scale_factor=1).new_page()
            page.goto(rig.url + "/")
            page.click("button[data-seat='0']")
            page.wait_for_selector("text=You are Ann")
            phones = [None] + [Phone(rig.url, kind) for kind in ("Android", "iPhone", "Android",
                                                                 "iPhone")]
            for i in range(1, 5):
                phones[i].seat(i)
            for i, card in ((1, 1), (2, 1), (3, 2), (4, 1)):
                phones[i].act(do="vote", card=card)
            page.click("button[data-card='1']")
            time.sleep(0.5)
            rig.keys("OK")  # the reveal (the count of the phones went by itself)
            rig.keys("OK")  # on to the next Patient
            for i, card in ((2, 3), (4, 2)):
                phones[i].act(do="vote", card=card)
            page.wait_for_selector("button[data-card='2']:not(.on)")
            page.click("button[data-card='2']")
            page.wait_for_selector("button.on[data-card='2']")
            page.wait_for_function("document.body.innerText.includes('3 of 5 voted')")
            page.screenshot(path=out, full_page=True)
            browser.close()
    finally:
        rig.stop()
    print("wrote %s" % os.path.relpath(out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
