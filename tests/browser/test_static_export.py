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

from urlcalc.export import export_static


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


def test_static_export_shows_implementations_without_a_server(browser: Any,
                                                              static_url: str) -> None:
    # The Implementations view on Pyodide alone: this browser and whatwg-url (both computed in
    # the page) and urllib (Pyodide) beside the standard; what needs the server (node, the PyPI
    # libraries) is listed as not available, with the reason.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline = Offline()
    context.route("**/*", offline)
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    page = context.new_page()
    probe = PageProbe(context, page, offline, static_url)
    try:
        page.goto(static_url + "#" + frag(input="HTTP://EXAMPLE.com:80/a/./b", view="compare"))
        expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
        # view=compare (the Browser view's old permalinks) opens Implementations
        expect(page.locator("#tab-implementations")).to_have_attribute("aria-selected", "true")
        for impl in ("browser", "whatwg-url", "urllib"):
            expect(page.locator(f"#implementations-table th[data-impl='{impl}']")).to_be_visible()
        cell = "#implementations-table td[data-impl='{}'][data-getter='{}']"
        expect(page.locator(cell.format("whatwg-url", "href"))).to_have_attribute(
            "data-value", "http://example.com/a/b")
        expect(page.locator(cell.format("browser", "href"))).to_have_attribute(
            "data-value", "http://example.com/a/b")
        expect(page.locator(cell.format("urllib", "pathname"))).to_have_attribute(
            "data-differs", "true")
        expect(page.locator(cell.format("urllib", "origin"))).to_have_text("no such notion")
        why = page.locator("#implementations-differences li[data-impl='urllib']")
        expect(why.filter(has_text="urlsplit keeps dot segments")).to_have_count(1)
        for impl in ("node", "rfc3986", "ada", "yarl"):
            item = page.locator(f"#implementations-unavailable li[data-impl='{impl}']")
            expect(item).to_contain_text("runs on the server only")
        assert page.evaluate("() => location.hash").endswith("view=implementations")
        assert not [u for u in requested if "/api/" in u], "a static export must not call the API"
        probe.assert_clean()
    finally:
        context.close()


def test_static_export_without_the_whatwg_url_bundle(browser: Any, static_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/*", Offline())
    context.route("**/vendor/whatwg-url.mjs", lambda route: route.abort())
    page = context.new_page()
    try:
        page.goto(static_url + "#" + frag(input="https://a/", view="implementations"))
        item = page.locator("#implementations-unavailable li[data-impl='whatwg-url']")
        expect(item).to_contain_text("not available: the whatwg-url bundle did not load",
                                     timeout=60_000)
        expect(page.locator("#implementations-table th[data-impl='urllib']")).to_be_visible()
    finally:
        context.close()
