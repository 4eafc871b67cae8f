"""The firmware only uses device APIs that MicroPython's rp2 port really has.

The host fakes could let a misspelt or invented ``machine`` name pass; the pinned
micropython-rp2-rpi-pico-stubs are the port's own declaration of the API, so every name the
firmware imports from ``machine`` (and every ``Pin.X`` constant it reads) must be in them.
"""

import ast
import glob
import os
import sysconfig

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE_FILES = sorted(glob.glob(os.path.join(ROOT, "firmware", "**", "*.py"), recursive=True))


def _stub():
    """The parsed ``machine.pyi`` of the pinned rp2 stubs (installed in site-packages)."""
    path = os.path.join(sysconfig.get_paths()["purelib"], "machine.pyi")
    assert os.path.exists(path), "micropython-rp2-rpi-pico-stubs is not installed (make test does it)"
    with open(path) as f:
        return ast.parse(f.read())


def _defined(body):
    """Names a stub body declares: functions, classes and (annotated) assignments."""
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _declared():
    """(module-level names, {class name: its members}) of rp2's machine stub."""
    body = _stub().body
    classes = {node.name: _defined(node.body) for node in body if isinstance(node, ast.ClassDef)}
    return _defined(body), classes


def _uses(path):
    """(imported machine names, {class: attributes read}) in one firmware file."""
    with open(path) as f:
        tree = ast.parse(f.read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "machine":
            imported.update(alias.name for alias in node.names)
    attrs = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in imported:
            attrs.setdefault(node.value.id, set()).add(node.attr)
    return imported, attrs


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: os.path.relpath(p, ROOT))
def test_machine_names_exist_on_the_rp2_port(path):
    names, classes = _declared()
    imported, attrs = _uses(path)
    assert imported <= names, "not in rp2's machine: %s" % sorted(imported - names)
    for cls, used in attrs.items():
        assert used <= classes.get(cls, set()), "%s has no %s" % (cls, sorted(used - classes[cls]))


def test_only_main_and_hw_import_machine():
    for path in FIRMWARE_FILES:
        rel = os.path.relpath(path, os.path.join(ROOT, "firmware")).replace(os.sep, "/")
        imported, _ = _uses(path)
        with open(path) as f:
            plain_import = any(isinstance(n, ast.Import) and any(a.name == "machine" for a in n.names)
                               for n in ast.walk(ast.parse(f.read())))
        if imported or plain_import:
            assert rel == "main.py" or rel.startswith("tablemate/hw/"), rel
