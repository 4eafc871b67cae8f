"""Name entry: a grid of characters around a done cell, and the recent names offered whole.

The grid has 5 rows of 9 cells on the display's pages 2-6. After every typed character the
cursor goes back to the done cell (a check mark), so a letter always costs the same presses.

Six and five buttons: the check mark is in the middle; the most common letters of first names
are one arrow press from it (a e n r), the next eight two presses, then ten at three and the
rarest four (w z x q) at four. A 3-letter name (a capital, then small letters) therefore takes
at most 15 presses on six buttons: 3 x (4 moves + OK), holding the last OK to save at once.
Ending on the check mark instead is one press more, 16 only when all three letters are among
w x z q. Why the cursor goes back: with four arrow keys at most 25 cells lie within three
presses of a cell, and a name's letters are spread over 26 (plus the check mark); where the
cursor stays on the last letter typed, two letters of a 5 x 6 or 4 x 8 grid can be five or six
presses apart, and a name of rare letters takes about 20 presses.

Three buttons and the encoder walk the cells in reading order (UP/DOWN, or the turns): the
check mark is the first cell and the letters follow from the most common; the recent names come
just before it, one UP (one turn back) away.

Keys: OK (push) types the cell under the cursor; BACK (five and three buttons: hold OK; the
encoder: a long push) deletes the last character, or leaves the name as it was when nothing was
typed; on six buttons, holding OK on a letter types it and saves. The old name is shown
without the cursor: the first character typed replaces it, delete edits it, the check mark
keeps it.
Letters come as capitals at the start of a name and after a space or a hyphen, small elsewhere;
"Aa" flips the case of the next letter. "#+" shows the digits and every other printable
character ("ab" goes back); "sp" is a space, "<-" deletes.

Recent names (the row above the grid) are the names replaced since the settings were opened,
then the other players' names: the settings keep only the 8 current names. Once a name has
begun, only those starting with what was typed are offered. On six and five buttons UP from the
grid's top row (or DOWN from its bottom row) reaches the first of them; on three buttons and the
encoder the last is one UP before the check mark. Picking one puts it in the name, selected,
with the cursor on the check mark.

Drawing: the five grid rows of each page and case are composed once (``text.line``) and copied
whole; the cursor is its cell's 13 columns inverted on one page, and the row above them lit
(the lit band's row over a capital, ``text.bar``), so a move changes a few short spans.
"""

from micropython import const

from tablemate import keys as K
from tablemate.ui import Screen, text

COLS = const(9)
ROWS = const(5)
CELLS = const(45)
HOME = const(22)  # six and five buttons: the check mark, row 2, column 4
MAX = const(8)  # characters in a name (tablemate.store.settings)
_PITCH = const(14)
_X0 = const(1)
_CELL_W = const(13)
_GRID_PAGE = const(2)  # the grid's first page
_RECENT_PAGE = const(1)
_HINT_PAGE = const(7)
_GAP = const(6)  # between recent names

DONE = text.CHECK
DELETE = "\x10"
SHIFT = "\x11"
PAGE = "\x12"
# Six and five buttons: the letters page in reading order, rings of cells around the check mark
# by how often each letter appears in first names (a e n r / i l o t h s m y /
# d c j u b g k p v f / w z x q), then space, delete, the case and page cells, digits.
LETTERS = ("12" + SHIFT + "kmp" + PAGE + "34"
           "5xjontuq6"
           "wdia" + DONE + "elcz"
           "7 bhrsg" + DELETE + "8"
           "90-vyf'.&")
# Digits and the other printable characters; check mark, delete and page cells where they are
# on the letters page.
SYMBOLS = ("123456" + PAGE + "78"
           "90!\"#$%&'"
           "()*+" + DONE + ",-./"
           ":;<=>?@" + DELETE + "["
           "\\]^_`{|}~")
# Three buttons and the encoder walk the cells in reading order: the check mark first, then the
# letters from the most common; the recent names come right before it (one UP from it).
WALK_LETTERS = (DONE + "aenrilot"
                "hsmydcjub"
                "gkpvfwzxq"
                "123456789"
                "0-'.& " + SHIFT + PAGE + DELETE)
WALK_SYMBOLS = (DONE + "12345678"
                "90!\"#$%&'"
                "()*+,-./:"
                ";<=>?@[\\]"
                "^_`{|}~" + PAGE + DELETE)
GRIDS = ((LETTERS, SYMBOLS), (WALK_LETTERS, WALK_SYMBOLS))  # [linear][page]
HOMES = (HOME, 0)  # [linear]: where the cursor rests, on the check mark
_LABELS = {DONE: DONE, DELETE: "<-", SHIFT: "Aa", " ": "sp"}


def move(cell, key):
    """The grid cell (0-44, reading order) an arrow key moves the cursor to from ``cell``,
    wrapping at the edges (the recent names' row aside)."""
    row = cell // COLS
    col = cell % COLS
    if key == K.LEFT:
        col = (col - 1) % COLS
    elif key == K.RIGHT:
        col = (col + 1) % COLS
    elif key == K.UP:
        row = (row - 1) % ROWS
    elif key == K.DOWN:
        row = (row + 1) % ROWS
    return row * COLS + col


def recent(names, skip=()):
    """The names worth offering whole: ``names`` in order, each once, none of ``skip``."""
    out = []
    for n in names:
        if n not in out and n not in skip:
            out.append(n)
    return out


def edit(app, names, i, on_done):
    """Open the name entry for player ``i`` of ``names`` in place of the list it was picked
    from (the settings' picker, the setup's), offering whole the names replaced since the
    settings were saved (in ``app.settings``, not in ``names``), then the other players'."""
    from tablemate.store.settings import DEFAULTS  # .mpy: 3.8 KB, let go once read (app.py)
    gone = [n for n in app.settings["names"] if n not in names]
    offer = recent(gone + names, DEFAULTS["names"] + [names[i]])
    app.replace(NameEntry(app, "Player %d" % (i + 1), names[i], on_done, offer))


def _capital(name):
    """True when a letter after ``name`` starts a word."""
    return not name or name[-1] == " " or name[-1] == "-"


class NameEntry(Screen):
    """Enter a name of 1-8 printable characters; pops itself, then calls ``on_done(name)``.

    ``title`` heads the name ("Player 1"), ``name`` is the current one (kept unless changed),
    ``recent`` the names offered whole.
    """

    def __init__(self, app, title, name, on_done, recent=()):
        Screen.__init__(self, app)
        self.title = title + ": "
        self.name = name
        self.fresh = True  # the old name, selected: typing replaces it
        self.on_done = on_done
        self.recent = list(recent)
        self.shown = self.recent  # those that begin with what was typed
        self.walk = 1 if K.linear(app.layout) else 0
        self.home = HOMES[self.walk]
        self.page = 0  # 0 letters, 1 symbols
        self.shift = False  # the next letter in the other case
        self.cell = self.home
        self.pick = -1  # the recent name under the cursor; -1: the cursor is in the grid
        self.first = 0  # the first recent name drawn
        self.typed = False  # the last OK typed a character: holding it saves (six buttons)
        back = K.BACK_WORD.get(app.layout, "BACK")
        self.hints = (back + ": leave",
                      "BACK:del  hold OK:" + DONE if back == "BACK" else back + ": delete")
        self._rows = {}

    # -- keys --------------------------------------------------------------------------------
    def key(self, key, kind):
        if key <= K.RIGHT:
            if kind == K.PRESS or kind == K.REPEAT:
                self.typed = False
                if self.walk and key <= K.DOWN:
                    self._walk(1 if key == K.DOWN else -1)
                else:
                    self._move(key)
                self.dirty = True
        elif key == K.OK:
            if kind == K.PRESS:
                self._ok()
            elif kind == K.LONG and self.typed:
                self._save()
        elif key == K.BACK and kind == K.PRESS:
            self.typed = False
            if self.fresh or not self.name:
                self.app.pop()
            else:
                self._set(self.name[:-1], False)

    def _move(self, key):
        """An arrow on six or five buttons: the recent names are a row above the grid."""
        if self.pick >= 0:
            if key == K.LEFT or key == K.RIGHT:
                self.pick = (self.pick + (1 if key == K.RIGHT else -1)) % len(self.shown)
                self._column_of_pick()
            else:
                self.cell = (0 if key == K.DOWN else CELLS - COLS) + self.cell % COLS
                self.pick = -1
            return
        row = self.cell // COLS
        if self.shown and ((key == K.UP and row == 0) or (key == K.DOWN and row == ROWS - 1)):
            self.pick = 0  # over the edge: the recent names, from the first
            self._column_of_pick()
            return
        self.cell = move(self.cell, key)

    def _walk(self, step):
        """UP/DOWN on three buttons or the encoder: the recent names, then the cells; a ring."""
        n = len(self.shown)
        i = self.pick if self.pick >= 0 else n + self.cell
        i = (i + step) % (n + CELLS)
        if i < n:
            self.pick = i
            self._column_of_pick()
        else:
            self.pick = -1
            self.cell = i - n

    def _ok(self):
        self.typed = False
        self.dirty = True
        if self.pick >= 0:
            self.shift = False
            self._set(self.shown[self.pick], True)
            self.pick = -1
            self.cell = self.home
            return
        c = GRIDS[self.walk][self.page][self.cell]
        if c == DONE:
            self._save()
        elif c == DELETE:
            self._set(self.name[:-1], False)
        elif c == SHIFT:
            self.shift = not self.shift
        elif c == PAGE:
            self.page = 1 - self.page
        else:
            name = "" if self.fresh else self.name
            if len(name) < MAX and not (c == " " and (not name or name[-1] == " ")):
                if "a" <= c <= "z" and _capital(name) != self.shift:
                    c = c.upper()
                self.shift = False
                self._set(name + c, False)
                self.typed = True
            self.cell = self.home

    def _set(self, name, fresh):
        """The name is now ``name``: offer the recent names that begin with it."""
        self.name = name
        self.fresh = fresh
        self.dirty = True
        if fresh or not name:
            shown = self.recent
        else:
            low = name.lower()
            shown = [n for n in self.recent if n != name and n.lower().startswith(low)]
        if shown != self.shown:
            self.shown = shown
            self.first = 0
            if self.pick >= 0:  # BACK deleted with the cursor on a recent name
                if shown:
                    self.pick = min(self.pick, len(shown) - 1)
                    self._column_of_pick()
                else:
                    self.pick = -1
                    self.cell = self.home

    def _save(self):
        name = self.name.rstrip()
        if name:
            self.app.pop()
            self.on_done(name)

    # -- the recent names' row ---------------------------------------------------------------
    def _spans(self):
        """``(index, x, width)`` of the recent names drawn: from ``first``, as many as fit."""
        out = []
        x = 0
        for i in range(self.first, len(self.shown)):
            w = text.width(self.shown[i])
            if x + w > 128 and out:  # its last column would be off the screen
                break
            out.append((i, x, w))
            x += w + _GAP
        return out

    def _column_of_pick(self):
        """Scroll the row so that the picked name is drawn; DOWN or UP leads back to the grid
        column under it."""
        if self.pick < self.first:
            self.first = self.pick
        while self._spans()[-1][0] < self.pick:
            self.first += 1
        for i, x, w in self._spans():
            if i == self.pick:
                col = (x + w // 2 - _X0) // _PITCH
                self.cell = self.cell - self.cell % COLS + min(COLS - 1, max(0, col))

    # -- drawing -----------------------------------------------------------------------------
    def _grid(self):
        """The five rows of the page shown, in the case of the next letter, as page bytes."""
        upper = self.page == 0 and (self.fresh or _capital(self.name)) != self.shift
        key = self.page * 2 + (1 if upper else 0)
        rows = self._rows.get(key)
        if rows is None:
            cells = GRIDS[self.walk][self.page]
            rows = []
            for r in range(ROWS):
                parts = []
                for c in range(COLS):
                    ch = cells[r * COLS + c]
                    if ch == PAGE:
                        label = "ab" if self.page else "#+"
                    else:
                        label = _LABELS.get(ch) or (ch.upper() if upper else ch)
                    parts.append((label, _X0 + c * _PITCH + (_CELL_W - text.ink_width(label)) // 2))
                rows.append(text.line(parts))
            self._rows[key] = rows
        return rows

    def draw(self, fb):
        buf = fb.buf
        x = text.put(fb, self.title, 0, 0)
        # The old name stands without the cursor until a key edits it. It was shown dark on a
        # lit bar, but page 0 has no row above for the bar (``text.bar``): its capitals' top
        # row met the screen's edge.
        x = text.put(fb, self.name, x, 0)
        if not self.fresh and len(self.name) < MAX:
            text.put(fb, "_", x, 0)
        for i, x, w in self._spans():
            if i == self.pick:
                text.bar(fb, x, _RECENT_PAGE, w + 1)
                text.put(fb, self.shown[i], x + 1, _RECENT_PAGE, color=0)
            else:
                text.put(fb, self.shown[i], x + 1, _RECENT_PAGE)
        rows = self._grid()
        o = _GRID_PAGE * 128
        for r in range(ROWS):
            buf[o:o + 128] = rows[r]
            o += 128
        if self.pick < 0:  # the cursor's cell inverted, with the row above it (``text.bar``)
            page = _GRID_PAGE + self.cell // COLS
            x = _X0 + (self.cell % COLS) * _PITCH
            o = page * 128 + x
            for i in range(o, o + _CELL_W):
                buf[i] ^= 0xFF
            fb.fill_rect(x, 8 * page - 1, _CELL_W, 1, 1)
        text.put(fb, self.hints[0 if self.fresh or not self.name else 1], 0, _HINT_PAGE)
