"""The QR encoder (ui/qr.py) against the standard's published values, on both VMs.

Known vectors: the Reed-Solomon codewords of the tutorials' "HELLO WORLD" (1-M and 1-Q) and of
ISO/IEC 18004 Annex I's "01234567" (1-M), a byte-mode codeword stream published step by step,
the format and version information tables. The layout: finders, timing, the dark module, the
alignment patterns of versions 2 and 7, both copies of the format and version bits, room for
exactly the codewords. The masks' penalty against a plain reading of the rules written here, one
mask and one rule at a time. Decoding by a real scanner is tests/host/test_qr_decode.py.
"""

import framebuf

from fuzz import Xorshift
from tablemate.ui import qr

# Format information, ISO/IEC 18004 table C.1 (level L then M, masks 0-7).
FORMAT_L = ("111011111000100", "111001011110011", "111110110101010", "111100010011101",
            "110011000101111", "110001100011000", "110110001000001", "110100101110110")
FORMAT_M = ("101010000010010", "101000100100101", "101111001111100", "101101101001011",
            "100010111111001", "100000011001110", "100111110010111", "100101010100000")
# Version information, table D.1.
VERSION = {7: "000111110010010100", 8: "001000010110111100", 9: "001001101010011001"}
# Byte-mode capacity (table 7), versions 1-9.
BYTES_L = (17, 32, 53, 78, 106, 134, 154, 192, 230)
BYTES_M = (14, 26, 42, 62, 84, 106, 122, 152, 180)


def _ec(data, n):
    out = bytearray(n)
    qr.remainder(bytes(data), 0, len(data), out, 0, n)
    return list(out)


def test_gf256_tables():
    assert qr._EXP[8] == 29 and qr._EXP[25] == 3 and qr._EXP[254] == 142
    for i in range(255):
        assert qr._LOG[qr._EXP[i]] == i


def test_reed_solomon_of_the_published_examples():
    hello = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
    assert _ec(hello, 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]
    annex_i = [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17]
    assert _ec(annex_i, 10) == [165, 36, 212, 193, 237, 54, 199, 135, 44, 85]
    # The same text at 1-Q: 13 data codewords, 13 EC (another generator, then back to 10).
    assert _ec(hello[:13], 13) == [168, 72, 22, 82, 217, 54, 156, 0, 46, 15, 180, 122, 16]
    assert _ec(hello, 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]


def test_every_generator_the_tables_use_has_no_zero_coefficient():
    for row in qr._EC:
        for n in (row[0], row[2]):
            qr._generator(n)
            g = qr._rem
            assert g[0] == 1 and all(g[j] for j in range(n + 1)), n


def test_byte_mode_codewords_of_a_published_example():
    # "https://fast-qr.com/" at 5-H (46 data codewords), as fast-qr's walk-through lists them.
    qr._data_codewords(b"https://fast-qr.com/", 46)
    assert list(qr._cw[:22]) == [65, 70, 135, 71, 71, 7, 51, 162, 242, 246, 102, 23, 55, 66,
                                 215, 23, 34, 230, 54, 246, 210, 240]
    assert list(qr._cw[22:46]) == [236, 17] * 12


def test_capacity_follows_the_standard():
    for v in range(1, 10):
        assert qr.capacity(v, qr.L) == BYTES_L[v - 1], v
        assert qr.capacity(v, qr.M) == BYTES_M[v - 1], v


def test_version_and_level_chosen_for_the_size():
    sym = qr.encode("http://192.168.4.1/")
    assert (sym.version, sym.level, sym.size) == (2, qr.M, 25)
    sym = qr.encode("WIFI:T:WPA;S:%s;P:%s;;" % ("n" * 20, "p" * 16))  # 54 bytes
    assert (sym.version, sym.level) == (4, qr.M)
    assert (qr.encode("x" * 78).version, qr.encode("x" * 78).level) == (4, qr.L)
    assert (qr.encode("x" * 230).version, qr.encode("x" * 230).level) == (9, qr.L)
    assert qr.encode("\u00e9t\u00e9").version == 1  # UTF-8: 5 bytes
    assert qr.encode("x", least=7).version == 7
    try:
        qr.encode("x" * 231)
    except ValueError:
        pass
    else:
        raise AssertionError("231 bytes encoded")


def test_format_bits_follow_the_standards_table():
    for k in range(8):
        assert qr.format_bits(qr.L, k) == int(FORMAT_L[k], 2), k
        assert qr.format_bits(qr.M, k) == int(FORMAT_M[k], 2), k


def test_version_bits_follow_the_standards_table():
    for v in VERSION:
        assert qr.version_bits(v) == int(VERSION[v], 2), v


def _bits(sym, cells):
    """The modules at ``cells`` (bit 0 first) as a number."""
    n = 0
    for i in range(len(cells)):
        n |= sym.dark(cells[i][0], cells[i][1]) << i
    return n


def test_both_copies_of_the_format_bits():
    for data, mask in (("A", 0), ("http://192.168.4.1/", 5), ("x" * 150, 7), ("y" * 60, None)):
        sym = qr.encode(data, mask)
        s = sym.size
        first = [(8, y) for y in (0, 1, 2, 3, 4, 5, 7, 8)] + [(x, 8) for x in (7, 5, 4, 3, 2, 1, 0)]
        second = [(s - 1 - i, 8) for i in range(8)] + [(8, s - 7 + i) for i in range(7)]
        want = qr.format_bits(sym.level, sym.mask)
        assert _bits(sym, first) == want and _bits(sym, second) == want, (data, mask)
        assert sym.dark(8, s - 8)  # the dark module


def test_both_blocks_of_the_version_bits():
    for v in (7, 8, 9):
        sym = qr.encode("version", least=v)
        s = sym.size
        lower_left = [(i // 3, s - 11 + i % 3) for i in range(18)]
        upper_right = [(s - 11 + i % 3, i // 3) for i in range(18)]
        assert _bits(sym, lower_left) == _bits(sym, upper_right) == qr.version_bits(v), v


def _ring(sym, cx, cy, r):
    """The colours of the square ring at distance ``r`` from (cx, cy): a set."""
    if r == 0:
        return {sym.dark(cx, cy)}
    return {sym.dark(x, y) for x in range(cx - r, cx + r + 1) for y in range(cy - r, cy + r + 1)
            if max(abs(x - cx), abs(y - cy)) == r}


def test_finders_separators_and_timing():
    sym = qr.encode("finder")
    s = sym.size
    for cx, cy in ((3, 3), (s - 4, 3), (3, s - 4)):
        assert _ring(sym, cx, cy, 0) == _ring(sym, cx, cy, 1) == {1}
        assert _ring(sym, cx, cy, 2) == {0} and _ring(sym, cx, cy, 3) == {1}
        seps = [(x, 7 if cy == 3 else s - 8) for x in range(8)]
        seps = [(x if cx == 3 else s - 1 - x, y) for x, y in seps]
        assert all(not sym.dark(x, y) for x, y in seps)
    for i in range(8, s - 8):
        assert sym.dark(i, 6) == sym.dark(6, i) == (i % 2 == 0), i


def test_alignment_pattern_of_version_2():
    sym = qr.encode("x" * 20)
    assert sym.version == 2
    assert _ring(sym, 18, 18, 0) == {1} and _ring(sym, 18, 18, 1) == {0}
    assert _ring(sym, 18, 18, 2) == {1}


def test_alignment_patterns_of_version_7():
    sym = qr.encode("seven", least=7)
    for cx in (6, 22, 38):
        for cy in (6, 22, 38):
            if (cx, cy) in ((6, 6), (6, 38), (38, 6)):
                continue  # the finders are there
            assert _ring(sym, cx, cy, 0) == {1} and _ring(sym, cx, cy, 1) == {0}, (cx, cy)
            assert _ring(sym, cx, cy, 2) == {1}, (cx, cy)


def test_the_free_modules_hold_the_codewords_and_the_remainder_bits():
    for v in range(1, 10):
        size = 17 + 4 * v
        fb = qr._frame(size)
        fb.fill(0)
        qr._patterns(fb, v, 2, 3)
        free = 0
        for i in range(size * size):
            free += not qr._m[i] & 2
        assert free == qr._TOTAL[v - 1] * 8 + (7 if 2 <= v <= 6 else 0), v


# -- the penalty, against the rules read one at a time -----------------------------------------
def _plain_penalty(m, size, k):
    """The four rules of ISO/IEC 18004 7.8.3 for mask ``k``, the simple way."""
    px = [[m[y * size + x] >> k & 1 for x in range(size)] for y in range(size)]
    lines = px + [[px[y][x] for y in range(size)] for x in range(size)]
    score = 0
    for line in lines:
        run = 1
        for i in range(1, size + 1):
            if i < size and line[i] == line[i - 1]:
                run += 1
            else:
                if run >= 5:
                    score += 3 + run - 5
                run = 1
        padded = "0000" + "".join("%d" % b for b in line) + "0000"  # the quiet zone is light
        for i in range(len(padded) - 10):
            if padded[i:i + 11] in ("00001011101", "10111010000"):
                score += 40
    for y in range(size - 1):
        for x in range(size - 1):
            if px[y][x] == px[y][x + 1] == px[y + 1][x] == px[y + 1][x + 1]:
                score += 3
    dark = 0
    for row in px:
        dark += sum(row)
    away = abs(dark * 100 - 50 * size * size)  # how far from half, in 1/(size * size) %
    steps = 0
    while away > 5 * size * size * (steps + 1):  # past 55 % (or under 45 %): 10, and so on
        steps += 1
    return score + 10 * steps


def test_penalties_of_hand_made_symbols():
    light = bytearray(21 * 21)
    # Rows and columns: 42 runs of 21 (19 each); 400 blocks (3 each); 0 % dark (90).
    assert qr.penalties(light, 21) == [42 * 19 + 400 * 3 + 90] * 8
    one = bytearray(11 * 11)
    for x, b in enumerate((1, 0, 1, 1, 1, 0, 1)):
        one[5 * 11 + x] = b * 0xFF  # 1011101 against the left edge, four light after it
    scores = qr.penalties(one, 11)
    assert scores[0] == _plain_penalty(one, 11, 0)
    assert scores.count(scores[0]) == 8
    lanes = bytearray(11 * 11)
    for x, b in enumerate((1, 0, 1, 1, 1, 0, 1)):
        lanes[5 * 11 + x] = b * 0x0F  # the same, under masks 0-3 only
    scores = qr.penalties(lanes, 11)
    assert scores[:4] == [scores[0]] * 4 and scores[4:] == [qr.penalties(bytearray(121), 11)[0]] * 4
    assert scores[0] - scores[4] == _plain_penalty(one, 11, 0) - _plain_penalty(bytearray(121), 11, 0)


def test_penalties_follow_the_rules_on_symbols_and_noise():
    rnd = Xorshift(36)
    for n in (1, 17, 30, 61, 100):
        sym = qr.encode(bytes(rnd.below(256) for _ in range(n)))
        scores = qr.penalties(qr._m, sym.size)
        for k in range(8):
            assert scores[k] == _plain_penalty(qr._m, sym.size, k), (n, k)
        assert scores[sym.mask] == min(scores) and scores.index(min(scores)) == sym.mask
    for size in (5, 12, 23):
        noise = bytearray(rnd.below(256) for _ in range(size * size))
        scores = qr.penalties(noise, size)
        for k in range(8):
            assert scores[k] == _plain_penalty(noise, size, k), (size, k)


def test_a_fixed_mask_is_kept():
    for k in range(8):
        assert qr.encode("mask", k).mask == k


# -- on the panel ----------------------------------------------------------------------------
def test_drawn_inverted_with_its_quiet_zone_at_every_scale():
    for data, px in (("http://192.168.4.1/", 1), ("x", 2), ("x", 1)):
        sym = qr.encode(data)
        fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
        side = qr.draw(fb, sym, 10, 3, px)
        assert side == (sym.size + 8) * px
        for y in range(side):
            for x in range(side):
                mx, my = x // px - 4, y // px - 4
                inside = 0 <= mx < sym.size and 0 <= my < sym.size
                lit = not (inside and sym.dark(mx, my))  # dark modules off, the ground lit
                assert fb.pixel(10 + x, 3 + y) == lit, (px, x, y)
        assert not fb.pixel(9, 3) and not fb.pixel(10 + side, 3) and not fb.pixel(10, 2)
    assert qr.scale(qr.encode("http://192.168.4.1/"), 64) == 1 and qr.scale(sym, 64) == 2
