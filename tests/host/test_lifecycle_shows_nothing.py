"""``lifecycle`` decides a game's life and shows no dialog (its docstring's promise): what the
players must read first is the game screen's to show (``GameScreen.enter``), so the module
below the screens never imports a dialog to push."""

import ast
import os

LIFECYCLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "firmware", "tablemate", "lifecycle.py")


def test_lifecycle_imports_no_dialog():
    with open(LIFECYCLE, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tablemate.ui"):
            found += [(node.lineno, node.module, a.name) for a in node.names
                      if node.module == "tablemate.ui.dialogs" or a.name == "dialogs"]
    assert found == [], found
