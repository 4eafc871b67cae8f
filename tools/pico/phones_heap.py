#!/usr/bin/env python3
"""The free heap with the phones' server and 7 phones, on the emulated Pico (issue 36).

    .venv/bin/python tools/pico/phones_heap.py --rig /path/to/built/pico --fw FROZEN.uf2

``FROZEN.uf2``: an rp2 RPI_PICO firmware with ``firmware/tablemate`` frozen in (a manifest of
``include("$(PORT_DIR)/boards/manifest.py")`` and ``package("tablemate", base_path=...)``, or
the project's UF2 build): the budget is the frozen build's. The flash holds only
``tools/pico/phones_probe.py`` as ``main.py``. Prints the probe's HEAP lines and its
``mem_info``; docs/performance.md ("Phones") adds the Pico W's network stack to them.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rig", required=True)
    ap.add_argument("--fw", required=True, help="the frozen firmware (.uf2)")
    ap.add_argument("--keep", help="keep the rig's outputs in this folder")
    args = ap.parse_args(argv)
    work = args.keep or tempfile.mkdtemp(prefix="tm-phones-heap-")
    app = os.path.join(work, "app")
    os.makedirs(app, exist_ok=True)
    shutil.copy(os.path.join(HERE, "phones_probe.py"), os.path.join(app, "main.py"))
    script = os.path.join(work, "probe.json")
    with open(script, "w") as f:
        json.dump([{"expect_serial": "PROBE DONE", "timeout_ms": 120000}], f)
    out = os.path.join(work, "out")
    proc = subprocess.run(["node", os.path.join(args.rig, "emu", "drive.mjs"), "--fw", args.fw,
                           "--app", app, "--script", script, "--out", out],
                          cwd=args.rig, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        with open(os.path.join(out, "serial.log")) as f:
            log = f.read()
    except OSError:
        log = ""
    for line in log.splitlines():
        if line.startswith(("HEAP", "NET", "STREAMS", "GC:", " No. of")):
            print(line)
    if proc.returncode or "PROBE DONE" not in log:
        sys.stdout.write(proc.stdout.decode()[-3000:])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
