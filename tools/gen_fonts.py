"""Turn the ASCII-art font sources in tools/fonts/ into the firmware's font data modules.

``ui/fonts.py`` holds the text font every screen needs from boot; ``ui/digitfonts.py`` the score
digits, loaded with the first game (``text.large()``), so the home menu's RAM does not hold them.

The fonts are drawn as text so that a change is a readable diff; the firmware gets compact
bytes in the layout MicroPython's framebuf blits directly (MONO_VLSB: for a glyph w px wide and
h px tall, w bytes for rows 0-7, then w bytes for rows 8-15, ...; bit 0 is the top row).

Usage:
    python tools/gen_fonts.py           write the font modules
    python tools/gen_fonts.py --check   exit 1 if one differs from what would be written
"""

import os
import sys

from bitmaps import ROOT, columns, literal, write_or_check
SOURCES = os.path.join(ROOT, "tools", "fonts")
UI = os.path.join(ROOT, "firmware", "tablemate", "ui")

# (module, its docstring, ((font name in it, source file), ...))
MODULES = (
    ("fonts.py", "Tablemate's text font as bytes: glyph columns in framebuf MONO_VLSB order.",
     (("SMALL", "small.txt"),)),
    ("digitfonts.py", "Tablemate's score digits as bytes (MONO_VLSB), loaded with the first game.",
     (("MEDIUM", "medium.txt"), ("BIG", "big.txt"))),
)
FALLBACK = "?"  # drawn for codes a font lacks; every font must have it


class FontError(Exception):
    pass


def parse(path):
    """Read one font source: returns (props, glyphs), glyphs mapping code -> list of rows."""
    props = {"spacing": 1}
    glyphs = {}
    code = None
    rows = []

    def finish(lineno):
        if code is None:
            return
        if len(rows) != props["height"]:
            raise FontError("%s:%d: glyph %d has %d rows, expected %d"
                            % (path, lineno, code, len(rows), props["height"]))
        if len(set(len(r) for r in rows)) != 1:
            raise FontError("%s:%d: glyph %d has rows of different widths" % (path, lineno, code))
        if "width" in props and len(rows[0]) != props["width"]:
            raise FontError("%s:%d: glyph %d is %d wide, the font is %d"
                            % (path, lineno, code, len(rows[0]), props["width"]))
        glyphs[code] = list(rows)

    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith(";"):
            continue
        word, _, arg = line.partition(" ")
        if word in ("height", "width", "spacing") and code is None:
            props[word] = int(arg)
        elif word in ("char", "code"):
            finish(lineno)
            if word == "char":
                if len(arg) != 1:
                    raise FontError("%s:%d: 'char' takes one character" % (path, lineno))
                code = ord(arg)
            else:
                code = int(arg)
            if not 0 < code < 256:
                raise FontError("%s:%d: code %d out of range 1..255" % (path, lineno, code))
            if code in glyphs:
                raise FontError("%s:%d: glyph %d defined twice" % (path, lineno, code))
            rows = []
        elif code is not None and line.strip(".#") == "":
            rows.append(line)
        else:
            raise FontError("%s:%d: cannot read %r" % (path, lineno, line))
    finish(len(lines))
    if "height" not in props:
        raise FontError("%s: no 'height'" % path)
    if ord(FALLBACK) not in glyphs:
        raise FontError("%s: no %r glyph" % (path, FALLBACK))
    return props, glyphs


def block(data, per_line=16):
    """A bytes literal split over lines of per_line bytes, in parentheses."""
    parts = [literal(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "(\n    " + "\n    ".join(parts) + "\n)"


def label(code):
    if code == 32:
        return "space"
    if 32 < code < 127:
        return repr(chr(code))
    return "code %d" % code


def emit_font(name, props, glyphs):
    """Return the fonts.py lines for one font.

    A font whose glyphs all have one width is stored as dense cells: every code from first to
    last has its glyph at ``(code - first) * width * pages`` (the fallback's copy for the codes
    the font lacks), so the firmware finds a glyph with one multiplication (``<NAME>_CELL``).
    """
    first, last = min(glyphs), max(glyphs)
    fixed = len(set(len(g[0]) for g in glyphs.values())) == 1 and props["height"] <= 8
    cell = len(glyphs[first][0]) if fixed else 0
    data = bytearray()
    start = {}
    out = []
    for code in range(first, last + 1) if cell else sorted(glyphs):
        use = code if code in glyphs else ord(FALLBACK)
        start[code] = len(data)
        packed = columns(glyphs[use])
        data += packed
        out.append("    %s  # %s" % (literal(packed), label(code) if use == code
                                      else "%s (not drawn: %s)" % (label(code), label(use))))
    offsets = bytearray()
    widths = bytearray()
    for code in range(first, last + 1):
        at = start[code] if cell else start[code if code in glyphs else ord(FALLBACK)]
        offsets += bytes((at & 0xFF, at >> 8))
        widths.append(len(glyphs[code if code in glyphs else ord(FALLBACK)][0]))
    if len(data) > 0xFFFF:
        raise FontError("%s: glyph data exceeds 64 KB" % name)
    head = [
        "",
        "# %s: %d glyphs, codes %d..%d, %d px tall, %d bytes of glyph data"
        % (name, len(glyphs), first, last, props["height"], len(data)),
        "%s_FIRST = %d" % (name, first),
        "%s_HEIGHT = %d" % (name, props["height"]),
        "%s_SPACING = %d" % (name, props["spacing"]),
        "# bytes per glyph when every code has a cell of one width and one page, else 0",
        "%s_CELL = %d" % (name, cell),
    ]
    if cell:
        head += ["%s_WIDTHS = None  # every glyph is %s_CELL wide" % (name, name),
                 "%s_OFFSETS = None  # glyph k is at k * %s_CELL" % (name, name)]
    else:
        head += [
            "# glyph width in px, one byte per code from %s_FIRST (missing codes show %r)"
            % (name, FALLBACK),
            "%s_WIDTHS = %s" % (name, block(widths)),
            "# start of each glyph in %s_DATA, two bytes per code, little-endian" % name,
            "%s_OFFSETS = %s" % (name, block(offsets)),
        ]
    head += ["%s_DATA = (" % name]
    return head + out + [")"]


def generate(doc, fonts):
    """Return the text of one font module for the current sources."""
    lines = [
        "# Generated by tools/gen_fonts.py from tools/fonts/*.txt: do not edit by hand.",
        "# Fonts drawn for Tablemate; licence CC0-1.0 (public domain), see tools/fonts/LICENSE.",
        '"""%s"""' % doc,
    ]
    for name, filename in fonts:
        props, glyphs = parse(os.path.join(SOURCES, filename))
        lines += emit_font(name, props, glyphs)
    return "\n".join(lines) + "\n"


def main(argv):
    status = 0
    for module, doc, fonts in MODULES:
        try:
            text = generate(doc, fonts)
        except FontError as e:
            print("gen_fonts: %s" % e, file=sys.stderr)
            return 2
        status = max(status, write_or_check("gen_fonts", os.path.join(UI, module), text, argv))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
