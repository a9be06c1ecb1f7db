"""The Implementations view served by urlcalc: every implementation's column (the page's own
two, computed in JavaScript, and the server's), differences highlighted with their explanations,
the whatwg-url bundle loaded under the page's CSP (no violation: it evaluates no string), and
old Browser-view permalinks (view=compare) opening it. The static export's columns are tested in
test_static_export.py."""

from __future__ import annotations

import pytest
from liveserver import PageProbe, frag

from urlcalc.implementations.node_adapter import WHATWG_URL

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

SERVER_COLUMNS = ("browser", "whatwg-url", "node", "ada", "urllib", "rfc3986", "yarl")


@pytest.mark.skipif(WHATWG_URL.unavailable() is not None, reason="node helper not available")
def test_every_implementation_beside_the_standard(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://faß.example:80/a/./b", view="compare"), query="")
    expect(page.locator("#tab-implementations")).to_have_attribute("aria-selected", "true")
    table = page.locator("#implementations-table")
    for impl in SERVER_COLUMNS:
        expect(table.locator(f"th[data-impl='{impl}']")).to_be_visible()
    # the page's own columns say so
    expect(table.locator("th[data-impl='whatwg-url']")).to_contain_text("in this page")
    expect(table.locator("th[data-impl='node']")).not_to_contain_text("in this page")
    cell = "td[data-impl='{}'][data-getter='{}']"
    for impl in ("whatwg-url", "node", "ada"):
        expect(table.locator(cell.format(impl, "href"))).to_have_attribute(
            "data-value", "http://xn--fa-hia.example/a/b")
        expect(table.locator(cell.format(impl, "href"))).to_have_text("=", use_inner_text=True)
    urllib_host = table.locator(cell.format("urllib", "hostname"))
    expect(urllib_host).to_have_attribute("data-differs", "true")
    expect(urllib_host).to_contain_text("faß.example")
    expect(table.locator(cell.format("rfc3986", "href"))).to_have_text("fails")
    why = page.locator("#implementations-differences")
    no_idna = why.locator("li[data-impl='urllib']").filter(has_text="has no IDNA")
    expect(no_idna.first).to_be_visible()
    expect(why.locator("li[data-impl='rfc3986']").filter(
        has_text="RFC 3986 URIs are ASCII")).to_have_count(1)
    summary = page.locator("#implementations-summary")
    # yarl normalises all of it (IDNA, default port, dot segments) as the standard does
    expect(summary).to_have_attribute("data-differing", "2")
    expect(summary).to_contain_text("urllib.parse, rfc3986")
    # "show every value" shows the values the same as the standard's
    page.check("#implementations-all")
    expect(table.locator(cell.format("node", "hostname"))).to_contain_text("xn--fa-hia.example")
    # the WPT scores, and a note per implementation
    expect(page.locator("#implementations-wpt-table tr[data-impl='whatwg-url']")).to_contain_text(
        "891 / 891")
    expect(page.locator("#implementations-about details[data-impl='yarl']")).to_contain_text(
        "1.25.1")
    probe.assert_clean()  # no CSP violation from the bundle, no console error


def test_the_server_answers_even_when_pyodide_is_ready(probe: PageProbe) -> None:
    # Pyodide runs only urllib: the view asks the server, which runs them all
    page = probe.open(frag(input="https://a/", view="implementations"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    page.fill("#input", "https://b/")
    expect(page.locator("#implementations-table th[data-impl='rfc3986']")).to_be_visible()
    expect(page.locator("td[data-impl='rfc3986'][data-getter='href']")).to_have_attribute(
        "data-value", "https://b/")
    expect(page.locator("#implementations-unavailable li[data-impl='rfc3986']")).to_have_count(0)
    probe.assert_clean()


def test_the_server_relay_brings_the_servers_answer_for_the_keystrokes_frame(
        probe: PageProbe) -> None:
    """A served page is cross-origin isolated: the Implementations call goes to the server from
    the server relay worker (a synchronous request there) and the page waits for it in the shared
    buffer, with whatwg-url's reading (sync-channel.js). When the relay's request fails, the
    page asks the server itself: the view still shows the server's columns."""
    page = probe.open(frag(input="https://a/", view="implementations"), query="")
    page.wait_for_function("() => window.urlcalc.engine.current === 'pyodide'", timeout=60_000)
    expect(page.locator("td[data-impl='whatwg-url'][data-getter='href']")).to_have_attribute(
        "data-value", "https://a/")  # the whatwg-url bundle has loaded
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    before = page.evaluate("() => window.urlcalc.engine.sync")
    page.locator("#input").press("End")
    page.locator("#input").press_sequentially("b", delay=50)
    expect(page.locator("td[data-impl='ada'][data-getter='href']")).to_have_attribute(
        "data-value", "https://a/b")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    after = page.evaluate("() => window.urlcalc.engine.sync")
    # (whether the page's wait caught it in time depends on the machine: not asserted)
    assert after["relays"] > before["relays"], (before, after)

    # the worker's request fails once: the page's own request brings the answer
    failed: list[str] = []

    def fail_once(route: object) -> None:
        if not failed:
            failed.append(route.request.url)  # type: ignore[attr-defined]
            route.fulfill(status=500, content_type="application/json",  # type: ignore[attr-defined]
                          body='{"error": "relay test"}')
        else:
            route.continue_()  # type: ignore[attr-defined]

    page.route("**/api/implementations", fail_once)
    page.locator("#input").press_sequentially("c", delay=50)
    expect(page.locator("td[data-impl='ada'][data-getter='href']")).to_have_attribute(
        "data-value", "https://a/bc")
    assert len(failed) == 1
    assert page.evaluate("() => window.urlcalc.engine.sync.relays") == after["relays"]
    expect(page.locator("#implementations-error")).to_be_hidden()
    probe.console_errors = [m for m in probe.console_errors if "500" not in m]
    probe.assert_clean()
