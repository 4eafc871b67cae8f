"""Tablemate firmware package: game rules, UI and drivers shared by the Pico and the host."""

VERSION = "0.1.0"
