"""Fixtures for the browser tests: one live server and one Chromium per session, a fresh offline
context per test (every request that would leave localhost is aborted and counted)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from liveserver import CHROMIUM, PUBLIC_URL, Offline, PageProbe, launch, live_server

sys.path.insert(0, str(Path(__file__).parent.parent))
from required import import_or_missing, missing

playwright_sync = import_or_missing("playwright.sync_api", "pip install playwright (make venv)")

# Reports CSP violations (and any other securitypolicyviolation) to the console, where the
# page fixture collects them; runs before the page's own scripts.
CSP_PROBE = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI);
  console.error("CSP violation: " + e.violatedDirective + " " + e.blockedURI);
});
"""


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    if not Path(CHROMIUM).exists():
        missing(f"{CHROMIUM} is missing (make test installs Debian's chromium)")
    with live_server(public_url=PUBLIC_URL) as url:
        yield url


@pytest.fixture(scope="session")
def browser(server_url: str) -> Iterator[Any]:
    with playwright_sync.sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def probe(browser: Any, server_url: str) -> Iterator[PageProbe]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    offline = Offline()
    offline.watch(context)
    context.add_init_script(CSP_PROBE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield PageProbe(context, page, offline, server_url)
    finally:
        context.close()
