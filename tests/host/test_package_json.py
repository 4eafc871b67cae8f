"""package.json (for ``mpremote mip install``) and the bytecode it installs are current.

The last test runs mpremote's own mip installer on package.json, against an in-memory board, to
show that ``--target /`` puts the firmware where ``tablemate flash`` does, compiled as it does.
"""

import json
import os
import runpy
import shutil
import subprocess
import sys

import pytest

from tablemate_host import flash

from test_flash import FakeBoard

ROOT = flash.ROOT
PACKAGE_JSON = os.path.join(ROOT, "package.json")
GEN = os.path.join(ROOT, "tools", "gen_package_json.py")


def _package():
    with open(PACKAGE_JSON) as f:
        return json.load(f)


def test_package_and_bytecode_are_current():
    gen = runpy.run_path(GEN)
    stale = gen["stale"](gen["build"]())
    if stale:
        pytest.fail("stale: %s; run `make generate` and commit what it rewrote" % ", ".join(stale),
                    pytrace=False)


def test_check_flag_exits_1_when_stale(tmp_path, capsys):
    proc = subprocess.run([sys.executable, GEN, "--check"], stderr=subprocess.PIPE)
    assert proc.returncode == 0, proc.stderr.decode()
    gen = runpy.run_path(GEN)
    out, mip = str(tmp_path / "package.json"), str(tmp_path / "mip")
    shutil.copy(PACKAGE_JSON, out)
    shutil.copytree(os.path.join(ROOT, "tools", "mip"), mip)
    assert gen["main"](["--check"], output=out, mip=mip) == 0
    with open(os.path.join(mip, "tablemate", "app.mpy"), "ab") as f:
        f.write(b"\x00")  # a module compiled from another source
    with open(os.path.join(mip, "tablemate", "gone.mpy"), "wb") as f:
        f.write(b"M")  # a module the firmware no longer has
    gen = runpy.run_path(GEN)
    assert gen["stale"](gen["build"](), out, mip) == ["tools/mip/tablemate/app.mpy",
                                                      "tools/mip/tablemate/gone.mpy is left over"]
    assert gen["main"](["--check"], output=out, mip=mip) == 1
    assert "run `make generate`" in capsys.readouterr().err  # the one command that renews them all
    assert gen["main"]([], output=out, mip=mip) == 0  # regenerates them
    assert gen["main"](["--check"], output=out, mip=mip) == 0


def test_every_firmware_module_is_listed_compiled_and_main_as_source():
    pkg = _package()
    listed = dict(pkg["urls"])
    expected = [rel if rel == "main.py" else rel[:-3] + ".mpy" for rel in flash.firmware_files()]
    assert sorted(listed) == sorted(expected)
    assert len(listed) == len(pkg["urls"])
    assert listed["main.py"] == "firmware/main.py"
    for dev, src in listed.items():
        if dev != "main.py":
            assert src == "tools/mip/" + dev, "relative repo path, resolved by mip against the repo"
            with open(os.path.join(ROOT, src), "rb") as f:
                major, _, arch = flash.mpy_header(f.read())
            assert (major, arch) == (6, 0), "bytecode only, for every .mpy v6 MicroPython"
        assert os.path.isfile(os.path.join(ROOT, src)), src
    assert pkg["version"] == flash.firmware_version()
    assert pkg["deps"] == []
    assert "--target /" in pkg["description"]


def test_mpremote_mip_installs_it_at_the_root(tmp_path):
    from mpremote import mip
    board = FakeBoard(files={"/data/settings.json": b"{}"})
    # `mpremote mip install --target / github:OWNER/REPO` does the same with the repo's URL
    # as the base; a local package.json resolves the relative paths against its folder.
    mip._install_package(board, PACKAGE_JSON, mip._PACKAGE_INDEX, "/", None, False)
    for dev, src in _package()["urls"]:
        with open(os.path.join(ROOT, src), "rb") as f:
            assert board.files["/" + dev] == f.read(), dev
    assert not any(p.endswith(".py") and p != "/main.py" for p in board.files)
    assert board.files["/data/settings.json"] == b"{}"


def test_the_package_names_every_registered_mode_and_refuses_one_without_its_modules():
    from tablemate import modes
    gen = runpy.run_path(GEN)
    assert "game modes: " + ", ".join(m["label"] for m in modes.MODES) in _package()["description"]
    dice = {"name": "dice", "label": "Dice"}
    try:
        gen["build"](modes=modes.MODES + [dice])
    except ValueError as e:
        assert "firmware/tablemate/rules/dice.py is missing" in str(e), e
    else:
        raise AssertionError("a mode without modules was packaged")
