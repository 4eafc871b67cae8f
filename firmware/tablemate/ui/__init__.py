"""Widgets, text and the screen base: everything a screen module draws with.

This package's own module holds what every page needs: the screen contract and the menus. They
live here, in the package itself, because on a Pico each module import costs 10-15 ms of file
lookups on littlefs, and the home menu needs all of them at every boot.

The app keeps a stack of screens (micro-gui style): only the top one gets keys, every screen gets
``tick`` while it is on top, and a screen is redrawn only when it says it is dirty. A screen that is
not ``opaque`` (a dialog) is drawn over the one below it.

A menu is a screen: it owns the cursor and the scroll offset and reports the picked index to a
callback, so the caller decides whether picking pushes, pops or edits in place. Every list a
screen shows (a menu, a game's choices, its card list, its score rows) is drawn by
``draw_rows`` and scrolled by ``scroll``: one highlighted row, one way to scroll. Items are plain
strings; a caller that shows values in labels (settings) rewrites ``items`` and sets ``dirty``.
Rows sit on the display's 8-pixel pages (pages 2-7 under the title), so each label is a byte
copy (``text.put``), and the highlight only covers its label: moving the cursor changes two
short spans of two pages, about 140 bytes on the bus instead of three pages of 122 columns.
"""

from micropython import const

from tablemate import keys as K
from tablemate.ui import text


class Screen:
    """Base class: override what you need; defaults do nothing."""

    opaque = True
    shows_battery = False  # the battery's figure on page 0 (the home menu, a game's status line)
    # LEFT and RIGHT are minus and plus here (a score, a count), not a way across the screen:
    # a picture turned to the player across does not swap them (the "+" key is "+" from
    # either side of the table; docs/design-notes.md, "Face the player")
    plus_minus = False

    def __init__(self, app):
        self.app = app
        self.dirty = True

    def on_open(self):
        """Called each time the screen becomes the top of the stack."""

    def on_hide(self):
        """Called when another screen is pushed over this one."""

    def on_close(self):
        """Called once, when the screen leaves the stack."""

    def key(self, key, kind):
        """Handle one key event (codes from ``tablemate.keys``)."""

    def tick(self, now):
        """Advance timers; set ``self.dirty`` when what is shown must change."""

    def due(self, now):
        """Milliseconds from ``now`` until ``tick`` has something to do (0: at once), None when
        only a key can change the screen. The main loop sleeps until the soonest deadline of
        the app (``App.due``), so a screen whose ``tick`` acts on time must say when here."""
        return None

    def draw(self, fb):
        """Draw the whole screen into ``fb`` (already cleared for opaque screens)."""


_TOP = const(2)  # the page of the first row
_ROWS = const(6)
ROW_WIDTH = const(119)  # pixels of a row's label, clear of the scroll arrows at the right


def draw_title(fb, title):
    """The title bar every full-screen widget shares: text on page 0 and a rule under it."""
    text.put(fb, title, 0, 0)
    fb.hline(0, 9, 128, 1)


def scroll(first, cur, rows=_ROWS):
    """The first row to show so that row ``cur`` is in view, moved as little as possible."""
    if cur < first:
        return cur
    if cur >= first + rows:
        return cur - rows + 1
    return first


def draw_rows(fb, owner, count, cur, first=0, top=_TOP, rows=_ROWS):
    """The one list every screen draws: rows ``first``.. of ``count`` on pages ``top``.., the
    cursor's row a lit bar under its label, arrows at the right when rows are hidden above or
    below. ``owner.row(i, lit)`` gives row i as (label, value or None, the value's x): the
    caller fits its words and may draw a value apart for the cursor's row ("< 3 >")."""
    last = min(count, first + rows)
    page = top
    for i in range(first, last):
        lit = i == cur
        label, value, x = owner.row(i, lit)
        if lit:
            text.bar(fb, 0, page, text.width(label) + 3)
        text.put(fb, label, 2, page, color=0 if lit else 1)
        if value is not None:
            text.put(fb, value, x, page)
        page += 1
    if first > 0:
        text.put(fb, text.ARROW_UP, 123, top)
    if last < count:
        text.put(fb, text.ARROW_DOWN, 123, top + rows - 1)


class Menu(Screen):
    """A vertical list. UP/DOWN move (wrapping, auto-repeat), OK picks, LEFT/RIGHT adjust, BACK leaves."""

    def __init__(self, app, title, items, on_pick, index=0, on_adjust=None, on_back=None):
        Screen.__init__(self, app)
        self.title = title
        self.items = items
        self.on_pick = on_pick
        self.on_adjust = on_adjust
        self.on_back = on_back
        self.index = 0
        self.first = 0
        self.select(index)

    def select(self, index):
        """Put the cursor on ``index`` and scroll so that it is visible."""
        n = len(self.items)
        self.index = index % n if n else 0
        self.first = scroll(self.first, self.index)
        self.dirty = True

    def key(self, key, kind):
        if kind != K.PRESS and kind != K.REPEAT:
            return
        if key == K.UP:
            self.select(self.index - 1)
        elif key == K.DOWN:
            self.select(self.index + 1)
        elif kind == K.REPEAT:
            return
        elif key == K.OK and self.items:
            self.on_pick(self.index)
        elif key == K.BACK:
            if self.on_back:
                self.on_back()
            else:
                self.app.pop()
        elif (key == K.LEFT or key == K.RIGHT) and self.on_adjust and self.items:
            self.on_adjust(self.index, 1 if key == K.RIGHT else -1)

    def draw(self, fb):
        draw_title(fb, self.title)
        draw_rows(fb, self, len(self.items), self.index, self.first)

    def row(self, i, lit):
        """Row ``i`` for ``draw_rows``: its label fitted beside the scroll arrows."""
        return text.fit(self.items[i], ROW_WIDTH), None, 0


class ActionMenu(Menu):
    """A menu of (label, callback) entries: picking an entry calls its callback."""

    def __init__(self, app, title, entries, on_back=None):
        Menu.__init__(self, app, title, [], self._run, on_back=on_back)
        self.set_entries(entries)

    def set_entries(self, entries):
        """Replace the entries; the cursor stays put unless the labels changed."""
        labels = [e[0] for e in entries]
        self._actions = [e[1] for e in entries]
        if labels != self.items:
            self.items = labels
            self.first = 0
            self.select(0)
        self.dirty = True

    def _run(self, index):
        self._actions[index]()


def accel(repeats):
    """Step multiplier for the n-th auto-repeat of a held key: 1, then 5, then 25."""
    if repeats < 10:
        return 1
    if repeats < 25:
        return 5
    return 25
