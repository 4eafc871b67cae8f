"""Idle passes of the real app loop allocate nothing, on every kind of screen.

The loop runs every 10 ms for as long as the gadget is on: if an idle pass allocated, the heap
would fill and MicroPython would stop for a garbage collection at a random moment, perhaps in
the middle of a key press. ``micropython.heap_lock()`` makes any allocation raise MemoryError,
so these tests are real only under the MicroPython VM, and skipped on CPython.
"""

import micropython

import support
from rig import Rig
from support import scratch_dir
from tablemate import keys as K


def _need_heap_lock():
    if not hasattr(micropython, "heap_lock"):
        support.skip("CPython has no heap lock: the MicroPython VM runs this test")


def test_idle_home_menu():
    _need_heap_lock()
    rig = Rig(scratch_dir("idle_home"))
    rig.advance(1500)  # the first frames, the text cache, garbage collection and the first
    # row's rest (its mode's setup loads once the cursor has rested a second) settle
    assert type(rig.idle_locked()).__name__ == "Home"


def test_idle_scorepad_game():
    _need_heap_lock()
    rig = Rig(scratch_dir("idle_scorepad"))
    rig.choose("Scorepad")
    rig.choose("Start")
    rig.presses(K.RIGHT, K.OK, K.DOWN)
    rig.advance(2000)  # past the pending change's commit
    assert type(rig.idle_locked()).__name__ == "Scorepad"


def test_idle_contrast_game():
    _need_heap_lock()
    rig = Rig(scratch_dir("idle_contrast"))
    rig.choose("Contrast")
    rig.choose("Start")
    rig.presses(K.OK, K.RIGHT)
    rig.advance(3000)  # the message line and the beeps are done
    assert type(rig.idle_locked()).__name__ == "Contrast"


def test_idle_menu_over_a_game():
    _need_heap_lock()
    rig = Rig(scratch_dir("idle_menu"))
    rig.choose("Scorepad")
    rig.choose("Start")
    rig.press(K.BACK)
    rig.advance(500)
    assert type(rig.idle_locked()).__name__ == "GameMenu"


def test_idle_with_the_battery_gauge_reading_and_placing_its_figure():
    """A reading that changes nothing allocates nothing, nor does placing the figure in a
    frame (``Gauge.mark``: a scan of page 0 and a byte copy). A whole frame of the home menu
    does allocate, with or without a battery: frames come after keys, not in idle passes."""
    _need_heap_lock()
    from rig import FakeADC
    from tablemate import battery
    rig = Rig(scratch_dir("idle_battery"), adc=FakeADC(3700))
    rig.advance(1500)
    g = rig.app.battery
    assert g.label is not None
    micropython.heap_lock()
    try:
        g.mark(rig.app.display)
        for _ in range(battery.READ_MS // 10 + 10):  # a reading in the middle
            rig.now += 10
            rig.app.tick(rig.now)
    finally:
        micropython.heap_unlock()
    assert type(rig.app.top()).__name__ == "Home" and g.vsys in (3699, 3700)
