"""Text in Tablemate's own bitmap fonts, drawn with framebuf.blit.

framebuf's built-in 8x8 font has no large digits and no symbols, so screens use the fonts in
ui/fonts.py (generated from tools/fonts/*.txt). Each glyph is blitted straight from the font's
bytes as a MONO_VLSB source, so the device and the CPython stand-in produce identical pixels.
Lit text (color=1) leaves the background alone; dark text (color=0) clears only the glyph's
pixels, for highlighted rows on a lit bar.

Every screen redraws its whole frame when it changes, so the same labels are drawn again and
again; on a Pico a glyph costs about 180 us of Python, a 20-character line 3.6 ms. So a string
is drawn glyph by glyph once, into bytes of its own, and later frames copy them onto the page
grid (``put``) or blit them (``draw``) in one C call (5-6 times faster). The cache is two
generations of at most ``_CACHE`` strings each: a string used in the last two generations stays,
the rest is dropped, so memory is bounded and a screen's labels survive a score that changes at
every press. The fixed labels of menus and views are rendered ahead and kept for good
(``prepare``).

Positions are pen positions: a glyph is drawn with its top-left corner at (x, y) and the pen then
moves right by the glyph's advance (its width plus the font's spacing), so `width(s)` equals
`draw(...) - x`, trailing gap included. Characters a font lacks are drawn as '?'.
"""

import framebuf
from micropython import const

from tablemate.ui import fonts

_CACHE = const(16)  # strings per cache generation and font (a screen draws fewer)

VLSB = framebuf.MONO_VLSB
# Dark drawing (color=0, on a highlighted bar) maps bit 1 to colour 0 through this two-entry
# palette with key 1: framebuf compares the key after the palette lookup, so only set bits clear.
DARK = framebuf.FrameBuffer(bytearray(2), 2, 1, VLSB)
DARK.pixel(0, 0, 1)

# Symbols of the small font (codes 1-6), usable inside any string, e.g. text.ARROW + "Start".
ARROW = "\x01"  # cursor: a small triangle pointing right
ARROW_UP = "\x02"  # arrow up (scroll hint)
ARROW_DOWN = "\x03"  # arrow down (scroll hint)
CHECK = "\x04"  # check mark
SOUND = "\x05"  # speaker with a sound wave
BATTERY = "\x06"  # battery, half charged
CARD = "\x07"  # a card: the cards in a player's hand

SCREEN_WIDTH = const(128)


class Font:
    """A bitmap font: glyph columns in MONO_VLSB order, as dense cells or with tables.

    A fixed-width font (``cell``: bytes per glyph, one page tall) keeps every code's glyph at
    ``(code - first) * cell`` and needs no tables; a proportional one has ``widths`` (a byte
    per code) and ``offsets`` (two bytes per code, little-endian) from ``first``.
    """

    def __init__(self, data, offsets, widths, first, height, spacing, cell):
        self.data = memoryview(data)
        self.offsets = offsets
        self.widths = widths
        self.first = first
        self.height = height
        self.spacing = spacing
        self.pages = (height + 7) // 8
        self.cell = cell
        self.count = len(data) // cell if cell else len(widths)  # codes from ``first``
        self.unknown = ord("?") - first
        # The cell width: the advance of a digit (every glyph in SMALL, every digit of the
        # score fonts).
        self.advance = (cell if cell else widths[ord("0") - first]) + spacing
        self.fixed = bool(cell)  # every glyph as wide: width() is a product
        self.new = {}  # rendered strings: this generation ...
        self.old = {}  # ... and the previous one
        self.kept = {}  # and the labels ``prepare`` keeps for good

    def index(self, ch):
        """Table index of character ch, or of '?' if the font lacks it."""
        i = ord(ch) - self.first
        if i < 0 or i >= self.count:
            return self.unknown
        return i

    def glyph_width(self, ch):
        """Width in pixels of ch's glyph, without the gap after it."""
        return self.cell or self.widths[self.index(ch)]

    def char_advance(self, ch):
        """How far the pen moves after drawing ch."""
        return self.glyph_width(ch) + self.spacing


SMALL = Font(fonts.SMALL_DATA, fonts.SMALL_OFFSETS, fonts.SMALL_WIDTHS,
             fonts.SMALL_FIRST, fonts.SMALL_HEIGHT, fonts.SMALL_SPACING, fonts.SMALL_CELL)
_LARGE = []  # MEDIUM and BIG, once a screen needs them


def large():
    """(MEDIUM, BIG): the 12-px and 14-px score digits, loaded the first time a screen asks, so
    the home menu's RAM does not hold them; their ``put_digits`` tables are made with them.
    A setup menu asks in a quiet pass (``lifecycle.prefetch``), so the game's first frame
    does not wait for the import."""
    if not _LARGE:
        from tablemate.ui import digitfonts as d  # .mpy: 6 KB and its import kept out of the boot
        for name in ("MEDIUM", "BIG"):
            get = lambda part: getattr(d, name + "_" + part)  # noqa: E731
            font = Font(get("DATA"), get("OFFSETS"), get("WIDTHS"), get("FIRST"),
                        get("HEIGHT"), get("SPACING"), get("CELL"))
            _score_table(font)
            _LARGE.append(font)
    return _LARGE


def _image(s, font):
    """``s`` rendered, through the cache: [advance, its bytes, dark bytes or None].

    ``draw`` and ``put`` look in the newest generation themselves and call this only on a miss:
    on a Pico a function call alone costs 20 us, and a screen draws thirty strings.
    """
    got = font.kept.get(s) or font.old.get(s)
    if got is None:
        got = _render(s, font)
    if len(font.new) >= _CACHE:
        font.old = font.new
        font.new = {}
    font.new[s] = got
    return got


def prepare(s, font=SMALL):
    """Render ``s`` now and keep it for good, so that no frame that shows it has to wait.

    For the fixed labels of menus and views: the two generations of the cache turn over as
    scores change, and a label must not be rendered again each time its menu opens.
    """
    if font.kept.get(s) is None:
        font.kept[s] = font.new.get(s) or _image(s, font)


def warm(s, font=SMALL):
    """Render ``s`` into the cache now (in a quiet pass), so that the next frame showing it,
    such as a game's first, finds it there; unlike ``prepare`` it is not kept for good."""
    if font.new.get(s) is None:
        _image(s, font)


def draw(fb, s, x, y, font=SMALL, color=1):
    """Draw s with its top-left at (x, y); return the pen x after it (x + width(s))."""
    got = font.new.get(s) or _image(s, font)
    buf = got[1]
    # A frame buffer over the cached bytes for this blit only: kept in the cache, one for each
    # of its 70-odd strings would hold 2-3 KB that ``put`` (the common case) never needs.
    img = framebuf.FrameBuffer(buf, len(buf) // font.pages, font.height, VLSB)
    if color:
        fb.blit(img, x, y, 0)
    else:
        fb.blit(img, x, y, 1, DARK)
    return x + got[0]


def put(fb, s, x, page, font=SMALL, color=1):
    """Draw s on whole pages from ``page`` (y = 8 * page), opaquely; return the pen x after it.

    The text's band (its width, the font's pages) is overwritten, background included: lit
    text on a dark band, or with color=0 dark text on a lit band (a highlighted row). That is a
    byte copy per page into the display buffer instead of a pixel-by-pixel blit (0.7 us a pixel
    on a Pico, 0.3 ms for a 6-letter word), so screens put text wherever the band is the
    text's own, and ``draw`` it where it must mix with other pixels. ``fb`` is the display
    driver (its ``buf``: 128 columns a page, MONO_VLSB); columns past the screen are clipped.
    """
    got = font.new.get(s) or _image(s, font)
    w = got[0]
    if color:
        src = got[1]
    else:
        src = got[2]
        if src is None:
            src = got[2] = inverted(got[1])
    n = SCREEN_WIDTH - x
    if n > w:
        n = w
    if x < 0 or n <= 0:
        return x + w
    o = page * SCREEN_WIDTH + x
    buf = fb.buf
    if font.pages == 1:
        buf[o:o + n] = src if n == w else src[:n]
    else:  # the big digits: two pages
        buf[o:o + n] = src[:n]
        o += SCREEN_WIDTH
        buf[o:o + n] = src[w:w + n]
    return x + w


def bar(fb, x, page, w, h=8):
    """Light the band that dark text is put on (``color=0``): columns x..x+w-1, ``h`` rows from
    page ``page``'s top, and the row above them.

    The small font's ink fills rows 0-6 of its page (capitals, digits and ascenders reach the
    top row; row 7 is blank in every glyph): a band that began at the page's top would end at
    the capitals' edge and cut their top row off ("Fred." read "Frec."). The row above, the last
    row of the page above, is blank in every text of that page (the small font's row 7, the
    score digits' last two), so it can be the band's. Page 0 has no row above: a band there
    ends at the screen's edge, and no screen puts dark text on it. Every lit row of every mode
    is drawn here; ``tablemate_host/textcheck.py`` fails a frame whose dark text touches the
    edge of its band."""
    fb.fill_rect(x, 8 * page - 1, w, h + 1, 1)


def inverted(lit):
    """``lit`` with every bit flipped (the dark version of a lit image): one XOR of the bytes
    read as a single integer, in C. On a Pico 0.2-0.4 ms for 18-300 bytes, where a Python loop
    over the bytes takes 0.5-5 ms and a blit through the DARK palette 1-3.5 ms."""
    n = len(lit)
    return (int.from_bytes(lit, "little") ^ ((1 << 8 * n) - 1)).to_bytes(n, "little")


def _render(s, font):
    """[its advance, ``s`` in lit pixels as MONO_VLSB bytes, None]: what ``draw`` and ``put``
    cache (``put`` fills in the dark bytes when it first needs them).

    The image is built by copying each glyph's columns into the buffer (MONO_VLSB keeps a page's
    columns contiguous; the fonts are one page tall, or two for the big digits): a slice copy
    instead of a ``blit`` per glyph, which is what a first frame full of new labels pays.
    """
    advance = width(s, font)
    w = max(advance, 1)  # a frame buffer has at least one column
    buf = bytearray(w * font.pages)
    data = font.data
    offsets = font.offsets
    widths = font.widths
    first = font.first
    count = font.count
    pages = font.pages
    gap = font.spacing
    x = 0
    cell = font.cell
    if cell:  # the text font: dense cells, one page
        step = cell + gap
        unknown = font.unknown * cell
        codes = s.encode()  # bytes iterate as ints: no ord() call per character
        if len(codes) != len(s):  # beyond ASCII a character is several bytes
            codes = [ord(ch) for ch in s]
        for c in codes:
            i = (c - first) * cell
            if i < 0 or i >= count * cell:
                i = unknown
            buf[x:x + cell] = data[i:i + cell]
            x += step
        return [advance, buf, None]
    for ch in s:
        i = ord(ch) - first
        if i < 0 or i >= count:
            i = font.unknown
        g = widths[i]
        start = offsets[2 * i] | (offsets[2 * i + 1] << 8)
        buf[x:x + g] = data[start:start + g]
        if pages > 1:  # the big digits: a second page of columns
            buf[w + x:w + x + g] = data[start + g:start + g + g]
        x += g + gap
    return [advance, buf, None]


def width(s, font=SMALL):
    """Advance of s in pixels: the sum of its characters' advances."""
    if font.fixed:
        return len(s) * font.advance
    widths = font.widths
    first = font.first
    count = font.count
    total = 0
    for ch in s:
        i = ord(ch) - first
        if i < 0 or i >= count:
            i = font.unknown
        total += widths[i]
    return total + font.spacing * len(s)


def ink_width(s, font=SMALL):
    """Pixels from the left edge of s to the right edge of its last glyph (no trailing gap)."""
    return width(s, font) - font.spacing if s else 0


def draw_right(fb, s, right, y, font=SMALL, color=1):
    """Draw s so that its last glyph ends just left of column `right`; return the start x."""
    x = right - ink_width(s, font)
    draw(fb, s, x, y, font, color)
    return x


def draw_centered(fb, s, y, font=SMALL, color=1, x=0, w=SCREEN_WIDTH):
    """Draw s centred in columns x..x+w-1 (the whole screen by default); return the start x."""
    x += (w - ink_width(s, font)) // 2
    draw(fb, s, x, y, font, color)
    return x


def put_right(fb, s, right, page, font=SMALL, color=1):
    """``put`` s so that its last glyph ends just left of column `right`; return the start x."""
    x = right - ink_width(s, font)
    put(fb, s, x, page, font, color)
    return x


def put_centered(fb, s, page, font=SMALL, color=1, x=0, w=SCREEN_WIDTH):
    """``put`` s centred in columns x..x+w-1 (the whole screen by default); return the start x."""
    x += (w - ink_width(s, font)) // 2
    put(fb, s, x, page, font, color)
    return x


def put_number(fb, n, x, page, right=False):
    """``put`` the integer n in SMALL (lit), from column x, or ending at x when ``right``;
    return the pen x after it.

    Scores, counts and round numbers change from frame to frame: through the cache each new
    value would be rendered (0.6 ms on a Pico) and push a label out. Each digit's columns are
    copied from a table instead, which costs less than looking a cached string up."""
    digits = _DIGITS or _digits()
    s = "%d" % n
    step = SMALL.advance
    end = x + len(s) * step
    if right:
        x, end = x - (end - x), x
    if x < 0 or end > SCREEN_WIDTH:
        return put(fb, s, x, page)  # partly off the screen: put clips
    buf = fb.buf
    o = page * SCREEN_WIDTH + x
    for c in s.encode():
        buf[o:o + step] = digits[c - 45]  # "-" is 45, "0" to "9" are 48 to 57
        o += step
    return end


def _digits():
    """The columns of "-", ".", "/", "0"-"9" in SMALL with the gap after each (6 bytes)."""
    font = SMALL
    for c in b"-./0123456789":
        i = (c - font.first) * font.cell
        _DIGITS.append(bytes(font.data[i:i + font.cell]) + bytes(font.spacing))
    return _DIGITS


_DIGITS = []


def put_digits(fb, n, x, page, font, color=1):
    """``put`` the integer n (or its digits as bytes, b"-12") in a two-page score font
    (``large()``) from column x, lit (or with color=0 dark on a lit band), clipped at the
    screen's edge; return the pen x after it.

    A score changes at every press: rendered through the cache each new value would cost a
    render (1-2 ms on a Pico) and hold its bytes. Each glyph's columns are copied from a table
    built once per font instead."""
    at, pages = _SCORE.get(font) or _score_table(font)
    if not color and len(pages) == 3:  # dark on a lit band: its glyphs made the first time
        dark = memoryview(inverted(pages[2]))
        pages.append(dark[:at[-1]])
        pages.append(dark[at[-1]:])
    top = pages[0 if color else 3]
    bottom = pages[1 if color else 4]
    buf = fb.buf
    for c in ("%d" % n).encode() if type(n) is int else n:
        i = at[c - 45]  # "-" is 45, "0" to "9" are 48 to 57
        step = at[c - 44] - i
        w = step if x + step <= SCREEN_WIDTH else SCREEN_WIDTH - x
        if w > 0:  # past the screen's edge nothing is drawn, the pen still moves (as ``put``)
            o = page * SCREEN_WIDTH + x
            buf[o:o + w] = top[i:i + w]
            buf[o + SCREEN_WIDTH:o + SCREEN_WIDTH + w] = bottom[i:i + w]
        x += step
    return x


def digits_width(n, font):
    """``width("%d" % n, font)`` for a score font, from the ``put_digits`` table (n as in
    ``put_digits``)."""
    at = (_SCORE.get(font) or _score_table(font))[0]
    total = 0
    for c in ("%d" % n).encode() if type(n) is int else n:
        total += at[c - 44] - at[c - 45]
    return total


def _score_table(font):
    """(where each of "-" to "9" starts, [top, bottom, both pages]): the glyphs' columns side by
    side with the gap after each, on the font's two pages (``put_digits`` adds the dark top and
    bottom)."""
    chars = "-./0123456789"
    got = _render(chars, font)
    w = got[0]
    lit = memoryview(got[1])
    at = [0]
    for ch in chars:
        at.append(at[-1] + width(ch, font))
    table = (at, [lit[:w], lit[w:], got[1]])
    _SCORE[font] = table
    return table


_SCORE = {}


class _Line:
    """A one-page buffer ``put`` can write to (it only needs ``buf``)."""

    def __init__(self):
        self.buf = bytearray(SCREEN_WIDTH)


def line(parts, font=SMALL):
    """A page of 128 columns with each (s, x) of ``parts`` put on it, as bytes: a row that stays
    the same for a whole game (names, labels) is composed once and a frame copies it whole."""
    row = _Line()
    for s, x in parts:
        put(row, s, x, 0, font)
    return bytes(row.buf)


def fit(s, max_width, font=SMALL):
    """s itself if its glyphs fit in max_width pixels, else a prefix of it ending in '.'."""
    if ink_width(s, font) <= max_width:
        return s
    limit = max_width - font.glyph_width(".")  # room for the prefix, gaps included
    if limit < 0:
        return ""
    return s[:fitting(s, limit, font)].rstrip() + "."


def fitting(s, width, font=SMALL):
    """How many characters from the start of s fit in ``width`` pixels of advance (each
    glyph with its gap). It stops at the first that does not: a 20 KB string costs a line."""
    used = 0
    n = 0
    for ch in s:
        used += font.char_advance(ch)
        if used > width:
            break
        n += 1
    return n
