"""What people read of a survey: JSON (the schema: docs/survey-report.schema.json), Markdown
sized for a spec issue, and one self-contained HTML page.

``report_json(tally, meta)`` is the report every other form is written from: the survey's meta
(sources, base, options, urlcalc's version, when, partitions), the denominators (lines read,
URLs, URLs that parse and fail, unreadable lines), then every family with all its buckets,
sorted by count (descending) then key, each with its count, its rate (count / the family's
``denominator``, one of the denominators' names) and its examples. ``report_markdown`` and
``report_html`` read that dict, so a report written as JSON can be turned into the others later
(``write_report`` picks the form by the path's extension).

Every string from a corpus (an example, a scheme, an exception's name) is a hostile string here:
in Markdown it goes into a code span that nothing inside can close (``md_code``, the same rules
as the page's Copy as Markdown, web/js/render/share.js ``mdCode``: tests/test_survey_report.py
checks that both give the same text); in HTML it is escaped, and each example is a link that
opens it in the calculator (the page's permalink fragment, ``input=...&base=...``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict, cast
from urllib.parse import quote, urlsplit

from urlcalc.model.limits import MAX_SURVEY_URLS, ModelError
from urlcalc.model.runtime import VERSION
from urlcalc.model.shapes import Header, header
from urlcalc.standard.coverage import state_steps
from urlcalc.survey.observe import Options
from urlcalc.survey.reasons import EMPTY, LONE_SURROGATE, NUL
from urlcalc.survey.run import Line
from urlcalc.survey.tally import MAX_EXAMPLE_CHARS, Bucket, Tally

#: The report's schema version: a change that drops or renames a member makes it 2.
REPORT_VERSION = 1
#: The calculator the HTML report's examples open in (the page's origin and path).
DEFAULT_CALCULATOR = "http://127.0.0.1:8000/"

#: The denominators a family's rates divide by.
DENOMINATOR_NAMES = ("lines", "urls", "parsed", "failed", "unreadable")

#: Families whose buckets only a URL that parses falls into, and the unreadable lines'.
_DENOMINATOR_OF = {"scheme": "parsed", "scheme-kind": "parsed", "host": "parsed",
                   "unreadable": "lines"}
#: The families' order in a report: the findings first, the coverage last.
_ORDER = ("outcome", "failure", "validation-error", "error-site", "host-disagreement",
          "implementation:", "edition:", "history:", "scheme", "scheme-kind", "host", "step",
          "unreadable")
_TITLES = {
    "outcome": "Parses or fails",
    "failure": "Where the parse failed",
    "validation-error": "Validation errors",
    "error-site": "Validation errors, by the step that raised them",
    "host-disagreement": "Host disagreements (implementations whose host differs)",
    "scheme": "Schemes",
    "scheme-kind": "Special or not",
    "host": "Host parser paths",
    "step": "Steps of the parser taken (coverage)",
    "unreadable": "Unreadable lines",
}


class ReportOptions(TypedDict):
    """What the survey compared the standard with (urlcalc.survey.observe.Options)."""

    compare: list[str]
    implementations: list[str]
    editions: list[str]
    coverage: bool


class ReportMeta(TypedDict):
    """Where a report's counts come from."""

    sources: list[str]
    base: str | None
    options: ReportOptions
    urlcalc_version: str
    #: ISO 8601 times (null: not said)
    started: str | None
    finished: str | None
    #: how many partitions the corpus was read in (merged in any order: the same counts)
    partitions: int


class Denominators(TypedDict):
    """What rates divide by: ``lines`` = ``urls`` + ``unreadable``; ``urls`` = ``parsed`` +
    ``failed``."""

    lines: int
    urls: int
    parsed: int
    failed: int
    unreadable: int


class ReportBucket(TypedDict):
    key: str
    count: int
    #: count / the family's denominator (0 when that is 0)
    rate: float
    #: the first examples, shortest first then code-point order (a cut one ends with
    #: "… (<n> code points)")
    examples: list[str]


class ReportFamily(TypedDict):
    family: str
    title: str
    #: the name of the denominator (in ``denominators``) the rates divide by
    denominator: str
    buckets: list[ReportBucket]


class Coverage(TypedDict):
    """The spec's coverage: how many of the state machine's steps (urlcalc.standard.coverage's
    ``state_steps``) the corpus reached, and those it never reached, in the spec's order."""

    steps: int
    reached: int
    never_reached: list[str]


class SurveyReport(TypedDict):
    """A survey's report (docs/survey-report.schema.json); ``coverage`` is null when the survey
    did not count the steps taken."""

    report: str
    version: int
    meta: ReportMeta
    denominators: Denominators
    families: list[ReportFamily]
    coverage: Coverage | None


def options_json(options: Options) -> ReportOptions:
    """``options`` as a report's meta says them."""
    return ReportOptions(compare=sorted(options.compare),
                         implementations=list(options.implementations),
                         editions=list(options.editions), coverage=options.coverage)


def make_meta(options: Options | None = None, *, sources: Sequence[str] = (),
              started: str | None = None, finished: str | None = None,
              partitions: int = 1) -> ReportMeta:
    """A report's meta for a survey run with ``options`` over ``sources``."""
    o = options if options is not None else Options()
    return ReportMeta(sources=list(sources), base=o.base, options=options_json(o),
                      urlcalc_version=VERSION, started=started, finished=finished,
                      partitions=partitions)


def _family_rank(family: str) -> tuple[int, str]:
    for i, prefix in enumerate(_ORDER):
        if family == prefix or (prefix.endswith(":") and family.startswith(prefix)):
            return (i, family)
    return (len(_ORDER), family)


def family_title(family: str) -> str:
    """A family's heading."""
    if family in _TITLES:
        return _TITLES[family]
    kind, _, name = family.partition(":")
    if kind == "implementation":
        return f"Implementation {name} against the standard"
    if kind == "edition":
        return f"Edition {name} against today's standard"
    if kind == "history":
        return f"Without the change {name}"
    return family


def report_json(tally: Tally, meta: Mapping[str, Any] | None = None) -> SurveyReport:
    """The report of ``tally``: ``meta`` (``make_meta``; members it lacks take their
    defaults), the denominators, and every family's buckets by count then key."""
    m: dict[str, Any] = dict(make_meta())
    m.update(meta or {})
    parsed = tally.count("outcome", "parses")
    failed = tally.count("outcome", "fails")
    den = Denominators(lines=tally.urls + tally.unreadable, urls=tally.urls, parsed=parsed,
                       failed=failed, unreadable=tally.unreadable)
    counts = {"lines": den["lines"], "urls": den["urls"], "parsed": parsed, "failed": failed,
              "unreadable": den["unreadable"]}
    families: list[ReportFamily] = []
    for family in sorted(tally.buckets, key=_family_rank):
        name = _DENOMINATOR_OF.get(family, "urls")
        d = counts[name]
        buckets = sorted(tally.buckets[family].items(), key=lambda kv: (-kv[1].count, kv[0]))
        families.append(ReportFamily(
            family=family, title=family_title(family), denominator=name,
            buckets=[ReportBucket(key=key, count=b.count, rate=b.count / d if d else 0.0,
                                  examples=list(b.examples)) for key, b in buckets]))
    coverage: Coverage | None = None
    if m.get("options", {}).get("coverage", True):
        universe = state_steps()
        taken = tally.buckets.get("step", {})
        coverage = Coverage(
            steps=len(universe), reached=sum(1 for s in universe if s in taken),
            never_reached=[s for s in universe if s not in taken])
    return SurveyReport(report="urlcalc survey", version=REPORT_VERSION,
                        meta=cast(ReportMeta, m), denominators=den, families=families,
                        coverage=coverage)


def tally_from_report(report: Mapping[str, Any]) -> Tally:
    """The tally a report was written from (its buckets are all there): reports merge."""
    t = Tally(int(report["denominators"]["urls"]), int(report["denominators"]["unreadable"]))
    for fam in report["families"]:
        t.buckets[fam["family"]] = {}
        for b in fam["buckets"]:
            t.buckets[fam["family"]][b["key"]] = _bucket(b)
    return t


def _bucket(b: Mapping[str, Any]) -> Bucket:
    return Bucket(int(b["count"]), [str(x) for x in b["examples"]])


# --- shown strings --------------------------------------------------------------------------

_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Zs", "Cs", "Co", "Cn"})
_INVISIBLE_EXTRA = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x2800, 0x3164,
     *range(0xFE00, 0xFE10), 0xFFA0, *range(0xE0100, 0xE01F0)])


def is_invisible(ch: str) -> bool:
    """Whether ``ch`` shows as nothing (or as a space other than U+0020): the page's
    ``isInvisible`` (web/js/render/dom.js)."""
    return ch != " " and (unicodedata.category(ch) in _INVISIBLE_CATEGORIES
                          or ord(ch) in _INVISIBLE_EXTRA)


def escape_invisible(s: str) -> str:
    """``s`` with each invisible code point written ``\\u{HEX}`` (the page's
    ``escapeInvisible``)."""
    return "".join(f"\\u{{{ord(c):X}}}" if is_invisible(c) else c for c in s)


def md_code(value: object) -> str:
    """A Markdown code span holding ``value`` that nothing inside can close or break out of
    (the page's ``mdCode``, web/js/render/share.js): invisible code points (newlines too) as
    ``\\u{...}``; fenced by one more backtick than its longest run of backticks; padded with a
    space when it starts or ends with a backtick or a space; ``|`` escaped for a GFM table cell
    (which removes that backslash before reading the cell)."""
    s = re.sub(r"\r\n|\r|\n", " ", escape_invisible(str(value))).replace("|", "\\|")
    if s == "":
        return "*(empty)*"
    longest = max((len(run) for run in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if re.search(r"^[ `]|[ `]$", s) and not re.fullmatch(r" +", s) else ""
    return fence + pad + s + pad + fence


_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")


def well_formed(s: str) -> str:
    """``s`` with lone surrogates as U+FFFD (as the URL parser reads them)."""
    return _LONE_SURROGATE.sub("\ufffd", s)


def encode_uri_component(s: str) -> str:
    """JavaScript's ``encodeURIComponent`` (of ``well_formed(s)``)."""
    return quote(well_formed(s), safe="-_.!~*'()")


def permalink(example: str, base: str | None, calculator: str = DEFAULT_CALCULATOR) -> str:
    """The page's link that opens ``example`` (against ``base``) in the calculator: its
    fragment as the page writes it (web/js/render/share.js ``stateToFragment``: input always,
    base when not empty)."""
    fragment = "input=" + encode_uri_component(example)
    if base:
        fragment += "&base=" + encode_uri_component(base)
    return calculator + "#" + fragment


def check_calculator(calculator: str) -> str:
    """The calculator's URL, checked: http(s), with no fragment."""
    parts = urlsplit(calculator)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.fragment \
            or "#" in calculator:
        raise ValueError(f"the calculator must be an http(s) URL without a fragment: "
                         f"{calculator!r}")
    return calculator


_CUT = re.compile(r"… \(\d+ code points\)\Z")


def is_cut(example: str) -> bool:
    """Whether an example was kept cut (urlcalc.survey.tally.clip_example): it cannot be
    opened as it was."""
    return len(example) > MAX_EXAMPLE_CHARS and _CUT.search(example) is not None


# --- Markdown ---------------------------------------------------------------------------------

#: An example in a Markdown report is cut here (a spec issue quotes, it does not archive).
MD_EXAMPLE_CHARS = 120


def _n(n: int) -> str:
    return f"{n:,}"


def rate_text(count: int, denominator: int, what: str = "URLs") -> str:
    """"1,234 of 98,765 URLs (1.25%)"."""
    pct = 100 * count / denominator if denominator else 0.0
    shown = f"{pct:.2f}" if pct >= 0.01 or count == 0 else "<0.01"
    return f"{_n(count)} of {_n(denominator)} {what} ({shown}%)"


_DENOMINATOR_WORDS = {"lines": "lines", "urls": "URLs", "parsed": "URLs that parse",
                      "failed": "URLs that fail", "unreadable": "unreadable lines"}


def _md_examples(examples: Sequence[str], limit: int = 3) -> str:
    shown = []
    for ex in examples[:limit]:
        if len(ex) > MD_EXAMPLE_CHARS:
            ex = ex[:MD_EXAMPLE_CHARS] + "…"
        shown.append(md_code(ex))
    return ", ".join(shown)


def _md_table(rows: list[tuple[str, str, str]], head: tuple[str, str, str]) -> list[str]:
    out = [f"| {head[0]} | {head[1]} | {head[2]} |", "|---|---|---|"]
    out.extend(f"| {a} | {b} | {c} |" for a, b, c in rows)
    return out


def _families(report: Mapping[str, Any], prefix: str) -> list[Mapping[str, Any]]:
    fams: list[Mapping[str, Any]] = report["families"]
    return [f for f in fams if f["family"].startswith(prefix)]


def _count(family: Mapping[str, Any], key: str) -> int:
    return sum(int(b["count"]) for b in family["buckets"] if b["key"] == key)


def report_markdown(report: Mapping[str, Any], top: int = 10) -> str:
    """The report's top findings in Markdown, for a spec issue: failures, validation errors and
    host disagreements first, then each implementation's and edition's disagreement rate and the
    history's changes; each rate with its denominator."""
    den = report["denominators"]
    meta = report["meta"]
    urls = int(den["urls"])
    lines = [f"### urlcalc survey: {_n(urls)} URLs", ""]
    about = []
    if meta.get("sources"):
        about.append("sources " + ", ".join(md_code(s) for s in meta["sources"][:5])
                     + (f" and {_n(len(meta['sources']) - 5)} more"
                        if len(meta["sources"]) > 5 else ""))
    about.append("base " + (md_code(meta["base"]) if meta.get("base") else "none"))
    compare = meta.get("options", {}).get("compare") or []
    about.append("compared with " + (", ".join(compare) if compare else "nothing else"))
    about.append(f"urlcalc {md_code(meta.get('urlcalc_version', VERSION))}")
    if meta.get("finished"):
        about.append(f"finished {md_code(meta['finished'])}")
    lines += ["; ".join(about) + ".", ""]
    lines += [f"**{_n(urls)} URLs** read from {_n(int(den['lines']))} lines "
              f"({_n(int(den['unreadable']))} unreadable): "
              f"{rate_text(int(den['parsed']), urls)} parse, "
              f"{rate_text(int(den['failed']), urls)} fail.", ""]
    cov = report.get("coverage")
    if cov:
        never = cov["never_reached"]
        lines += [f"**Coverage of the state machine:** {_n(int(cov['reached']))} of "
                  f"{_n(int(cov['steps']))} steps reached; never reached: "
                  + (", ".join(md_code(x) for x in never[:top])
                     + (f" and {_n(len(never) - top)} more" if len(never) > top else "")
                     if never else "none") + ".", ""]

    def section(title: str, family: Mapping[str, Any] | None, head: str) -> None:
        if family is None or not family["buckets"]:
            return
        d = int(den[family["denominator"]])
        what = _DENOMINATOR_WORDS.get(family["denominator"], family["denominator"])
        rows = [(md_code(b["key"]), rate_text(int(b["count"]), d, what),
                 _md_examples(b["examples"]) if family["family"] != "unreadable"
                 else _md_examples(b["examples"], 2))
                for b in family["buckets"][:top]]
        lines.extend([f"#### {title}", ""])
        lines.extend(_md_table(rows, (head, "how many", "examples")))
        more = len(family["buckets"]) - top
        if more > 0:
            lines.append("")
            lines.append(f"*{_n(more)} more in the JSON report.*")
        lines.append("")

    by_name = {f["family"]: f for f in report["families"]}
    section("Failures", by_name.get("failure"), "where the parse failed")
    section("Validation errors", by_name.get("validation-error"), "validation error")
    section("Host disagreements", by_name.get("host-disagreement"), "implementation")

    impls = _families(report, "implementation:")
    if impls:
        rows = []
        for f in impls:
            name = f["family"].split(":", 1)[1]
            unavailable = _count(f, "not available")
            differs = urls - _count(f, "agrees") - unavailable
            kinds = [b for b in f["buckets"] if b["key"] not in ("agrees", "not available")]
            what = ", ".join(f"{md_code(b['key'])} {_n(int(b['count']))}" for b in kinds[:3])
            rows.append((md_code(name),
                         "not available" if unavailable == urls else
                         rate_text(differs, urls - unavailable), what or "—"))
        lines.extend(["#### Implementations: URLs read otherwise than the standard", ""])
        lines.extend(_md_table(rows, ("implementation", "disagrees on", "how (URLs)")))
        lines.append("")
    editions = _families(report, "edition:")
    if editions:
        rows = []
        for f in editions:
            name = f["family"].split(":", 1)[1]
            unrun = _count(f, "unspecified") + _count(f, "not run")
            differs = urls - _count(f, "same") - unrun
            kinds = [b for b in f["buckets"]
                     if b["key"] not in ("same", "unspecified", "not run")]
            what = ", ".join(f"{md_code(b['key'])} {_n(int(b['count']))}" for b in kinds[:3])
            rows.append((md_code(name), rate_text(differs, urls), what or "—"))
        lines.extend(["#### Editions: URLs an older specification reads otherwise", ""])
        lines.extend(_md_table(rows, ("edition", "differs on", "how (URLs)")))
        lines.append("")
    history = sorted(_families(report, "history:"),
                     key=lambda f: (-_count(f, "differs"), f["family"]))
    if history:
        rows = [(md_code(f["family"].split(":", 1)[1]), rate_text(_count(f, "differs"), urls),
                 _md_examples(f["buckets"][0]["examples"]))
                for f in history[:top]]
        lines.extend(["#### The standard's history: URLs a change altered", ""])
        lines.extend(_md_table(rows, ("without the change", "alters", "examples")))
        if len(history) > top:
            lines.extend(["", f"*{_n(len(history) - top)} more in the JSON report.*"])
        lines.append("")
    section("Unreadable lines", by_name.get("unreadable"), "why")
    steps = by_name.get("step")
    if steps is not None:
        lines.append(f"The corpus took {_n(len(steps['buckets']))} distinct steps of the "
                     "parser (the JSON report lists them, with how many URLs took each).")
        lines.append("")
    return "\n".join(lines)


# --- HTML -------------------------------------------------------------------------------------

#: Buckets per family in the HTML report (all of them are in the JSON report).
HTML_TOP = 25

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; " \
       "form-action 'none'"

_CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:1180px;margin:0 auto;padding:16px}
h1{font-size:1.5em;margin:.3em 0}h2{font-size:1.15em;margin:1.6em 0 .4em}
code{font:13px/1.3 ui-monospace,monospace;overflow-wrap:anywhere;white-space:pre-wrap}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bar{display:inline-block;width:120px;height:10px;background:#e6e6ea;margin-right:6px}
.bar span{display:block;height:100%;background:#3a6fd8}
.ex a,.ex span{display:block;margin:1px 0}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}dt{font-weight:600}
nav a{margin-right:10px;white-space:nowrap}
.note{color:#555;font-size:.92em}
@media (max-width:600px){.bar{width:50px}td,th{padding:3px}}
"""


_HTML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                               "'": "&#x27;"})


def _e(s: object) -> str:
    # (html.escape's replacements, without importing html, whose entities table the page's
    # boot snapshot would carry)
    return str(s).translate(_HTML_ESCAPES)


def _shown(s: str) -> str:
    """A string from a corpus as HTML text: invisible code points written out, escaped."""
    return _e(escape_invisible(s))


def report_html(report: Mapping[str, Any], calculator: str = DEFAULT_CALCULATOR,
                top: int = HTML_TOP) -> str:
    """The report as one self-contained HTML page (inline CSS, no script, a CSP that forbids
    everything else): the denominators, then each family's top buckets with a bar of its rate
    and its examples, each a link that opens it in ``calculator``."""
    calc = check_calculator(calculator)
    den = report["denominators"]
    meta = report["meta"]
    base = meta.get("base")
    urls = int(den["urls"])
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           '<meta name="referrer" content="no-referrer">',
           f"<title>urlcalc survey: {_n(urls)} URLs</title>",
           f"<style>{_CSS}</style></head><body><main>",
           f"<h1>urlcalc survey: {_n(urls)} URLs</h1>", "<dl>"]
    sources = meta.get("sources") or []
    out.append("<dt>Sources</dt><dd>" + (", ".join(f"<code>{_shown(s)}</code>" for s in sources)
                                         or "—") + "</dd>")
    out.append("<dt>Base</dt><dd>" + (f"<code>{_shown(base)}</code>" if base else "none")
               + "</dd>")
    compare = meta.get("options", {}).get("compare") or []
    out.append(f"<dt>Compared with</dt><dd>{_e(', '.join(compare) or 'nothing else')}</dd>")
    out.append(f"<dt>urlcalc</dt><dd>{_e(meta.get('urlcalc_version', ''))}</dd>")
    when = " to ".join(_e(t) for t in (meta.get("started"), meta.get("finished")) if t)
    if when:
        out.append(f"<dt>When</dt><dd>{when}</dd>")
    out.append(f"<dt>Partitions</dt><dd>{_e(meta.get('partitions', 1))}</dd></dl>")
    out.append('<h2 id="denominators">Denominators</h2><table><tbody>')
    for name in DENOMINATOR_NAMES:
        out.append(f"<tr><th>{_e(_DENOMINATOR_WORDS[name])}</th>"
                   f'<td class="n">{_n(int(den[name]))}</td></tr>')
    out.append("</tbody></table>")
    families = report["families"]
    out.append("<nav><p>" + "".join(
        f'<a href="#f{i}">{_e(f["title"])}</a>' for i, f in enumerate(families)) + "</p></nav>")
    for i, fam in enumerate(families):
        d = int(den[fam["denominator"]])
        words = _DENOMINATOR_WORDS.get(fam["denominator"], fam["denominator"])
        out.append(f'<h2 id="f{i}">{_e(fam["title"])} <code>{_shown(fam["family"])}</code></h2>')
        out.append(f'<p class="note">{_n(len(fam["buckets"]))} buckets; rates of the '
                   f"{_n(d)} {_e(words)}.</p>")
        out.append("<table><thead><tr><th>bucket</th><th>URLs</th><th>rate</th>"
                   "<th>examples</th></tr></thead><tbody>")
        linked = fam["family"] != "unreadable"
        for b in fam["buckets"][:top]:
            rate = float(b["rate"])
            exs = []
            for ex in b["examples"]:
                if linked and not is_cut(ex):
                    exs.append(f'<a href="{_e(permalink(ex, base, calc))}" rel="noopener">'
                               f"<code>{_shown(ex)}</code></a>")
                else:
                    exs.append(f"<span><code>{_shown(ex)}</code></span>")
            out.append(
                f"<tr><td><code>{_shown(b['key'])}</code></td>"
                f'<td class="n">{_n(int(b["count"]))}</td>'
                f'<td class="n"><span class="bar" title="{100 * rate:.2f}%">'
                f'<span style="width:{min(100.0, 100 * rate):.2f}%"></span></span>'
                f"{100 * rate:.2f}%</td>"
                f'<td class="ex">{"".join(exs)}</td></tr>')
        out.append("</tbody></table>")
        if len(fam["buckets"]) > top:
            out.append(f'<p class="note">{_n(len(fam["buckets"]) - top)} more buckets in the '
                       "JSON report.</p>")
    cov = report.get("coverage")
    if cov:
        out.append(f'<h2 id="coverage">Coverage of the state machine: {int(cov["reached"]):,} '
                   f'of {int(cov["steps"]):,} steps reached</h2>')
        never = cov["never_reached"]
        out.append("<p>Never reached: " + ", ".join(f"<code>{_e(x)}</code>" for x in never)
                   + ".</p>" if never else "<p>Every step was reached.</p>")
    out.append("</main></body></html>")
    return "\n".join(out) + "\n"


# --- writing ----------------------------------------------------------------------------------

def report_text(report: Mapping[str, Any]) -> str:
    """The report as JSON text (lone surrogates written as \\u escapes)."""
    text = json.dumps(report, ensure_ascii=False, indent=1)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def write_report(tally: Tally, meta: Mapping[str, Any] | None, path: str | Path,
                 calculator: str = DEFAULT_CALCULATOR) -> Path:
    """Write the report of ``tally`` to ``path``, as JSON (.json), Markdown (.md) or HTML
    (.html) by its extension."""
    p = Path(path)
    suffix = p.suffix.lower()
    report = report_json(tally, meta)
    if suffix == ".json":
        text = report_text(report)
    elif suffix in (".md", ".markdown"):
        text = report_markdown(report)
    elif suffix in (".html", ".htm"):
        text = report_html(report, calculator)
    else:
        raise ValueError(f"a report is .json, .md or .html, not {p.name!r}")
    p.write_text(text, encoding="utf-8", errors="surrogatepass" if suffix == ".json"
                 else "replace")
    return p


# --- the "survey" request (the page surveys a small corpus) ----------------------------------

def survey_lines_of(urls: str) -> list[Line]:
    """The lines of a pasted text (LF or CRLF; a final newline ends the last line): each a URL,
    or an unreadable line as a file's would be ((reason, "pasted:<line>"): blank, or holding a
    NUL or a lone surrogate), never dropped."""
    lines = urls.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out: list[Line] = []
    for n, line in enumerate(lines, 1):
        line = line.removesuffix("\r")
        if not line.strip(" \t"):
            out.append((EMPTY, f"pasted:{n}"))
        elif "\x00" in line:
            out.append((NUL, f"pasted:{n}"))
        elif not line.isascii() and any("\ud800" <= c <= "\udfff" for c in line):
            out.append((LONE_SURROGATE, f"pasted:{n}"))
        else:
            out.append(line)
    return out


class SurveyAnswer(Header):
    """A small corpus surveyed (the "survey" request)."""

    #: the survey's report (docs/survey-report.schema.json)
    report: SurveyReport


def survey_model(urls: str, base: str | None = None) -> SurveyAnswer:
    """Survey the URLs of ``urls`` (one a line, at most MAX_SURVEY_URLS) against ``base``: the
    standard's own buckets, with coverage; the report."""
    from urlcalc.survey.run import survey_lines

    lines = survey_lines_of(urls)
    if len(lines) > MAX_SURVEY_URLS:
        raise ModelError(f"{len(lines):,} URLs: a survey request reads at most "
                         f"{MAX_SURVEY_URLS:,} (urlcalc survey reads any number)")
    try:
        options = Options(base=base or None)
        tally = survey_lines(lines, options)
    except ValueError as e:  # the base does not parse
        raise ModelError(str(e)) from None
    return SurveyAnswer(**header("survey"),
                        report=report_json(tally, make_meta(options, sources=["pasted"])))

