"""urlcalc.notebook: the Jupyter reprs, tested without Jupyter by calling them. The HTML is parsed
(html.parser) and audited for hostile inputs: only our own elements and attributes, no script,
no event handler, links only to the standard, every string from a URL present as text and
invisible code points shown as ⟨U+XXXX⟩; _repr_json_ is the model itself."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from urlcalc import notebook
from urlcalc.answers import kinds
from urlcalc.editions.view import compare_model
from urlcalc.model import results as model

REPO = Path(__file__).resolve().parent.parent

ELEMENTS = {"div", "p", "b", "i", "code", "span", "table", "thead", "tbody", "tr", "th", "td",
            "details", "summary", "ol", "ul", "li", "a", "pre", "h4"}
ATTRIBUTES = {"title", "style", "href", "target", "rel", "start", "class"}
# The only style values the renderer writes (none carries text from the input).
STYLE = re.compile(r"^(color:#[0-9a-fA-F]{3,8}|background:#fff1b8|text-align:left|"
                   r"margin-left:[0-9.]+em|font-size:115%|opacity:\.7|"
                   r"border:1px solid currentColor;border-radius:3px;padding:0 2px;font-size:85%)$")
RAW_INVISIBLE = "\u202e\u202d\u2066\u2067\u2068\u2069\u200b\u200e\u200f\ufeff\x00\x1b"


class Audit(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.bad: list[str] = []
        self.text: list[str] = []
        self.stack: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ELEMENTS:
            self.bad.append(f"element {tag}")
        for name, value in attrs:
            if name not in ATTRIBUTES:
                self.bad.append(f"attribute {name} on {tag}")
            if name == "style" and not STYLE.match(value or ""):
                self.bad.append(f"style {value!r}")
            if name == "href":
                self.links.append(value or "")
                if not (value or "").startswith("https://url.spec.whatwg.org/#"):
                    self.bad.append(f"link {value!r}")
            if name == "class" and value != "urlcalc-result":
                self.bad.append(f"class {value!r}")
        self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.bad.append(f"unbalanced </{tag}> (open: {self.stack[-3:]})")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def handle_comment(self, data: str) -> None:
        self.bad.append("comment")

    def handle_decl(self, decl: str) -> None:
        self.bad.append("declaration")

    def handle_pi(self, data: str) -> None:
        self.bad.append("processing instruction")


def audit(markup: str) -> Audit:
    parser = Audit()
    parser.feed(markup)
    parser.close()
    if parser.stack:
        parser.bad.append(f"unclosed {parser.stack}")
    assert not [c for c in "".join(parser.text) if c in RAW_INVISIBLE], "raw invisible text"
    return parser


HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "https://example.com/\"><script>alert(2)</script>",
    "javascript:alert(3)//<b>bold</b>",
    "https://a/' onmouseover='alert(4)' x='",
    "https://example.com/\u202egnp.exe\u200b",
    "https://x/</details></li></ol><script>alert(5)</script>",
    "https://x/<!-- comment -->?<![CDATA[x]]>#</code></div>",
    "https://ex&amp;ample.com/&lt;script&gt;",
    "http://a b/<svg onload=alert(6)>",
    "https://example.com/\x00\x1b[31m\ufeff",
    "https://[::1]/\u2066x\u2069?\u200e\u200f",
    "https://xn--<style>*{}</style>.com/",
]


def _visible(s: str) -> str:
    """What the notebook shows for s (invisible code points as badges), as text."""
    return "".join(f"⟨U+{ord(c):04X}⟩" if notebook._invisible(c) else c for c in s)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_parse_html_escapes_every_string(hostile: str) -> None:
    for result in (notebook.parse(hostile, trace=True),
                   notebook.parse("../x", base=hostile, trace=True),
                   notebook.validate(hostile, base="https://b.example/")):
        markup = result._repr_html_()
        found = audit(markup)
        assert found.bad == [], (hostile, found.bad[:5])
        assert "<script" not in markup.lower() and "javascript:" not in "".join(found.links)
        shown = "".join(found.text)
        assert _visible(result["input"]) in shown


@pytest.mark.parametrize("hostile", HOSTILE)
def test_set_compare_host_html_escape_every_string(hostile: str) -> None:
    results = [
        notebook.set("https://example.com/", [("pathname", hostile), ("hash", hostile),
                                               ("search", hostile), ("href", hostile)],
                     trace=True),
        notebook.compare(hostile),
        notebook.compare("a/b", base=hostile),
        notebook.host(hostile.removeprefix("https://"), trace=True),
    ]
    for result in results:
        found = audit(result._repr_html_())
        assert found.bad == [], (result.kind, hostile, found.bad[:5])
    # the setter values appear as text, escaped
    shown = "".join(audit(results[0]._repr_html_()).text)
    assert _visible(hostile) in shown


def test_parse_html_shows_components_href_errors_and_trace() -> None:
    result = notebook.parse("HTTPS://u:p@EXAMPLE.com:443/a/./b/..\\c?%zz#f", trace=True)
    markup = result._repr_html_()
    found = audit(markup)
    assert found.bad == []
    shown = "".join(found.text)
    # the components table: the 11 getters with their values
    for getter, value in result["getters"].items():
        assert re.search(rf"<th[^>]*>{getter}</th><td[^>]*><code>{re.escape(value)}</code>",
                         markup) or (value == "" and getter in shown), getter
    assert "https://u:p@example.com/a/c?%zz#f" in shown
    # the href coloured by component, with the page's colours
    css = (REPO / "web" / "css" / "app.css").read_text()
    host_colour = re.search(r"--k-host:\s*(#[0-9a-fA-F]+)", css)
    assert host_colour is not None
    assert f'<span title="host" style="color:{host_colour.group(1)}">example.com</span>' in markup
    assert set(notebook.palette()) >= {"scheme", "username", "password", "host", "port", "path",
                                       "query", "fragment"}
    # validation errors, linked to the standard
    names = [e["name"] for e in result["validation_errors"]]
    assert names and all(n in shown for n in names)
    assert "https://url.spec.whatwg.org/#invalid-credentials" in found.links
    cred = next(e for e in result["validation_errors"] if e["name"] == "invalid-credentials")
    assert f"({cred['algorithm']}, step {cred['step']})" in shown
    # the trace: a collapsed <details>, one list item per step
    steps = result["trace"]["steps"]
    assert f"<details><summary>Trace: {len(steps):,} steps</summary>" in markup
    assert markup.count("<li") >= len(steps)
    assert "https://url.spec.whatwg.org/#scheme-start-state" in found.links
    assert "Valid URL string: no" in shown


def test_failure_renders_the_cause() -> None:
    result = notebook.parse("http://a b/")
    shown = "".join(audit(result._repr_html_()).text)
    assert "Failure" in shown and "domain-to-ASCII" in shown and "at index 7" in shown
    base_failure = notebook.parse("x", base="not a base")
    assert "Failure (in the base)" in "".join(audit(base_failure._repr_html_()).text)


def test_set_and_compare_html_show_their_results() -> None:
    result = notebook.set("https://a.com/x", [("username", "bob"), ("protocol", "mailto")])
    shown = "".join(audit(result._repr_html_()).text)
    assert "username" in shown and "bob" in shown
    reason = result["operations"][1]["reason"]
    assert "scheme state, step 2.1.1" in reason and f"unchanged: {reason}" in shown
    assert "https://bob@a.com/x" in shown
    compared = notebook.compare("http:\\\\example.com\\a\\..\\b")
    markup = compared._repr_html_()
    found = audit(markup)
    shown = "".join(found.text)
    for edition in compared["editions"]:
        assert edition["name"] in shown
    assert "http://example.com/b" in shown and "Why they differ" in shown
    assert markup.count('style="background:#fff1b8"') == sum(
        sum(1 for v in row["differs"].values() if v) for row in compared["rows"])


def test_repr_json_is_the_model() -> None:
    for result, expected in (
        (notebook.parse("https://ex.com/a", trace=True),
         model.parse_model("https://ex.com/a", trace=True)),
        (notebook.set("https://ex.com/", [("hash", "x")]),
         model.set_model("https://ex.com/", [("hash", "x")])),
        (notebook.compare("https://ex.com/"), compare_model("https://ex.com/")),
    ):
        data = result._repr_json_()
        assert data is result.model
        assert json.loads(json.dumps(data)) == json.loads(json.dumps(expected))
    result = notebook.parse("https://ex.com/")
    assert result["getters"]["href"] == "https://ex.com/" and "getters" in result
    assert repr(result) == "<urlcalc parse 'https://ex.com/' -> 'https://ex.com/'>"
    wrapped = notebook.Result(kinds.dispatch("urlencoded", {"input": "a=<b>"}))
    assert audit(wrapped._repr_html_()).bad == []
    with pytest.raises(TypeError):
        notebook.Result({"kind": "parse"})


def test_long_strings_are_shown_in_part() -> None:
    result = notebook.parse("https://example.com/" + "a" * 10_000)
    markup = result._repr_html_()
    assert "more code points not shown" in markup
    assert len(markup) < 60_000


def test_invisible_set_matches_the_page() -> None:
    """One rule for what is shown escaped: web/js/render/dom.js's INVISIBLE, read here."""
    dom = (REPO / "web" / "js" / "render" / "dom.js").read_text()
    match = re.search(r"const INVISIBLE = /\[(.*?)\]/u;", dom)
    assert match is not None
    body = match.group(1)
    categories = set(re.findall(r"\\p\{(\w+)\}", body))
    assert categories == set(notebook.INVISIBLE_CATEGORIES)

    def cp(token: str) -> int:
        return int(token.strip("{}"), 16)

    rest = re.sub(r"\\p\{\w+\}", "", body)
    page: set[int] = set()
    for lo, hi in re.findall(r"\\u(\{[0-9A-Fa-f]+\}|[0-9A-Fa-f]{4})"
                             r"(?:-\\u(\{[0-9A-Fa-f]+\}|[0-9A-Fa-f]{4}))?", rest):
        page.update(range(cp(lo), cp(hi or lo) + 1))
    ours = {c for lo, hi in notebook.INVISIBLE_RANGES for c in range(lo, hi + 1)}
    assert page and page == ours


def test_no_javascript_needed() -> None:
    """Nothing in any repr is a script, an event handler or a javascript: URL (a notebook shows
    it without trusting it)."""
    for result in (notebook.parse("https://a/", trace=True), notebook.host("a.com", trace=True),
                   notebook.set("https://a/", [("hash", "b")], trace=True),
                   notebook.compare("https://a/")):
        markup = result._repr_html_().lower()
        assert "<script" not in markup and "javascript:" not in markup
        assert not re.search(r"\son\w+\s*=", markup)
        assert audit(result._repr_html_()).bad == []


def test_notebook_example_from_the_docs() -> None:
    doc = (REPO / "docs" / "library.md").read_text(encoding="utf-8")
    block = re.search(r"## Notebooks.*?```python\n(.*?)```", doc, re.S)
    assert block is not None, "docs/library.md: the Notebooks section's example"
    namespace: dict[str, Any] = {}
    lines = [line for line in block.group(1).splitlines() if not line.startswith("#")]
    exec("\n".join(lines[:-1]), namespace)  # the cell without its last line
    shown = eval(lines[-1], namespace)  # the last line: what Jupyter displays
    assert isinstance(shown, notebook.Result)
    assert audit(shown._repr_html_()).bad == []
