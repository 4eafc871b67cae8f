"""The UF2 freezes the whole firmware, and the firmware reads nothing from its package folder.

``make uf2`` (``tools/build_uf2.py``) freezes what ``tools/uf2/manifest.py`` names into the
MicroPython image. CI has no MicroPython tree, so the manifest is run here with stand-ins of
MicroPython's manifest functions that select files exactly as ``tools/manifestfile.py`` (v1.28)
does: ``package`` takes every ``.py`` under the package's folder, ``module`` one file, and
``include`` of the board's or port's manifest adds MicroPython's own modules. A firmware file
those do not select (a file that is not ``.py``, a module outside the package, a list of files
that forgot one) would be missing from the UF2: an import error, or a missing file, on a Pico.

Frozen modules are not files: ``__file__`` names no file, and the package folder on the flash
(``/tablemate``) does not exist under a UF2 (its boot removes what an earlier install left
there). So the firmware may not read a path in its own package folder, except the receipts
the flash installer writes there for itself (``tablemate flash``'s manifest and version file),
which only a flash install has and whose absence the firmware expects.
"""

import ast
import os
import re
import shutil

from firmware_source import FIRMWARE, trees
from tablemate_host import flash
from tablemate_host.manifest import firmware_files

ROOT = os.path.dirname(FIRMWARE)
MANIFEST = os.path.join(ROOT, "tools", "uf2", "manifest.py")


def frozen(manifest=MANIFEST, board_manifest=False):
    """``(frozen paths, includes)``: the target path of every file the manifest freezes (as
    ``manifestfile.py`` names them: relative to the base path), and the manifests it includes,
    for a board with a manifest of its own (the Pico W's) or without one (the Pico's)."""
    found = []
    includes = []
    here = os.path.dirname(os.path.abspath(manifest))

    def resolve(path):
        return os.path.normpath(os.path.join(here, path))

    def include(path, **kwargs):
        assert path.startswith(("$(PORT_DIR)/", "$(BOARD_DIR)/")), "only MicroPython's own: " + path
        if path.startswith("$(BOARD_DIR)/") and not board_manifest:
            raise OSError("no such file: " + path)  # manifestfile.py: a ManifestFileError
        includes.append(path)

    def package(package_path, files=None, base_path=".", opt=None):
        base = resolve(base_path)
        if files is not None:
            found.extend(os.path.join(package_path, f).replace(os.sep, "/") for f in files)
            return
        for folder, _, names in os.walk(os.path.join(base, package_path), followlinks=True):
            for name in names:
                if os.path.splitext(name)[1].lower() == ".py":
                    found.append(os.path.relpath(os.path.join(folder, name), base).replace(os.sep, "/"))

    def module(module_path, base_path=".", opt=None):
        assert os.path.isfile(os.path.join(resolve(base_path), module_path)), module_path
        found.append(module_path)

    with open(manifest) as f:
        code = f.read()
    exec(compile(code, manifest, "exec"), {"include": include, "package": package,
                                           "module": module})
    return found, includes


def missed(manifest=MANIFEST, firmware=FIRMWARE):
    """The firmware files the frozen build would not have. ``firmware/main.py`` is the flash
    install's entry: the UF2 freezes its own (``tools/uf2/main.py``)."""
    got = set(frozen(manifest)[0])
    return sorted(rel for rel in firmware_files(firmware) if rel != "main.py" and rel not in got)


def test_the_manifest_freezes_every_firmware_file():
    files, includes = frozen()
    assert not missed(), "not frozen into the UF2: %s" % missed()
    assert "main.py" in files, "the UF2 needs its own main.py, or a blank Pico starts no app"
    assert len(files) == len(set(files)), "frozen twice: %s" % sorted(
        f for f in set(files) if files.count(f) > 1)
    # MicroPython's own frozen modules, its _boot.py (which mounts the flash) among them: the
    # port's, or the board's own manifest, which includes the port's
    assert includes == ["$(PORT_DIR)/boards/manifest.py"], includes
    assert frozen(board_manifest=True) == (files, ["$(BOARD_DIR)/manifest.py"])


def test_the_check_finds_a_file_the_freeze_would_miss(tmp_path):
    """A data file beside the modules, or a module outside the package, is not frozen."""
    firmware = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, str(firmware), ignore=shutil.ignore_patterns("__pycache__"))
    (firmware / "tablemate" / "ui" / "glyphs.bin").write_bytes(b"\x00")
    (firmware / "extra.py").write_text("X = 1\n")
    manifest = tmp_path / "tools" / "uf2" / "manifest.py"
    manifest.parent.mkdir(parents=True)
    shutil.copy(MANIFEST, str(manifest))
    shutil.copy(os.path.join(os.path.dirname(MANIFEST), "main.py"), str(manifest.parent))
    assert missed(str(manifest), str(firmware)) == ["extra.py", "tablemate/ui/glyphs.bin"]


# -- reads from the package folder ---------------------------------------------------------------
# The installer's receipts: written beside the modules by ``tablemate flash``, absent under a UF2.
RECEIPTS = ("/" + flash.MANIFEST, "/" + flash.VERSION_FILE) + tuple("/" + p for p in flash.LEGACY)
_IN_PACKAGE = re.compile(r"^/?tablemate/.*\.[A-Za-z0-9]+$")


def package_reads(tree):
    """(line, what) of every ``__file__`` and every string that names a file in the package's
    own folder (``/tablemate/...`` or ``tablemate/...`` with an extension), receipts apart."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "__file__":
            found.append((node.lineno, "__file__"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and _IN_PACKAGE.match(node.value) and node.value not in RECEIPTS:
            found.append((node.lineno, repr(node.value)))
    return found


def test_the_firmware_reads_nothing_from_its_package_folder():
    problems = ["%s:%d: %s" % (rel, line, what) for rel, tree in trees()
                for line, what in package_reads(tree)]
    assert not problems, "paths in the package folder (none under a UF2):\n" + "\n".join(problems)


def test_the_read_check_sees_what_it_looks_for():
    tree = ast.parse("F = '/tablemate/ui/font.bin'\nG = __file__\nH = '/tablemate/store/MANIFEST'\n"
                     "I = 'tablemate.boot'\n")
    assert package_reads(tree) == [(1, "'/tablemate/ui/font.bin'"), (2, "__file__")]


def test_the_release_workflow_builds_the_pinned_micropython_for_every_board():
    """The workflow checks MicroPython out itself: at build_uf2.py's tag, for its boards."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("build_uf2", os.path.join(ROOT, "tools", "build_uf2.py"))
    build_uf2 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_uf2)
    with open(os.path.join(ROOT, ".github", "workflows", "release.yml")) as f:
        text = f.read()
    assert "MICROPYTHON_TAG: %s " % build_uf2.MICROPYTHON_TAG in text
    assert "BOARDS: %s\n" % " ".join(build_uf2.BOARDS) in text
    assert "make uf2 MICROPY_DIR=" in text
