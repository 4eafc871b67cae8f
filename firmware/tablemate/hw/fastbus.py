"""The SSD1306 driver on a fast bus (above 400 kHz): whether a frame most of whose pages
changed goes whole, as one window, its spans not looked for (``SSD1306._diff``).

On a 1 MHz bus a page is 1.2 ms of wire, and a page's span costs a Pico 0.4-0.5 ms to find and
a window 0.5 ms to send: 6-7 wide spans in 5-6 windows took 12-14 ms where the whole frame takes
10.6 (the emulated Pico: a Start, a Viewpoint card), while six pages of which four hold a few
cells (285 bytes) took 8.5. At 400 kHz (2.9 ms a page) the spans always pay, so this module is
loaded only once the bus is fast: a game at 400 kHz does not hold it (.mpy: 0.2 KB of heap).
It reads the driver's per-page spans (``_lo``/``_hi``) and views (``_page_mv``/``_page_smv``).
"""

from micropython import const

_SLACK = const(2)  # at most this many pages unchanged: the whole frame


def whole(d, changed):
    """Whether display ``d``'s frame, ``changed`` of its pages differing (``_lo``/``_hi``
    marking them), not all, goes whole."""
    pages = d.pages
    if changed < pages - _SLACK:
        return False
    if changed > pages - _SLACK:
        return True
    # six of eight: whole unless two or more of them changed on one side of their middle only
    # (a table's few cells: their spans are narrow), as in a new screen or a list
    halves = d._halves or split(d)
    lo, hi = d._lo, d._hi
    narrow = 0
    for p in range(pages):
        if lo[p] <= hi[p]:
            k = 4 * p
            if halves[k] == halves[k + 1] or halves[k + 2] == halves[k + 3]:
                narrow += 1
                if narrow > 1:
                    return False
    return True


def split(d):
    """Each page's halves, frame and shadow (left, its shadow, right, its shadow): made once,
    after the first whole frame, so that comparing them allocates nothing."""
    half = d.width >> 1
    out = []
    for p in range(d.pages):
        a, b = d._page_mv[p], d._page_smv[p]
        out += (a[:half], b[:half], a[half:], b[half:])
    d._halves = out
    return out
