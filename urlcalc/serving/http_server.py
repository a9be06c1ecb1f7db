"""The HTTP server under the app: waitress, with what a classroom server on a LAN needs.

waitress alone lets one client lock everyone out: 500 connections that send their headers and
never finish their body hold every connection slot for its 120 s channel timeout, and its own
refusals (413, 431, a bad Content-Length, 501) are plain text without the page's security
headers. ``make_server`` returns a waitress server that

* closes a connection whose request does not arrive in time: the headers within
  ``HEADER_TIMEOUT_S`` of its first byte, the whole request (body included) within
  ``REQUEST_TIMEOUT_S``; an idle keep-alive connection after ``IDLE_TIMEOUT_S``;
* accepts at most ``MAX_CONNECTIONS_PER_CLIENT`` connections from one address (the next one gets
  a 503 JSON answer and is closed), except from a trusted proxy (urlcalc.serving.clients);
* at its ``CONNECTION_LIMIT``, closes the oldest connections that have no request being answered
  (half-open or idle ones, ``EVICT_SHARE`` of the limit at a time, at least ``EVICT_MIN_BATCH``)
  instead of refusing every new client until a timeout frees a slot, and accepts up to
  ``ACCEPT_BATCH`` waiting connections at each wake-up;
* answers waitress's own refusals as JSON ``{"error": ...}`` with the same security headers as
  every other response (``JsonErrorTask``);
* waits with poll() rather than select() (no limit at file descriptor 1024);
* with a ``socket_api`` (urlcalc.serving.socket_api), speaks WebSocket at its path: a valid opening
  handshake there turns the connection into a socket whose text messages the api answers, one
  at a time in waitress's worker threads like HTTP requests (``SocketState``); the protocol is
  the ``websockets`` package's (urlcalc.serving.websocket). At most ``SOCKET_QUEUE`` messages
  wait per connection, whatever one read brings (``SocketState.pending``); a message must
  arrive whole within ``REQUEST_TIMEOUT_S`` of its first byte; an idle socket is closed after
  ``IDLE_TIMEOUT_S`` like an idle keep-alive connection (the page opens another);
* bounds each connection's output: a socket's next message is not taken while its unsent
  output (waitress's buffer and the kernel's send queue) is over ``SOCKET_OUTPUT_BYTES``; output
  stays in memory (no temporary file: ``OUTBUF_OVERFLOW_BYTES``), and a connection whose
  queued output has not gone down for ``SLOW_READER_TIMEOUT_S`` is closed (a slow reader);
* closes the connection after answering a request that has both Content-Length and
  Transfer-Encoding (RFC 9112 6.1), and refuses an opening handshake that is not HTTP/1.1 or
  higher (RFC 6455 4.1) or asks for another version of the protocol (426, RFC 6455 4.4).

The checks run in waitress's main loop: at most once a second (``cleanup_interval``) for the
timeouts, and on each accept for the per-client cap.

Only waitress's public names are used (none that starts with ``_``; tests/test_server_hardening.py
checks it), and pyproject.toml pins its minor version: the constructor's arguments
(``map``, ``adj``, ``dispatcher``, ``sockinfo``), the ``Adjustments``, the dispatcher hooks that
waitress's own classes override (``handle_accept``, ``readable``, ``received``, ``service``,
``maintenance``, ``add_channel``/``del_channel``, ``error_task_class``, ``parser_class`` and the
parser's ``parse_header``), the channel's ``write_soon`` (the way a task thread writes) and
``handle_close``, and its state attributes (``requests``, ``request``, ``will_close``,
``close_when_flushed``, ``last_activity``, ``total_outbufs_len``, ``requests_lock``). The one
convention relied on beyond a method's contract: a channel with a request in ``requests`` is one
a worker thread may be writing to, so waitress's main loop then flushes only when it can take
``outbuf_lock`` (``Upgraded`` stands there for a socket's life).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import socket
import struct
import termios
import time
from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from waitress.adjustments import Adjustments
from waitress.channel import ClientDisconnected, HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher
from waitress.utilities import Error as WaitressError

from urlcalc.answers.answer import status_of
from urlcalc.serving import websocket as ws
from urlcalc.serving.clients import Clients

__all__ = [
    "CONNECTION_LIMIT",
    "HEADER_TIMEOUT_S",
    "IDLE_TIMEOUT_S",
    "MAX_CONNECTIONS_PER_CLIENT",
    "REQUEST_TIMEOUT_S",
    "SLOW_READER_TIMEOUT_S",
    "SOCKET_OUTPUT_BYTES",
    "SOCKET_QUEUE",
    "SocketApi",
    "make_server",
]

# ~30 browsers x 6 connections each, with room to spare.
CONNECTION_LIMIT = 500
# A browser opens about 6 connections per server; a few tabs and a teacher's tools fit.
MAX_CONNECTIONS_PER_CLIENT = 32
# From a request's first byte: its headers must be complete within HEADER_TIMEOUT_S, the whole
# request (a body of up to 1 MiB, on a slow classroom Wi-Fi) within REQUEST_TIMEOUT_S.
HEADER_TIMEOUT_S = 5.0
REQUEST_TIMEOUT_S = 15.0
# A keep-alive connection with no request for this long is closed (browsers open another).
IDLE_TIMEOUT_S = 30
# At the limit, this share of the connections (the oldest not being answered) is closed at once:
# enough to drain a backlog of reconnecting attackers in a few rounds and let a newcomer in.
EVICT_SHARE = 0.1
EVICT_MIN_BATCH = 16
# Connections accepted per wake-up of the listening socket (waitress accepts one).
ACCEPT_BATCH = 64
# Eviction spares connections that have sent nothing for less than this (a newcomer's request
# may be on its way) and keep-alive connections idle for less than EVICT_MIN_IDLE_S (a client
# between two requests).
EVICT_MIN_AGE_S = 0.5
EVICT_MIN_IDLE_S = 2.0

# Messages read from one socket and not yet answered (besides the one being answered); beyond
# this the rest of a read is kept as it came (SocketState.pending, at most one read: waitress's
# recv_bytes, 8 KiB) and the connection is not read until there is room (a client cannot queue
# more work than this, however many messages one read brings).
SOCKET_QUEUE = 4
# After a message refused for want of room (503: the heavy requests' gate is full), the socket
# is neither read nor answered for this long (the HTTP answer's Retry-After is 2 s).
BUSY_PAUSE_S = 1.0
BUSY = 503
# A socket's next message is not taken while more than this of its output is unsent: waitress's
# buffer plus the kernel's send queue (TIOCOUTQ: bytes the client's machine has not yet
# acknowledged). A client that stops reading gets no more answers computed than fill this, its
# own receive buffer, and the one answer being computed when the bound was reached.
SOCKET_OUTPUT_BYTES = 64 * 1024
# A connection (HTTP or socket) with output queued whose queue has not gone down for this long
# (sampled once a second) is closed, and its buffers freed.
SLOW_READER_TIMEOUT_S = 15.0
# Output is kept in memory up to this much per connection before waitress would move it to a
# temporary file: never reached (a socket holds at most SOCKET_OUTPUT_BYTES and one answer, an
# HTTP connection at most OUTBUF_HIGH_WATERMARK_BYTES and one answer), so no temporary file.
OUTBUF_OVERFLOW_BYTES = 64 * 1024 * 1024
# waitress makes an HTTP worker thread wait (for the client to read) before writing more than
# this to one connection (pipelined requests; its default is 16 MiB).
OUTBUF_HIGH_WATERMARK_BYTES = 1024 * 1024

# What waitress's refusals say (the first line of the body; the rest is waitress's detail).
_REFUSALS = {
    400: "malformed HTTP request",
    413: "the request body is over the {limit} byte limit",
    431: "the request headers are over the {header_limit} byte limit",
    501: "not implemented",
}


def _json_answer(status: str, message: str, headers: Mapping[str, str],
                 extra: tuple[tuple[str, str], ...] = ()) -> tuple[list[tuple[str, str]], bytes]:
    body = json.dumps({"error": message}).encode("ascii")
    out = [("Content-Type", "application/json; charset=utf-8"),
           ("Cache-Control", "no-store"), *headers.items(), *extra]
    return out, body


class JsonErrorTask(ErrorTask):  # type: ignore[misc]
    """waitress's refusal of a malformed request, as JSON with the server's security headers."""

    def execute(self) -> None:
        server: GuardedServer = self.channel.server
        error = self.request.error
        extra: tuple[tuple[str, str], ...] = ()
        if isinstance(error, SocketRefused):
            message = error.message
            extra = tuple(error.headers.items())
        else:
            template = _REFUSALS.get(error.code, error.reason.lower())
            message = template.format(limit=server.max_body_bytes,
                                      header_limit=server.adj.max_request_header_size)
            detail = str(error.body or "").strip()
            if detail and error.code in (400, 501):
                message += f": {detail}"
        headers, body = _json_answer(f"{error.code} {error.reason}", message,
                                     server.security_headers, extra)
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend(headers)
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class SocketApi(Protocol):
    """What a socket answers (urlcalc.serving.socket_api.SocketApi)."""

    path: str
    max_message_bytes: int

    def refusal(self, headers: Mapping[str, str]) -> tuple[int, str] | None: ...

    def answer(self, text: str, client: str = "") -> bytes: ...


class SocketRefused(WaitressError):  # type: ignore[misc]
    """An opening handshake refused: answered as JSON by JsonErrorTask."""

    def __init__(self, code: int, message: str, headers: Mapping[str, str] | None = None
                 ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = {400: "Bad Request", 403: "Forbidden",
                       426: "Upgrade Required"}.get(code, "Bad Request")
        self.message = message
        self.headers = dict(headers or {})


class GuardedParser(HTTPRequestParser):  # type: ignore[misc]
    """waitress's request parser; a request with both Content-Length and Transfer-Encoding
    (which overrides it) is answered with Connection: close and the connection closed after it
    (RFC 9112 6.1: such a message may be an attempt at request smuggling; waitress would keep
    the connection open)."""

    def parse_header(self, header_plus: bytes) -> None:
        super().parse_header(header_plus)
        # (waitress drops TRANSFER_ENCODING from the headers once it has read it: chunked)
        if self.chunked and "CONTENT_LENGTH" in self.headers:
            self.headers["CONNECTION"] = "close"


class Upgraded:
    """What stands in a socket's ``requests`` (waitress's list of the requests being answered,
    public): a connection turned WebSocket always has one running. That keeps waitress's own
    HTTP handling away from it: its main loop then sends the output only when no worker thread
    is writing (``outbuf_lock``), reads nothing for HTTP, and leaves its idle timeout to
    ``GuardedServer.maintenance``."""

    def close(self) -> None:
        pass


UPGRADED = Upgraded()


def _frame_part(state: SocketState) -> int:
    """How many of ``state.pending``'s bytes belong to the frame being given to the protocol
    (the rest start the next frame). A frame can arrive in several reads: its length is known
    once its header is whole, and what is still owed of it is kept, so that the next read's
    bytes are never read as a header from the middle of a payload (which once let one feed
    complete several messages, past SOCKET_QUEUE)."""
    if state.frame_left:
        n = min(state.frame_left, len(state.pending))
        state.frame_left -= n
        return n
    seen = state.frame_head + state.pending
    total = ws.frame_length(seen)
    if total is None:  # the header is still incomplete: give what came, remember it
        state.frame_head = seen
        return len(state.pending)
    owed = total - len(state.frame_head)
    state.frame_head = b""
    n = min(owed, len(state.pending))
    state.frame_left = owed - n
    return n


@dataclass
class SocketState:
    """A connection turned WebSocket: its protocol (urlcalc.serving.websocket.Socket), the
    messages read and not yet answered (at most SOCKET_QUEUE), the bytes read and not yet given
    to the protocol because the queue was full (at most one read), the protocol's bytes (pongs,
    close frames) not yet written, and whether a worker thread has the connection's turn: that
    thread alone writes, so that bytes leave in the order the protocol made them."""

    socket: ws.Socket
    #: who the connection is for: its address, or the client a trusted proxy forwards for
    client: str = ""
    inbox: deque[str] = field(default_factory=deque)
    pending: bytes = b""
    outbox: list[bytes] = field(default_factory=list)
    busy: bool = True  # (the thread that answers the handshake has the first turn)
    #: (time.monotonic()) until then the socket is neither read nor answered: a request of its
    #: was refused for want of room (503)
    paused_until: float = 0.0
    #: the frame being given to the protocol: its bytes still to come (0: the next bytes start
    #: a frame), and the bytes of its header given so far while the header was incomplete
    frame_left: int = 0
    frame_head: bytes = b""

    def paused(self) -> bool:
        return self.paused_until > 0 and time.monotonic() < self.paused_until

    @property
    def waiting(self) -> bool:
        """Whether messages (or bytes that may hold some) wait to be answered."""
        return bool(self.inbox or self.pending)


class GuardedChannel(HTTPChannel):  # type: ignore[misc]
    """One connection: remembers when the request now arriving began; turns into a WebSocket on
    a valid opening handshake at the socket api's path."""

    error_task_class = JsonErrorTask
    parser_class = GuardedParser
    request_started: float | None = None
    client = ""
    served = 0  # requests received in full
    counted = False  # in the server's count of connections per client
    # the output queued (waitress's buffer and the kernel's) at the last maintenance pass, and
    # since when it has not gone down (a slow reader: GuardedServer.maintenance)
    output_queued = 0
    output_stalled_since: float | None = None
    socket_state: SocketState | None = None
    requests: list[Any]  # waitress's: the requests received and not yet answered
    request: Any  # waitress's: the request now arriving, if any

    def __init__(self, server: GuardedServer, sock: socket.socket, addr: Any, adj: Any,
                 map: Any = None) -> None:
        # before waitress's __init__, which registers the channel (add_channel) before it sets
        # self.addr
        self.client = str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)
        super().__init__(server, sock, addr, adj, map)

    def received(self, data: bytes) -> bool:
        if self.socket_state is not None:
            return self._socket_received(self.socket_state, data)
        if self.request is None and data and self.request_started is None:
            self.request_started = time.monotonic()
        result: bool = super().received(data)
        if self.request is None:
            if self.request_started is not None:
                self.served += 1
            self.request_started = None  # complete (or nothing pending): no deadline
        return result

    # --- WebSocket ---------------------------------------------------------------------------

    def service(self) -> None:
        """A worker thread's turn: the socket's messages, or an opening handshake, or (as
        waitress) the next HTTP request."""
        state = self.socket_state
        if state is not None:
            self._socket_turn(state)
            return
        api: SocketApi | None = self.server.socket_api
        request = self.requests[0] if self.requests else None
        if api is not None and request is not None and not request.error \
                and request.path == api.path and "UPGRADE" in request.headers:
            self._upgrade(request, api)
            return
        super().service()

    def _upgrade(self, request: Any, api: SocketApi) -> None:
        """Answer an opening handshake: 101 and the connection is a socket from now on, or a
        JSON refusal (JsonErrorTask) as any HTTP request's."""
        sock = ws.Socket(api.max_message_bytes)
        problem = sock.handshake(request.command, request.path, request.headers,
                                 request.version)
        if problem is not None:
            request.error = SocketRefused(sock.refusal_status, problem, sock.refusal_headers)
            super().service()
            return
        refusal = api.refusal(request.headers)
        if refusal is not None:
            request.error = SocketRefused(*refusal)
            super().service()
            return
        opening = sock.opening(self.server.security_headers)
        with self.requests_lock:
            # anything the client sent behind the handshake (it must wait for this answer) is
            # dropped with the HTTP parser
            for r in self.requests:
                r.close()
            if self.request is not None:
                self.request.close()
            self.requests = [UPGRADED]
            self.request = None
            self.request_started = None
            client = self.server.clients.client(self.client, request.headers)
            state = self.socket_state = SocketState(sock, client)
        try:
            self.write_soon(opening)
        except ClientDisconnected:
            with self.requests_lock:
                state.busy = False
            return
        self.last_activity = time.time()
        # then what came meanwhile; at the end the main loop, polling without this connection
        # while its request was served, is woken to read it again (its first message may
        # already be there)
        self._socket_turn(state)

    def _socket_received(self, state: SocketState, data: bytes) -> bool:
        """In the main loop: the socket's bytes. Text messages are queued for a worker thread,
        with what the protocol answers by itself (a pong, a close frame)."""
        with self.requests_lock:
            if self.will_close or self.close_when_flushed or state.socket.closing:
                return False
            state.pending += data  # (empty before: the socket is not read while it is not)
            self._admit(state)
            self._schedule(state)
        return True

    def _admit(self, state: SocketState) -> None:
        """(Holding ``requests_lock``) give the protocol the pending bytes a frame at a time
        while the queue has room: the messages they complete join the queue, and the bytes
        after the message that fills it stay pending, unparsed, until a worker thread takes
        a message (its turn calls this again)."""
        sock = state.socket
        while state.pending and len(state.inbox) < SOCKET_QUEUE and not sock.closing:
            n = _frame_part(state)
            chunk, state.pending = state.pending[:n], state.pending[n:]
            state.inbox.extend(sock.feed(chunk))
            state.outbox.extend(sock.output())
        if sock.closing:
            state.inbox.clear()  # (an answer being made now is dropped: send_text)
            state.pending = b""
        if state.pending:
            self.request_started = None  # held back by the server, not late from the client
        elif sock.awaiting:
            if self.request_started is None:
                self.request_started = time.monotonic()
        else:
            self.request_started = None

    def _schedule(self, state: SocketState) -> None:
        """(Holding ``requests_lock``) give the socket a worker thread's turn if it has work
        and none has it."""
        if (state.inbox or state.outbox) and not state.busy:
            state.busy = True
            self.server.add_task(self)

    def output_queued_bytes(self) -> int:
        """This connection's unsent output: waitress's buffers and the kernel's send queue."""
        return int(self.total_outbufs_len) + _kernel_queued(self.socket)

    def _socket_turn(self, state: SocketState) -> None:
        """A worker thread's turn on a socket: write what the protocol made, answer the queued
        messages one at a time, until there is nothing left to do."""
        api: SocketApi = self.server.socket_api
        try:
            while True:
                text = None
                # no more output while the client has not taken what it was sent: the turn
                # ends, and readable() gives the socket another once the output is down
                full = self.output_queued_bytes() > SOCKET_OUTPUT_BYTES
                paused = state.paused()  # (what was made is still sent)
                with self.requests_lock:
                    out, state.outbox = state.outbox, []
                    if full or (not out and (not state.inbox or state.socket.closing or paused)) \
                            or not self.connected:
                        state.outbox[:0] = out
                        state.busy = False
                        break
                    if not out:
                        text = state.inbox.popleft()
                        self._admit(state)  # the queue has room: the pending bytes' next
                if text is None:
                    self._write(out)
                    continue
                answer = api.answer(text, state.client)
                if status_of(answer) == BUSY:
                    # refused for want of room: this client waits before its next message is
                    # read or answered, instead of bursting again at once (refusals are cheap,
                    # not free: 2,000 a second took a core)
                    state.paused_until = time.monotonic() + BUSY_PAUSE_S
                with self.requests_lock:
                    # (dropped when the socket began to close meanwhile)
                    if state.socket.send_text(answer):
                        state.outbox.extend(state.socket.output())
        except ClientDisconnected:
            with self.requests_lock:
                state.busy = False
        # the main loop looks at readable() again (the queue has room) and sends the rest
        self.server.pull_trigger()

    def _write(self, out: list[bytes]) -> None:
        """(The turn's thread) the protocol's bytes behind the output; ``b""``: close once
        they are sent."""
        for data in out:
            if data:
                self.write_soon(data)
                self.last_activity = time.time()
            else:
                self.close_when_flushed = True

    def readable(self) -> bool:
        state = self.socket_state
        if state is None:
            return bool(super().readable())
        paused = state.paused()
        if not state.busy and (state.inbox or state.outbox) and self.connected and not paused \
                and self.output_queued_bytes() <= SOCKET_OUTPUT_BYTES:
            # a turn ended on a full output, which has gone down since
            with self.requests_lock:
                self._schedule(state)
        # waitress's conditions (its own says no: a request is always running), and at most
        # SOCKET_QUEUE messages waiting with nothing left unparsed
        return not (self.will_close or self.close_when_flushed or self.total_outbufs_len
                    or state.socket.closing or state.pending or paused
                    or len(state.inbox) >= SOCKET_QUEUE)

    def add_channel(self, map: Any = None) -> None:
        super().add_channel(map)
        if not self.counted:
            self.counted = True
            self.server.client_connections[self.client] += 1

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        if self.counted:
            self.counted = False
            counts = self.server.client_connections
            counts[self.client] -= 1
            if counts[self.client] <= 0:
                del counts[self.client]


class GuardedServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server with the guards of this module's docstring."""

    channel_class = GuardedChannel

    def __init__(self, application: Any, *, security_headers: Mapping[str, str],
                 max_body_bytes: int, per_client: int, header_timeout: float,
                 request_timeout: float, socket_api: SocketApi | None = None,
                 clients: Clients | None = None, **kwargs: Any) -> None:
        self.security_headers = dict(security_headers)
        self.socket_api = socket_api
        self.clients = clients if clients is not None else Clients()
        self.max_body_bytes = max_body_bytes
        self.per_client = per_client
        self.header_timeout = header_timeout
        self.request_timeout = request_timeout
        self.client_connections: Counter[str] = Counter()
        self.refused_connections = 0
        self.evicted_connections = 0
        self.timed_out_requests = 0
        self.slow_readers_closed = 0
        self.slow_reader_timeout = SLOW_READER_TIMEOUT_S
        # The map of the sockets the main loop polls (this server's, its trigger's, and one per
        # connection): given to waitress (its ``map`` argument), so that its size is known here.
        self.socket_map: dict[int, Any] = {}
        super().__init__(application, map=self.socket_map, **kwargs)

    def handle_accept(self) -> None:
        # (waitress accepts one connection per wake-up)
        for _ in range(ACCEPT_BATCH):
            if len(self.socket_map) >= self.adj.connection_limit or not self.accept_one():
                return

    def accept_one(self) -> bool:
        """Accept one connection; False when none is waiting."""
        try:
            accepted = self.accept()
        except OSError:
            return False
        if accepted is None:
            return False
        conn, addr = accepted
        # (a trusted proxy's connections carry many clients: not capped per address)
        if self.client_connections[addr[0]] >= self.per_client \
                and not self.clients.is_trusted(addr[0]):
            self.refused_connections += 1
            headers, body = _json_answer(
                "503 Service Unavailable",
                f"too many connections from {addr[0]} (at most {self.per_client}): close some "
                "and try again", self.security_headers, (("Retry-After", "5"),))
            head = "".join(f"{k}: {v}\r\n" for k, v in headers)
            answer = (f"HTTP/1.1 503 Service Unavailable\r\n{head}Content-Length: {len(body)}"
                      "\r\nConnection: close\r\n\r\n").encode("latin-1") + body
            try:
                conn.setblocking(False)
                conn.send(answer)  # best effort: a small answer fits the socket's buffer
            except OSError:
                pass
            finally:
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)
                conn.close()
            return True
        try:
            self.set_socket_options(conn)
        except OSError:
            conn.close()
            return True
        self.channel_class(self, conn, self.fix_addr(addr), self.adj, map=self.socket_map)
        return True

    def maintenance(self, now: float) -> None:
        """waitress's idle timeout (and the same for sockets, which waitress leaves alone: see
        Upgraded), plus the header and request deadlines and the slow readers' deadline."""
        super().maintenance(now)
        cutoff = now - self.adj.channel_timeout
        mono = time.monotonic()
        for channel in list(self.active_channels.values()):
            if channel.will_close:
                continue
            if self._slow_reader(channel, mono):
                # closed now (will_close would wait for the socket to be writable, which it is
                # not: the client does not read) and reset (SO_LINGER 0: the kernel drops its
                # send queue at once, rather than keep it for a peer that does not read); this
                # frees the buffers and wakes a thread waiting to write (ClientDisconnected)
                self.slow_readers_closed += 1
                with contextlib.suppress(OSError):
                    channel.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                              struct.pack("ii", 1, 0))
                channel.handle_close()
                continue
            state = getattr(channel, "socket_state", None)
            if state is not None and not state.busy and not state.waiting \
                    and channel.last_activity < cutoff:
                channel.will_close = True
                continue
            started = getattr(channel, "request_started", None)
            if started is None or (state is None and channel.requests):
                continue
            request = channel.request
            limit = self.request_timeout
            if request is not None and not request.headers_finished:
                limit = self.header_timeout
            if mono - started > limit:
                self.timed_out_requests += 1
                channel.will_close = True

    def _slow_reader(self, channel: Any, mono: float) -> bool:
        """Whether ``channel`` has had output queued, not going down, for over
        ``slow_reader_timeout`` seconds (sampled at each maintenance pass)."""
        queued = channel.output_queued_bytes()
        before, channel.output_queued = channel.output_queued, queued
        if not queued:
            channel.output_stalled_since = None
            return False
        if queued < before or channel.output_stalled_since is None:
            channel.output_stalled_since = mono  # (it went down: the client reads)
            return False
        return bool(mono - channel.output_stalled_since > self.slow_reader_timeout)

    def readable(self) -> bool:
        if self.accepting and len(self.socket_map) >= self.adj.connection_limit:
            self._evict()
        return bool(super().readable())

    def _evict(self) -> None:
        """At the connection limit: close the oldest connections that are not being answered, so
        that a new client gets in. In order: requests still arriving (half-open), by when they
        began; connections that never sent a request, by age, once older than EVICT_MIN_AGE_S
        (a newcomer's request may be on its way); keep-alive connections idle for over
        EVICT_MIN_IDLE_S, by their last activity. Never one being answered, nor one with bytes
        still unread."""
        now = time.time()

        def rank(channel: Any) -> tuple[int, float] | None:
            if channel.total_outbufs_len or channel.will_close:
                return None
            socket_state = getattr(channel, "socket_state", None)
            if socket_state is not None:
                if socket_state.busy or socket_state.waiting:
                    return None  # a socket's message being answered
            elif channel.requests:
                return None
            if _unread(channel):
                return None  # it sent something this loop has not read yet: it is not stuck
            started = channel.request_started
            if started is not None:
                return (0, started)
            if channel.served == 0:
                age = now - channel.creation_time
                return (1, channel.creation_time) if age >= EVICT_MIN_AGE_S else None
            idle = now - channel.last_activity
            return (2, channel.last_activity) if idle >= EVICT_MIN_IDLE_S else None

        ranked = sorted((r, id(c), c) for c in self.active_channels.values()
                        if (r := rank(c)) is not None)
        batch = max(EVICT_MIN_BATCH, int(self.adj.connection_limit * EVICT_SHARE))
        for _, _, channel in ranked[:batch]:
            channel.will_close = True
            self.evicted_connections += 1


def _unread(channel: Any) -> bool:
    """Whether bytes (or the end of the stream) wait on ``channel``'s socket, unread."""
    try:
        channel.socket.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return True  # a broken connection: let the loop find out and close it
    return True


def _kernel_queued(sock: socket.socket | None) -> int:
    """The bytes in ``sock``'s send queue that the peer has not acknowledged (Linux TIOCOUTQ);
    0 where that cannot be asked."""
    if sock is None:
        return 0
    try:
        raw = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0\0\0\0")
    except (OSError, ValueError):
        return 0
    return int(struct.unpack("i", raw)[0])


def make_server(app: Any, host: str, port: int, *, threads: int,
                security_headers: Mapping[str, str], max_body_bytes: int,
                connection_limit: int = CONNECTION_LIMIT,
                per_client: int = MAX_CONNECTIONS_PER_CLIENT,
                header_timeout: float = HEADER_TIMEOUT_S,
                request_timeout: float = REQUEST_TIMEOUT_S,
                idle_timeout: int = IDLE_TIMEOUT_S, ident: str = "urlcalc",
                socket_api: SocketApi | None = None,
                clients: Clients | None = None) -> GuardedServer:
    """A waitress server for ``app`` on ``host``:``port`` (0: a free port), not yet running:
    call ``run()``. Bodies up to ``max_body_bytes`` inclusive reach the app (waitress refuses
    from its limit on, so the limit it is given is one more). ``socket_api``: the WebSocket
    endpoint, if any. ``clients``: who a connection's requests come from (the trusted proxies:
    urlcalc.serving.clients)."""
    adj = Adjustments(
        host=host, port=port, threads=threads, ident=ident,
        connection_limit=connection_limit,
        channel_timeout=idle_timeout,
        cleanup_interval=1,
        max_request_body_size=max_body_bytes + 1,
        asyncore_use_poll=True,
        outbuf_overflow=OUTBUF_OVERFLOW_BYTES,
        outbuf_high_watermark=OUTBUF_HIGH_WATERMARK_BYTES,
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    return GuardedServer(
        app, dispatcher=dispatcher, adj=adj, sockinfo=adj.listen[0],
        security_headers=security_headers, max_body_bytes=max_body_bytes,
        per_client=per_client, header_timeout=header_timeout, request_timeout=request_timeout,
        socket_api=socket_api, clients=clients)
