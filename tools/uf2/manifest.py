# The modules frozen into Tablemate's UF2 (tools/build_uf2.py hands this file to MicroPython's rp2
# build as FROZEN_MANIFEST). Relative paths are read from this folder.

# What the board's stock MicroPython UF2 freezes: a board with its own manifest (the Pico W:
# networking, Bluetooth) names it, the others take the port's (asyncio, _boot.py and its
# littlefs mount, rp2, the small drivers).
try:
    include("$(BOARD_DIR)/manifest.py")
except Exception:  # no manifest.py in the board's folder (RPI_PICO, RPI_PICO2)
    include("$(PORT_DIR)/boards/manifest.py")

# The whole package, every module under firmware/tablemate (tests/test_uf2_manifest.py checks
# that this covers every firmware file).
package("tablemate", base_path="../../firmware")

# The UF2's own main.py: MicroPython runs a frozen main.py in place of one on the flash.
module("main.py")
