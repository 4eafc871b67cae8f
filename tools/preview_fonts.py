"""Render every glyph of the generated fonts into docs/fonts.png for a human to review.

Reads firmware/tablemate/ui/fonts.py (the bytes the device blits), not the ASCII sources, so the
picture also checks the generator. Each font pixel becomes a 4x4 block; the glyph's cell
(advance x height) is shaded so spacing and descenders are visible. Needs Pillow.

Usage: python tools/preview_fonts.py [output.png]
"""

import importlib.util
import sys
import os

from PIL import Image, ImageDraw

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _data(module):
    """A generated font module, loaded alone (no firmware package, no MicroPython)."""
    spec = importlib.util.spec_from_file_location(
        module, os.path.join(ROOT, "firmware", "tablemate", "ui", module + ".py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MODULES = {"SMALL": _data("fonts"), "MEDIUM": _data("digitfonts"), "BIG": _data("digitfonts")}

SCALE = 4
PAD = 6  # px (scaled) between cells
PER_ROW = 16
INK = (235, 235, 255)
CELL = (38, 44, 64)
GAP = (22, 24, 34)
BG = (10, 10, 14)
LABEL = (130, 130, 150)
SAMPLES = {
    "SMALL": ["Alice 12  Bob -3  Quinn gjpqy", "\x01Start \x02\x03 \x04 \x05 \x06 {[(<&@#%$>)]}"],
    "MEDIUM": ["1234 567 890", "+15 -7"],
    "BIG": ["12:30", "+15 -7 1/2 3.5"],
}


def load(name):
    """The generated tables of one font as a dict."""
    get = lambda part: getattr(MODULES[name], name + "_" + part)  # noqa: E731
    widths, offsets, cell = get("WIDTHS"), get("OFFSETS"), get("CELL")
    if cell:  # a dense font: every code has a cell of ``cell`` bytes, one page tall
        count = len(get("DATA")) // cell
        widths = bytes([cell]) * count
        offsets = b"".join(bytes([(k * cell) & 0xFF, (k * cell) >> 8]) for k in range(count))
    return {"data": get("DATA"), "offsets": offsets, "widths": widths,
            "first": get("FIRST"), "height": get("HEIGHT"), "spacing": get("SPACING")}


def glyph(font, code):
    """(width, rows of 0/1) of one code, decoded from the MONO_VLSB bytes."""
    i = code - font["first"]
    if not 0 <= i < len(font["widths"]):
        i = ord("?") - font["first"]
    w = font["widths"][i]
    start = font["offsets"][2 * i] | font["offsets"][2 * i + 1] << 8
    rows = []
    for y in range(font["height"]):
        rows.append([font["data"][start + (y // 8) * w + x] >> (y % 8) & 1 for x in range(w)])
    return w, rows


def paint(img, font, code, left, top):
    """Draw one glyph cell at scaled position (left, top); return the scaled advance."""
    draw = ImageDraw.Draw(img)
    w, rows = glyph(font, code)
    adv = w + font["spacing"]
    draw.rectangle([left, top, left + adv * SCALE - 1, top + font["height"] * SCALE - 1], GAP)
    draw.rectangle([left, top, left + w * SCALE - 1, top + font["height"] * SCALE - 1], CELL)
    for y, row in enumerate(rows):
        for x, bit in enumerate(row):
            if bit:
                draw.rectangle([left + x * SCALE, top + y * SCALE,
                                left + (x + 1) * SCALE - 1, top + (y + 1) * SCALE - 1], INK)
    return adv * SCALE


def codes(font):
    """The codes the font really has (missing ones share the '?' glyph's offset)."""
    fallback = ord("?") - font["first"]
    out = []
    for i in range(len(font["widths"])):
        if i == fallback or font["offsets"][2 * i:2 * i + 2] != font["offsets"][2 * fallback:2 * fallback + 2]:
            out.append(font["first"] + i)
    return out


def render(path):
    sections = []
    for name in ("SMALL", "MEDIUM", "BIG"):
        font = load(name)
        cw = max(font["widths"]) + font["spacing"]
        sections.append((name, font, codes(font), cw))
    width = max(PER_ROW * (cw * SCALE + PAD) for _, _, _, cw in sections) + 2 * PAD
    width = max(width, 700)
    height = PAD
    for name, font, cs, cw in sections:
        lines = (len(cs) + PER_ROW - 1) // PER_ROW + len(SAMPLES[name])
        height += 14 + lines * (font["height"] * SCALE + 14) + PAD
    img = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(img)
    top = PAD
    for name, font, cs, cw in sections:
        draw.text((PAD, top), "%s  %d px tall, spacing %d" % (name, font["height"], font["spacing"]),
                  fill=LABEL)
        top += 14
        for n, code in enumerate(cs):
            col, row = n % PER_ROW, n // PER_ROW
            left = PAD + col * (cw * SCALE + PAD)
            y = top + row * (font["height"] * SCALE + 14)
            paint(img, font, code, left, y + 12)
            draw.text((left, y), chr(code) if 32 < code < 127 else str(code), fill=LABEL)
        top += ((len(cs) + PER_ROW - 1) // PER_ROW) * (font["height"] * SCALE + 14)
        for sample in SAMPLES[name]:
            left = PAD
            for ch in sample:
                left += paint(img, font, ord(ch), left, top + 6)
            top += font["height"] * SCALE + 14
        top += PAD
    img.save(path)
    return path


def main(argv):
    path = argv[0] if argv else os.path.join(ROOT, "docs", "fonts.png")
    print("wrote %s" % os.path.relpath(render(path), ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
