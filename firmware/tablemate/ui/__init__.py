"""Widgets, text and the screen base: everything a screen module draws with."""
