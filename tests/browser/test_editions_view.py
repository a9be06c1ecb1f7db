"""The Editions view (issue 4; its tab was labelled "Compare" until issue 15): one input read by
six URL specifications and the current URL Standard, in Chromium against a live server (fixtures
in conftest.py)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

from liveserver import PageProbe, frag
from playwright.sync_api import expect

from urlcalc.editions import EDITIONS

EDITION_IDS = list(EDITIONS)


def cell(page: Any, edition: str, getter: str) -> Any:
    return page.locator(f'#editions-table td[data-edition="{edition}"][data-getter="{getter}"]')


def test_seven_columns_highlighted_cells_and_rules(probe: PageProbe) -> None:
    page = probe.open(frag(input="HTTP://EXAMPLE.com:80/%7efoo", view="editions"))
    expect(page.locator("#tab-editions")).to_have_text("Editions")
    expect(page.locator("#tab-implementations")).to_have_text("Implementations")
    heads = page.locator("#editions-table thead th[data-edition]")
    expect(heads).to_have_count(7)
    assert heads.evaluate_all("(els) => els.map((e) => e.dataset.edition)") == [
        *EDITION_IDS, "current"]
    rows = page.locator("#editions-table tbody tr")
    expect(rows).to_have_count(11)
    expect(rows.first.locator("td")).to_have_count(7)
    expect(cell(page, "current", "href")).to_have_text('"http://example.com/%7efoo"')
    # RFC 3986 6.2.2 decodes %7e and keeps the default port: highlighted
    rfc_href = cell(page, "rfc3986", "href")
    expect(rfc_href).to_contain_text("http://example.com:80/~foo")
    expect(rfc_href).to_have_class(re.compile(r"\bdiffers\b"))
    expect(cell(page, "rfc3986", "port")).to_have_class(re.compile(r"\bdiffers\b"))
    # the formal model agrees with the current standard here: not highlighted
    expect(cell(page, "formal_model", "href")).to_contain_text("http://example.com/%7efoo")
    expect(cell(page, "formal_model", "href")).not_to_have_class(re.compile(r"\bdiffers\b"))
    expect(cell(page, "rfc3986", "search")).not_to_have_class(re.compile(r"\bdiffers\b"))
    # one line per difference, naming the edition's rule, its section and the seed's words there:
    # %7e decoded by 6.2.2.2; ':80' kept because 6.2.3 is not part of 6.2.2 (not 6.2.2.1 case)
    line = page.locator('#editions-differences li[data-edition="rfc3986"][data-section="6.2.2.2"]')
    expect(line.first).to_contain_text("RFC 3986")
    expect(line.first).to_contain_text("percent-encoding normalization")
    expect(line.first).to_contain_text("§ 6.2.2.2")
    expect(line.first.locator(".ed-quote q")).to_contain_text("decoding any percent-encoded octet")
    port = page.locator('#editions-differences li[data-edition="rfc3986"][data-section="6.2.3"]')
    expect(port.first).to_contain_text("port")
    expect(page.locator('#editions-differences li[data-edition="w3c_2012"]').first) \
        .to_contain_text("§ 4.2")
    # where the 2012 text is a stub, the line says it is urlcalc's choice, not the edition's rule
    stub = page.locator(
        '#editions-differences li[data-edition="w3c_2012"][data-kind="unspecified"]')
    expect(stub.first).to_contain_text("urlcalc's choice")
    # Which editions differ, by hand (not counted from the page): RFC 3986 keeps ":80" and
    # decodes %7e (6.2.2); HTML5 2009 and draft-abarth keep the scheme's and host's case and the
    # port; the 2012 draft as written loses the host's first code point; the 2014 grammar reads
    # "http" plus scheme data (non-relative-url step 2 as written): no host. The formal model
    # gives the current standard's href.
    expected = {"rfc3986", "html5_2009", "abarth_2010", "w3c_2012", "whatwg_2014"}
    highlighted = page.evaluate("""() => [...new Set([...document.querySelectorAll(
        '#editions-table td.differs')].map((td) => td.dataset.edition))].sort()""")
    assert highlighted == sorted(expected)
    summary = page.locator("#editions-summary")
    assert summary.get_attribute("data-differing") == str(len(expected))
    expect(summary).to_contain_text("5 of 6 editions differ from the current URL Standard")
    probe.assert_clean()


def test_errata_toggle_is_in_the_permalink(probe: PageProbe) -> None:
    page = probe.open(frag(input="http:\\\\example.com\\a\\..\\b", view="editions"))
    w3c = cell(page, "w3c_2012", "href")
    # as written, the 2012 authority state loses the host's first code point
    expect(w3c).to_contain_text("http://xample.com//b")
    expect(w3c).to_have_class(re.compile(r"\bdiffers\b"))
    page.check("#editions-errata")
    expect(w3c).to_contain_text("http://example.com/b")
    expect(w3c).not_to_have_class(re.compile(r"\bdiffers\b"))
    assert "errata=1" in page.url
    page.reload()
    expect(page.locator("#editions-errata")).to_be_checked()
    expect(cell(page, "w3c_2012", "href")).to_contain_text("http://example.com/b")
    page.uncheck("#editions-errata")
    expect(cell(page, "w3c_2012", "href")).to_contain_text("http://xample.com//b")
    probe.assert_clean()


def test_random_url_button_fills_the_input(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/start", view="editions"))
    expect(page.locator("#editions-table")).to_be_visible()
    page.select_option("#random-grammar", "rfc3986")
    renders = int(page.evaluate("document.body.dataset.renders"))
    page.click("#random-url")
    info = page.locator("#random-info")
    expect(info).to_contain_text("RFC 3986")
    seed = int(re.search(r"seed (\d+)", info.inner_text()).group(1))  # type: ignore[union-attr]
    # the engine drew it: the same grammar and seed give the same string from the API
    drawn = page.request.post(probe.base_url + "api/random",
                              data=json.dumps({"edition": "rfc3986", "seed": seed}),
                              headers={"Content-Type": "application/json"}).json()
    expect(page.locator("#input")).to_have_value(drawn["input"])
    expect(page.locator("#base")).to_have_value(drawn["base"] or "")
    assert drawn["input"] != "https://example.com/start"
    page.wait_for_function("(n) => Number(document.body.dataset.renders) > n", arg=renders)
    # the comparison follows the new input
    expect(page.locator("#editions-table")).to_be_visible()
    expect(page.locator("#tab-editions")).to_have_attribute("aria-selected", "true")
    fragment = dict(part.split("=", 1) for part in page.url.split("#", 1)[1].split("&"))
    assert unquote(fragment["input"]) == drawn["input"]
    probe.assert_clean()


def test_pyodide_engine_details_terms_and_paper_tape(probe: PageProbe) -> None:
    page = probe.open(frag(input="file:c:\\foo\\bar.html", view="editions"),
                      query="engine=pyodide")
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=45_000)
    expect(page.locator("#editions-table thead th[data-edition]")).to_have_count(7)
    expect(cell(page, "current", "href")).to_have_text('"file:///c:/foo/bar.html"')
    expect(cell(page, "formal_model", "href")).to_contain_text("file:///c:/foo/bar.html")
    expect(cell(page, "rfc3986", "href")).to_contain_text("fails")
    # draft-abarth-url says "TODO: File URLs!": unspecified, never counted as a difference
    expect(cell(page, "abarth_2010", "href")).to_contain_text("unspecified")
    expect(cell(page, "abarth_2010", "href")).not_to_have_class(re.compile(r"\bdiffers\b"))
    expect(page.locator('#editions-unspecified li[data-edition="abarth_2010"]').first) \
        .to_contain_text("File URLs")
    # each edition in its own terms: open details with the keyboard
    summary = page.locator('details[data-edition="formal_model"] > summary')
    summary.focus()
    page.keyboard.press("Enter")
    formal = page.locator('details[data-edition="formal_model"]')
    expect(formal.locator(".ed-trace tbody tr").first).to_be_visible()
    expect(formal.locator("dfn.ed-term", has_text="goto").first).to_be_visible()
    expect(formal).to_contain_text("(drive c:)")
    page.locator('details[data-edition="whatwg_2014"] > summary').click()
    w14 = page.locator('details[data-edition="whatwg_2014"]')
    expect(w14.locator(".ed-terms dt", has_text="parse exception")).to_have_count(1)
    expect(w14.locator(".ed-terms dt", has_text="conformance error")).to_have_count(1)
    expect(w14.locator(".ed-tree li").first).to_be_visible()
    page.locator('details[data-edition="w3c_2012"] > summary').click()
    w12 = page.locator('details[data-edition="w3c_2012"]')
    expect(w12.locator("dfn.ed-term", has_text="scheme data").first).to_be_visible()
    expect(w12.locator(".ed-trace")).to_contain_text("scheme start state")
    # the paper tape records the comparison; picking it comes back to this view
    note = page.locator("#tape .t-note", has_text="editions differ")
    expect(note.first).to_be_visible(timeout=5_000)
    page.click("#tab-components")
    note.first.click()
    expect(page.locator("#tab-editions")).to_have_attribute("aria-selected", "true")
    assert page.evaluate("document.body.dataset.engine") == "pyodide"
    probe.assert_clean()


def test_narrow_screen_scrolls_inside_and_long_input_is_refused(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/a/../b?x#y", view="editions"))
    expect(page.locator("#editions-table")).to_be_visible()
    page.set_viewport_size({"width": 360, "height": 760})
    page.locator("#editions-details summary").first.click()
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    wrap = page.locator("#editions-table-wrap")
    # (off screen, the browser skips laying the table out, content-visibility: auto: it is laid
    # out in the frame after it comes into view)
    wrap.scroll_into_view_if_needed()
    two_frames = ("() => new Promise((done) =>"
                  " requestAnimationFrame(() => requestAnimationFrame(done)))")
    wrap.evaluate(two_frames)
    assert wrap.evaluate("(el) => el.scrollWidth > el.clientWidth")  # the table scrolls
    page.fill("#input", "https://example.com/" + "a" * 2100)
    expect(page.locator("#editions-error")).to_contain_text("too long to compare")
    page.fill("#input", "https://example.com/")
    expect(page.locator("#editions-error")).to_be_hidden()
    expect(cell(page, "current", "href")).to_have_text('"https://example.com/"')
    probe.assert_clean()
