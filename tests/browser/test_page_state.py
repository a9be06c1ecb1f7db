"""The page's state is one store (web/js/state/store.js), and the history and the lesson bar are
derived from it (web/js/state/history.js): browser Back and Forward bring back the page's state
with the lesson's place, so the lesson bar never shows another step than the page."""

from __future__ import annotations

import json
from pathlib import Path

from liveserver import PageProbe, frag
from playwright.sync_api import expect

LESSON = json.loads(
    (Path(__file__).parents[2] / "web/js/lessons/relative-resolution.json").read_text())


def test_the_lesson_bar_follows_back_and_forward(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/", view="lessons"))
    page.locator("#lesson-examples .lesson-pick").first.click()
    page.click("#lesson-play")
    steps = LESSON["steps"]
    n = len(steps)

    def at(k: int) -> None:
        expect(page.locator("#lesson-pos")).to_have_text(f"{k + 1} / {n}")
        expect(page.locator("#input")).to_have_value(steps[k]["input"])
        expect(page.locator(f"#tab-{steps[k]['view']}")).to_have_attribute("aria-selected", "true")

    at(0)
    page.click("#lesson-next")
    at(1)
    page.click("#lesson-next")
    at(2)
    page.go_back()
    at(1)
    page.go_back()
    at(0)
    page.go_forward()
    at(1)
    # the lesson goes on from where Back left it
    page.click("#lesson-next")
    at(2)
    probe.assert_clean()


def test_back_and_forward_restore_the_views_and_inputs(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://a/", view="components"))
    expect(page.locator('[data-getter="href"]')).to_have_text("https://a/")
    page.click("#tab-resolution")
    page.fill("#input", "https://b/")
    page.keyboard.press("Enter")  # (an entry of its own)
    expect(page.locator("#href-view")).to_have_text("https://b/")
    page.click("#tab-validation")
    page.go_back()
    expect(page.locator("#tab-resolution")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#input")).to_have_value("https://b/")
    page.go_back()
    page.go_back()
    expect(page.locator("#tab-components")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#input")).to_have_value("https://a/")
    expect(page.locator('[data-getter="href"]')).to_have_text("https://a/")
    page.go_forward()
    expect(page.locator("#tab-resolution")).to_have_attribute("aria-selected", "true")
    # a changed state is in the permalink at once, for Back and for the address bar
    assert "view=resolution" in page.url
    probe.assert_clean()
