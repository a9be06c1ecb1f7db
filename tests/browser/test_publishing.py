"""Where the page runs and where its links point, on a page served by urlcalc (the static export
and a page opened from a file: tests/browser/test_static_export.py).

- served with a public URL (`urlcalc serve --public-url`, the shared test server): the top bar
  says "served", Copy as Markdown and Copy as WPT entry link to the public URL;
- served on loopback without one: the copies carry no link (a loopback link is dead for anyone
  else), and the copy dialog says so and why;
- the rule for the page's own address (state/permalink.js) on a table of host names."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from liveserver import PUBLIC_URL, Offline, PageProbe, frag, live_server
from playwright.sync_api import expect


def test_served_page_links_to_its_public_url(probe: PageProbe) -> None:
    probe.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = probe.open(frag(input="https://example.com/a?b#c"))
    expect(page.locator("body")).to_have_attribute("data-where", "served")
    expect(page.locator("#where .where-served")).to_have_text("served · API + Pyodide")
    expect(page.locator("#where .where-static")).to_be_hidden()
    expect(page.locator("#where .where-file")).to_be_hidden()
    page.click("#copy-md")
    expect(page.locator("#toast")).to_contain_text("copied to the clipboard")
    md = page.evaluate("navigator.clipboard.readText()")
    links = re.findall(r"\[permalink\]\(([^)]*)\)", md)
    assert len(links) == 1 and links[0].startswith(PUBLIC_URL + "#input="), md
    assert "127.0.0.1" not in md
    page.click("#copy-wpt")
    entry = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert entry["comment"] == "urlcalc: " + links[0]
    page.keyboard.press("Escape")
    page.keyboard.press("4")  # the setters lab: setters_tests.json entries
    page.select_option("#op-preset", index=1)
    expect(page.locator("#set-results .op-card")).to_have_count(1)
    page.click("#copy-wpt")
    tests = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert len(tests["comment"]) == 1, tests
    assert tests["comment"][0].startswith("urlcalc: " + PUBLIC_URL + "#input="), tests
    assert tests["protocol"][0]["new_value"] == "mailto"
    expect(page.locator("#copy-dialog")).not_to_be_visible()
    probe.assert_clean()


@pytest.fixture(scope="module")
def loopback_url(server_url: str) -> Iterator[str]:
    """A second server that knows no public URL (as `make serve` runs)."""
    with live_server(public_url=None) as url:
        yield url


def test_served_page_without_public_url_says_so_in_the_copy_dialog(
        browser: Any, loopback_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    offline = Offline()
    offline.watch(context)
    page = context.new_page()
    probe = PageProbe(context, page, offline, loopback_url)
    try:
        page = probe.open(frag(input="https://example.com/"))
        expect(page.locator("body")).to_have_attribute("data-where", "served")
        page.click("#copy-md")
        dialog = page.locator("#copy-dialog")
        expect(dialog).to_be_visible()
        expect(page.locator("#copy-no-link")).to_be_visible()
        expect(page.locator("#copy-no-link")).to_contain_text("This copy has no link")
        expect(page.locator("#copy-here")).to_have_text(loopback_url)
        expect(page.locator("#copy-no-clipboard")).to_be_hidden()  # the clipboard did work
        md = page.evaluate("navigator.clipboard.readText()")
        assert page.locator("#copy-text").input_value() == md
        assert "| href | `https://example.com/` |" in md
        assert "permalink" not in md and "127.0.0.1" not in md and "http://" not in md, md
        page.keyboard.press("Escape")
        expect(dialog).not_to_be_visible()
        page.click("#copy-wpt")
        expect(page.locator("#copy-no-link")).to_be_visible()
        entry = json.loads(page.evaluate("navigator.clipboard.readText()"))
        assert "comment" not in entry and entry["href"] == "https://example.com/"
        page.keyboard.press("Escape")
        probe.assert_clean()
    finally:
        context.close()


PERMALINK_RULES = """async (cases) => {
  const { isLocalAddress, permalinkBase } = await import("./js/state/permalink.js");
  const local = Object.fromEntries(cases.map((h) => [h, isLocalAddress(h)]));
  const at = (href) => { const u = new URL(href); return permalinkBase({ publicUrl: null }, u); };
  return {
    local,
    bases: {
      public: at("https://urlcalc.example.org/calc/index.html?engine=server"),
      lan: at("http://192.168.1.20:8000/"),
      file: at("file:///home/me/site/index.html"),
      configured: permalinkBase({ publicUrl: "https://x.example.net/u/" }, new URL("http://127.0.0.1:8000/")),
    },
  };
}"""

LOCAL = ["localhost", "127.0.0.1", "127.8.9.1", "10.1.2.3", "172.16.0.1", "172.31.255.255",
         "192.168.0.10", "169.254.1.1", "100.64.0.1", "0.0.0.0", "[::1]", "[fd12::1]",
         "[fe80::1]", "mybox", "printer.local", "app.localhost", "db.internal", "nas.home.arpa"]
PUBLIC = ["example.org", "urlcalc.example.org", "8.8.8.8", "172.32.0.1", "192.169.0.1",
          "[2001:db8::1]", "user.github.io"]


def test_permalink_base_rules(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/"))
    got = page.evaluate(PERMALINK_RULES, LOCAL + PUBLIC)
    assert [h for h in LOCAL if not got["local"][h]] == []
    assert [h for h in PUBLIC if got["local"][h]] == []
    assert got["bases"] == {
        "public": "https://urlcalc.example.org/calc/index.html",
        "lan": None,
        "file": None,
        "configured": "https://x.example.net/u/",
    }
    probe.assert_clean()
