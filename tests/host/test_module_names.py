"""Every module the firmware finds by a string exists: nothing is looked up by a name no test reads.

The firmware imports some modules by name on purpose (a mode's modules when the menu rests on it,
``lifecycle.prefetch`` in the quiet passes, ``tablemate.unload`` letting a setup's modules go):
on a Pico each import costs 15-30 ms and each module held costs RAM, so they are imported when
needed and let go when done. A typo in one of those strings would fail only on the path that
reads it, at a table; these tests read them all.
"""

import ast
import importlib
import os

from firmware_source import FIRMWARE, trees

from tablemate import lifecycle, modes


def _module_strings():
    """(file, line, text) of every string constant in firmware/ that looks like a module name."""
    found = []
    for rel, tree in trees():
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and node.value.startswith("tablemate.") and " " not in node.value
                    and not node.value.endswith(".")):
                found.append((rel, node.lineno, node.value))
    return found


def _exists(dotted):
    rel = os.path.join(FIRMWARE, *dotted.split("."))
    return os.path.exists(rel + ".py") or os.path.isdir(rel)


def test_every_module_named_in_a_string_exists():
    strings = _module_strings()
    assert len(strings) >= 5, strings  # the scan sees the prefetch and unload lists
    missing = ["%s:%d: %s" % s for s in strings if not _exists(s[2])]
    assert not missing, "\n".join(missing)


def test_every_registered_mode_has_its_two_modules():
    for m in modes.MODES:
        name = m["name"]
        rules = lifecycle.rules(name)
        assert rules.__name__ == m.get("rules", "tablemate.rules." + name)
        for attr in ("PLAYERS", "OPTIONS", "setup"):
            assert hasattr(rules, attr), (name, attr)
        screen = lifecycle.screen(name)
        assert screen.__module__ == m.get("screens", "tablemate.screens." + name)
        importlib.import_module(screen.__module__)
