"""What the font and icon generators share: packing ASCII-art bitmaps and writing their output.

Both turn rows of '#' and '.' into MONO_VLSB bytes (for a bitmap w px wide: w bytes for rows
0-7, then w bytes for rows 8-15, ...; bit 0 is the top row), the layout framebuf blits directly,
and both either write a generated firmware module or, with --check, report that it is stale.
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def columns(rows):
    """Pack one bitmap's rows into MONO_VLSB bytes: page 0 columns, then page 1 columns, ..."""
    height, width = len(rows), len(rows[0])
    out = bytearray()
    for page in range((height + 7) // 8):
        for x in range(width):
            byte = 0
            for bit in range(8):
                y = page * 8 + bit
                if y < height and rows[y][x] == "#":
                    byte |= 1 << bit
            out.append(byte)
    return bytes(out)


def literal(data):
    """A bytes literal with every byte escaped, for generated modules."""
    return 'b"' + "".join("\\x%02x" % b for b in data) + '"'


def write_or_check(tool, output, text, argv):
    """Write ``text`` to ``output``, or with --check in ``argv`` exit 1 when it differs."""
    rel = os.path.relpath(output, ROOT)
    if "--check" in argv:
        try:
            with open(output, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print("%s: %s is stale; run python tools/%s.py" % (tool, rel, tool), file=sys.stderr)
            return 1
        return 0
    with open(output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote %s" % rel)
    return 0
