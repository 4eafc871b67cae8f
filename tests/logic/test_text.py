"""Text drawing: widths, exact glyph pixels, dark text, clipping and fallbacks (both VMs)."""

import framebuf

from tablemate.ui import dialogs, shorten, text

# The 'A' of tools/fonts/small.txt, row by row.
A_ROWS = [
    ".###.",
    "#...#",
    "#...#",
    "#####",
    "#...#",
    "#...#",
    "#...#",
    ".....",
]


def _screen(fill=0):
    fb = framebuf.FrameBuffer(bytearray(128 * 64 // 8), 128, 64, framebuf.MONO_VLSB)
    fb.fill(fill)
    return fb


def _rows(fb, x, y, w, h):
    return ["".join("#" if fb.pixel(x + i, y + j) else "." for i in range(w)) for j in range(h)]


def _lit(fb):
    return [(x, y) for y in range(64) for x in range(128) if fb.pixel(x, y)]


def _drawn(s, font=text.SMALL):
    fb = _screen()
    text.draw(fb, s, 0, 0, font)
    return _rows(fb, 0, 0, text.width(s, font), font.height)


def test_small_font_metrics():
    assert text.SMALL.height == 8
    assert text.SMALL.advance == 6
    assert text.SMALL.glyph_width("W") == 5
    assert text.SMALL.char_advance("i") == 6


def test_width_is_the_sum_of_advances():
    assert text.width("") == 0
    assert text.width("A") == 6
    assert text.width("Hello") == 30
    assert text.width(text.ARROW + "Start") == 36
    assert text.ink_width("Hello") == 29
    assert text.ink_width("") == 0


def test_big_font_is_proportional():
    big = text.large()[1]
    for d in "0123456789":
        assert big.char_advance(d) == big.advance
    assert big.char_advance(":") < big.advance
    assert big.char_advance(" ") < big.advance
    assert text.width("12:30", big) == 4 * big.advance + big.char_advance(":")
    assert text.width("-7", big) == big.char_advance("-") + big.advance


def test_draw_returns_pen_position():
    fb = _screen()
    assert text.draw(fb, "Hi!", 10, 3) == 10 + text.width("Hi!")
    assert text.draw(fb, "", 10, 3) == 10
    assert text.draw(fb, "42", 0, 20, text.large()[1]) == text.width("42", text.large()[1])


def test_draw_A_gives_the_source_pixels():
    fb = _screen()
    text.draw(fb, "A", 3, 2)
    assert _rows(fb, 3, 2, 5, 8) == A_ROWS
    assert len(_lit(fb)) == sum(row.count("#") for row in A_ROWS)


def test_lit_text_keeps_the_background():
    fb = _screen()
    fb.pixel(3, 2, 1)  # a '.' of the A's top row
    fb.pixel(8, 2, 1)  # the gap column after the glyph
    text.draw(fb, "A", 3, 2)
    assert fb.pixel(3, 2) and fb.pixel(8, 2)


def test_dark_text_clears_exactly_the_glyph_pixels():
    fb = _screen()
    fb.fill_rect(0, 0, 20, 12, 1)
    text.draw(fb, "A", 3, 2, color=0)
    for y in range(64):
        for x in range(128):
            inside = 0 <= x < 20 and 0 <= y < 12
            glyph = 3 <= x < 8 and 2 <= y < 10 and A_ROWS[y - 2][x - 3] == "#"
            assert fb.pixel(x, y) == (1 if inside and not glyph else 0), (x, y)


def test_dark_and_lit_text_are_complements_on_a_bar():
    lit = _screen()
    dark = _screen()
    dark.fill_rect(0, 0, 128, 16, 1)
    text.draw(lit, "Score 12", 1, 0)
    text.draw(lit, "07", 60, 0, text.large()[1])
    text.draw(dark, "Score 12", 1, 0, color=0)
    text.draw(dark, "07", 60, 0, text.large()[1], 0)
    for y in range(16):
        for x in range(128):
            assert lit.pixel(x, y) != dark.pixel(x, y)


def test_clipping_at_the_edges_does_not_raise():
    fb = _screen()
    text.draw(fb, "A", -1, 0)  # the glyph's first column is off screen
    assert _rows(fb, 0, 0, 4, 8) == [row[1:] for row in A_ROWS]
    fb = _screen()
    text.draw(fb, "A", 125, 60)
    assert _rows(fb, 125, 60, 3, 4) == [row[:3] for row in A_ROWS[:4]]
    for x, y in ((-40, -40), (-3, -5), (120, 56), (127, 63), (500, 0), (0, 300), (-500, 10)):
        text.draw(fb, "Wg8", x, y)
        text.draw(fb, "88:88", x, y, text.large()[1], 0)
    text.draw_centered(fb, "a very long line that cannot fit on the screen", 30)


def test_unknown_characters_draw_as_question_mark():
    question = _drawn("?")
    for ch in ("\x00", "\x08", "\x1f", "\x7f", "\u00e9", "\u20ac"):
        assert _drawn(ch) == question, repr(ch)
        assert text.width(ch) == text.width("?")
    assert _drawn("A", text.large()[1]) == _drawn("?", text.large()[1])
    assert text.width("x", text.large()[1]) == text.width("?", text.large()[1])


def test_symbols_are_distinct_glyphs():
    symbols = (text.ARROW, text.ARROW_UP, text.ARROW_DOWN, text.CHECK, text.SOUND, text.BATTERY)
    seen = [_drawn("?"), _drawn(" ")]
    for s in symbols:
        drawn = _drawn(s)
        assert drawn not in seen, repr(s)
        seen.append(drawn)


def test_the_eighth_row_is_blank_in_every_glyph():
    # Issue 32: dark text on a lit band needs a lit row under its ink inside its page, and the
    # row above a page must be free for the band's row over the capitals: no glyph inks row 8
    # (g j p q y keep their descenders above it), and capitals and ascenders reach row 1.
    font = text.SMALL
    every = "".join(chr(c) for c in range(font.first, font.first + font.count))
    for ch in every:
        assert "#" not in _drawn(ch)[7], ch
    for ch in "gjpqy":
        assert "#" in _drawn(ch)[6], ch
    for ch in "AZdl09":
        assert "#" in _drawn(ch)[0], ch


def test_big_digits_are_14_px_of_ink_with_two_clear_rows_under_them():
    # the row under a score stays clear (a clock, a name would touch it), and the one under
    # that may be the top row of a lit band below (``text.bar``: a lit cell, the message line)
    assert text.large()[1].height == 16
    for d in "0123456789":
        fb = _screen()
        text.draw(fb, d, 0, 0, text.large()[1])
        ys = [y for x, y in _lit(fb)]
        xs = [x for x, y in _lit(fb)]
        assert min(ys) == 0 and max(ys) == 13, d
        assert max(xs) - min(xs) + 1 >= 8, d


def test_a_band_lights_the_row_above_its_page():
    fb = _screen()
    text.bar(fb, 10, 2, 20)
    lit = _lit(fb)
    assert min(y for x, y in lit) == 15 and max(y for x, y in lit) == 23
    assert min(x for x, y in lit) == 10 and max(x for x, y in lit) == 29
    assert len(lit) == 9 * 20
    fb = _screen()
    text.bar(fb, 0, 1, 4, 23)  # a cell lit whole: its last row stays dark
    assert max(y for x, y in _lit(fb)) == 30 and len(_lit(fb)) == 24 * 4


def test_draw_centered_and_right():
    fb = _screen()
    x = text.draw_centered(fb, "AB", 0)
    assert x == (128 - 11) // 2
    assert min(px for px, py in _lit(fb)) == x
    fb = _screen()
    x = text.draw_right(fb, "12", 128, 0, text.large()[1])
    assert max(px for px, py in _lit(fb)) == 127
    assert x == 128 - text.ink_width("12", text.large()[1])
    fb = _screen()
    text.draw_centered(fb, "A", 0, x=100, w=20)
    assert min(px for px, py in _lit(fb)) == 100 + (20 - 5) // 2


def test_fit_truncates_with_a_dot():
    assert text.fit("Bob", 60) == "Bob"
    assert text.fit("", 10) == ""
    assert text.fit("Alexandra", 53) == "Alexandra"  # 9 glyphs: 53 px without the last gap
    short = text.fit("Alexandra", 30)
    assert short == "Alex."
    assert text.ink_width(short) <= 30
    assert text.fit("Ann Marie", 30) == "Ann."  # no space before the dot
    assert text.fit("Alexandra", 5) == "."
    assert text.fit("Alexandra", 4) == ""
    for limit in range(0, 70):
        assert text.ink_width(text.fit("Maximilian", limit)) <= limit


class _Panel(framebuf.FrameBuffer):
    """What ``put`` writes into: a frame buffer that shows its bytes and width, like the driver."""

    def __init__(self):
        self.buf = bytearray(128 * 64 // 8)
        self.width = 128
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)


def test_put_is_draw_on_a_clear_band():
    for font, page in ((text.SMALL, 3), (text.large()[1], 5)):
        s = "Ann 12" if font is text.SMALL else "-305"
        drawn, put = _Panel(), _Panel()
        pen = text.draw(drawn, s, 7, page * 8, font)
        assert text.put(put, s, 7, page, font) == pen
        assert put.buf == drawn.buf, s


def test_put_overwrites_its_band_and_nothing_else():
    p = _Panel()
    p.fill(1)
    text.put(p, "Hi", 10, 2)
    band = _rows(p, 10, 16, text.width("Hi"), 8)
    ref = _Panel()
    text.draw(ref, "Hi", 0, 0)
    assert band == _rows(ref, 0, 0, text.width("Hi"), 8)  # the text on a dark band
    assert p.pixel(9, 16) == 1 and p.pixel(10 + text.width("Hi"), 16) == 1  # beside it: untouched
    assert p.pixel(10, 15) == 1 and p.pixel(10, 24) == 1  # above and below: untouched


def test_put_dark_is_a_lit_band_with_dark_text():
    p = _Panel()
    text.put(p, "Ok", 0, 1, color=0)
    ref = _Panel()
    ref.fill_rect(0, 8, text.width("Ok"), 8, 1)
    text.draw(ref, "Ok", 0, 8, color=0)
    assert p.buf == ref.buf
    text.put(p, "Ok", 0, 1, color=0)  # the dark bytes come from the cache the second time
    assert p.buf == ref.buf


def test_put_clips_at_the_right_edge():
    p = _Panel()
    assert text.put(p, "Clipped", 110, 0) == 110 + text.width("Clipped")
    ref = _Panel()
    text.draw(ref, "Clipped", 110, 0)
    assert p.buf == ref.buf
    assert text.put(p, "X", 130, 0) == 130 + text.width("X")  # wholly off screen: nothing
    assert p.buf == ref.buf


def test_a_character_outside_ascii_is_one_unknown_cell():
    assert text.width("a\u00e9b") == 3 * text.SMALL.advance
    assert _drawn("a\u00e9b") == [a + q + b for a, q, b in zip(_drawn("a"), _drawn("?"), _drawn("b"))]


def test_put_number_is_put_of_its_digits():
    for n in (0, 7, 42, -5, 305, -1234, 99999):
        for page, x in ((0, 0), (3, 17), (7, 60)):
            got, ref = _Panel(), _Panel()
            got.fill(1)
            ref.fill(1)
            pen = text.put_number(got, n, x, page)
            assert pen == text.put(ref, "%d" % n, x, page) and got.buf == ref.buf, (n, x)


def test_put_digits_is_put_of_its_digits_in_the_score_fonts():
    for font in text.large():
        for n in (0, 7, 42, -5, 305, -1234):
            for color in (1, 0):
                for page, x in ((0, 0), (3, 17), (6, 60), (1, 110)):
                    got, ref = _Panel(), _Panel()
                    got.fill(1 - color)
                    ref.fill(1 - color)
                    pen = text.put_digits(got, n, x, page, font, color)
                    assert pen == text.put(ref, "%d" % n, x, page, font, color), (n, x, color)
                    assert got.buf == ref.buf, (font.height, n, x, page, color)
            assert text.digits_width(n, font) == text.width("%d" % n, font)
            digits = ("%d" % n).encode()
            assert text.digits_width(digits, font) == text.digits_width(n, font)
            got, ref = _Panel(), _Panel()
            assert text.put_digits(got, digits, 9, 2, font) == text.put_digits(ref, n, 9, 2, font)
            assert got.buf == ref.buf


def test_inverted_flips_every_bit():
    for data in (b"", b"\x00", b"\xff\x0f", bytes(range(256)), bytearray(b"\x01" * 300)):
        got = text.inverted(data)
        assert len(got) == len(data) and bytes(got) == bytes([b ^ 0xFF for b in data])


def test_put_number_right_aligned_and_clipped():
    got, ref = _Panel(), _Panel()
    assert text.put_number(got, 123, 60, 4, right=True) == 60
    text.put(ref, "123", 60 - 3 * text.SMALL.advance, 4)
    assert got.buf == ref.buf
    got, ref = _Panel(), _Panel()
    text.put_number(got, 98765, 110, 2)  # runs past the edge: clipped like put, next page clean
    text.put(ref, "98765", 110, 2)
    assert got.buf == ref.buf and not any(got.buf[3 * 128:4 * 128])
    got = _Panel()
    text.put_number(got, 12345, 20, 1, right=True)  # would start left of the screen: as put,
    assert not any(got.buf)  # nothing is drawn (and nothing lands on the page above)


def test_a_line_is_its_parts_put_on_a_page():
    parts = [("Ann", 6), ("Bob", 71), (text.CHECK, 0)]
    row = text.line(parts)
    ref = _Panel()
    for s, x in parts:
        text.put(ref, s, x, 0)
    assert type(row) is bytes and row == bytes(ref.buf[:128])
    assert text.line([]) == bytes(128)


def test_warm_renders_into_the_cache_but_does_not_keep():
    s = "Warm-up name"
    text.warm(s)
    assert s in text.SMALL.new and s not in text.SMALL.kept
    got = text.SMALL.new[s]
    text.warm(s)  # already there: nothing rendered again
    assert text.SMALL.new[s] is got


def test_a_list_of_names_shortens_to_initials_then_a_count_never_dropping_one():
    five = ["Ann", "Bob", "Cleo", "Dev", "Eve"]
    assert shorten.names("+1 ", five, 200) == "+1 Ann, Bob, Cleo, Dev, Eve"
    assert shorten.names("+1 ", five, 100) == "+1 A, B, C, D, E"
    assert shorten.names("+1 ", five, 80) == "+1 5 players"
    assert shorten.names("Names: ", ["Wolfgang", "Bea"], 120, " ") == "Names: Wolfgang Bea"
    got = shorten.names("Names: ", ["Wolfgang", "Beatrix", "Cleopatr"], 120, " ")
    assert got == "Names: W B C", got
    assert shorten.names("Cartes: ", ["Ann", "Bob"], 140, tail=" (tie)") == "Cartes: Ann, Bob (tie)"


def test_abbreviate_shortens_the_name_first_then_long_words_never_the_end():
    assert shorten.abbreviate("Wolfgang: skip whose turn?", 127) == "Wo.: skip whose turn?"
    assert shorten.abbreviate("Ann: skip whose turn?", 127) == "Ann: skip whose turn?"
    assert shorten.abbreviate("Cleopatr Peripheral Vision", 104) == "C. Periph. Vision"
    assert shorten.abbreviate("Undone: Peripheral Vision", 126, name=False) == "Undone: Perip. Vision"
    assert shorten.abbreviate("Tie: Wolfgang, Beatrix", 120, name=False) == "Tie: Wolfg., Beatrix"
    assert shorten.abbreviate("Wolfgang misses the turn", 126) == "Wolf. misses the turn"
    assert shorten.abbreviate("Perspective: unfinished", 119) == "Perspec.: unfinished"
    # nothing left to shorten: the end is cut, with fit's '.' (which the every-frame check fails)
    assert shorten.abbreviate("Undone: the the the the the the", 60, name=False).endswith(".")


def test_wrap_marks_what_it_could_not_show():
    lines = dialogs.wrap("Replace the saved Cartes sur Table? It goes to the History unfinished.",
                      112)
    assert len(lines) == 4 and lines[-1].endswith("."), lines
    assert dialogs.wrap("one two", 112) == ["one two"]
    assert dialogs.wrap("Wolfgang misses the turn", 126, 2) == ["Wolfgang misses the", "turn"]
