"""One module per mode or page; each builds its interaction from the widgets in ``ui``."""
