"""Cross-origin isolation on a static host (web/js/engine/isolation.js, web/isolation-worker.js): a
static export served by `python -m http.server` (no header of ours) registers the site's service
worker and reloads once, after which the page is cross-origin isolated and a keystroke's answer is
taken in the keystroke's own task, as on the served page; a second visit needs no reload; the guards
(no second reload, none after the user typed, none where registering fails) leave a page that works
as before and says why it is not isolated; the served page, isolated by its headers, registers
nothing."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from liveserver import Offline, PageProbe, frag, is_local
from playwright.sync_api import expect
from test_speed import SAME_TASK

from benchmarks.serve import static_server
from urlcalc import cli

# Counts the documents a tab has loaded (sessionStorage lives as long as the tab): 2 after one
# reload. Runs before the page's scripts, in every document.
DOCUMENTS = """
try {
  const n = Number(sessionStorage.getItem("test-documents") || 0) + 1;
  sessionStorage.setItem("test-documents", String(n));
  window.__documents = n;
} catch (e) {
  // about:blank
}
"""
ISOLATION = """() => ({
  documents: window.__documents,
  isolated: self.crossOriginIsolated,
  info: window.urlcalc.engine.info.isolation,
  sync: window.urlcalc.engine.sync,
  shown: document.getElementById("engine-answer").dataset.isolation,
  title: document.getElementById("engine-answer").title,
})"""
# A service worker that installs and controls the page but adds no header: the page reloads
# once through it and is still not isolated.
NO_HEADERS_WORKER = """
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", () => {});
"""


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, server_url: str) -> Path:
    # server_url: only so that this module needs Chromium as the others do
    out = tmp_path_factory.mktemp("isolation") / "site"
    assert cli.main(["export-static", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def static_url(exported: Path) -> Iterator[str]:
    with static_server(exported) as url:
        yield url


@pytest.fixture(scope="module")
def no_headers_url(exported: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same export (hard links) with a service worker that adds no headers."""
    out = tmp_path_factory.mktemp("no-headers") / "site"
    shutil.copytree(exported, out, copy_function=os.link)
    (out / "isolation-worker.js").unlink()
    (out / "isolation-worker.js").write_text(NO_HEADERS_WORKER, encoding="utf-8")
    with static_server(out) as url:
        yield url


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh context (no service worker registered yet) whose requests must stay local."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(DOCUMENTS)
    try:
        yield context
    finally:
        context.close()


def offline(context: Any) -> tuple[Offline, list[str]]:
    blocked = Offline()
    blocked.watch(context)
    requested: list[str] = []
    context.on("request", lambda r: requested.append(r.url))
    return blocked, requested


def booted(page: Any, href: str) -> None:
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
    expect(page.locator("#href-view")).to_have_text(href)


def visit(context: Any, blocked: Any, site: str, input: str, href: str
          ) -> tuple[Any, PageProbe, dict[str, Any]]:
    """A new tab on `site` with `input`, once Pyodide shows `href`: (page, probe, ISOLATION)."""
    page = context.new_page()
    probe = PageProbe(context, page, blocked, site)
    page.goto(site + "#" + frag(input=input))
    booted(page, href)
    return page, probe, page.evaluate(ISOLATION)


def test_a_first_visit_reloads_once_and_is_isolated(context: Any, static_url: str) -> None:
    blocked, requested = offline(context)
    page, probe, got = visit(context, blocked, static_url, "HTTP://EXAMPLE.com:80/a/../b",
                             "http://example.com/b")
    assert got["documents"] == 2, got  # exactly one reload
    assert got["isolated"] is True and got["sync"]["available"] is True, got
    assert got["info"] == {"by": "service worker", "reason": None}, got
    assert got["shown"] == "service-worker" and "service worker" in got["title"], got
    # a keystroke's call is settled in its own task, from the shared buffer
    same = page.evaluate(SAME_TASK, 20_000)
    assert same["settled"] is True and same["taken"] == 1, same
    assert same["href"] == "http://example.com/b" and same["engine"] == "pyodide", same
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("c", delay=50)
    expect(page.locator("#href-view")).to_have_text("http://example.com/bc")
    # the first document started no Pyodide boot: the worker asked for boot.json once
    assert sum(u == static_url + "boot.json" for u in requested) == 1, requested
    assert all(is_local(u) for u in requested), requested
    probe.assert_clean()

    # a second visit in the same browser: controlled from its first request, no reload
    _, probe, got = visit(context, blocked, static_url, "https://a.example/x",
                          "https://a.example/x")
    assert got["documents"] == 1 and got["isolated"] is True, got
    assert got["info"]["by"] == "service worker" and got["sync"]["available"] is True, got
    assert blocked.blocked == []
    probe.assert_clean()


def test_a_worker_that_brings_no_isolation_reloads_once_only(context: Any,
                                                             no_headers_url: str) -> None:
    blocked, requested = offline(context)
    page, probe, got = visit(context, blocked, no_headers_url, "https://example.com/a",
                             "https://example.com/a")
    assert got["documents"] == 2 and got["isolated"] is False, got
    assert got["info"]["by"] is None and "still not isolated" in got["info"]["reason"], got
    assert got["sync"]["available"] is False and got["shown"] == "none", got
    assert "not cross-origin isolated" in got["title"], got
    # it still answers (by message)
    page.fill("#input", "https://example.com/b")
    expect(page.locator("#href-view")).to_have_text("https://example.com/b")
    # the user's own reload: no further reload of the page's own
    page.wait_for_function("() => location.hash.includes('example.com%2Fb')")
    page.reload()
    booted(page, "https://example.com/b")
    page.wait_for_timeout(500)
    got = page.evaluate(ISOLATION)
    assert got["documents"] == 3 and "still not isolated" in got["info"]["reason"], got
    assert all(is_local(u) for u in requested), requested
    probe.assert_clean()


@pytest.mark.parametrize(("how", "why"), [
    ("missing", "could not be registered"),  # its script is a 404: register() rejects
    ("blocked", "not ready within"),  # Playwright's service_workers="block": never settles
])
def test_a_worker_that_cannot_start_leaves_the_page_as_it_was(browser: Any, static_url: str,
                                                              how: str, why: str) -> None:
    context = browser.new_context(service_workers="block" if how == "blocked" else "allow")
    context.add_init_script(DOCUMENTS)
    blocked, requested = offline(context)
    if how == "missing":
        context.route("**/isolation-worker.js", lambda route: route.fulfill(status=404))
    try:
        _, probe, got = visit(context, blocked, static_url, "https://example.com/a",
                              "https://example.com/a")
        assert got["documents"] == 1 and got["isolated"] is False, got
        assert got["info"]["by"] is None and why in got["info"]["reason"], got
        assert got["sync"]["available"] is False and got["shown"] == "none", got
        assert got["info"]["reason"] in got["title"], got
        assert all(is_local(u) for u in requested), requested
        # the browser's own report of the 404 is the only message
        probe.console_errors = [e for e in probe.console_errors
                                if not (how == "missing" and "(404)" in e)]
        probe.assert_clean()
    finally:
        context.close()


def test_typing_before_the_worker_is_ready_is_kept(context: Any, static_url: str) -> None:
    """The service worker's script is held back until the user has typed: the page does not
    reload (the typed text stays), Pyodide starts at once and answers it; the next visit is
    isolated."""
    blocked, _ = offline(context)
    held: list[Any] = []
    context.route("**/isolation-worker.js", lambda route: held.append(route))
    page = context.new_page()
    probe = PageProbe(context, page, blocked, static_url)
    page.goto(static_url)
    page.wait_for_function("() => window.urlcalc && window.urlcalcIsolation.pending === true")
    page.fill("#input", "https://typed.example/")
    page.wait_for_function("() => window.urlcalcIsolation.pending === false")
    assert held, "the service worker's script was not asked for"
    for route in held:
        route.fallback()
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    booted(page, "https://typed.example/")
    page.wait_for_timeout(500)  # a reload would come now
    got = page.evaluate(ISOLATION)
    assert got["documents"] == 1 and got["isolated"] is False, got
    assert "typed" in got["info"]["reason"], got
    assert page.input_value("#input") == "https://typed.example/"
    probe.assert_clean()

    again = context.new_page()
    again.goto(static_url + "#" + frag(input="https://a.example/"))
    booted(again, "https://a.example/")
    got = again.evaluate(ISOLATION)
    assert got["documents"] == 1 and got["isolated"] is True, got


def test_the_served_page_registers_no_service_worker(probe: PageProbe) -> None:
    """`urlcalc serve` sends the headers: the page is isolated by them and registers nothing."""
    requested: list[str] = []
    probe.context.on("request", lambda r: requested.append(r.url))
    page = probe.open(frag(input="https://example.com/"), query="engine=pyodide")
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=60_000)
    got = page.evaluate(ISOLATION)
    assert got["isolated"] is True and got["info"] == {"by": "headers", "reason": None}, got
    assert got["shown"] == "headers" and "the server's headers" in got["title"], got
    assert page.evaluate("() => navigator.serviceWorker.getRegistrations()"
                         ".then((r) => r.length)") == 0
    assert not [u for u in requested if "isolation-worker" in u], requested
    probe.assert_clean()
