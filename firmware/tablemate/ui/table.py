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


def draw(fb, names, values, lit=(), bar=-1):
    """Draw the cells of every player: ``values`` are the numbers shown (a pending change
    included), ``lit`` the players whose whole cell is lit (the turn's player; the winners once
    the game is over), ``bar`` a player whose name bar is lit (the cursor moved on purpose)."""
    n = len(names)
    medium, big = text.large()
    font = big if n <= 4 else medium
    cols, w, rows = layout(n)
    fitted = _FIT.get(w)
    if fitted is None:
        fitted = _FIT[w] = {}
    sized = _SIZED.get(font)
    if sized is None:
        sized = _SIZED[font] = {}
    small = text.SMALL
    for i in range(n):
        x = (i % cols) * w
        page = rows[i // cols]
        full = i in lit
        if full:  # to the digits' lit margin (14 px of ink in 16): the cell's last row dark
            text.bar(fb, x, page, w, 23)
        elif i == bar:
            text.bar(fb, x, page, w)
        color = 0 if full else 1
        name = names[i]
        shown = fitted.get(name)
        if shown is None:
            if len(fitted) > 15:
                fitted.clear()
            shown = fitted[name] = text.fit(name, w - 3)
        text.put(fb, shown, x + 2, page, small, 0 if full or i == bar else 1)
        v = values[i]
        got = sized.get(v)
        if got is None:
            if len(sized) > 2 * n:  # this frame's values and the last one's, about
                sized.clear()
            s = ("%d" % v).encode()
            got = sized[v] = (s, text.digits_width(s, font) - font.spacing)
        s, sw = got
        if sw > w - 2:  # five digits in a quarter of the screen: the text font still fits
            s = s.decode()
            text.put(fb, s, x + (w - text.width(s)) // 2, page + 1, color=color)
        else:
            text.put_digits(fb, s, x + (w - sw) // 2, page + 1, font, color)
        if full:  # dark digits are whole bytes: the row under their page is dark again
            fb.hline(x, 8 * page + 23, w, 0)


_FIT = {}  # cell width -> {name: the name as it fits}: text.fit measures every letter
# score font -> {value: (its digits as bytes, their ink width)}, about two a player:
# formatting a score and measuring it took a Pico 0.4 ms a cell, where most cells show the
# value of the frame before
_SIZED = {}
