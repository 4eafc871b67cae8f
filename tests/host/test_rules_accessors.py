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
