"""The web page's ``main.py``: boot the firmware's gadget and run its loop one pass per call.

On a Pico ``main.py`` calls ``tablemate.boot.run()``, a loop that never returns. A web page
must give the browser its thread back between passes, so the page calls ``step()`` every 10 ms
(and at once when a button changes, as a pin interrupt ends the Pico's nap), and ``step`` is
one turn of ``boot.run``'s loop without its nap: ``app.step`` (tick the app, feed the
watchdog), then ``app.collect``. Everything else is the firmware's: ``boot.start`` builds
the app from ``board.py`` on the page's ``machine``.

The page presses buttons by name (``button``), turns the encoder (``turn``) and picks the button
layout for the page (``use_layout``), like ``tablemate sim --layout``: the layout saved in the
device's settings stays as it is, unless the player keeps another one in the Settings menu.
"""

import machine  # the page's board, py/machine.py
import webio
from tablemate.store import settings
from tablemate.board import BOARD
from tablemate import app as firmware_app
from tablemate import boot as firmware

app = None
_wdt = None
_keys = 0  # app.keys at the last collection
_layout = None  # the layout the page was last told about
_page_layout = None  # the layout the page chose, in RAM only
_saved_layout = None  # what the settings file keeps meanwhile


def boot():
    """Power on: the firmware's boot, then its first passes. False when nothing runs."""
    global app, _wdt
    booted = firmware.start(BOARD, "", 3)
    if booted is None:
        return False
    app, _wdt = booted
    step()
    step()
    return True


def step():
    """One pass of the loop (``boot.run``'s body without its nap)."""
    global _keys, _layout
    firmware_app.step(app, _wdt)
    _keys = firmware_app.collect(app, _keys)
    if app.layout != _layout:
        _layout = app.layout
        webio.layout(_layout)


def _gpio(name):
    if name == "OK" and app.layout == "encoder":
        return BOARD["encoder"]["sw"]
    return BOARD["buttons"].get(name)


def button(name, down):
    """Hold (``down``) or let go of the button ``name`` ("UP", ..., "BACK") of this layout."""
    gpio = _gpio(name)
    if gpio is not None:
        machine.drive(gpio, down)


def turn(detents):
    """Turn the encoder knob by ``detents`` (positive: clockwise, DOWN) through full A/B cycles."""
    enc = BOARD["encoder"]
    seq = ((0, 1), (0, 0), (1, 0), (1, 1)) if detents > 0 else ((1, 0), (0, 0), (0, 1), (1, 1))
    a = b = 1
    for _ in range(abs(detents)):
        for na, nb in seq:
            if na != a:
                machine.drive(enc["a"], not na)
            if nb != b:
                machine.drive(enc["b"], not nb)
            a, b = na, nb


def use_layout(name):
    """The page's layout chooser: ``name`` for this page, the settings file unchanged."""
    global _page_layout, _saved_layout
    if name not in app.layouts:
        return
    if _page_layout is None:
        _saved_layout = app.settings["layout"]
        app.save_settings = _save_settings
    _page_layout = name
    app.settings["layout"] = name
    app.apply_settings()
    if app.stack:
        app.stack[-1].dirty = True  # a screen may show the keys it expects
    # One pass, so the new input samples its buttons at rest before any is pressed.
    step()


def _save_settings():
    """``App.save_settings``, keeping in the file the layout it had, unless the player chose
    another one in the Settings menu (then that one is saved, and the page's choice is over)."""
    global _page_layout, _saved_layout
    values = dict(app.settings)
    if _page_layout is not None and values["layout"] == _page_layout:
        values["layout"] = _saved_layout
    else:
        _page_layout = None
    settings.save(app.path("settings.json"), values)
    app.apply_settings()


def version():
    return app.version if app is not None else ""
