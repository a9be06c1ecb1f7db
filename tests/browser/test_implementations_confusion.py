"""The Implementations view's confusion classes and allowed-host findings (issue 30): the host
row flags a host disagreement with its class (its definition from facts.js as the title) and an
allowlist test fooled by the implementation's hostname; the Confusion section lists the host
disagreements first, and the answer's naive allowlist tests with their code; a hostname from the
URL reaches the page as text only."""

from __future__ import annotations

import pytest
from liveserver import PageProbe, frag

from urlcalc.model.confusion import CONFUSION_CLASSES, NAIVE_CHECKS

playwright_sync = pytest.importorskip("playwright.sync_api")
expect = playwright_sync.expect

BACKSLASH = "http://evil.com\\@good.com/"


def test_host_row_flags_and_the_confusion_section(probe: PageProbe) -> None:
    page = probe.open(frag(input=BACKSLASH, view="implementations"))
    table = page.locator("#implementations-table")
    flag = table.locator("td[data-impl='urllib'][data-getter='host'] .host-flag")
    expect(flag).to_have_attribute("data-confusion", "backslash-confusion")
    expect(flag).to_have_attribute("data-allowed", "good.com")
    expect(flag).to_contain_text("Backslash confusion")
    expect(flag).to_contain_text("allowlist: good.com")
    definition = next(c["definition"] for c in CONFUSION_CLASSES
                      if c["id"] == "backslash-confusion")
    expect(flag.locator(".pill").first).to_have_attribute("title", definition)
    # rfc3986 differs on the path only: no flag on its host row; the standard's columns none
    expect(table.locator("td[data-impl='rfc3986'][data-getter='host'] .host-flag")).to_have_count(0)
    expect(table.locator("td[data-impl='ada'][data-getter='host'] .host-flag")).to_have_count(0)

    # host disagreements first (yarl refuses it, urllib reads good.com; rfc3986's path differs),
    # though rfc3986's column comes before yarl's
    items = page.locator("#implementations-confusion li[data-impl]")
    expect(items).to_have_count(3)
    assert items.evaluate_all("els => els.map(e => [e.dataset.impl, e.dataset.host])") == [
        ["urllib", "true"], ["yarl", "true"], ["rfc3986", "false"]]
    expect(items.first).to_contain_text("an allowlist test on its hostname accepts")
    expect(items.first).to_contain_text("urlsplit(url).hostname == H")
    diffs = page.locator("#implementations-differences li[data-impl]")
    assert diffs.first.get_attribute("data-impl") != "rfc3986"
    assert diffs.last.get_attribute("data-impl") == "rfc3986"

    # the naive tests the input fools, with their code from facts.js
    code = {c["id"]: c["code"] for c in NAIVE_CHECKS}
    found = page.locator("#implementations-allowed-host li[data-check]")
    expect(found).to_have_count(3)
    for check in ("urlsplit-hostname", "substring", "netloc-endswith"):
        line = found.locator(f"xpath=self::*[@data-check='{check}']")
        expect(line).to_contain_text(code[check])
        expect(line).to_contain_text('"good.com"')
        expect(line).to_contain_text('"evil.com"')

    # an input where they all agree: nothing flagged, and the lists say so
    page.fill("#input", "https://example.com/a")
    expect(page.locator("#implementations-allowed-host li.muted")).to_be_visible()
    expect(page.locator("#implementations-confusion li[data-impl]")).to_have_count(0)
    expect(page.locator("#implementations-table .host-flag")).to_have_count(0)
    probe.assert_clean()


def test_a_hostname_from_the_url_is_text(probe: PageProbe) -> None:
    hostile = "http://evil.com\\@<img src=x onerror=alert(1)>.com/"
    page = probe.open(frag(input=hostile, view="implementations"))
    flag = page.locator("td[data-impl='urllib'][data-getter='host'] .host-flag")
    expect(flag).to_have_attribute("data-allowed", "<img src=x onerror=alert(1)>.com")
    expect(flag).to_contain_text("allowlist: <img src=x onerror=alert(1)>.com")
    line = page.locator("#implementations-confusion li[data-impl='urllib']")
    expect(line).to_contain_text("<img src=x onerror=alert(1)>.com")
    expect(page.locator("#panel-implementations img")).to_have_count(0)
    probe.assert_clean()  # no dialog, no error
