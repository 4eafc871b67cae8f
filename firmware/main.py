"""Tablemate: boot the gadget (the code is in tablemate/hw/gadget.py, which ships compiled)."""
from tablemate.hw import gadget

gadget.run()
