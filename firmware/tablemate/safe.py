"""Safe mode on the panel: the app is not started, and how to leave safe mode.

OK or BACK (or the encoder's push) held at power-up stops the boot before the app and its
watchdog (``boot.safe_mode``), so that a computer can always reach the REPL. Before issue 33 the
panel stayed dark, and a finger or a box resting on a key looked like a dead gadget: only the
serial console said "Safe mode". Safe mode is there for an app that is broken, so this draws with
the least of it: the display driver, and the small font's glyph bytes copied into the frame
buffer column by column (no text module, no screen, no dialog). The boot prints its line on the
console first and calls this inside a ``try``: whatever fails here is printed, and main.py still
returns to the REPL. Imported only in safe mode.
"""

# One line per page, at most 21 characters of the 6-px cell; the first on a lit bar.
LINES = ("SAFE MODE: app is off", "A key was held down", "at power-up (OK, BACK",
         "or the knob's push).", "", "To leave: let go of", "every key, unplug the",
         "board, plug it again.")


def show(display):
    """Draw ``LINES`` on ``display`` (the SSD1306 driver, just built) and send the frame."""
    from tablemate.ui.fonts import SMALL_CELL, SMALL_DATA, SMALL_FIRST
    buf = display.buf
    width = display.width
    buf[:] = bytes(len(buf))
    for x in range(width):
        buf[x] = 0xFF  # the title's bar
    for page in range(len(LINES)):
        at = page * width + 1
        lit = 0xFF if page == 0 else 0
        for ch in LINES[page]:
            k = ord(ch) - SMALL_FIRST
            if not 0 <= k < len(SMALL_DATA) // SMALL_CELL:
                k = ord("?") - SMALL_FIRST
            for i in range(SMALL_CELL):
                buf[at + i] = SMALL_DATA[k * SMALL_CELL + i] ^ lit
            at += SMALL_CELL + 1
    display.show()
