"""The score table's cells kept as bytes: frozen into a UF2, and on a fast display bus.

Drawing a table's cells costs a Pico 1.1-1.7 ms a cell on the emulated Pico (its name, its
number's digits, Viewpoint's hand size): 6.5 ms for six late in a Viewpoint game, where a press
changes two cells, as much as the frame's wire at 1 MHz. A cell that shows what it showed
before is copied instead, three pages of bytes. A cell drawn in a frame is drawn again into the
kept bytes in a quiet pass after it (``Kept.keep``), not in the press; so is the first table of
a game, whose bytes are made then too. A ``.mpy`` install at 400 kHz does not keep them
(``table.keeps``): this module and its bytes (768 for three to eight players) would be the
heap it lacks.
"""

import framebuf
from micropython import const

_W = const(128)


class _Rows(framebuf.FrameBuffer):
    """Each row of cells' three pages, as the frame has them, drawn on their own: the table
    draws here as on the display (its text is copied into ``buf``)."""

    def __init__(self, rows):
        self.buf = bytearray(3 * _W * rows)
        super().__init__(self.buf, _W, 24 * rows, framebuf.MONO_VLSB)


class Kept:
    """The kept cells of one table shape: ``n`` players in a score ``font``."""

    def __init__(self, n, font, rows, draw):
        self.n = n
        self.font = font
        self.rows = rows
        self.draw = draw  # ``table._cell``
        self.fb = None  # ``_Rows``: made by the first ``keep``
        self.shows = [None] * n  # what each kept cell shows: (name, number, light, tag, stroke)
        self.pages = [None] * n  # each kept cell's three pages: views of ``fb.buf``
        self.todo = [None] * n  # each cell drawn and not yet kept: (what it shows, how
        # ``draw`` draws it)
        self.pending = False  # any such cell (``table.draw`` sets both)

    def copy(self, fb, i, o, w):
        """Put kept cell ``i`` on the frame at ``o`` (its top left in ``fb.buf``)."""
        buf = fb.buf
        for page in self.pages[i]:
            buf[o:o + w] = page
            o += _W

    def keep(self):
        """Draw the cells drawn in frames since the last ``keep`` into the kept bytes, each on
        a clear background in its row's three pages: a quiet pass's work."""
        if not self.pending:
            return
        self.pending = False
        fb = self.fb
        if fb is None:
            fb = self.fb = _Rows(self.rows)
        todo = self.todo
        for i in range(self.n):
            if todo[i] is not None:
                shows, cell = todo[i]
                todo[i] = None
                x, w = cell[0], cell[1]
                r = i // (_W // w)
                fb.fill_rect(x, 24 * r, w, 24, 0)
                self.draw(fb, 3 * r, *cell)
                if self.pages[i] is None:  # made once: a keep allocates no garbage
                    mv = memoryview(fb.buf)
                    k = 3 * _W * r + x
                    self.pages[i] = (mv[k:k + w], mv[k + _W:k + _W + w],
                                     mv[k + 2 * _W:k + 2 * _W + w])
                self.shows[i] = shows
