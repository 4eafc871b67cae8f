"""Screens read a game through its rules module's accessors, never its state's keys.

``flow/play.py`` states the contract: a mode's state layout is its rules module's business, so a
rules module can change how it keeps a game without a screen reading a key that moved. This test
keeps it held: outside ``rules/`` (the layout's owner), ``store/`` (which journals the state
whole) and ``tablemate.action_kind`` (the rules' shared check), no firmware module subscripts a
game state (``state[...]``, ``game.state[...]``) or asks it for a key (``state.get``).
"""

import ast

from firmware_source import trees

OWNERS = ("tablemate/rules/", "tablemate/store/", "tablemate/__init__.py")


def _is_state(node):
    """True for an expression that names a game state: ``state`` or ``<anything>.state``."""
    return ((isinstance(node, ast.Name) and node.id == "state")
            or (isinstance(node, ast.Attribute) and node.attr == "state"))


def direct_reads(tree):
    """The lines of ``tree`` that read a game state's keys directly."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _is_state(node.value):
            lines.append(node.lineno)
        elif (isinstance(node, ast.Attribute) and node.attr == "get"
              and _is_state(node.value)):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_check_sees_a_direct_read():
    found = direct_reads(ast.parse('def f(state, screen):\n    a = state["sealed"][0]\n'
                                   '    b = screen.game.state["done"]\n    c = state.get("x")\n'
                                   '    return rules.names(state)\n'))
    assert found == [2, 3, 4], found


def test_screens_read_the_game_through_the_rules_accessors():
    reads = ["%s:%d" % (rel, line) for rel, tree in trees()
             if not rel.startswith(OWNERS) for line in direct_reads(tree)]
    assert not reads, "a game state read outside its rules module: " + ", ".join(reads)


# A record an accessor returns (``last``: the last settled round) is read by its keys, so the
# keys are the accessor's contract: its docstring names every one a reader may use.
RECORDS = ("last",)


def record_reads(tree):
    """(accessor, key, line) for each ``rules.<accessor>(...)["key"]`` in ``tree``, read directly
    or through a name the accessor's result was bound to in the same function."""
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.Module)):
            continue
        bound = {}
        for node in ast.walk(fn):
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name) and _record_call(node.value)):
                bound[node.targets[0].id] = _record_call(node.value)
        for node in ast.walk(fn):
            if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
                    and isinstance(node.slice.value, str)):
                continue
            accessor = _record_call(node.value) or (
                isinstance(node.value, ast.Name) and bound.get(node.value.id))
            if accessor:
                found.append((accessor, node.slice.value, node.lineno))
    return sorted(set(found))


def _record_call(node):
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in RECORDS and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "rules"):
        return node.func.attr
    return None


def _rules_of(tree):
    """The rules module a file imports as ``rules``, or None."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "tablemate.rules":
            for alias in node.names:
                if alias.asname == "rules":
                    return "tablemate/rules/%s.py" % alias.name
    return None


def _documented(rules_tree, accessor):
    for node in rules_tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == accessor:
            return ast.get_docstring(node) or ""
    return ""


def test_the_record_check_sees_a_read():
    tree = ast.parse('def f(state):\n    last = rules.last(state)\n    a = last["votes"]\n'
                     '    return rules.last(state)["card"], other["x"]\n')
    assert record_reads(tree) == [("last", "card", 4), ("last", "votes", 3)]


def test_a_records_keys_are_the_ones_its_accessor_names():
    sources = dict(trees())
    undocumented = []
    checked = 0
    for rel, tree in sources.items():
        if rel.startswith(OWNERS):
            continue
        reads = record_reads(tree)
        if not reads:
            continue
        owner = _rules_of(tree)
        assert owner in sources, "%s reads a record but imports no rules module as rules" % rel
        for accessor, key, line in reads:
            checked += 1
            if '"%s"' % key not in _documented(sources[owner], accessor):
                undocumented.append("%s:%d %s()[%r]" % (rel, line, accessor, key))
    assert checked >= 10, "the screens of Contrast and Cartes read their last round: %d" % checked
    assert not undocumented, "keys the accessor's docstring does not name: " + ", ".join(
        undocumented)
