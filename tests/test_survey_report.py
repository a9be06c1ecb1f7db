"""The survey's reports (urlcalc.survey.report): the JSON against its documented schema
(docs/survey-report.schema.json), the Markdown through a real renderer (markdown-it, raw HTML and
linkify on, as GitHub renders an issue) with a hostile corpus, the HTML read back by html.parser
(nothing but its own tags, every string escaped, each example a link that opens exactly it), the
"survey" request and its limit."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from urlcalc.answers.kinds import dispatch
from urlcalc.model.limits import MAX_SURVEY_URLS, ModelError
from urlcalc.survey.observe import Options
from urlcalc.survey.report import (
    escape_invisible,
    is_cut,
    make_meta,
    md_code,
    report_html,
    report_json,
    report_markdown,
    report_text,
    tally_from_report,
    write_report,
)
from urlcalc.survey.run import survey_lines
from urlcalc.survey.tally import MAX_EXAMPLE_CHARS, Tally

REPO = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((REPO / "docs" / "survey-report.schema.json").read_text())
RENDER = REPO / "tests" / "markdown" / "survey.mjs"
MARKDOWN_IT = REPO / "tests" / "differential" / "node_modules" / "markdown-it"

HOSTILE = [
    "http://a/?x``[click](https://evil.example)`` ",
    "http://a/?x`[click](https://evil.example)`",
    "http://a/#`````",
    "`http://a/`",
    "`",
    " `x` ",
    "http://a/)[x](https://evil.example)",
    "http://a/?[x](javascript:alert(1))",
    "http://a/?![img](https://evil.example/x.png)",
    "http://a/?<script>alert(1)</script>",
    "http://a/?<img src=x onerror=alert(1)>",
    "http://a/#</code></td></tr></table><a href=https://evil.example>x</a>",
    'http://a/?"><a href="https://evil.example">x</a>',
    "http://a/?a|b||c\\|d\\",
    "http://a/?<https://evil.example>",
    "http://a/?www.evil.example and https://evil.example/x and evil@evil.example",
    "javascript:alert(1)//https://evil.example",
    "http://a/?*em* _em_ ~~del~~ **b** # h",
    "http://a/?&lt;script&gt; &#x3C;b&#x3E; &amp;",
    "http://a/?x\n[click](https://evil.example)\n| a | b |",
    "http://a/?x\r<script>x</script>",
    "http://a/\u202eevil\u200b?\u2066x\u2069",
    "http://a b/``[click](https://evil.example)``",
    "http://[::1/`|`",
    "http://user:p`a``ss@h/`[x](https://evil.example)`",
    "http://a/?&#0; %00 \u0000",
    "x" * (MAX_EXAMPLE_CHARS + 10),
]
BASE = "http://b.example/`[b](https://evil.example)`/"
CALCULATOR = "http://127.0.0.1:8000/"


def _tally() -> Tally:
    """The hostile corpus surveyed against a hostile base, with comparison families (hostile
    keys too) and unreadable lines added by hand (the comparers' own tests are the core's)."""
    t = survey_lines(HOSTILE, Options(base=BASE, coverage=True))
    for i, url in enumerate(HOSTILE):
        t.add(url, [("implementation:yarl", "agrees" if i % 3 else "differs: host"),
                    ("implementation:urllib", f"raised `Err|{i % 2}`"),
                    ("edition:rfc3986", "same" if i % 2 else "differs: pathname"),
                    ("history:query-backtick", "differs")]
              + ([("host-disagreement", "yarl")] if not i % 3 else []))
    t.urls -= len(HOSTILE)  # (the same URLs, counted once)
    t.add_unreadable("invalid UTF-8", "corpus.txt:7 `[x](https://evil.example)`")
    t.add_unreadable("NUL", "corpus.txt:9 <script>")
    return t


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    meta = make_meta(Options(base=BASE, compare=frozenset({"implementations"})),
                     sources=["corpus `a`.txt", "<b>.txt"], started="2026-11-27T10:00:00Z",
                     finished="2026-11-27T10:01:00Z", partitions=3)
    return json.loads(report_text(report_json(_tally(), meta)))


def test_a_report_validates_against_its_schema(report: dict[str, Any]) -> None:
    validator = jsonschema_rs.validator_for(SCHEMA)
    errors = [e.message for e in validator.iter_errors(report)]
    assert errors == []
    # and the schema is not vacuous: a report without its denominators, or with a rate over 1,
    # does not validate
    broken = json.loads(json.dumps(report))
    del broken["denominators"]
    assert not validator.is_valid(broken)
    broken = json.loads(json.dumps(report))
    broken["families"][0]["buckets"][0]["rate"] = 1.5
    assert not validator.is_valid(broken)
    broken = json.loads(json.dumps(report))
    broken["families"][0]["denominator"] = "everything"
    assert not validator.is_valid(broken)


def test_denominators_rates_and_order(report: dict[str, Any]) -> None:
    den = report["denominators"]
    assert den["urls"] == len(HOSTILE) and den["unreadable"] == 2
    assert den["lines"] == den["urls"] + den["unreadable"]
    assert den["parsed"] + den["failed"] == den["urls"] and den["failed"] >= 2
    names = [f["family"] for f in report["families"]]
    assert names[:3] == ["outcome", "failure", "validation-error"]
    assert names.index("host-disagreement") < names.index("implementation:urllib") \
        < names.index("edition:rfc3986") < names.index("history:query-backtick") \
        < names.index("scheme") < names.index("step") < names.index("unreadable")
    for fam in report["families"]:
        d = den[fam["denominator"]]
        counts = [(-b["count"], b["key"]) for b in fam["buckets"]]
        assert counts == sorted(counts), fam["family"]
        for b in fam["buckets"]:
            assert b["rate"] == pytest.approx(b["count"] / d)
    by = {f["family"]: f for f in report["families"]}
    assert by["scheme"]["denominator"] == "parsed"
    assert by["unreadable"]["denominator"] == "lines"
    assert by["history:query-backtick"]["buckets"][0]["count"] == len(HOSTILE)
    assert {b["key"]: b["count"] for b in by["outcome"]["buckets"]} == {
        "parses": den["parsed"], "fails": den["failed"]}


def test_a_report_gives_back_its_tally(report: dict[str, Any]) -> None:
    assert tally_from_report(report).to_json() == _tally().to_json()


@pytest.fixture(scope="module")
def rendered(report: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None, "node is needed (make test installs it)"
    assert MARKDOWN_IT.is_dir(), "markdown-it is missing: run `make differential-deps`"
    links = _links(report_html(report, CALCULATOR))
    fragments = [href.split("#", 1)[1] for href, _ in links if href.startswith(CALCULATOR)]
    p = subprocess.run([node, str(RENDER)], capture_output=True, text=True, check=False,
                       input=json.dumps({"markdown": [report_markdown(report, top=50)],
                                         "code": [*HOSTILE, "", "   ", "a\r\nb"],
                                         "fragments": fragments}), timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    out: dict[str, Any] = json.loads(p.stdout)
    out["fragments"] = fragments
    return out


def test_code_spans_are_the_pages_own(rendered: dict[str, Any]) -> None:
    assert rendered["code"] == [md_code(s) for s in [*HOSTILE, "", "   ", "a\r\nb"]]


def test_markdown_cannot_break_out(report: dict[str, Any], rendered: dict[str, Any]) -> None:
    (out,) = rendered["rendered"]
    assert out["links"] == [] and out["images"] == [] and out["html_tokens"] == []
    tags = set(re.findall(r"</?([a-zA-Z][a-zA-Z0-9]*)", out["html"]))
    assert tags <= {"h3", "h4", "p", "strong", "em", "code", "table", "thead", "tbody", "tr",
                    "th", "td"}, tags
    assert all(cells == 3 for cells in out["rows"]), out["rows"]
    assert "<script" not in out["html"]
    # every example of the failures and validation errors reads back from its code span
    code = set(out["code"])
    by = {f["family"]: f for f in report["families"]}
    seen = 0
    for family in ("failure", "validation-error"):
        for b in by[family]["buckets"]:
            assert escape_invisible(b["key"]) in code
            for ex in b["examples"][:3]:
                shown = escape_invisible(ex if len(ex) <= 120 else ex[:120] + "…")
                assert shown in code, (ex, shown)
                seen += 1
    assert seen > 5


def test_markdown_says_rates_with_their_denominators(report: dict[str, Any]) -> None:
    md = report_markdown(report)
    n = len(HOSTILE)
    den = report["denominators"]
    assert f"{den['failed']} of {n} URLs ({100 * den['failed'] / n:.2f}%) fail" in md
    # the implementations: yarl differs on every third URL, urllib raised on all
    differs = len(range(0, n, 3))
    assert f"| `yarl` | {differs} of {n} URLs ({100 * differs / n:.2f}%) |" in md
    assert f"| `urllib` | {n} of {n} URLs (100.00%) |" in md
    assert md.index("#### Failures") < md.index("#### Validation errors") \
        < md.index("#### Host disagreements") < md.index("#### Implementations") \
        < md.index("#### Editions") < md.index("#### The standard's history")


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.links: list[tuple[str, str]] = []
        self._href: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        if tag == "a":
            self._href = dict(attrs).get("href") or ""
            self._text = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.links.append((self._href, self._text))
            self._href = None

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text += data


def _links(page: str) -> list[tuple[str, str]]:
    p = _Page()
    p.feed(page)
    return p.links


ALLOWED_HTML = {"html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "dl", "dt",
                "dd", "code", "table", "thead", "tbody", "tr", "th", "td", "span", "a", "nav",
                "p"}
ALLOWED_ATTRS = {"lang", "charset", "http-equiv", "content", "name", "href", "rel", "id",
                 "class", "title", "style"}


def test_html_is_escaped_and_self_contained(report: dict[str, Any]) -> None:
    page = report_html(report, CALCULATOR)
    p = _Page()
    p.feed(page)
    assert {tag for tag, _ in p.tags} <= ALLOWED_HTML, {tag for tag, _ in p.tags} - ALLOWED_HTML
    for tag, attrs in p.tags:
        for name, value in attrs:
            assert name in ALLOWED_ATTRS, (tag, name, value)
            if name == "style":
                assert re.fullmatch(r"width:\d+\.\d\d%", value or ""), value
            if name == "href":
                assert (value or "").startswith((CALCULATOR + "#input=", "#f")), value
    csp = [dict(a)["content"] for t, a in p.tags if t == "meta" and dict(a).get("http-equiv")]
    assert csp and "default-src 'none'" in (csp[0] or "") and "script" not in (csp[0] or "")
    assert "://" not in re.sub(r'href="[^"]*"', "", page).replace(
        "://evil.example", "").replace("http://", "").replace("https://", ""), \
        "no resource from elsewhere"
    assert "<script" not in page.lower() and "<img" not in page.lower()


def test_html_links_open_the_example(report: dict[str, Any], rendered: dict[str, Any]) -> None:
    page = report_html(report, CALCULATOR)
    links = [(href, text) for href, text in _links(page) if href.startswith(CALCULATOR)]
    expected = set()
    for fam in report["families"]:
        if fam["family"] == "unreadable":
            continue
        for b in fam["buckets"][:25]:
            expected.update(ex for ex in b["examples"] if not is_cut(ex))
    # the page's own reading of each link's fragment: the example and the survey's base
    states = rendered["states"]
    assert len(states) == len(links)
    opened = set()
    for (_, text), state in zip(links, states, strict=True):
        assert state["base"] == BASE
        assert text == escape_invisible(state["input"]), (text, state["input"])
        opened.add(state["input"])
    assert opened == expected
    assert "http://a/?<script>alert(1)</script>" in opened
    # a cut example is shown, never linked
    assert not any(len(s["input"]) > MAX_EXAMPLE_CHARS for s in states)
    assert any(is_cut(ex) for fam in report["families"] for b in fam["buckets"]
               for ex in b["examples"])


def test_html_calculator_must_be_http() -> None:
    r = report_json(Tally())
    with pytest.raises(ValueError):
        report_html(r, "javascript:alert(1)//")
    with pytest.raises(ValueError):
        report_html(r, "http://a/#x")
    assert 'href="https://calc.example/x/#input=' not in report_html(r, "https://calc.example/x/")


def test_write_report_chooses_by_extension(tmp_path: Path) -> None:
    t = survey_lines(["http://a/", "http://a b/", "\ud800x:"], Options())
    meta = make_meta(Options(), sources=["s.txt"])
    j = json.loads(write_report(t, meta, tmp_path / "r.json").read_text("utf-8"))
    assert j["denominators"]["failed"] == 2 and j["meta"]["sources"] == ["s.txt"]
    assert write_report(t, meta, tmp_path / "r.md").read_text("utf-8").startswith(
        "### urlcalc survey: 3 URLs")
    assert "<table>" in write_report(t, meta, tmp_path / "r.html").read_text("utf-8")
    with pytest.raises(ValueError):
        write_report(t, meta, tmp_path / "r.txt")


def test_the_survey_request() -> None:
    answer = dispatch("survey", {"urls": "http://a/\r\n\nhttp://a b/\nx", "base": "http://b/"})
    assert answer["kind"] == "survey"
    r = answer["report"]
    # the blank line is counted as unreadable, as a file's would be, not dropped
    assert r["denominators"] == {"lines": 4, "urls": 3, "parsed": 2, "failed": 1,
                                 "unreadable": 1}
    unreadable = next(f for f in r["families"] if f["family"] == "unreadable")
    assert [(b["key"], b["examples"]) for b in unreadable["buckets"]] == [
        ("empty line", ["pasted:2"])]
    nul = dispatch("survey", {"urls": "http://a/\nhttp://a\x00b/\n"})["report"]
    assert nul["denominators"]["unreadable"] == 1 and nul["denominators"]["urls"] == 1
    assert jsonschema_rs.validator_for(SCHEMA).is_valid(r)
    with pytest.raises(ModelError, match="at most 10,000"):
        dispatch("survey", {"urls": "x\n" * (MAX_SURVEY_URLS + 1)})
    assert dispatch("survey", {"urls": "x\n" * MAX_SURVEY_URLS})["report"]["denominators"]["urls"] \
        == MAX_SURVEY_URLS
    with pytest.raises(ModelError, match="does not parse"):
        dispatch("survey", {"urls": "x", "base": "not a base"})


def test_the_server_refuses_a_survey_over_the_limit(tmp_path: Path) -> None:
    from urlcalc.serving.app import create_app

    client = create_app(cache_dir=tmp_path / "cache").test_client()
    over = client.post("/api/survey", json={"urls": "http://a/\n" * (MAX_SURVEY_URLS + 1)})
    assert over.status_code == 400, over.data[:200]
    assert "10,000" in over.get_json()["error"]
    ok = client.post("/api/survey", json={"urls": "http://a/\nhttp://a b/"})
    assert ok.status_code == 200 and ok.get_json()["report"]["denominators"]["failed"] == 1


def test_the_report_says_which_steps_the_corpus_never_reached() -> None:
    from urlcalc.standard.coverage import state_steps
    from urlcalc.survey.observe import Options as _Options
    from urlcalc.survey.report import report_html, report_json, report_markdown
    from urlcalc.survey.run import survey_lines

    tally = survey_lines(["http://example.com/a?b#c", "sc:opaque", "http://a b/"], _Options())
    report = report_json(tally)
    cov = report["coverage"]
    assert cov is not None
    universe = state_steps()
    assert cov["steps"] == len(universe)
    reached = [s for s in universe if s in tally.buckets["step"]]
    assert cov["reached"] == len(reached) > 10
    assert cov["never_reached"] == [s for s in universe if s not in reached]
    # a corpus of three URLs never reaches the file states
    assert "file state, step 1" in cov["never_reached"]
    assert "query state, step 3.3" not in cov["never_reached"] or \
        "query state, step 3.3" not in universe
    assert "Coverage of the state machine" in report_markdown(report)
    assert "never reached" in report_html(report).lower()
    no_cov = report_json(survey_lines(["http://a/"], _Options(coverage=False)),
                         {"options": {"coverage": False}})
    assert no_cov["coverage"] is None
