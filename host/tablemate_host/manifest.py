"""What the firmware consists of: its files and its version, as the flash tool and mip see them.

Standard library only: it reads the firmware folder and never imports the firmware.
"""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")


def firmware_files(firmware=FIRMWARE):
    """Every file of the firmware, as device paths relative to "/", ``main.py`` last.

    ``main.py`` goes last so that an interrupted copy never starts a half-written package.
    """
    found = []
    for folder, dirs, files in os.walk(firmware):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.endswith((".pyc", ".mpy")):
                continue
            found.append(os.path.relpath(os.path.join(folder, name), firmware).replace(os.sep, "/"))
    return sorted(found, key=lambda rel: (rel == "main.py", rel))


def firmware_version(firmware=FIRMWARE):
    """``VERSION`` from ``tablemate/__init__.py``, read without importing it (ValueError if none)."""
    with open(os.path.join(firmware, "tablemate", "__init__.py")) as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) == "VERSION" for t in node.targets):
            return ast.literal_eval(node.value)
    raise ValueError("firmware/tablemate/__init__.py has no VERSION")
