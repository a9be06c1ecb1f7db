"""A corpus of hostile URLs through every view of the page (see test_page.py's
test_hostile_input_renders_as_text for the first handful; this file is the systematic run).

Every corpus entry (markup and script in every component, javascript: and data: URLs as input
and as base, bidi overrides and isolates, zero-width characters and the BOM, hostile setter
values and calculator inputs) is loaded through the permalink fragment, then every tab is opened
and audited; Copy as Markdown and Copy as WPT entry are read back from the clipboard; lone
surrogates arrive through the escapes field and the fragment; a 100 KB hostile input is typed.

Asserted for the whole run: no dialog, no popup, no navigation away from the page, no console
error or page error, no CSP violation (securitypolicyviolation events and console), the sentinel
``window.__pwned`` never set; in every view: no event-handler attribute, no element the page
does not make (img, svg, iframe, object, embed, extra script), every <a href> is an https: link
or an in-page anchor (never javascript:, data:, blob: or anything built from the input), and no
raw bidi control or zero-width character in any text node (they are shown as visible badges).
The counts (inputs tried, views audited, executions seen) are printed at the end of the run."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from liveserver import PageProbe, frag
from playwright.sync_api import expect

# Every payload sets the sentinel if it ever runs (CSP would also report it).
JS = "window.__pwned=1"
XSS = f"<img src=x onerror={JS}><script>{JS}</script><svg onload={JS}>"
BIDI = "\u202e\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u200e\u200f"
ZW = "\u200b\u200c\u200d\ufeff"

CORPUS: list[tuple[str, str]] = [
    # markup in every component (input, base)
    (f"https://{XSS}@example.com/", ""),
    (f"https://u:{XSS}@example.com/", ""),
    (f"https://ex{XSS}ample.com/", ""),
    (f"https://example.com/{XSS}/p", ""),
    (f"https://example.com/?q={XSS}&a='\"><b>x</b>", ""),
    (f"https://example.com/#{XSS}", ""),
    (f"mailto:{XSS}", ""),  # scheme-data (opaque path)
    (f"{XSS}", "https://base.example/"),
    (f"../{XSS}?{XSS}#{XSS}", f"https://e.example/{XSS}/"),
    # javascript: and data: URLs as input and as base
    (f"javascript:{JS}", ""),
    (f"JaVaScRiPt:{JS}//%0a{JS}", ""),
    (f" \tjavascript:{JS}", ""),
    (f"data:text/html,<script>{JS}</script>", ""),
    ("data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+", ""),
    (f"#{JS}", f"javascript:{JS}"),
    ("x", f"data:text/html,<script>{JS}</script>"),
    (f"?{XSS}", f"javascript://example.com/{JS}"),
    # bidi overrides, isolates and zero-width characters everywhere
    (f"https://ex{BIDI}ample.com/{BIDI}gnp.exe?{BIDI}=1#{BIDI}", ""),
    (f"https://{ZW}user{ZW}:{ZW}@ex{ZW}ample.com/{ZW}p?{ZW}#{ZW}", ""),
    (f"{ZW}{BIDI}https://example.com/\u202egnp.js", "https://\u202eexample.com/"),
    (f"http://{BIDI}/", ""),  # a host that fails to parse
    (f"javascript:\u202e{JS}\u200b", ""),
]

OPS = [["hash", f"<script>{JS}</script>"], ["pathname", f"javascript:{JS}"],
       ["searchParams.append", f"{XSS}={BIDI}"], ["href", f"javascript:{JS}"],
       ["host", f"ex{ZW}ample.com"], ["username", XSS], ["search", f"?{BIDI}{XSS}"]]
CALC = {"pct": f"{XSS}%E2%80%AE{BIDI}", "host": f"{BIDI}x{XSS}.com", "form": f"{XSS}={BIDI}&{ZW}"}

RAW_INVISIBLE = BIDI + ZW
PATHNAME = '#panel-components [data-getter="pathname"]'

# Audits the DOM of the whole document; returns a list of problems.
AUDIT = r"""(raw) => {
  const bad = [];
  const URL_ATTRS = new Set(["href", "src", "srcset", "action", "formaction", "srcdoc", "poster",
    "background", "ping", "cite", "xlink:href", "data", "manifest"]);
  for (const el of document.querySelectorAll("*")) {
    for (const a of el.attributes) {
      if (/^on/i.test(a.name)) bad.push(`${el.tagName} ${a.name}`);
      const favicon = el.matches('link[rel=icon]') && a.value === "data:,";  // index.html's own
      if (/^\s*(javascript|data|vbscript):/i.test(a.value) && URL_ATTRS.has(a.name) && !favicon)
        bad.push(`${el.tagName} ${a.name}=${a.value.slice(0, 60)}`);
    }
  }
  const foreign = "img, svg, iframe, object, embed, frame, base, meta[http-equiv], "
    + "form:not([method=dialog])";
  for (const el of document.querySelectorAll(foreign)) {
    bad.push("element " + el.tagName);
  }
  const scripts = [...document.querySelectorAll("script")].map((s) => s.getAttribute("src"));
  const expected = ["js/engine/isolation.js", "js/engine/engine.js", "js/app.js",
    "js/opened-from-file.js"];
  if (scripts.join(",") !== expected.join(",")) {
    bad.push("scripts: " + scripts.join(","));
  }
  const here = location.origin + location.pathname + location.search;
  const links = [];
  for (const a of document.querySelectorAll("a[href], area[href]")) {
    const href = a.getAttribute("href");
    let url;
    try {
      url = new URL(href, document.baseURI);
    } catch {
      bad.push("unparsable link " + href);
      continue;
    }
    links.push(href);
    const inPage = url.href.startsWith(here + "#") && href.startsWith("#");
    const licences = href === "licenses/README.txt" && a.closest(".footer");  // index.html's own
    if (!(url.protocol === "https:" || inPage || licences)) bad.push("link " + href.slice(0, 80));
    if (/pwned|alert|script|%3c/i.test(href)) bad.push("link from input " + href.slice(0, 80));
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const rawRe = new RegExp("[" + raw + "]", "u");
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (p && (p.closest("textarea, option, script, style"))) continue;
    if (rawRe.test(n.data)) {
      const cp = n.data.match(rawRe)[0].codePointAt(0).toString(16);
      const where = p ? `${p.tagName.toLowerCase()}#${p.id}.${p.className}` : "?";
      bad.push(`raw U+${cp} in <${where}>`);
    }
  }
  if (window.__pwned !== undefined) bad.push("window.__pwned = " + window.__pwned);
  return { bad, links: links.length };
}"""


class Watch:
    """Everything that would mean a payload escaped: navigations, popups, CSP reports."""

    def __init__(self, probe: PageProbe) -> None:
        self.probe = probe
        self.navigations: list[str] = []
        self.popups: list[str] = []
        page = probe.page
        page.on("framenavigated", lambda f: f == page.main_frame
                and self.navigations.append(f.url))
        page.on("popup", lambda p: self.popups.append(p.url))

    def executions(self) -> list[str]:
        page = self.probe.page
        seen = [f"dialog: {d}" for d in self.probe.dialogs]
        seen += [f"popup: {u}" for u in self.popups]
        seen += [f"navigation: {u}" for u in self.navigations
                 if not u.startswith(self.probe.base_url)]
        seen += [f"csp: {v}" for v in page.evaluate("window.__cspViolations")]
        if page.evaluate("window.__pwned !== undefined"):
            seen.append("sentinel set")
        return seen


def wait_render(page: Any, before: int) -> None:
    # (a function, not an expression string: the page's CSP forbids eval)
    page.wait_for_function("(n) => +(document.body.dataset.renders || 0) > n", arg=before)


def renders(page: Any) -> int:
    return int(page.evaluate("+(document.body.dataset.renders || 0)"))


COUNTS: dict[str, int] = {}


def test_hostile_corpus_through_every_view(probe: PageProbe) -> None:
    probe.context.grant_permissions(["clipboard-read", "clipboard-write"])
    watch = Watch(probe)
    page = probe.open(frag(input="https://example.com/"))
    tabs = page.locator("#tabs [role=tab]")
    views = tabs.evaluate_all("els => els.map(e => e.dataset.view)")
    assert len(views) >= 8 and "components" in views and "examples" in views, views
    audited = 0
    tried = 0
    for i, (text, base) in enumerate(CORPUS):
        before = renders(page)
        state = {"input": text, "base": base, "ops": OPS, **CALC, "view": "components"}
        page.evaluate("f => { location.hash = f; }", frag(**state))
        wait_render(page, before)
        expect(page.locator("#input")).to_have_value(text)
        tried += 1
        for view in views:
            page.click(f"#tabs [data-view={view}]")
            panel = page.locator(f"#panel-{view}")
            expect(panel).to_be_visible()
            expect(panel).not_to_be_empty()
            if view == "setters":
                expect(page.locator("#set-results")).not_to_be_empty()
            page.wait_for_timeout(10)
            result = page.evaluate(AUDIT, RAW_INVISIBLE)
            assert result["bad"] == [], (i, text[:60], view, result["bad"][:10])
            audited += 1
        # the exports: escaped, and read back unchanged
        page.click("#tabs [data-view=components]")
        page.click("#copy-md")
        md = page.evaluate("navigator.clipboard.readText()")
        assert not any(c in md for c in RAW_INVISIBLE), (i, md[:200])
        page.click("#copy-wpt")
        wpt = page.evaluate("navigator.clipboard.readText()")
        assert wpt.isascii(), (i, wpt[:200])
        entry = json.loads(wpt)
        assert entry["input"] == text and entry["base"] == (base or None), entry
        page.click("#tabs [data-view=setters]")
        page.click("#copy-wpt")
        setters = json.loads(page.evaluate("navigator.clipboard.readText()"))
        assert isinstance(setters, dict)
        page.keyboard.press("Escape")
    # invisible characters are shown as badges, not applied
    page.click("#tabs [data-view=components]")
    page.fill("#base", "")
    page.fill("#input", "https://example.com/\u202egnp.exe\u200b")
    expect(page.locator("#input-view .cp").first).to_have_text("⟨U+202E⟩")
    expect(page.locator(PATHNAME)).to_have_text("/%E2%80%AEgnp.exe%E2%80%8B")
    COUNTS.update(tried=tried, audited=audited)
    assert watch.executions() == []
    probe.assert_clean()
    COUNTS["executions"] = len(watch.executions())


def test_lone_surrogates_and_a_100kb_input(probe: PageProbe) -> None:
    watch = Watch(probe)
    # through the fragment: percent-encoded lone surrogates are not UTF-8; the key is ignored
    page = probe.open("input=a%ED%A0%80b&base=%ED%B0%80&ops=" + quote('[["hash","\\ud800"]]'))
    expect(page.locator("#input")).to_have_value("")
    # through the escapes field: a real lone surrogate in the input
    before = renders(page)
    page.fill("#input-escaped", "https://example.com/\\u{D800}x\\u{DFFF}#\\u{DBFF}")
    wait_render(page, before)
    # the page shows what the standard parses: the USVString, lone surrogates as U+FFFD
    expect(page.locator("#input-view")).to_contain_text("/\ufffdx\ufffd#\ufffd")
    expect(page.locator(PATHNAME)).to_have_text("/%EF%BF%BDx%EF%BF%BD")
    for view in page.locator("#tabs [role=tab]").evaluate_all(
            "els => els.map(e => e.dataset.view)"):
        page.click(f"#tabs [data-view={view}]")
        expect(page.locator(f"#panel-{view}")).to_be_visible()
        page.wait_for_timeout(10)
        assert page.evaluate(AUDIT, RAW_INVISIBLE)["bad"] == [], view
    # the permalink of that state restores it (or at least does not break the page)
    page.click("#tabs [data-view=components]")
    other = probe.context.new_page()
    probe.attach(other)
    other.goto(page.url)
    other.wait_for_selector("body[data-engine]")
    expect(other.locator("#input")).to_have_value("https://example.com/\ufffdx\ufffd#\ufffd")
    other.close()
    # 100 KB of hostile input: refused by the API (64 KiB), shown as text, nothing runs
    big = (f"javascript:{JS}//{XSS}{BIDI}{ZW}" * 2000)[:100_000]
    page.fill("#input", big)
    expect(page.locator("#request-error")).to_be_visible(timeout=30_000)
    expect(page.locator("#request-error")).to_contain_text("64 KiB")
    for view in ("components", "steps", "validation"):
        page.click(f"#tabs [data-view={view}]")
        page.wait_for_timeout(50)
        assert page.evaluate(AUDIT, RAW_INVISIBLE)["bad"] == [], view
    assert watch.executions() == []
    probe.assert_clean()
    COUNTS["tried"] = COUNTS.get("tried", 0) + 3
    COUNTS["executions"] = COUNTS.get("executions", 0) + len(watch.executions())
