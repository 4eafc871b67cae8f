"""Every ordering by a key in firmware/ is total: no two items share a key.

MicroPython's ``list.sort`` (and so ``sorted``) is not stable: items with equal keys come out in
another order than on CPython, and the Pico proposes another card than the host (issue 33).
So a key may not tie: each ``sort``, ``sorted``, ``min`` or ``max`` given a ``key`` must give
it as a lambda returning a tuple that ends with the item itself ("by value, then the card"),
which is distinct for distinct items. Read with the AST, so a comment or a docstring does not
count. ``tests/logic/test_ties.py`` runs each such place with equal keys on both VMs.
"""

import ast

from firmware_source import trees

ORDERING = ("sort", "sorted", "min", "max")


def _name(func):
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _ends_with_the_item(key):
    """True when ``key`` is ``lambda x: (..., x)``."""
    if not isinstance(key, ast.Lambda) or len(key.args.args) != 1:
        return False
    body = key.body
    last = body.elts[-1] if isinstance(body, ast.Tuple) and body.elts else None
    return isinstance(last, ast.Name) and last.id == key.args.args[0].arg


def keyed_orderings(tree):
    """(line, call, total) for every sort/sorted/min/max call with a ``key`` in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in ORDERING:
            for kw in node.keywords:
                if kw.arg == "key":
                    found.append((node.lineno, _name(node.func), _ends_with_the_item(kw.value)))
    return found


def test_every_sort_key_ends_with_the_item():
    found = []
    for rel, tree in trees():
        found += [(rel, line, call, total) for line, call, total in keyed_orderings(tree)]
    ties = ["%s:%d: %s(key=...) can tie: end the key with the item" % (rel, line, call)
            for rel, line, call, total in found if not total]
    assert not ties, "\n".join(ties)
    assert len(found) >= 2, found  # the check reads the code: the standings and the swap


def test_the_check_catches_a_key_that_can_tie():
    for src, total in (("out.sort(key=lambda c: value(c))", False),
                       ("sorted(xs, key=lambda c: (value(c), 0))", False),
                       ("max(xs, key=best)", False),
                       ("out.sort(key=lambda c: (value(c), c))", True),
                       ("min(xs, key=lambda i: (-s[i], i))", True),
                       ("sorted(xs)", None)):
        got = keyed_orderings(ast.parse(src))
        assert [g[2] for g in got] == ([] if total is None else [total]), src
