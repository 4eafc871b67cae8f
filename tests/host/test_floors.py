"""Every import in ``firmware/`` runs down the floors of ``docs/architecture.md``, and no two
modules import each other (issue 35): the import a function makes to load a module late is an
arrow like any other, so a module that reaches up for a name, even inside a function, fails here.

What a module imports by a string (``lifecycle`` importing a registered mode's modules,
``__import__`` in the quiet passes) is no arrow of this map: ``test_module_names`` reads those.
"""

import ast

from firmware_source import trees

# The floors from the ground up: each prefix of a module's path under firmware/ (the longest
# that matches) names its floor. A module imports only from its own floor or below.
FLOORS = (
    ("tablemate/__init__.py", "tablemate/board.py"),
    ("tablemate/keys.py", "tablemate/knob.py", "tablemate/clock.py", "tablemate/options.py",
     "tablemate/hw/"),
    ("tablemate/rules/", "tablemate/store/"),
    ("tablemate/modes.py", "tablemate/boardcheck.py"),
    ("tablemate/ui/",),
    ("tablemate/lifecycle.py",),
    ("tablemate/flow/",),
    ("tablemate/screens/", "tablemate/safe.py", "tablemate/badboard.py"),
    ("tablemate/app.py", "tablemate/battery.py"),
    ("tablemate/phones/",),  # the phones' service: the boot hands it the loop
    ("tablemate/boot.py",),
    ("main.py",),
)



def floor_of(rel):
    best = None
    for i, prefixes in enumerate(FLOORS):
        for p in prefixes:
            if rel == p or (p.endswith("/") and rel.startswith(p)):
                if best is None or len(p) > best[1]:
                    best = (i + 1, len(p))
    assert best is not None, "%s stands on no floor: add it to FLOORS and the map" % rel
    return best[0]


def _file_of(dotted, files):
    """The firmware file that the module ``dotted`` is (a package's ``__init__.py``), or None
    for a module that is not the firmware's (``micropython``, ``asyncio``...)."""
    rel = dotted.replace(".", "/")
    for cand in (rel + ".py", rel + "/__init__.py"):
        if cand in files:
            return cand
    return None


def arrows():
    """{(importer, imported)} between firmware files, top-level and function-level imports."""
    parsed = dict(trees())
    found = {}
    for rel, tree in parsed.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                # ``from tablemate.ui import text``: the submodule when there is one, else the
                # package that defines the name
                names = [node.module + "." + a.name
                         if _file_of(node.module + "." + a.name, parsed) else node.module
                         for a in node.names]
            else:
                continue
            for name in names:
                target = _file_of(name, parsed)
                if target is not None and target != rel:
                    found.setdefault((rel, target), node.lineno)
    return found


def test_every_arrow_runs_down():
    up = ["%s:%d imports %s (floor %d above %d)" % (a, line, b, floor_of(b), floor_of(a))
          for (a, b), line in sorted(arrows().items()) if floor_of(b) > floor_of(a)]
    assert not up, "\n".join(up)


def test_no_circle_but_the_one_left():
    graph = {}
    for a, b in arrows():
        graph.setdefault(a, set()).add(b)
    circles = []
    for start in sorted(graph):
        seen, todo = set(), [(start, [start])]
        while todo:
            node, path = todo.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    circles.append(" -> ".join(path + [start]))
                elif nxt not in seen:
                    seen.add(nxt)
                    todo.append((nxt, path + [nxt]))
    assert not circles, "\n".join(circles)
