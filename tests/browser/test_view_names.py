"""Views named after what the user sees (issue 15): each tab's label, the permalink's view=<name>
it writes, and old names (view=compare, the Implementations view's name until issue 13) still
opening their view from a permalink and from a lesson file. The names themselves, against
web/index.html, are checked without a browser (tests/js/view-names.test.mjs)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from liveserver import PageProbe, frag
from playwright.sync_api import expect


def test_tabs_write_their_own_name_and_old_permalinks_open_their_view(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://a/", view="compare"))
    expect(page.locator("#tab-implementations")).to_have_attribute("aria-selected", "true")
    expect(page.locator("#panel-implementations")).to_be_visible()
    # the page writes the current name back into the address
    expect(page).to_have_url(re.compile(r"#input=http%3A%2F%2Fa%2F&view=implementations$"))
    for view, label in [("editions", "Editions"), ("implementations", "Implementations"),
                        ("setters", "Setters lab"), ("validation", "Validation")]:
        tab = page.locator(f"#tab-{view}")
        expect(tab).to_have_text(label)
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")
        expect(page.locator(f"#panel-{view}")).to_be_visible()
        expect(page).to_have_url(re.compile(rf"&view={view}$"))
    page.goto(probe.base_url + "?engine=server#" + frag(input="http://a/", view="editions"))
    expect(page.locator("#tab-editions")).to_have_attribute("aria-selected", "true")
    probe.assert_clean()


def test_a_lesson_file_with_an_old_view_name_plays(probe: PageProbe, tmp_path: Path) -> None:
    lesson = {"format": "urlcalc-lesson", "version": 1, "title": "Old names",
              "steps": [{"input": "http://a/", "view": "compare", "note": "the old name"},
                        {"input": "http://b/", "view": "editions", "note": "the current one"}]}
    path = tmp_path / "old-names.json"
    path.write_text(json.dumps(lesson), encoding="utf-8")
    page = probe.open(frag(input="http://a/", view="lessons"))
    page.set_input_files("#lesson-import", str(path))
    expect(page.locator("#lesson-message")).to_contain_text("Imported “Old names” (2 steps)")
    page.locator("#lesson-mine .lesson-pick").first.click()
    page.click("#lesson-play")
    expect(page.locator("#lesson-note")).to_have_text("the old name")
    expect(page.locator("#tab-implementations")).to_have_attribute("aria-selected", "true")
    page.locator("body").press("Escape")
    page.keyboard.press("]")
    expect(page.locator("#lesson-note")).to_have_text("the current one")
    expect(page.locator("#tab-editions")).to_have_attribute("aria-selected", "true")
    probe.assert_clean()
