"""I2C traffic per key press (docs/performance.md's budgets: a key press that changes one number <= 300 bytes).

Counted on the fake bus (payload bytes of every write transaction, the 0x3C address byte not
included) and cross-checked with what the virtual panel received. The figures are printed
(``pytest -s``); the budget is asserted, timings never are.
"""

from conftest import (big_score, choose, commit, dump, goto, home_items, menu_row, new_scorepad,
                      row_score)

from tablemate_host import machine

BUDGET = 300
FULL_FRAME = 1024


def sent(dev, action):
    """Bytes and transactions on the display's bus while ``action`` runs."""
    bus = machine.world.bus(dev.cfg["i2c"])
    dev.panel.mark()
    bytes0, writes0 = bus.bytes, bus.writes
    action()
    n, writes = bus.bytes - bytes0, bus.writes - writes0
    assert n == dev.panel.bytes, "every byte on the bus reached the panel"
    return n, writes


def test_first_frame_is_a_full_frame(tmp_path):
    from tablemate_host.device import Device
    Device(str(tmp_path))  # boots: init sequence and the first frame
    bus = machine.world.bus(0)
    print("\nboot (init + first full frame): %d bytes in %d writes" % (bus.bytes, bus.writes))
    assert bus.bytes >= FULL_FRAME


def test_scorepad_plus_one_fits_the_budget(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=3)
    press, w1 = sent(dev, lambda: dev.press("RIGHT"))
    assert dev.shows("+1"), dump(dev)
    settle, w2 = sent(dev, lambda: commit(dev))
    assert row_score(dev, 0, 1) and not dev.shows("+1"), dump(dev)
    print("\nscorepad 3 players, +1 press: %d bytes (%d writes); commit redraw: %d bytes (%d writes)"
          % (press, w1, settle, w2))
    assert 0 < press <= BUDGET
    assert 0 < settle <= BUDGET


def test_scorepad_big_digits_plus_one_fits_the_budget(make_device, root):
    dev = make_device()
    new_scorepad(dev, players=2)
    press, w1 = sent(dev, lambda: dev.press("RIGHT"))
    settle, w2 = sent(dev, lambda: commit(dev))
    assert big_score(dev, 0, 1), dump(dev)
    print("\nscorepad 2 players (big digits), +1 press: %d bytes (%d writes); commit: %d bytes (%d writes)"
          % (press, w1, settle, w2))
    assert 0 < press <= BUDGET
    assert 0 < settle <= BUDGET


def test_menu_cursor_move_is_small(make_device, root):
    dev = make_device()
    assert menu_row(dev, "Scorepad")
    move, writes = sent(dev, lambda: dev.press("DOWN"))
    assert menu_row(dev, home_items()[1]), dump(dev)
    print("\nhome menu cursor move: %d bytes (%d writes)" % (move, writes))
    assert 0 < move <= 3 * 128 + 12, "the three pages the two rows touch, not a frame"
    idle, _ = sent(dev, lambda: dev.advance(1000))
    assert idle == 0, "an unchanged screen sends nothing"


def test_a_second_of_running_chess_clock_stays_small(make_device, root):
    dev = make_device()
    choose(dev, "Chess clock")
    goto(dev, "Start")
    dev.press("OK")
    dev.press("OK")
    second, writes = sent(dev, lambda: dev.advance(1000))
    print("\nchess clock, one second of ticking: %d bytes (%d writes)" % (second, writes))
    assert 0 < second <= BUDGET
