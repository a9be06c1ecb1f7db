"""Issue 29's small things a class notices, one test each: the paper tape's double entries, the
Markdown export's footer and failure reason (with the real renderer), the Calculators' empty
host and their start from the page's URL, the "more code points" note in a getter cell and the
one truncation limit, a permalink's ignored parts, the engine badge after Implementations, the
words on a touch screen, and a page opened from a file."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from liveserver import REPO, PageProbe, frag

from urlcalc.model import limits
from urlcalc.model import results as model

RENDER = REPO / "tests" / "markdown" / "render.mjs"
PYODIDE_LINE = ("urlcalc 0.1.0 via Pyodide (in this page): Python 3.14.2, Unicode 16.0.0, "
                "idna 3.20")


def test_the_tape_records_an_input_once_when_the_view_changes(probe: PageProbe) -> None:
    page = probe.open(frag(input="x"))
    page.fill("#input", "http://a/b/../c")
    page.press("#input", "Enter")
    for view in ["steps", "editions", "components", "validation", "editions", "components"]:
        page.click(f"#tab-{view}")
        if view == "editions":
            page.wait_for_function("() => urlcalc.tape.entries.some((e) => e.note)")
        page.wait_for_timeout(1100)  # past the idle delay that adds to the tape
    entries = page.evaluate("() => urlcalc.tape.entries")
    assert [e["input"] for e in entries if e["input"] != "x"] == ["http://a/b/../c"], entries
    assert "editions differ" in entries[-1]["note"]  # the Editions view's count kept
    assert page.locator("#tape .tape-entry").count() == len(entries)
    probe.assert_clean()


def _markdown(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node is not None
    p = subprocess.run([node, str(RENDER)], input=json.dumps(cases), capture_output=True,
                       text=True, check=False, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    out: list[dict[str, Any]] = json.loads(p.stdout)
    return out


def test_markdown_footer_is_escaped_only_where_markdown_needs_it_and_failures_say_why() -> None:
    failing = model.parse_model("http://exa mple/", None)
    ok = model.parse_model("https://example.com/", None)
    hostile = PYODIDE_LINE + " `x` [y](https://evil.example) www.evil.example a@b.example <b>"
    cases = [{"state": {"input": "http://exa mple/", "base": ""}, "result": failing,
              "engine": PYODIDE_LINE, "page": "https://calc.example/"},
             {"state": {"input": "https://example.com/", "base": ""}, "result": ok,
              "engine": hostile, "page": "https://calc.example/"}]
    first, second = _markdown(cases)
    footer = first["markdown"].splitlines()[-1]
    assert footer.startswith(PYODIDE_LINE + " · [permalink]("), footer  # no \. \( \) \:
    assert f"<p>{PYODIDE_LINE} · <a href=" in first["html"]
    reason = failing["failure"]["reason"]
    assert reason
    why = [row for row in first["rows"] if row[0] == "**why**"]
    assert len(why) == 1 and re.sub(r"\\(.)", r"\1", why[0][1]) == reason, (why, reason)
    assert reason.split(":")[0] in first["html"]
    # still no link but the permalink from a hostile engine line
    assert [h for h in second["links"] if "evil" in h] == [], second["links"]
    assert second["html_tokens"] == []


def test_calculators_start_from_the_page_url_and_an_empty_host_is_no_error(
        probe: PageProbe) -> None:
    page = probe.open(frag(input="https://Café.example.com/menu/../prix?plat=crêpe#d",
                           view="calculators"))
    page.wait_for_selector("#host-out [data-host-result]")
    assert page.input_value("#host-input") == "Café.example.com"
    assert page.input_value("#pct-input") == "/menu/../prix"
    assert page.input_value("#form-input") == "plat=crêpe"
    assert "xn--caf-dma.example.com" in page.inner_text("#host-out")
    assert "crêpe" in page.inner_text("#form-out")
    # an empty host field: a hint, not the host parser's red failure
    page.fill("#host-input", "")
    page.wait_for_selector("#host-empty")
    assert page.locator("#host-out .failure").count() == 0
    # a URL without a host: the same hint, before anything is typed
    page2 = probe.context.new_page()
    probe.attach(page2)
    page2.goto(probe.base_url + "?engine=server#" + frag(input="mailto:x", view="calculators"))
    page2.wait_for_selector("#host-empty")
    assert page2.locator("#panel-calculators .failure").count() == 0
    probe.assert_clean()


def test_the_more_code_points_note_is_in_sight_and_one_limit_holds(probe: PageProbe) -> None:
    n = limits.MAX_SHOWN_CODE_POINTS
    url = "http://a/" + "x" * (n + 981)
    page = probe.open(frag(input=url))
    page.wait_for_selector('#panel-components [data-getter="href"] .trunc-more')
    notes = page.evaluate("""() => [...document.querySelectorAll('.trunc-more')].map((e) => {
      let box = e.parentElement;
      while (box && getComputedStyle(box).overflowX === 'visible') box = box.parentElement;
      const r = e.getBoundingClientRect(), b = box.getBoundingClientRect();
      return {text: e.textContent, more: Number(e.dataset.more), left: r.left, right: r.right,
              boxLeft: b.left, boxRight: b.right};
    })""")
    assert len(notes) >= 4, notes  # the input, the href, getters, the tape
    for note in notes:
        assert note["boxLeft"] - 1 <= note["left"] and note["right"] <= note["boxRight"] + 1, note
    # one limit: every string shows its first MAX_SHOWN_CODE_POINTS code points
    mores = {note["more"] for note in notes}
    shown = {"href and input": len(url), "pathname": len(url) - len("http://a"),
             "the path's x": len(url) - len("http://a/")}
    assert mores <= {length - n for length in shown.values()}, (mores, notes)
    facts = (REPO / "web" / "js" / "facts.js").read_text(encoding="utf-8")
    assert f"export const MAX_SHOWN_CODE_POINTS = {n};" in facts
    probe.assert_clean()


@pytest.mark.parametrize("fragment,words", [
    (frag(input="http://a/", view="browser"), "view=browser"),
    ("input=%E0%A4", "not percent-encoded UTF-8"),
    ("input=x&ops=notjson", "ops: not a JSON list"),
])
def test_bad_permalink_parts_are_named_in_a_notice(probe: PageProbe, fragment: str,
                                                    words: str) -> None:
    page = probe.open(fragment)
    notice = page.locator("#permalink-notice")
    assert notice.is_visible()
    assert words in notice.inner_text()
    page.click("#permalink-notice-dismiss")
    assert not notice.is_visible()
    # a good permalink: no notice
    page.evaluate("() => { location.hash = 'input=http%3A%2F%2Fb%2F&view=steps'; }")
    page.wait_for_function("() => urlcalc.state.input === 'http://b/'")
    assert not notice.is_visible()
    probe.assert_clean()


def test_the_engine_badge_follows_the_view(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://a/"), query="")  # Pyodide answers the page
    page.wait_for_selector("body[data-engine=pyodide]", timeout=60_000)
    badge = page.locator("#engine-answer .engine-name")
    assert badge.inner_text() == "Pyodide"
    page.click("#tab-implementations")
    page.wait_for_selector("#implementations-table")
    page.wait_for_function("() => document.querySelector('#engine-answer .engine-name')"
                           ".textContent === 'Server'")
    page.click("#tab-components")
    page.wait_for_function("() => document.querySelector('#engine-answer .engine-name')"
                           ".textContent === 'Pyodide'")
    probe.assert_clean()


def test_touch_screens_are_told_to_tap(browser: Any, server_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    try:
        page = context.new_page()
        page.goto(server_url + "?engine=server#" + frag(input="HTTP://a/b", view="implementations"))
        page.wait_for_selector("#implementations-table td[data-impl] .same")
        help_text = page.inner_text("#panel-implementations .side-controls .help")
        assert "(tap for it)" in help_text and "hover" not in help_text, help_text
        cell = page.locator("#implementations-table td:has(.same)").first
        assert not cell.locator(".same-value").is_visible()
        cell.tap()
        assert cell.locator(".same-value").is_visible()
    finally:
        context.close()
    # with a mouse: hover
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(server_url + "?engine=server#" + frag(input="HTTP://a/b", view="implementations"))
        page.wait_for_selector("#implementations-table")
        assert "(hover for it)" in page.inner_text("#panel-implementations .side-controls .help")
    finally:
        context.close()


def test_a_page_opened_from_a_file_disables_copy_and_presents(browser: Any,
                                                               tmp_path: Path) -> None:
    site = tmp_path / "web"
    shutil.copytree(REPO / "web", site, ignore=shutil.ignore_patterns("node_modules", "boot"))
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto((site / "index.html").as_uri())
        page.wait_for_selector("body[data-where=file]")
        for sel in ["#copy-md", "#copy-wpt"]:
            assert page.get_attribute(sel, "aria-disabled") == "true"
            assert "opened from a file" in (page.get_attribute(sel, "title") or "")
        assert page.get_attribute("#presenter", "aria-pressed") == "false"
        page.click("#presenter")
        assert page.get_attribute("#presenter", "aria-pressed") == "true"
        assert "presenter" in (page.get_attribute("body", "class") or "")
    finally:
        context.close()
