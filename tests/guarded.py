"""A real urlcalc.serving.http_server (waitress with its guards and the API's WebSocket) in a
thread on loopback, with small limits so that tests reach them quickly: the fixture of
test_server_hardening.py and test_api_socket.py."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from urlcalc.serving.app import MAX_BODY_BYTES, SECURITY_HEADERS, create_app, default_allowed_hosts
from urlcalc.serving.http_server import GuardedServer, make_server


@contextmanager
def guarded_server(trusted_proxies: list[str] | None = None) -> Iterator[GuardedServer]:
    """At most 40 connections, 8 per address, 4 threads; headers within 1 s, a request within
    2 s, an idle connection closed after 5 s. ``trusted_proxies``: serve's --trusted-proxy."""
    app = create_app(allowed_hosts=default_allowed_hosts("127.0.0.1"),
                     trusted_proxies=trusted_proxies)
    server = make_server(app, "127.0.0.1", 0, threads=4, security_headers=SECURITY_HEADERS,
                         max_body_bytes=MAX_BODY_BYTES, connection_limit=40, per_client=8,
                         header_timeout=1.0, request_timeout=2.0, idle_timeout=5,
                         socket_api=app.extensions["urlcalc_socket"],
                         clients=app.extensions["urlcalc_clients"])
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.task_dispatcher.shutdown(timeout=1)
        server.close()
