"""The joining screens: a phone's camera joins the table's Wi-Fi, then opens the page.

The phones option (issue 36) pushes ``Join(app, ssid, password, url)`` once its network is up;
nothing here knows the network, it shows the strings it is given. Two pages, each a QR code at
the left (``ui/qr.py``) and text beside it:
- the Wi-Fi code (``wifi``: the network's name and password, which phones join in one tap),
  with the name and the password written out when they fit beside it (for a phone that cannot
  scan, or a player who types);
- the page's address, as a code and as text.
OK turns to the other page, RIGHT or DOWN to the address, LEFT or UP back to the Wi-Fi; BACK
leaves (then ``on_back``, if given). The screen stays lit while it is shown (``keep_awake``):
a dimmed code reads worse, and a table of players takes a while to scan.

The Wi-Fi code is made when the screen is (its first frame needs it: about half a second on a
Pico), the address's in the next quiet pass (``App.soon``), or when its page is asked for
first. Both modules leave ``sys.modules`` when the screen closes, so that their RAM (about
12 KB with the encoder's buffers, measured on the emulated Pico) goes back to the game: import
``Join`` where the screen is pushed, not at the top of a module that stays.
"""

from micropython import const

from tablemate import keys as K
from tablemate import unload
from tablemate.ui import Screen, qr, text

_GAP = const(3)  # pixels between the code's lit margin and the text beside it
_NOT_YET = const(0)  # a code not made yet (None: the text is too long for a code)
TOO_LONG = "No code: too long"


def wifi(ssid, password):
    """The Wi-Fi string phones join from: WPA with a password, an open network without one;
    backslash, ';', ',', ':' and '"' escaped with a backslash, as the format asks."""
    if not password:
        return "WIFI:T:nopass;S:%s;;" % _escape(ssid)
    return "WIFI:T:WPA;S:%s;P:%s;;" % (_escape(ssid), _escape(password))


def _escape(s):
    for ch in "\\;,:\"":
        s = s.replace(ch, "\\" + ch)
    return s


def chunks(s, width, most):
    """``s`` cut into lines of ``width`` pixels, nothing added or left out (a password's every
    character counts), an address after its last '/' that fits; None when it needs more than
    ``most`` lines."""
    lines = []
    while s:
        if len(lines) == most:
            return None
        n = text.fitting(s, width)
        if n < len(s):
            cut = s.rfind("/", 0, n)
            if cut >= 0:
                n = cut + 1
        lines.append(s[:n or 1])
        s = s[n or 1:]
    return lines


class Join(Screen):
    """The two joining pages; ``page`` 0 the Wi-Fi, 1 the address."""

    keep_awake = True

    def __init__(self, app, ssid, password, url, on_back=None):
        Screen.__init__(self, app)
        self.ssid = ssid
        self.password = password
        self.url = url
        self.on_back = on_back
        self.page = 0
        self.codes = [_code(wifi(ssid, password)), _NOT_YET]
        app.soon(self._prepare)

    def _prepare(self):
        self._symbol(1)

    def _symbol(self, page):
        if self.codes[page] == _NOT_YET:
            self.codes[page] = _code(self.url)
        return self.codes[page]

    def key(self, key, kind):
        if kind != K.PRESS:
            return
        if key == K.BACK:
            self.app.pop()
            if self.on_back:
                self.on_back()
        elif key == K.OK:
            self._turn(1 - self.page)
        elif key == K.RIGHT or key == K.DOWN:
            self._turn(1)
        elif key == K.LEFT or key == K.UP:
            self._turn(0)

    def _turn(self, page):
        if page != self.page:
            self.page = page
            self.dirty = True

    def on_close(self):
        unload(("tablemate.ui.join", "tablemate.ui.qr"))

    def draw(self, fb):
        code = self._symbol(self.page)
        x = 0
        if code:
            px = qr.scale(code, 64)
            side = (code.size + 8) * px
            x = qr.draw(fb, code, 0, (64 - side) // 2, px) + _GAP
        width = 128 - x
        if self.page == 0:
            lines = self._wifi_lines(width)
            hint = "OK: page"
        else:
            lines = ["Open page"] + (chunks(self.url, width, 5) or [text.fit(self.url, width)])
            hint = "OK: Wi-Fi"
        if not code:
            lines = lines[:5] + [TOO_LONG]
        for i in range(len(lines)):
            text.put(fb, lines[i], x, i)
        text.put(fb, hint, x, 7)

    def _wifi_lines(self, width):
        """The network's name and password in up to six lines beside the code, or a word
        where they do not fit."""
        name = chunks(self.ssid, width, 2)
        if not self.password:
            secret = ["No password"]
        else:
            secret = chunks(self.password, width, 2)
            secret = secret and ["Password"] + secret
        if name and secret and len(name) + len(secret) <= 5:
            return ["Join Wi-Fi"] + name + secret
        return ["Join Wi-Fi", "Scan the", "code"]


def _code(data):
    try:
        return qr.encode(data)
    except ValueError:
        return None
