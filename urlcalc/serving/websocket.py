"""The WebSocket protocol (RFC 6455), as much of it as the API's socket needs; no I/O here.

``urlcalc serve`` answers API requests over a WebSocket as well as over HTTP (``/api/socket``,
urlcalc.serving.http_server and urlcalc.serving.app): the page's server relay
(web/js/server-relay-worker.js) asks there while the user types, one request per keystroke, because
a browser's HTTP request costs its network stack several times what a message on an open socket
does. This module holds the protocol: the opening handshake's checks and answer (RFC 6455 section
4.2), an incremental frame reader with its limits (section 5), the frames the server sends, and
per-message compression (RFC 7692 ``permessage-deflate``, without context takeover: no state kept
between messages, so an idle connection holds no compressor).

Limits: a message (after decompression) of at most ``max_message_bytes``; a frame header that
claims more, a fragmented message that grows past it, or a compressed one that inflates past it
is refused with close code 1009 before the bytes are read or inflated."""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

__all__ = [
    "BINARY",
    "CLOSE",
    "CLOSE_GOING_AWAY",
    "CLOSE_INVALID_DATA",
    "CLOSE_NORMAL",
    "CLOSE_POLICY",
    "CLOSE_PROTOCOL_ERROR",
    "CLOSE_TOO_BIG",
    "CLOSE_UNSUPPORTED",
    "CONTINUATION",
    "DEFLATE_RESPONSE",
    "PING",
    "PONG",
    "TEXT",
    "FrameReader",
    "Message",
    "ProtocolError",
    "accept_key",
    "close_frame",
    "deflate",
    "frame",
    "handshake_problem",
    "wants_deflate",
]

# Opcodes (RFC 6455 section 5.2)
CONTINUATION, TEXT, BINARY = 0x0, 0x1, 0x2
CLOSE, PING, PONG = 0x8, 0x9, 0xA
_DATA = frozenset({CONTINUATION, TEXT, BINARY})
_CONTROL = frozenset({CLOSE, PING, PONG})

# Close codes (RFC 6455 section 7.4.1)
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_PROTOCOL_ERROR = 1002
CLOSE_UNSUPPORTED = 1003
CLOSE_INVALID_DATA = 1007
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_MAX_CONTROL_PAYLOAD = 125
# The answer to an offer of permessage-deflate: neither side keeps its compression context
# from one message to the next (RFC 7692 section 7.1.1: the server may ask both).
DEFLATE_RESPONSE = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"
# What deflate leaves at the end of a message flushed with Z_SYNC_FLUSH, which RFC 7692 section
# 7.2.1 has the sender remove and the receiver put back.
_TAIL = b"\x00\x00\xff\xff"


class ProtocolError(Exception):
    """The peer broke the protocol or a limit: close the connection with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


@dataclass(frozen=True)
class Message:
    """A whole message (TEXT: ``text`` is set) or a control frame (CLOSE, PING, PONG)."""

    opcode: int
    data: bytes
    text: str | None = None


def accept_key(key: str) -> str:
    """Sec-WebSocket-Accept for a client's Sec-WebSocket-Key (RFC 6455 section 4.2.2)."""
    return base64.b64encode(hashlib.sha1(key.encode("ascii") + _GUID).digest()).decode("ascii")


def _tokens(value: str) -> set[str]:
    return {t.strip().lower() for t in value.split(",") if t.strip()}


def handshake_problem(method: str, headers: Mapping[str, str]) -> str | None:
    """Why an HTTP request is not a valid opening handshake, or None. ``headers``: names in
    upper case with dashes as underscores (waitress's request headers)."""
    if method != "GET":
        return f"the opening handshake is a GET, not {method}"
    if "websocket" not in _tokens(headers.get("UPGRADE", "")):
        return "this address speaks WebSocket (RFC 6455): send Upgrade: websocket"
    if "upgrade" not in _tokens(headers.get("CONNECTION", "")):
        return "the opening handshake needs Connection: Upgrade"
    if headers.get("SEC_WEBSOCKET_VERSION", "").strip() != "13":
        return "only WebSocket version 13 is spoken (Sec-WebSocket-Version: 13)"
    key = headers.get("SEC_WEBSOCKET_KEY", "").strip()
    try:
        ok = len(base64.b64decode(key, validate=True)) == 16
    except (binascii.Error, ValueError):
        ok = False
    if not ok:
        return "Sec-WebSocket-Key must be 16 bytes in base64"
    return None


def wants_deflate(headers: Mapping[str, str]) -> bool:
    """Whether the client offers permessage-deflate in a form this server accepts: any offer of
    it (its parameters all concern what this server then declines or may ignore: the client's
    window size, context takeover), unless it asks for a smaller server window than 15 bits."""
    for offer in headers.get("SEC_WEBSOCKET_EXTENSIONS", "").split(","):
        parts = [p.strip().lower() for p in offer.split(";")]
        if parts[0] != "permessage-deflate":
            continue
        params = dict(p.partition("=")[::2] for p in parts[1:])
        if params.get("server_max_window_bits", "15").strip('"') not in ("", "15"):
            continue
        return True
    return False


def frame(opcode: int, payload: bytes, *, compressed: bool = False) -> bytes:
    """One unmasked, final frame (what a server sends)."""
    first = 0x80 | (0x40 if compressed else 0) | opcode
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", first, n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", first, 126, n)
    else:
        head = struct.pack("!BBQ", first, 127, n)
    return head + payload


def deflate(payload: bytes) -> bytes:
    """A message's payload compressed for permessage-deflate (no context kept)."""
    c = zlib.compressobj(1, zlib.DEFLATED, -15)
    out = c.compress(payload) + c.flush(zlib.Z_SYNC_FLUSH)
    return out[:-4] if out.endswith(_TAIL) else out


def close_frame(code: int, reason: str = "") -> bytes:
    """A close frame; the reason is cut to fit a control frame's 125 bytes."""
    data = reason.encode("utf-8")[: _MAX_CONTROL_PAYLOAD - 2]
    return frame(CLOSE, struct.pack("!H", code) + data.decode("utf-8", "ignore").encode("utf-8"))


class FrameReader:
    """Frames from a client, fed as bytes arrive: ``feed(data)`` yields each whole message or
    control frame; raises ProtocolError when the client breaks the protocol or a limit."""

    def __init__(self, max_message_bytes: int, deflate: bool = False) -> None:
        self.max_message_bytes = max_message_bytes
        self.deflate = deflate
        self._buffer = bytearray()
        self._parts: list[bytes] = []  # a fragmented message so far
        self._size = 0
        self._opcode: int | None = None  # the fragmented message's opcode
        self._compressed = False

    @property
    def pending(self) -> bool:
        """Whether part of a frame or of a fragmented message has arrived (and not the rest)."""
        return bool(self._buffer) or self._opcode is not None

    def feed(self, data: bytes) -> Iterator[Message]:
        self._buffer += data
        while True:
            got = self._frame()
            if got is None:
                return
            message = self._message(*got)
            if message is not None:
                yield message

    def _frame(self) -> tuple[bool, int, bool, bytes] | None:
        buf = self._buffer
        if len(buf) < 2:
            return None
        first, second = buf[0], buf[1]
        fin, rsv1, opcode = bool(first & 0x80), bool(first & 0x40), first & 0x0F
        if first & 0x30 or (rsv1 and (not self.deflate or opcode in _CONTROL)):
            raise ProtocolError(CLOSE_PROTOCOL_ERROR, "reserved bits set without an extension "
                                "that defines them")
        if opcode not in _DATA and opcode not in _CONTROL:
            raise ProtocolError(CLOSE_PROTOCOL_ERROR, f"unknown opcode {opcode:#x}")
        if not second & 0x80:
            raise ProtocolError(CLOSE_PROTOCOL_ERROR, "a client's frames must be masked")
        n = second & 0x7F
        at = 2
        if n == 126:
            if len(buf) < 4:
                return None
            n = struct.unpack_from("!H", buf, 2)[0]
            at = 4
        elif n == 127:
            if len(buf) < 10:
                return None
            n = struct.unpack_from("!Q", buf, 2)[0]
            at = 10
        if opcode in _CONTROL and (n > _MAX_CONTROL_PAYLOAD or not fin):
            raise ProtocolError(CLOSE_PROTOCOL_ERROR, "a control frame must be whole and at "
                                "most 125 bytes")
        if opcode in _DATA and self._size + n > self.max_message_bytes:
            raise ProtocolError(CLOSE_TOO_BIG, f"a message is limited to "
                                f"{self.max_message_bytes} bytes")
        if len(buf) < at + 4 + n:
            return None
        mask = bytes(buf[at:at + 4])
        payload = bytes(buf[at + 4:at + 4 + n])
        del buf[:at + 4 + n]
        if n:
            # XOR with the repeated mask, as one big-integer operation
            key = (mask * (n // 4 + 1))[:n]
            unmasked = int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")
            payload = unmasked.to_bytes(n, "big")
        return fin, opcode, rsv1, payload

    def _message(self, fin: bool, opcode: int, rsv1: bool, payload: bytes) -> Message | None:
        if opcode in _CONTROL:
            return Message(opcode, payload)
        if opcode == CONTINUATION:
            if self._opcode is None:
                raise ProtocolError(CLOSE_PROTOCOL_ERROR, "a continuation frame with no message "
                                    "to continue")
            if rsv1:
                raise ProtocolError(CLOSE_PROTOCOL_ERROR, "only a message's first frame says "
                                    "it is compressed")
        else:
            if self._opcode is not None:
                raise ProtocolError(CLOSE_PROTOCOL_ERROR, "a new message before the last one "
                                    "ended")
            self._opcode, self._compressed = opcode, rsv1
        self._parts.append(payload)
        self._size += len(payload)
        if not fin:
            return None
        data = b"".join(self._parts)
        opcode, compressed = self._opcode, self._compressed
        self._parts, self._size, self._opcode, self._compressed = [], 0, None, False
        if compressed:
            data = self._inflate(data)
        if opcode == BINARY:
            raise ProtocolError(CLOSE_UNSUPPORTED, "the API takes text messages (JSON), not "
                                "binary ones")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(CLOSE_INVALID_DATA, "a text message must be UTF-8") from None
        return Message(opcode, data, text)

    def _inflate(self, data: bytes) -> bytes:
        d = zlib.decompressobj(-15)
        try:
            out = d.decompress(data + _TAIL, self.max_message_bytes + 1)
        except zlib.error as e:
            raise ProtocolError(CLOSE_INVALID_DATA, f"a compressed message does not inflate: "
                                f"{e}") from None
        if len(out) > self.max_message_bytes:
            raise ProtocolError(CLOSE_TOO_BIG, f"a message is limited to "
                                f"{self.max_message_bytes} bytes (inflated)")
        return out
