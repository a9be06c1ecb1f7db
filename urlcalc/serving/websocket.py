"""The API's WebSocket: the ``websockets`` package's Sans-I/O protocol, adapted to this server.

``urlcalc serve`` answers API requests over a WebSocket as well as over HTTP (``/api/socket``,
urlcalc.serving.http_server and urlcalc.serving.app): the page's server relay
(web/js/workers/server-relay-worker.js) asks there while the user types, one request per keystroke,
because a browser's HTTP request costs its network stack several times what a message on an open
socket does.

The protocol itself (RFC 6455: the opening handshake's checks and answer, framing, masking,
control frames, the closing handshake; RFC 7692: ``permessage-deflate``) is
``websockets.server.ServerProtocol``, which does no I/O: bytes go in (``receive_data``), frames
and bytes to send come out. This module is the glue: ``Socket`` takes the handshake as waitress
parsed it, joins fragmented text messages, refuses binary ones and text that is not UTF-8, and
says when part of a message has arrived and not the rest (the server's request deadline).

Choices: compression is agreed without context takeover either way (no compressor kept between
messages, so an idle connection holds none), and answers under ``DEFLATE_MIN_BYTES`` go
uncompressed (RFC 7692 lets a sender choose per message). A message (after inflating) is at most
``max_message_bytes``: ``ServerProtocol``'s ``max_size``, checked against a frame header's claim
before its bytes are read, and against the inflated size while inflating (close code 1009).

Why ``websockets`` and not ``wsproto``: its Sans-I/O layer enforces a message size limit across
fragments and while inflating; wsproto has no message size limit, and its permessage-deflate
inflates each frame with no bound on the output, so a small compressed message could grow in
memory before the server could refuse it.

A ``Socket`` is not thread-safe: its caller holds a lock around each call."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from websockets.datastructures import Headers
from websockets.exceptions import InvalidHeader, InvalidMethod
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

__all__ = ["DEFLATE_MIN_BYTES", "DEFLATE_RESPONSE", "VERSION", "Socket", "frame_bytes",
           "frame_length"]

# Answers of at least this many bytes are compressed where the client offers permessage-deflate.
DEFLATE_MIN_BYTES = 1024
# The answer to an offer of permessage-deflate (what ServerProtocol answers with the settings
# below, named for the tests and the docs).
DEFLATE_RESPONSE = "permessage-deflate; server_no_context_takeover; client_no_context_takeover"

# The only version of the protocol spoken (RFC 6455 4.4: a handshake with another is answered 426
# with this header).
VERSION = "13"

# What the refusal of a handshake says, by the header that is wrong (the rest: websockets' text).
_WRONG_HEADER = {
    "upgrade": "this address speaks WebSocket (RFC 6455): send Upgrade: websocket",
    "connection": "the opening handshake needs Connection: Upgrade",
    "sec-websocket-version": "only WebSocket version 13 is spoken (Sec-WebSocket-Version: 13)",
    "sec-websocket-key": "Sec-WebSocket-Key must be 16 bytes in base64",
}


class _SmallAnswersPlain(PerMessageDeflate):
    """permessage-deflate as agreed, except that a message under DEFLATE_MIN_BYTES is sent
    as it is (not worth the CPU: most answers to keystrokes are small)."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode is Opcode.TEXT and frame.fin and len(frame.data) < DEFLATE_MIN_BYTES:
            return frame
        return super().encode(frame)


class _Deflate(ServerPerMessageDeflateFactory):
    def __init__(self) -> None:
        super().__init__(server_no_context_takeover=True, client_no_context_takeover=True,
                         compress_settings={"level": 1})

    def process_request_params(self, params: Sequence[tuple[str, str | None]],
                               accepted_extensions: Sequence[Extension],
                               ) -> tuple[list[tuple[str, str | None]], PerMessageDeflate]:
        response, agreed = super().process_request_params(params, accepted_extensions)
        return response, _SmallAnswersPlain(
            agreed.remote_no_context_takeover, agreed.local_no_context_takeover,
            agreed.remote_max_window_bits, agreed.local_max_window_bits,
            agreed.compress_settings)


def frame_length(data: bytes) -> int | None:
    """The whole length of the frame that starts ``data`` (RFC 6455 5.2: 2 bytes, then 2 or 8
    more for a length over 125, then the 4-byte mask if the mask bit is set, then the payload),
    or None while its header is incomplete."""
    if len(data) < 2:
        return None
    claimed = data[1] & 0x7F
    head = 2
    if claimed == 126:
        head, size_bytes = 4, 2
    elif claimed == 127:
        head, size_bytes = 10, 8
    else:
        size_bytes = 0
    if data[1] & 0x80:
        head += 4
    if len(data) < head:
        return None
    if size_bytes:
        claimed = int.from_bytes(data[2:2 + size_bytes], "big")
    return head + claimed


def frame_bytes(data: bytes) -> int:
    """How many bytes of ``data`` the first frame in it takes: its length when the frame header
    is whole (RFC 6455 5.2: 2 bytes, then 2 or 8 more for a length over 125, then the 4-byte
    mask if the mask bit is set), else all of ``data`` (a frame still arriving). The server
    feeds the protocol a frame at a time, so that it can stop after a message without parsing
    what follows."""
    total = frame_length(data)
    return len(data) if total is None else min(len(data), total)


class Socket:
    """One connection's WebSocket, from its opening handshake to its close; no I/O.

    ``handshake()`` checks the request; ``opening()`` then gives the 101 answer's bytes;
    ``feed(data)`` takes the client's bytes and gives the whole text messages among them;
    ``send_text()`` frames an answer; ``output()`` gives the bytes to send, in order (pongs and
    close frames included), where an empty ``bytes`` means: close the connection once the rest
    is sent."""

    def __init__(self, max_message_bytes: int) -> None:
        self.max_message_bytes = max_message_bytes
        # The handshake's protocol checks the request that waitress parsed (accept()) and makes
        # the answer; the frames then go to one made open, with the extensions agreed.
        self._handshake = ServerProtocol(extensions=[_Deflate()], max_size=max_message_bytes)
        self.protocol = self._handshake
        self._response: Response | None = None
        self._parts: list[bytes] = []  # the fragments of a text message so far
        self._in_message = False
        # part of a message (or of a frame) has arrived, and not the rest
        self.awaiting = False
        # a refused handshake's HTTP status and extra headers: 400, or 426 with
        # Sec-WebSocket-Version for another version of the protocol (RFC 6455 4.2.2 and 4.4)
        self.refusal_status = 400
        self.refusal_headers: dict[str, str] = {}

    @property
    def closing(self) -> bool:
        """Whether the socket is closing: nothing more is read, and no answer is sent."""
        return self.protocol.state is not State.OPEN

    @property
    def deflate(self) -> bool:
        """Whether permessage-deflate was agreed."""
        return bool(self.protocol.extensions)

    def handshake(self, method: str, path: str, headers: Mapping[str, str],
                  http_version: str = "1.1") -> str | None:
        """Why this request is not a valid opening handshake, or None; then ``refusal_status``
        and ``refusal_headers`` say how to refuse it. ``headers``: waitress's (names in upper
        case with dashes as underscores); ``http_version``: the request line's ("1.0", "1.1"),
        which must be 1.1 or higher (RFC 6455 4.1)."""
        major, _, minor = http_version.partition(".")
        if not (major.isdigit() and minor.isdigit() and (int(major), int(minor)) >= (1, 1)):
            return (f"the opening handshake must be HTTP/1.1 or higher, not HTTP/{http_version} "
                    "(RFC 6455 4.1)")
        request = Request(path, Headers([(k.replace("_", "-"), v) for k, v in headers.items()]),
                          method=method)
        response = self._handshake.accept(request)
        if response.status_code == 101:
            self._response = response
            return None
        problem = self._handshake.handshake_exc
        if isinstance(problem, InvalidMethod):
            return f"the opening handshake is a GET, not {method}"
        if isinstance(problem, InvalidHeader) and problem.name.lower() in _WRONG_HEADER:
            if problem.name.lower() == "sec-websocket-version":
                self.refusal_status = 426
                self.refusal_headers = {"Sec-WebSocket-Version": VERSION}
            return _WRONG_HEADER[problem.name.lower()]
        return f"not a WebSocket opening handshake: {problem}"

    def opening(self, headers: Mapping[str, str]) -> bytes:
        """The 101 answer to the handshake, with these headers besides the protocol's."""
        response = self._response
        assert response is not None, "handshake() first"
        for name, value in headers.items():
            response.headers[name] = value
        self._handshake.send_response(response)
        self.protocol = ServerProtocol(state=State.OPEN, max_size=self.max_message_bytes)
        self.protocol.extensions = self._handshake.extensions
        return b"".join(self._handshake.data_to_send())

    def feed(self, data: bytes) -> list[str]:
        """The text messages completed by ``data`` (none once the socket is closing)."""
        if self.closing:
            return []
        self.protocol.receive_data(data)
        events = self.protocol.events_received()
        texts: list[str] = []
        for frame in events:
            if self.closing:
                break
            if not isinstance(frame, Frame):
                continue
            if frame.opcode is Opcode.BINARY:
                self.protocol.fail(CloseCode.UNSUPPORTED_DATA,
                                   "the API takes text messages (JSON), not binary ones")
            elif frame.opcode is Opcode.TEXT or frame.opcode is Opcode.CONT:
                self._parts.append(bytes(frame.data))
                self._in_message = not frame.fin
                if frame.fin:
                    text = self._text(b"".join(self._parts))
                    self._parts = []
                    if text is not None:
                        texts.append(text)
        # (a frame cut short after a whole one is not seen here: its deadline starts with the
        # next bytes)
        self.awaiting = not self.closing and (self._in_message or (bool(data) and not events))
        return texts

    def _text(self, data: bytes) -> str | None:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            self.protocol.fail(CloseCode.INVALID_DATA, "a text message must be UTF-8")
            return None

    def send_text(self, answer: bytes) -> bool:
        """Frame an answer (UTF-8); False, and nothing framed, once the socket is closing:
        after a close frame no data frame may follow (RFC 6455 5.5.1)."""
        if self.closing:
            return False
        self.protocol.send_text(answer)
        return True

    def output(self) -> list[bytes]:
        """The bytes to send, in order; ``b""``: then close the connection."""
        out: list[bytes] = self.protocol.data_to_send()
        return out

