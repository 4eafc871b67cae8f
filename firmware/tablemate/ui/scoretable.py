"""The score table: up to eight players' names and scores in the area below a status line.

One or two players get big digits that read from across the table; three or four get one row each;
five to eight get two columns of four. The player whose turn it is is drawn inverted, so it
cannot be missed; the cursor (the row LEFT/RIGHT change, the turn's player unless moved) is an
arrow, so moving it changes a few columns of the panel, not two whole rows (about 60 bytes on
the bus instead of 512). A pending (not yet committed) change shows beside the score.
"""

from micropython import const

from tablemate.ui import text

_PITCH = const(13)


def draw(fb, names, scores, y0, selected=-1, turn=-1, pending=0):
    """Draw the table from row ``y0`` down to the bottom of the screen."""
    n = len(names)
    if n <= 2:
        for i in range(n):
            _big_cell(fb, i * 64, y0, 64 if n == 2 else 128, names[i], scores[i],
                      i == selected, i == turn, pending if i == selected else 0)
    elif n <= 4:
        for i in range(n):
            _row(fb, 0, y0 + i * _PITCH, 128, names[i], scores[i],
                 i == selected, i == turn, pending if i == selected else 0)
    else:
        for i in range(n):
            _row(fb, 0 if i < 4 else 65, y0 + (i % 4) * _PITCH, 63, names[i], scores[i],
                 i == selected, i == turn, pending if i == selected else 0)


def winners_text(names, winners):
    """'Ann wins!' or 'Tie: Ann, Bob' for a finished game's winner indices."""
    if len(winners) == 1:
        return names[winners[0]] + " wins!"
    return "Tie: " + ", ".join(names[i] for i in winners)


def _label(fb, x, y, w, name, selected, turn):
    """Name with the cursor arrow; inverted on the player's turn."""
    if turn:
        fb.fill_rect(x, y - 2, w, 11, 1)
    color = 0 if turn else 1
    if selected:
        text.draw(fb, text.ARROW, x + 1, y, color=color)
    text.draw(fb, text.fit(name, w - 10), x + 8, y, color=color)


def _signed(value):
    return "+%d" % value if value > 0 else "%d" % value


def _big_cell(fb, x, y, w, name, score, selected, turn, pending):
    _label(fb, x, y + 2, w - 1, name, selected, turn)
    shown = "%d" % score
    sx = x + (w - text.width(shown, text.BIG)) // 2
    text.draw(fb, shown, sx, y + 14, text.BIG)
    if pending:
        p = _signed(pending)
        text.draw(fb, p, x + (w - text.width(p)) // 2, y + 33)


def _row(fb, x, y, w, name, score, selected, turn, pending):
    shown = "%d" % score
    sw = text.width(shown)
    if turn:
        fb.fill_rect(x, y, w, _PITCH - 1, 1)
    color = 0 if turn else 1
    ty = y + 2
    if selected:
        text.draw(fb, text.ARROW, x + 1, ty, color=color)
    room = w - 10 - sw - 2
    if pending:
        p = _signed(pending)
        pw = text.width(p)
        room -= pw + 3
        text.draw(fb, p, x + w - 2 - sw - 3 - pw, ty, color=color)
    text.draw(fb, text.fit(name, room), x + 8, ty, color=color)
    text.draw(fb, shown, x + w - 2 - sw, ty, color=color)
