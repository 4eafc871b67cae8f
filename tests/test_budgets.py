"""The deterministic budgets of docs/performance.md, measured in the MicroPython VM: they fail here.

Heap in use after boot to the home menu, and during the largest game of every mode (the most
players, a long game resumed, then played on), with the modules as ``tablemate flash`` and
``mpremote mip`` install them (``.mpy``); and the bytes a press that changes one number sends to
the display. Times are never asserted: they are device figures (tools/pico).
"""

import pytest

from tablemate_host import budgets, mpvm, vmbench

KB = 1024


@pytest.fixture(scope="module")
def mpy(tmp_path_factory):
    if not mpvm.node_available():
        pytest.fail("the MicroPython VM is missing: " + mpvm.INSTALL_HINT, pytrace=False)
    return vmbench.compile_mpy(str(tmp_path_factory.mktemp("mpy")))


def test_the_budgets_are_in_the_document():
    found = budgets.load()
    for key in ("heap-boot", "heap-game", "bytes-number", "press-number", "boot-mpy"):
        assert key in found, key
    assert found["heap-boot"][1:] == ("<=", 40 * KB)


def test_heap_after_boot(mpy):
    empty, base, boot = vmbench.heap_after_boot(mpy)
    used = boot - empty
    print("\nheap after boot to home (.mpy): %.1f KB in use (%.1f KB of it the test's harness)"
          % (used / KB, (base - empty) / KB))
    assert used <= budgets.limit("heap-boot"), "%.1f KB" % (used / KB)


@pytest.mark.parametrize("mode", sorted(vmbench.LARGEST))
def test_heap_during_the_largest_game(mpy, mode):
    heap, out = vmbench.heap_in_largest_game(mode, mpy)
    used = heap[-1] - heap[0]
    print("\n%s, %d players, %d actions resumed then played on (%d effective), on %s: "
          "%.1f KB in use" % (mode, out["players"], out["journaled"], out["count"], out["screen"],
                              used / KB))
    assert out["screen"] != "ErrorScreen" and out["count"] >= out["journaled"] // 2
    assert used <= budgets.limit("heap-game"), "%.1f KB" % (used / KB)


def test_a_press_that_changes_one_number(mpy):
    out = vmbench.i2c_one_number(mpy)
    print("\nscorepad +1: %d bytes; its commit: %d bytes" % (out["press"], out["commit"]))
    assert 0 < out["press"] <= budgets.limit("bytes-number")
    assert 0 < out["commit"] <= budgets.limit("bytes-number")
