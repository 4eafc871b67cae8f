"""Generate ``package.json``, the mip manifest, from ``firmware/``.

    python tools/gen_package_json.py           # rewrite package.json
    python tools/gen_package_json.py --check   # exit 1 if package.json is stale

``mpremote mip install --target / github:OWNER/REPO`` reads it and copies every firmware file to
the board. Each ``urls`` entry is ``[device path, repo path]``; the repo path is relative, and mip
resolves it against the folder that holds package.json (here the repo root, on the branch or tag
given with ``@``), so forks work unchanged. Paths land under ``--target``: the default is the
board's ``/lib``, where ``main.py`` would not run, hence ``--target /``.

Standard library only, so it runs with any Python 3 (no venv needed).
"""

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
from tablemate_host.manifest import FIRMWARE, firmware_files, firmware_version  # noqa: E402

OUTPUT = os.path.join(ROOT, "package.json")

DESCRIPTION = ("Tablemate firmware for the Raspberry Pi Pico. Install it at the root of the board: "
               "mpremote mip install --target / github:OWNER/REPO (without --target / mip puts "
               "everything in /lib, where main.py does not start). `tablemate flash` from a clone "
               "installs compiled .mpy files instead.")


def render(firmware=FIRMWARE):
    """The text of package.json: one url pair per line, so diffs read well."""
    urls = ",\n".join("    " + json.dumps([rel, "firmware/" + rel])
                      for rel in firmware_files(firmware))
    return ('{\n'
            '  "description": %s,\n'
            '  "version": %s,\n'
            '  "urls": [\n%s\n  ],\n'
            '  "deps": []\n'
            '}\n') % (json.dumps(DESCRIPTION), json.dumps(firmware_version(firmware)), urls)


def main(argv=None, output=OUTPUT):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if package.json differs from what it should be")
    args = parser.parse_args(argv)
    text = render()
    try:
        with open(output) as f:
            current = f.read()
    except FileNotFoundError:
        current = None
    if args.check:
        if current != text:
            print("package.json is stale: run `python tools/gen_package_json.py`", file=sys.stderr)
            return 1
        return 0
    if current != text:
        with open(output, "w") as f:
            f.write(text)
        print("wrote package.json (%d files)" % len(firmware_files()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
