"""The host's own modules import one way (issue 35): no circle among ``tablemate_host``'s modules,
counting the imports inside functions too (a circle there is as much a tangle to a reader).
Read with the AST."""

import ast
import os

HOST = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    "host", "tablemate_host")


def _graph():
    """{host module: the host modules it imports}."""
    graph = {}
    for name in sorted(os.listdir(HOST)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(HOST, name), encoding="utf-8") as f:
            tree = ast.parse(f.read(), name)
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "tablemate_host":
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                    "tablemate_host."):
                found.add(node.module.split(".")[1])
            elif isinstance(node, ast.Import):
                found.update(a.name.split(".")[1] for a in node.names
                             if a.name.startswith("tablemate_host."))
        graph[name[:-3]] = found
    return graph


def test_no_circle_among_the_host_modules():
    graph = _graph()
    assert "machine" in graph["fakes"], graph  # the scan sees the imports inside functions

    def reach(start):
        seen, todo = set(), list(graph[start])
        while todo:
            name = todo.pop()
            if name not in seen and name in graph:
                seen.add(name)
                todo.extend(graph[name])
        return seen

    assert sorted(name for name in graph if name in reach(name)) == []
