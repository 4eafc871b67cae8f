"""Tablemate's main.py in the UF2: frozen into the firmware with the package.

MicroPython runs a frozen ``main.py`` in place of one on the flash (``pyexec_file_if_exists``
looks among the frozen modules first), so a Pico with nothing on its flash starts Tablemate, and
a ``main.py`` copied to the flash does not run (a ``boot.py`` there does, before this).

The package comes from the frozen modules even where an earlier ``tablemate flash`` or
``mpremote mip`` left its files in ``/tablemate``: ``sys.path`` searches the flash first, so the
package is imported with the frozen modules alone on it, and every later import of one of its
modules follows the package's own path. Those files are then removed (``store.leftovers``).
"""

import sys

_path = sys.path
sys.path = [".frozen"]
try:
    import tablemate
finally:
    sys.path = _path
    del _path

from tablemate.store import leftovers  # noqa: E402

leftovers.clear("")
del leftovers
tablemate.unload(("tablemate.store.leftovers",))
from tablemate import boot  # noqa: E402

boot.run()
