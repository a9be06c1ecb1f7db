"""The JSON API over a WebSocket: ``/api/socket`` on ``urlcalc serve``.

The page's server relay (web/js/workers/server-relay-worker.js) asks the API here while the user
types: a browser spends about 3 ms of its network stack on each HTTP request and under 1 ms on a
message over an open socket (docs/page-speed.md), and a refusal comes as an answer in a message, not
as a failed request that the browser logs as an error. The bodies are the HTTP API's, byte for byte.

Messages (text, JSON):

* a request: ``{"id": ID, "kind": KIND, "params": {...}}``, where ID is an integer or a string of
  at most 64 characters, KIND one of the API's kinds (``/api/<kind>``), params its JSON object
  (``{}`` if left out); at most ``MAX_SOCKET_MESSAGE_BYTES`` (larger requests go by HTTP POST,
  where the heavy ones queue apart);
* its answer: one JSON object ``{"id": ID, "status": STATUS, "body": BODY}``, its members in
  that order (``urlcalc.answers.answer.envelope``): STATUS and BODY are what the HTTP API
  answers to the same request (200 and the result; 400 and ``{"error": ...}`` for a bad request
  or message, 404 for an unknown kind, 500 for a bug); a request that cannot be read at all has
  ``"id": null``.

Answers come in the order of the requests. The opening handshake is refused (as JSON, over HTTP)
when the Host header does not name this server (the DNS-rebinding guard of every request) or
when a browser's Origin is another site's (a page elsewhere cannot use the socket, as it cannot
POST JSON to the API either). ``urlcalc.serving.http_server`` runs the connection;
``urlcalc.serving.websocket`` speaks the protocol."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from urlcalc.answers.answer import answer, envelope, envelope_json
from urlcalc.model.limits import MAX_SOCKET_MESSAGE_BYTES

__all__ = ["MAX_ID_CHARS", "MAX_SOCKET_MESSAGE_BYTES", "SOCKET_PATH", "SocketApi"]

SOCKET_PATH = "/api/socket"
MAX_ID_CHARS = 64

#: How the server answers a well-formed request of a client: (status, the body's JSON bytes).
Respond = Callable[[str, str, dict[str, Any]], tuple[int, bytes]]



def _origin_host(origin: str) -> str | None:
    """host[:port] of an Origin header, lower case; None for "null" or nonsense."""
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return parts.netloc.lower()


class SocketApi:
    """What the socket answers: who may open it (``refusal``) and each message's answer."""

    def __init__(self, kinds: Iterable[str], host_ok: Callable[[str | None], bool],
                 dispatch: Callable[[str, dict[str, Any]], Any],
                 origins: Iterable[str] = (), respond: Respond | None = None) -> None:
        self.kinds = tuple(kinds)
        # Origins (host[:port]) accepted besides the Host header's own: the public URL's, for a
        # server behind a proxy that rewrites Host
        self.origins = frozenset(o.lower() for o in origins)
        self.host_ok = host_ok
        self.dispatch = dispatch
        # the server's way (by cost: in its threads or, queued fairly per client, in its worker
        # processes: urlcalc.serving.app); None: urlcalc.answers.answer in this thread
        self.respond = respond
        self.path = SOCKET_PATH
        self.max_message_bytes = MAX_SOCKET_MESSAGE_BYTES

    def refusal(self, headers: Mapping[str, str]) -> tuple[int, str] | None:
        """(status, why) when an opening handshake with these headers (waitress's names:
        upper case, underscores) must be refused, else None."""
        host = headers.get("HOST")
        if not self.host_ok(host):
            shown = (host or "")[:100]
            return 400, (f"this server does not answer to the name {shown!r} in the Host "
                         "header (a guard against DNS rebinding)")
        origin = headers.get("ORIGIN")
        seen = _origin_host(origin) if origin is not None else None
        if origin is not None and seen != (host or "").strip().lower() and seen not in self.origins:
            return 403, (f"the socket answers pages of this server only, not of "
                         f"{origin[:100]!r}")
        return None

    def answer(self, text: str, client: str = "") -> bytes:
        """The answer message (UTF-8) to one request message of ``client`` (its address, or the
        client a trusted proxy forwards for): its envelope ``{"id":ID,"status":STATUS,
        "body":BODY}`` (urlcalc.answers.answer.envelope)."""
        try:
            request = json.loads(text)
        except (ValueError, RecursionError):
            return self._framed(None, 400, {"error": "a request message must be JSON"})
        if not isinstance(request, dict):
            return self._framed(None, 400, {"error": "a request message must be a JSON object "
                                            "{\"id\", \"kind\", \"params\"}"})
        id_ = request.get("id")
        if isinstance(id_, bool) or not isinstance(id_, (int, str)) \
                or (isinstance(id_, str) and len(id_) > MAX_ID_CHARS) \
                or (isinstance(id_, int) and abs(id_) > 2**53):
            return self._framed(None, 400, {"error": "a request's id must be an integer or a "
                                            f"string of at most {MAX_ID_CHARS} characters"})
        kind = request.get("kind")
        if not isinstance(kind, str):
            return self._framed(id_, 400, {"error": "a request's kind must be a string, one of "
                                           f"{', '.join(self.kinds)}"})
        params = request.get("params", {})
        if not isinstance(params, dict):
            return self._framed(id_, 400, {"error": "params must be a JSON object"})
        # (a bug is an answer too, status 500: never a dropped connection)
        if self.respond is None:
            return self._framed(id_, *answer(kind, params, self.dispatch))
        status, body = self.respond(client, kind, params)
        return envelope_json(id_, status, body)

    @staticmethod
    def _framed(id_: int | str | None, status: int, body: Any) -> bytes:
        return envelope(id_, status, body)
