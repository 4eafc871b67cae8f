"""Render the generated icons into docs/icons.png for a human to review.

Reads firmware/tablemate/ui/icons.py (the bytes the device blits), not the ASCII sources, so the
picture also checks the generator. The top half shows each icon enlarged with its name; the bottom
half shows them at true size as the 6x2 Contrast grid on a 128x64 panel, scaled like the README
screenshots, which is how a player sees them. Needs Pillow.

Usage: python tools/preview_icons.py [output.png]
"""

import os
import sys

from PIL import Image, ImageDraw

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))

import tablemate_host  # noqa: E402,F401  (framebuf and micropython stand-ins; firmware on the path)
from tablemate.ui import icons  # noqa: E402

BIG = 8  # px per icon pixel, enlarged
PANEL = 4  # px per panel pixel, as the README screenshots
PAD = 12
INK = (235, 235, 255)
CELL = (38, 44, 64)
BG = (10, 10, 14)
LABEL = (130, 130, 150)
ON, OFF = (0x9F, 0xD8, 0xFF), (0x0B, 0x0D, 0x12)


def rows(i):
    """Rows of 0/1 of icon i, decoded from the MONO_VLSB bytes."""
    n = icons.W * ((icons.H + 7) // 8)
    data = icons.DATA[i * n:(i + 1) * n]
    return [[data[(y // 8) * icons.W + x] >> (y % 8) & 1 for x in range(icons.W)]
            for y in range(icons.H)]


def render(path):
    per_row = 6
    cw = icons.W * BIG + PAD
    ch = icons.H * BIG + PAD + 14
    count = len(icons.NAMES)
    lines = (count + per_row - 1) // per_row
    width = max(PAD + per_row * cw, 2 * PAD + 128 * PANEL)
    height = PAD + lines * ch + 64 * PANEL + 2 * PAD
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    for i, name in enumerate(icons.NAMES):
        left = PAD + (i % per_row) * cw
        top = PAD + (i // per_row) * ch
        draw.text((left, top), name, fill=LABEL)
        top += 14
        draw.rectangle([left, top, left + icons.W * BIG - 1, top + icons.H * BIG - 1], CELL)
        for y, row in enumerate(rows(i)):
            for x, bit in enumerate(row):
                if bit:
                    draw.rectangle([left + x * BIG, top + y * BIG, left + (x + 1) * BIG - 2,
                                    top + (y + 1) * BIG - 2], INK)
    # True size: the grid as the Contrast screen lays it out (two rows of six, 21 px apart).
    top0 = PAD + lines * ch + PAD
    draw.rectangle([PAD, top0, PAD + 128 * PANEL - 1, top0 + 64 * PANEL - 1], OFF)
    for i in range(count):
        ox = 3 + (i % 6) * 21
        oy = 13 + (i // 6) * 21
        for y, row in enumerate(rows(i)):
            for x, bit in enumerate(row):
                if bit:
                    x0 = PAD + (ox + x) * PANEL
                    y0 = top0 + (oy + y) * PANEL
                    draw.rectangle([x0, y0, x0 + PANEL - 2, y0 + PANEL - 2], ON)
    img.save(path)
    return path


def main(argv):
    path = argv[0] if argv else os.path.join(ROOT, "docs", "icons.png")
    print("wrote %s" % os.path.relpath(render(path), ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
