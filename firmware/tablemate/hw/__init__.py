"""Drivers, and ``gadget``, which builds them from the board configuration and runs the loop.

Only ``gadget`` imports ``machine``; the drivers take their pins and buses injected.
"""
