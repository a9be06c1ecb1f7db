"""Is this in WPT? (issue 29 item 3): the Components view's panel says whether the WPT URL data
has the input typed (exactly, or modulo case and percent-encoding) or else lists the nearest
entries with why each is near; the Copy-as-WPT export says when its entry would be a duplicate.
The panel is a disclosure, closed at first: it asks only once opened (tests/browser/test_speed.py:
closed, typing asks for nothing but the parse). The entries named are checked against
tests/data/wpt."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from liveserver import PageProbe, frag
from playwright.sync_api import Page, expect

WPT = Path(__file__).resolve().parents[1] / "data" / "wpt"
URLTESTDATA: list[Any] = json.loads((WPT / "urltestdata.json").read_text("utf-8"))


def index_of(input: str, base: str | None = None) -> int:
    return next(i for i, e in enumerate(URLTESTDATA) if isinstance(e, dict)
                and e["input"] == input and e.get("base") == base)


# Logs the kinds of the engine's calls (window.__kinds) from now on.
SPY = """() => {
  const engine = window.urlcalc.engine;
  const real = engine.call;
  window.__kinds = [];
  engine.call = (kind, params, options) => {
    window.__kinds.push(kind);
    return real(kind, params, options);
  };
}"""


def open_panel(page: Page) -> None:
    """Open the closed "Is this in WPT?" disclosure."""
    details = page.locator("#in-wpt details")
    expect(details).not_to_have_attribute("open", "")
    page.click("#in-wpt summary")
    expect(details).to_have_attribute("open", "")


def test_the_panel_asks_only_once_opened_and_then_follows_the_input(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://a b/"))
    expect(page.locator("#in-wpt summary")).to_have_text("Is this in WPT?")
    expect(page.locator("#in-wpt .wpt-summary")).to_have_count(0)
    page.evaluate(SPY)
    page.fill("#input", "http://1.2.3.4.5.6/")
    expect(page.locator("#href-view #failure-box")).to_contain_text("IPv4")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    assert "wpt" not in page.evaluate("() => window.__kinds")
    open_panel(page)
    summary = page.locator("#in-wpt .wpt-summary")
    expect(summary).to_have_attribute("data-verdict", "none")
    assert page.evaluate("() => window.__kinds").count("wpt") == 1
    # open, it follows the input (the Components view drawn anew keeps it open)
    page.fill("#input", "http://a b/")
    expect(summary).to_have_attribute("data-verdict", "exact")
    expect(page.locator("#in-wpt details")).to_have_attribute("open", "")
    # closed again: typing asks nothing more
    page.click("#in-wpt summary")
    expect(page.locator("#in-wpt details")).not_to_have_attribute("open", "")
    asked = page.evaluate("() => window.__kinds").count("wpt")
    page.fill("#input", "http://example.com/")
    expect(page.locator("#href-view")).to_have_text("http://example.com/")
    page.wait_for_function("() => window.urlcalc.engine.busy === 0")
    assert page.evaluate("() => window.__kinds").count("wpt") == asked
    probe.assert_clean()


def test_a_wpt_input_is_in_wpt_exactly_and_a_new_one_gets_its_nearest(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://a b/"))
    open_panel(page)
    summary = page.locator("#in-wpt .wpt-summary")
    n = index_of("http://a b/")
    expect(summary).to_have_text(f"In WPT: exactly (urltestdata.json #{n})")
    expect(summary).to_have_attribute("data-verdict", "exact")
    hit = page.locator(f'#in-wpt .wpt-exact li[data-index="{n}"]')
    expect(hit.locator(".wpt-input")).to_have_text("http://a b/")
    expect(hit).to_contain_text("failure")
    # typed: a new input, failing at the same step as entries WPT has
    page.fill("#input", "http://1.2.3.4.5.6/")
    expect(summary).to_have_attribute("data-verdict", "none")
    expect(summary).to_contain_text(re.compile(r"^Not in WPT; nearest: urltestdata\.json #\d+"))
    near = page.locator("#in-wpt .wpt-nearest li")
    expect(near.first).to_contain_text("the same failure: IPv4 parser, step 4")
    first = int(near.first.get_attribute("data-index") or "-1")
    assert URLTESTDATA[first].get("failure") is True
    # a case and percent-encoding variant
    page.fill("#input", "HTTP://EXAMPLE.COM/%66oo")
    expect(summary).to_have_attribute("data-verdict", "variant")
    expect(summary).to_contain_text(f"#{index_of('http://example.com/foo')}")
    # a URL's text is text: no markup from it
    page.fill("#input", "http://<b>x</b>/")
    expect(summary).to_have_attribute("data-verdict", "none")
    assert page.locator("#in-wpt b, #in-wpt script").count() == 0
    probe.assert_clean()


def test_setter_and_idna_entries(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://faß.de/"))
    open_panel(page)
    idna = page.locator("#in-wpt .wpt-idna li")
    expect(idna.first).to_have_attribute("data-match", "exact")
    expect(page.locator('#in-wpt .wpt-idna li[data-file="toascii.json"]').first
           ).to_contain_text("xn--fa-hia.de")
    page.fill("#input", "http://example.com/")
    expect(page.locator('#in-wpt .wpt-setters li[data-file="setters_tests.json"]').first
           ).to_be_visible()
    probe.assert_clean()


def test_pyodide_answers_alike(probe: PageProbe) -> None:
    # the server answers first; once Pyodide has booted (from the snapshot) it answers
    page = probe.open(frag(input="http://example.com/"), query="")
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=120_000)
    open_panel(page)
    page.fill("#input", "http://a b/")
    expect(page.locator("#in-wpt .wpt-summary")).to_have_text(
        f"In WPT: exactly (urltestdata.json #{index_of('http://a b/')})", timeout=30_000)
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide")
    probe.assert_clean()


def test_the_copy_as_wpt_export_says_when_it_is_a_duplicate(probe: PageProbe) -> None:
    probe.context.grant_permissions(["clipboard-read", "clipboard-write"])
    # the panel stays closed: the export asks for itself
    page = probe.open(frag(input="http://a b/"))
    n = index_of("http://a b/")
    expect(page.locator("#href-view #failure-box")).to_contain_text("domain parser")
    page.click("#copy-wpt")
    expect(page.locator("#toast")).to_have_text(
        f"urltestdata.json entry copied; already in WPT: urltestdata.json #{n}.")
    assert json.loads(page.evaluate("navigator.clipboard.readText()"))["input"] == "http://a b/"
    # a new entry: no such note
    page.fill("#input", "http://1.2.3.4.5.6/")
    expect(page.locator("#href-view #failure-box")).to_contain_text("IPv4")
    page.click("#copy-wpt")
    expect(page.locator("#toast")).to_have_text("urltestdata.json entry copied to the clipboard.")
    # where the dialog opens (no clipboard), the note is in it
    page.fill("#input", "http://a b/")
    expect(page.locator("#href-view #failure-box")).to_contain_text("domain parser")
    page.evaluate("() => { Object.defineProperty(navigator, 'clipboard', {value: undefined}); }")
    page.click("#copy-wpt")
    expect(page.locator("#copy-dialog")).to_be_visible()
    note = page.locator("#copy-duplicate")
    expect(note).to_be_visible()
    expect(note).to_have_text(
        f"Already in WPT: this entry would duplicate urltestdata.json #{n}.")
    page.keyboard.press("Escape")
    # the Setters lab: a setter case setters_tests.json has
    setters = json.loads((WPT / "setters_tests.json").read_text("utf-8"))
    i, case = next((i, c) for i, c in enumerate(setters["host"])
                   if c["href"] == "http://example.com/")
    page = probe.open(frag(input="http://example.com/", view="setters",
                           ops=[["host", case["new_value"]]]))
    expect(page.locator("#set-results .op-card")).to_have_count(1)
    page.evaluate("() => { Object.defineProperty(navigator, 'clipboard', {value: undefined}); }")
    page.click("#copy-wpt")
    expect(note).to_have_text(
        f"Already in WPT: this setter case would duplicate setters_tests.json host #{i}.")
    assert page.locator("#in-wpt details[open]").count() == 0
    probe.assert_clean()
