"""The score table on a fast bus copies the cells it kept (``ui/cells.py``): every frame must
be the one the table draws whole, whatever changed, whenever the cells drawn were kept.

Runs on CPython and on the MicroPython VM (the real ``framebuf``)."""

import rig
from fuzz import Xorshift
from tablemate.hw.ssd1306 import SSD1306
from tablemate.ui import table, text

FAST = 1000000
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
MARKS = [5, 12, 0, None]


def _frame(d, names, values, lit, bar, tags, crossed):
    """The frame's bytes and what the table asked to run later (the keep, or nothing)."""
    d.clear()
    text.put(d, "Needs 35", 0, 0)  # a status line above the cells: the row a lit bar starts on
    later = []
    table.draw(d, names, values, lit, bar, tags, crossed, "%dc", later.append)
    return bytes(d.buf), later


def test_kept_cells_make_the_frame_the_table_draws_whole():
    rnd = Xorshift(7)  # the fuzzer's: the same draws on both VMs

    def pick(seq):
        return seq[rnd.below(len(seq))]

    slow = SSD1306(rig.NullI2C())
    fast = SSD1306(rig.NullI2C(), hz=FAST)
    copied = 0
    for n in (2, 4, 6, 8, 3, 1, 6):
        names = NAMES[:n]
        values = [pick((0, 5, 35, 100, 99999, -3)) for _ in names]
        for step in range(40):
            i = rnd.below(n)
            change = rnd.below(5)
            if change == 0:
                values[i] = pick((0, 7, 12, 100, 12345, -20))
            if change == 1:  # no one, or the winners
                lit = tuple(p for p in range(n) if rnd.chance(300))
            else:  # whose turn it is
                lit = ((step // 3) % n,)
            bar = pick((-1, -1, i))
            tags = [pick(MARKS) for _ in names] if change == 2 else None
            crossed = [rnd.chance(300) for _ in names] if change == 3 else None
            whole, more = _frame(slow, names, values, lit, bar, tags, crossed)
            assert not more  # 400 kHz: nothing kept
            got, more = _frame(fast, names, values, lit, bar, tags, crossed)
            assert got == whole, (n, step, values, lit, bar, tags, crossed)
            if more and rnd.chance(700):  # a quiet pass came (or a key first)
                more[0]()
            again, _ = _frame(fast, names, values, lit, bar, tags, crossed)
            assert again == whole, (n, step, "again")
            copied += 1
    assert copied == 7 * 40


def test_a_kept_cell_is_copied_not_drawn():
    """Drawn again unchanged once kept, no cell is drawn: the text cache is not asked."""
    fast = SSD1306(rig.NullI2C(), hz=FAST)
    names, values = NAMES[:6], [10, 20, 30, 40, 50, 60]
    later = []
    table.draw(fast, names, values, (2,), -1, [1] * 6, None, "%dc", later.append)
    later[0]()
    seen = []
    put = text.put
    text.put = lambda *a, **k: seen.append(a[1]) or put(*a, **k)
    try:
        table.draw(fast, names, values, (2,), -1, [1] * 6, None, "%dc", later.append)
        assert len(later) == 1  # nothing new to keep
        values[4] = 55
        table.draw(fast, names, values, (2,), -1, [1] * 6, None, "%dc", later.append)
        assert len(later) == 2
    finally:
        text.put = put
    assert seen == ["Eve", "1c"], seen  # the changed cell only, its digits copied by put_digits
