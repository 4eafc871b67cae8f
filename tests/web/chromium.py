"""Which Chromium the browser tests (and tools/web_bench.py) drive with Playwright.

In order: ``$TABLEMATE_CHROMIUM``; Playwright's own build when ``playwright install chromium``
could download it; a Chromium of the system (Debian's ``chromium`` package). ``make test``
makes sure one exists before pytest runs (see the Makefile's ``browser`` target).

    python tests/web/chromium.py     prints the one found (exit 0), or says why none (exit 1)
"""

import os
import shutil
import sys

SYSTEM = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
HINT = ("no Chromium for the browser tests: `make test` installs one (Playwright's own with "
        "`.venv/bin/playwright install chromium`, or Debian's with `apt-get install chromium`)")


def find(playwright=None):
    """(executable path or None for Playwright's own build, description); LookupError if none.

    ``playwright``: a running sync_playwright() (one is started here when not given)."""
    env = os.environ.get("TABLEMATE_CHROMIUM")
    if env:
        if not os.path.exists(env):
            raise LookupError("TABLEMATE_CHROMIUM=%s does not exist" % env)
        return env, env
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise LookupError("the Python package playwright is missing: `make test` installs the "
                          "development tools into .venv") from None
    if playwright is not None:
        own = playwright.chromium.executable_path
    else:
        with sync_playwright() as p:
            own = p.chromium.executable_path
    if own and os.path.exists(own):
        return None, "Playwright's Chromium (%s)" % own
    for name in SYSTEM:
        path = shutil.which(name)
        if path:
            return path, path
    raise LookupError(HINT)


def launch(playwright, **kw):
    """Launch headless Chromium with the executable ``find`` chose."""
    path, _ = find(playwright)
    if path:
        kw["executable_path"] = path
    return playwright.chromium.launch(**kw)


if __name__ == "__main__":
    try:
        print(find()[1])
    except LookupError as err:
        print(err, file=sys.stderr)
        sys.exit(1)
