"""The calculator page in Chromium against a live server (see conftest.py).

Most tests force the API engine (?engine=server) to stay fast and deterministic; the boot and
fallback tests run the page as users get it: the API first, then Pyodide in a worker."""

from __future__ import annotations

import json
import re
from typing import Any

from liveserver import PageProbe, frag
from playwright.sync_api import expect

SPEC = "https://url.spec.whatwg.org/"


def getter(page: Any, name: str) -> Any:
    return page.locator(f'#panel-components [data-getter="{name}"]')


# (a) -------------------------------------------------------------------------------------------

def test_boot_offline_switches_to_pyodide(probe: PageProbe) -> None:
    page = probe.page
    page.goto(probe.base_url + "#" + frag(input="https://EXAMPLE.com:443/a/../b"))
    # the API answers at once...
    expect(getter(page, "href")).to_have_text("https://example.com/b")
    # ...then Pyodide boots in the worker (offline: nothing may leave localhost) and takes over
    expect(page.locator("body")).to_have_attribute("data-engine", "pyodide", timeout=45_000)
    expect(page.locator("#engine-answer")).to_contain_text("Pyodide")
    expect(page.locator("#engine-answer")).to_contain_text(re.compile(r"Python 3\.\d+"))
    expect(page.locator("#engine-answer")).to_contain_text("Unicode")
    # typing is now answered by Python in the page
    page.fill("#input", "https://faß.example/")
    expect(getter(page, "href")).to_have_text("https://xn--fa-hia.example/")
    assert page.evaluate("document.body.dataset.engine") == "pyodide"
    assert probe.offline.blocked == []
    probe.assert_clean()
    assert page.evaluate("window.__cspViolations") == []


# (b) -------------------------------------------------------------------------------------------

def test_typing_updates_getters_and_escapes(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://a.example/"))
    renders = int(page.evaluate("document.body.dataset.renders"))
    page.fill("#input", "")
    page.locator("#input").press_sequentially("HTTP://EXAMPLE.com:80/a/../b?x#y")
    expect(getter(page, "href")).to_have_text("http://example.com/b?x#y")
    expect(getter(page, "host")).to_have_text("example.com")
    expect(getter(page, "port")).to_have_text("")
    expect(getter(page, "pathname")).to_have_text("/b")
    assert int(page.evaluate("document.body.dataset.renders")) > renders
    assert page.evaluate("document.body.dataset.engine") == "server"
    # the coloured input and href
    expect(page.locator("#input-view .k-host").first).to_have_text("E")
    expect(page.locator("#href-view .k-host")).to_have_text("example.com")
    # the escapes field follows the input, and the input follows the escapes field
    page.fill("#input", "https://faß.example/\u200b")
    expect(page.locator("#input-escaped")).to_have_value("https://fa\\u{DF}.example/\\u{200B}")
    expect(page.locator("#input-view .cp")).to_have_text("⟨U+200B⟩")
    page.fill("#input-escaped", "https://\\u{441}.example/")
    expect(page.locator("#input")).to_have_value("https://\u0441.example/")
    expect(getter(page, "hostname")).to_have_text("xn--q1a.example")
    # base and failure
    page.fill("#input", "../c")
    page.fill("#base", "https://h.example/a/b/")
    expect(getter(page, "href")).to_have_text("https://h.example/a/c")
    page.fill("#base", "")
    expect(page.locator("#href-view .failure")).to_contain_text("missing-scheme-non-relative-URL")
    expect(getter(page, "href")).to_have_text("")
    probe.assert_clean()


# (c) -------------------------------------------------------------------------------------------

def test_trace_stepping_moves_the_caret(probe: PageProbe) -> None:
    page = probe.open(frag(input="http://u@EXAMPLE.com/a", view="steps"))
    steps = page.locator("#step-list [data-step]")
    expect(steps.first).to_be_visible()
    assert steps.count() > 20
    assert steps.first.get_attribute("data-state") == "scheme start state"
    # host-parser sub-steps are nested under their URL step
    assert page.locator("#step-list li.depth-1[data-state]").count() > 0
    caret = page.locator("#trace-input")
    page.click("#step-first")
    expect(caret).to_have_attribute("data-caret", "0")
    page.focus("#step-list")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(caret).to_have_attribute("data-caret", "2")
    expect(page.locator("#trace-input .c.caret")).to_have_attribute("data-i", "2")
    page.click("#step-next")
    expect(caret).to_have_attribute("data-caret", "3")
    page.focus("#step-list")
    page.keyboard.press("End")
    expect(caret).to_have_attribute("data-caret", str(len("http://u@EXAMPLE.com/a")))
    # the state links to its anchor in the spec; the record grows, changed fields highlighted
    link = page.locator("#step-detail a.state-link")
    assert link.get_attribute("href").startswith(SPEC + "#")
    page.keyboard.press("Home")
    expect(page.locator("#step-detail a.state-link")).to_have_attribute(
        "href", SPEC + "#scheme-start-state")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#step-detail tr.changed")).to_have_count(1)  # the scheme is set at ":"
    # play / pause
    page.click("#step-play")
    expect(page.locator("#step-play")).to_have_attribute("aria-pressed", "true")
    expect(caret).not_to_have_attribute("data-caret", "4")
    page.click("#step-play")
    expect(page.locator("#step-play")).to_have_attribute("aria-pressed", "false")
    probe.assert_clean()


# (d) -------------------------------------------------------------------------------------------

def test_setter_sequence_diff_and_ignored_reason(probe: PageProbe) -> None:
    ops = [["protocol", "mailto"], ["port", "8080"], ["searchParams.append", "q=1 2"]]
    page = probe.open(frag(input="https://example.com/p", view="setters", ops=ops))
    cards = page.locator("#set-results .op-card")
    expect(cards).to_have_count(3)
    ignored = cards.nth(0)
    expect(ignored).to_have_class(re.compile(r"\bunchanged\b"))
    expect(ignored.locator(".reason")).to_contain_text("special")
    port = cards.nth(1)
    expect(port).to_have_attribute("data-changed", "port")
    diff = port.locator("table.record").first  # the changed fields; the whole record is folded
    expect(diff.locator("tbody tr")).to_have_count(1)
    expect(diff.locator("tr.changed td.col-after")).to_have_text("8080")
    expect(diff.locator("tr.changed td.col-before")).to_have_text("null")
    expect(ignored.locator("details.op-record tr.changed")).to_have_count(0)
    expect(cards.nth(2)).to_have_attribute("data-changed", "query")
    expect(page.locator("[data-setter-result=href]")).to_have_text("https://example.com:8080/p?q=1+2")
    # add an operation with the keyboard-operable editor
    page.click("#op-add")
    page.locator("#ops select").last.select_option("hash")
    page.locator("#ops .op-value").last.fill("frag")
    expect(cards).to_have_count(4)
    expect(cards.nth(3)).to_have_attribute("data-changed", "fragment")
    assert "%22hash%22" in page.url or "hash" in page.url
    probe.assert_clean()


# (e) -------------------------------------------------------------------------------------------

def test_permalink_round_trip_and_history(probe: PageProbe) -> None:
    page = probe.open()
    page.fill("#input", "../x?a=b c#f")
    page.fill("#base", "https://example.org/dir/file")
    page.select_option("#encoding", "windows-1252")
    page.click("#tab-validation")
    url = page.url
    assert "input=..%2Fx%3Fa%3Db%20c%23f" in url and "view=validation" in url and "enc=" in url
    page.click("#tab-components")
    href = "https://example.org/x?a=b%20c#f"
    expect(getter(page, "href")).to_have_text(href)

    other = probe.context.new_page()
    probe.attach(other)
    other.goto(url)
    expect(other.locator("#input")).to_have_value("../x?a=b c#f")
    expect(other.locator("#base")).to_have_value("https://example.org/dir/file")
    expect(other.locator("#encoding")).to_have_value("windows-1252")
    expect(other.locator("#tab-validation")).to_have_attribute("aria-selected", "true")
    expect(other.locator("#panel-validation")).to_be_visible()
    other.click("#tab-components")
    expect(getter(other, "href")).to_have_text(href)

    # back / forward restore the state (views are history entries)
    other.click("#tab-implementations")
    expect(other.locator("#panel-implementations")).to_be_visible()
    other.go_back()
    expect(other.locator("#panel-components")).to_be_visible()
    other.go_back()
    expect(other.locator("#panel-validation")).to_be_visible()
    other.go_forward()
    expect(other.locator("#panel-components")).to_be_visible()
    other.close()
    probe.assert_clean()


# (f) -------------------------------------------------------------------------------------------

def test_engine_fallback_when_wasm_is_blocked(probe: PageProbe) -> None:
    page = probe.page
    blocked: list[str] = []
    page.route("**/*.wasm", lambda route: (blocked.append(route.request.url), route.abort()))
    page.goto(probe.base_url + "#" + frag(input="https://example.com/x"))
    expect(getter(page, "href")).to_have_text("https://example.com/x")
    expect(page.locator("body")).to_have_attribute("data-engine", "server")
    expect(page.locator("#engine-boot")).to_contain_text("unavailable", timeout=30_000)
    # at once, naming the file (a snapshot boot used to wait for the 20 s boot timeout)
    expect(page.locator("#engine-boot")).to_contain_text("pyodide.asm.wasm")
    assert blocked, "the page never asked for the wasm"
    page.fill("#input", "https://example.com/y")
    expect(getter(page, "href")).to_have_text("https://example.com/y")
    assert page.evaluate("document.body.dataset.engine") == "server"
    probe.assert_clean()


# (g) -------------------------------------------------------------------------------------------

def test_browser_comparison_shows_chromium_mismatch(probe: PageProbe) -> None:
    # The URL Standard fails on a space in a special URL's host; Chromium 156 percent-encodes it.
    # (The Browser view is the Implementations view now: its browser column.)
    page = probe.open(frag(input="http://a b/", view="implementations"))
    summary = page.locator("#implementations-summary")
    browser = page.locator("#implementations-table th[data-impl=browser]")
    expect(browser).to_have_class(re.compile(r"\bdiffers\b"))
    expect(page.locator("td[data-impl=browser][data-getter=href]")).to_have_attribute(
        "data-value", "http://a%20b/")
    expect(page.locator("#implementations-differences li[data-impl=browser]")).to_have_count(1)
    # a getter-level mismatch: Chromium keeps "localhost" in file: URLs
    page.fill("#input", "file://localhost//a//../..//foo")
    host = page.locator("td[data-impl=browser][data-getter=host]")
    expect(host).to_have_attribute("data-differs", "true")
    expect(page.locator("td[data-impl=browser][data-getter=pathname]")).to_have_attribute(
        "data-differs", "false")
    # and agreement
    page.fill("#input", "https://example.com/a/../b")
    expect(host).to_have_attribute("data-differs", "false")
    expect(summary).not_to_contain_text("Chrome")
    expect(page.locator("td[data-impl=browser].differs")).to_have_count(0)
    probe.assert_clean()


# (h) -------------------------------------------------------------------------------------------

HOSTILE = [
    ("<img src=x onerror=alert(1)><script>alert(2)</script>", ""),
    ("javascript:alert(1)//<svg onload=alert(2)>", ""),
    ("https://javascript:alert(1)@example.com/javascript:alert(2)?javascript:alert(3)"
     "#javascript:alert(4)<script>alert(5)</script>", "javascript:alert(6)"),
    ("x<img src=x onerror=alert(1)>", "https://e.example/<script>alert(1)</script>"),
    ("https://example.com/\u202egnp.exe?\u202dq=<b>1</b>#\u2066x", ""),
]

SAFE_DOM = """() => {
  const bad = [];
  for (const el of document.querySelectorAll("*")) {
    for (const a of el.attributes) {
      if (/^on/i.test(a.name)) bad.push(el.tagName + " " + a.name);
    }
  }
  for (const el of document.querySelectorAll("img, svg, iframe, object, embed, b")) {
    bad.push(el.tagName);
  }
  const scripts = [...document.querySelectorAll("script")].map((s) => s.getAttribute("src"));
  const expected = ["js/engine/isolation.js", "js/engine/engine.js", "js/app.js",
    "js/opened-from-file.js"];
  if (scripts.join(",") !== expected.join(",")) {
    bad.push("scripts: " + scripts.join(","));
  }
  for (const a of document.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href");
    const own = href === "#input" || (href === "licenses/README.txt" && a.closest(".footer"));
    if (!href.startsWith("https://url.spec.whatwg.org/") && !own) {
      bad.push("link " + href);
    }
  }
  if (document.body.innerText.match(/[\\u202a-\\u202e\\u2066-\\u2069]/)) {
    bad.push("raw bidi control");
  }
  return bad;
}"""


def test_hostile_input_renders_as_text(probe: PageProbe) -> None:
    ops = [["hash", "<script>alert(7)</script>"], ["pathname", "javascript:alert(8)"],
           ["searchParams.append", "<img src=x onerror=alert(9)>=1"]]
    page = probe.open(frag(input="https://example.com/", ops=ops))
    for text, base in HOSTILE:
        page.fill("#input", text)
        page.fill("#base", base)
        expect(page.locator("#input-view")).not_to_be_empty()
        for key in "1234567890":
            page.locator("body").press("Escape")
            page.keyboard.press(key)
            panel = page.locator(".panel:not([hidden])")
            expect(panel).to_have_count(1)
            if key == "2":
                expect(page.locator("#trace-input")).to_be_visible()
            if key == "4":
                expect(page.locator("#set-results")).not_to_be_empty()
            assert page.evaluate(SAFE_DOM) == [], (text, key)
        page.keyboard.press("1")
    # strings from the input really are shown, as text
    page.fill("#base", "")
    page.fill("#input", HOSTILE[0][0])
    expect(page.locator("#input-view")).to_contain_text("<img src=x onerror=alert(1)>")
    page.fill("#input", HOSTILE[2][0])
    expect(getter(page, "username")).to_have_text("javascript")
    expect(getter(page, "hash")).to_contain_text("alert(5)%3C/script%3E")
    expect(page.locator("#input-view")).to_contain_text("<script>alert(5)</script>")
    page.fill("#input", HOSTILE[4][0])
    expect(getter(page, "pathname")).to_have_text("/%E2%80%AEgnp.exe")
    expect(page.locator("#input-view .cp").first).to_have_text("⟨U+202E⟩")
    page.keyboard.press("Escape")
    page.keyboard.press("9")
    page.locator("[data-example]", has_text="javascript:alert(1)").click()
    expect(getter(page, "protocol")).to_have_text("javascript:")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__cspViolations") == []
    probe.assert_clean()


# more: keyboard, tabs, presenter, narrow screens, exports --------------------------------------

def test_validation_errors_are_named_and_underlined(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://user:pass@0x7f.1\\p", view="validation"))
    errors = page.locator("#panel-validation [data-validation-error]")
    names = errors.evaluate_all("els => els.map(e => e.dataset.validationError)")
    assert {"invalid-credentials", "IPv4-non-decimal-part", "invalid-reverse-solidus"} <= set(names)
    link = page.locator('[data-validation-error="invalid-credentials"] a.err-name')
    expect(link).to_have_attribute("href", SPEC + "#invalid-credentials")
    assert page.locator("#panel-validation .c.verr-mark").count() >= 3
    expect(page.locator("#panel-validation [data-valid]")).to_have_attribute("data-valid", "false")
    probe.assert_clean()


def test_keyboard_tabs_presenter_and_narrow_screen(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/a?b#c"))
    page.focus("#tab-components")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tab-steps")).to_be_focused()
    expect(page.locator("#tab-steps")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("End")  # the last tab: Survey (issue 30)
    expect(page.locator("#tab-survey")).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Home")
    expect(page.locator("#panel-components")).to_be_visible()
    page.keyboard.press("p")
    expect(page.locator("body")).to_have_class(re.compile(r"\bpresenter\b"))
    page.keyboard.press("p")
    page.keyboard.press("/")
    expect(page.locator("#input")).to_be_focused()
    page.keyboard.press("Escape")
    page.keyboard.press("?")
    expect(page.locator("#help")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#help")).to_be_hidden()
    # 360 px wide: no horizontal page scroll in any view
    page.set_viewport_size({"width": 360, "height": 760})
    long_url = "https://a-long-host-name.example.com:8080/" + "segment/" * 12 + "?q=" + "x" * 60
    page.fill("#input", long_url)
    for key in "1234567890":
        page.locator("body").press("Escape")
        page.keyboard.press(key)
        page.wait_for_timeout(50)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, (key, width)
    probe.assert_clean()


def test_copy_as_markdown_and_wpt(probe: PageProbe) -> None:
    probe.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = probe.open(frag(input="https://EXAMPLE.com/a|b", base="https://x.example/"))
    page.click("#copy-md")
    expect(page.locator("#toast")).to_contain_text("copied")
    md = page.evaluate("navigator.clipboard.readText()")
    assert "| href | `https://example.com/a\\|b` |" in md
    assert "| **base** | `https://x.example/` |" in md
    page.click("#copy-wpt")
    entry = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert entry["input"] == "https://EXAMPLE.com/a|b" and entry["base"] == "https://x.example/"
    assert entry["href"] == "https://example.com/a|b" and entry["origin"] == "https://example.com"
    page.fill("#input", "http://a b/")
    expect(getter(page, "href")).to_have_text("")
    page.click("#copy-wpt")
    assert json.loads(page.evaluate("navigator.clipboard.readText()"))["failure"] is True
    # setters lab: setters_tests.json entries
    page.fill("#input", "https://example.com/")
    page.keyboard.press("Escape")
    page.keyboard.press("4")
    page.select_option("#op-preset", index=1)
    expect(page.locator("#set-results .op-card")).to_have_count(1)
    page.click("#copy-wpt")
    tests = json.loads(page.evaluate("navigator.clipboard.readText()"))
    assert tests["protocol"][0]["href"] == "https://example.com/"
    assert tests["protocol"][0]["new_value"] == "mailto"
    assert tests["protocol"][0]["expected"]["protocol"] == "https:"
    probe.assert_clean()


def test_resolution_shows_provenance(probe: PageProbe) -> None:
    page = probe.open(frag(input="../c/./d?q", base="https://u@example.org:8443/a/b/i.html#y",
                           view="resolution"))
    rows = page.locator("#panel-resolution tr[data-field]")
    expect(rows).to_have_count(8)
    def source(field: str) -> Any:
        return page.locator(f'#panel-resolution tr[data-field="{field}"] [data-source]')

    expect(source("host")).to_have_attribute("data-source", "base")
    expect(source("query")).to_have_attribute("data-source", "input")
    expect(source("path")).to_have_attribute("data-source", "input+base")
    path = page.locator('#panel-resolution tr[data-field="path"]')
    expect(path.locator("td.col-base")).to_contain_text('"i.html"')
    expect(path.locator("td.col-result")).to_contain_text('"d"')
    spec_anchor = re.compile("^" + re.escape(SPEC) + "#")
    expect(path.locator("a.spec").first).to_have_attribute("href", spec_anchor)
    probe.assert_clean()


def test_marks_results_where_the_engines_differ(probe: PageProbe) -> None:
    page = probe.open(frag(input="https://example.com/"))
    # Stand in for a real Unicode-version skew between the two engines.
    page.evaluate("""() => {
      window.urlcalc.engine.both = async () => ({ server: null, pyodide: null,
        differs: ["/getters/host", "/getters/hostname", "/record/host/serialized"] });
    }""")
    page.fill("#input", "https://example.net/")
    expect(page.locator("#engines-differ")).to_be_visible(timeout=5_000)
    expect(page.locator("#engines-differ")).to_contain_text("/getters/host")
    expect(getter(page, "host")).to_have_class(re.compile(r"\bengine-differs\b"))
    expect(getter(page, "pathname")).not_to_have_class(re.compile(r"\bengine-differs\b"))
    probe.assert_clean()


def test_nothing_leaves_localhost_and_what_tries_is_recorded(browser: Any, server_url: str) -> None:
    """The browser tests' offline guard (liveserver.LAUNCH_ARGS and Offline.watch): a request
    for a name or an address outside the machine fails and is recorded; the server's own pass.
    (The page's CSP would stop these first: bypassed here, to reach the guard itself.)"""
    from liveserver import Offline

    context = browser.new_context(bypass_csp=True)
    offline = Offline()
    offline.watch(context)
    try:
        page = context.new_page()
        page.goto(server_url + "?engine=server")
        outside = ["https://example.com/", "http://192.0.2.1/", "http://[2001:db8::1]/"]
        got = page.evaluate("""async (urls) => Promise.all(urls.map((u) =>
          fetch(u, { mode: "no-cors" }).then((r) => r.type, (e) => e.name)))""",
                            [*outside, server_url + "api/version"])
        assert got == ["TypeError", "TypeError", "TypeError", "basic"], got
        assert sorted(offline.blocked) == sorted(outside)
    finally:
        context.close()
