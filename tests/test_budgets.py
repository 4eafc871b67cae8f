"""The deterministic budgets of docs/performance.md, measured in the MicroPython VM: they fail here.

Heap in use after boot to the home menu, and during the largest game of every mode (the most
players, a long game resumed, then played on), with the modules as ``tablemate flash`` and
``mpremote mip`` install them (``.mpy``) and as ``tablemate flash --source`` copies them
(``.py``, docstrings emptied as the Pico's compiler drops them: see ``vmbench``); and the bytes a
press that changes one number sends to the display. Times are never asserted: they are device
figures (tools/pico).
"""

import ast

import pytest

from tablemate import modes
from tablemate_host import budgets, mpvm, vmbench

KB = 1024


@pytest.fixture(scope="module", params=["mpy", "py"])
def modules(request, tmp_path_factory):
    """(kind, folder): the firmware compiled, or as source."""
    mpvm.require_vm()  # skipped without the VM, saying how to install it; failed in CI
    out = str(tmp_path_factory.mktemp(request.param))
    if request.param == "mpy":
        return "mpy", vmbench.compile_mpy(out)
    return "py", vmbench.source_as_on_pico(out)


def test_the_budgets_are_in_the_document():
    found = budgets.load()
    for key in ("heap-boot", "heap-game", "bytes-number", "press-number", "boot-mpy"):
        assert key in found, key
    assert found["heap-boot"][1:] == ("<=", 40 * KB)


def test_every_recorded_largest_game_is_a_registered_mode():
    """A recorded long game (``vmbench.LARGEST``) is what a mode may add, not must
    (docs/adding-a-game.md): a mode without one is measured at its start with the most players
    (``vmbench.largest``, test_heap_during_the_largest_game). One for a mode the registry no
    longer has would never be measured."""
    registered = [m["name"] for m in modes.MODES]
    assert [mode for mode in sorted(vmbench.LARGEST) if mode not in registered] == []


def test_viewpoint_presses_per_card_played():
    """Issue 10's key-press budget, through the real app's buttons over ten recorded games
    (deterministic: a count of presses, not a time)."""
    from tablemate_host import viewpoint_games
    figures = viewpoint_games.press_figures()
    print("\nViewpoint presses per card: %r" % figures)
    assert figures[0][0] <= budgets.limit("presses-card")
    assert figures[1][0] <= budgets.limit("presses-target")


def test_perfect_moment_presses():
    """Issue 11's key-press budget: every score of five recorded games entered through the
    real app's buttons, the fewest presses the screen allows (a count, not a time)."""
    from tablemate_host import perfect_moment_games
    for seed in range(1, 6):
        most, average, end, scores, actions = perfect_moment_games.press_budget(seed)
        print("\nPerfect Moment game %d: %d actions, %d scores, at most %d presses (%.2f on "
              "average), %.0f to end a turn" % (seed, actions, scores, most, average, end))
        assert most <= budgets.limit("presses-score")
        assert end <= budgets.limit("presses-end")


def test_cartes_sur_table_presses():
    """Issue 12's key-press budget: the open votes of five recorded 5-player games entered
    through the real app's buttons, the fewest presses the screen allows, per Patient."""
    from tablemate_host import cartes_sur_table_games
    for seed in range(1, 6):
        most, average, patients = cartes_sur_table_games.press_budget(5, seed)
        print("\nCartes sur Table game %d: %d Patients, at most %d presses for five votes "
              "(%.1f on average)" % (seed, patients, most, average))
        assert most <= budgets.limit("presses-votes")


def test_heap_after_boot(modules):
    kind, folder = modules
    empty, base, boot = vmbench.heap_after_boot(folder)
    used = boot - empty
    print("\nheap after boot to home (.%s): %.1f KB in use (%.1f KB of it the test's harness)"
          % (kind, used / KB, (base - empty) / KB))
    assert used <= budgets.limit("heap-boot"), "%.1f KB" % (used / KB)


@pytest.mark.parametrize("mode", vmbench.measured())
def test_heap_during_the_largest_game(modules, mode):
    kind, folder = modules
    heap, out = vmbench.heap_in_largest_game(mode, folder)
    used = heap[-1] - heap[0]
    print("\n%s, %d players, %d actions resumed then played on (%d effective), on %s, .%s: "
          "%.1f KB in use" % (mode, out["players"], out["journaled"], out["count"], out["screen"],
                              kind, used / KB))
    assert out["screen"] != "ErrorScreen" and out["count"] >= out["journaled"] // 2
    assert used <= budgets.limit("heap-game"), "%.1f KB" % (used / KB)


def test_a_press_that_changes_one_number(modules):
    kind, folder = modules
    out = vmbench.i2c_one_number(folder)
    print("\nscorepad +1 (.%s): %d bytes; its commit: %d bytes" % (kind, out["press"], out["commit"]))
    assert 0 < out["press"] <= budgets.limit("bytes-number")
    assert 0 < out["commit"] <= budgets.limit("bytes-number")


def test_emptied_docstrings_keep_the_code_and_its_line_numbers():
    source = ('"""Module."""\nX = "kept"\n\n\nclass A:\n    """Two\n    lines \u2014 wide."""\n'
              '    def f(self):\n        """One."""; return "%d" % 1\n\n\ndef g():\n'
              '    y = 2\n    "not a docstring: a statement both VMs drop"\n    return y\n')
    out = vmbench.without_docstrings(source)
    assert out.count("\n") == source.count("\n")
    assert out.startswith('""""""\nX = "kept"\n') and '"""\n"""' in out
    assert '"""""" ; return "%d" % 1' in out.replace(";", " ;")
    strip = ast.dump(ast.parse(out))
    assert "Module." not in strip and "wide" not in strip and "One." not in strip
    assert "kept" in strip and "not a docstring" in strip
