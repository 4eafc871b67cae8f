"""The rotary encoder build: turning moves through menus, the push is OK, a long push is BACK."""

from conftest import (actions, choose, cursor_at, dump, goto, home_items, menu_row, row_score,
                      turn_of)

from tablemate_host import machine


def turn_to(dev, label):
    """Turn clockwise one detent at a time until the menu row ``label`` is highlighted: at most
    a lap of the menu on top (its length follows the registry, as ``Device.goto``'s)."""
    for _ in range(len(dev.app.top().items) + 1):
        if menu_row(dev, label):
            return
        dev.turn(+1)
    raise AssertionError("menu row %r never highlighted" % label + dump(dev))


def _big():
    from tablemate.ui import text
    return text.large()[1]


def test_turns_move_the_home_menu_and_bounce_adds_nothing(make_device):
    dev = make_device(layout="encoder")
    assert dev.app.layout == "encoder"
    items = home_items()
    assert menu_row(dev, items[0]), dump(dev)
    dev.turn(+1)  # clockwise: next
    assert menu_row(dev, items[1]), dump(dev)
    dev.turn(+2)
    assert menu_row(dev, items[3]), dump(dev)
    dev.turn(-1)  # anticlockwise: previous
    assert menu_row(dev, items[2]), dump(dev)
    dev.turn(+1, bounce=3)  # chattering contacts: still exactly one step
    assert menu_row(dev, items[3]), dump(dev)
    dev.turn(-3, step_ms=1, after_ms=20)  # a fast spin, 4 ms per detent: every detent counts
    assert menu_row(dev, items[0]), dump(dev)

    # The six-button pins do nothing on this layout.
    dev.press("DOWN")
    assert menu_row(dev, items[0]), dump(dev)


def test_encoder_plays_a_scorepad_through_the_menu(make_device):
    dev = make_device(layout="encoder")
    dev.press("OK")  # the push switch: Scorepad
    assert dev.shows("New Scorepad") and menu_row(dev, "Players: 2"), dump(dev)
    dev.press("OK")  # number entry
    assert dev.shows("Players") and dev.shows("2", font=_big()), dump(dev)
    dev.turn(+1)  # clockwise adds, like a volume knob
    assert dev.shows("3", font=_big()), dump(dev)
    dev.turn(-1)
    assert dev.shows("2", font=_big()), dump(dev)
    dev.turn(+1)
    dev.press("OK")
    assert menu_row(dev, "Players: 3"), dump(dev)
    turn_to(dev, "Start")
    dev.press("OK")
    assert dev.shows("Round 1") and turn_of(dev, "Ann") and cursor_at(dev, "Ann"), dump(dev)

    dev.turn(+1)  # next player
    assert cursor_at(dev, "Bob"), dump(dev)
    dev.long_press("OK")  # long push: BACK opens the game menu
    assert dev.shows("Back to game"), dump(dev)
    assert actions(dev) == [], "the long push did not also pass the turn"
    turn_to(dev, "Adjust score")
    dev.press("OK")
    assert dev.shows("Bob +/-"), dump(dev)
    dev.turn(+1)
    assert dev.shows("1", font=_big()), dump(dev)
    dev.press("OK")
    assert actions(dev) == [["add", 1, 1]]
    assert row_score(dev, 1, 1), dump(dev)

    dev.press("OK")  # a short push ends the turn
    assert actions(dev)[-1] == ["next"] and turn_of(dev, "Bob") and cursor_at(dev, "Bob"), dump(dev)


def test_a_turn_on_a_dimmed_screen_counts_and_one_on_a_dark_screen_wakes_it(make_device):
    dev = make_device(layout="encoder", settings={"dim_s": 5, "off_min": 1})
    dev.advance(5100)
    assert dev.panel.contrast == 0
    dev.turn(+1)
    assert dev.panel.contrast > 0
    assert menu_row(dev, home_items()[1]), "a detent on a dimmed screen moves" + dump(dev)
    dev.advance(61000)
    assert not dev.panel.display_on
    dev.turn(+1)
    assert dev.panel.display_on and menu_row(dev, home_items()[1]), \
        "the detent that wakes a dark screen moves nothing" + dump(dev)
    dev.turn(+1)
    assert menu_row(dev, home_items()[2]), dump(dev)


def test_switching_to_the_encoder_in_settings_and_back(make_device, root):
    dev = make_device()
    choose(dev, "Settings")
    goto(dev, "Buttons: six")
    for _ in range(3):
        dev.press("RIGHT")
    assert menu_row(dev, "Buttons: encoder"), dump(dev)
    dev.press("BACK")  # the knob is the input now, until proven or 10 s are up
    assert dev.app.layout == "encoder"
    assert dev.shows("Back to six: 10s"), dump(dev)
    dev.press("OK")  # the encoder's push: keep it
    assert dev.app.layout == "encoder"
    dev.press("DOWN")
    assert menu_row(dev, "Settings"), "the buttons are off" + dump(dev)
    dev.turn(+1)
    assert menu_row(dev, home_items()[home_items().index("Settings") + 1]), dump(dev)
    dev.turn(-1)
    dev.press("OK")
    turn_to(dev, "Buttons: encoder")
    dev.press("OK")  # OK steps the value: back to the first layout
    assert menu_row(dev, "Buttons: six"), dump(dev)
    dev.long_press("OK")  # long push is BACK: leave and save
    assert dev.app.layout == "six"
    dev.press("OK")  # the six buttons work: keep them
    for gp in (dev.cfg["encoder"]["a"], dev.cfg["encoder"]["b"]):
        assert machine.world.pad(gp).irq_handler is None, "the encoder's interrupts are detached"
    dev.press("DOWN")
    assert menu_row(dev, home_items()[home_items().index("Settings") + 1]), dump(dev)
