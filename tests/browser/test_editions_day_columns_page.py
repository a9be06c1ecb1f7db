"""The URL Standard through its history in the page (issue 27, item 4): in the Editions view, a
column of the standard on a day and one without a change beside the seeds (kept in the permalink's
cols=, its header a link to the History view on that day); in the History view, the changes that
leave the input as it is folded with their count, and the unmerged branches as proposals after
today, not applied. Expected values from the spec text: `<` became a forbidden host code point on
2020-05-14 (302ba41, "Forbid <, >, and ^ in hosts"), so on 2019-01-01 `http://a<b/` parsed, its
host `a<b`; today it fails."""

from __future__ import annotations

import re

from liveserver import PageProbe, frag
from playwright.sync_api import expect

from urlcalc.history.view import history_model

CARET = "hosts-forbid-lt-gt-caret"


def test_a_column_of_the_standard_on_a_day_beside_the_seeds(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://a<b/", view="editions"))
    today = page.locator('#editions-table td[data-edition="current"][data-getter="host"]')
    expect(today).to_have_text("fails")
    page.fill("#editions-col-day", "2019-01-01")
    page.click("#editions-add-day")
    head = page.locator('#editions-table th[data-edition="as_of:2019-01-01"]')
    expect(head).to_contain_text("URL Standard on 2019-01-01")
    cell = page.locator('#editions-table td[data-edition="as_of:2019-01-01"][data-getter="host"]')
    expect(cell).to_have_attribute("data-value", "a<b")
    expect(cell).to_have_attribute("data-differs", "true")
    expect(page).to_have_url(re.compile(r"[#&]cols=2019-01-01(&|$)"))
    # a change undone, chosen by keyboard in the select
    page.select_option("#editions-col-without", CARET)
    without = page.locator(f'#editions-table td[data-edition="without:{CARET}"]'
                           '[data-getter="href"]')
    expect(without).to_have_attribute("data-value", "http://a<b/")
    expect(page).to_have_url(re.compile(r"cols=2019-01-01%2Cwithout%3A" + CARET))
    # the URL strings are text, never markup
    assert page.locator("#editions-table b, #editions-table script").count() == 0
    # the permalink reopens both columns; the header opens the History view on that day
    page.goto(probe.base_url + "?engine=server#" + frag(
        input="http://a<b/", view="editions", cols=f"2019-01-01,without:{CARET}"))
    expect(page.locator(f'#editions-table th[data-edition="without:{CARET}"]')).to_have_count(1)
    page.locator('#editions-table th[data-edition="as_of:2019-01-01"] a').click()
    expect(page.locator("#tab-history")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#history-date")).to_have_attribute("aria-valuetext", "2019-01-01")
    expect(page.locator('#history-asof td[data-reading="as-of"][data-row="href"]')) \
        .to_have_attribute("data-value", "http://a<b/")
    # back in the Editions view, a column is removed with its button
    page.go_back()
    page.locator('#editions-table th[data-edition="as_of:2019-01-01"] button').click()
    expect(page.locator('#editions-table th[data-edition="as_of:2019-01-01"]')).to_have_count(0)
    expect(page).to_have_url(re.compile(r"cols=without%3A" + CARET))
    probe.assert_clean()


def test_the_history_folds_the_changes_that_do_not_matter_and_shows_proposals(
        probe: PageProbe) -> None:
    expected = history_model("sc://a<b/")
    altering, quiet = len(expected["changes"]), len(expected["unchanged"])
    assert altering and quiet
    page = probe.open(frag(input="sc://a<b/", view="history"))
    fold = page.locator("#history-unchanged")
    expect(fold).to_have_attribute("data-count", str(quiet))
    summary = page.locator("#history-unchanged-summary")
    expect(summary).to_have_text(f"{quiet} other changes do not change this input")
    items = fold.locator("li[data-unchanged]")
    expect(items.first).to_be_hidden()
    # keyboard-operable: the summary takes the focus and Enter opens it
    summary.focus()
    page.keyboard.press("Enter")
    expect(items).to_have_count(quiet)
    expect(items.first).to_be_visible()
    expect(page.locator(f'#history-unchanged li[data-unchanged="{CARET}"]')).to_have_count(0)
    expect(page.locator("#history-timeline li[data-change]")).to_have_count(altering)
    # after today: the unmerged branches, each said not to be applied
    proposals = page.locator("#history-timeline li.hist-proposal")
    expect(proposals).to_have_count(len(expected["proposals"]))
    ipv4 = page.locator('#history-timeline li.hist-proposal[data-branch="ipv4-non-ascii-input"]')
    expect(ipv4).to_contain_text("Report a validation error for IPv4 addresses from non-ASCII")
    expect(ipv4).to_contain_text("proposal, not applied: urlcalc reads today's standard")
    # they come after today's marker
    order = page.eval_on_selector_all(
        "#history-timeline > li", "els => els.map((e) => e.className)")
    assert order.index("hist-today") < order.index("hist-proposal"), order
    probe.assert_clean()
