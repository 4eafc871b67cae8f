"""HTTP/1.1 as the phones' page speaks it, read within fixed bounds: the pure part of the server.

Every byte a request can make the gadget hold is bounded here: the request's head (its line and
headers, ``HEAD_MAX`` bytes, read in ``CHUNK``-byte reads: never ``readline``, which on
MicroPython grows a line without limit) and its body (``BODY_MAX``; a JSON request of the page
is 40 bytes). What is too long, malformed or unknown gets a clear status and the connection
closes: every response says ``Connection: close``, so a phone holds at most one connection per
request besides its event stream.

Of the headers only four are read: ``Content-Length``, ``Accept-Encoding`` (the page is stored
gzipped), ``X-Token`` (the seat's token, which the page keeps) and ``User-Agent`` (reduced to a
word, the kind of phone a seat's holder is named by); the rest are skipped.
"""

from micropython import const

from tablemate import json

CHUNK = const(256)  # bytes per read of the head
HEAD_MAX = const(2048)  # a phone's browser sends 400-700 bytes of head
TARGET_MAX = const(64)  # the page's longest path: /ev?t= and a token
BODY_MAX = const(256)
REASONS = {200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 408: "Request Timeout", 409: "Conflict",
           411: "Length Required", 413: "Content Too Large", 414: "URI Too Long",
           431: "Request Header Fields Too Large", 500: "Internal Server Error",
           503: "Service Unavailable"}
_KINDS = ((b"iPhone", "iPhone"), (b"iPad", "iPad"), (b"Android", "Android"),
          (b"Macintosh", "Mac"), (b"Windows", "Windows"), (b"Linux", "Linux"))


class Bad(Exception):
    """A request the server refuses before routing it: ``status`` and the message sent."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class Request:
    """What the server uses of a request."""

    def __init__(self, method, path, query, length, token, gzip, kind):
        self.method = method  # "GET", "POST"...
        self.path = path  # "/ev"
        self.query = query  # "t=..." or ""
        self.length = length  # the body's length
        self.token = token  # the X-Token header, or None
        self.gzip = gzip  # the browser takes a gzipped body
        self.kind = kind  # "iPhone", "Android"... or "browser"
        self.body = b""


def head_end(buf, start):
    """The offset just past the blank line that ends the head in ``buf``, or -1 (``start``:
    where the search may begin: the previous read's end less three bytes)."""
    i = buf.find(b"\r\n\r\n", start)
    return i + 4 if i >= 0 else -1


def parse(head):
    """The ``Request`` in ``head`` (bytes: the request line and headers, up to the blank
    line); ``Bad`` when it is not one the server takes."""
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ")
    if len(parts) != 3 or not parts[2].startswith(b"HTTP/1."):
        raise Bad(400, "Not an HTTP request")
    target = parts[1]
    if len(target) > TARGET_MAX:
        raise Bad(414, "Address too long")
    if not target.startswith(b"/"):
        raise Bad(400, "Bad address")
    path, _, query = target.partition(b"?")
    length = 0
    token = None
    gzip = False
    kind = "browser"
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(b":")
        if not sep:
            raise Bad(400, "Bad header")
        name = name.strip().lower()
        value = value.strip()
        if name == b"content-length":
            if not value.isdigit() or len(value) > 6:
                raise Bad(400, "Bad length")
            length = int(value)
            if length > BODY_MAX:
                raise Bad(413, "Request too large")
        elif name == b"transfer-encoding":
            raise Bad(411, "Give the length")
        elif name == b"x-token":
            token = value.decode() if len(value) == 16 else None
        elif name == b"accept-encoding":
            gzip = b"gzip" in value
        elif name == b"user-agent":
            for word, k in _KINDS:
                if word in value:
                    kind = k
                    break
    try:
        return Request(parts[0].decode(), path.decode(), query.decode(), length, token, gzip,
                       kind)
    except UnicodeError:
        raise Bad(400, "Bad address")


def query(req, key):
    """The value of ``key`` in the request's query string, or None."""
    for pair in req.query.split("&"):
        k, _, v = pair.partition("=")
        if k == key:
            return v
    return None


def body(req):
    """The request's body as a JSON object (a dict); ``Bad`` when it is not one."""
    try:
        got = json.loads(req.body)
    except (ValueError, RuntimeError):  # RuntimeError: nesting too deep for CPython's json
        got = None
    if type(got) is not dict:
        raise Bad(400, "Bad request body")
    return got


def head(status, kind, length, extra=""):
    """A response's status line and headers: ``kind`` its content type, ``length`` its body's
    bytes (-1: a stream, no length), ``extra`` more header lines."""
    s = "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nCache-Control: no-store\r\n" % (
        status, REASONS.get(status, ""), kind)
    if length >= 0:
        s += "Content-Length: %d\r\nConnection: close\r\n" % length
    return (s + extra + "\r\n").encode()


def reply(status, data):
    """A whole JSON response: head and body, as bytes."""
    body = json.dumps(data).encode()
    return head(status, "application/json", len(body)) + body


def event(data):
    """One server-sent event carrying ``data`` (a JSON text with no newline)."""
    return b"data: " + data + b"\n\n"
