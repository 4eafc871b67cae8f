"""Honest stand-ins for the MicroPython-only modules the firmware imports.

The firmware is never forked for the host: instead this module makes CPython look like the
device where it matters (``micropython.const``, ``framebuf``, ``machine`` and the wrapping
``time.ticks_*`` functions), with a clock that tests move by hand (``fakeclock``), and files
appended to as the device's are (``_open``).
"""

import builtins
import gc
import os
import sys
import time
import traceback
import types

from tablemate_host.fakeclock import clock, ticks_add, ticks_diff

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")



def _sleep_ms(ms):
    clock.advance(ms)


def _alloc_emergency_exception_buf(size):
    """Recorded in the fake machine world, whose hard IRQs check it was called first."""
    from tablemate_host import machine
    machine.world.emergency_buf = size


def _micropython_module():
    mod = types.ModuleType("micropython")
    mod.const = lambda value: value
    mod.opt_level = lambda *args: 0
    mod.mem_info = lambda *args: None
    mod.alloc_emergency_exception_buf = _alloc_emergency_exception_buf
    return mod


def _print_exception(exc, file=None):
    """MicroPython's ``sys.print_exception``: the traceback of ``exc`` to ``file``."""
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=file or sys.stdout)


_REAL_OPEN = builtins.open


def _open(file, mode="r", buffering=-1, *args, **kw):
    """``open``, but a binary append goes straight to the file, unbuffered.

    The firmware keeps the journal open between saves, a void line written into it
    (``Game.prime``): on the Pico those bytes are littlefs's, committed by the next save or
    lost with the power. CPython would keep them in a buffer of its own and write them when the
    file is collected; a host test that cuts the power (a new app booted on the same files,
    the old one dropped) would then find them written after the new app's lines, whenever the
    old app was collected. Written at once, they are a void line at the end of the file, which
    the new app reads as the Pico's would read them had they been committed. (MicroPython's
    own files, in the WebAssembly VM, have no such buffer.)"""
    if buffering == -1 and "a" in mode and "b" in mode:
        buffering = 0
    return _REAL_OPEN(file, mode, buffering, *args, **kw)


def install():
    """Make ``import tablemate`` work on CPython exactly as on the device."""
    builtins.open = _open
    sys.print_exception = _print_exception
    # CPython has no heap of the device's kind to measure: gc.mem_free gives MicroPython's own
    # "not known" (-1, as its documentation has it), which About and the self-test then say in
    # words; gc.mem_alloc counts nothing (0).
    gc.mem_free = lambda: -1
    gc.mem_alloc = lambda: 0
    if FIRMWARE not in sys.path:
        sys.path.insert(0, FIRMWARE)
    sys.modules.setdefault("micropython", _micropython_module())
    time.ticks_ms = clock.ticks_ms
    time.ticks_us = clock.ticks_us
    time.ticks_add = ticks_add
    time.ticks_diff = ticks_diff
    time.sleep_ms = _sleep_ms
    if "framebuf" not in sys.modules:
        try:
            from tablemate_host import framebuf
        except ImportError:  # the stand-in is being written; logic modules do not need it
            pass
        else:
            sys.modules["framebuf"] = framebuf
    if "machine" not in sys.modules:
        try:
            from tablemate_host import machine
        except ImportError:
            pass
        else:
            sys.modules["machine"] = machine
