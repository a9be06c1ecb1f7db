"""Issue 29, item 4: a page a screen reader can use.

- The answer (the href, or the failure and where it began) is announced once, after typing
  settles, in one polite live region (#answer-live); the timing badge (#engine) is no live region
  and no announcement is a timing. Counted with a MutationObserver on every live region while 20
  characters are typed.
- The display lines (the input, the href, the answer under the field on a phone) have names the
  accessibility tree exposes (an aria-label on a div without a role is ignored: they are groups
  now), checked in Playwright's ARIA snapshot; no element anywhere keeps an aria-label a generic
  element would drop.
- The Steps timeline: a listbox moved by the arrows, Home and End, each option "n of m" (posinset
  and setsize, the list shows a window of the trace) and described by the step's state, citation
  and changes; the scrubber's buttons say the same in a live region.
- axe-core (tests/differential's node packages, `make differential-deps`) injected into every
  view, in normal and presenter mode: no serious or critical violation, contrast included
  (WCAG AA 4.5:1; in presenter mode also the enhanced rule, 7:1). axe.min.js is injected with
  `add_script_tag`, which the page's CSP (script-src 'self') blocks: this test's context, and
  only this one, bypasses the CSP (`bypass_csp=True`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from liveserver import CHROMIUM, Offline, PageProbe, frag
from playwright.sync_api import expect

REPO = Path(__file__).resolve().parents[2]
AXE = REPO / "tests" / "differential" / "node_modules" / "axe-core" / "axe.min.js"
VIEWS = ["components", "steps", "resolution", "setters", "validation", "editions",
         "implementations", "calculators", "examples", "lessons", "history", "survey"]
TIMING = re.compile(r"\d+(\.\d+)?\s*ms\b")

# Every mutation of every live region on the page, with the region's text after it (one entry
# per observer callback: one per task that changed it).
LIVE_PROBE = """() => {
  window.__said = [];
  const live = '[aria-live]:not([aria-live="off"]), [role=status], [role=alert]';
  const regions = [...document.querySelectorAll(live)];
  const obs = new MutationObserver((records) => {
    const seen = new Set(records
      .map((r) => r.target.nodeType === 1 ? r.target : r.target.parentElement)
      .map((t) => t.closest('[aria-live], [role=status], [role=alert]')));
    for (const region of seen) {
      if (region) window.__said.push({ id: region.id, text: region.textContent });
    }
  });
  for (const r of regions) obs.observe(r, { childList: true, subtree: true, characterData: true });
  return regions.map((r) => r.id);
}"""


def settle(page: Any, text: str | re.Pattern[str]) -> None:
    expect(page.locator("#answer-live")).to_have_text(text, timeout=15_000)


def test_the_answer_is_announced_once_when_typing_settles_never_a_timing(probe: PageProbe) -> None:
    page = probe.open(frag(input="", view="components"))
    # the timing badge is not a live region, nor inside one
    assert page.evaluate("() => !document.getElementById('engine').closest('[aria-live]')")
    assert page.evaluate(
        "() => !document.getElementById('engine-answer').closest('[role=status], [role=alert]')")
    expect(page.locator("#answer-live")).to_have_attribute("aria-live", "polite")
    settle(page, re.compile(r"^fails"))  # the empty input's answer, once loaded
    regions = page.evaluate(LIVE_PROBE)
    assert "answer-live" in regions and "engine" not in regions
    page.click("#input")
    page.keyboard.type("https://example.com/", delay=25)  # 20 characters
    settle(page, "href: https://example.com/")
    page.wait_for_timeout(1500)  # longer than the settle time: nothing more is said
    said = page.evaluate("window.__said")
    answers = [s for s in said if s["id"] == "answer-live"]
    assert answers == [{"id": "answer-live", "text": "href: https://example.com/"}], said
    assert not [s for s in said if TIMING.search(s["text"])], said
    # the time is drawn, not said
    expect(page.locator("#engine-answer .engine-ms")).to_have_text(TIMING)
    # a failure: the reason and where it began, once more
    page.keyboard.press("Control+a")
    page.keyboard.type("http://exa mple.com/", delay=25)  # 20 characters
    settle(page, "fails in domain parser, step 8: "
                 "the result contains a forbidden domain code point, U+0020")
    page.wait_for_timeout(1500)
    said = page.evaluate("window.__said")
    answers = [s["text"] for s in said if s["id"] == "answer-live"]
    assert len(answers) == 2, said
    assert not [s for s in said if TIMING.search(s["text"])], said
    probe.assert_clean()


def test_display_lines_and_controls_have_exposed_names(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/a", view="components"))
    summary = page.locator("section.summary").aria_snapshot()
    name = "The input, coloured by the component each code point ended up in"
    assert f'group "{name}"' in summary, summary
    assert 'group "The serialized URL, coloured by component"' in summary, summary
    expect(page.get_by_role("textbox", name="URL", exact=True)).to_have_id("input")
    expect(page.get_by_role("textbox", name="Base", exact=True)).to_have_id("base")
    expect(page.get_by_role("status").filter(has_text="href:")).to_have_id("answer-live",
                                                                          timeout=15_000)
    # on a phone the answer under the field is a named group too
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.locator("#answer-line")).to_be_visible()
    field = page.locator(".field-input").aria_snapshot()
    assert 'group "The answer (href) while you type"' in field, field
    probe.assert_clean()


# An aria-label the accessibility tree would drop: on an element whose role is generic (a div or
# span or p without a role), where ARIA prohibits naming.
DROPPED_LABELS = """() => [...document.querySelectorAll('[aria-label]')]
  .filter((e) => ['DIV', 'SPAN', 'P', 'B', 'I', 'CODE', 'PRE'].includes(e.tagName)
    && !e.hasAttribute('role'))
  .map((e) => e.id || e.className || e.tagName)"""

RUN_AXE = """async (enhanced) => {
  const options = { resultTypes: ['violations'] };
  if (enhanced) options.rules = { 'color-contrast-enhanced': { enabled: true } };
  const r = await axe.run(document, options);
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({
    id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 5)
      .map((n) => n.target.join(' ') + ': ' + n.failureSummary.slice(0, 200)),
  }));
}"""


@pytest.fixture
def axe_page(browser: Any, server_url: str) -> Iterator[PageProbe]:
    """A page whose CSP is bypassed (for this test only): axe.min.js goes in by add_script_tag."""
    if not AXE.is_file():
        pytest.fail("axe-core is missing: run `make differential-deps`")
    assert Path(CHROMIUM).exists()
    context = browser.new_context(viewport={"width": 1280, "height": 720}, bypass_csp=True)
    offline = Offline()
    offline.watch(context)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        yield PageProbe(context, page, offline, server_url)
    finally:
        context.close()


def _drawn(page: Any, quiet_s: float = 0.2, timeout_s: float = 15.0) -> None:
    """Wait until the page has drawn nothing new (body[data-renders]) for ``quiet_s``."""
    deadline = time.monotonic() + timeout_s
    last, since = None, time.monotonic()
    while time.monotonic() - since < quiet_s:
        assert time.monotonic() < deadline, "the view kept drawing"
        renders = page.evaluate("() => document.body.dataset.renders")
        if renders != last:
            last, since = renders, time.monotonic()
        page.wait_for_timeout(40)


@pytest.mark.parametrize("presenter", [0, 1], ids=["normal", "presenter"])
def test_axe_finds_no_serious_violation_in_any_view(axe_page: PageProbe, presenter: int) -> None:
    page = axe_page.page
    found: dict[str, Any] = {}
    dropped: dict[str, Any] = {}
    inputs = {"ok": "https://user@Example.com:8080/a/../b?q=1#f", "failure": "http://exa mple.com/"}
    failing_views = ["components", "steps", "validation", "implementations"]
    for kind, url in inputs.items():
        views = VIEWS if kind == "ok" else failing_views
        # one page per input, each view reached by its tab as a user does (a page per view
        # booted the engine again each time: most of this test's time)
        axe_page.open(frag(input=url, view=views[0], presenter=presenter, step=12))
        page.add_script_tag(path=str(AXE))
        for view in views:
            page.click(f"#tab-{view}")
            expect(page.locator(f"#panel-{view}")).to_be_visible()
            page.wait_for_function(
                "() => !document.querySelector('.panel:not([hidden]) [aria-busy=true]')")
            _drawn(page)  # the view's own request, answered and drawn
            bad = page.evaluate(RUN_AXE, bool(presenter))
            if bad:
                found[f"{kind} {view}"] = bad
            names = page.evaluate(DROPPED_LABELS)
            if names:
                dropped[f"{kind} {view}"] = names
    assert found == {}, found
    assert dropped == {}, dropped
    axe_page.assert_clean()


def _contrast_js() -> str:
    return """(sel) => {
  const rgb = (s) => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const bg = (e) => {
    for (; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (!/rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent') return rgb(c);
    }
    return [255, 255, 255];
  };
  const e = document.querySelector(sel);
  const a = lum(rgb(getComputedStyle(e).color)), b = lum(bg(e));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize(("presenter", "floor"), [(0, 4.5), (1, 7.0)], ids=["normal", "presenter"])
def test_the_removed_legend_reads_at_the_contrast_floor(probe: PageProbe, presenter: int,
                                                        floor: float) -> None:
    """The issue's known case: "removed (trimmed or ignored)" was 3.03:1, computed here from the
    computed styles (the legend's text on the summary's background)."""
    page = probe.open(frag(input=" https://example.com/ ", presenter=presenter))
    expect(page.locator(".legend .k-removed")).to_have_text(re.compile("removed"))
    ratio = page.evaluate(_contrast_js(), ".legend .k-removed")
    assert ratio >= floor, ratio
    cell = page.evaluate(_contrast_js(), "#input-view .k-removed")  # a removed space, on its tint
    assert cell >= floor, cell
    probe.assert_clean()


def test_the_steps_timeline_is_operable_and_announced(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/", view="steps", step=0))
    listbox = page.get_by_role("listbox", name=re.compile("Trace steps"))
    expect(listbox).to_be_visible()
    n = int(page.locator("#step-range").get_attribute("max") or 0) + 1
    assert n > 20
    listbox.focus()
    page.keyboard.press("ArrowRight")
    expect(listbox).to_have_attribute("aria-activedescendant", "step-1")
    option = page.locator("#step-1")
    expect(option).to_have_attribute("aria-selected", "true")
    expect(option).to_have_attribute("aria-posinset", "2")
    expect(option).to_have_attribute("aria-setsize", str(n))
    expect(option).to_have_attribute("aria-describedby", "step-summary")
    expect(page.locator("#step-0")).not_to_have_attribute("aria-describedby", "step-summary")
    expect(page.locator("#step-summary")).to_have_text(
        re.compile(rf"^step 2 of {n}: scheme state, step \d"))
    # the accessible description the tree exposes for the focused option
    description = page.evaluate("() => document.getElementById(document.getElementById('step-list')"
                                ".getAttribute('aria-activedescendant')).getAttribute('aria-describedby')")
    assert description == "step-summary"
    page.keyboard.press("End")
    expect(listbox).to_have_attribute("aria-activedescendant", f"step-{n - 1}")
    expect(page.locator("#step-summary")).to_have_text(re.compile(rf"^step {n} of {n}: "))
    page.keyboard.press("Home")
    expect(listbox).to_have_attribute("aria-activedescendant", "step-0")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    expect(listbox).to_have_attribute("aria-activedescendant", "step-2")
    # moved from the list, the step is not also said by the live region (the list says it)
    expect(page.locator("#step-live")).to_have_text("")
    # a button moves it: the live region says it, with the state and its citation
    page.click("#step-next")
    expect(page.locator("#step-live")).to_have_attribute("aria-live", "polite")
    expect(page.locator("#step-live")).to_have_text(
        re.compile(rf"^step 4 of {n}: [a-z ]+ state, step "))
    # a step that sets a component says so
    page.locator("#step-list li.has-changes").first.click()
    expect(page.locator("#step-summary")).to_have_text(re.compile(r"; sets scheme\b"))
    # the detail is not a live region any more (it said the whole pane at every step)
    assert page.evaluate("() => !document.getElementById('step-detail').closest('[aria-live]')")
    probe.assert_clean()
