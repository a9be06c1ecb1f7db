"""A live urlcalc server in a thread and a Chromium launcher, shared by the browser tests
(conftest.py) and the README screenshot script (screenshots.py)."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from werkzeug.serving import WSGIRequestHandler, make_server

CHROMIUM = os.environ.get("URLCALC_CHROMIUM", "/usr/bin/chromium")
# The last two keep every browser offline: a request for any host but the loopback ones (which
# Chromium never sends through a proxy) goes to a proxy whose name never resolves, and so does
# every other name. Offline.watch records such requests; the tests assert there are none.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--proxy-server=http://offline.invalid:1",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]
REPO = Path(__file__).resolve().parents[2]
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})


class QuietHandler(WSGIRequestHandler):
    """No access log (a test run makes hundreds of API calls)."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


# The public address the shared test server announces (config.json's public_url), as
# `urlcalc serve --public-url` would: permalinks and copies link there. Tests of a server that
# knows no public address start their own (live_server(public_url=None)).
PUBLIC_URL = "https://urlcalc.example/calc/"


@contextmanager
def live_server(public_url: str | None = None) -> Iterator[str]:
    """Serve ``urlcalc.serving.app:create_app()`` on a free localhost port; yield its base URL."""
    from urlcalc.serving import app as server_module

    app = server_module.create_app(public_url=public_url)
    warm_up = getattr(server_module, "warm_up", None)
    if warm_up is not None:
        warm_up(app)  # compress the Pyodide assets once, before the first browser asks
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=httpd.serve_forever, name="urlcalc-live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        httpd.server_close()


@contextmanager
def live_waitress() -> Iterator[tuple[str, Any]]:
    """The app as ``urlcalc serve`` runs it: under urlcalc.serving.http_server (waitress), with the
    API's WebSocket, on a free localhost port; yield its base URL and the server."""
    from urlcalc.serving import app as server_module
    from urlcalc.serving.http_server import make_server as waitress_server

    app = server_module.create_app(socket=True, allowed_hosts=["localhost"])
    server_module.warm_up(app)
    server = waitress_server(app, "127.0.0.1", 0, threads=8,
                             security_headers=server_module.SECURITY_HEADERS,
                             max_body_bytes=server_module.MAX_BODY_BYTES,
                             socket_api=app.extensions["urlcalc_socket"])
    thread = threading.Thread(target=server.run, name="urlcalc-live-waitress", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}/", server
    finally:
        server.task_dispatcher.shutdown(timeout=1)
        server.close()  # (the loop's thread is a daemon: it ends with the process)


def launch(playwright: Any, **kwargs: Any) -> Any:
    """Debian's Chromium through Playwright (no `playwright install`)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS, **kwargs)


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname in LOCAL_HOSTS


class Offline:
    """Requests that would leave localhost, recorded: either as a route handler, which aborts
    them (``context.route("**/*", offline)``), or by watching a context's requests
    (``offline.watch(context)``), which the launch arguments above stop. Watching costs far less:
    a route sends every request of the page to this process and back (0.75 s of CPU time more
    per page load of the calculator, measured: 2.85 s against 2.1 s)."""

    def __init__(self) -> None:
        self.blocked: list[str] = []

    def watch(self, context: Any) -> None:
        context.on("request", lambda request: self._seen(request.url))

    def _seen(self, url: str) -> None:
        if not is_local(url):
            self.blocked.append(url)

    def __call__(self, route: Any) -> None:
        url = route.request.url
        if is_local(url):
            route.fallback()
        else:
            self.blocked.append(url)
            route.abort("blockedbyclient")


class PageProbe:
    """A page with everything the tests check collected: console errors, page errors,
    dialogs, and requests aborted because they would leave localhost."""

    def __init__(self, context: Any, page: Any, offline: Offline, base_url: str) -> None:
        self.context = context
        self.page = page
        self.offline = offline
        self.base_url = base_url
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.dialogs: list[str] = []
        self.attach(page)

    def attach(self, page: Any) -> None:
        page.on("console", lambda m: m.type == "error" and self.console_errors.append(m.text))
        page.on("pageerror", lambda e: self.page_errors.append(str(e)))
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def open(self, fragment: str = "", query: str = "engine=server") -> Any:
        url = self.base_url + ("?" + query if query else "") + ("#" + fragment if fragment else "")
        self.page.goto(url)
        self.page.wait_for_selector("body[data-engine]", timeout=30_000)
        return self.page

    def assert_clean(self) -> None:
        assert self.page_errors == [], self.page_errors
        assert self.console_errors == [], self.console_errors
        assert self.dialogs == [], self.dialogs
        assert self.offline.blocked == [], self.offline.blocked


def frag(**state: Any) -> str:
    """A page fragment (the page's whole state), encoded as the page encodes it: ``ops`` as
    JSON, every value percent-encoded."""
    parts = []
    for key, value in state.items():
        text = json.dumps(value) if key == "ops" else str(value)
        parts.append(f"{key}={quote(text, safe='')}")
    return "&".join(parts)
