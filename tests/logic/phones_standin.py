"""``app.phones`` and ``app.net`` as the gadget's screens see them, for the tests of the Phones
page on both VMs (test_phones_screens) and on the virtual display (tests/scenario): the table is
the real one, the network a Pico W's access point whose radio does not start."""

from tablemate.phones.table import Table


class Net:
    """A board with Wi-Fi (``app.net``): its access point's name, a radio that fails to start,
    and three phones on it."""

    def ssid(self):
        return "Tablemate-1A2B"

    def start(self, ssid, password):
        raise OSError("radio")

    def stop(self):
        pass

    def stations(self):
        return 3


class Service:
    """What the screens read of ``app.phones``: the network, its page, the seats' table."""

    def __init__(self, app):
        self.app = app
        self.ssid = "Tablemate-1A2B"
        self.password = "abcd2345wxyz"
        self.url = "http://192.168.4.1/"
        self.problem = None
        self.net = Net()
        self.n = 0
        self.table = Table({}, self._token, self.ssid, 1000)

    def _token(self):
        self.n += 1
        return "%016x" % self.n

    def free(self, name):
        self.table.free(name)

    def page(self):
        from tablemate.screens.phones import PhonesPage
        return PhonesPage(self.app)


def contrast_round_begun(app):
    """Phones on over a Contrast game just started: Ann, Bob and Dee hold seats by phone and are
    here, Ann's phone has picked (held: Bob and Dee still choose). Returns the service and the
    three phones' tokens."""
    svc = Service(app)
    app.phones = svc
    t = svc.table
    toks = [t.claim(app.game, None, p, "Android") for p in (0, 1, 3)]
    for tok in toks:
        t.opened(tok)
    t.act(app, toks[0], {"do": "pick", "symbol": "red"}, 0)
    return svc, toks
