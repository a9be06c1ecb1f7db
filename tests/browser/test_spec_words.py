"""The spec's words beside the machine: the Steps view quotes the selected step (and its whole
algorithm, the step lit), the failure box names the step that returned failure in the spec's
words, Resolution and the Setters lab quote the steps they cite. The words come from the engine
(kind "spec"), never from the network: the context aborts every request off localhost."""

from __future__ import annotations

from typing import Any

from liveserver import PageProbe, frag
from playwright.sync_api import expect

# Hand-copied from url.bs (the words the page must show).
PORT_2_1_2 = ("If port is not a 16-bit unsigned integer, port-out-of-range validation error, "
              "return failure.")
DOMAIN_8 = "If result contains a forbidden domain code point, then return failure."
PATH_1_5 = "Set buffer to the empty string."


def _last_step(page: Any) -> None:
    page.focus("#step-list")
    page.keyboard.press("End")


def test_steps_view_quotes_the_failing_step_and_its_algorithm(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://h:65536/", view="steps"))
    expect(page.locator("#step-list [data-step]").first).to_be_visible()
    _last_step(page)
    detail = page.locator("#step-detail")
    expect(detail.locator(".pill[data-spec-step]").first).to_have_attribute(
        "data-spec-step", "2.1.2")
    words = page.locator("#step-spec-words")
    expect(words).to_contain_text(PORT_2_1_2)
    expect(words).to_contain_text("url.bs · port state, step 2.1.2")
    expect(words.locator("a.spec")).to_have_attribute(
        "href", "https://url.spec.whatwg.org/#port-state")
    algo = page.locator("#step-algorithm")
    algo.locator("summary").click()
    expect(algo.locator("li.applied")).to_have_attribute("data-spec-step", "2.1.2")
    expect(algo.locator("li")).to_have_count(11)
    # the failure box: the place, the spec's words, the error that step raises
    box = page.locator("#failure-box")
    expect(box).to_have_attribute("data-fail-step", "2.1.2")
    expect(box).to_contain_text("port state, step 2.1.2 returned failure at index 14")
    expect(box.locator(".spec-words")).to_contain_text(PORT_2_1_2)
    probe.assert_clean()


def test_a_failure_in_the_domain_parser_is_placed_there(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://a b/", view="steps"))
    box = page.locator("#failure-box")
    expect(box).to_have_attribute("data-fail-algorithm", "domain parser")
    expect(box).to_have_attribute("data-fail-step", "8")
    expect(box).to_contain_text("at index 8")
    expect(box.locator(".spec-words")).to_contain_text(DOMAIN_8)
    expect(box).to_contain_text("Validation errors raised on the way: domain-to-ASCII")
    # the last URL step cites host state 3.4 and quotes where the failure began (the host
    # parser's events follow it, nested: issue 26)
    page.locator('#step-list li.depth-0[data-state="host state"]').last.click()
    expect(page.locator("#step-spec-words")).to_contain_text(
        "If host is failure, then return failure.")
    expect(page.locator("#step-detail .spec-words").nth(1)).to_contain_text(DOMAIN_8)
    probe.assert_clean()


def test_no_step_applies_is_said_in_words_and_substeps_are_quoted(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://h/#f", view="steps"))
    _last_step(page)
    expect(page.locator("#step-spec-words")).to_contain_text(
        "no step applies: c is the EOF code point")
    expect(page.locator("#step-detail .pill[data-spec-step]")).to_have_attribute(
        "data-spec-step", "")
    # a UTS #46 stage is marked as urlcalc's summary, not url.bs
    page.locator('#step-list li[data-state="UTS #46 map"]').first.click()
    expect(page.locator("#step-spec-words")).to_contain_text("UTS #46 (urlcalc's summary)")
    probe.assert_clean()


def test_resolution_and_setters_quote_the_steps_they_cite(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://h/a/./b", view="resolution"))
    path = page.locator('#panel-resolution tr[data-field="path"]')
    expect(path).to_contain_text("a single-dot segment dropped")
    expect(path.locator("q.spec-q")).to_have_text(PATH_1_5)
    page = probe.open(frag(input="https://a/", view="setters", ops=[["port", "x"]]))
    card = page.locator("#set-results .op-card").first
    expect(card.locator(".reason")).to_contain_text("port setter, step 3")
    expect(card.locator(".spec-words")).to_contain_text(
        "If state override is given, then return failure.")
    probe.assert_clean()


def test_validation_quotes_the_step_of_each_error(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://user@h/a\\b", view="validation"))
    items = page.locator("#panel-validation li.verr")
    expect(items).to_have_count(2)
    expect(items.nth(0).locator(".err-step")).to_have_text("authority state, step 1.1")
    expect(items.nth(0).locator(".spec-words")).to_contain_text(
        "Invalid-credentials validation error.")
    expect(items.nth(1).locator(".err-step")).to_have_text("path state, step 1.1")
    expect(items.nth(1).locator(".spec-words")).to_contain_text(
        "If url is special and c is U+005C (\\), invalid-reverse-solidus validation error.")
    probe.assert_clean()
