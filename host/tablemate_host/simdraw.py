"""The simulator's two drawings of the 128x64 panel, and which one a terminal can hold.

"full" draws two pixel rows per character with half-blocks (``VirtualSSD1306.to_text``):
128x32 characters, 130x36 with the frame, the status line and the help line. Most terminals
open at 80x24, so "compact" draws 2x4 pixels per character with braille cells (U+2800 plus one
bit per dot): 64x16 characters, 66x21 with the frame, the status line and the help line over
two lines. Both are plain text and SGR, so they work over ssh; the compact one looks finer
(a braille dot is smaller than its cell) but loses no pixel: it decodes back to the exact frame.
"""

# Each drawing's (columns, rows), frame, status line and help line included.
SIZES = {"full": (130, 36), "compact": (66, 21)}
HELP_LINES = {"full": 1, "compact": 2}
# The braille dot of each pixel in a 2x4 cell, [row][column]: dots 1-2-3-7 down the left
# column, 4-5-6-8 down the right (Unicode's order, which is not row by row).
DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
DIM = "\x1b[2m"
PLAIN = "\x1b[0m"


def braille(px):
    """The panel's pixels (64 rows of 128 0/1) as 16 lines of 64 braille cells, each cell 2
    pixels wide and 4 high."""
    lines = []
    for y in range(0, len(px), 4):
        rows = px[y:y + 4]
        line = []
        for x in range(0, len(px[0]), 2):
            bits = 0
            for row, dots in zip(rows, DOTS):
                if row[x]:
                    bits |= dots[0]
                if row[x + 1]:
                    bits |= dots[1]
            line.append(chr(0x2800 + bits))
        lines.append("".join(line))
    return lines


def wrap(text, width, count):
    """``text`` (entries separated by two spaces) on ``count`` lines of ``width`` characters,
    each starting with a space; an entry is never split across two lines."""
    lines = [""]
    for entry in text.split("  "):
        if lines[-1] and len(lines[-1]) + 2 + len(entry) > width - 1:
            lines.append("")
        lines[-1] += ("  " if lines[-1] else "") + entry
    lines += [""] * count
    return [(" " + line)[:width].ljust(width) for line in lines[:count]]


def frame(panel, drawing, dim, status, help_line):
    """The picture for ``drawing``: the panel (a ``VirtualSSD1306``) inside a frame, the status
    line and the help line, as ``SIZES[drawing]`` lines of exactly that width (the SGR codes of
    a dim panel aside)."""
    cols, rows = SIZES[drawing]
    inner = cols - 2
    if not panel.display_on:
        body = [" " * inner] * (rows - 3 - HELP_LINES[drawing])
    elif drawing == "full":
        body = panel.to_text().split("\n")
    else:
        body = braille(panel.pixels())
    lines = ["\u250c" + "\u2500" * inner + "\u2510"]
    for row in body:
        lines.append("\u2502" + (DIM + row + PLAIN if dim else row) + "\u2502")
    lines.append("\u2514" + "\u2500" * inner + "\u2518")
    lines.append((" " + status)[:cols].ljust(cols))
    return lines + wrap(help_line, cols, HELP_LINES[drawing])


def choose(cols, rows, wanted="auto"):
    """The drawing a ``cols`` x ``rows`` terminal shows: ``wanted``, or with "auto" the full one
    where it fits, else the compact one; None when the terminal is too small for it."""
    for drawing in (("full", "compact") if wanted == "auto" else (wanted,)):
        need_cols, need_rows = SIZES[drawing]
        if cols >= need_cols and rows >= need_rows:
            return drawing
    return None


def too_small(cols, rows, wanted="auto"):
    """The one line shown instead of the device while the terminal cannot hold it (cut to the
    terminal's width: a longer one would wrap onto lines the next picture does not clear)."""
    need = SIZES["compact" if wanted == "auto" else wanted]
    return ("Tablemate needs %dx%d; this terminal is %dx%d (q quits)" % (need + (cols, rows)))[:cols]
