"""The API over a WebSocket (/api/socket): the protocol pieces (urlcalc.serving.websocket), the
answers (urlcalc.serving.socket_api: byte for byte the HTTP API's), and a real waitress server
(urlcalc.serving.http_server) against well-behaved and hostile clients: refused handshakes, broken
frames, oversized and inflating messages, floods, stalls, and one client's socket beside
another's HTTP requests. Source addresses 127.0.0.2 and up stand for other machines."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from guarded import guarded_server

from urlcalc.answers.kinds import dispatch
from urlcalc.serving import websocket as ws
from urlcalc.serving.app import (
    API_KINDS,
    SECURITY_HEADERS,
    create_app,
)
from urlcalc.serving.http_server import SOCKET_QUEUE, GuardedChannel, GuardedServer
from urlcalc.serving.socket_api import (
    MAX_ID_CHARS,
    MAX_SOCKET_MESSAGE_BYTES,
    SOCKET_PATH,
    SocketApi,
)

# --- the protocol --------------------------------------------------------------------------------


def masked(opcode: int, payload: bytes, *, fin: bool = True, rsv1: bool = False,
           mask: bool = True) -> bytes:
    """A client's frame."""
    first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", first, (0x80 if mask else 0) | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", first, (0x80 if mask else 0) | 126, n)
    else:
        head = struct.pack("!BBQ", first, (0x80 if mask else 0) | 127, n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def compress(payload: bytes) -> bytes:
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    out = c.compress(payload) + c.flush(zlib.Z_SYNC_FLUSH)
    assert out.endswith(b"\x00\x00\xff\xff")
    return out[:-4]


def test_accept_key_of_rfc_6455() -> None:
    # RFC 6455 section 1.3's example
    assert ws.accept_key("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="


GOOD = {"UPGRADE": "websocket", "CONNECTION": "keep-alive, Upgrade",
        "SEC_WEBSOCKET_VERSION": "13", "SEC_WEBSOCKET_KEY": "dGhlIHNhbXBsZSBub25jZQ=="}


@pytest.mark.parametrize(("method", "change", "why"), [
    ("POST", {}, "GET"),
    ("GET", {"UPGRADE": "h2c"}, "Upgrade: websocket"),
    ("GET", {"CONNECTION": "keep-alive"}, "Connection: Upgrade"),
    ("GET", {"SEC_WEBSOCKET_VERSION": "8"}, "version 13"),
    ("GET", {"SEC_WEBSOCKET_KEY": "c2hvcnQ="}, "16 bytes"),
    ("GET", {"SEC_WEBSOCKET_KEY": "not base64!!!!!!!!!!!!=="}, "16 bytes"),
])
def test_handshake_problems(method: str, change: dict[str, str], why: str) -> None:
    assert ws.handshake_problem("GET", GOOD) is None
    problem = ws.handshake_problem(method, {**GOOD, **change})
    assert problem is not None and why in problem


@pytest.mark.parametrize(("offer", "accepted"), [
    ("permessage-deflate; client_max_window_bits", True),
    ("x-webkit-deflate-frame, permessage-deflate", True),
    ("permessage-deflate; server_max_window_bits=10", False),
    ("x-webkit-deflate-frame", False),
    ("", False),
])
def test_deflate_offers(offer: str, accepted: bool) -> None:
    assert ws.wants_deflate({"SEC_WEBSOCKET_EXTENSIONS": offer}) is accepted


def test_reader_takes_messages_split_anywhere() -> None:
    data = masked(ws.TEXT, "héllo".encode()) + masked(ws.PING, b"p") \
        + masked(ws.TEXT, b"a" * 300) + masked(ws.TEXT, b"b" * 70000)
    for step in (1, 7, 1000, len(data)):
        reader = ws.FrameReader(100_000)
        got = [m for i in range(0, len(data), step) for m in reader.feed(data[i:i + step])]
        assert [(m.opcode, m.text) for m in got] == [
            (ws.TEXT, "héllo"), (ws.PING, None), (ws.TEXT, "a" * 300), (ws.TEXT, "b" * 70000)]
        assert not reader.pending


def test_reader_joins_fragments_with_control_frames_between() -> None:
    reader = ws.FrameReader(100)
    data = masked(ws.TEXT, b"ab", fin=False) + masked(ws.PING, b"") \
        + masked(ws.CONTINUATION, b"cd", fin=False) + masked(ws.CONTINUATION, b"e")
    got = list(reader.feed(data[:-3]))
    assert [m.opcode for m in got] == [ws.PING] and reader.pending
    got = list(reader.feed(data[-3:]))
    assert [(m.opcode, m.text) for m in got] == [(ws.TEXT, "abcde")] and not reader.pending


def test_reader_inflates_compressed_messages() -> None:
    reader = ws.FrameReader(1000, deflate=True)
    text = json.dumps({"input": "http://example.com/" * 20})
    got = list(reader.feed(masked(ws.TEXT, compress(text.encode()), rsv1=True)))
    assert got[0].text == text
    assert ws.deflate(text.encode()) != text.encode()  # and the server's side round-trips
    assert zlib.decompressobj(-15).decompress(ws.deflate(text.encode()) + b"\x00\x00\xff\xff") \
        == text.encode()


@pytest.mark.parametrize(("data", "code", "says"), [
    (masked(ws.TEXT, b"x", mask=False), ws.CLOSE_PROTOCOL_ERROR, "masked"),
    (masked(0x3, b"x"), ws.CLOSE_PROTOCOL_ERROR, "opcode"),
    (masked(ws.TEXT, b"x", rsv1=True), ws.CLOSE_PROTOCOL_ERROR, "reserved"),
    (masked(ws.PING, b"x" * 126), ws.CLOSE_PROTOCOL_ERROR, "125"),
    (masked(ws.PING, b"x", fin=False), ws.CLOSE_PROTOCOL_ERROR, "whole"),
    (masked(ws.CONTINUATION, b"x"), ws.CLOSE_PROTOCOL_ERROR, "continue"),
    (masked(ws.TEXT, b"a", fin=False) + masked(ws.TEXT, b"b"), ws.CLOSE_PROTOCOL_ERROR,
     "before the last"),
    (masked(ws.TEXT, b"\xff\xfe"), ws.CLOSE_INVALID_DATA, "UTF-8"),
    (masked(ws.BINARY, b"{}"), ws.CLOSE_UNSUPPORTED, "text"),
    (masked(ws.TEXT, b"x" * 1001), ws.CLOSE_TOO_BIG, "1000 bytes"),
    (masked(ws.TEXT, b"x" * 600, fin=False) + masked(ws.CONTINUATION, b"x" * 600),
     ws.CLOSE_TOO_BIG, "1000 bytes"),
])
def test_reader_refuses(data: bytes, code: int, says: str) -> None:
    reader = ws.FrameReader(1000)
    with pytest.raises(ws.ProtocolError) as e:
        list(reader.feed(data))
    assert e.value.code == code and says in e.value.reason


def test_reader_refuses_a_claimed_size_before_the_bytes_come() -> None:
    # a header that claims 2**62 bytes is refused at once: nothing is buffered for it
    reader = ws.FrameReader(1000)
    with pytest.raises(ws.ProtocolError) as e:
        list(reader.feed(struct.pack("!BBQ", 0x81, 0xFF, 2**62)))
    assert e.value.code == ws.CLOSE_TOO_BIG


def test_reader_refuses_a_compressed_message_that_inflates_past_the_limit() -> None:
    bomb = compress(b"a" * 10_000_000)
    assert len(bomb) < 20_000
    reader = ws.FrameReader(16384, deflate=True)
    with pytest.raises(ws.ProtocolError) as e:
        list(reader.feed(masked(ws.TEXT, bomb, rsv1=True)))
    assert e.value.code == ws.CLOSE_TOO_BIG and "inflated" in e.value.reason
    reader = ws.FrameReader(1000, deflate=True)
    with pytest.raises(ws.ProtocolError) as e:
        list(reader.feed(masked(ws.TEXT, b"\xff\xff\xff", rsv1=True)))
    assert e.value.code == ws.CLOSE_INVALID_DATA


def test_close_frame_fits_a_control_frame() -> None:
    data = ws.close_frame(ws.CLOSE_TOO_BIG, "é" * 200)
    assert data[0] == 0x88 and data[1] <= 125
    assert struct.unpack("!H", data[2:4])[0] == ws.CLOSE_TOO_BIG
    data[4:].decode("utf-8")  # cut on a character boundary


# --- the answers ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def api() -> SocketApi:
    return SocketApi(API_KINDS, lambda host: host in ("127.0.0.1:8000", "localhost:8000"),
                     dispatch, ["calc.example.org"])


def split(answer: bytes) -> tuple[dict[str, Any], bytes]:
    head, _, body = answer.partition(b"\n")
    return json.loads(head), body


@pytest.mark.parametrize(("kind", "params"), [
    ("parse", {"input": "http://example.com/a/../b?c#d"}),
    ("parse", {"input": "http://[::1", "trace": True}),
    ("implementations", {"input": "https://EXAMPLE.com:443/x"}),
    ("compare", {"input": "a\\b", "base": "http://h/"}),
    ("version", {}),
])
def test_answers_are_the_http_apis_bytes(api: SocketApi, kind: str, params: dict[str, Any]) -> None:
    client = create_app().test_client()
    http = client.post(f"/api/{kind}", json=params, headers={"Accept-Encoding": "identity"})
    assert http.status_code == 200
    head, body = split(api.answer(json.dumps({"id": 7, "kind": kind, "params": params})))
    assert head == {"id": 7, "status": 200}
    strip = ("engine",)  # the engine block says which process answered; the rest is the same
    a, b = json.loads(body), http.get_json()
    assert {k: v for k, v in a.items() if k not in strip} == \
        {k: v for k, v in b.items() if k not in strip}


@pytest.mark.parametrize(("message", "id_", "says"), [
    ("not json", None, "JSON"),
    ("[1, 2]", None, "object"),
    ('{"id": true, "kind": "parse"}', None, "id"),
    ('{"id": 1.5, "kind": "parse"}', None, "id"),
    ('{"id": "' + "x" * 65 + '", "kind": "parse"}', None, "id"),
    ('{"id": 3, "kind": "nope"}', 3, "unknown kind"),
    ('{"id": "a", "kind": "parse", "params": [1]}', "a", "params"),
    ('{"id": 4, "kind": "parse", "params": {}}', 4, "input"),
    ('{"id": 5, "kind": "parse", "params": {"input": "' + "a" * 70000 + '"}}', 5, "KiB"),
])
def test_bad_requests_get_a_400_answer(api: SocketApi, message: str, id_: Any, says: str) -> None:
    head, body = split(api.answer(message))
    assert head == {"id": id_, "status": 400}
    error = json.loads(body)
    assert set(error) == {"error"} and says in error["error"], error


def test_a_bug_is_a_500_answer_not_a_dropped_connection() -> None:
    def broken(kind: str, params: dict[str, Any]) -> Any:
        raise KeyError("oops")

    head, body = split(SocketApi(API_KINDS, lambda h: True, broken).answer(
        '{"id": 1, "kind": "parse", "params": {"input": "x"}}'))
    assert head == {"id": 1, "status": 500} and "KeyError" in json.loads(body)["error"]


@pytest.mark.parametrize(("host", "origin", "refused"), [
    ("127.0.0.1:8000", None, None),
    ("127.0.0.1:8000", "http://127.0.0.1:8000", None),
    ("localhost:8000", "http://LOCALHOST:8000", None),
    ("127.0.0.1:8000", "https://calc.example.org", None),  # the public URL's origin
    ("evil.example:8000", None, 400),
    (None, None, 400),
    ("127.0.0.1:8000", "http://evil.example", 403),
    ("127.0.0.1:8000", "http://127.0.0.1:9000", 403),
    ("127.0.0.1:8000", "null", 403),
])
def test_who_may_open_the_socket(api: SocketApi, host: str | None, origin: str | None,
                                 refused: int | None) -> None:
    headers = {k: v for k, v in (("HOST", host), ("ORIGIN", origin)) if v is not None}
    got = api.refusal(headers)
    assert (got[0] if got else None) == refused, got


# --- a real server --------------------------------------------------------------------------------


class Client:
    """A WebSocket client on a raw socket."""

    def __init__(self, port: int, source: str = "127.0.0.1", extra: str = "",
                 path: str = SOCKET_PATH, key: str | None = None, timeout: float = 10) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.bind((source, 0))
        self.sock.connect(("127.0.0.1", port))
        key = key or base64.b64encode(os.urandom(16)).decode()
        self.key = key
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                           f"Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: {key}\r\n{extra}"
                           "\r\n").encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split(" ")[1])
        self.headers = {k.strip().lower(): v.strip() for k, _, v in
                        (line.partition(":") for line in lines[1:] if line)}
        self.body = b""
        if self.status != 101:
            n = int(self.headers.get("content-length", "0"))
            while len(self.buffer) < n:
                self._more()
            self.body = self.buffer[:n]

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("closed")
        self.buffer += chunk

    def _until(self, mark: bytes) -> bytes:
        while mark not in self.buffer:
            self._more()
        head, _, self.buffer = self.buffer.partition(mark)
        return head

    def _take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self._more()
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def ask(self, id_: Any, kind: str, params: dict[str, Any]) -> None:
        self.send(masked(ws.TEXT, json.dumps({"id": id_, "kind": kind, "params": params}).encode()))

    def frame(self) -> tuple[int, bytes]:
        first, second = self._take(2)
        n = second & 0x7F
        if n == 126:
            n = struct.unpack("!H", self._take(2))[0]
        elif n == 127:
            n = struct.unpack("!Q", self._take(8))[0]
        assert not second & 0x80, "a server's frames are not masked"
        payload = self._take(n)
        if first & 0x40:
            payload = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
        return first & 0x0F, payload

    def seconds_to_parse(self) -> float:
        """How long a small parse takes from request to answer on this socket."""
        t = time.monotonic()
        self.ask(1, "parse", {"input": "http://a/"})
        assert self.answer()[0] == {"id": 1, "status": 200}
        return time.monotonic() - t

    def answer(self) -> tuple[dict[str, Any], Any]:
        opcode, payload = self.frame()
        assert opcode == ws.TEXT, (opcode, payload[:100])
        head, body = split(payload)
        return head, json.loads(body)

    def closed_with(self) -> int:
        """The close code of the server's close frame; then the connection ends."""
        opcode, payload = self.frame()
        assert opcode == ws.CLOSE, (opcode, payload[:100])
        code = struct.unpack("!H", payload[:2])[0]
        with pytest.raises((EOFError, ConnectionResetError)):
            while True:
                self._more()
        return int(code)

    def seconds_until_closed(self, give_up: float) -> float:
        """How long (from now) until the server closes the connection; fails after give_up s."""
        t = time.monotonic()
        with pytest.raises((EOFError, ConnectionResetError)):
            while time.monotonic() - t < give_up:
                self._more()
        return time.monotonic() - t

    def close(self) -> None:
        self.sock.close()


class Live:
    def __init__(self, server: GuardedServer) -> None:
        self.server = server
        self.port = int(server.effective_port)

    def client(self, **kw: Any) -> Client:
        return Client(self.port, **kw)


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with guarded_server() as server:
        yield Live(server)


def test_handshake_and_answers_in_order(live: Live) -> None:
    c = live.client(extra=f"Origin: http://127.0.0.1:{live.port}\r\n")
    try:
        assert c.status == 101
        assert c.headers["sec-websocket-accept"] == ws.accept_key(c.key)
        assert "sec-websocket-extensions" not in c.headers  # not offered
        for name, value in SECURITY_HEADERS.items():
            assert c.headers[name.lower()] == value
        inputs = [f"http://example.com/{i}" for i in range(12)]
        for i, text in enumerate(inputs):  # all sent before any is read: answered in order
            c.ask(i, "parse", {"input": text})
        for i, text in enumerate(inputs):
            head, body = c.answer()
            assert head == {"id": i, "status": 200} and body["getters"]["href"] == text
        c.ask("last", "nope", {})
        head, body = c.answer()
        assert head == {"id": "last", "status": 400} and "unknown kind" in body["error"]
    finally:
        c.close()


def test_the_first_message_is_read_at_once(live: Live) -> None:
    # While the handshake was being answered, the main loop polled without this connection; it
    # must be woken to read it again, not find it at its next poll timeout (1 s): the first
    # keystroke after the page opened its socket waited a second.
    for _ in range(3):
        c = live.client()
        try:
            assert c.seconds_to_parse() < 0.5
        finally:
            c.close()


def test_compressed_both_ways_when_offered(live: Live) -> None:
    c = live.client(
        extra="Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n")
    try:
        assert c.headers["sec-websocket-extensions"] == ws.DEFLATE_RESPONSE
        params = {"input": "https://example.com/" + "a/" * 50}
        c.send(masked(ws.TEXT, compress(json.dumps({"id": 1, "kind": "implementations",
                                                     "params": params}).encode()), rsv1=True))
        first = c._take(1)[0]
        c.buffer = bytes([first]) + c.buffer
        assert first & 0x40, "a large answer comes compressed"
        head, body = c.answer()
        assert head == {"id": 1, "status": 200} and body["kind"] == "implementations"
        c.ask(2, "nope", {})  # small answers are not compressed
        assert not c.buffer
        first = c._take(1)[0]
        c.buffer = bytes([first]) + c.buffer
        assert not first & 0x40
        assert c.answer()[0] == {"id": 2, "status": 400}
    finally:
        c.close()


def test_ping_pong_and_close(live: Live) -> None:
    c = live.client()
    try:
        c.send(masked(ws.PING, b"hi"))
        assert c.frame() == (ws.PONG, b"hi")
        c.send(masked(ws.CLOSE, struct.pack("!H", 1000)))
        assert c.closed_with() == ws.CLOSE_NORMAL
    finally:
        c.close()


def _wait_for(condition: Any, seconds: float = 3) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the server did not get there"
        time.sleep(0.005)


def test_no_answer_follows_the_close_frame(live: Live, monkeypatch: pytest.MonkeyPatch) -> None:
    # RFC 6455 5.5.1: after sending a Close frame, an endpoint sends no more data frames. An
    # answer a worker thread was computing when the client closed is dropped, even when the
    # close frame has not left yet (here: the server sends nothing meanwhile).
    computing, go_on, held = threading.Event(), threading.Event(), threading.Event()
    api = live.server.socket_api
    dispatch_ = api.dispatch

    def slow(kind: str, params: dict[str, Any]) -> Any:
        computing.set()
        go_on.wait(5)
        return dispatch_(kind, params)

    flush = GuardedChannel._flush_some
    monkeypatch.setattr(api, "dispatch", slow)
    monkeypatch.setattr(GuardedChannel, "_flush_some",
                        lambda self, **kw: False if held.is_set() else flush(self, **kw))
    c = live.client(source="127.0.0.44")
    try:
        c.ask(1, "parse", {"input": "http://a/"})
        assert computing.wait(5)
        held.set()
        c.send(masked(ws.CLOSE, struct.pack("!H", 1000)))
        channel, = [ch for ch in live.server.active_channels.values() if ch.client == "127.0.0.44"]
        state = channel.socket_state
        _wait_for(lambda: state.closing)  # the close frame is queued, not sent
        go_on.set()
        _wait_for(lambda: not state.busy)  # the answer is made (and dropped)
        held.clear()
        channel.server.pull_trigger()
        assert c.closed_with() == ws.CLOSE_NORMAL
        assert c.buffer == b"", c.buffer[:100]  # nothing came after the close frame
    finally:
        held.clear()
        go_on.set()
        c.close()


@pytest.mark.parametrize(("extra", "path", "status", "says"), [
    ("Origin: http://evil.example\r\n", SOCKET_PATH, 403, "pages of this server"),
    ("Sec-WebSocket-Version: 8\r\n", SOCKET_PATH, 400, "version 13"),
])
def test_refused_handshakes_are_json(live: Live, extra: str, path: str, status: int,
                                     says: str) -> None:
    c = live.client(extra=extra, path=path)
    try:
        assert c.status == status
        for name, value in SECURITY_HEADERS.items():
            assert c.headers[name.lower()] == value
        assert c.headers["content-type"].startswith("application/json")
        assert says in json.loads(c.body)["error"]
    finally:
        c.close()


def read_to_close(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_a_bad_host_is_refused(live: Live) -> None:
    sock = socket.create_connection(("127.0.0.1", live.port), timeout=10)
    with sock:
        sock.sendall(b"GET /api/socket HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        data = read_to_close(sock)
    assert data.startswith(b"HTTP/1.1 400") and b"DNS rebinding" in data


def test_a_plain_get_is_told_what_the_address_is(live: Live) -> None:
    sock = socket.create_connection(("127.0.0.1", live.port), timeout=10)
    with sock:
        sock.sendall(b"GET /api/socket HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = read_to_close(sock)
    assert data.startswith(b"HTTP/1.1 426"), data[:100]
    assert b"WebSocket" in data.partition(b"\r\n\r\n")[2]


def test_the_openapi_document_describes_what_the_socket_answers(live: Live) -> None:
    from urlcalc.serving.openapi import openapi_document

    op = openapi_document()["paths"][SOCKET_PATH]["get"]
    seen: set[str] = set()
    c = live.client()  # a handshake: 101
    try:
        seen.add(str(c.status))
        c.ask("x" * MAX_ID_CHARS, "version", {})
        assert c.answer()[0] == {"id": "x" * MAX_ID_CHARS, "status": 200}  # the longest id named
    finally:
        c.close()
    for extra in ("Origin: http://evil.example\r\n", "Sec-WebSocket-Version: 8\r\n"):
        c = live.client(extra=extra)
        try:
            seen.add(str(c.status))
            assert set(json.loads(c.body)) == {"error"}
        finally:
            c.close()
    with socket.create_connection(("127.0.0.1", live.port), timeout=10) as sock:
        sock.sendall(b"GET /api/socket HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        seen.add(read_to_close(sock)[9:12].decode())
    assert seen == set(op["responses"]) == {"101", "400", "403", "426"}
    assert f"at most {MAX_SOCKET_MESSAGE_BYTES // 1024} KiB" in op["description"]
    assert f"at most {MAX_ID_CHARS} characters" in op["description"]


@pytest.mark.parametrize(("data", "code"), [
    (masked(ws.TEXT, b'{"id":1}', mask=False), ws.CLOSE_PROTOCOL_ERROR),
    (masked(ws.TEXT, b"\xc3\x28"), ws.CLOSE_INVALID_DATA),
    (masked(ws.BINARY, b"{}"), ws.CLOSE_UNSUPPORTED),
    (struct.pack("!BBQ", 0x81, 0xFF, MAX_SOCKET_MESSAGE_BYTES + 1), ws.CLOSE_TOO_BIG),
    (masked(ws.TEXT, b"x", rsv1=True), ws.CLOSE_PROTOCOL_ERROR),  # compression not agreed
])
def test_broken_frames_close_the_socket(live: Live, data: bytes, code: int) -> None:
    c = live.client()
    try:
        c.send(data)
        assert c.closed_with() == code
    finally:
        c.close()


def test_a_message_over_the_limit_is_refused(live: Live) -> None:
    c = live.client()
    try:
        body = json.dumps({"id": 1, "kind": "parse",
                           "params": {"input": "a" * MAX_SOCKET_MESSAGE_BYTES}})
        c.send(masked(ws.TEXT, body.encode()))
        assert c.closed_with() == ws.CLOSE_TOO_BIG
    finally:
        c.close()


def test_a_stalled_message_is_closed_at_the_request_deadline(live: Live) -> None:
    c = live.client(source="127.0.0.40")
    try:
        c.send(masked(ws.TEXT, b"x" * 100)[:20])
        # the request deadline (2 s here), checked once a second
        assert 2.0 <= c.seconds_until_closed(8) < 4.5
    finally:
        c.close()


def test_an_idle_socket_is_closed_after_the_idle_timeout(live: Live) -> None:
    c = live.client(source="127.0.0.41")
    try:
        c.ask(1, "version", {})
        c.answer()
        assert 5.0 <= c.seconds_until_closed(12) < 8.5
    finally:
        c.close()


def test_a_flood_of_messages_is_read_no_faster_than_it_is_answered(live: Live) -> None:
    # A client that sends and never reads: the server answers a few, its output fills, and it
    # stops reading this socket; meanwhile another machine's requests are answered at once.
    flood = live.client(source="127.0.0.42")
    sent = 0
    try:
        flood.sock.setblocking(False)
        message = masked(ws.TEXT, json.dumps({"id": 1, "kind": "implementations", "params": {
            "input": "http://example.com/" + "x" * 2000}}).encode())
        t = time.monotonic()
        left = b""
        while time.monotonic() - t < 3:
            if not left:
                left = message
                sent += 1
            try:
                left = left[flood.sock.send(left):]
            except BlockingIOError:
                time.sleep(0.01)
        other = live.client(source="127.0.0.43")
        try:
            assert other.seconds_to_parse() < 2.0
        finally:
            other.close()
        channels = [c for c in live.server.active_channels.values()
                    if getattr(c, "client", "") == "127.0.0.42"]
        assert channels and all(len(c.socket_state.inbox) <= SOCKET_QUEUE for c in channels)
        assert sent > SOCKET_QUEUE * 10  # the kernel's buffers took many; the server did not
    finally:
        flood.close()


def test_bytes_behind_the_handshake_are_not_read_as_http(live: Live) -> None:
    sock = socket.create_connection(("127.0.0.1", live.port), timeout=10)
    with sock:
        sock.sendall(b"GET /api/socket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                     b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
                     b"GET /api/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        data = b""
        deadline = time.monotonic() + 3
        sock.settimeout(0.5)
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            if not chunk:
                break
            data += chunk
    assert data.startswith(b"HTTP/1.1 101")
    assert b"HTTP/1.1 200" not in data  # the pipelined request was not answered as HTTP


def test_under_the_development_server_the_socket_is_a_426() -> None:
    client = create_app().test_client()
    response = client.get(SOCKET_PATH, headers={"Upgrade": "websocket", "Connection": "Upgrade",
                                                "Sec-WebSocket-Version": "13",
                                                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="})
    assert response.status_code == 426 and "--dev" in response.get_json()["error"]
