"""A virtual SSD1306 (or SH1106) OLED that decodes the real I2C byte stream.

Why: the display driver's whole point is *which bytes* it sends (only the changed spans), so the
host must not trust the driver's own framebuffer. This device sits on the fake I2C bus
(``machine.world.attach_i2c(0, 0x3C, VirtualSSD1306())``), parses control bytes, commands and
their arguments exactly as the controller does, writes data into its own GDDRAM at the address
pointer, and advances that pointer per the addressing mode and windows of the datasheet. What a
test, the simulator or a README image shows is decoded from that RAM through the panel's
remap/scan/offset/contrast state, so a wrong window, a missed page or a bad init shows up as a
wrong picture, not as a passing test.

Panel model (a common 0.96" 128x64 module, and the 1.3" SH1106 module):
- the glass is wired so that segment remap 0xA1 + COM scan 0xC8 + COM pins 0xDA 0x12 shows RAM
  upright (what every driver sends); 0xA0/0xC0 mirror it, both together rotate it 180 degrees;
- on the SSD1306 the segment remap acts when data is written, as its datasheet says ("only
  affects subsequent data input"): ``ram`` is held in segment order, and a remap sent without
  rewriting the frame leaves the old picture turned top to bottom only (by the COM scan); the
  COM scan, and the SH1106's remap (ADC select: "the relationship between RAM column address
  and segment driver"), act on the output at once;
- sequential COM pins (0xDA 0x02) on this 64-row glass interleave rows, as on real modules;
- the SSD1306 glass lights only with the charge pump on (0x8D 0x14) - these modules have no
  external VCC; the SH1106's DC-DC (0xAD 0x8B) is on from reset;
- SH1106: 132-column RAM, columns 2..129 are visible (with either segment remap), page
  addressing only; the column pointer stays on its page (wraps to 0 after 131).
Who looks: ``reader`` 0 (the default) sees the glass from the side it is mounted upright for;
``reader`` 1 sits across the table and sees it turned 180 degrees. A test sets ``reader`` to
read the picture as the player the firmware turned it to reads it (``pixels`` and all that uses it).
The display offset (0xD3) is modelled as moving the image up like the start line; displays off,
entire-on (0xA5, lights everything regardless of RAM) and inverse (0xA7) act on the output.
"""

_HORIZONTAL, _VERTICAL, _PAGE = 0, 1, 2

# SSD1306 commands taking argument bytes: command -> number of arguments
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2, 0x81: 1,
                 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1}
_SH1106_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class VirtualSSD1306:
    """I2C device: ``write(data)`` receives each transaction (without the address byte)."""

    WIDTH = 128
    HEIGHT = 64

    def __init__(self, sh1106=False, max_hz=None):
        self.sh1106 = sh1106
        # Above this SCL the panel answers no ACK (a module past its 400 kHz rating, long
        # wires): every transaction NACKs, as the rp2 sees a missed ACK. None: any speed.
        self.max_hz = max_hz
        self.ram_width = 132 if sh1106 else 128
        self._visible0 = 2 if sh1106 else 0
        self.ram = bytearray(self.ram_width * 8)
        self.transactions_total = 0
        self.bytes_total = 0
        self.data_bytes_total = 0
        self.reader = 0  # 1: pictures as the player across the table sees the glass
        self.log = []  # decoded commands: tuples (command, *args)
        self.unknown = []  # command bytes the controller would not understand
        self.power_on_reset()
        self.mark()

    def power_on_reset(self):
        """Register values after RESET per the datasheets (RAM keeps its contents)."""
        self.display_on = False
        self.contrast = 0x7F if not self.sh1106 else 0x80
        self.entire_on = False
        self.inverted = False
        self.mode = _PAGE
        self.col_start, self.col_end = 0, 127
        self.page_start, self.page_end = 0, 7
        self.col = 0
        self.page = 0
        self.page_mode_col = 0  # column start set by 0x00-0x1F
        self.start_line = 0
        self.seg_remap = False
        self.com_reverse = False
        self.mux = 64
        self.offset = 0
        self.com_pins = 0x12
        self.clock = 0x80 if not self.sh1106 else 0x50
        self.precharge = 0x22
        self.vcomh = 0x20 if not self.sh1106 else 0x35
        self.charge_pump = False  # SSD1306 0x8D
        self.dcdc = True  # SH1106 0xAD (on after reset)
        self.pump_voltage = 2  # SH1106 0x30-0x33
        self.scroll_active = False
        self.scroll = None  # last scroll setup: (command, args)
        self.vscroll_area = (0, 64)
        self.data_while_scrolling = 0
        self._cmd = None
        self._args = []
        self._need = 0

    # ---- I2C side ---------------------------------------------------------------------------

    def write(self, data):
        """Decode one I2C write transaction: control byte(s), then commands or data."""
        data = bytes(data)
        self.transactions_total += 1
        self.bytes_total += len(data)
        self.transactions += 1
        self.bytes += len(data)
        i, n = 0, len(data)
        while i < n:
            control = data[i]
            i += 1
            is_data = bool(control & 0x40)
            if control & 0x80:  # Co=1: exactly one byte follows, then another control byte
                if i < n:
                    self._byte(data[i], is_data)
                    i += 1
            else:  # Co=0: the rest of the transaction is one stream
                for b in data[i:]:
                    self._byte(b, is_data)
                i = n

    def read(self, n):
        """Status read: bit 6 set while the display is off."""
        return bytes([0x00 if self.display_on else 0x40]) * n

    def mark(self):
        """Start counting transactions/bytes afresh (see .transactions, .bytes, .data_bytes)."""
        self.transactions = 0
        self.bytes = 0
        self.data_bytes = 0

    def _byte(self, b, is_data):
        if is_data:
            self._data(b)
        else:
            self._command_byte(b)

    # ---- GDDRAM ------------------------------------------------------------------------------

    def _data(self, b):
        self.data_bytes_total += 1
        self.data_bytes += 1
        if self.scroll_active:
            self.data_while_scrolling += 1
        if self.col < self.ram_width:
            seg = self.col
            if self.seg_remap and not self.sh1106:  # the SSD1306 remaps as it writes
                seg = 127 - seg
            self.ram[self.page * self.ram_width + seg] = b
        if self.sh1106:
            self.col = 0 if self.col >= self.ram_width - 1 else self.col + 1
        elif self.mode == _HORIZONTAL:
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        elif self.mode == _VERTICAL:
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1
        else:  # page mode: wraps to the column start, page unchanged
            self.col = self.page_mode_col if self.col >= 127 else self.col + 1

    # ---- commands ----------------------------------------------------------------------------

    def _command_byte(self, b):
        if self._need:
            self._args.append(b)
            self._need -= 1
            if not self._need:
                self._execute(self._cmd, self._args)
            return
        table = _SH1106_ARGS if self.sh1106 else _SSD1306_ARGS
        need = table.get(b, 0)
        if need:
            self._cmd, self._args, self._need = b, [], need
        else:
            self._execute(b, [])

    def _execute(self, c, a):
        self.log.append(tuple([c] + list(a)))
        sh = self.sh1106
        if c <= 0x0F:
            self.page_mode_col = (self.page_mode_col & 0xF0) | c
            if sh or self.mode == _PAGE:
                self.col = (self.col & 0xF0) | c
        elif c <= 0x1F:
            self.page_mode_col = (self.page_mode_col & 0x0F) | ((c & 0x0F) << 4)
            if sh or self.mode == _PAGE:
                self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)
        elif sh and 0x30 <= c <= 0x33:
            self.pump_voltage = c & 3
        elif 0x40 <= c <= 0x7F:
            self.start_line = c & 0x3F
        elif 0xB0 <= c <= 0xB7:
            if sh or self.mode == _PAGE:
                self.page = c & 7
        elif c == 0x81:
            self.contrast = a[0]
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xA4, 0xA5):
            self.entire_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.inverted = c == 0xA7
        elif c == 0xA8:
            if a[0] & 0x3F >= 15:
                self.mux = (a[0] & 0x3F) + 1
        elif c in (0xAE, 0xAF):
            self.display_on = c == 0xAF
        elif c in (0xC0, 0xC8):
            self.com_reverse = c == 0xC8
        elif c == 0xD3:
            self.offset = a[0] & 0x3F
        elif c == 0xD5:
            self.clock = a[0]
        elif c == 0xD9:
            self.precharge = a[0]
        elif c == 0xDA:
            self.com_pins = a[0]
        elif c == 0xDB:
            self.vcomh = a[0]
        elif c == 0xE3:
            pass  # NOP
        elif sh and c == 0xAD:
            self.dcdc = a[0] & 1 == 1
        elif sh and c in (0xE0, 0xEE):
            pass  # read-modify-write start/end: no effect on writes
        elif sh:
            self.unknown.append(c)
        elif c == 0x20:
            if a[0] & 3 != 3:
                self.mode = a[0] & 3
        elif c == 0x21:
            self.col_start, self.col_end = a[0] & 0x7F, a[1] & 0x7F
            if self.mode != _PAGE:
                self.col = self.col_start
        elif c == 0x22:
            self.page_start, self.page_end = a[0] & 7, a[1] & 7
            if self.mode != _PAGE:
                self.page = self.page_start
        elif c == 0x8D:
            self.charge_pump = a[0] & 0x04 == 0x04
        elif c in (0x26, 0x27, 0x29, 0x2A):
            self.scroll = (c, tuple(a))
        elif c == 0xA3:
            self.vscroll_area = (a[0] & 0x3F, a[1] & 0x7F)
        elif c == 0x2F:
            self.scroll_active = True
        elif c == 0x2E:
            self.scroll_active = False
        elif c == 0xAD:
            pass  # SSD1306B internal IREF selection
        else:
            self.unknown.append(c)

    # ---- what the glass shows ----------------------------------------------------------------

    @property
    def lit(self):
        """True when the panel emits light at all (on, and its supply pump running)."""
        return self.display_on and (self.dcdc if self.sh1106 else self.charge_pump)

    def _row_source(self, r):
        """RAM row (0..63) shown on glass row r, or None when that COM line is not scanned."""
        p = 63 - r  # the module's glass is wired bottom-up; 0xC8 makes it upright
        alt, lr = self.com_pins & 0x10, self.com_pins & 0x20
        if alt:
            com = (p + 32) % 64 if lr else p
        else:
            com = p // 2 + (32 if (p & 1) != bool(lr) else 0)
        if com >= self.mux:
            return None
        k = self.mux - 1 - com if self.com_reverse else com
        return (k + self.start_line + self.offset) % 64

    def _col_source(self, x):
        """RAM column (by segment on the SSD1306) shown on glass column x."""
        seg = 127 + self._visible0 - x
        return self.ram_width - 1 - seg if self.seg_remap and self.sh1106 else seg

    def pixels(self):
        """64 rows x 128 columns of 0/1: what a person sees on the panel (from ``reader``'s seat)."""
        out = self._glass()
        if self.reader:
            out = [row[::-1] for row in reversed(out)]
        return out

    def _glass(self):
        if not self.lit:
            return [[0] * 128 for _ in range(64)]
        if self.entire_on:
            return [[1] * 128 for _ in range(64)]
        inv = 1 if self.inverted else 0
        cols = [self._col_source(x) for x in range(128)]
        ram, rw = self.ram, self.ram_width
        out = []
        for r in range(64):
            src = self._row_source(r)
            if src is None:
                out.append([inv] * 128)
                continue
            base, bit = (src >> 3) * rw, src & 7
            out.append([((ram[base + c] >> bit) & 1) ^ inv for c in cols])
        return out

    def pixel(self, x, y):
        """One visible pixel (0/1)."""
        return self.pixels()[y][x]

    def frame_bytes(self):
        """The visible image as 1024 MONO_VLSB bytes, comparable with a 128x64 FrameBuffer."""
        px = self.pixels()
        out = bytearray(1024)
        for y in range(64):
            row, base, bit = px[y], (y >> 3) * 128, 1 << (y & 7)
            for x in range(128):
                if row[x]:
                    out[base + x] |= bit
        return bytes(out)

    def find(self, pattern_rows):
        """All (x, y) where the bitmap pattern_rows (rows of 0/1) matches the panel exactly."""
        px = self.pixels()
        h, w = len(pattern_rows), len(pattern_rows[0])
        pat = [list(r) for r in pattern_rows]
        hits = []
        for y in range(64 - h + 1):
            for x in range(128 - w + 1):
                if all(px[y + j][x:x + w] == pat[j] for j in range(h)):
                    hits.append((x, y))
        return hits

    def to_text(self):
        """32 lines of 128 half-block characters (2 pixel rows per character)."""
        px = self.pixels()
        chars = (" ", "\u2580", "\u2584", "\u2588")
        lines = []
        for y in range(0, 64, 2):
            top, bottom = px[y], px[y + 1]
            lines.append("".join(chars[top[x] | (bottom[x] << 1)] for x in range(128)))
        return "\n".join(lines)

    def to_png(self, path, scale=4, gap=True):
        """Save the panel as a PNG: blue-white pixels on near-black, with a dot-gap look."""
        from PIL import Image, ImageDraw  # Pillow only when pictures are wanted

        on, off = (0x9F, 0xD8, 0xFF), (0x0B, 0x0D, 0x12)
        img = Image.new("RGB", (128 * scale, 64 * scale), off)
        draw = ImageDraw.Draw(img)
        inset = 1 if gap and scale >= 3 else 0
        for y, row in enumerate(self.pixels()):
            for x, v in enumerate(row):
                if v:
                    x0, y0 = x * scale, y * scale
                    draw.rectangle((x0, y0, x0 + scale - 1 - inset, y0 + scale - 1 - inset), fill=on)
        img.save(path)
        return path
