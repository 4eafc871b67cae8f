"""Every text a frame shows, checked: inside the screen, clear of its neighbours, not drawn over,
and never cut short without a rule that says what was shortened.

The firmware's text layer (``tablemate/ui/text.py``) draws every string through a handful of
functions, each given the string, its pen position and its font: that is the box the string
owns (its glyphs' ink from the pen position, the font's height). ``Watch`` wraps those functions
on the host, collects the boxes each frame draws, and at each ``show()`` of the SSD1306 driver
compares them with each other and with the pixels the frame sends:
- **clipped**: a box reaches past the screen's edge;
- **runs into**: two boxes of the frame touch or overlap (one pixel of gap at least, the font's
  own spacing, or two words read as one: "square winsDeck 53") -- unless the later one is an
  opaque band that covers the earlier whole, which is a redraw of that place; and a number
  followed on its row by another less than ``NUMBER_GAP`` columns on (two columns between a
  score "60" and a rank "4" read "604");
- **drawn over**: what the frame shows in a box is not the text's glyphs (a bar, a line or an
  icon drawn over the bottom of the digits);
- **touches**: a score's digits with anything on the row just below them (a clock under the
  score, a name bar under "12");
- **edge**: dark text on a lit band whose ink meets the band's edge: a pixel of a letter next to
  a dark pixel that is not the letter's, or the screen's edge (a bar that began at the capitals'
  top row: "Fred." read "Frec."; a descender on the bar's bottom row). ``text.bar`` lights the
  band with the row over the capitals;
- **cut**: ``text.fit`` shortened a text of several words (a list of names, a sentence) with its
  '.': a word is gone and nobody can tell which. A single word (a name) may be cut, its '.' says
  so; a list of names has its own rule (``text.names``), which never drops one.

Only what is drawn in a frame is checked in it: a row a screen leaves from an earlier frame was
checked when it was drawn. Nothing here changes the firmware: the wrappers call the originals.
"""


WIDTH = 128
HEIGHT = 64
GAP = 2  # blank columns between two texts on a row, at least (letters have 1, a space 7)
NUMBER_GAP = 5  # between a text ending in a digit and one beginning with a digit: two digits
# have 1 blank column between them, so at 2 or 3 they read as one number


class Box:
    """A string's ink on the screen: columns x..x+w-1, rows y..y+h-1."""

    __slots__ = ("s", "x", "y", "w", "h", "font", "color", "opaque", "where", "struck", "skip",
                 "start", "pen")

    def __init__(self, s, x, y, font, color, opaque, where):
        from tablemate.ui import text
        self.s = s
        # the ink: leading and trailing spaces are the pen's, not the text's ("Round " + 12)
        body = s.strip(" ")
        self.skip = text.width(s[:len(s) - len(s.lstrip(" "))], font) if body else 0
        self.start = x  # the pen position it was drawn at, and where its pen ends: a text
        self.pen = x + text.width(s, font)  # put at another's pen continues it ("+" 12)
        self.x = x + self.skip
        self.y = y
        self.w = text.ink_width(body, font)
        self.h = ink_rows(font)  # the rows a glyph may ink: the band's rows below are not its
        self.font = font
        self.color = color
        self.opaque = opaque  # put: the band behind the glyphs is the text's own
        self.where = where
        self.struck = -1  # the row of a line struck through it (a name out of a turn)

    def touches(self, other):
        """True when the two boxes overlap, or on shared rows leave less than ``GAP`` columns
        between them: one column is the gap between two letters, so "square wins" and
        "Deck 53" a column apart read "square winsDeck 53"."""
        return (self.x - GAP < other.x + other.w and other.x - GAP < self.x + self.w
                and self.y < other.y + other.h and other.y < self.y + self.h)

    def numbers_run(self, other):
        """True when one box ends in a digit and the other, further on the same rows, begins
        with one less than ``NUMBER_GAP`` blank columns after it: two numbers read as one."""
        left, right = (self, other) if self.x <= other.x else (other, self)
        gap = right.x - (left.x + left.w)
        return (0 <= gap < NUMBER_GAP and left.s.rstrip(" ")[-1:].isdigit()
                and right.s.lstrip(" ")[:1].isdigit()
                and self.y < other.y + other.h and other.y < self.y + self.h)

    def covers(self, other):
        return (self.x <= other.x and other.x + other.w <= self.x + self.w
                and self.y <= other.y and other.y + other.h <= self.y + self.h)

    def __repr__(self):
        return "%r at (%d, %d) %dx%d" % (self.s, self.x, self.y, self.w, self.h)


class Problem(AssertionError):
    """A frame whose text does not read as drawn: ``what`` lists each fault."""


def _caller():
    """The firmware line that asked for the text (for the report)."""
    import sys
    f = sys._getframe(1)
    while f and (f.f_code.co_filename.endswith(("/ui/text.py", "/textcheck.py"))):
        f = f.f_back
    if f is None:
        return "?"
    return "%s:%d" % (f.f_code.co_filename.split("firmware/")[-1], f.f_lineno)


class Watch:
    """Wrap the text layer and the driver's ``show``; ``problems`` collects what frames got wrong.

    Use as a context manager around a run of the real app (a ``Device``, a fuzzer's app). With
    ``strict`` the first faulty frame raises ``Problem``; else faults are collected (each kind
    and text once) for a test to report them all.
    """

    def __init__(self, strict=False):
        self.strict = strict
        self.boxes = []
        self.cuts = []
        self.problems = []
        self.seen = set()
        self.frames = 0
        self.texts = 0
        self._depth = 0
        self._saved = []
        self.context = ""  # what the run is doing, for the report (set by the driver)

    # -- wrapping ----------------------------------------------------------------------------
    def __enter__(self):
        from tablemate.hw import ssd1306
        from tablemate.ui import text
        watch = self

        shown = ssd1306.SSD1306

        def record(fb, s, x, y, font, color, opaque):
            # a row composed off the screen (``text.line``) is copied in whole later: only the
            # display's own frame is checked
            if watch._depth == 0 and s and isinstance(fb, shown):
                watch.boxes.append(Box(s, x, y, font, color, opaque, _caller()))
                watch.texts += 1

        def wrap(name, box):
            original = getattr(text, name)

            def wrapper(*a, **kw):
                box(*a, **kw)
                watch._depth += 1
                try:
                    return original(*a, **kw)
                finally:
                    watch._depth -= 1
            self._saved.append((text, name, original))
            setattr(text, name, wrapper)

        def put(fb, s, x, page, font=text.SMALL, color=1):
            record(fb, s, x, 8 * page, font, color, True)

        def draw(fb, s, x, y, font=text.SMALL, color=1):
            record(fb, s, x, y, font, color, False)

        def put_number(fb, n, x, page, right=False):
            s = "%d" % n
            if right:
                x -= text.width(s)
            record(fb, s, x, 8 * page, text.SMALL, 1, True)

        def put_digits(fb, n, x, page, font, color=1):
            s = "%d" % n if type(n) is int else bytes(n).decode()
            record(fb, s, x, 8 * page, font, color, True)

        wrap("put", put)
        wrap("draw", draw)
        wrap("put_number", put_number)
        wrap("put_digits", put_digits)

        original_fit = text.fit

        def fit(s, max_width, font=text.SMALL):
            got = original_fit(s, max_width, font)
            if got != s and " " in s.strip():
                watch.cuts.append((s, got, _caller()))
            return got
        self._saved.append((text, "fit", original_fit))
        text.fit = fit

        cls = ssd1306.SSD1306
        original_fill_rect = cls.fill_rect
        original_fill = cls.fill

        def fill_rect(fb, x, y, w, h, c):
            watch.erase(x, y, w, h, c)
            return original_fill_rect(fb, x, y, w, h, c)

        def fill(fb, c):
            watch.erase(0, 0, WIDTH, HEIGHT, c)
            return original_fill(fb, c)
        original_hline = cls.hline

        def hline(fb, x, y, w, c):
            watch.strike(x, y, w)
            return original_hline(fb, x, y, w, c)
        self._saved.append((cls, "hline", original_hline))
        cls.hline = hline
        self._saved.append((cls, "fill_rect", original_fill_rect))
        self._saved.append((cls, "fill", original_fill))
        cls.fill_rect = fill_rect
        cls.fill = fill

        original_show = ssd1306.SSD1306.show

        def show(fb):
            watch.check(fb)
            return original_show(fb)
        self._saved.append((ssd1306.SSD1306, "show", original_show))
        ssd1306.SSD1306.show = show
        return self

    def __exit__(self, *exc):
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved = []
        return False

    def erase(self, x, y, w, h, c):
        """A filled rectangle: a text it covers whole is gone (a cleared row, the message line
        over the bottom row); a dark one also hides what it covers in part, as a window drawn
        over the screen (a dialog) does by design. A lit one over part of a text is a fault,
        which the pixels show (``_intact``)."""
        kept = []
        for b in self.boxes:
            apart = b.x >= x + w or x >= b.x + b.w or b.y >= y + h or y >= b.y + b.h
            whole = x <= b.x and b.x + b.w <= x + w and y <= b.y and b.y + b.h <= y + h
            if apart or not (whole or not c):
                kept.append(b)
        self.boxes = kept

    def strike(self, x, y, w):
        """A line through the middle of a text, end to end, strikes it out (a player who
        misses a turn): a mark on the text, not a fault."""
        for b in self.boxes:
            if b.y + 2 <= y <= b.y + 5 and x <= b.x and b.x + b.w <= x + w:
                b.struck = y

    # -- the check of one frame -------------------------------------------------------------
    def check(self, fb):
        """Check the boxes drawn since the last frame against each other and ``fb``'s pixels."""
        self.frames += 1
        boxes = self.boxes
        cuts = self.cuts
        self.boxes = []
        self.cuts = []
        found = []
        for s, got, where in cuts:
            found.append(("cut", "%r shown as %r" % (s, got), where))
        live = []
        for box in boxes:
            if box.w and (box.x < 0 or box.y < 0 or box.x + box.w > WIDTH
                          or box.y + box.h > HEIGHT):
                found.append(("clipped", repr(box), box.where))
            kept = []
            for old in live:
                if box.opaque and box.covers(old):
                    continue  # redrawn over: the old text is gone, not overlapped
                pen = (box.y == old.y and box.start == old.pen and not box.covers(old)
                       and box.x >= old.x + old.w)  # "+" then 12: one text in two parts
                if (box.touches(old) or box.numbers_run(old)) and not pen:
                    found.append(("runs into", "%r and %r" % (old, box),
                                  old.where + " / " + box.where))
                kept.append(old)
            kept.append(box)
            live = kept
        for box in live:
            cut = "" if box.color else _cut(fb, box)
            if not _intact(fb, box):
                found.append(("drawn over", repr(box), box.where))
            elif cut:
                found.append(("edge", "%r: its ink meets the edge of its band (%s)" % (box, cut),
                              box.where))
            elif box.font.pages > 1 and not _clear_around(fb, box):
                found.append(("touches", "%r: the row below it is not clear" % box,
                              box.where))
        for kind, what, where in found:
            key = (kind, what)
            if key in self.seen:
                continue
            self.seen.add(key)
            line = "%s: %s (%s)%s" % (kind, what, where,
                                     " during " + self.context if self.context else "")
            self.problems.append(line)
            if self.strict:
                raise Problem(line)


def _clear_around(fb, box):
    """True when the row just below a score's digits is background over the digits' columns
    (a line, a bar or a text there would touch them: a clock under the score, a name bar under
    "12"). Above them is the name's page, whose bottom row only descenders reach."""
    from tablemate.ui import text
    got = text._render(box.s, box.font)
    w = got[0]
    img = got[1]
    ink = 0  # the lowest row of the digits' ink
    for j in range(box.h):
        if any((img[(j >> 3) * w + i] >> (j & 7)) & 1 for i in range(w)):
            ink = j
    buf = fb.buf
    back = 0 if box.color else 1
    for y in (box.y + ink + 1,):
        if y < 0 or y >= HEIGHT:
            continue
        page = (y >> 3) * WIDTH
        bit = y & 7
        for x in range(max(box.x, 0), min(box.x + box.w, WIDTH)):
            if (buf[page + x] >> bit) & 1 != back:
                return False
    return True


def _intact(fb, box):
    """True when the frame's pixels in ``box`` are the text's glyphs (lit on dark, or dark on a
    lit bar), as far as the box lies on the screen."""
    from tablemate.ui import text
    got = text._render(box.s, box.font)
    w = got[0]
    img = got[1]
    buf = fb.buf
    lit = 1 if box.color else 0
    for j in range(box.h):
        y = box.y + j
        if y < 0 or y >= HEIGHT or y == box.struck:
            continue
        row = (j >> 3) * w
        bit = j & 7
        page = (y >> 3) * WIDTH
        ybit = y & 7
        for i in range(box.w):
            x = box.x + i
            if x < 0 or x >= WIDTH:
                continue
            want = (img[row + i + box.skip] >> bit) & 1
            have = (buf[page + x] >> ybit) & 1
            if (want if lit else 1 - want) != have:
                return False
    return True


INK = {}


def ink_rows(font):
    """How many rows from the top any glyph of ``font`` inks (7 of the small font's 8: its
    last row is the lit band's row under dark text; 14 of the big digits' 16)."""
    got = INK.get(font)
    if got is None:
        from tablemate.ui import text
        chars = "".join(chr(c) for c in range(font.first, font.first + font.count))
        img = text._render(chars, font)
        w = img[0]
        got = 0
        for j in range(font.height):
            row = (j >> 3) * w
            if any((img[1][row + i] >> (j & 7)) & 1 for i in range(w)):
                got = j + 1
        INK[font] = got
    return got


def _cut(fb, box):
    """The sides on which dark text (``box.color`` 0) touches what is not its lit band: an ink
    pixel whose neighbour across the edge of the text's box, above, below, left or right, is
    dark (or off the screen, whose edge is the panel's black frame); "" when none."""
    from tablemate.ui import text
    got = text._render(box.s, box.font)
    w = got[0]
    img = got[1]
    buf = fb.buf
    sides = []
    for j in range(box.h):
        if box.y + j == box.struck:
            continue  # a line through it strikes it out, on purpose
        row = (j >> 3) * w
        for i in range(box.w):
            if not (img[row + i + box.skip] >> (j & 7)) & 1:
                continue
            for dx, dy, side in ((0, -1, "top"), (0, 1, "bottom"), (-1, 0, "left"),
                                 (1, 0, "right")):
                if side in sides or (0 <= i + dx < box.w and 0 <= j + dy < box.h):
                    continue  # inside the box, ``_intact`` checked it
                x, y = box.x + i + dx, box.y + j + dy
                if not (0 <= x < WIDTH and 0 <= y < HEIGHT
                        and (buf[(y >> 3) * WIDTH + x] >> (y & 7)) & 1):
                    sides.append(side)
    return ", ".join(sides)
