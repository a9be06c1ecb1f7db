"""Issue 11, the classroom and the phone: presenter mode on a 1280x720 or 1024x768 projector, a
360x740 phone with the URL field focused, lessons (files, links, presenting), the empty string,
line breaks only at delimiters, the Setters lab WPT export, and no failing request on load.

Every layout assertion is geometry (bounding boxes in the viewport, no scrolling), never a time.
Most tests force the API engine (?engine=server): the layout is the same for both engines.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from liveserver import PUBLIC_URL, PageProbe, frag
from playwright.sync_api import expect

ISSUE_URL = "https://Café.example.com/menu/../prix?plat=crêpe#dessert"
ISSUE_HREF = "https://xn--caf-dma.example.com/prix?plat=cr%C3%AApe#dessert"

# What must be on screen at the top of each view (besides the panel itself).
VIEW_HEADS: dict[str, list[str]] = {
    "components": ['#panel-components [data-getter="href"]',
                   '#panel-components [data-getter="origin"]'],
    "steps": ["#trace-input", "#step-play", "#step-list li.selected", "#step-detail .detail-head",
              "#step-spec-words"],
    "resolution": ['#panel-resolution tr[data-field="scheme"]'],
    "setters": ["#set-start", "#op-add"],
    "validation": ["#panel-validation .verdict"],
    "editions": ["#editions-summary"],
    "implementations": ["#implementations-summary"],
    "calculators": ["#calc-pct-h"],
    "examples": ["#examples .example"],
    "lessons": ["#lesson-examples .lesson-pick"],
}
VIEWS = list(VIEW_HEADS)

BOXES = """(sels) => Object.fromEntries(sels.map((s) => {
  const el = document.querySelector(s);
  if (!el) return [s, null];
  const r = el.getBoundingClientRect();
  const shown = r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  return [s, { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height,
               shown }];
}))"""


def boxes(page: Any, selectors: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(BOXES, selectors)
    return found


def assert_on_screen(page: Any, selectors: list[str], *, width: int, height: int,
                     where: str) -> dict[str, Any]:
    """Each selector's element is shown and wholly inside the viewport (no scrolling)."""
    found = boxes(page, selectors)
    for sel, b in found.items():
        assert b is not None, (where, sel, "missing")
        assert b["shown"], (where, sel, "not shown")
        assert b["top"] >= 0 and b["left"] >= -0.5, (where, sel, b)
        assert b["bottom"] <= height + 0.5 and b["right"] <= width + 0.5, (where, sel, b)
    return found


def open_view(page: Any, view: str) -> None:
    page.click(f"#tab-{view}")
    for sel in VIEW_HEADS[view]:
        expect(page.locator(sel).first).to_be_visible()
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def no_horizontal_overflow(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


# (1) presenter mode on a projector ------------------------------------------------------------

@pytest.mark.parametrize("size", [(1280, 720), (1024, 768)], ids=["1280x720", "1024x768"])
def test_presenter_mode_fits_the_projector_in_every_view(probe: PageProbe,
                                                         size: tuple[int, int]) -> None:
    width, height = size
    page = probe.page
    page.set_viewport_size({"width": width, "height": height})
    probe.open(frag(input=ISSUE_URL, presenter=1, step=20))
    expect(page.locator("body")).to_have_class(re.compile(r"\bpresenter\b"))
    # the escapes and encoding fields are folded away (not used here); the header is one line
    expect(page.locator("#input-escaped")).to_be_hidden()
    expect(page.locator("#encoding")).to_be_hidden()
    expect(page.locator("#more-fields")).to_have_attribute("aria-expanded", "false")
    top = boxes(page, [".topbar"])[".topbar"]
    assert top["height"] <= 48, top
    for view in VIEWS:
        open_view(page, view)
        where = f"{width}x{height} presenter {view}"
        found = assert_on_screen(page, ["#input", "#base", "#href-view", f"#tab-{view}",
                                        *VIEW_HEADS[view]], width=width, height=height,
                                 where=where)
        panel = boxes(page, [f"#panel-{view}"])[f"#panel-{view}"]
        # the open view starts under the tabs, high enough to show a good part of it
        assert panel["top"] >= found[f"#tab-{view}"]["bottom"] - 1, (where, panel)
        assert panel["top"] <= height - 300, (where, panel)
        assert page.evaluate("window.scrollY") == 0, where
        no_horizontal_overflow(page, width)
    expect(page.locator("#href-view")).to_have_text(ISSUE_HREF)
    probe.assert_clean()


def test_presenter_mode_keeps_a_failure_and_the_failing_step_on_screen(probe: PageProbe) -> None:
    page = probe.page
    page.set_viewport_size({"width": 1280, "height": 720})
    probe.open(frag(input="http://a b/", presenter=1, view="steps", step=27))
    expect(page.locator("#href-view #failure-box")).to_be_visible()
    expect(page.locator("#step-spec-words")).to_be_visible()
    assert_on_screen(page, ["#input", "#base", "#href-view #failure-box", "#trace-input",
                            "#step-list li.selected", "#step-detail .detail-head",
                            "#step-spec-words"], width=1280, height=720, where="failure")
    # the whole algorithm unfolds under the quoted step, still usable
    page.click("#step-algorithm summary")
    expect(page.locator("#step-algorithm li.applied")).to_be_visible()
    probe.assert_clean()


def test_presenter_mode_unfolds_escapes_and_encoding_when_used(probe: PageProbe) -> None:
    page = probe.page
    page.set_viewport_size({"width": 1280, "height": 720})
    probe.open(frag(input="https://example.com/?q=é", enc="windows-1252", presenter=1,
                    view="components"))
    # an encoding is chosen: both fields show, and the answer and the view still fit
    expect(page.locator("#encoding")).to_be_visible()
    expect(page.locator("#input-escaped")).to_be_visible()
    assert_on_screen(page, ["#input", "#base", "#encoding", "#href-view",
                            *VIEW_HEADS["components"]], width=1280, height=720, where="enc")
    page.select_option("#encoding", "")
    page.locator("#encoding").blur()
    expect(page.locator("#encoding")).to_be_hidden()
    # the button unfolds them by hand, and folds them again
    page.click("#more-fields")
    expect(page.locator("#input-escaped")).to_be_focused()
    expect(page.locator("#more-fields")).to_have_attribute("aria-expanded", "true")
    page.click("#more-fields")
    expect(page.locator("#input-escaped")).to_be_hidden()
    # an invisible code point can only be edited in the escapes field: it shows by itself
    page.fill("#input", "https://example.com/\u200b")
    expect(page.locator("#input-escaped")).to_be_visible()
    expect(page.locator("#input-escaped")).to_have_value("https://example.com/\\u{200B}")
    probe.assert_clean()


def test_1024x768_without_presenter_mode_shows_the_href_and_the_view(probe: PageProbe) -> None:
    page = probe.page
    page.set_viewport_size({"width": 1024, "height": 768})
    probe.open(frag(input=ISSUE_URL, step=20))
    # not presenter mode: every field is there as before
    expect(page.locator("#input-escaped")).to_be_visible()
    expect(page.locator("#more-fields")).to_be_hidden()
    for view in VIEWS:
        open_view(page, view)
        found = assert_on_screen(page, ["#input", "#base", "#href-view", f"#tab-{view}"],
                                 width=1024, height=768, where=f"1024x768 {view}")
        panel = boxes(page, [f"#panel-{view}"])[f"#panel-{view}"]
        # the top of the open view (at least 100 px of it: the top bar now also says where the
        # page runs) is on screen below its tab
        assert found[f"#tab-{view}"]["bottom"] - 1 <= panel["top"] <= 768 - 100, (view, panel)
        assert page.evaluate("window.scrollY") == 0
        no_horizontal_overflow(page, 1024)
    probe.assert_clean()


# (2) a phone, typing --------------------------------------------------------------------------

def test_phone_keeps_the_answer_in_sight_while_typing_in_every_view(probe: PageProbe) -> None:
    page = probe.page
    width, height = 360, 740
    page.set_viewport_size({"width": width, "height": height})
    probe.open(frag(input="https://example.com/"))
    answer = page.locator("#answer-line")
    page.fill("#input", "")
    page.locator("#input").press_sequentially(ISSUE_URL)
    expect(page.locator("#input")).to_be_focused()
    expect(answer).to_have_text(ISSUE_HREF)
    for view in VIEWS:
        page.locator("#input").blur()
        page.click(f"#tab-{view}")
        expect(page.locator(f"#panel-{view}")).to_be_visible()
        page.evaluate("() => window.scrollTo(0, 0)")
        page.click("#input")
        page.keyboard.press("End")
        page.keyboard.type("x")
        expect(answer).to_have_text(ISSUE_HREF + "x")
        where = f"360x740 {view}"
        found = assert_on_screen(page, ["#input", "#answer-line"], width=width, height=height,
                                 where=where)
        # right under the field, in the top half (an on-screen keyboard takes the bottom half)
        assert found["#answer-line"]["top"] >= found["#input"]["bottom"] - 1, where
        assert found["#answer-line"]["bottom"] <= height / 2, (where, found["#answer-line"])
        # the open view: under its tabs, as wide as the screen, nothing sideways
        tabs_box = boxes(page, ["#tabs", f"#panel-{view}"])
        panel = tabs_box[f"#panel-{view}"]
        assert panel["top"] >= tabs_box["#tabs"]["bottom"] - 1, (where, panel)
        assert panel["left"] >= 0 and panel["right"] <= width, (where, panel)
        no_horizontal_overflow(page, width)
        page.keyboard.press("Backspace")
        expect(answer).to_have_text(ISSUE_HREF)
    # a failure reads as one in the answer line
    page.fill("#input", "http://a b/")
    expect(answer).to_have_text("✗ fails in domain parser, step 8")
    probe.assert_clean()


# (5) the empty string -------------------------------------------------------------------------

def after_content(page: Any, selector: str) -> str:
    content: str = page.locator(selector).evaluate(
        "(el) => getComputedStyle(el, '::after').content")
    return content


def test_empty_getters_read_as_the_empty_string(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/"))
    for g in ("username", "password", "port", "search", "hash"):
        sel = f'#panel-components [data-getter="{g}"]'
        expect(page.locator(sel)).to_have_attribute("data-value", "")
        assert after_content(page, sel) == '"\\"\\""', g  # CSS content: the string ""
    assert after_content(page, '#panel-components [data-getter="host"]') == "none"
    # no URL at all: the getters are absent, marked with a dash
    page.fill("#input", "http://a b/")
    expect(page.locator("#href-view #failure-box")).to_be_visible()
    sel = '#panel-components [data-getter="port"]'
    expect(page.locator(sel)).not_to_have_attribute("data-value", "")
    assert after_content(page, sel) == '"—"'
    probe.assert_clean()


# (6) line breaks at delimiters only -----------------------------------------------------------

# Every place where a text run moves to the next line: the character before the break must be a
# delimiter (dom.js: BREAK_AFTER) or a space; never a hyphen ("xn--caf-⏎dma") or a letter.
LINE_BREAKS = """(sel) => {
  const ok = new Set(["/", "\\\\", "?", "#", "&", "=", ".", "@", ";", ",", " "]);
  const out = { lines: 0, bad: [] };
  for (const el of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let prev = null, prevTop = null, text = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getClientRects()[0];
        if (!r) continue;
        if (prevTop !== null && r.top > prevTop + 4) {
          out.lines += 1;
          if (!ok.has(prev)) out.bad.push(text.slice(-12) + "⏎" + node.data[i]);
        }
        prev = node.data[i];
        prevTop = r.top;
        text += prev;
      }
    }
  }
  return out;
}"""


def line_breaks(page: Any, selector: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(LINE_BREAKS, selector)
    return found


def enter(page: Any, text: str) -> None:
    """Type an input, wait for its answer, press Enter (the paper tape records it)."""
    page.fill("#input", text)
    expect(page.locator("#input-view")).to_have_text(text)
    page.locator("#input").press("Enter")


def test_hosts_and_urls_break_only_at_delimiters(probe: PageProbe) -> None:
    page = probe.page
    # the paper tape: a narrow column beside the page on a wide screen
    probe.open(frag(input=""))
    for url in ("https://www.a-rather-long-host-name.example.com/some/path?query=value",
                "https://example.com/"):
        enter(page, url)
    expect(page.locator("#tape .tape-entry")).to_have_count(2)
    found = line_breaks(page, "#tape .tape-entry")
    assert found["bad"] == [] and found["lines"] >= 1, found
    # a phone
    page.set_viewport_size({"width": 360, "height": 740})
    base = "https://user@a-rather-long-host-name.example.org:8443/dir/sub/index.html?x=1#y"
    page.evaluate("(f) => { location.hash = f; }",
                  frag(input="../c/./d?q=crêpe#f", base=base, view="resolution"))
    expect(page.locator('#panel-resolution tr[data-field="host"]')).to_be_visible()
    checked = 0
    for sel in ("#href-view", "#input-view", "#answer-line", "#panel-resolution .tok-str"):
        found = line_breaks(page, sel)
        assert found["bad"] == [], (sel, found)
        checked += found["lines"]
    page.click("#tab-components")
    page.fill("#base", "")
    page.fill("#input", ISSUE_URL)
    expect(page.locator('#panel-components [data-getter="href"]')).to_have_text(ISSUE_HREF)
    for sel in ("#panel-components .val", "#panel-components .tok-str", "#href-view",
                "#answer-line"):
        found = line_breaks(page, sel)
        assert found["bad"] == [], (sel, found)
        checked += found["lines"]
    assert checked >= 5, "the test inputs should wrap somewhere at 360 px"
    # a run with no delimiter longer than the line scrolls sideways, unbroken
    page.fill("#input", "https://example.com/" + "x" * 120)
    expect(page.locator("#href-view")).to_contain_text("x" * 120)
    assert line_breaks(page, "#href-view")["bad"] == []
    assert page.locator("#href-view").evaluate("(el) => el.scrollWidth > el.clientWidth")
    no_horizontal_overflow(page, 360)
    probe.assert_clean()


# (7) the Setters lab WPT export ---------------------------------------------------------------

def test_setters_wpt_export_says_what_it_leaves_out(probe: PageProbe) -> None:
    probe.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ops = [["protocol", "http"], ["searchParams.append", "q=1 2"], ["port", "8080"],
           ["searchParams.set", "q=3"], ["searchParams.sort", ""], ["href", "/relative"]]
    page = probe.open(frag(input="https://example.com/", view="setters", ops=ops))
    expect(page.locator("#set-results .op-card")).to_have_count(6)
    page.click("#copy-wpt")
    expect(page.locator("#toast")).to_contain_text("2 of 6 operations")
    expect(page.locator("#toast")).to_contain_text("not 2, 4, 5, 6")
    data = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert list(data) == ["comment", "protocol", "port"]
    # the comment: the permalink's line (when the page has a public address), then what the
    # export left out and why
    comment = data["comment"]
    if comment[0].startswith("urlcalc: "):
        comment = comment[1:]
    assert comment[0] == "Not exported: 4 of 6 operations have no setters_tests.json form."
    assert comment[1].startswith('2. url.searchParams.append("q", "1 2"): ')
    assert "URLSearchParams methods" in comment[1]
    assert comment[3].startswith("5. url.searchParams.sort(): ")
    assert comment[4].startswith('6. url.href = "/relative": the setter threw (TypeError')
    assert data["port"][0]["expected"]["port"] == "8080"
    # without such operations, the comment is the permalink's line alone (the test server has a
    # public address), then the entries
    page.evaluate("(f) => { location.hash = f; }",
                  frag(input="https://example.com/", view="setters", ops=[["port", "81"]]))
    expect(page.locator("#set-results .op-card")).to_have_count(1)
    page.click("#copy-wpt")
    expect(page.locator("#toast")).to_contain_text("1 of 1 operations; all")
    copied = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert list(copied) == ["comment", "port"]
    assert len(copied["comment"]) == 1 and copied["comment"][0].startswith("urlcalc: http")
    probe.assert_clean()


# (8) no failing request on load ---------------------------------------------------------------

def test_no_failing_request_while_pyodide_boots(probe: PageProbe) -> None:
    page = probe.page
    failed: list[str] = []
    requests: list[tuple[str, str]] = []
    bad_status: list[str] = []
    probe.context.on("requestfailed", lambda r: failed.append(f"{r.method} {r.url} {r.failure}"))
    probe.context.on("request", lambda r: requests.append((r.method, r.url)))
    probe.context.on("response",
                     lambda r: r.status >= 400 and bad_status.append(f"{r.status} {r.url}"))
    page.goto(probe.base_url + "#" + frag(input="https://example.com/"))
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=90_000)
    expect(page.locator('[data-getter="href"]')).to_have_text("https://example.com/")
    assert failed == [] and bad_status == [], (failed, bad_status)
    wasm = [(m, u) for m, u in requests if u.endswith("pyodide.asm.wasm")]
    assert wasm == [("GET", probe.base_url + "pyodide/pyodide.asm.wasm")], wasm
    assert not [u for m, u in requests if m == "HEAD"]
    probe.assert_clean()


def test_a_wasm_with_the_wrong_type_is_named_without_a_probe(probe: PageProbe) -> None:
    page = probe.page
    page.route("**/pyodide.asm.wasm",
               lambda route: route.fulfill(status=200, body=b"\0asm", content_type="text/plain"))
    page.goto(probe.base_url + "#" + frag(input="https://example.com/x"))
    expect(page.locator('[data-getter="href"]')).to_have_text("https://example.com/x")
    expect(page.locator("#engine-boot")).to_contain_text("not application/wasm", timeout=60_000)
    expect(page.locator("#engine-boot")).to_contain_text("served as text/plain")
    assert page.evaluate("document.body.dataset.engine") == "server"
    probe.assert_clean()


# (4) boot progress ----------------------------------------------------------------------------

# Installed before the page's scripts: every state of #boot-progress shown before the first
# answer (body[data-renders] is set by the first render), as data, in order.
BOOT_WATCH = """
window.__boot = [];
document.addEventListener("DOMContentLoaded", () => {
  const el = document.getElementById("boot-progress");
  new MutationObserver(() => {
    if (document.body.dataset.renders || el.hidden) return;
    const files = {};
    for (const li of el.querySelectorAll("li[data-file]")) {
      const total = li.dataset.total === "" ? null : Number(li.dataset.total);
      const loaded = Number(li.dataset.loaded);
      files[li.dataset.file] = { loaded, total, state: li.dataset.state };
    }
    const phase = el.querySelector("#boot-phase");
    const r = el.getBoundingClientRect();
    window.__boot.push({ files, phase: phase ? phase.dataset.phase : null, visible: r.height > 0,
      box: { top: r.top, bottom: r.bottom, left: r.left, right: r.right } });
  }).observe(el, { subtree: true, childList: true, attributes: true });
});
"""

# A normal boot's downloads, or a boot from the snapshot's (web/js/workers/pyodide-worker.js).
BOOT_FILES = ("pyodide.asm.wasm", "python_stdlib.zip", "bundle.zip")
SNAPSHOT_BOOT_FILES = ("pyodide.asm.wasm", "snapshot.bin")


def check_boot_progress(seen: list[dict[str, Any]]) -> None:
    assert seen, "no boot progress was shown before the first answer"
    assert all(s["visible"] for s in seen)
    last = seen[-1]
    assert tuple(last["files"]) in (BOOT_FILES, SNAPSHOT_BOOT_FILES), last["files"]
    for name in last["files"]:
        f = last["files"][name]
        assert f["state"] == "done" and f["total"] and f["loaded"] == f["total"], (name, f)
    wasm_total = last["files"]["pyodide.asm.wasm"]["total"]
    assert wasm_total > 5_000_000  # the decoded wasm, not its gzip size
    # how far: the wasm was seen part-way, with its size known, and its bytes only grow
    partial = [s["files"]["pyodide.asm.wasm"] for s in seen
               if s["files"]["pyodide.asm.wasm"]["state"] == "loading"]
    assert any(0 < f["loaded"] < f["total"] == wasm_total for f in partial), partial[:5]
    loaded = [f["loaded"] for f in partial]
    assert loaded == sorted(loaded)
    # and what happens after the downloads, before the first answer
    phases = [s["phase"] for s in seen]
    assert "download" in phases and phases[-1] != "download", phases[-3:]


def test_boot_progress_before_pyodide_answers(probe: PageProbe) -> None:
    page = probe.page
    probe.context.add_init_script(BOOT_WATCH)
    page.goto(probe.base_url + "?engine=pyodide#" + frag(input="https://example.com/a"))
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=90_000)
    expect(page.locator("#boot-progress")).to_be_hidden()
    expect(page.locator("#href-view")).to_have_text("https://example.com/a")
    check_boot_progress(page.evaluate("window.__boot"))
    probe.assert_clean()


@pytest.fixture(scope="module")
def static_site(tmp_path_factory: pytest.TempPathFactory, server_url: str) -> Any:
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    from urlcalc.site.export import export_static

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    class Server(ThreadingHTTPServer):
        def handle_error(self, request: Any, client_address: Any) -> None:
            # the browser drops a response it no longer wants (the isolation reload aborts the
            # first document's fetches): not an error of the site; anything else still prints
            if not isinstance(sys.exc_info()[1], ConnectionError):
                super().handle_error(request, client_address)

    out = export_static(tmp_path_factory.mktemp("export") / "site")
    httpd = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(out)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_boot_progress_on_the_static_export(browser: Any, static_site: str) -> None:
    from liveserver import Offline

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    offline = Offline()
    offline.watch(context)
    context.add_init_script(BOOT_WATCH)
    # On a first visit the page reloads once through the site's service worker (isolation.js):
    # what the first document was still fetching then is aborted by that navigation, which is
    # no failure of the site if the second document then fetched it. Every other failed request
    # is. (Which document asked cannot be told from the request: the first one goes on asking
    # for modules after the second one's request has started, until the second one commits.)
    documents = [0]
    asked_by: dict[Any, int] = {}
    failed: list[str] = []
    aborted: list[str] = []
    fetched_again: set[str] = set()
    page = context.new_page()

    def asked(r: Any) -> None:
        if r.is_navigation_request() and r.frame == page.main_frame:
            documents[0] += 1  # a document's own request starts it
        asked_by[r] = documents[0]

    context.on("request", asked)
    context.on("requestfailed", lambda r: (
        aborted if "ERR_ABORTED" in (r.failure or "") else failed
    ).append(r.url))
    context.on("requestfinished", lambda r: (
        fetched_again.add(r.url) if asked_by.get(r) == 2 else None
    ))
    probe = PageProbe(context, page, offline, static_site)
    try:
        page.goto(static_site + "#" + frag(input="https://example.com/a", presenter=1))
        expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=90_000)
        expect(page.locator("#href-view")).to_have_text("https://example.com/a")
        expect(page.locator("#boot-progress")).to_be_hidden()
        seen = page.evaluate("window.__boot")
        check_boot_progress(seen)
        # the progress was where the answer comes: on screen, on a projector
        for s in seen:
            b = s["box"]
            assert b["top"] >= 0 and b["bottom"] <= 720 and b["right"] <= 1280, b
        assert failed == []
        isolated_by = page.evaluate("() => window.urlcalc.engine.info.isolation.by")
        reloaded = isolated_by == "service worker"
        assert documents[0] == (2 if reloaded else 1), documents
        assert reloaded or aborted == [], aborted
        assert [u for u in aborted if u not in fetched_again] == [], (aborted, fetched_again)
        probe.assert_clean()
    finally:
        context.close()


# (3) lessons ----------------------------------------------------------------------------------

def lesson_file(page: Any, click: str) -> dict[str, Any]:
    with page.expect_download() as d:
        page.click(click)
    download = d.value
    data: dict[str, Any] = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    data["__name"] = download.suggested_filename
    return data


def test_lesson_built_by_hand_exports_and_imports_unchanged(probe: PageProbe,
                                                            tmp_path: Path) -> None:
    page = probe.open(frag(input="../c", base="https://example.com/a/b", view="resolution"))
    page.keyboard.press("0")
    expect(page.locator("#panel-lessons")).to_be_visible()
    expect(page.locator("#lesson-examples .lesson-pick")).to_have_count(3)
    page.click("#lesson-new")
    # the first step is what the page showed
    expect(page.locator("#lesson-steps .lesson-step")).to_have_count(1)
    expect(page.locator("#ls-input-0")).to_have_value("../c")
    expect(page.locator("#ls-base-0")).to_have_value("https://example.com/a/b")
    expect(page.locator("#ls-view-0")).to_have_value("resolution")
    page.fill("#lesson-title", "Dots, by hand")
    page.fill("#ls-note-0", "one directory up")
    # a second step from the page: Steps, at a trace step
    page.evaluate("(f) => { location.hash = f; }",
                  frag(input="https://example.com/a/../b", view="steps", step=5))
    expect(page.locator("#step-list li.selected")).to_have_attribute("data-step", "5")
    page.click("#tab-lessons")
    page.click("#lesson-add-current")
    expect(page.locator("#ls-view-1")).to_have_value("steps")
    expect(page.locator("#ls-step-1")).to_have_value("5")
    page.fill("#ls-note-1", "the path state meets ..")
    # a third step typed by hand, then moved to the front
    page.click("#lesson-add-current")
    page.fill("#ls-input-2", "HTTP://EXAMPLE.com:80/")
    page.select_option("#ls-view-2", "validation")
    page.fill("#ls-note-2", "lower case, default port")
    page.locator('[data-lesson-step="2"] .ls-up').click()
    page.locator('[data-lesson-step="1"] .ls-up').click()
    expect(page.locator("#ls-input-0")).to_have_value("HTTP://EXAMPLE.com:80/")
    exported = lesson_file(page, "#lesson-export")
    assert exported.pop("__name") == "dots-by-hand.urlcalc-lesson.json"
    assert exported["format"] == "urlcalc-lesson" and exported["version"] == 1
    assert exported["title"] == "Dots, by hand"
    steps = exported["steps"]
    assert [s["input"] for s in steps] == ["HTTP://EXAMPLE.com:80/", "../c",
                                          "https://example.com/a/../b"]
    assert steps[0] == {"input": "HTTP://EXAMPLE.com:80/", "view": "validation",
                        "note": "lower case, default port"}
    assert steps[1] == {"input": "../c", "base": "https://example.com/a/b", "view": "resolution",
                        "note": "one directory up", "href": "https://example.com/c"}
    assert steps[2]["view"] == "steps" and steps[2]["step"] == 5
    # delete it, import the file: the same lesson comes back, and exports the same bytes
    page.click("#lesson-delete")
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(0)
    path = tmp_path / "dots.json"
    path.write_text(json.dumps(exported, indent=2), encoding="utf-8")
    page.set_input_files("#lesson-import", str(path))
    expect(page.locator("#lesson-message")).to_contain_text("Imported “Dots, by hand” (3 steps)")
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(1)
    again = lesson_file(page, "#lesson-export")
    again.pop("__name")
    assert again == exported
    # it survives a reload (kept in this browser)
    page.reload()
    page.wait_for_selector("body[data-engine]")
    page.keyboard.press("0")
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(1)
    probe.assert_clean()


def minimal(**step: Any) -> dict[str, Any]:
    return {"format": "urlcalc-lesson", "version": 1, "title": "t",
            "steps": [{"input": "https://example.com/", **step}]}


MALFORMED: list[tuple[str, bytes, str]] = [
    ("empty", b"", "is empty"),
    ("not-json", b"{\"format\": \"urlcalc-lesson\",", "is not JSON"),
    ("not-utf8", b"\xff\xfe\x00{", "is UTF-16 text: a lesson file is UTF-8"),
    ("latin1", json.dumps(minimal(note="h\u00e9"), ensure_ascii=False).encode("latin-1"),
     "is not UTF-8: line 1, byte 112 of the line (byte 112 of the file) is 0xE9"),
    ("array", b"[1, 2]", "a lesson is a JSON object, not an array"),
    ("other-format", json.dumps({"format": "something-else"}).encode(),
     'this is not a urlcalc lesson: "format" is "something-else"'),
    ("no-format", json.dumps({"title": "x", "steps": []}).encode(), "it has no \"format\""),
    ("newer", json.dumps({**minimal(), "version": 2}).encode(),
     "format version 2, made by a newer urlcalc"),
    ("no-title", json.dumps({k: v for k, v in minimal().items() if k != "title"}).encode(),
     'has no "title"'),
    ("no-steps", json.dumps({**minimal(), "steps": []}).encode(), '"steps" is empty'),
    ("misspelt", json.dumps(minimal(notes="x")).encode(), 'unknown key "notes"'),
    ("bad-view", json.dumps(minimal(view="Browser")).encode(),
     'step 1 (steps[0]): "view" is "Browser", not a view'),
    ("bad-step", json.dumps(minimal(step=-1)).encode(), '"step" must be a whole number >= 0'),
    ("bad-ops", json.dumps(minimal(ops=[["port"]])).encode(), "ops[0] must be a pair of strings"),
    ("bad-op", json.dumps(minimal(ops=[["eval", "x"]])).encode(), '"eval" is not an operation'),
    ("input-number", json.dumps(minimal(input=5)).encode(),
     '"input" must be a string, not a number'),
    ("huge", b" " * (1024 * 1024 + 1), "a lesson file is at most 1 MB"),
]


def test_malformed_lesson_files_get_a_clear_message(probe: PageProbe, tmp_path: Path) -> None:
    page = probe.open(frag(input="https://example.com/", view="lessons"))
    expect(page.locator("#lesson-examples .lesson-pick")).to_have_count(3)
    for name, data, message in MALFORMED:
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        page.set_input_files("#lesson-import", str(path))
        box = page.locator("#lesson-message")
        expect(box).to_have_class(re.compile(r"\bbad\b"))
        expect(box).to_contain_text(f"Not imported: {name}.json")
        expect(box).to_contain_text(message)
        expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(0)
    # the page still works
    page.fill("#input", "HTTP://EXAMPLE.com/")
    page.click("#tab-components")
    expect(page.locator('[data-getter="href"]')).to_have_text("http://example.com/")
    probe.assert_clean()


def test_a_lesson_link_carries_the_whole_lesson(probe: PageProbe) -> None:
    probe.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = probe.open(frag(input="https://example.com/", view="lessons"))
    page.locator("#lesson-examples .lesson-pick").nth(1).click()
    expect(page.locator("#lesson-title")).to_have_text("Hosts: IPv4 forms, IPv6, IDNA")
    page.click("#lesson-link")
    expect(page.locator("#toast")).to_contain_text("lesson link")
    link = page.evaluate("navigator.clipboard.readText()")
    # at the calculator's public address (the test server announces one), one short link
    assert link.startswith(PUBLIC_URL + "#lesson=") and len(link) < 4000
    link = probe.base_url + "?engine=server#" + link.split("#", 1)[1]  # opened here, offline
    lesson = json.loads((Path(__file__).parents[2] / "web/js/lessons/hosts.json").read_text())

    other = probe.context.new_page()
    probe.attach(other)
    other.goto(link)
    bar = other.locator("#lesson-bar")
    expect(bar).to_be_visible()
    expect(other.locator("#lesson-bar-title")).to_have_text(lesson["title"])
    n = len(lesson["steps"])
    for k, step in enumerate(lesson["steps"]):
        expect(other.locator("#lesson-pos")).to_have_text(f"{k + 1} / {n}")
        expect(other.locator("#lesson-note")).to_have_text(step["note"])
        expect(other.locator("#input")).to_have_value(step["input"])
        view = step.get("view", "components")
        expect(other.locator(f"#tab-{view}")).to_have_attribute("aria-selected", "true")
        if step["href"] is None:
            expect(other.locator("#href-view #failure-box")).to_be_visible()
        else:
            expect(other.locator("#href-view")).to_have_text(step["href"])
        if view == "steps":
            expect(other.locator("#step-list li.selected")).to_have_attribute(
                "data-step", str(step["step"]))
        # the step's href is what urlcalc gives: no drift warning
        expect(other.locator("#lesson-drift")).to_have_count(0)
        other.locator("body").press("Escape")
        other.keyboard.press("PageDown" if k % 2 else "]")
    expect(other.locator("#lesson-pos")).to_have_text(f"{n} / {n}")
    expect(other.locator("#toast")).to_contain_text("last step")
    other.keyboard.press("[")
    expect(other.locator("#lesson-pos")).to_have_text(f"{n - 1} / {n}")
    # the link put the lesson among the reader's own lessons once, however often it is opened
    other.goto(link)
    expect(other.locator("#lesson-pos")).to_have_text(f"1 / {n}")
    other.keyboard.press("0")
    expect(other.locator("#lesson-mine .lesson-pick")).to_have_count(0)  # it is an example
    other.click("#lesson-stop")
    expect(bar).to_be_hidden()
    other.close()
    probe.assert_clean()


def test_a_lesson_link_from_a_classroom_server_points_at_it(browser: Any) -> None:
    """A server that knows no public address (`urlcalc serve` on the local network): the lesson
    link points at the page's own address, which the class can reach, and the message says so."""
    from liveserver import Offline, live_server

    with live_server() as url:
        context = browser.new_context()
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        offline = Offline()
        offline.watch(context)
        page = context.new_page()
        probe = PageProbe(context, page, offline, url)
        try:
            probe.open(frag(input="https://example.com/", view="lessons"))
            page.locator("#lesson-examples .lesson-pick").nth(2).click()
            page.click("#lesson-link")
            expect(page.locator("#toast")).to_contain_text(
                "Copied a link to this page's own address (127.0.0.1:")
            link = page.evaluate("navigator.clipboard.readText()")
            assert link.startswith(url + "#lesson="), link
            page.goto(link.replace("#", "?engine=server#"))
            expect(page.locator("#lesson-bar-title")).to_have_text(
                "Setters and their early returns")
            expect(page.locator("#tab-setters")).to_have_attribute("aria-selected", "true")
            expect(page.locator("#set-results .op-card")).to_have_count(1)
            probe.assert_clean()
        finally:
            context.close()


@pytest.mark.parametrize(("value", "message"), [
    ("not$base64", "holds characters a lesson link never has"),
    ("AAAAAAAA", "does not unpack"),
    ("", "the lesson link is empty"),
], ids=["characters", "garbage", "empty"])
def test_a_damaged_lesson_link_is_a_message_not_a_broken_page(probe: PageProbe, value: str,
                                                              message: str) -> None:
    page = probe.page
    page.goto(probe.base_url + "?engine=server#lesson=" + value)
    expect(page.locator("#lesson-error")).to_contain_text("This lesson cannot be opened")
    expect(page.locator("#lesson-error")).to_contain_text(message)
    page.wait_for_selector("body[data-engine]")
    page.fill("#input", "https://EXAMPLE.com/")
    expect(page.locator('[data-getter="href"]')).to_have_text("https://example.com/")
    page.click("#lesson-dismiss")
    expect(page.locator("#lesson-bar")).to_be_hidden()
    probe.assert_clean()


def test_present_a_lesson_on_the_projector_with_a_clicker(probe: PageProbe) -> None:
    page = probe.page
    page.set_viewport_size({"width": 1280, "height": 720})
    probe.open(frag(input="https://example.com/", view="lessons"))
    page.locator("#lesson-examples .lesson-pick").first.click()
    page.click("#lesson-present")
    expect(page.locator("body")).to_have_class(re.compile(r"\bpresenter\b"))
    lesson = json.loads(
        (Path(__file__).parents[2] / "web/js/lessons/relative-resolution.json").read_text())
    steps = lesson["steps"]
    for k in range(4):  # steps 1-4: Resolution twice, then Steps twice
        step = steps[k]
        view = step["view"]
        expect(page.locator("#lesson-pos")).to_have_text(f"{k + 1} / {len(steps)}")
        expect(page.locator(f"#tab-{view}")).to_have_attribute("aria-selected", "true")
        for sel in VIEW_HEADS[view]:
            expect(page.locator(sel).first).to_be_visible()
        if view == "steps":
            expect(page.locator("#step-list li.selected")).to_have_attribute(
                "data-step", str(step["step"]))
            # a clicker's PgDn moves the lesson on even with the focus in the step list
            page.locator("#step-list").evaluate("(el) => el.focus({ preventScroll: true })")
        assert_on_screen(page, ["#lesson-bar", "#lesson-note", "#input", "#href-view",
                                *VIEW_HEADS[view]], width=1280, height=720,
                         where=f"lesson step {k + 1}")
        page.keyboard.press("PageDown")
    expect(page.locator("#lesson-pos")).to_have_text(f"5 / {len(steps)}")
    page.keyboard.press("PageUp")
    expect(page.locator("#lesson-pos")).to_have_text(f"4 / {len(steps)}")
    expect(page.locator("#step-list li.selected")).to_have_attribute("data-step",
                                                                     str(steps[3]["step"]))
    # a reload keeps the lesson playing where it was
    page.reload()
    page.wait_for_selector("body[data-engine]")
    expect(page.locator("#lesson-pos")).to_have_text(f"4 / {len(steps)}")
    probe.assert_clean()


def test_the_paper_tape_exports_and_becomes_a_lesson(probe: PageProbe) -> None:
    page = probe.open(frag(input="", base="https://example.org/x/y"))
    for text in ["HTTP://EXAMPLE.com:80/a", "http://a b/", "../up"]:
        enter(page, text)
    expect(page.locator("#tape .tape-entry")).to_have_count(3)
    data = lesson_file(page, "#tape-export")
    assert re.fullmatch(r"urlcalc-paper-tape-[\d-]+\.urlcalc-lesson\.json", data.pop("__name"))
    assert data["format"] == "urlcalc-lesson" and data["title"].startswith("Paper tape, ")
    assert [(s["input"], s["base"], s["href"]) for s in data["steps"]] == [
        ("HTTP://EXAMPLE.com:80/a", "https://example.org/x/y", "http://example.com/a"),
        ("http://a b/", "https://example.org/x/y", None),
        ("../up", "https://example.org/x/y", "https://example.org/up"),
    ]
    page.click("#tape-lesson")
    expect(page.locator("#panel-lessons")).to_be_visible()
    expect(page.locator("#lesson-mine .lesson-pick")).to_have_count(1)
    expect(page.locator("#lesson-steps .lesson-step")).to_have_count(3)
    expect(page.locator("#ls-input-1")).to_have_value("http://a b/")
    # and one tape entry can be added to a lesson by itself
    page.select_option("#lesson-add-tape", "0")
    expect(page.locator("#lesson-steps .lesson-step")).to_have_count(4)
    expect(page.locator("#ls-input-3")).to_have_value("HTTP://EXAMPLE.com:80/a")
    probe.assert_clean()
