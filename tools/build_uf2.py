#!/usr/bin/env python3
"""Build Tablemate's UF2s: MicroPython at its pinned tag with firmware/ frozen into it.

    make uf2 MICROPY_DIR=/path/to/micropython            every board of UF2_BOARDS
    make uf2 MICROPY_DIR=... UF2_BOARDS=RPI_PICO          one board
    make uf2                                              clone MicroPython first (needs GitHub)

Writes build/tablemate-<version>-<board>.uf2 for each board (RPI_PICO, RPI_PICO_W, RPI_PICO2),
each the board's stock MicroPython v1.28.0 plus the package and the UF2's own main.py, frozen
through tools/uf2/manifest.py. Copied onto a Pico in BOOTSEL mode, it starts Tablemate with
nothing else on the flash, and keeps the flash's files (README, "Build one").

What it needs, and where each comes from:
- the toolchain, Debian's packages: gcc-arm-none-eabi, libnewlib-arm-none-eabi, cmake, and a host
  C/C++ compiler (build-essential);
- MicroPython's source at v1.28.0 with the submodules of the rp2 port (lib/pico-sdk,
  lib/tinyusb, lib/micropython-lib, lib/mbedtls; the Pico W adds lib/cyw43-driver, lib/lwip and
  lib/btstack): ``--micropython DIR`` (``MICROPY_DIR``), used read-only, or else a clone of the
  tag and its submodules into build/uf2/micropython;
- picotool, the pico-sdk's host tool that writes the UF2: built here from source (without USB
  support, which the build does not use) at the version the pico-sdk asks for, from
  ``--picotool-src DIR``, or else a clone of that tag; ``--picotool DIR`` takes an installed one
  instead (the prefix holding lib/cmake/picotool). The pico-sdk would otherwise download and
  build it in the middle of the build.
Everything built goes to build/uf2/ (mpy-cross too): nothing is written into the MicroPython
tree. Only the standard library is used.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "host"))
from tablemate_host.manifest import firmware_version  # noqa: E402  (standard library only)

MICROPYTHON_TAG = "v1.28.0"
MICROPYTHON_GIT = "https://github.com/micropython/micropython.git"
PICOTOOL_GIT = "https://github.com/raspberrypi/picotool.git"
MANIFEST = os.path.join(ROOT, "tools", "uf2", "manifest.py")
WORK = os.path.join(ROOT, "build", "uf2")
BOARDS = ("RPI_PICO", "RPI_PICO_W", "RPI_PICO2")
# What the rp2 port builds from, per board (a submodule is there when its folder is not empty).
SUBMODULES = ("lib/pico-sdk", "lib/tinyusb", "lib/micropython-lib", "lib/mbedtls")
WIRELESS = ("lib/cyw43-driver", "lib/lwip", "lib/btstack")
TOOLS = (("arm-none-eabi-gcc", "gcc-arm-none-eabi"), ("cmake", "cmake"), ("make", "make"),
         ("c++", "build-essential"))


class BuildError(Exception):
    """A missing tool or source, in words that say what to do."""


def uf2_name(board, version=None):
    """build/tablemate-<version>-<board>.uf2, where ``make uf2`` puts a board's UF2."""
    return os.path.join(ROOT, "build", "tablemate-%s-%s.uf2" % (version or firmware_version(), board))


def needs(board):
    """The submodules the rp2 port builds ``board`` from."""
    return SUBMODULES + (WIRELESS if board.endswith("_W") else ())


def missing(micropython, board):
    """The submodules of ``needs(board)`` that are empty (or absent) in ``micropython``."""
    return [sub for sub in needs(board)
            if not os.path.isdir(os.path.join(micropython, sub))
            or not os.listdir(os.path.join(micropython, sub))]


def micropython_version(micropython):
    """"v1.28.0" from ``py/mpconfig.h`` (a tree without git says its version there too)."""
    with open(os.path.join(micropython, "py", "mpconfig.h")) as f:
        text = f.read()
    parts = [re.search(r"#define MICROPY_VERSION_%s (\d+)" % part, text)
             for part in ("MAJOR", "MINOR", "MICRO")]
    if not all(parts):
        raise BuildError("%s/py/mpconfig.h names no MicroPython version" % micropython)
    return "v" + ".".join(p.group(1) for p in parts)


def sdk_version(micropython):
    """The pico-sdk's version ("2.2.0"): the picotool release it asks for."""
    path = os.path.join(micropython, "lib", "pico-sdk", "pico_sdk_version.cmake")
    with open(path) as f:
        text = f.read()
    parts = [re.search(r"set\(PICO_SDK_VERSION_%s (\d+)\)" % part, text)
             for part in ("MAJOR", "MINOR", "REVISION")]
    if not all(parts):
        raise BuildError("%s names no pico-sdk version" % path)
    return ".".join(p.group(1) for p in parts)


def run(args, log, **kw):
    """Run a build step; its output goes to ``log`` (shown whole when it fails)."""
    with open(log, "ab") as out:
        out.write(("\n$ %s\n" % " ".join(args)).encode())
        out.flush()
        proc = subprocess.run(args, stdout=out, stderr=subprocess.STDOUT, **kw)
    if proc.returncode:
        with open(log, "rb") as f:
            tail = f.read()[-4000:].decode(errors="replace")
        raise BuildError("%s failed (exit %d); the end of %s:\n%s"
                         % (" ".join(args[:3]), proc.returncode, log, tail))


def check_tools():
    lacking = [package for tool, package in TOOLS if shutil.which(tool) is None]
    if lacking:
        raise BuildError("missing tools: install them with `sudo apt-get install %s` "
                         "(libnewlib-arm-none-eabi comes with gcc-arm-none-eabi's C library)"
                         % " ".join(lacking + ["libnewlib-arm-none-eabi"]))


def fetch_micropython(boards, log, say):
    """A clone of the pinned tag, with the submodules ``boards`` need, in build/uf2."""
    tree = os.path.join(WORK, "micropython")
    if not os.path.isdir(os.path.join(tree, "ports", "rp2")):
        say("Cloning MicroPython %s into %s" % (MICROPYTHON_TAG, tree))
        run(["git", "clone", "--depth", "1", "--branch", MICROPYTHON_TAG, MICROPYTHON_GIT, tree], log)
    for board in boards:
        if missing(tree, board):
            say("Fetching the submodules %s needs" % board)
            run(["make", "-C", os.path.join(tree, "ports", "rp2"), "BOARD=" + board,
                 "BUILD=" + os.path.join(WORK, "submodules-" + board), "submodules"], log)
    return tree


def picotool(micropython, src, log, say, jobs):
    """The folder to give the pico-sdk as picotool_DIR: picotool built from source, once."""
    version = sdk_version(micropython)
    prefix = os.path.join(WORK, "picotool-" + version)
    config = os.path.join(prefix, "lib", "cmake", "picotool")
    if os.path.exists(os.path.join(config, "picotoolConfig.cmake")):
        return config
    if src is None:
        src = os.path.join(WORK, "picotool-src-" + version)
        if not os.path.isdir(src):
            say("Cloning picotool %s (the pico-sdk's host tool) into %s" % (version, src))
            run(["git", "clone", "--depth", "1", "--branch", version, PICOTOOL_GIT, src], log)
    say("Building picotool %s from %s" % (version, src))
    build = os.path.join(WORK, "picotool-build-" + version)
    run(["cmake", "-S", src, "-B", build, "-DPICO_SDK_PATH=" + os.path.join(micropython, "lib", "pico-sdk"),
         "-DPICOTOOL_NO_LIBUSB=1", "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_INSTALL_PREFIX=" + prefix], log)
    run(["cmake", "--build", build, "-j%d" % jobs], log)
    run(["cmake", "--install", build], log)
    return config


def mpy_cross(micropython, log, jobs):
    """MicroPython's own mpy-cross, built in build/uf2 (the frozen bytecode must be the
    firmware's very format); its path, for the port's build (MICROPY_MPYCROSS)."""
    out = os.path.join(WORK, "mpy-cross")
    prog = os.path.join(out, "mpy-cross")
    run(["make", "-C", os.path.join(micropython, "mpy-cross"), "BUILD=" + out, "-j%d" % jobs], log)
    return prog


def build_board(micropython, board, env, log, jobs):
    """MicroPython for ``board`` with Tablemate frozen in; the UF2's path in build/."""
    build = os.path.join(WORK, "build-" + board)
    port = os.path.join(micropython, "ports", "rp2")
    cache = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(cache):  # configured once by the port's Makefile: from this very tree?
        with open(cache) as f:
            if "CMAKE_HOME_DIRECTORY:INTERNAL=%s\n" % os.path.realpath(port) not in f.read():
                shutil.rmtree(build)
    run(["make", "-C", port, "BOARD=" + board, "BUILD=" + build, "FROZEN_MANIFEST=" + MANIFEST,
         "-j%d" % jobs], log, env=env)
    target = uf2_name(board)
    shutil.copyfile(os.path.join(build, "firmware.uf2"), target)
    return target


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--micropython", metavar="DIR", default=os.environ.get("MICROPY_DIR") or None,
                    help="MicroPython's source at %s with its submodules (default: $MICROPY_DIR, "
                         "else a clone in build/uf2)" % MICROPYTHON_TAG)
    ap.add_argument("--boards", default=" ".join(BOARDS),
                    help="boards to build, separated by spaces (default: %(default)s)")
    ap.add_argument("--picotool", metavar="DIR", help="an installed picotool (its prefix)")
    ap.add_argument("--picotool-src", metavar="DIR", help="picotool's source, at the pico-sdk's version")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    boards = args.boards.split()
    unknown = [b for b in boards if b not in BOARDS]
    if unknown or not boards:
        ap.error("boards: %s (one or more of %s)" % (" ".join(unknown) or "none", " ".join(BOARDS)))
    os.makedirs(WORK, exist_ok=True)
    log = os.path.join(WORK, "build.log")
    with open(log, "w"):
        pass

    def say(msg):
        print(msg)
        sys.stdout.flush()

    try:
        check_tools()
        tree = args.micropython and os.path.abspath(args.micropython)
        if tree is None:
            tree = fetch_micropython(boards, log, say)
        if not os.path.isdir(os.path.join(tree, "ports", "rp2")):
            raise BuildError("%s is not MicroPython's source (it has no ports/rp2)" % tree)
        version = micropython_version(tree)
        if version != MICROPYTHON_TAG:
            raise BuildError("%s is MicroPython %s; Tablemate's UF2 is built on %s "
                             "(`git -C %s checkout %s`, then its submodules)"
                             % (tree, version, MICROPYTHON_TAG, tree, MICROPYTHON_TAG))
        for board in boards:
            lacking = missing(tree, board)
            if lacking:
                raise BuildError("%s needs the submodules %s, empty in %s: run `make -C %s/ports/rp2 "
                                 "BOARD=%s submodules` there (it needs GitHub), or leave the board "
                                 "out (UF2_BOARDS=...)" % (board, " ".join(lacking), tree, tree, board))
        env = dict(os.environ)
        if args.picotool:
            env["picotool_DIR"] = os.path.join(os.path.abspath(args.picotool), "lib", "cmake", "picotool")
        else:
            env["picotool_DIR"] = picotool(tree, args.picotool_src and os.path.abspath(args.picotool_src),
                                           log, say, args.jobs)
        say("Building mpy-cross of MicroPython %s" % version)
        env["MICROPY_MPYCROSS"] = mpy_cross(tree, log, args.jobs)
        for board in boards:
            say("Building %s with Tablemate %s frozen in (a few minutes; the log is %s)"
                % (board, firmware_version(), os.path.relpath(log)))
            target = build_board(tree, board, env, log, args.jobs)
            say("  %s  %.0f KB" % (os.path.relpath(target), os.path.getsize(target) / 1024.0))
    except BuildError as er:
        print("build_uf2: %s" % er, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
