"""The firmware's source as parsed trees, for the tests that read the code itself.

One walk of ``firmware/`` for the checks of what the code does (the modules it names in strings,
the files only the store opens), so that each reads the same files the same way.
"""

import ast
import os

FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "firmware")


def trees():
    """(path relative to firmware/, with "/", parsed module) of every .py under firmware/."""
    for folder, _, names in sorted(os.walk(FIRMWARE)):
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), path)
                yield os.path.relpath(path, FIRMWARE).replace(os.sep, "/"), tree
