"""QR codes (ISO/IEC 18004), so that a phone's camera joins the Wi-Fi and opens the page: nobody
types a password or an address at the table.

What it makes, and why no more: byte mode (a Wi-Fi string or an address, UTF-8), error
correction level M when it fits in the version that L needs, else L (an OLED's glass is clean
and flat: Q and H would only make the modules smaller), versions 1 to 9: every symbol whose
4-module quiet zone still fits the panel's 64 rows at one pixel a module (53 + 8 = 61). Version
9 at L holds 230 bytes, so every network a Pico W can make (an SSID of 32 bytes, a WPA password
of 63, every character escaped) has its code.

RAM: the work is done in buffers made once at import: the modules, one byte each (2.8 KB for
version 9), the codewords before and after interleaving, a 512-entry count, and GF(256)'s two
256-byte log and exp tables. A finished ``Symbol`` keeps only its modules as bits (165 bytes at
version 4). The module comes with the joining screens and goes with them (``ui/join.py``).

Speed (a Pico runs Python 50-100 times slower than the host): the fixed patterns are drawn with
``framebuf``'s rectangles over the module buffer (a GS8 frame, one byte a module), and the
eight masks are scored together. Once the data is placed, each module's byte holds its colour
under each mask (bit k: mask k), so one pass along the rows and one along the columns score all
eight with byte-wide logic (``penalties``), where a mask at a time would take eight.

The mask is the standard's choice: the lowest penalty of the eight. Any mask decodes; the
penalty keeps away what misleads a scanner (false finder patterns, wide blank or dark areas),
which matters more on a small glowing symbol than on paper.

``draw`` puts a symbol on the panel as scanners want it: dark modules on a light ground. On an
OLED the lit pixels are the light ones, so the code is drawn inverted: the quiet zone and the
light modules lit, the dark modules off (docs/design-notes.md says why not the other way round).
"""

import framebuf
from micropython import const

_MAX_SIZE = const(53)  # version 9: 17 + 4 * 9 modules a side
_QUIET = const(4)  # modules of light margin the standard asks for on each side
_LIGHT = const(2)  # a function pattern's module while the data is placed (bit 1), light ...
_DARK = const(3)  # ... or dark
L = "L"
M = "M"

# Codewords of each version (ISO/IEC 18004 table 1), versions 1-9.
_TOTAL = (26, 44, 70, 100, 134, 172, 196, 242, 292)
# Error correction per version (table 9): codewords per block and blocks, for L then for M.
_EC = ((7, 1, 10, 1), (10, 1, 16, 1), (15, 1, 26, 1), (20, 1, 18, 2), (26, 1, 24, 2),
       (18, 2, 16, 4), (20, 2, 18, 4), (24, 2, 22, 4), (30, 2, 22, 5))

# GF(256) with the standard's polynomial x^8 + x^4 + x^3 + x^2 + 1: powers of 2 and their logs.
_EXP = bytearray(256)
_LOG = bytearray(256)
_v = 1
for _i in range(255):
    _EXP[_i] = _v
    _LOG[_v] = _i
    _v <<= 1
    if _v & 0x100:
        _v ^= 0x11D
_EXP[255] = 1

# The eight mask patterns, one bit each (bit k: mask k turns the module over), for a row i and a
# column j. Each pattern repeats every 12 rows and 6 columns, so 72 bytes hold all of them.
_PAT = bytearray(72)
for _i in range(12):
    for _j in range(6):
        _p = _i * _j
        _PAT[_i * 6 + _j] = (
            ((_i + _j) % 2 == 0) | (_i % 2 == 0) << 1 | (_j % 3 == 0) << 2
            | ((_i + _j) % 3 == 0) << 3 | ((_i // 2 + _j // 3) % 2 == 0) << 4
            | (_p % 2 + _p % 3 == 0) << 5 | ((_p % 2 + _p % 3) % 2 == 0) << 6
            | (((_i + _j) % 2 + _p % 3) % 2 == 0) << 7)
del _i, _j, _p, _v

_m = bytearray(_MAX_SIZE * _MAX_SIZE)  # the symbol being made, row by row
_cw = bytearray(_TOTAL[-1])  # data codewords block after block, then each block's EC
_out = bytearray(_TOTAL[-1] + 1)  # the same, interleaved as they are placed, and a zero
_gen = bytearray(30)  # logs of the generator's coefficients after the leading 1
_rem = bytearray(31)  # a block's remainder while it is divided (and the generator, made)
_degree = 0  # the generator's degree in ``_gen``
_h = [0] * 512  # the masks' penalty events (0-255) and dark modules (256-511) by lanes
_pal = bytearray(256)  # a palette: module byte -> its colour under the chosen mask
_INVERT = framebuf.FrameBuffer(bytearray((1, 0)), 2, 1, framebuf.GS8)  # dark -> off


class Symbol:
    """A finished code: ``size`` modules a side (without the quiet zone), ``version``, ``level``
    (L or M) and ``mask``; ``fb`` its modules (MONO_HLSB, 1 dark), ``dark(x, y)`` one of them,
    (0, 0) at the top left."""

    def __init__(self, version, level, mask):
        self.version = version
        self.level = level
        self.mask = mask
        self.size = size = 17 + 4 * version
        self.fb = framebuf.FrameBuffer(bytearray(size * ((size + 7) >> 3)), size, size,
                                       framebuf.MONO_HLSB)
        for c in range(256):
            _pal[c] = c >> mask & 1
        self.fb.blit(_frame(size), 0, 0, -1, framebuf.FrameBuffer(_pal, 256, 1, framebuf.GS8))

    def dark(self, x, y):
        return self.fb.pixel(x, y)


def _frame(size):
    return framebuf.FrameBuffer(_m, size, size, framebuf.GS8)


def capacity(version, level):
    """Bytes of data a symbol of ``version`` and ``level`` holds (the 12 bits of mode and count
    and the 4-bit terminator take two codewords)."""
    ec, blocks = _ec(version, level)
    return _TOTAL[version - 1] - ec * blocks - 2


def _ec(version, level):
    row = _EC[version - 1]
    return (row[0], row[1]) if level == L else (row[2], row[3])


def encode(data, mask=None, least=1):
    """The symbol of ``data`` (str, taken as UTF-8, or bytes): the smallest version from
    ``least`` that holds it, level M if that version holds it at M; the mask of the lowest
    penalty, or ``mask`` (0-7). ValueError when version 9 cannot hold it."""
    if isinstance(data, str):
        data = data.encode()
    n = len(data)
    version = least
    while capacity(version, L) < n:
        version += 1
        if version > 9:
            raise ValueError("too long for a code")
    level = M if capacity(version, M) >= n else L
    ec, blocks = _ec(version, level)
    _data_codewords(data, _TOTAL[version - 1] - ec * blocks)
    _error_correction(version, ec, blocks)
    size = 17 + 4 * version
    fb = _frame(size)
    fb.fill(0)
    _patterns(fb, version, _LIGHT, _DARK)  # the places taken
    _place(size)
    _patterns(fb, version, 0, 0xFF)  # the same under every mask
    _format(size, level)
    if mask is None:
        scores = penalties(_m, size)
        mask = 0
        for k in range(1, 8):
            if scores[k] < scores[mask]:
                mask = k
    return Symbol(version, level, mask)


def _data_codewords(data, count):
    """Byte mode into ``_cw``: mode 0100, the 8-bit count, the bytes, the terminator 0000,
    then the pad codewords 0xEC and 0x11 in turn up to ``count``. The 12-bit header puts every
    byte across two codewords, half in each."""
    c = _cw
    n = len(data)
    c[0] = 0x40 | n >> 4
    low = n & 15
    for i in range(n):
        b = data[i]
        c[i + 1] = low << 4 | b >> 4
        low = b & 15
    c[n + 1] = low << 4  # and the terminator's four zero bits
    pad = 0xEC
    for i in range(n + 2, count):
        c[i] = pad
        pad ^= 0xEC ^ 0x11


def _error_correction(version, ec, blocks):
    """Each block's EC codewords after the data in ``_cw``, then everything interleaved into
    ``_out``: the blocks' first codewords, their second ones, ..., then the same for the EC,
    then a zero for the remainder bits. The last ``total % blocks`` blocks hold one data codeword more."""
    total = _TOTAL[version - 1]
    data = total - ec * blocks
    short = total // blocks - ec
    first_long = blocks - total % blocks
    for b in range(blocks):
        start = b * short + (b - first_long if b > first_long else 0)
        remainder(_cw, start, short + (b >= first_long), _cw, data + b * ec, ec)
    k = 0
    for i in range(short + 1):
        for b in range(blocks):
            if i < short or b >= first_long:
                _out[k] = _cw[b * short + (b - first_long if b > first_long else 0) + i]
                k += 1
    for i in range(ec):
        for b in range(blocks):
            _out[k] = _cw[data + b * ec + i]
            k += 1
    _out[k] = 0  # the remainder bits after the last codeword


def _generator(n):
    """The Reed-Solomon generator of degree ``n``, (x - 2^0) ... (x - 2^(n-1)), into ``_gen``
    as the logs of its coefficients after the leading 1 (none of them is 0: a logic test
    checks every degree the tables use)."""
    global _degree
    g = _rem  # the coefficients while they are multiplied out, leading term first
    g[0] = 1
    for i in range(1, n + 1):
        g[i] = 0
    for i in range(n):  # times (x + 2^i): subtraction is addition (XOR) in GF(256)
        for j in range(i + 1, 0, -1):
            if g[j - 1]:
                g[j] ^= _EXP[(_LOG[g[j - 1]] + i) % 255]
    for j in range(n):
        _gen[j] = _LOG[g[j + 1]]
    _degree = n


def remainder(src, start, count, dst, at, n):
    """The ``n`` EC codewords of ``src[start:start + count]`` into ``dst[at:at + n]``: the
    remainder of the data polynomial times x^n divided by the generator, a codeword at a time
    (the remainder moves up one place and takes the generator times what fell off its top)."""
    if _degree != n:
        _generator(n)
    r, g, exp = _rem, _gen, _EXP
    for j in range(n):
        r[j] = 0
    last = n - 1
    for i in range(start, start + count):
        f = src[i] ^ r[0]
        if f:
            f = _LOG[f]
            for j in range(last):
                r[j] = r[j + 1] ^ exp[(g[j] + f) % 255]
            r[last] = exp[(g[last] + f) % 255]
        else:
            for j in range(last):
                r[j] = r[j + 1]
            r[last] = 0
    for j in range(n):
        dst[at + j] = r[j]


def _patterns(fb, version, light, dark):
    """The function patterns in ``light`` and ``dark``: the timing lines, the alignment
    patterns, the three finders with their light separators, the dark module, the version
    information (from version 7) and the format information's place (its bits come with the
    level). Drawn twice: first to take the places, then in the colours every mask leaves."""
    size = 17 + 4 * version
    _format(size, None, light)
    fb.hline(0, 6, size, light)
    fb.vline(6, 0, size, light)
    for i in range(0, size, 2):
        fb.pixel(i, 6, dark)
        fb.pixel(6, i, dark)
    last = size - 7
    if version > 1:
        centres = (6, (6 + last) // 2, last) if version >= 7 else (6, last)
        for cy in centres:
            for cx in centres:
                if not (cx == 6 and (cy == 6 or cy == last) or cx == last and cy == 6):
                    fb.fill_rect(cx - 2, cy - 2, 5, 5, dark)
                    fb.rect(cx - 1, cy - 1, 3, 3, light)
    for x, y in ((0, 0), (size - 7, 0), (0, size - 7)):
        fb.fill_rect(x - 1, y - 1, 9, 9, light)
        fb.fill_rect(x, y, 7, 7, dark)
        fb.rect(x + 1, y + 1, 5, 5, light)
    fb.pixel(8, size - 8, dark)
    if version >= 7:
        bits = version_bits(version)
        for i in range(18):  # a 6x3 block above the bottom left finder, its mirror at the right
            a, b = size - 11 + i % 3, i // 3
            c = dark if bits >> i & 1 else light
            fb.pixel(b, a, c)
            fb.pixel(a, b, c)


def _place(size):
    """The interleaved codewords into the modules no pattern holds, most significant bit
    first: two columns at a time from the right, up then down, passing the timing column; the
    few modules left over are remainder bits (light: the zero after the last codeword). Each
    goes in as its colour under each of the eight masks (bit k: mask k turns it over where its
    pattern says)."""
    m, out, pats = _m, _out, _PAT
    i = 0
    right = size - 1
    while right > 0:
        if right == 6:
            right = 5
        up = (right + 1) & 2 == 0
        for v in range(size):
            y = size - 1 - v if up else v
            k = y * size + right
            pat = (y % 12) * 6
            j = right % 6
            for _ in range(2):
                if not m[k] & 2:
                    m[k] = pats[pat + j] ^ (0xFF if out[i >> 3] << (i & 7) & 0x80 else 0)
                    i += 1
                k -= 1
                j = j - 1 if j else 5
        right -= 2


def format_bits(level, mask):
    """The 15 format bits of ``level`` and ``mask``: 5 data bits (L 01, M 00; the mask), 10 of
    the BCH(15, 5) code of generator 0x537, the whole XORed with 0x5412."""
    data = (1 if level == L else 0) << 3 | mask
    rem = data << 10
    for i in range(14, 9, -1):
        if rem >> i & 1:
            rem ^= 0x537 << (i - 10)
    return (data << 10 | rem) ^ 0x5412


def version_bits(version):
    """The 18 version bits: 6 of the version, 12 of the BCH(18, 6) code of generator 0x1F25."""
    rem = version << 12
    for i in range(17, 11, -1):
        if rem >> i & 1:
            rem ^= 0x1F25 << (i - 12)
    return version << 12 | rem


def _format(size, level, light=0):
    """Both copies of the format bits, each module's byte holding its bit under each mask (bit
    k: mask k); with ``level`` None their places, in ``light``. Beside the top left finder: bits
    0-7 down column 8, bits 8-14 leftwards along row 8 (each passing the timing line). The
    other copy: bits 0-7 leftwards from the end of row 8, bits 8-14 down column 8 to the
    bottom, under the dark module."""
    words = [format_bits(level, k) for k in range(8)] if level else None
    for i in range(15):
        v = light
        if words:
            v = 0
            for k in range(8):
                v |= (words[k] >> i & 1) << k
        if i < 8:
            _m[(i if i < 6 else i + 1) * size + 8] = v
            _m[9 * size - 1 - i] = v  # row 8, column size - 1 - i
        else:
            _m[8 * size + (14 - i if i > 8 else 7)] = v
            _m[(size - 15 + i) * size + 8] = v


def penalties(m, size):
    """The standard's penalty of the symbol in ``m`` under each mask: a list of 8, where bit k
    of a module's byte is its colour (1 dark) under mask k. The rules: runs of five or more of
    one colour in a row or column (3, plus 1 per module past five), 2x2 blocks of one colour
    (3 each), a finder-like 1:1:3:1:1 line with four light modules on a side (40 for each side;
    the quiet zone around the symbol is light), and 10 for each 5 % step the share of dark
    modules strays from 50 % (a share on a step costs the smaller: 45 % and 55 % cost 0, 44 %
    costs 10). The passes count events by the set of masks they happen under (``_h``), and
    each count then goes to its masks."""
    h = _h
    for i in range(512):
        h[i] = 0
    for y in range(size):
        _line(m, y * size, 1, size, -size if y else 0)
    for x in range(size):
        _line(m, x, size, size, None)
    scores = [0] * 8
    dark = [0] * 8
    for v in range(1, 256):
        events, modules = h[v], h[256 + v]
        if events or modules:
            for k in range(8):
                if v >> k & 1:
                    scores[k] += events
                    dark[k] += modules
    total = size * size
    for k in range(8):
        off = abs(20 * dark[k] - 10 * total)  # how far from half, in 5 % steps times ``total``
        if off:
            scores[k] += 10 * ((off - 1) // total)
    return scores


def _line(m, i, step, count, up):
    """Count one row (``step`` 1) or column (``step`` the size) into ``_h``, all masks at once:
    each value is a byte of lanes, bit k for mask k. ``d``, ``d1``, ... are the differences
    between each module and the one before it, newest first. A row also counts its dark
    modules and the 2x2 blocks it closes with the row above (``up``: that row's offset; 0 on
    the first row, which closes none); ``up`` is None for a column."""
    h = _h
    p = ~m[i] & 0xFF  # the first module starts a run
    d1 = d2 = d3 = d4 = d5 = v2 = 0xFF
    for t in range(count):
        v = m[i]
        d = v ^ p
        e = ~(d | d1 | d2 | d3) & 0xFF  # five modules of one colour end here: 1 ...
        if e:
            h[e] += 1
            e &= d4
            if e:
                h[e] += 2  # ... and 2 more where such a run begins: 3 + (n - 5) for a run of n
        c = v & d & d1 & ~d2 & ~d3 & d4 & d5  # 1011101 ends here
        if c and t >= 6:
            _finder(m, i, step, count - 1 - t, t - 6, c)
        if up is not None:
            h[256 + v] += 1
            v1 = v ^ m[i + up] if up else 0xFF
            e = ~(d | v1 | v2) & 0xFF  # the 2x2 block ending here is one colour
            if e:
                h[e] += 3
            v2 = v1
        d5 = d4
        d4 = d3
        d3 = d2
        d2 = d1
        d1 = d
        p = v
        i += step


def _finder(m, i, step, after, before, lanes):
    """A 1011101 ending at ``i`` under ``lanes``: 40 where the four modules after it are light,
    40 where the four before it are; ``after`` and ``before`` modules of the line lie beyond
    the pattern on each side, the quiet zone (light) past them."""
    dark = 0
    for k in range(1, min(after, 4) + 1):
        dark |= m[i + k * step]
    _h[lanes & ~dark & 0xFF] += 40
    dark = 0
    for k in range(7, 7 + min(before, 4)):
        dark |= m[i - k * step]
    _h[lanes & ~dark & 0xFF] += 40


def scale(symbol, height):
    """The most pixels a module can take for the symbol and its quiet zone to fit ``height``."""
    return height // (symbol.size + 2 * _QUIET)


def draw(fb, symbol, x, y, px):
    """Draw ``symbol`` with its quiet zone at (x, y), ``px`` pixels a module, inverted for the
    OLED (lit ground, dark modules off); return its side in pixels."""
    size = symbol.size
    side = (size + 2 * _QUIET) * px
    fb.fill_rect(x, y, side, side, 1)
    x += _QUIET * px
    y += _QUIET * px
    if px == 1:
        fb.blit(symbol.fb, x, y, -1, _INVERT)
        return side
    for r in range(size):
        for c in range(size):
            if symbol.dark(c, r):
                fb.fill_rect(x + c * px, y + r * px, px, px, 0)
    return side
