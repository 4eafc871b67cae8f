"""The firmware only uses device APIs that MicroPython's rp2 port really has.

The host fakes could let a misspelt or invented ``machine`` name pass; the pinned
micropython-rp2-rpi-pico-stubs are the port's own declaration of the API. So, read with the AST:
- every name the firmware imports from ``machine`` (and every ``Pin.X`` it reads) is in them;
- every call of a ``machine`` class or function (``I2C(0, sda=..., scl=..., freq=...)``) fits
  one of the stub's signatures, keyword names included;
- the objects the drivers are handed or build (``HANDED`` below says which expression holds
  which class, file by file) are only used for what their stub class declares, and each call
  fits a signature of that method (``pin.irq(handler, trigger, hard=True)``);
- no other file uses a device-only method (``writeto``, ``irq``, ``duty_u16``, ...) behind the
  table's back: such a file, or such an object, must be added to ``HANDED``.
"""

import ast
import glob
import inspect
import os
import sysconfig

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
FIRMWARE_FILES = sorted(glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True))

# File (under firmware/) -> {expression in that file: the machine class of the object it holds}.
HANDED = {
    "tablemate/boot.py": {"i2c": "I2C", "pin": "Pin", "wdt": "WDT"},  # made by hw.peripherals
    "tablemate/app.py": {"wdt": "WDT"},  # the boot's, fed by the loop's pass (``app.step``)
    "tablemate/hw/peripherals.py": {"pin": "Pin", "pins[i]": "Pin", "self.pwm": "PWM",
                                    "self._i2c": "I2C", "self._adc": "ADC"},
    "tablemate/hw/fault.py": {"led": "Pin", "i2c": "I2C"},
    "tablemate/hw/ssd1306.py": {"self.i2c": "I2C"},
    "tablemate/hw/encoder.py": {"a": "Pin", "b": "Pin", "sw": "Pin", "self._a": "Pin",
                                "self._b": "Pin", "self._sw": "Pin"},
}

# Methods and attributes that only a device object has: whoever uses them must be in HANDED.
DEVICE_ONLY = {"writeto", "writevto", "readfrom", "readfrom_into", "readfrom_mem",
               "readfrom_mem_into", "writeto_mem", "irq", "duty_u16", "duty_ns", "read_u16",
               "feed"}


def _rel(path):
    return os.path.relpath(path, FIRMWARE).replace(os.sep, "/")


def _tree(rel):
    with open(os.path.join(FIRMWARE, rel), encoding="utf-8") as f:
        return ast.parse(f.read(), rel)


# ---- the stub ----------------------------------------------------------------------------------

def _stub():
    """The parsed ``machine.pyi`` of the pinned rp2 stubs (installed in site-packages)."""
    path = os.path.join(sysconfig.get_paths()["purelib"], "machine.pyi")
    assert os.path.exists(path), "micropython-rp2-rpi-pico-stubs is not installed (make test does it)"
    with open(path) as f:
        return ast.parse(f.read())


def _members(body):
    """{name: [its defs (overloads)]} for what a stub body declares; attributes have no defs."""
    members = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            members.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            members.setdefault(node.target.id, [])
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    members.setdefault(t.id, [])
    return members


def _declared():
    """(module-level members, {class name: its members, inherited ones included})."""
    body = _stub().body
    module = _members(body)
    classes = {}
    for node in body:
        if isinstance(node, ast.ClassDef):
            members = {}
            for base in node.bases:  # e.g. Signal(Pin)
                if isinstance(base, ast.Name) and base.id in classes:
                    members.update(classes[base.id])
            members.update(_members(node.body))
            classes[node.name] = members
    return module, classes


MODULE, CLASSES = _declared()


def _signature(fn, method):
    """The inspect.Signature of a stub def (without ``self`` for a method); only parameter names,
    kinds and whether they have a default matter here."""
    a = fn.args
    P = inspect.Parameter
    positional = [(x, P.POSITIONAL_ONLY) for x in a.posonlyargs]
    positional += [(x, P.POSITIONAL_OR_KEYWORD) for x in a.args]
    if method:
        positional = positional[1:]
    first_default = len(positional) - len(a.defaults)
    params = [P(x.arg, kind, default=None if i >= first_default else P.empty)
              for i, (x, kind) in enumerate(positional)]
    if a.vararg:
        params.append(P(a.vararg.arg, P.VAR_POSITIONAL))
    params += [P(x.arg, P.KEYWORD_ONLY, default=P.empty if d is None else None)
               for x, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        params.append(P(a.kwarg.arg, P.VAR_KEYWORD))
    return inspect.Signature(params)


def _fits(defs, call, method):
    """None when ``call`` binds to one of the overloads ``defs``, else why not."""
    args = [None] * len(call.args)
    kwargs = {k.arg: None for k in call.keywords if k.arg is not None}
    problems = []
    for fn in defs:
        sig = _signature(fn, method)
        try:
            sig.bind(*args, **kwargs)
            return None
        except TypeError as exc:
            problems.append("%s%s: %s" % (fn.name, sig, exc))
    return "; ".join(problems)


# ---- what a firmware file uses -----------------------------------------------------------------

def _machine_imports(tree):
    """Names a file imports from machine, and whether it does ``import machine``."""
    names = set()
    plain = False
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "machine":
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import) and any(a.name == "machine" for a in node.names):
            plain = True
    return names, plain


def _calls(tree):
    """{id(func node): call} so an attribute can be told apart from a method call."""
    return {id(n.func): n for n in ast.walk(tree) if isinstance(n, ast.Call)}


def _attribute_uses(tree):
    """(receiver text, attribute, the call or None, line) for every ``x.attr`` read in a file."""
    calls = _calls(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            yield ast.unparse(node.value), node.attr, calls.get(id(node)), node.lineno


def _checked_files():
    """Files that import machine or are handed device objects: the ones the API checks read."""
    files = set(HANDED)
    for path in FIRMWARE_FILES:
        names, plain = _machine_imports(_tree(_rel(path)))
        if names or plain:
            files.add(_rel(path))
    return sorted(files)


# ---- the checks --------------------------------------------------------------------------------

@pytest.mark.parametrize("rel", _checked_files())
def test_machine_names_and_constructors_exist_on_the_rp2_port(rel):
    tree = _tree(rel)
    imported, _ = _machine_imports(tree)
    assert imported <= set(MODULE), "not in rp2's machine: %s" % sorted(imported - set(MODULE))
    problems = []
    for receiver, attr, call, line in _attribute_uses(tree):
        if receiver in imported and receiver in CLASSES and attr not in CLASSES[receiver]:
            problems.append("line %d: %s has no %s" % (line, receiver, attr))
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) \
                and call.func.id in imported:
            name = call.func.id
            if name in CLASSES:
                why = _fits(CLASSES[name].get("__init__", []), call, True)
            else:
                why = _fits(MODULE[name], call, False)
            if why:
                problems.append("line %d: %s: %s" % (call.lineno, ast.unparse(call), why))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("rel", sorted(HANDED))
def test_handed_objects_are_used_as_their_rp2_classes_allow(rel):
    table = HANDED[rel]
    problems = []
    seen = set()
    for receiver, attr, call, line in _attribute_uses(_tree(rel)):
        cls = table.get(receiver)
        if cls is None:
            continue
        seen.add(receiver)
        members = CLASSES[cls]
        if attr not in members:
            problems.append("line %d: %s (a %s) has no %s" % (line, receiver, cls, attr))
        elif call is not None:
            why = _fits(members[attr], call, True)
            if why:
                problems.append("line %d: %s: %s" % (line, ast.unparse(call), why))
    assert not problems, "\n".join(problems)
    stale = sorted(set(table) - seen)
    assert not stale, "HANDED lists what %s no longer uses: %s" % (rel, stale)


def test_every_use_of_a_device_method_is_on_an_object_the_table_knows():
    problems = []
    for path in FIRMWARE_FILES:
        rel = _rel(path)
        tree = _tree(rel)
        imported, _ = _machine_imports(tree)
        known = set(HANDED.get(rel, {})) | imported
        for receiver, attr, call, line in _attribute_uses(tree):
            device_only = attr in DEVICE_ONLY or attr.startswith("IRQ_")
            if device_only and receiver not in known:
                problems.append("%s:%d: %s.%s - add %r to HANDED[%r] with its machine class"
                                % (rel, line, receiver, attr, receiver, rel))
    assert not problems, "\n".join(problems)


def test_only_main_and_hw_import_machine():
    for path in FIRMWARE_FILES:
        rel = _rel(path)
        names, plain = _machine_imports(_tree(rel))
        if names or plain:
            assert rel == "main.py" or rel.startswith("tablemate/hw/"), rel


def test_the_signature_check_tells_right_from_wrong_calls():
    """The checker itself, on calls the firmware makes and on mistakes it could make."""
    pin, i2c = CLASSES["Pin"], CLASSES["I2C"]

    def fits(members, name, code, method=True):
        return _fits(members[name], ast.parse(code).body[0].value, method) is None

    assert fits(pin, "irq", "p.irq(h, t, hard=True)")
    assert fits(pin, "irq", "p.irq(None)")
    assert not fits(pin, "irq", "p.irq(h, t, hard_irq=True)")
    assert not fits(pin, "irq", "p.irq(h, t, 1, 2, 3)")
    assert fits(pin, "value", "p.value()") and fits(pin, "value", "p.value(1)")
    assert not fits(pin, "value", "p.value(1, 2)")
    assert fits(i2c, "writeto", "i2c.writeto(60, buf)")
    assert not fits(i2c, "writeto", "i2c.writeto(60, buf, stop=False)")  # positional only
    assert fits(i2c, "__init__", "I2C(0, sda=a, scl=b, freq=400000)")
    assert not fits(i2c, "__init__", "I2C(0, a, b)")
    assert fits(CLASSES["WDT"], "__init__", "WDT(timeout=5000)")
    assert not fits(CLASSES["WDT"], "__init__", "WDT(5000)")
    assert fits(MODULE, "reset_cause", "reset_cause()", False)


def test_cpython_loads_the_hosts_machine_not_the_test_vms_names():
    """tests/logic/machine.py (names only, for the MicroPython VM) sits on CPython's path too."""
    import machine
    assert machine.__name__ == "tablemate_host.machine"
