"""Contrast: the players reveal their cards, and the device is told the picks and settles the round.

One screen, three views.

PICK: the player named on the inverted bar at the top picks from a 6x2 grid of the twelve
symbols, a column per card (its two symbols); the round number is beside the name, the symbol
under the cursor and the deck at the bottom, what UP and DOWN do between the rows ("^ other
end", "v picked"). LEFT/RIGHT move in reading order (on into the other
row), UP to the other row, DOWN to the next of the symbols picked so far this round, the most
picked first (``rules.ranked``): picks tend to agree, so the cursor starts on the first of them,
or else on the first symbol the player has. With three buttons or a knob PREV/NEXT walk all
twelve. The cards the player laid out in their last rounds are not in their hand
(``rules.unavailable``): their columns are dimmed and the arrows pass over them (PREV/NEXT
reach them last), so from the third round the five picks of a round where three agree take at
most 12 presses (docs/rules/contrast.md). For a pick entered wrong in an earlier round, the menu's
"Reach every symbol" lets the arrows stop on them; OK on one asks for a second OK and says why.
OK picks; each pick is journaled at once.
Holding UP skips the player, holding DOWN starts the count to three (the knob has no held key:
turning past the last symbol reaches "Skip" and "Count to 3" cells on the bottom line).

RESULT: after the last pick, the winning icon and who won (or why nobody won), every score in
large digits (14 px for two to four players, 12 px for five or six), "skip" under a player
who skipped (up to four players: with three, the other two win when they agree), the deck, and
who took a card from the box when the deck ran out. OK goes on to the next round; an arrow goes on and
already moves the next pick's cursor. FINAL: the ranking (co-op: won, lost or drawn, with both
piles); OK files the game in the history and goes home.

BACK opens the game menu: skip the current player, count to three (3-2-1 with beeps, then an
offer to skip), scores, then the shared entries (undo: the last pick, which takes a finished round
back too; end, new game, home). The setup menu is the shared one (``tablemate.flow.setup``).

Frames are copies of bytes: text on the page grid (``text.put``), the grid's rows laid out once
(``icons.row``), a player's grid with their dimmed symbols and their header composed once per
turn, the result's name cells once per game, score digits copied from a table built once
(``text.put_digits``).
"""

from tablemate import ticks_diff

from micropython import const

from tablemate import keys as K
from tablemate.rules import contrast as rules
from tablemate.ui import draw_title, icons, text
from tablemate.flow.play import FANFARE, GameScreen

SYMBOLS = rules.SYMBOLS
BEEP_WON = ((1319, 70), (1760, 110))
BEEP_NOBODY = ((523, 160),)

PICK = const(0)
RESULT = const(1)
FINAL = const(2)

SKIP = const(12)  # the knob's two cells after the symbols: skip the player, count to three
COUNT = const(13)
HOLD_MS = const(700)  # UP or DOWN held this long on the grid: skip, count to three
_SPENT = const(99)  # a held key that has acted: its repeats are ignored until its release
NOT_IN_HAND = "Not in hand? OK again"
TIP_BUTTONS = "Hold \x02 skip, \x03 count"
TIP_KNOB = "Keep turning to skip"
# What UP and DOWN do on the grid, between its two rows (six buttons or five): UP the card's
# other symbol (the one above or below: a column is a card), DOWN the next symbol picked this
# round (once one is). Both fit the line with room between them (83 + 41 px of 128).
HINT_UP = "\x02 other symbol"
HINT_DOWN = "\x03 picks"
ROUND = "Round %d"  # the pick view's head, right of the player's name
DECK = "Deck "
WARM = (DECK, HINT_UP, ROUND % 1)  # a new game's first frame's words, rendered while the
# players read the setup (``lifecycle.warm``)

_COLS = const(6)
_PITCH = const(21)  # columns from one symbol of the grid to the next
_GRID_X = const(3)
_GRID_PAGES = (2, 5)  # the two rows of 16x16 symbols, on pages 2-3 and 5-6
_BOTTOM = const(7)  # the page of the bottom line
_W = const(128)
_ALL = const(0xFFF)  # a bit per symbol

# The grid's two rows of symbols, laid out when the module loads (while the player reads the
# setup menu or the resume question) and copied whole at each cursor move.
_ROWS = [icons.row(SYMBOLS[r * _COLS:(r + 1) * _COLS], _GRID_X, _PITCH) for r in range(2)]

WHY = {  # rules.judge's reasons, as two lines for the result view (the first <= 14 characters)
    "tie": ("Tie: no winner", "Top card to the box"),
    "all same": ("All the same", "Top card to the box"),
    "one card": ("One card only", "Top card to the box"),
    "no picks": ("Nobody picked", "Top card to the box"),
    "differ": ("Different!", "Card to left pile"),
    "skipped": ("Player skipped", "Card to left pile"),
}


# -- the cursor's moves (pure: tests search them) ----------------------------------------------
def step(cur, key, out=0, walk=False, cells=12, ranked=()):
    """The cell a key moves the cursor to from ``cur``; ``out`` has a bit set for each symbol
    not in the player's hand (drawn dimmed), ``ranked`` the cells of this round's picks so far
    (``rules.ranked``: the most picked first).

    Buttons (``walk`` False): LEFT/RIGHT go one symbol back/on in reading order, wrapping from
    the end of a row into the other, and pass over dimmed symbols; UP goes to the symbol in the
    same column of the other row (a card's other side); DOWN goes to the next of ``ranked``
    after ``cur`` (the first when ``cur`` is not one), and where that is nowhere else to go, as
    UP. PREV/NEXT or a knob (``walk``): back/on through the symbols in hand in reading order,
    then the dimmed ones, then (``cells`` 14: the knob) the skip and count cells, round again.
    """
    if walk:
        order = [c for c in range(12) if not out >> c & 1]
        order += [c for c in range(12) if out >> c & 1] + [SKIP, COUNT][:cells - 12]
        i = order.index(cur) if cur in order else 0
        return order[(i + (1 if key == K.DOWN else -1)) % len(order)]
    if key == K.LEFT or key == K.RIGHT:
        d = 1 if key == K.RIGHT else -1
        c = cur
        for _ in range(12):
            c = (c + d) % 12
            if not out >> c & 1:
                return c
        return cur
    if key == K.DOWN and ranked:
        i = ranked.index(cur) + 1 if cur in ranked else 0
        if ranked[i % len(ranked)] != cur:
            return ranked[i % len(ranked)]
    return (cur + 6) % 12


def first_in_hand(out):
    """The first symbol in reading order that the player has (a round's starting cell)."""
    for c in range(12):
        if not out >> c & 1:
            return c
    return 0


def mask(symbols):
    """The bits of ``symbols`` (a player's unavailable symbols) in SYMBOLS order."""
    m = 0
    for s in symbols:
        m |= 1 << SYMBOLS.index(s)
    return m


def names_text(names, who, width, lead=""):
    """``lead`` and the names of players ``who`` joined by ", " in ``width`` pixels: no name is
    ever left out. When they do not fit, the separators tighten to "," and then the names are
    shortened, the longest first, to as many letters as the room allows ("Hanne." or "Han")."""
    full = [names[i] for i in who]
    k = len(full)
    if not k:
        return lead
    room = width - text.width(lead)
    for sep in (", ", ","):
        s = sep.join(full)
        if text.width(s) <= room:
            return lead + s
    chars = room // text.SMALL.advance - (k - 1)  # letters for the names (a fixed-width font)
    cap = 1
    while sum(min(len(n), cap + 1) for n in full) <= chars:
        cap += 1
    spare = chars - sum(min(len(n), cap) for n in full)
    keep = [cap] * k
    for i in range(k):  # a letter more for the names it makes whole, then for the others
        if spare > 0 and len(full[i]) == cap + 1:
            keep[i] += 1
            spare -= 1
    for i in range(k):
        if spare > 0 and len(full[i]) > keep[i]:
            keep[i] += 1
            spare -= 1
    out = []
    for i in range(k):
        n, c = full[i], keep[i]
        out.append(n if len(n) <= c else n[:c - 1] + "." if c > 4 else n[:c])
    return lead + ",".join(out)


def put_names(fb, names, who, x, page, width, lead=""):
    """``put`` the line ``names_text`` makes, from column ``x`` on ``page``. When every name
    fits whole, the lead, the names and the ", " between them are put one by one: each is in
    the text cache, where a line of this round's names would be a new string to render."""
    full = [names[i] for i in who]
    room = text.width(lead) + text.width(", ") * (len(full) - 1)
    for n in full:
        room += text.width(n)
    if room > width:
        text.put(fb, names_text(names, who, width, lead), x, page)
        return
    pen = text.put(fb, lead, x, page) if lead else x
    for k in range(len(full)):
        if k:
            pen = text.put(fb, ", ", pen, page)
        pen = text.put(fb, full[k], pen, page)


def winners_line(state, width=127):
    """'Cy wins!', 'Tie: Ann, Cy' (every winner, abbreviated to fit ``width``) or, in co-op,
    'You won!', 'You lost', 'Draw'."""
    if rules.coop(state):
        return {"win": "You won!", "lose": "You lost", "draw": "Draw"}[rules.outcome(state)]
    names = rules.names(state)
    won = rules.result(state)
    if len(won) == 1:
        return text.fit(names[won[0]], width - text.width(" wins!")) + " wins!"
    return names_text(names, won, width, "Tie: ")


# -- pieces of frames, made once -------------------------------------------------------------
def _dim(sym):
    """Icon ``sym``'s two pages of columns with every other pixel on (a checkerboard)."""
    i = icons.NAMES.index(sym) * 2 * icons.W
    b = bytearray(icons.DATA[i:i + 2 * icons.W])
    for x in range(2 * icons.W):
        b[x] &= 0xAA if x & 1 else 0x55
    return b


def put_deck(fb, deck, page):
    """"Deck 53" at the right end of ``page``: the count's digits copied, no string cached."""
    x = _W - len("%d" % deck) * text.SMALL.advance
    text.put(fb, DECK, x - text.width(DECK), page)
    text.put_number(fb, deck, x, page)


class Contrast(GameScreen):
    """The running game: the pick grid, a round's result, or the final ranking."""

    labels = ("OK next", "OK end", "Box ", HINT_UP, HINT_DOWN)

    def opening(self):
        """The expert variant's reminder, when the game starts."""
        if self.game.count == 0 and rules.face_up(self.game.state) == 3:
            return "Expert game:\nLay out 3 cards face up"
        return None

    def __init__(self, app, game):
        GameScreen.__init__(self, app, game)
        self.walk = K.LEFT not in K.LAYOUTS[app.layout]  # PREV/NEXT or a knob: walk the cells
        self.knob = app.layout == "encoder"  # no held keys: skip and count are cells
        self.cells = None  # the result view's name cells: composed in a quiet pass
        app.soon(self._cells)
        self._heads = {}  # player -> (round, the pick view's top page): this turn's
        self._grids = {}  # unavailable bits -> the grid's two rows with those dimmed: this turn's
        self._held = 0  # UP or DOWN while held on the grid ...
        self._held_at = 0  # ... since when
        self._held_cur = 0  # ... and the cell before its press moved the cursor
        self._sure = -1  # the unavailable cell one OK was pressed on
        self.anyway = False  # the arrows stop on the cards on the table too (menu), this pick
        self.cur = 0
        self._unavailable = 0  # the player to pick's cells on the table (``mask``) ...
        self._ranked = []  # ... and this round's picks as cells (``rules.ranked``): both worked
        # out once per action (``_place``), not in every move of the cursor and every frame
        self.view = FINAL if self.over() else PICK
        self._place()

    # -- actions ------------------------------------------------------------------------
    def done(self):
        """After a pick: the next player's cursor, or the round's result with its sound."""
        state = self.game.state
        if rules.picks(state):
            self._place()
        else:  # that action settled the round
            self.view = RESULT
            if self.over():
                self.app.beep(FANFARE)
            else:
                self.app.beep(BEEP_WON if rules.last(state)["winners"] else BEEP_NOBODY)

    def pick(self):
        """The current player picks the symbol under the cursor."""
        self.do(["pick", rules.turn(self.game.state), SYMBOLS[self.cur]])

    def skip(self):
        """The current player lays out no card this round."""
        self.view = PICK if self.view == RESULT else self.view
        self.do(["skip", rules.turn(self.game.state)])

    def count(self):
        """The rulebook's count to three for the current player."""
        self.view = PICK
        from tablemate.screens.countdown import CountToThree  # only when a player hesitates
        self.app.push(CountToThree(self.app, self))

    def undo(self):
        """Take back the last pick (a round it settled is open again), cursor on that pick."""
        state = self.game.state
        last = rules.last(state)
        if rules.picks(state):
            taken = rules.picks(state)[-1]
        else:  # the last pick entered of the last round: the seat before the first
            taken = last["picks"][rules.first(state) - 1] if last else None
        if not GameScreen.undo(self):
            return False
        state = self.game.state
        self.view = PICK
        self._place()
        if taken is not None:
            self.cur = SYMBOLS.index(taken)
        self.msg.show("Undone: " + rules.names(state)[rules.turn(state)], self.app.now)
        return True

    def go_on(self):
        """Leave the result view: the next round's picks, or the ranking after the last round."""
        self.view = FINAL if self.over() else PICK
        self._place()
        self.dirty = True

    def leave(self):
        """A finished game goes to the history; the players go home."""
        from tablemate import lifecycle  # not kept in RAM during the game
        lifecycle.finish(self.app, self.game)
        self.app.home()

    def _place(self):
        """The cursor for the player to pick: the suggestion, else the first symbol they have;
        and what the pick view and the arrows need of the state for that player."""
        state = self.game.state
        self.anyway = False
        if self._sure >= 0:
            self._sure = -1
            self.msg.clear()
        if rules.turn(state) < 0:
            return
        self._unavailable = mask(rules.unavailable(state, rules.turn(state)))
        self._ranked = [SYMBOLS.index(s) for s in rules.ranked(state)]
        s = rules.suggest(state)
        if s is not None:
            self.cur = SYMBOLS.index(s)
        else:
            self.cur = first_in_hand(self._unavailable)

    def _move(self, key):
        if self._sure >= 0:  # the question was about the cell being left
            self._sure = -1
            self.msg.clear()
        out = 0 if self.anyway else self._unavailable
        self.cur = step(self.cur, key, out, self.walk, 14 if self.knob else 12, self._ranked)
        self.dirty = True

    def _ok(self):
        cur = self.cur
        if cur == SKIP:
            self.skip()
        elif cur == COUNT:
            self.count()
        elif self._unavailable >> cur & 1 and self._sure != cur:
            self._sure = cur  # laid out in an earlier round: maybe that pick was entered wrong
            self.msg.show(NOT_IN_HAND, self.app.now, 0)
            self.dirty = True
        else:
            if self._sure >= 0:
                self.msg.clear()
            self.pick()

    # -- screen -------------------------------------------------------------------------
    def play_key(self, key, kind):
        view = self.view
        if view == PICK and key <= K.RIGHT:
            if kind == K.PRESS:
                self._held = key if key <= K.DOWN and not self.knob else 0
                self._held_at = self.app.now
                self._held_cur = self.cur
                self._move(key)
            elif kind == K.REPEAT:
                if not self._held:
                    self._move(key)  # LEFT/RIGHT held, or a knob spun fast
                elif key == self._held and ticks_diff(self.app.now, self._held_at) >= HOLD_MS:
                    self._held = _SPENT  # once per hold; the press's move is taken back
                    self.cur = self._held_cur
                    self._sure = -1
                    if key == K.UP:
                        self.skip()
                    else:
                        self.count()
            elif kind == K.RELEASE:
                self._held = 0
            return
        if kind != K.PRESS:
            return
        if view == PICK:
            if key == K.OK:
                self._ok()
        else:  # RESULT
            self.go_on()
            if key != K.OK and self.view == PICK:
                self._move(key)  # an arrow already starts the next pick: one press saved
                self._held = _SPENT

    def end_key(self, key, kind):
        """The last round's result, any key; then the ranking, OK: the History has the game,
        the players go home."""
        if kind != K.PRESS:
            return
        if self.view == RESULT:
            self.go_on()
        elif key == K.OK:
            self.leave()

    def draw(self, fb):
        if self.view == PICK:
            self._draw_pick(fb)
        elif self.view == RESULT:
            self._draw_result(fb)
        else:
            self._draw_final(fb)
        self.msg.draw(fb)

    def _head(self, player):
        """The pick view's top page for ``player`` and the width of its bar: their name dark on
        a lit bar, the round on the right; composed once per turn. The name sits a row down
        in its bar (rows 1-7): page 0 has no row above for the bar's row over the capitals
        (``text.bar``), so the bar's top is row 0 and its bottom row 8, the top of page 1
        (``_draw_pick`` lights it), over the rule at row 9."""
        n = rules.round_no(self.game.state)
        heads = self._heads
        got = heads.get(player)
        if got is None or got[0] != n:
            heads.clear()
            name = rules.names(self.game.state)[player]
            label = ROUND % n
            page = bytearray(text.line(((name, 2), (label, _W - text.ink_width(label)))))
            w = text.width(name) + 3
            for x in range(w):
                page[x] = ~(page[x] << 1) & 0xFF
            got = heads[player] = (n, page, w)
        return got

    def _grid(self, out):
        """The grid's two rows with the symbols in ``out`` dimmed (the plain rows when none);
        kept for this turn's hand (RAM: one grid is 512 bytes)."""
        got = self._grids.get(out)
        if got is None:
            self._grids.clear()
            got = []
            for r in range(2):
                sub = out >> (r * _COLS) & 63
                if not sub:
                    got.append(_ROWS[r])
                    continue
                top = bytearray(_ROWS[r][0])
                bottom = bytearray(_ROWS[r][1])
                for c in range(_COLS):
                    if sub >> c & 1:
                        b = _dim(SYMBOLS[r * _COLS + c])
                        x = _GRID_X + c * _PITCH
                        top[x:x + icons.W] = b[:icons.W]
                        bottom[x:x + icons.W] = b[icons.W:]
                got.append((top, bottom))
            self._grids[out] = got
        return got

    def _draw_pick(self, fb):
        state = self.game.state
        p = rules.turn(state)
        out = self._unavailable
        buf = fb.buf
        head = self._head(p)
        buf[0:_W] = head[1]
        fb.hline(0, 8, head[2], 1)  # the name bar's bottom row
        fb.hline(0, 9, _W, 1)
        rows = self._grids.get(out) or self._grid(out)
        icons.put_row(fb, rows[0], _GRID_PAGES[0])
        icons.put_row(fb, rows[1], _GRID_PAGES[1])
        cur = self.cur
        if cur < 12:
            # The symbols sit on whole pages and the selected one is its own square inverted:
            # a move changes two 16-column spans of two pages each (and the name below).
            x = _GRID_X + (cur % _COLS) * _PITCH
            page = _GRID_PAGES[cur // _COLS]
            if out >> cur & 1:  # dimmed: its columns in the row just put, inverted
                for o in (page * _W + x, (page + 1) * _W + x):
                    for k in range(o, o + icons.W):
                        buf[k] ^= 0xFF
            else:
                icons.put(fb, SYMBOLS[cur], x, page, 0)
            text.put(fb, SYMBOLS[cur], 0, _BOTTOM)
            if not self.walk:  # the arrows' words, on the page between the grid's rows
                text.put(fb, HINT_UP, 0, 4)
                if self._ranked:
                    text.put_right(fb, HINT_DOWN, _W, 4)
        else:
            label = "Skip " + rules.names(state)[p] if cur == SKIP else "Count to 3"
            text.bar(fb, 0, _BOTTOM, text.width(label) + 3)
            text.put(fb, label, 2, _BOTTOM, color=0)
        put_deck(fb, rules.deck(state), _BOTTOM)

    # -- the result ---------------------------------------------------------------------
    def _cells(self):
        """The result view's name cells, composed once for the game: ([(name as shown, x, page,
        centre column)], [(page, the page of names to copy)]). Two to four cells in a row (names
        on page 3, digits 14 px on pages 4-5); five or six in three columns of two rows (names
        on pages 2 and 5, digits 12 px below them)."""
        if self.cells is None:
            state = self.game.state
            names = (["Left pile", "Right pile"] if rules.coop(state) else rules.names(state))
            n = len(names)
            cols = n if n <= 4 else 3
            w = _W // cols
            cells = []
            for i in range(n):
                short = text.fit(names[i], w - 4)
                x = (i % cols) * w + (w - text.ink_width(short)) // 2
                cells.append((short, x, (3 if n <= 4 else 2 + 3 * (i // 3)),
                              (i % cols) * w + w // 2))
            pages = []
            for page in ((3,) if n <= 4 else (2, 5)):
                pages.append((page, text.line([(c[0], c[1]) for c in cells if c[2] == page])))
            self.cells = (cells, pages)
        return self.cells

    def _draw_result(self, fb):
        # Two lines at the top (the winning icon beside them): what won or why nobody did, and
        # who won; the deck at the right of the first. Then the score cells, and with four
        # players or fewer a bottom line with the round, the box and the way on. Text sits on
        # the display's pages (text.put: a byte copy, not a blit); the cells' names are composed
        # once per game and this round's winners put over them inverted; scores are digits
        # copied from a table (``text.put_digits``).
        state = self.game.state
        last = rules.last(state)
        coop = rules.coop(state)
        names = rules.names(state)
        big = len(names) <= 4
        x = 0
        boxed = rules.boxed(state)
        won = last["winners"] if last else ()
        # The lines are put in parts (symbol, names, words) that the text cache holds, so a
        # round's result renders no new string.
        if last is None:
            text.put(fb, "No round yet", 0, 0)
        elif last["why"]:
            first, second = WHY[last["why"]]
            text.put(fb, first, 0, 0)
            text.put(fb, second, 0, 1)
        else:
            icons.put(fb, last["symbol"], 0, 0)
            x = 20
            if coop:
                text.put(fb, last["symbol"], text.put(fb, "Both ", x, 0), 0)
                text.put(fb, "Card to right pile", x, 1)
            elif boxed:  # the icon shows the symbol; the lines say who won and how
                put_names(fb, names, won, x, 0, _W - x)
                put_names(fb, names, boxed, x, 1, _W - x, "From box: ")
            else:
                text.put(fb, " won", text.put(fb, last["symbol"], x, 0), 0)
                put_names(fb, names, won, x, 1, _W - x)
        if not boxed:
            put_deck(fb, rules.deck(state), 0)
        if big:
            fb.hline(0, 19, _W, 1)
            if last:
                text.put_number(fb, last["round"], text.put(fb, "Round ", 0, _BOTTOM), _BOTTOM)
            if self.over() or coop:
                text.put_right(fb, "OK end" if self.over() else "OK next", _W, _BOTTOM)
            else:  # the box: every picture card out of play (6 px a character)
                box = rules.box(state)
                pen = text.put(fb, "Box ", _W - 6 * (5 if box < 10 else 6), _BOTTOM)
                text.put_number(fb, box, pen, _BOTTOM)
        cells, pages = self.cells or self._cells()
        buf = fb.buf
        for page, row in pages:
            o = page * _W
            buf[o:o + _W] = row
        if coop:
            scores = rules.piles(state)
            won = ((0,) if last["pile"] == "left" else (1,)) if last else ()  # where it went
        else:
            scores = rules.scores(state)
        font = text.large()[1 if big else 0]
        for i in range(len(cells)):
            short, cx, page, centre = cells[i]
            if i in won:
                text.bar(fb, cx - 2, page, text.width(short) + 3)
                text.put(fb, short, cx, page, color=0)
            v = scores[i]
            text.put_digits(fb, v, centre - (text.digits_width(v, font) - font.spacing) // 2,
                            page + 1, font)
            if big and last and not coop and last["picks"][i] is None:  # under the digits
                # "skip": "skipped" (41 px) in cells of 42 (three players) left one column
                # between two of them, "skippedskipped"
                w = _W // len(cells)
                text.put_centered(fb, "skip", 6, x=i * w, w=w)

    def _draw_final(self, fb):
        state = self.game.state
        if rules.coop(state):
            draw_title(fb, "Game over")
            line = winners_line(state)
            w = text.width(line)
            fb.fill_rect(62 - w // 2, 15, w + 5, 11, 1)
            text.draw_centered(fb, line, 17, color=0)
            left, right = rules.piles(state)
            text.draw_centered(fb, "Right pile %d" % right, 31)
            text.draw_centered(fb, "Left pile %d" % left, 40)
            text.put_centered(fb, "OK: finish", _BOTTOM)
            return
        draw_title(fb, winners_line(state))
        from tablemate.flow.standings import draw_standings  # loaded when the game is over
        draw_standings(fb, rules.names(state), rules.scores(state), rules.result(state))

    def menu_entries(self):
        if self.over():
            return ()
        name = rules.names(self.game.state)[rules.turn(self.game.state)]
        return (("Skip " + name, self._skip_now), ("Count to 3", self._count),
                ("Reach every symbol", self._reach_all), ("Scores", self._scores))

    def _reach_all(self):
        """For this pick the arrows stop on the cards on the table too (a pick entered wrong
        earlier): those stay dimmed, and picking one still takes the second OK."""
        self.app.pop()
        self.view = PICK
        self.anyway = True
        self.dirty = True

    def _skip_now(self):
        self.app.pop()
        self.skip()
        self.msg.show(TIP_KNOB if self.knob else TIP_BUTTONS, self.app.now)

    def _count(self):
        self.app.pop()
        self.count()

    def _scores(self):
        self.app.pop()
        self.view = RESULT
        self.dirty = True


SCREEN = Contrast  # the mode's game screen (``flow.play.play``)
