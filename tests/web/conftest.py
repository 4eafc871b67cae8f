"""Fixtures for the browser tests: the page built and served on loopback, headless Chromium, and
a page that fails its test on any console error, uncaught exception or request to another origin.

The page is built by tools/build_web.py into a temporary folder (the test of `make web`'s build
step); the VM comes from tools/mpvm/node_modules (`make test` installs it; without it the
page cannot be built, and the tests are skipped as every test that needs the VM is, failed in
CI: tests/conftest.py), Chromium from chromium.py (Playwright's own, or the system's), launched
once per process by tests/conftest.py's ``browser`` (tests/phones shares it).
"""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import web_harness  # noqa: E402
from tablemate_host import mpvm  # noqa: E402


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The built page: its folder."""
    mpvm.require_vm()
    out = str(tmp_path_factory.mktemp("web") / "site")
    try:
        web_harness.build_web.build(out)
    except web_harness.build_web.BuildError as err:
        pytest.fail(str(err))
    return out


@pytest.fixture(scope="session")
def origin(site):
    httpd, url = web_harness.serve(site)
    yield url
    httpd.shutdown()
    httpd.server_close()


class Guard:
    """What a page did that fails a test: console errors, uncaught exceptions, foreign requests."""

    def __init__(self, origin):
        self.origin = origin
        self.problems = []

    def console(self, msg):
        if msg.type == "error":
            self.problems.append("console error: %s" % msg.text)

    def pageerror(self, err):
        self.problems.append("uncaught: %s" % err)

    def request(self, req):
        url = req.url
        if not (url.startswith(self.origin + "/") or url.startswith(("blob:", "data:"))):
            self.problems.append("request to another origin: %s" % url)


@pytest.fixture
def guard(origin):
    return Guard(origin)


def watched_context(browser, guard, **kw):
    """A fresh browser profile (empty storage: a new gadget) whose requests ``guard`` checks."""
    ctx = browser.new_context(accept_downloads=True, **kw)
    ctx.on("request", guard.request)
    return ctx


def watched_page(ctx, guard):
    """A new page of ``ctx`` whose console errors and uncaught exceptions ``guard`` collects."""
    pg = ctx.new_page()
    pg.on("console", guard.console)
    pg.on("pageerror", guard.pageerror)
    return pg


@pytest.fixture
def context(browser, guard):
    """A fresh browser profile for one test, phone-sized."""
    ctx = watched_context(browser, guard, viewport={"width": 412, "height": 860},
                          device_scale_factor=2, has_touch=False)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context, guard):
    pg = watched_page(context, guard)
    yield pg
    assert not guard.problems, "\n".join(guard.problems)


@pytest.fixture
def page_as(browser, guard):
    """``page_as(**context options)``: a page in a fresh profile of that kind (a viewport, a
    touch screen...), checked as ``page`` is."""
    contexts = []

    def make(**kw):
        contexts.append(watched_context(browser, guard, **kw))
        return watched_page(contexts[-1], guard)
    yield make
    for ctx in contexts:
        ctx.close()
    assert not guard.problems, "\n".join(guard.problems)


@pytest.fixture
def host(tmp_path):
    """A fresh host gadget recording a flow (its flash in the test's tmp_path)."""
    def make(**kw):
        root = str(tmp_path / "flash")
        os.makedirs(os.path.join(root, "data"), exist_ok=True)
        return web_harness.Recorder(root, **kw)
    return make
