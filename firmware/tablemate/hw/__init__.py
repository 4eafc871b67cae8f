"""Drivers. Only ``boot`` imports ``machine``; the others take their pins and buses injected."""
