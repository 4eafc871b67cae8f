"""Only ``tablemate/store/`` opens, writes, renames and removes files on the flash.

Each file the device keeps has one module that knows its format and how it is replaced (the
journal, the history, the settings, the setups, the chess clock, Perspective's records, the
Viewpoint catalog's reading, the error log): a screen asks it, and so does the host. A second
place that opens a file is a second format waiting to differ. Read with the AST, so a comment or
a docstring does not count.
"""

import ast
import os

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "firmware")
WRITES = ("remove", "rename", "mkdir", "rmdir")  # os.<these> change the flash


def _file_calls(tree):
    """(line, what) of every open(...), os.remove/rename/mkdir/rmdir(...) and write_atomic(...)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in ("open", "write_atomic"):
            found.append((node.lineno, f.id))
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == "os" and f.attr in WRITES:
            found.append((node.lineno, "os." + f.attr))
        elif isinstance(f, ast.Attribute) and f.attr == "write_atomic":
            found.append((node.lineno, "write_atomic"))
    return found


def _outside_store():
    """Firmware files outside store/ (the drivers in hw/ and main.py touch no file either)."""
    for folder, _, names in os.walk(FIRMWARE):
        rel = os.path.relpath(folder, FIRMWARE).replace(os.sep, "/")
        if rel == "tablemate/store":
            continue
        for name in sorted(names):
            if name.endswith(".py"):
                yield os.path.join(folder, name)


def test_only_the_store_touches_files():
    problems = []
    for path in _outside_store():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for line, what in _file_calls(tree):
            problems.append("%s:%d: %s" % (os.path.relpath(path, FIRMWARE), line, what))
    assert not problems, "file I/O outside tablemate/store/:\n" + "\n".join(problems)


def test_the_scan_sees_the_stores_own_calls():
    """The scan is not blind: store/ itself is full of what it looks for."""
    seen = set()
    folder = os.path.join(FIRMWARE, "tablemate", "store")
    for name in os.listdir(folder):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                seen.update(what for _, what in _file_calls(ast.parse(f.read())))
    assert {"open", "write_atomic", "os.remove", "os.rename", "os.mkdir"} <= seen, seen
