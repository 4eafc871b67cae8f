"""SSD1306 / SH1106 OLED driver over I2C that sends only what changed.

Why not the stock driver: it pushes all 1024 bytes on every show(), ~23 ms of bus time at
400 kHz, for a key press that changed one number. This driver keeps a shadow of what the panel
holds and, per 8-pixel page, sends only the span between the first and last changed column
(merging neighbouring pages into one window when that costs fewer bytes). A score change is a
few dozen bytes.

Cost of the diff, which matters on a Pico where one bytecode takes microseconds: per page one
C-level comparison of two preallocated 128-byte memoryviews; only a page that differs is looked
into, by halving: each probe compares two slices in C, so a page's span (to within 4 columns)
costs about 10 probes instead of a Python loop over up to 128 bytes (3.8 ms per page on a Pico). ``clear`` copies a
page of zeros doubled up the buffer, because ``fill(0)`` walks the 8192 pixels (0.8 ms).

The I2C object is injected (this module never imports machine), so the same code runs on the
Pico, on the host fakes and in the MicroPython WebAssembly VM.
"""

import framebuf
from micropython import const

_CTRL_CMD = const(0x00)  # control byte: Co=0, D/C#=0 - a stream of commands follows
_OVERHEAD = const(12)  # cost of one more window: 7 command + 1 data control + 2 address bytes, + 2 for start/stop
# Commands, by the datasheet's names (SSD1306 rev 1.1 section 10; SH1106 V1.7 section 9). Private
# consts: the compiler puts the numbers in the code, no RAM is spent on the names.
_SET_MEM_MODE = const(0x20)  # + 0x00: horizontal addressing, windows wrap page to page
_SET_COL = const(0x21)  # + first, last column of the window
_SET_PAGE = const(0x22)  # + first, last page of the window
_SCROLL_OFF = const(0x2E)
_SH_PUMP_8V = const(0x32)  # SH1106: charge pump output 8.0 V
_SET_START_LINE = const(0x40)  # | line 0
_SET_CONTRAST = const(0x81)  # + 0..255
_SET_CHARGE_PUMP = const(0x8D)  # + 0x14: on (SSD1306)
_SET_SEG_REMAP = const(0xA0)  # | 1: column 127 on SEG0
_RAM_ON = const(0xA4)  # the panel shows its RAM (0xA5 would light every pixel)
_SET_INVERT = const(0xA6)  # | 1: lit pixels dark
_SET_MUX = const(0xA8)  # + rows - 1
_SH_DCDC = const(0xAD)  # SH1106: + 0x8B, DC-DC converter on
_DISPLAY_OFF = const(0xAE)  # sleep: RAM kept
_DISPLAY_ON = const(0xAF)
_SH_SET_PAGE = const(0xB0)  # SH1106: | page (its windows are one page each)
_SET_COM_DIR = const(0xC0)  # | 8: scan COM63 -> COM0
_SET_OFFSET = const(0xD3)  # + vertical shift
_SET_CLOCK = const(0xD5)  # + divide ratio and oscillator frequency
_SET_PRECHARGE = const(0xD9)  # + phase 1 and 2 periods
_SET_COM_PINS = const(0xDA)  # + 0x12: alternative COM pins (64 rows), 0x02: sequential (32)
_SET_VCOM = const(0xDB)  # + VCOMH deselect level
_SH_COL_LO = const(0x00)  # SH1106: | low nibble of the column
_SH_COL_HI = const(0x10)  # SH1106: | high nibble of the column
_GRAIN = const(4)  # the changed spans are found to within this many columns
_SLOW_HZ = const(400000)  # above it, a fast bus: ``hw/fastbus.py`` weighs the frame


class SSD1306(framebuf.FrameBuffer):
    """A MONO_VLSB FrameBuffer for the panel; draw on it, then call show()."""

    def __init__(self, i2c, width=128, height=64, addr=0x3C, sh1106=False, flip=False,
                 hz=_SLOW_HZ):
        self.i2c = i2c
        self.hz = hz  # the bus's clock (board.py's ``freq``): what a byte costs (``_diff``)
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height // 8
        self.sh1106 = sh1106
        self.flip = flip  # the module is mounted upside down (board.py)
        self.turned = False  # the picture is turned 180 degrees for the player across (turn)
        self.buf = bytearray(self.pages * width)
        self._shadow = bytearray(self.pages * width)
        self._zero = bytes(width)  # one page of zeros: clear() doubles it up the buffer
        self._mv = memoryview(self.buf)
        self._smv = memoryview(self._shadow)
        self._page_mv = [self._mv[p * width:(p + 1) * width] for p in range(self.pages)]
        self._page_smv = [self._smv[p * width:(p + 1) * width] for p in range(self.pages)]
        self._lo = bytearray(self.pages)  # first changed column per page (this show)
        self._hi = bytearray(self.pages)  # last changed column per page
        self._all = False  # this show's frame goes whole (``_diff``)
        self._halves = None  # the pages' halves, on a fast bus (``fastbus.split``)
        self._cmd = bytearray(7)  # [control, command bytes...] for the window of one write
        self._cmd[0] = _CTRL_CMD
        self._cmd4 = memoryview(self._cmd)[:4]  # SH1106: page + two column nibbles
        self._one = bytearray(3)  # [control, command, argument]
        self._one[0] = _CTRL_CMD
        self._vec = [[b"\x40"] + [None] * n for n in range(self.pages + 1)]  # writevto lists
        self._col0 = 2 if sh1106 else 0  # SH1106: 132-column RAM, visible from column 2
        super().__init__(self.buf, width, height, framebuf.MONO_VLSB)
        self.init_display()

    # ---- commands ----------------------------------------------------------------------------

    def _command(self, c, arg=-1):
        one = self._one
        one[1] = c
        if arg < 0:
            self.i2c.writeto(self.addr, memoryview(one)[:2])
        else:
            one[2] = arg
            self.i2c.writeto(self.addr, one)

    def init_display(self):
        """Send the power-up sequence for a 128x64 module with internal charge pump / DC-DC."""
        u = self.flip == self.turned  # upright on common modules: column 127 on SEG0, COM63 first
        seg = _SET_SEG_REMAP | u
        com = _SET_COM_DIR | u << 3
        pins = 0x12 if self.height == 64 else 0x02
        if self.sh1106:
            seq = (_DISPLAY_OFF, _SET_CLOCK, 0x80, _SET_MUX, self.height - 1, _SET_OFFSET, 0x00,
                   _SET_START_LINE, _SH_DCDC, 0x8B, seg, com, _SET_COM_PINS, pins,
                   _SET_CONTRAST, 0x80, _SET_PRECHARGE, 0x22, _SET_VCOM, 0x35, _SH_PUMP_8V,
                   _RAM_ON, _SET_INVERT, _DISPLAY_ON)
        else:
            seq = (_DISPLAY_OFF, _SET_MEM_MODE, 0x00, _SET_START_LINE, seg,
                   _SET_MUX, self.height - 1, com, _SET_OFFSET, 0x00, _SET_COM_PINS, pins,
                   _SET_CLOCK, 0x80, _SET_PRECHARGE, 0xF1, _SET_VCOM, 0x30, _SET_CONTRAST, 0x80,
                   _SCROLL_OFF,  # no scrolling left over from before a soft reset
                   _RAM_ON, _SET_INVERT,
                   _SET_CHARGE_PUMP, 0x14,  # charge pump on, before display on
                   _DISPLAY_ON)
        self.i2c.writeto(self.addr, bytes((_CTRL_CMD,) + seq))
        self.invalidate()

    def turn(self, flag):
        """Turn the picture 180 degrees (True) or back, on top of the mounting ``flip``: 3 bytes,
        and the next show() sends the whole frame (docs/design-notes.md, "Face the player")."""
        if flag != self.turned:
            self.turned = flag
            u = self.flip == flag  # upright on the glass
            self._command(_SET_SEG_REMAP | u, _SET_COM_DIR | u << 3)  # two in one write
            self._valid = False

    def invalidate(self):
        """Forget what the panel holds: the next show() sends the whole frame."""
        self._valid = False

    def contrast(self, value):
        """Set brightness 0..255."""
        self._command(_SET_CONTRAST, max(0, min(255, value)))

    def invert(self, flag):
        """Show dark pixels lit and lit pixels dark (in the panel, no redraw)."""
        self._command(_SET_INVERT | (1 if flag else 0))

    def poweroff(self):
        """Sleep the panel (RAM kept, ~10 uA)."""
        self._command(_DISPLAY_OFF)

    def poweron(self):
        """Wake the panel; the next show() resends everything."""
        self._command(_DISPLAY_ON)
        self.invalidate()

    # ---- frame transfer ----------------------------------------------------------------------

    def fast(self):
        """Whether the bus is a fast one (above 400 kHz): a byte on the wire costs less than
        finding it (``_diff``), and drawing a frame as much as sending it (``ui/cells.py``)."""
        return self.hz > _SLOW_HZ

    def clear(self):
        """Blank the frame buffer (what ``fill(0)`` does, a few times faster).

        One page is copied from a page of zeros, then the cleared part doubles itself (1, 2,
        4, 8 pages): four C-level copies, with 128 bytes kept for it instead of a whole frame.
        """
        mv = self._mv
        mv[:self.width] = self._zero
        n = self.width
        end = len(self.buf)
        while n < end:
            m = min(n, end - n)
            mv[n:n + m] = mv[:m]
            n += m

    def _span(self, p):
        """Columns (first, last) of page ``p`` (known to differ) that hold every change.

        The halving stops at spans of ``_GRAIN`` columns: a probe costs about as much time as
        four bytes on the wire, so the last halvings would cost more than the bytes they save.
        """
        a = self._page_mv[p]
        b = self._page_smv[p]
        width = self.width
        if a[0] != b[0]:
            first = 0
        else:  # a[:lo] == b[:lo] and a[:hi] != b[:hi]
            lo, hi = 0, width
            while hi - lo > _GRAIN:
                mid = (lo + hi) >> 1
                if a[:mid] == b[:mid]:
                    lo = mid
                else:
                    hi = mid
            first = lo
        if a[width - 1] != b[width - 1]:
            return first, width - 1
        lo, hi = first, width  # a[lo:] != b[lo:] and a[hi:] == b[hi:]
        while hi - lo > _GRAIN:
            mid = (lo + hi) >> 1
            if a[mid:] == b[mid:]:
                hi = mid
            else:
                lo = mid
        return first, hi - 1

    def _diff(self):
        """Fill _lo/_hi with each page's changed span; return the number of changed pages.

        When every page changed (a new screen), the spans are not looked for: the
        frame goes whole, which costs ~1 ms more on the wire than the exact spans and saves
        the ~4 ms of finding them. On a fast bus a frame with six or seven pages changed may go
        whole too (``hw/fastbus.py`` says when and why); at 400 kHz a page is 2.9 ms of wire:
        the spans pay, and every changed page's is found.
        """
        width = self.width
        pages = self.pages
        lo, hi = self._lo, self._hi
        changed = 0
        for p in range(pages):
            if not self._valid or self._page_mv[p] != self._page_smv[p]:
                lo[p], hi[p] = 0, width - 1
                changed += 1
            else:
                lo[p], hi[p] = 1, 0  # empty span
        self._all = changed >= pages
        if not self._all and self.fast():
            from tablemate.hw import fastbus  # .mpy: 0.2 KB, only on a fast bus
            self._all = fastbus.whole(self, changed)
        if not self._all:
            for p in range(pages):
                if lo[p] <= hi[p]:
                    lo[p], hi[p] = self._span(p)
        return changed

    def _window(self, p0, p1, c0, c1):
        """Send pages p0..p1, columns c0..c1: one command and one data transaction."""
        width = self.width
        mv = self._mv
        if self.sh1106:  # page addressing: one page per window
            cmd = self._cmd
            col = c0 + self._col0
            cmd[1] = _SH_SET_PAGE | p0
            cmd[2] = _SH_COL_LO | (col & 0x0F)
            cmd[3] = _SH_COL_HI | (col >> 4)
            self.i2c.writeto(self.addr, self._cmd4)
        else:
            cmd = self._cmd
            cmd[1] = _SET_COL
            cmd[2] = c0
            cmd[3] = c1
            cmd[4] = _SET_PAGE
            cmd[5] = p0
            cmd[6] = p1
            self.i2c.writeto(self.addr, cmd)
        smv = self._smv
        if c0 == 0 and c1 == width - 1:  # whole rows are contiguous in the buffer
            vec = self._vec[1]
            a, b = p0 * width, (p1 + 1) * width
            vec[1] = mv[a:b]
            smv[a:b] = vec[1]
        else:
            vec = self._vec[p1 - p0 + 1]
            for i in range(p1 - p0 + 1):
                a = (p0 + i) * width + c0
                vec[i + 1] = mv[a:a + c1 - c0 + 1]
                smv[a:a + c1 - c0 + 1] = vec[i + 1]
        # the shadow is updated before the write: if it raises, show() has already cleared _valid
        self.i2c.writevto(self.addr, vec)
        for i in range(1, len(vec)):
            vec[i] = None  # drop the slices so the list holds no stale views

    def show(self):
        """Send the changed spans to the panel (everything after init/invalidate/poweron)."""
        changed = self._diff()
        if not changed:
            return
        self._valid = False  # if the bus fails half way, the next show() resends everything
        if self._all and not self.sh1106:  # a new screen: one window, no merging
            self._window(0, self.pages - 1, 0, self.width - 1)
            self._valid = True
            if self._halves is None and self.fast():  # after the boot's first frame:
                from tablemate.hw import fastbus  # not in the first press that needs them
                fastbus.split(self)  # (1.4 ms on a Pico)
            return
        lo, hi = self._lo, self._hi
        g0 = g1 = c0 = c1 = cost = -1  # the window being grown: pages g0..g1, columns c0..c1
        for p in range(self.pages):
            if lo[p] > hi[p]:
                continue
            if g0 >= 0:
                n0, n1 = min(c0, lo[p]), max(c1, hi[p])
                merged = (p - g0 + 1) * (n1 - n0 + 1) + _OVERHEAD
                if not self.sh1106 and merged <= cost + _OVERHEAD + hi[p] - lo[p] + 1:
                    g1, c0, c1, cost = p, n0, n1, merged
                    continue
                self._window(g0, g1, c0, c1)
            g0, g1, c0, c1 = p, p, lo[p], hi[p]
            cost = _OVERHEAD + c1 - c0 + 1
        self._window(g0, g1, c0, c1)
        self._valid = True
