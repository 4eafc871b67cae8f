"""A Start renders none of the first frame's words the setup could render before (issue 34).

A word costs a Pico about 1 ms to render (the emulated Pico's Starts at 1 MHz were 30-36 ms
against the whole-screen 30 ms). The setup renders the game's first words in its quiet passes,
the screen module's ``WARM``, the seated players' names and its ``first_words`` for the options
(``lifecycle.warm``), and again after
each of its own frames: these push older words out of the text cache's two generations, and a
player who moved through the setup's rows found the names rendered again in the Start.
"""

import pytest

from conftest import NAMES, choose, goto

MODES = [("Perfect Moment", "perfect_moment", 2), ("Viewpoint", "viewpoint", 4),
         ("Scorepad", "scorepad", 2), ("Cartes sur Table", "cartes_sur_table", 4),
         ("Contrast", "contrast", 3)]


def _rendered_in_the_next_frame(dev, monkeypatch, press):
    """The strings the firmware renders from ``press`` to the end of its first frame (the text
    cache's misses: the host's text check renders too)."""
    from tablemate.ui import text
    seen = []
    recording = [True]
    image = text._image
    redraw = type(dev.app).redraw

    def spied(s, font):
        if recording[0] and font is text.SMALL and font.kept.get(s) is None and (
                font.old.get(s) is None):
            seen.append(s)
        return image(s, font)

    def drawn(app):
        shown = redraw(app)
        if shown:
            recording[0] = False
        return shown
    monkeypatch.setattr(text, "_image", spied)
    monkeypatch.setattr(type(dev.app), "redraw", drawn)
    press()
    monkeypatch.undo()
    return seen


@pytest.mark.parametrize("label,name,players", MODES)
def test_a_start_after_moving_through_the_setup_renders_no_warmed_word(make_device, monkeypatch,
                                                                        label, name, players):
    from tablemate import lifecycle
    dev = make_device()
    dev.advance(1500)
    choose(dev, label)
    dev.advance(600)
    for _ in range(6):  # every row's frame: the options' values rendered, the names pushed out
        dev.press("DOWN")
        dev.advance(150)
    goto(dev, "Start")
    dev.advance(300)
    seen = _rendered_in_the_next_frame(dev, monkeypatch, lambda: dev.press("OK"))
    assert type(dev.app.top()).__name__ != "Setup"
    screens = lifecycle.module(name, "screens")
    words = set(getattr(screens, "WARM", ()))
    if hasattr(screens, "first_words"):
        words |= set(screens.first_words(dev.app.game.opts))
    names = set(dev.app.game.state["names"]) if dev.app.game else set()
    assert names and names <= set(NAMES)
    assert [s for s in seen if s in words or s in names] == [], seen
