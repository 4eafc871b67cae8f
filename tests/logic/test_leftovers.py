"""The UF2's boot removes what a flash install left, and nothing else (``store/leftovers.py``)."""

import os

import support
from tablemate.store import leftovers

_MANIFEST = "# Files written by `tablemate flash`\ntablemate/__init__.mpy\nmain.py\n"


def _install(root, manifest=_MANIFEST):
    """A flash install's files, a user's data and a boot.py of their own."""
    for folder in ("/tablemate", "/tablemate/store", "/tablemate/ui", "/tablemate/hw", "/data"):
        os.mkdir(root + folder)
    for path in ("/tablemate/__init__.mpy", "/tablemate/ui/text.mpy", "/tablemate/hw/ssd1306.py",
                 "/tablemate/store/version.json", "/main.py", "/boot.py",
                 "/data/settings.json", "/data/game.jnl", "/data/history.jnl"):
        support.write_bytes(root + path, b"x")
    if manifest is not None:
        support.write_bytes(root + "/tablemate/store/MANIFEST", manifest.encode())


def _tree(root):
    """Every path under ``root``, sorted ("/data", "/data/game.jnl", ...)."""
    found = []
    for name in os.listdir(root):
        path = root + "/" + name
        found.append(path)
        if os.stat(path)[0] & 0x4000:
            found.extend(_tree(path))
    return sorted(found)


def _relative(root):
    return [p[len(root):] for p in _tree(root)]


def test_the_install_goes_and_the_data_stays():
    root = support.scratch_dir("leftovers_all")
    _install(root)
    assert leftovers.clear(root) == 6  # five files in /tablemate and the listed main.py
    assert _relative(root) == ["/boot.py", "/data", "/data/game.jnl", "/data/history.jnl",
                               "/data/settings.json"]
    assert support.read_bytes(root + "/data/game.jnl") == b"x"
    assert leftovers.clear(root) == 0  # the next boot finds nothing


def test_a_main_py_the_manifest_does_not_list_stays():
    """mip writes no manifest; a main.py of the user's own is theirs."""
    root = support.scratch_dir("leftovers_mip")
    _install(root, manifest=None)
    assert leftovers.clear(root) == 4
    assert "/main.py" in _relative(root) and "/tablemate" not in _relative(root)


def test_the_manifest_where_versions_before_0_2_kept_it():
    root = support.scratch_dir("leftovers_legacy")
    _install(root, manifest=None)
    support.write_bytes(root + "/tablemate/MANIFEST", _MANIFEST.encode())
    assert leftovers.clear(root) == 6
    assert "/main.py" not in _relative(root)


def test_a_boot_cut_short_is_finished_by_the_next():
    """A power cut after main.py and part of the folder went: the next boot removes the rest
    (the manifest, which named main.py, may be gone by then)."""
    root = support.scratch_dir("leftovers_cut")
    _install(root)
    os.remove(root + "/main.py")
    os.remove(root + "/tablemate/store/MANIFEST")
    os.remove(root + "/tablemate/ui/text.mpy")
    os.rmdir(root + "/tablemate/ui")
    assert leftovers.clear(root) == 3
    assert "/tablemate" not in _relative(root) and "/data/game.jnl" in _relative(root)


def test_a_flash_without_an_install_is_left_alone():
    root = support.scratch_dir("leftovers_none")
    os.mkdir(root + "/data")
    support.write_bytes(root + "/main.py", b"print('mine')\n")
    assert leftovers.clear(root) == 0
    assert _relative(root) == ["/data", "/main.py"]
