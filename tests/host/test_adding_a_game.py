"""docs/adding-a-game.md's promise, kept: a mode added by its steps alone is a mode like the
built-in ones.

A copy of the project gets a seventh mode exactly as the doc says, and nothing else: its rules
module in ``firmware/tablemate/rules/``, its screen module in ``firmware/tablemate/screens/``
(Tally's two files from tests/extra_modes, its import made a firmware one) and one line in
``modes.MODES``, no "rules" or "screens" key: the registry path the built-ins take. The
copy's own tests that iterate the registry then run on it, on both VMs where they are VM
checks: the heap budget of its largest game (the MicroPython VM, as .mpy and as source), the
key fuzzer (CPython and the MicroPython VM: every mode started, power cuts resumed), every
frame of every mode with the longer home menu read back as drawn, the home menu walked with the
encoder, the new game resumed after a power cut, and its screen reading the game through its
rules module's accessors. A host module, a limit or a test that kept its own list of the
modes fails here, named by the copy's pytest output.
"""

import os
import re
import shutil
import subprocess
import sys

from tablemate_host import mpvm

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOC = os.path.join(ROOT, "docs", "adding-a-game.md")
NAME = "tally"
# The copy's checks that read the registry, with the new mode's cases picked out.
CHECKS = [
    "tests/test_budgets.py::test_every_recorded_largest_game_is_a_registered_mode",
    "tests/test_budgets.py::test_heap_during_the_largest_game[mpy-%s]" % NAME,
    "tests/test_budgets.py::test_heap_during_the_largest_game[py-%s]" % NAME,
    "tests/logic/test_fuzz.py::test_fuzz_six_buttons",
    "tests/test_micropython_vm.py::test_logic_under_micropython[test_fuzz.test_fuzz_six_buttons]",
    "tests/host/test_text_fits.py::test_every_frame_of_every_mode_reads_as_drawn[six-short]",
    "tests/scenario/test_encoder_ui.py",
    "tests/scenario/test_every_mode_resumes.py::test_a_started_game_resumes_after_a_power_cut[%s]"
    % NAME,
    "tests/host/test_rules_accessors.py",  # its screen reads the game as a built-in's must
]


def _copy(dst):
    """The project's sources (not its generated pictures, its venv or its git) in ``dst``, the
    VM's Node modules linked."""
    skip = shutil.ignore_patterns("node_modules", "__pycache__", ".venv", ".git", "*.png")
    for folder in ("firmware", "host", "tests", "tools", "docs"):
        shutil.copytree(os.path.join(ROOT, folder), os.path.join(dst, folder), ignore=skip)
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), dst)
    modules = os.path.join(ROOT, "tools", "mpvm", "node_modules")
    if os.path.isdir(modules):
        os.symlink(modules, os.path.join(dst, "tools", "mpvm", "node_modules"))


def _add_mode(dst):
    """The doc's three steps, nothing more: the paths of the files written."""
    extra = os.path.join(ROOT, "tests", "extra_modes")
    firmware = os.path.join(dst, "firmware", "tablemate")
    rules = os.path.join(firmware, "rules", NAME + ".py")
    shutil.copy(os.path.join(extra, "tally_rules.py"), rules)
    screen = os.path.join(firmware, "screens", NAME + ".py")
    with open(os.path.join(extra, "tally_screen.py"), encoding="utf-8") as f:
        source = f.read()
    with open(screen, "w", encoding="utf-8") as f:
        f.write(source.replace("from extra_modes import tally_rules as rules",
                               "from tablemate.rules import %s as rules" % NAME))
    registry = os.path.join(firmware, "modes.py")
    with open(registry, encoding="utf-8") as f:
        source = f.read()
    end = source.index("\n]\n", source.index("MODES = ["))
    with open(registry, "w", encoding="utf-8") as f:
        f.write(source[:end] + '\n    {"name": "%s", "label": "Tally"},' % NAME + source[end:])
    return [rules, screen, registry]


def test_the_doc_names_the_three_files_this_test_writes():
    """The steps below are the doc's: if the doc asks for another file, this test must too."""
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    steps = doc[doc.index("## The files"):doc.index("\n## ", doc.index("## The files") + 1)]
    named = re.findall(r"^\d+\. \*\*(.+?)\*\*", steps, re.M)
    assert named == ["`firmware/tablemate/rules/<name>.py`",
                     "`firmware/tablemate/screens/<name>.py`", "The registry"], named
    assert "`modes.MODES`" in steps


def test_a_mode_added_by_the_doc_alone_passes_the_registry_checks(tmp_path):
    mpvm.require_vm()  # skipped without the VM, saying how to install it; failed in CI
    project = str(tmp_path / "project")
    _copy(project)
    written = _add_mode(project)
    assert [os.path.relpath(p, project) for p in written] == [
        "firmware/tablemate/rules/%s.py" % NAME, "firmware/tablemate/screens/%s.py" % NAME,
        "firmware/tablemate/modes.py"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "COV_"))}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
        + CHECKS, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        timeout=900)
    out = proc.stdout.decode("utf-8", "replace")
    assert proc.returncode == 0, out[-6000:]
    summary = out.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary and "deselected" not in summary, out
