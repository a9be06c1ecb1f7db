"""The History view (issue 27, item 4): the changes of the URL Standard whose undoing alters an
input's result, as a timeline with the reading without each change and the spec text it changed;
the standard on a day (a slider, asof=YYYY-MM-DD in the permalink); and the line that says how
many normative changes urlcalc cannot undo yet, so that an empty timeline is not read as "it always
meant this". Expected values from the spec text: `<` became a forbidden host code point on
2020-05-14 (302ba41, "Forbid <, >, and ^ in hosts"), so before that `sc://a<b/` parsed, its
opaque host `a<b`."""

from __future__ import annotations

import re

from liveserver import PageProbe, frag
from playwright.sync_api import expect

SHA = "302ba419cb3248568243aaf7b5aca9003694d5c3"


def test_a_change_that_matters_opens_its_reading_and_spec_text(probe: PageProbe) -> None:
    page = probe.open(frag(input="sc://a<b/", view="history"))
    expect(page.locator("#tab-history")).to_have_text("History")
    expect(page.locator("#tab-history")).to_have_attribute("aria-selected", "true")
    entry = page.locator('#history-timeline li[data-change="hosts-forbid-lt-gt-caret"]')
    expect(entry).to_have_count(1)
    expect(entry).to_have_attribute("data-date", "2020-05-14")
    summary = entry.locator("summary")
    expect(summary).to_contain_text("2020-05-14")
    expect(summary).to_contain_text("Forbid <, >, and ^ in hosts")
    expect(summary).to_contain_text("302ba41")
    # the commit's link is in the entry, not in its summary (a control inside a control)
    expect(summary.locator("a")).to_have_count(0)
    link = entry.locator("a.hist-sha")
    expect(link).to_have_attribute("href", f"https://github.com/whatwg/url/commit/{SHA}")
    expect(link).to_have_text("302ba41")
    expect(summary).to_contain_text("failure")
    # closed until opened
    without = entry.locator('td[data-reading="without"][data-row="href"]')
    expect(without).to_be_hidden()
    summary.click()
    expect(without).to_be_visible()
    expect(without).to_have_attribute("data-value", "sc://a<b/")
    expect(entry.locator('td[data-reading="today"][data-row="href"]')).to_have_text("fails")
    expect(entry.locator('tr[data-row="failure"]')).to_have_class(re.compile(r"\bdiffers\b"))
    # the definition's text before and after, the added code points marked
    text = entry.locator('.hist-text[data-step="forbidden host code point"]')
    expect(text.locator('[data-text="before"]')).to_contain_text(
        "U+003A (:), U+003F (?), U+0040 (@)")
    after = text.locator('[data-text="after"]')
    expect(after).to_contain_text("U+003A (:), U+003C (<), U+003E (>), U+003F (?)")
    inserted = after.locator("ins").all_text_contents()
    assert any("U+003C (<)," in t for t in inserted), inserted
    assert "U+005E (^)" in " ".join(inserted), inserted
    # spec text and URLs are text, never markup
    assert page.locator("#panel-history b, #panel-history script").count() == 0
    expect(page.locator("#history-not-undoable")).to_contain_text("cannot undo yet")
    probe.assert_clean()


def test_the_slider_reads_the_standard_on_a_day_and_keeps_it_in_the_permalink(
        probe: PageProbe) -> None:
    page = probe.open(frag(input="sc://a<b/", view="history"))
    slider = page.locator("#history-date")
    expect(slider).to_have_accessible_name(re.compile(r"^The URL Standard on \d{4}-\d{2}-\d{2}"))
    expect(page.locator("#history-asof-none")).to_be_visible()
    page.fill("#history-date-field", "2020-01-02")
    page.locator("#history-date-field").dispatch_event("change")
    expect(slider).to_have_attribute("aria-valuetext", "2020-01-02")
    # two days back with the keyboard
    slider.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(slider).to_have_attribute("aria-valuetext", "2019-12-31")
    expect(slider).to_have_accessible_name("The URL Standard on 2019-12-31")
    cell = page.locator('#history-asof td[data-reading="as-of"][data-row="href"]')
    expect(cell).to_have_attribute("data-value", "sc://a<b/")
    expect(page.locator('#history-asof td[data-reading="today"][data-row="href"]')) \
        .to_have_text("fails")
    expect(page).to_have_url(re.compile(r"&view=history&asof=2019-12-31$"))
    # the permalink opens the view on that day
    page.goto(probe.base_url + "?engine=server#" + frag(input="sc://a<b/", view="history",
                                                        asof="2019-12-31"))
    expect(page.locator("#history-date")).to_have_attribute("aria-valuetext", "2019-12-31")
    expect(page.locator('#history-asof td[data-reading="as-of"][data-row="href"]')) \
        .to_have_attribute("data-value", "sc://a<b/")
    probe.assert_clean()


def test_an_empty_timeline_says_what_it_cannot_undo(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://example.com/", view="history"))
    expect(page.locator("#history-summary")).to_have_attribute("data-changes", "0")
    expect(page.locator("#history-timeline li[data-change]")).to_have_count(0)
    expect(page.locator("#history-timeline .hist-none")).to_be_visible()
    line = page.locator("#history-not-undoable")
    expect(line).to_contain_text(re.compile(r"\d+ changes? of the \d+ normative changes to the URL "
                                            r"Standard since 2015 urlcalc cannot undo yet"))
    expect(line).to_contain_text("an empty timeline does not mean")
    # a bad asof in a permalink is no day at all
    page.goto(probe.base_url + "?engine=server#" + frag(input="http://example.com/",
                                                        view="history", asof="2014-02-30"))
    expect(page.locator("#history-asof-none")).to_be_visible()
    probe.assert_clean()
