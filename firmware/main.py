"""Tablemate: boot the gadget (the code is in tablemate/boot.py, which ships compiled)."""
from tablemate import boot

boot.run()
