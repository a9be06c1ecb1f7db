"""`urlcalc export-static DIR --public-url URL` served by a plain static file server
(`python -m http.server`: no API, no header of ours, nothing computed server-side): the page
boots Pyodide and answers from it alone, says it is a static site, its copies link to the public
URL, the CSP it carries in a <meta> element is in force, and its Implementations view works
without a server. The same folder opened from a file says so in the top bar."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from liveserver import Offline, PageProbe, frag
from playwright.sync_api import expect

from benchmarks.serve import static_server
from urlcalc import cli
from urlcalc.site.export import meta_csp

PUBLIC_URL = "https://calc.example.org/tools/urlcalc/"


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, server_url: str) -> Path:
    # server_url: only so that this module needs Chromium as the others do
    out = tmp_path_factory.mktemp("export") / "site"
    assert cli.main(["export-static", str(out), "--public-url", PUBLIC_URL]) == 0
    return out


@pytest.fixture(scope="module")
def static_url(exported: Path) -> Iterator[str]:
    """`python -m http.server` on a free port, serving the export."""
    with static_server(exported) as url:
        yield url


def test_static_export_runs_on_pyodide_alone(browser: Any, static_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    offline = Offline()
    offline.watch(context)
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    page = context.new_page()
    probe = PageProbe(context, page, offline, static_url)
    try:
        page.goto(static_url + "#" + frag(input="HTTP://EXAMPLE.com:80/a/../b"))
        expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
        expect(page.locator('[data-getter="href"]').first).to_have_text("http://example.com/b")
        # the top bar says where the page runs
        expect(page.locator("body")).to_have_attribute("data-where", "static")
        expect(page.locator("#where .where-static")).to_have_text("static site · Pyodide only")
        expect(page.locator("#where .where-served")).to_be_hidden()
        page.fill("#input", "https://faß.example/")
        expect(page.locator('[data-getter="href"]').first).to_have_text(
            "https://xn--fa-hia.example/")
        # the trace too: Steps, from Pyodide
        page.click("#tab-steps")
        expect(page.locator("#step-list [data-state='scheme start state']").first).to_be_visible()
        # the copies link to the public URL, not to this loopback server
        page.click("#tab-components")
        page.click("#copy-md")
        expect(page.locator("#toast")).to_contain_text("copied to the clipboard")
        md = page.evaluate("navigator.clipboard.readText()")
        links = re.findall(r"\[permalink\]\(([^)]*)\)", md)
        assert len(links) == 1 and links[0].startswith(PUBLIC_URL + "#input="), md
        assert "127.0.0.1" not in md
        expect(page.locator("#copy-dialog")).not_to_be_visible()
        assert "input=" + quote("https://faß.example/", safe="") in links[0]
        page.click("#copy-wpt")
        entry = json.loads(page.evaluate("navigator.clipboard.readText()"))
        assert entry["comment"] == "urlcalc: " + links[0]
        assert entry["input"] == "https://faß.example/"
        assert entry["href"] == "https://xn--fa-hia.example/"
        assert not [u for u in requested if "/api/" in u], "a static export must not call the API"
        assert offline.blocked == []
        probe.assert_clean()
        # http.server sends no CSP: the page's <meta> element carries it, and it is in force
        content = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
        assert content == meta_csp() and "frame-ancestors" not in content
        ran = page.evaluate("""() => {
          const s = document.createElement("script");
          s.textContent = "window.__inlineRan = true";
          document.head.append(s);
          return window.__inlineRan === true;
        }""")
        assert ran is False, "an inline script ran: the <meta> CSP is not in force"
    finally:
        context.close()


def test_static_export_opened_from_a_file(browser: Any, exported: Path) -> None:
    """Browsers load no module script or worker from file: URLs: the classic script says so."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page_errors: list[str] = []
    page.on("pageerror", lambda e: page_errors.append(str(e)))
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    try:
        page.goto((exported / "index.html").as_uri())
        expect(page.locator("body")).to_have_attribute("data-where", "file")
        expect(page.locator("#where .where-file")).to_have_text("opened from a file · cannot run")
        expect(page.locator("#where .where-static")).to_be_hidden()
        expect(page.locator("#request-error")).to_contain_text("python3 -m http.server")
        expect(page.locator("#engine-answer")).to_have_text("no engine")
        assert page_errors == []
        assert all(u.startswith(("file:", "data:")) for u in requested), requested
    finally:
        context.close()


def test_static_export_shows_implementations_without_a_server(browser: Any,
                                                              static_url: str) -> None:
    # The Implementations view on Pyodide alone: this browser and whatwg-url (both computed in
    # the page) and urllib (Pyodide) beside the standard; what needs the server (node, the PyPI
    # libraries) is listed as not available, with the reason.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline = Offline()
    offline.watch(context)
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
    Offline().watch(context)
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
