"""Handouts (issue 29, item 2): a lesson's "Print handout" and the paper tape's "Print" lay the
steps out for paper (each input, base and note with space to write; the answers on a page of
their own, after the questions), and the page printed as it is hides its controls.

Print is checked through print emulation (what is shown) and Chromium's own PDF (page.pdf():
how many pages, with and without the answers); window.print is replaced by a counter."""

from __future__ import annotations

import re
from typing import Any

from liveserver import PageProbe, frag

NO_PRINT_DIALOG = "window.print = () => { window.__printed = (window.__printed || 0) + 1; };"

TEXTS = "els => els.map(e => e.textContent)"
SHOWN = """(sel) => [...document.querySelectorAll(sel)].filter((e) => {
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== "hidden";
}).length"""


def pdf_pages(page: Any) -> int:
    pdf: bytes = page.pdf(format="A4")
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count (\d+)", pdf)
              + re.findall(rb"/Count (\d+)[^>]*?/Type\s*/Pages\b", pdf)]
    assert counts, pdf[:400]
    return max(counts)


def open_lesson_handout(probe: PageProbe, nth: int) -> tuple[Any, list[dict[str, str]]]:
    probe.context.add_init_script(NO_PRINT_DIALOG)
    page = probe.open(frag(input="x", view="lessons"))
    page.locator("#lesson-examples .lesson-pick").nth(nth).click()
    page.wait_for_selector("#lesson-steps li")
    steps: list[dict[str, str]] = page.evaluate("""() => [
      ...document.querySelectorAll('#lesson-steps li')]
      .map((li) => ({input: li.querySelector('.ls-input')?.textContent ?? ''}))""")
    page.click("#lesson-print")
    page.wait_for_selector("#handout[data-ready]", state="attached")
    return page, steps


def test_a_lesson_prints_as_a_handout_with_the_answers_last(probe: PageProbe) -> None:
    page, steps = open_lesson_handout(probe, 1)
    assert page.evaluate("() => window.__printed") == 1
    assert page.get_attribute("body", "data-print") == "handout"
    # on screen the handout is never shown
    assert page.evaluate(SHOWN, "#handout") == 0
    page.emulate_media(media="print")
    # printed: the handout alone, every step with space to write, then the answers
    assert page.evaluate(SHOWN, "#handout") == 1
    assert page.evaluate(SHOWN, "#main, .topbar, .footer") == 0
    n = len(steps)
    assert n >= 3
    assert page.evaluate(SHOWN, ".handout-step") == n
    assert page.evaluate(SHOWN, ".handout-step .handout-write") == n
    assert page.evaluate(SHOWN, ".handout-answer") == n
    inputs = page.eval_on_selector_all(".handout-step .handout-input", TEXTS)
    answered = page.eval_on_selector_all(".handout-answer .handout-input", TEXTS)
    assert inputs == answered
    # the answers come after every question, and each is the engine's: an href or a failure
    last_question = page.eval_on_selector(".handout-step:last-child",
                                          "e => e.getBoundingClientRect().bottom")
    first_answer = page.eval_on_selector(".handout-answers",
                                         "e => e.getBoundingClientRect().top")
    assert first_answer >= last_question
    answers = page.eval_on_selector_all(".handout-answer", TEXTS)
    assert all("→" in a and ("failure" in a or ":" in a.split("→")[1]) for a in answers), answers
    assert any("failure" in a for a in answers), answers  # the hosts lesson has failing hosts
    assert page.evaluate(SHOWN, ".handout-failure") >= 1
    # the answers start a page: the handout without them has one page fewer
    with_answers = pdf_pages(page)
    page.evaluate("() => { document.body.dataset.print = 'handout'; }")  # pdf() ran afterprint
    page.evaluate("() => document.querySelector('.handout-answers').remove()")
    assert pdf_pages(page) < with_answers
    probe.assert_clean()


def test_a_short_handout_puts_its_answers_on_a_second_page(probe: PageProbe) -> None:
    probe.context.add_init_script(NO_PRINT_DIALOG)
    page = probe.open(frag(input="x"))
    for url in ["http://a/b/../c", "http://exa mple/"]:
        page.fill("#input", url)
        page.press("#input", "Enter")
        page.wait_for_function("(u) => urlcalc.tape.entries.some((e) => e.input === u)", arg=url)
    page.click("#tape-print")
    page.wait_for_selector("#handout[data-ready='2']", state="attached")
    page.emulate_media(media="print")
    assert page.get_attribute("#handout", "data-kind") == "tape"
    inputs = page.eval_on_selector_all(".handout-step .handout-input", TEXTS)
    assert inputs == ["http://a/b/../c", "http://exa mple/"]  # oldest first
    answers = page.eval_on_selector_all(".handout-answer", TEXTS)
    assert "http://a/c" in answers[0]
    # a failure, and why
    assert "failure" in answers[1] and len(answers[1].split("failure", 1)[1]) > 5, answers
    # two questions fit on one page; the answers make a second
    assert pdf_pages(page) == 2
    probe.assert_clean()


def test_the_page_printed_as_it_is_hides_its_controls(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/a/../b"))
    assert page.evaluate(SHOWN, "button, [role=tab], select") > 10
    page.emulate_media(media="print")
    assert page.evaluate(SHOWN, "button, [role=tab], select") == 0
    assert page.evaluate(SHOWN, "#href-view") == 1
    assert page.evaluate(SHOWN, '#panel-components [data-getter="href"]') == 1
    assert page.evaluate(SHOWN, "#handout") == 0
    probe.assert_clean()
