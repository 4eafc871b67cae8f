"""The table rig as fixtures (tests/phones/phones_rig.py): every test module gets one rig process
per VM (``vm`` is a module-scoped parameter: the tests of a module run against CPython, then
against MicroPython); ``make test``'s xdist groups keep a module's tests in one worker. The
browser is tests/conftest.py's, shared with tests/web.
"""

import pytest

from phones_rig import VMS, Pages, TableRig


@pytest.fixture(scope="module", params=VMS)
def vm(request):
    return request.param


@pytest.fixture(scope="module")
def rig(vm, tmp_path_factory):
    r = TableRig(vm, str(tmp_path_factory.mktemp("phones-" + vm) / "flash"), grace=1000)
    yield r
    r.stop()


@pytest.fixture
def pages(browser, rig):
    got = Pages(browser, rig.url)
    yield got
    got.close()
    assert not got.problems, got.problems


