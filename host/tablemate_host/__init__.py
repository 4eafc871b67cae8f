"""Host-side harness for the Tablemate firmware.

Importing this package puts ``firmware/`` on ``sys.path`` and installs the fakes for the
MicroPython-only modules, so ``import tablemate`` runs the very same firmware code on CPython.
"""

from tablemate_host import fakes

fakes.install()
