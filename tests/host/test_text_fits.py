"""Every line fits: the key fuzzer's app (tests/logic/fuzz.py) through every mode, on every
layout, with the longest names allowed and with short ones, every frame checked by
``tablemate_host.textcheck`` (clipped, cut, run into a neighbour, drawn over).

The scenario tests check their own frames the same way (tests/scenario/conftest.py); this run
adds what a table reaches by chance: every mode's setup with its player counts, play, menus,
pages, results, standings and the history, 8-letter names in every seat.
"""

import os
import sys

import pytest

from tablemate_host import textcheck

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "logic"))
import fuzz  # noqa: E402

LONGEST = ("Wolfgang", "Beatrix", "Cleopatr", "Dominiqu", "Evangeli", "Fernanda", "Gwendoly",
           "Hannelor")
PRESSES = 1500


@pytest.mark.parametrize("names", ["longest", "short"])
@pytest.mark.parametrize("layout", fuzz.LAYOUTS)
def test_every_frame_of_every_mode_reads_as_drawn(tmp_path, monkeypatch, layout, names):
    from tablemate.options import NAME_MAX
    chosen = LONGEST if names == "longest" else fuzz.NAMES
    assert max(len(n) for n in LONGEST) == NAME_MAX
    monkeypatch.setattr(fuzz, "NAMES", chosen)
    with textcheck.Watch() as watch:
        f = fuzz.Fuzzer(str(tmp_path), layout, 5)
        stats = f.run(PRESSES)
    assert len(stats["started"]) == len(fuzz.modes.MODES), stats["started"]
    assert watch.frames > 1000, watch.frames
    assert not watch.problems, "\n".join(watch.problems)


def _frame(draw):
    """The problems the check finds in one frame drawn by ``draw(fb, text)`` on the real
    driver."""
    from tablemate.hw.ssd1306 import SSD1306
    from tablemate.ui import text
    fb = SSD1306(fuzz.NullI2C())
    with textcheck.Watch() as watch:
        fb.fill(0)
        draw(fb, text)
        fb.show()
    return watch.problems


def test_the_check_finds_each_kind_of_fault():
    assert _frame(lambda fb, t: (t.put(fb, "square wins", 20, 0), t.put(fb, "Deck 53", 84, 0)))
    # two numbers a few columns apart: the 8-player standings' "60" and the next column's "4"
    assert _frame(lambda fb, t: (t.draw_right(fb, "60", 63, 11), t.draw(fb, "4", 65, 11)))[
        0].startswith("runs into")
    assert _frame(lambda fb, t: (t.draw(fb, "Deck 5", 0, 0), t.draw(fb, "3 left", 38, 0)))
    assert _frame(lambda fb, t: t.put(fb, "Wolfgang misses the turn", 0, 7))[0].startswith(
        "clipped")
    assert _frame(lambda fb, t: t.put(fb, t.fit("+1 Ann, Bob, Cleo, Dev, Eve", 60), 0, 7))[
        0].startswith("cut")
    assert _frame(lambda fb, t: (t.put_digits(fb, 12, 0, 5, t.large()[1]),
                                 fb.fill_rect(0, 53, 128, 11, 1)))[0].startswith("drawn over")
    # (a line on the baseline; row 7 under it is blank in every glyph, a band's top row)
    assert _frame(lambda fb, t: (t.put(fb, "Ann", 0, 0), fb.hline(0, 6, 20, 1)))
    # a clock drawn on the row under a score's ink (the 12-px digits leave no row inside them)
    assert _frame(lambda fb, t: (t.put_digits(fb, 12, 0, 2, t.large()[0]),
                                 t.draw(fb, "9:49", 0, 28)))[0].startswith("touches")


def test_the_check_finds_dark_text_cut_by_its_bands_edge():
    """Issue 32: a lit cell's band began at its page's top, the capitals' top row: "Fred." read
    "Frec.". Dark text whose ink meets the edge of its band, on any side, is a fault."""
    def old_bar(fb, t, page):
        fb.fill_rect(0, 8 * page, 60, 8, 1)  # the band as every lit row drew it
        t.put(fb, "Fred.", 2, page, color=0)
    found = _frame(lambda fb, t: old_bar(fb, t, 2))
    assert len(found) == 1 and found[0].startswith("edge: 'Fred.' at (2, 16)"), found
    assert "(top)" in found[0], found
    found = _frame(lambda fb, t: (t.bar(fb, 0, 0, 60), t.put(fb, "Fred.", 2, 0, color=0)))
    assert found and "(top)" in found[0], "page 0: the screen's edge is the band's" + str(found)
    found = _frame(lambda fb, t: (t.bar(fb, 2, 3, 20), t.put(fb, "Ann", 2, 3, color=0)))
    assert found and "(left)" in found[0], found
    found = _frame(lambda fb, t: (fb.fill_rect(0, 23, 60, 8, 1), t.put(fb, "Guy", 2, 3, color=0)))
    assert not found, found  # the band may end at the font's blank last row: no descender
    assert not _frame(lambda fb, t: (t.bar(fb, 0, 2, 60), t.put(fb, "Fred. Peggy", 2, 2, color=0)))


def test_what_the_check_lets_through():
    # a window over the screen (a dialog clears its box), a row redrawn, a struck-out name,
    # a name cut with its '.', two texts a column apart
    assert not _frame(lambda fb, t: (t.put(fb, "Players: 4", 2, 2), fb.fill_rect(10, 12, 100, 30, 0),
                                     fb.rect(10, 12, 100, 30, 1), t.draw(fb, "Replace?", 20, 20)))
    assert not _frame(lambda fb, t: (t.put(fb, "Round 1", 0, 0), t.put(fb, "Round 12", 0, 0)))
    assert not _frame(lambda fb, t: (t.put(fb, "Dee", 2, 4), fb.hline(1, 36, 20, 1)))
    assert not _frame(lambda fb, t: t.put(fb, t.fit("Wolfgang", 30), 0, 0))
    assert not _frame(lambda fb, t: (t.put(fb, "yellow won", 20, 0), t.put(fb, "Deck 53", 86, 0)))
    # numbers a space apart, and a number beside a word two columns on
    assert not _frame(lambda fb, t: (t.draw_right(fb, "60", 61, 11), t.draw(fb, "4", 67, 11)))
    assert not _frame(lambda fb, t: (t.draw_right(fb, "60", 63, 11), t.draw(fb, "Ann", 65, 11)))
