"""Only ``tablemate/store/`` opens, writes, renames and removes files on the flash.

Each file the device keeps has one module that knows its format and how it is replaced (the
journal, the history, the settings, the setups, the chess clock, Perspective's records, the
Viewpoint catalog's reading, the error log): a screen asks it, and so does the host. A second
place that opens a file is a second format waiting to differ. Read with the AST, so a comment or
a docstring does not count.
"""

import ast

from firmware_source import trees
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


def _calls_by_file():
    """{path under firmware/: its file calls}."""
    return dict((rel, _file_calls(tree)) for rel, tree in trees())


def test_only_the_store_touches_files():
    problems = ["%s:%d: %s" % (rel, line, what)
                for rel, calls in sorted(_calls_by_file().items())
                if not rel.startswith("tablemate/store/") for line, what in calls]
    assert not problems, "file I/O outside tablemate/store/:\n" + "\n".join(problems)


def test_the_scan_sees_the_stores_own_calls():
    """The scan is not blind: store/ itself is full of what it looks for."""
    seen = set(what for rel, calls in _calls_by_file().items()
               if rel.startswith("tablemate/store/") for _, what in calls)
    assert {"open", "write_atomic", "os.remove", "os.rename", "os.mkdir"} <= seen, seen
