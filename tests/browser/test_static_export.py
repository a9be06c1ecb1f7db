"""`urlcalc export-static DIR` served by a plain static file server (Python's http.server: no
API, no CSP, nothing computed server-side): the page boots Pyodide and answers from it alone."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from liveserver import Offline, PageProbe, frag
from playwright.sync_api import expect

from urlcalc.server import export_static


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def static_url(tmp_path_factory: pytest.TempPathFactory, server_url: str) -> Iterator[str]:
    # server_url: only so that this module needs Chromium as the others do
    out = export_static(tmp_path_factory.mktemp("export") / "site")
    httpd = ThreadingHTTPServer(("127.0.0.1", 0),
                                functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_static_export_runs_on_pyodide_alone(browser: Any, static_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline = Offline()
    context.route("**/*", offline)
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    page = context.new_page()
    probe = PageProbe(context, page, offline, static_url)
    try:
        page.goto(static_url + "#" + frag(input="HTTP://EXAMPLE.com:80/a/../b"))
        expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
        expect(page.locator('[data-getter="href"]').first).to_have_text("http://example.com/b")
        page.fill("#input", "https://faß.example/")
        expect(page.locator('[data-getter="href"]').first).to_have_text(
            "https://xn--fa-hia.example/")
        # the trace too: Steps, from Pyodide
        page.click("#tab-steps")
        expect(page.locator("#step-list [data-state='scheme start state']").first).to_be_visible()
        assert not [u for u in requested if "/api/" in u], "a static export must not call the API"
        assert offline.blocked == []
        probe.assert_clean()
    finally:
        context.close()
