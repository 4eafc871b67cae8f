"""The phones' HTTP parsing (firmware/tablemate/phones/http.py): what is taken, what is refused
with which status, and the responses' shape. Both VMs; the bounds on the wire (a head that never
ends, a slow client) are tested against the running server in tests/phones/."""

from tablemate.phones import http

CHROME = (b"GET /ev?t=0123456789abcdef HTTP/1.1\r\nHost: 192.168.4.1\r\nConnection: keep-alive\r\n"
          b"User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like "
          b"Gecko) Chrome/130.0.0.0 Mobile Safari/537.36\r\nAccept: text/event-stream\r\n"
          b"Accept-Encoding: gzip, deflate\r\nAccept-Language: en-GB,en;q=0.9")


def status(head):
    try:
        http.parse(head)
    except http.Bad as bad:
        return bad.status
    return 200


def test_a_browsers_request_is_read():
    req = http.parse(CHROME)
    assert (req.method, req.path, req.query, req.length, req.token, req.kind) == (
        "GET", "/ev", "t=0123456789abcdef", 0, None, "Android")
    assert http.query(req, "t") == "0123456789abcdef" and http.query(req, "x") is None
    req = http.parse(b"POST /act HTTP/1.1\r\nx-token: 00000000000000ff\r\ncontent-length:  12"
                     b"\r\nUser-Agent: Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)")
    assert (req.method, req.path, req.length, req.token, req.kind) == (
        "POST", "/act", 12, "00000000000000ff", "iPhone")
    assert http.parse(b"GET / HTTP/1.0").kind == "browser"


def test_what_is_refused_and_how():
    assert status(b"GET /\r\n") == 400  # no version
    assert status(b"GET / HTTP/2") == 400
    assert status(b"GET  / HTTP/1.1") == 400
    assert status(b"\x16\x03\x01\x02\x00\x01\x00") == 400  # TLS to the plain port
    assert status(b"GET x HTTP/1.1") == 400
    assert status(b"GET /" + b"a" * 64 + b" HTTP/1.1") == 414
    assert status(b"GET /" + b"a" * 63 + b" HTTP/1.1") == 200
    assert status(b"GET / HTTP/1.1\r\nno colon here") == 400
    assert status(b"POST /act HTTP/1.1\r\nContent-Length: 257") == 413
    assert status(b"POST /act HTTP/1.1\r\nContent-Length: 256") == 200
    assert status(b"POST /act HTTP/1.1\r\nContent-Length: 99999999999999999999") == 400
    assert status(b"POST /act HTTP/1.1\r\nContent-Length: -1") == 400
    assert status(b"POST /act HTTP/1.1\r\nTransfer-Encoding: chunked") == 411
    assert status(b"GET /\xff\xfe HTTP/1.1") == 400
    assert http.parse(b"GET / HTTP/1.1\r\nX-Token: short").token is None


def test_the_head_ends_at_its_blank_line():
    buf = bytearray(b"GET / HTTP/1.1\r\nHost: a\r")
    assert http.head_end(buf, 0) == -1
    start = len(buf) - 3
    buf += b"\n\r\n{}"
    assert http.head_end(buf, start) == len(buf) - 2


def test_bodies():
    req = http.parse(b"POST /act HTTP/1.1\r\nContent-Length: 2")
    for body, ok in ((b'{"do": "vote", "card": 2}', True), (b"{}", True), (b"[1]", False),
                     (b"3", False), (b"{", False), (b"\xff", False), (b"[" * 200, False), (b"", False)):
        req.body = body
        try:
            got = http.body(req)
        except http.Bad as bad:
            assert not ok and bad.status == 400, body
            continue
        assert ok and type(got) is dict, body


def test_responses():
    out = http.reply(409, {"error": "Ann's seat is held"})
    head, _, body = out.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 409 Conflict"
    assert b"Content-Length: %d" % len(body) in head and b"Connection: close" in head
    assert b"Cache-Control: no-store" in head and body == b'{"error": "Ann\'s seat is held"}'
    stream = http.head(200, "text/event-stream", -1)
    assert b"Content-Length" not in stream and stream.endswith(b"\r\n\r\n")
    assert http.event(b'{"n": 1}') == b'data: {"n": 1}\n\n'
