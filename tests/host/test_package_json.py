"""package.json (for ``mpremote mip install``) lists every firmware file and is current.

The last test runs mpremote's own mip installer on package.json, against an in-memory board, to
show that ``--target /`` puts the firmware where ``tablemate flash`` does.
"""

import json
import os
import runpy
import subprocess
import sys

from tablemate_host import flash

from test_flash import FakeBoard

ROOT = flash.ROOT
PACKAGE_JSON = os.path.join(ROOT, "package.json")
GEN = os.path.join(ROOT, "tools", "gen_package_json.py")
FIX = "package.json is stale: run `python tools/gen_package_json.py`"


def _package():
    with open(PACKAGE_JSON) as f:
        return json.load(f)


def test_package_json_is_current():
    gen = runpy.run_path(GEN)
    with open(PACKAGE_JSON) as f:
        assert f.read() == gen["render"](), FIX


def test_check_flag_exits_1_when_stale(tmp_path):
    proc = subprocess.run([sys.executable, GEN, "--check"], stderr=subprocess.PIPE)
    assert proc.returncode == 0, proc.stderr.decode()
    gen = runpy.run_path(GEN)
    stale = str(tmp_path / "package.json")
    with open(stale, "w") as f:
        f.write(gen["render"]().replace('    ["main.py", "firmware/main.py"]\n', ""))
    assert gen["main"](["--check"], output=stale) == 1
    assert gen["main"]([], output=stale) == 0  # regenerates it
    assert gen["main"](["--check"], output=stale) == 0


def test_every_firmware_file_is_listed_and_every_listed_file_exists():
    pkg = _package()
    listed = [dev for dev, _ in pkg["urls"]]
    assert sorted(listed) == sorted(flash.firmware_files())
    assert len(set(listed)) == len(listed)
    for dev, src in pkg["urls"]:
        assert src == "firmware/" + dev, "relative repo path, resolved by mip against the repo"
        assert os.path.isfile(os.path.join(ROOT, src)), src
    assert pkg["version"] == flash.firmware_version()
    assert pkg["deps"] == []
    assert "--target /" in pkg["description"]


def test_mpremote_mip_installs_it_at_the_root(tmp_path):
    from mpremote import mip
    board = FakeBoard(files={"/settings.json": b"{}"})
    # `mpremote mip install --target / github:OWNER/REPO` does the same with the repo's URL
    # as the base; a local package.json resolves the relative paths against its folder.
    mip._install_package(board, PACKAGE_JSON, mip._PACKAGE_INDEX, "/", None, False)
    for rel in flash.firmware_files():
        with open(os.path.join(flash.FIRMWARE, rel), "rb") as f:
            assert board.files["/" + rel] == f.read(), rel
    assert board.files["/settings.json"] == b"{}"
