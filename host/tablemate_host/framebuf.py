"""A pure-Python ``framebuf`` that draws the same bytes as MicroPython's C module.

Why: screens are rendered on the host (tests, simulator, README images) with this module and on
the Pico with the real one; both must agree bit for bit, or a test on the host proves nothing
about the device. So every primitive here follows ``extmod/modframebuf.c`` (MicroPython 1.27)
statement by statement: the clipping in ``fill_rect``, the Bresenham ``line`` that always plots
the end point, the two-region midpoint ``ellipse`` with its quadrant mask, the scan-line ``poly``
fill with C's truncating division, ``blit`` looking the colour up in the palette *before*
comparing it with the key, ``scroll`` leaving uncovered pixels as they were, and ``text`` with
the built-in 8x8 font (its bytes were read back from the real module).
``tests/host/test_framebuf_vs_micropython.py`` checks this against the real module running in
the MicroPython WebAssembly VM.

Like the C type, methods take positional arguments only, and the pixel buffer stays with the
object the caller passed in (``bytes(fb)`` and the buffer protocol are not offered, so code that
relies on them fails here too, instead of on the device).
"""

import operator

MONO_VLSB = 0
MONO_HLSB = 3
MONO_HMSB = 4
RGB565 = 1
GS2_HMSB = 5
GS4_HMSB = 2
GS8 = 6
MVLSB = MONO_VLSB  # the C module's historic alias

_ELLIPSE_FILL = 0x10
_ELLIPSE_ALL = 0x0F
_U32 = 0xFFFFFFFF

# MicroPython's built-in 8x8 font (font_petme128_8x8.h, characters 32-127, one byte per column,
# LSB at the top), read back from the real module in the WebAssembly VM.
_FONT = bytes.fromhex(
    "00000000000000000000004f4f0000000007070000070700147f7f14147f7f1400242e6b6b3a1200006333180c666300"
    "00327f4d4d777250000000040603010000001c3e63410000000041633e1c0000082a3e1c1c3e2a080008083e3e080800"
    "000080e0600000000008080808080800000000606000000000406030180c0602003e7f49457f3e000040447f7f404000"
    "00627351494f460000226349497f360000181814167f7f1000276745457d3900003e7f49497b3200000303797d070300"
    "00367f49497f360000266f49497f3e000000002424000000000080e46400000000081c36634141000014141414141400"
    "00414163361c080000020351590f0600003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600003e7f4141632200"
    "007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00007f7f08087f7f000000417f7f410000"
    "002060417f3f0100007f7f1c36634100007f7f4040404000007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00"
    "007f7f09090f0600001e3f21617f5e00007f7f19396f460000266f49497b32000001017f7f010100003f7f40407f3f00"
    "001f3f60603f1f00007f7f3018307f7f0063771c1c77630000070f78780f0700006171594d47430000007f7f41410000"
    "0002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c0000001030604000000207454547c7800"
    "007f7f44447c380000387c44446c280000387c44447f7f0000387c54545c580000087e7f090302000098bca4a4fc7c00"
    "007f7f04047c78000000007d7d0000000040c08080fd7d00007f7f30386c44000000417f7f400000007c7c1830187c7c"
    "007c7c04047c780000387c44447c380000fcfc24243c180000183c2424fcfc00007c7c04040c080000485c5454742000"
    "04043f7f44642000003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c00446c38386c4400009cbca0a0fc7c00"
    "004464745c4c44000008083e77414100000000ffff000000004141773e0808000002030103020301aa55aa55aa55aa55"
)

_int = operator.index  # like mp_obj_get_int: ints and bools pass, floats raise TypeError


def _cdiv(a, b):
    """C integer division (truncates toward zero), as modframebuf.c's poly fill uses."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class _Raw:
    """Geometry and pixel access of one buffer; shared by FrameBuffer and tuple blit sources."""

    __slots__ = ("mv", "width", "height", "stride", "format", "set", "get")

    def __init__(self, buffer, width, height, fmt, stride, writable):
        width, height, fmt = _int(width), _int(height), _int(fmt)
        stride = width if stride is None else _int(stride)
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF or stride > 0xFFFF or stride < width:
            raise ValueError()
        bpp = 1
        height_required = height
        width_required = width
        strides_required = height - 1
        if fmt == MONO_VLSB:
            height_required = (height + 7) & ~7
            strides_required = height_required - 8
        elif fmt in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
            width_required = (width + 7) & ~7
        elif fmt == GS2_HMSB:
            stride = (stride + 3) & ~3
            width_required = (width + 3) & ~3
            bpp = 2
        elif fmt == GS4_HMSB:
            stride = (stride + 1) & ~1
            width_required = (width + 1) & ~1
            bpp = 4
        elif fmt == GS8:
            bpp = 8
        elif fmt == RGB565:
            bpp = 16
        else:
            raise ValueError("invalid format")
        mv = memoryview(buffer)
        if writable and mv.readonly:
            raise TypeError("object with buffer protocol required")
        mv = mv.cast("B") if mv.format != "B" or mv.ndim != 1 else mv
        if (strides_required * stride + (height_required - strides_required) * width_required) * bpp // 8 > len(mv):
            raise ValueError()
        self.mv = mv
        self.width = width
        self.height = height
        self.stride = stride
        self.format = fmt
        self.set, self.get = _PIXEL[fmt]


# Per-format pixel access, written like the C functions (x, y already known to be in range).

def _mvlsb_set(r, x, y, col):
    i = (y >> 3) * r.stride + x
    off = y & 7
    r.mv[i] = (r.mv[i] & ~(1 << off) & 0xFF) | ((col != 0) << off)


def _mvlsb_get(r, x, y):
    return (r.mv[(y >> 3) * r.stride + x] >> (y & 7)) & 1


def _mono_h_set(r, x, y, col):
    i = (x + y * r.stride) >> 3
    off = (x & 7) if r.format == MONO_HMSB else 7 - (x & 7)
    r.mv[i] = (r.mv[i] & ~(1 << off) & 0xFF) | ((col != 0) << off)


def _mono_h_get(r, x, y):
    off = (x & 7) if r.format == MONO_HMSB else 7 - (x & 7)
    return (r.mv[(x + y * r.stride) >> 3] >> off) & 1


def _rgb565_set(r, x, y, col):
    i = (x + y * r.stride) * 2
    r.mv[i] = col & 0xFF
    r.mv[i + 1] = (col >> 8) & 0xFF


def _rgb565_get(r, x, y):
    i = (x + y * r.stride) * 2
    return r.mv[i] | (r.mv[i + 1] << 8)


def _gs2_set(r, x, y, col):
    i = (x + y * r.stride) >> 2
    shift = (x & 3) << 1
    r.mv[i] = ((col & 3) << shift) | (r.mv[i] & ~(3 << shift) & 0xFF)


def _gs2_get(r, x, y):
    return (r.mv[(x + y * r.stride) >> 2] >> ((x & 3) << 1)) & 3


def _gs4_set(r, x, y, col):
    i = (x + y * r.stride) >> 1
    if x % 2:
        r.mv[i] = (col & 0x0F) | (r.mv[i] & 0xF0)
    else:
        r.mv[i] = ((col << 4) & 0xF0) | (r.mv[i] & 0x0F)


def _gs4_get(r, x, y):
    b = r.mv[(x + y * r.stride) >> 1]
    return b & 0x0F if x % 2 else b >> 4


def _gs8_set(r, x, y, col):
    r.mv[x + y * r.stride] = col & 0xFF


def _gs8_get(r, x, y):
    return r.mv[x + y * r.stride]


_PIXEL = {
    MONO_VLSB: (_mvlsb_set, _mvlsb_get),
    MONO_HLSB: (_mono_h_set, _mono_h_get),
    MONO_HMSB: (_mono_h_set, _mono_h_get),
    RGB565: (_rgb565_set, _rgb565_get),
    GS2_HMSB: (_gs2_set, _gs2_get),
    GS4_HMSB: (_gs4_set, _gs4_get),
    GS8: (_gs8_set, _gs8_get),
}


def _fill_rect_raw(r, x, y, w, h, col):
    """The unclipped per-format fill; MONO_VLSB gets a byte-wise fast path (same result)."""
    col &= _U32
    if r.format == MONO_VLSB:
        mv, stride = r.mv, r.stride
        for yy in range(y, y + h):
            bit = 1 << (yy & 7)
            base = (yy >> 3) * stride
            if col:
                for i in range(base + x, base + x + w):
                    mv[i] |= bit
            else:
                keep = ~bit & 0xFF
                for i in range(base + x, base + x + w):
                    mv[i] &= keep
        return
    setp = r.set
    for yy in range(y, y + h):
        for xx in range(x, x + w):
            setp(r, xx, yy, col)


def _fill_rect(r, x, y, w, h, col):
    if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= r.height or x >= r.width:
        return
    xend = min(r.width, x + w)
    yend = min(r.height, y + h)
    x = max(x, 0)
    y = max(y, 0)
    _fill_rect_raw(r, x, y, xend - x, yend - y, col)


def _setpixel_checked(r, x, y, col, mask):
    if mask and 0 <= x < r.width and 0 <= y < r.height:
        r.set(r, x, y, col & _U32)


def _line(r, x1, y1, x2, y2, col):
    col &= _U32
    w, h, setp = r.width, r.height, r.set
    dx = x2 - x1
    if dx > 0:
        sx = 1
    else:
        dx = -dx
        sx = -1
    dy = y2 - y1
    if dy > 0:
        sy = 1
    else:
        dy = -dy
        sy = -1
    steep = dy > dx
    if steep:
        x1, y1 = y1, x1
        dx, dy = dy, dx
        sx, sy = sy, sx
    e = 2 * dy - dx
    for _ in range(dx):
        if steep:
            if 0 <= y1 < w and 0 <= x1 < h:
                setp(r, y1, x1, col)
        elif 0 <= x1 < w and 0 <= y1 < h:
            setp(r, x1, y1, col)
        while e >= 0:
            y1 += sy
            e -= 2 * dx
        x1 += sx
        e += 2 * dy
    if 0 <= x2 < w and 0 <= y2 < h:
        setp(r, x2, y2, col)


def _ellipse_points(r, cx, cy, x, y, col, mask):
    if mask & _ELLIPSE_FILL:
        if mask & 1:
            _fill_rect(r, cx, cy - y, x + 1, 1, col)
        if mask & 2:
            _fill_rect(r, cx - x, cy - y, x + 1, 1, col)
        if mask & 4:
            _fill_rect(r, cx - x, cy + y, x + 1, 1, col)
        if mask & 8:
            _fill_rect(r, cx, cy + y, x + 1, 1, col)
    else:
        _setpixel_checked(r, cx + x, cy - y, col, mask & 1)
        _setpixel_checked(r, cx - x, cy - y, col, mask & 2)
        _setpixel_checked(r, cx - x, cy + y, col, mask & 4)
        _setpixel_checked(r, cx + x, cy + y, col, mask & 8)


def _source(obj, writable=False):
    """A blit source or palette: a FrameBuffer, or a (buffer, w, h, format[, stride]) tuple/list."""
    if isinstance(obj, FrameBuffer):
        return obj._fb_raw
    if not isinstance(obj, (tuple, list)):
        raise TypeError("object '%s' isn't a tuple or list" % type(obj).__name__)
    if len(obj) < 4 or len(obj) > 5:
        raise ValueError()
    return _Raw(obj[0], obj[1], obj[2], obj[3], obj[4] if len(obj) == 5 else None, writable)


class FrameBuffer:
    """``framebuf.FrameBuffer(buffer, width, height, format[, stride])``; subclassable."""

    def __init__(self, buffer, width, height, format, stride=None, /):
        self._fb_raw = _Raw(buffer, width, height, format, stride, True)

    def fill(self, c, /):
        """Fill the whole buffer with colour c."""
        r = self._fb_raw
        _fill_rect_raw(r, 0, 0, r.width, r.height, _int(c))

    def fill_rect(self, x, y, w, h, c, /):
        """Fill a rectangle, clipped to the buffer."""
        _fill_rect(self._fb_raw, _int(x), _int(y), _int(w), _int(h), _int(c))

    def pixel(self, x, y, c=None, /):
        """Get (2 args) or set (3 args) one pixel; out of range reads None and writes nothing."""
        r = self._fb_raw
        x, y = _int(x), _int(y)
        if 0 <= x < r.width and 0 <= y < r.height:
            if c is None:
                return r.get(r, x, y)
            r.set(r, x, y, _int(c) & _U32)
        return None

    def hline(self, x, y, w, c, /):
        """Horizontal line of w pixels."""
        _fill_rect(self._fb_raw, _int(x), _int(y), _int(w), 1, _int(c))

    def vline(self, x, y, h, c, /):
        """Vertical line of h pixels."""
        _fill_rect(self._fb_raw, _int(x), _int(y), 1, _int(h), _int(c))

    def rect(self, x, y, w, h, c, f=False, /):
        """Rectangle outline, or filled when f is true."""
        r = self._fb_raw
        x, y, w, h, c = _int(x), _int(y), _int(w), _int(h), _int(c)
        if f:
            _fill_rect(r, x, y, w, h, c)
        else:
            _fill_rect(r, x, y, w, 1, c)
            _fill_rect(r, x, y + h - 1, w, 1, c)
            _fill_rect(r, x, y, 1, h, c)
            _fill_rect(r, x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c, /):
        """Bresenham line including both end points."""
        _line(self._fb_raw, _int(x1), _int(y1), _int(x2), _int(y2), _int(c))

    def ellipse(self, x, y, xr, yr, c, f=False, m=_ELLIPSE_ALL, /):
        """Ellipse centred on (x, y); f fills; m masks quadrants (1 top-right, 2, 4, 8 counter-clockwise)."""
        r = self._fb_raw
        cx, cy, a, b, col = _int(x), _int(y), _int(xr), _int(yr), _int(c)
        mask = (_ELLIPSE_FILL if f else 0) | (_int(m) & _ELLIPSE_ALL)
        if a == 0 and b == 0:
            _setpixel_checked(r, cx, cy, col, mask & _ELLIPSE_ALL)
            return
        two_asq = 2 * a * a
        two_bsq = 2 * b * b
        x = a
        y = 0
        xchange = b * b * (1 - 2 * a)
        ychange = a * a
        err = 0
        stopx = two_bsq * a
        stopy = 0
        while stopx >= stopy:
            _ellipse_points(r, cx, cy, x, y, col, mask)
            y += 1
            stopy += two_asq
            err += ychange
            ychange += two_asq
            if 2 * err + xchange > 0:
                x -= 1
                stopx -= two_bsq
                err += xchange
                xchange += two_bsq
        x = 0
        y = b
        xchange = b * b
        ychange = a * a * (1 - 2 * b)
        err = 0
        stopx = 0
        stopy = two_asq * b
        while stopx <= stopy:
            _ellipse_points(r, cx, cy, x, y, col, mask)
            x += 1
            stopx += two_bsq
            err += xchange
            xchange += two_bsq
            if 2 * err + ychange > 0:
                y -= 1
                stopy -= two_asq
                err += ychange
                ychange += two_asq

    def poly(self, x, y, coords, c, f=False, /):
        """Closed polygon from an array of x, y pairs (buffer protocol, e.g. array('h')), at offset (x, y)."""
        r = self._fb_raw
        x, y = _int(x), _int(y)
        pts = memoryview(coords)
        if pts.ndim != 1:
            pts = pts.cast("B")
        n_poly = len(pts) // 2
        if n_poly == 0:
            return
        col = _int(c)
        if f:
            ys = [pts[i * 2 + 1] for i in range(n_poly)]
            for row in range(min(ys), max(ys) + 1):
                nodes = []
                px1, py1 = pts[0], pts[1]
                i = n_poly * 2 - 1
                while True:
                    py2 = pts[i]
                    px2 = pts[i - 1]
                    i -= 2
                    if py1 != py2 and ((py1 > row >= py2) or (py1 <= row < py2)):
                        node = _cdiv(32 * px1 + _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1) + 16, 32)
                        nodes.append(node)
                    elif row == max(py1, py2):
                        if py1 < py2:
                            _setpixel_checked(r, x + px2, y + py2, col, 1)
                        elif py2 < py1:
                            _setpixel_checked(r, x + px1, y + py1, col, 1)
                        else:
                            _line(r, x + px1, y + py1, x + px2, y + py2, col)
                    px1, py1 = px2, py2
                    if i < 0:
                        break
                if not nodes:
                    continue
                nodes.sort()  # the C bubble sort gives the same order for plain ints
                for k in range(0, len(nodes), 2):
                    _fill_rect(r, x + nodes[k], y + row, nodes[k + 1] - nodes[k] + 1, 1, col)
        else:
            px1, py1 = pts[0], pts[1]
            i = n_poly * 2 - 1
            while True:
                py2 = pts[i]
                px2 = pts[i - 1]
                i -= 2
                _line(r, x + px1, y + py1, x + px2, y + py2, col)
                px1, py1 = px2, py2
                if i < 0:
                    break

    def blit(self, fbuf, x, y, key=-1, palette=None, /):
        """Draw another buffer (FrameBuffer or tuple) at (x, y); colour == key is transparent.

        With a palette, each source colour is first mapped through the palette's row 0, and the
        key is compared with the mapped colour (as the C code does).
        """
        r = self._fb_raw
        src = _source(fbuf)
        x, y, key = _int(x), _int(y), _int(key) & _U32
        pal = None if palette is None else _source(palette)
        if x >= r.width or y >= r.height or -x >= src.width or -y >= src.height:
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(r.width, x + src.width)
        y0end = min(r.height, y + src.height)
        sget, setp = src.get, r.set
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = sget(src, cx1, y1)
                if pal is not None:
                    col = pal.get(pal, col, 0)
                if col != key:
                    setp(r, cx0, y0, col)
                cx1 += 1
            y1 += 1
            y0 += 1

    def scroll(self, xstep, ystep, /):
        """Shift the contents by (xstep, ystep); the uncovered area keeps its old pixels."""
        r = self._fb_raw
        xstep, ystep = _int(xstep), _int(ystep)
        if xstep < 0:
            sx = 0
            xend = r.width + xstep
            if xend <= 0:
                return
            dx = 1
        else:
            sx = r.width - 1
            xend = xstep - 1
            if xend >= sx:
                return
            dx = -1
        if ystep < 0:
            y = 0
            yend = r.height + ystep
            if yend <= 0:
                return
            dy = 1
        else:
            y = r.height - 1
            yend = ystep - 1
            if yend >= y:
                return
            dy = -1
        getp, setp = r.get, r.set
        while y != yend:
            xx = sx
            while xx != xend:
                setp(r, xx, y, getp(r, xx - xstep, y - ystep))
                xx += dx
            y += dy

    def text(self, s, x, y, c=1, /):
        """Draw s in the built-in 8x8 font (one glyph per UTF-8 byte, as the C loop does)."""
        r = self._fb_raw
        x0, y0, col = _int(x), _int(y), _int(c) & _U32
        if not isinstance(s, str):
            raise TypeError("can't convert '%s' object to str implicitly" % type(s).__name__)
        for ch in s.encode("utf-8"):
            if ch == 0:  # the C loop walks a NUL-terminated string
                break
            if ch < 32 or ch > 127:
                ch = 127
            base = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < r.width:
                    bits = _FONT[base + j]
                    yy = y0
                    while bits:
                        if bits & 1 and 0 <= yy < r.height:
                            r.set(r, x0, yy, col)
                        bits >>= 1
                        yy += 1
                x0 += 1


def FrameBuffer1(buffer, width, height, stride=None, /):
    """Legacy constructor for MONO_VLSB buffers, kept by the C module."""
    if stride is None:
        return FrameBuffer(buffer, width, height, MONO_VLSB)
    return FrameBuffer(buffer, width, height, MONO_VLSB, stride)
