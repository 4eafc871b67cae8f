"""The screen contract shared by every page, dialog and game screen.

The app keeps a stack of screens (micro-gui style): only the top one gets keys, every screen gets
``tick`` while it is on top, and a screen is redrawn only when it says it is dirty. A screen that is
not ``opaque`` (a dialog) is drawn over the one below it.
"""


class Screen:
    """Base class: override what you need; defaults do nothing."""

    opaque = True

    def __init__(self, app):
        self.app = app
        self.dirty = True

    def on_open(self):
        """Called each time the screen becomes the top of the stack."""

    def on_hide(self):
        """Called when another screen is pushed over this one."""

    def on_close(self):
        """Called once, when the screen leaves the stack."""

    def key(self, key, kind):
        """Handle one key event (codes from ``tablemate.keys``)."""

    def tick(self, now):
        """Advance timers; set ``self.dirty`` when what is shown must change."""

    def draw(self, fb):
        """Draw the whole screen into ``fb`` (already cleared for opaque screens)."""
