"""The journal's format has two owners, one for each way (issue 35): ``store/journal.py``
describes every kind of line and encodes it (what a game in play keeps in RAM), and
``store/readback.py`` decodes and checks it (let go after a read); no other module spells a byte
of it, and neither imports a user of it back. Read with the AST, so a comment or a docstring does
not count.
"""

import ast

from firmware_source import trees

STORE = "tablemate/store/"
FORMAT = (STORE + "journal.py", STORE + "readback.py")  # encoding, decoding
# What only the format's two modules may spell: the checkpoint line's opening and its CRC.
SPELLED = ('{"c": ', '"n": ', '"s": ')


def _store_imports():
    """{store module: the store modules it imports, at its top or inside a function}."""
    graph = {}
    for rel, tree in trees():
        if not rel.startswith(STORE):
            continue
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module == "tablemate.store":
                    names.update(a.name for a in node.names)
                elif node.module.startswith("tablemate.store."):
                    names.add(node.module.split(".")[2])
            elif isinstance(node, ast.Import):
                names.update(a.name.split(".")[2] for a in node.names
                             if a.name.startswith("tablemate.store."))
        graph[rel[len(STORE):-3]] = names
    return graph


def _circles(graph):
    """The store modules that reach themselves through their imports."""
    def reach(start):
        seen, todo = set(), list(graph.get(start, ()))
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(graph.get(name, ()))
        return seen
    return sorted(name for name in graph if name in reach(name))


def test_no_circle_in_the_store():
    graph = _store_imports()
    assert {"files", "journal"} <= graph["readback"], graph
    assert {"journal", "readback"} <= graph["game"], graph
    assert _circles(graph) == [], graph


def test_the_format_imports_no_user_of_it():
    graph = _store_imports()
    assert not graph["journal"] & {"readback", "game"}, graph
    assert "game" not in graph["readback"], graph


def _spellings(rel, tree):
    """(path:line, what) of each string in code (not a docstring) that spells a checkpoint
    line's key, and of each use of crc32 in the store."""
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) \
                and id(node) not in docs:
            text = node.value if isinstance(node.value, str) else node.value.decode("latin-1")
            if any(s in text for s in SPELLED):
                found.append(("%s:%d" % (rel, node.lineno), node.value))
        elif isinstance(node, ast.Name) and node.id == "crc32" and rel.startswith(STORE):
            found.append(("%s:%d" % (rel, node.lineno), "crc32"))
    return found


def test_only_the_format_spells_a_checkpoint_line():
    found = [hit for rel, tree in trees() for hit in _spellings(rel, tree)]
    outside = ["%s: %r" % hit for hit in found if hit[0].split(":")[0] not in FORMAT]
    assert not outside, "the journal's format spelled outside its two modules:\n" + \
        "\n".join(outside)
    for owner in FORMAT:
        assert [hit for hit in found if hit[0].startswith(owner + ":")], "the scan sees " + owner


def _docstrings(tree):
    """The ids of the docstring constants of tree's module, classes and functions."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            docs.add(id(node.body[0].value))
    return docs
