"""The score table of a game's main view: every score readable from across the table.

A 0.96" panel shows 7-px text at about 1.2 mm, too small to read from the other side of a table,
so scores are drawn in the score fonts: 14 px for one to four players, 12 px for five to eight
(``text.large()``). Each player has a cell: the name on one page, the score on the two pages
below it, all on the display's 8-pixel page grid, where text is copied as bytes. One or two
players share one row of cells, three or four a 2x2 grid, five or six three columns of two rows,
seven or eight four columns. The page above the cells is the mode's status line, the one below
them (page 7) the message line.

Whose turn it is cannot be missed: that player's whole cell is lit. The cell that LEFT/RIGHT
change (the cursor) is the turn's unless the player moved it: then that cell's name bar is lit.
When the game is over the winners' cells are lit instead.
"""

from micropython import const

from tablemate import FROZEN
from tablemate.ui import text

_W = const(128)


def layout(n):
    """(columns, cell width, first page of each row) for ``n`` players."""
    if n <= 2:
        return n, _W // n, (2,)
    if n <= 4:
        return 2, 64, (1, 4)
    if n <= 6:
        return 3, 42, (1, 4)
    return 4, 32, (1, 4)


def draw(fb, names, values, lit=(), bar=-1, marks=None, crossed=None, mark="%d", later=None):
    """Draw the cells of every player: ``values`` are the numbers shown (a pending change
    included), ``lit`` the players whose whole cell is lit (the turn's player; the winners once
    the game is over), ``bar`` a player whose name bar is lit (the cursor moved on purpose);
    ``marks``: a number at the right of each name bar, written ``mark % number`` (Viewpoint's
    "5c", a hand of five), ``crossed``: whose name is struck through (a Viewpoint player who
    misses the next turn).

    Where it ``keeps`` them (``ui/cells.py``), a cell that shows what it showed before is
    copied from the cells kept in quiet passes: ``later`` (the app's ``soon``) is given the
    function that keeps those drawn here. Without it nothing is kept, and every cell drawn."""
    n = len(names)
    medium, big = text.large()
    font = big if n <= 4 else medium
    cols, w, rows = layout(n)
    sized = _SIZED.get(font)
    if sized is None:
        sized = _SIZED[font] = {}
    kept = None
    if later is not None and keeps(fb):
        kept = _kept[0]
        if kept is None or kept.n != n or kept.font is not font:  # nothing kept for this one
            from tablemate.ui import cells  # .mpy: not at 400 kHz
            kept = _kept[0] = cells.Kept(n, font, len(rows), _cell)
    for i in range(n):
        x = (i % cols) * w
        page = rows[i // cols]
        look = 2 if i in lit else 1 if i == bar else 0
        name = names[i]
        v = values[i]
        tag = marks and marks[i]
        cross = crossed and crossed[i]
        shows = kept and (name, v, look, tag, cross)
        if kept is not None and kept.shows[i] == shows:
            kept.copy(fb, i, page * _W + x, w)
        else:
            shown = text.fit(name, w - 3)  # the text font is fixed: no letter measured
            sw = sized.get(v)
            if sw is None:
                if len(sized) > 2 * n:  # this frame's values and the last one's, about
                    sized.clear()
                sw = sized[v] = text.digits_width(v, font) - font.spacing
            if tag is not None:
                tag = mark % tag
            _cell(fb, page, x, w, font, shown, v, sw, look, tag, cross)
            if kept is not None:  # to be kept by ``Kept.keep``
                kept.todo[i] = (shows, (x, w, font, shown, v, sw, look, tag, cross))
                kept.pending = True
        if look:  # a lit band begins on the row above the cell (``text.bar``): not the cell's
            fb.hline(x, 8 * page - 1, w, 1)
    if kept is not None and kept.pending:
        later(kept.keep)


def keeps(fb):
    """Whether the table keeps its cells (``ui/cells.py``) on display ``fb``: frozen into a
    UF2, where the module costs no heap and 1-2 KB of it are spare, and on a fast bus, where
    drawing a frame costs as much as its wire. Not in a ``.mpy`` install at 400 kHz: its heap
    has no room for them."""
    return FROZEN or fb.fast()


def _cell(fb, page, x, w, font, shown, v, sw, look, tag, cross):
    """Draw one cell on a clear background, its name bar on ``page``, its number on the two
    pages below (the row above a lit band is the page above's: ``draw`` lights it)."""
    y = 8 * page
    if look:  # to the digits' lit margin (14 px of ink in 16) for the whole cell
        fb.fill_rect(x, y, w, 23 if look == 2 else 8, 1)
    color = 0 if look else 1
    text.put(fb, shown, x + 2, page, text.SMALL, color)
    if tag:
        text.put(fb, tag, x + w - 1 - text.width(tag), page, color=color)
    if cross:
        fb.hline(x + 1, y + 4, text.width(shown) + 2, color)
    color = 0 if look == 2 else 1
    if sw > w - 2:  # five digits in a quarter of the screen: the text font still fits
        s = "%d" % v
        text.put(fb, s, x + (w - text.width(s)) // 2, page + 1, color=color)
    else:
        text.put_digits(fb, v, x + (w - sw) // 2, page + 1, font, color)
    if look == 2:  # dark digits are whole bytes: the row under their page is dark again
        fb.hline(x, y + 23, w, 0)


# score font -> {value: its digits' ink width}, about two a player: measuring a score took a
# Pico 0.4 ms a cell, where most cells show the value of the frame before (a width is a small
# int, held in the dict itself: its digits, formatted again by ``put_digits``, were 64 B each)
_SIZED = {}
_kept = [None]  # where the table ``keeps`` them, the cells kept of the last table drawn
