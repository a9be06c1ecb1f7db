"""Issue 26, items 1 and 2 in the Steps view: each event lists the steps that ran in order
(the step that did the work first, the branch that chose the next state after it), nested
events sit right after the step that called them ("called by ..."), and "the URL record so far"
folds each ran step's changes in order. The case from the issue: ``../x`` against
``http://h/a/b/c``."""

from __future__ import annotations

import json
from typing import Any

from liveserver import PageProbe, frag
from playwright.sync_api import expect

SPEC = "https://url.spec.whatwg.org/"


def _labels(page: Any) -> list[dict[str, str]]:
    return page.locator("#step-list li[data-step]").evaluate_all(
        "els => els.map(e => ({state: e.dataset.state, by: e.dataset.calledBy || '',"
        " depth: e.className.match(/depth-(\\d)/)[1], text: e.textContent}))")


def _path_after(page: Any, step: str) -> Any:
    cell = page.locator(f'#step-detail table.record tr:has(th:text-is("path")) '
                        f'td[data-after-step="{step}"]')
    expect(cell).to_have_count(1)
    return json.loads(cell.inner_text())


def test_relative_state_steps_then_the_shortening_it_calls(probe: PageProbe) -> None:
    page = probe.open(frag(input="../x", base="http://h/a/b/c", view="steps"))
    expect(page.locator("#step-list li[data-step]").first).to_be_visible()
    labels = _labels(page)
    states = [(x["state"], x["depth"], x["by"]) for x in labels]
    # the order of the visible steps: no scheme state, then relative state, then (nested,
    # called by relative state's step 5.4.2) the shortening that removed "c"
    assert states[:4] == [("scheme start state", "0", ""), ("no scheme state", "0", ""),
                          ("relative state", "0", ""),
                          ("shorten a url's path", "1", "relative state 5.4.2")], states
    assert labels[2]["text"].startswith("relative state 2, 5.1, 5.4.1, 5.4.2, 5.4.3"), labels[2]
    assert 'removed "c"' in labels[3]["text"], labels[3]
    # the next path state's shortening (of "b") is called by path state 1.2.1
    shortenings = [x for x in labels if x["state"] == "shorten a url's path"]
    assert [x["by"] for x in shortenings] == ["relative state 5.4.2", "path state 1.2.1"]
    assert 'removed "b"' in shortenings[1]["text"]
    nothing_nested_before = [x for x in labels[:2] if x["depth"] != "0"]
    assert nothing_nested_before == []

    # relative state: its ran steps in order, each with its citation and words
    page.locator('#step-list li[data-state="relative state"]').click()
    ran = page.locator("#step-ran > li")
    assert ran.evaluate_all("els => els.map(e => e.dataset.ranStep)") == [
        "2", "5.1", "5.4.1", "5.4.2", "5.4.3"]
    expect(ran.nth(1).locator("a.ran-link")).to_have_attribute("href", SPEC + "#relative-state")
    expect(ran.nth(1).locator(".ran-words")).to_contain_text("Set url's username to base's"
                                                             " username")
    expect(ran.nth(3)).to_contain_text("calls shorten a url's path")
    expect(ran.nth(4)).to_have_attribute("data-role", "applied-last")
    expect(ran.nth(4).locator("#step-spec-words")).to_be_visible()
    # the record after 5.1 holds the base's path; after 5.4.2 the shortened one
    assert _path_after(page, "5.1") == ["a", "b", "c"]
    assert _path_after(page, "5.4.2") == ["a", "b"]
    expect(page.locator('#step-detail th[data-after-step="2"]')).to_have_text("after step 2")

    # the shortening: under relative state 5.4.2, the record consistent with it
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-list li.selected")).to_have_attribute(
        "data-state", "shorten a url's path")
    by = page.locator("#step-detail .called-by")
    expect(by).to_have_text("called by relative state, step 5.4.2")
    expect(by.locator("a")).to_have_attribute("href", SPEC + "#relative-state")
    path = page.locator('#step-detail table.record tr:has(th:text-is("path")) td')
    expect(path).to_have_text('["a", "b"]')
    probe.assert_clean()
