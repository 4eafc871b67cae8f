"""The budgets, read from the one place they are written: the table in ``docs/performance.md``.

Tests (``tests/test_budgets.py``) and the benchmark (``tools/bench.py``) name a budget by its id,
so changing a budget is an edit to the document, not to code.
"""

import os
import re

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                   "docs", "performance.md")
_UNITS = {"ms": 1, "B": 1, "KB": 1024, "presses": 1}
_ROW = re.compile(r"^\|\s*`([a-z0-9-]+)`\s*\|([^|]*)\|\s*([<>]=)\s*([0-9,.]+)\s*(ms|KB|B|presses)\s*\|")


def load(path=DOC):
    """{id: (what, "<=" or ">=", limit in ms or bytes)} from the Budgets table."""
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = _ROW.match(line)
            if m:
                limit = float(m.group(4).replace(",", "")) * _UNITS[m.group(5)]
                found[m.group(1)] = (m.group(2).strip(), m.group(3), limit)
    return found


def limit(key, path=DOC):
    """The limit of budget ``key`` (ms or bytes); KeyError when the document lacks it."""
    return load(path)[key][2]
