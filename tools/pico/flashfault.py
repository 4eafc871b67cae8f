"""A full and a read-only flash on the emulated Pico: real littlefs, real rp2 MicroPython 1.28.

    .venv/bin/python tools/pico/flashfault.py --rig DIR [--keep DIR]

The host tests fail writes with a stand-in (tablemate_host.flashfault, and the store's modules
given a refusing ``open`` on both VMs); this checks the same cases where the errors come from
littlefs itself. Two flashes are built with the rig's littlefs-python, holding the ``.mpy``
install, settings with one bad value (a repair at boot) and a saved 4-player scorepad game, and
a ``boot.py`` that runs before ``main.py``:
- full: it writes a filler file until the device's own littlefs refuses even 16 bytes (filling
  the image on the host leaves blocks that the device's allocator still finds);
- read-only: it mounts the filesystem read-only.
Each boots, answers the notices, resumes the game, plays turns (whose saves the flash refuses),
and the frames are printed as text, with any traceback the app printed on the serial console.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import measure  # noqa: E402  (the rig helpers: build_app, settings, journals)

_FULL_BOOT = """# A full flash: fill it, 4 KB and then 256 and 16 B at a time, until littlefs says no.
import os
filled = 0
for size in (4096, 256, 16):
    while True:
        try:
            with open("/filler.bin", "ab") as f:
                f.write(bytes(size))
            filled += size
        except OSError:
            break
print("FILLED", filled, "FREE", os.statvfs("/")[3])
"""

_READ_ONLY_BOOT = """# A read-only flash, as a worn-out or write-protected one: mount it so before main.py.
import rp2
import vfs
vfs.umount("/")
vfs.mount(vfs.VfsLfs2(rp2.Flash()), "/", readonly=True)
"""

OK, RIGHT, BACK = 14, 13, 15
_BLOCK = 4096  # the rp2 port's littlefs block

SCRIPT = [
    {"wait_frame_idle_ms": 400, "timeout_ms": 60000},
    {"capture": "boot"},
    {"press": OK, "idle_ms": 600, "capture": "after-first-ok"},
    {"press": OK, "idle_ms": 800, "timeout_ms": 30000, "capture": "after-second-ok"},
    {"press": OK, "idle_ms": 800, "timeout_ms": 30000, "capture": "after-third-ok"},
    {"press": RIGHT, "capture": "plus-one"},
    {"press": OK, "idle_ms": 400, "capture": "turn-ends"},
    {"press": OK, "idle_ms": 400, "capture": "notice-answered"},
    {"press": RIGHT}, {"press": OK, "idle_ms": 400},
    {"press": RIGHT}, {"press": OK, "idle_ms": 400, "capture": "two-more-turns"},
    {"press": BACK, "idle_ms": 400, "capture": "game-menu"},
]


def make_flash(rig, mode, work):
    """The flash image for ``mode`` ("full" or "readonly")."""
    app = os.path.join(work, "app-" + mode)
    measure.build_app(rig, "mpy", app)
    measure.write_settings(app)
    with open(os.path.join(app, "data", "settings.json"), "w") as f:
        json.dump({"names": measure.NAMES, "brightness": 99}, f)  # a repair the flash refuses
    journal = os.path.join(app, "data", "game.jnl")
    measure.vmbench.make_journal(journal, "scorepad", 4, 40)
    if mode == "full":  # littlefs appends in place while the file's last block has room: end
        # the journal 5 bytes short of its block (with a void line), so the next save needs
        # a new block, which a full flash does not have
        pad = _BLOCK - 5 - os.path.getsize(journal)
        with open(journal, "ab") as f:
            f.write(b" " * (pad - 2) + b"\x00\n")
    with open(os.path.join(app, "boot.py"), "w") as f:
        f.write(_READ_ONLY_BOOT if mode == "readonly" else _FULL_BOOT)
    image = os.path.join(work, mode + ".img")
    mkfs(rig, app, image)
    return image


def mkfs(rig, app, image):
    """The app folder as the littlefs image the rig boots from (the rig's own tools/mkfs.py)."""
    subprocess.run([os.path.join(rig, "venv", "bin", "python"),
                    os.path.join(rig, "tools", "mkfs.py"), app, image], check=True)


def frame_text(out, name):
    try:
        with open(os.path.join(out, name + ".txt")) as f:
            return f.read()
    except OSError:
        return "(no capture %s)" % name


def run(rig, mode, work):
    image = make_flash(rig, mode, work)
    script = os.path.join(work, mode + ".json")
    with open(script, "w") as f:
        json.dump(SCRIPT, f)
    out = os.path.join(work, "out-" + mode)
    proc = subprocess.run(["node", os.path.join(rig, "emu", "drive.mjs"), "--fs", image, "--script",
                           script, "--out", out, "--i2c-timing", "1"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    print("== %s flash: drive.mjs exit %d, first frame %.0f ms" % (
        mode, proc.returncode, res["boots"][0].get("firstFrameMs") or -1))
    for step in res["steps"]:
        name = step["step"].get("capture")
        if step.get("exception"):
            print("  app exception at step %s: %s" % (step["i"], step["exception"]))
        if name:
            print("-- %s" % name)
            print(frame_text(out, name))
    with open(os.path.join(out, "serial.log"), errors="replace") as f:
        serial = f.read()
    print("-- serial console (Traceback lines: %d)" % serial.count("Traceback"))
    print(serial[-1500:])
    return proc.returncode == 0 and "Traceback" not in serial


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rig", default=os.environ.get("PICO_RIG"), help="built rig folder (or $PICO_RIG)")
    ap.add_argument("--keep", help="keep the images and the rig's output in this folder")
    args = ap.parse_args(argv)
    rig = os.path.abspath(args.rig or "")
    if not os.path.exists(os.path.join(rig, "emu", "drive.mjs")):
        ap.error("--rig must name a built copy of tools/pico/rig (see tools/pico/README.md)")
    work = args.keep or tempfile.mkdtemp(prefix="tablemate-flashfault-")
    os.makedirs(work, exist_ok=True)
    ok = [run(rig, mode, work) for mode in ("full", "readonly")]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
