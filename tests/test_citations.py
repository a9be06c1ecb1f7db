"""Citations are results: every step the calculator cites exists in url.bs and is the branch
that applied.

1. The shipped step data (urlcalc/data/url_steps.json) is what spec/extract_steps.py makes of
   spec/url.bs today.
2. Every citation of the trace (URL parser states, preprocessing, host, IPv4, IPv6, opaque-host,
   domain parsers, path shortening, setters, UTS #46 stages), of failures (cause and the steps
   that passed it on), of provenance and of setter reasons resolves in that data, over every
   WPT input, setter case and host, the 10k corpus and the differential generator's cases.
3. A table of hand-checked cases asserts the branch, not only its existence.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from cases import corpus
from differential import generate

from urlcalc.model.results import host_model, parse_model, set_model
from urlcalc.standard import steps as spec
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.observer import Step
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.url import URL, URLParseError
from urlcalc.trace.recorder import TraceRecorder

ROOT = Path(__file__).resolve().parent.parent
GENERATED = 3000
COUNTS: Counter[str] = Counter()


def _extractor() -> Any:
    loader = importlib.util.spec_from_file_location("extract_steps",
                                                    ROOT / "spec" / "extract_steps.py")
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


def test_shipped_step_data_is_url_bs() -> None:
    extract = _extractor()
    source = (ROOT / "spec" / "url.bs").read_text(encoding="utf-8")
    shipped = (ROOT / "urlcalc" / "data" / "url_steps.json").read_text(encoding="utf-8")
    assert extract.render(source) == shipped, \
        "url.bs changed: run `python spec/extract_steps.py` and commit the data"


def test_step_data_reads_like_the_spec() -> None:
    # Hand-checked against url.bs: numbering by <ol> nesting, <ul> items folded into their
    # step, notes left out, the spec's words kept.
    port = spec.algorithm("port state")
    assert port is not None and port.anchor == "port-state"
    assert list(port.steps) == ["1", "2", "2.1", "2.1.1", "2.1.2", "2.1.3", "2.1.4", "2.1.5",
                                "2.2", "2.3", "3"]
    assert port.steps["2.1.2"] == ("If port is not a 16-bit unsigned integer, "
                                   "port-out-of-range validation error, return failure.")
    basic = spec.algorithm("basic URL parser")
    assert basic is not None and list(basic.steps)[:4] == ["1", "1.1", "1.2", "1.3"]
    assert "9" in basic.steps and "10" in basic.steps and "11" not in basic.steps
    assert spec.step_text("IPv4 parser", "14") == "Return ipv4."
    assert spec.step_text("IPv4 parser", "15") is None
    assert spec.step_text("IPv6 parser", "6.8") == (
        "If length is greater than 1 and value is less than 0x10^(length − 1), "
        "IPv6-piece-leading-zero validation error.")
    assert spec.step_text("path state", "1").startswith(
        "If one of the following is true: • c is the EOF code point or U+002F (/)")
    assert spec.step_text("fragment state", "0") is None
    assert spec.algorithm("opaque path state").anchor == "cannot-be-a-base-url-path-state"  # type: ignore[union-attr]
    assert spec.algorithm("protocol setter").steps == {}  # type: ignore[union-attr]
    assert "note" not in json.dumps(spec.algorithm("domain parser").steps).lower()  # type: ignore[union-attr]


# -- every citation resolves ------------------------------------------------------------------


def _check_step(s: Step, where: str, bad: list[str]) -> None:
    COUNTS["trace steps"] += 1
    algorithm = s.get("algorithm")
    step = s.get("step")
    if not isinstance(algorithm, str) or not spec.resolves(algorithm, step):
        bad.append(f"{where}: {algorithm!r} step {step!r} ({s.get('note')})")
        return
    alg = spec.algorithm(algorithm)
    assert alg is not None
    # a state where no step's condition held must say so in words
    if step is None and alg.steps and not str(s.get("note", "")).startswith("no step applies"):
        bad.append(f"{where}: {algorithm} cites no step and does not say why")
    cause = s.get("cause")
    if cause is not None and not spec.resolves(cause["algorithm"], cause["step"]):
        bad.append(f"{where}: cause {cause}")
    # every step that ran resolves, and the last is the step the event cites
    ran = s.get("ran")
    if ran is None:  # every event lists the steps that ran (issue 26)
        bad.append(f"{where}: {algorithm} step {step!r} lists no steps that ran")
        return
    COUNTS["ran steps"] += len(ran)
    for r in ran:
        if not spec.resolves(algorithm, r["step"]):
            bad.append(f"{where}: {algorithm} ran step {r['step']!r}")
    if (ran[-1]["step"] if ran else None) != step:
        bad.append(f"{where}: {algorithm} cites {step!r} but its last step that ran is "
                   f"{ran[-1]['step'] if ran else None!r}")
    called_by = s.get("called_by")
    if called_by is not None and not spec.resolves(called_by["algorithm"], called_by["step"]):
        bad.append(f"{where}: called by {called_by}")


def _check_errors(errors: list[ValidationError], where: str, bad: list[str]) -> None:
    for e in errors:
        COUNTS["validation errors"] += 1
        if not e.algorithm or e.step is None or not spec.resolves(e.algorithm, e.step):
            bad.append(f"{where}: {e.name} cites {e.algorithm!r} step {e.step!r}")
        elif e.name not in (spec.step_text(e.algorithm, e.step) or "") and \
                e.name.lower() not in (spec.step_text(e.algorithm, e.step) or "").lower():
            # the step that raises an error names it
            bad.append(f"{where}: {e.name} is not named by {e.algorithm} step {e.step}")


def _check_failure(failure: ParseFailure, where: str, bad: list[str]) -> None:
    COUNTS["failures"] += 1
    if failure.cause is None or not spec.resolves(*failure.cause):
        bad.append(f"{where}: failure cause {failure.cause}")
    for alg, step in failure.via:
        if not spec.resolves(alg, step):
            bad.append(f"{where}: failure via {alg} {step}")
    if failure.state is None or not spec.resolves(failure.state, failure.step):
        bad.append(f"{where}: failing state step {failure.state} {failure.step}")


def _parse(input: str, base: str | None, where: str, bad: list[str]) -> None:
    parsed_base: URLRecord | None = None
    if base is not None:
        b = basic_url_parse(base)
        if isinstance(b, ParseFailure):
            _check_failure(b, where + " (base)", bad)
            return
        assert isinstance(b, URLRecord)
        parsed_base = b
    rec = TraceRecorder(max_steps=100_000)
    errors: list[ValidationError] = []
    result = basic_url_parse(input, parsed_base, observer=rec, errors=errors)
    for s in rec.steps:
        _check_step(s, where, bad)
    _check_errors(errors, where, bad)
    if isinstance(result, ParseFailure):
        _check_failure(result, where, bad)


def _set(href: str, setter: str, value: str, where: str, bad: list[str]) -> None:
    try:
        url = URL(href)
    except URLParseError:
        return
    rec = TraceRecorder(max_steps=100_000)
    errors: list[ValidationError] = []
    try:
        stop = url.set_cited(setter, value, rec, errors)
    except URLParseError as e:
        _check_failure(e.failure, where, bad)
        stop = None
    for s in rec.steps:
        _check_step(s, where, bad)
    _check_errors(errors, where, bad)
    if stop is not None:
        COUNTS["setter reasons"] += 1
        for alg, step in ((stop.algorithm, stop.step), (stop.setter, stop.setter_step)):
            if not spec.resolves(alg, step):
                bad.append(f"{where}: setter reason {alg} {step}")


def _run(requests: list[dict[str, Any]], label: str) -> list[str]:
    bad: list[str] = []
    for i, r in enumerate(requests):
        where = f"{label}[{i}] {r!r}"[:300]
        if r["op"] == "parse":
            _parse(r["input"], r["base"], where, bad)
        else:
            _set(r["href"], r["setter"], r["value"], where, bad)
    return bad


def test_citations_resolve_over_wpt_and_its_hosts() -> None:
    bad = _run(generate.fixed_cases(), "WPT")
    assert bad == [], f"{len(bad)} unresolvable citations, e.g. {bad[:5]}"


def test_citations_resolve_over_the_corpus() -> None:
    requests = [{"op": "parse", "input": input, "base": base} for input, base in corpus()]
    assert len(requests) >= 9_000
    bad = _run(requests, "corpus")
    assert bad == [], f"{len(bad)} unresolvable citations, e.g. {bad[:5]}"


def test_citations_resolve_over_generated_cases() -> None:
    bad = _run(generate.cases(GENERATED, seed=9), "generated")
    assert bad == [], f"{len(bad)} unresolvable citations, e.g. {bad[:5]}"


def test_model_citations_resolve_over_wpt() -> None:
    """The result model's own citations: failure cause and via, provenance, setter reasons."""
    bad: list[str] = []
    for input, base in generate.wpt_inputs():
        m = parse_model(input, base)
        failure = m["failure"]
        if failure is not None:
            for c in [failure["cause"], *failure["via"]]:
                if c is None or not spec.resolves(c["algorithm"], c["step"]):
                    bad.append(f"{input!r}: failure {c}")
                elif c["text"] != spec.step_text(c["algorithm"], c["step"]):
                    bad.append(f"{input!r}: failure text is not the spec's")
        for p in m.get("provenance") or []:
            for n in p["normalised"]:
                COUNTS["provenance"] += 1
                if not spec.resolves(n["algorithm"], n["step_id"]):
                    bad.append(f"{input!r}: provenance {n}")
    for href, setter, value in generate.wpt_setter_cases():
        try:
            ops = set_model(href, [(setter, value)])["operations"]
        except Exception as e:  # the model never raises on a WPT case
            bad.append(f"set {href!r} {setter}: {e!r}")
            continue
        for op in ops:
            c = op["cited"]
            if c is not None and not spec.resolves(c["algorithm"], c["step"]):
                bad.append(f"set {href!r} {setter}: {c}")
    assert bad == [], bad[:5]


# -- the branch that applied: hand-checked against url.bs --------------------------------------


def _trace(input: str, base: str | None = None) -> list[Step]:
    m = parse_model(input, base, trace=True)
    steps: list[Step] = m["trace"]["steps"]
    return steps


def _failure(input: str, base: str | None = None) -> dict[str, Any]:
    m = parse_model(input, base)
    assert m["ok"] is False, input
    failure: dict[str, Any] = m["failure"]
    return failure


# (input, base, algorithm, step, index, the validation error the failing step itself raises)
FAILURES = [
    # port state 2.1.2: "If port is not a 16-bit unsigned integer, port-out-of-range ..."
    ("http://h:65536/", None, "port state", "2.1.2", 14, "port-out-of-range"),
    # port state 3: "Otherwise, port-invalid validation error, return failure." (c is "b")
    ("http://f:b/c", None, "port state", "3", 9, "port-invalid"),
    # authority state 2.1: atSignSeen and the buffer is empty at "/"
    ("http://user:pass@/", None, "authority state", "2.1", 17, "host-missing"),
    # no scheme state 1: base has an opaque path and c is not "#"
    ("?q", "mailto:x", "no scheme state", "1", 0, "missing-scheme-non-relative-URL"),
    # IPv4 parser 9: 257 >= 256^1 (step 7 raised IPv4-out-of-range-part on the way)
    ("http://192.168.0.257/", None, "IPv4 parser", "9", 7, None),
    # IPv4 parser 8: a number before the last exceeds 255
    ("http://256.1.1.1/", None, "IPv4 parser", "8", 7, None),
    # domain parser 8: the result contains U+0020, a forbidden domain code point
    ("http://a b/", None, "domain parser", "8", 8, None),
    ("http://user:pass@ex ample.com/", None, "domain parser", "8", 19, None),
    ("htps//example .com", "https://h/", None, None, None, None),  # parses (relative): no failure
    # IPv6 parser 6.2.1: a second "::" (c is its second ":", at index 13)
    ("http://[1::2::3]/", None, "IPv6 parser", "6.2.1", 13, "IPv6-multiple-compression"),
    # host parser 1.1: "[" without "]"
    ("http://[::1/", None, "host parser", "1.1", 7, "IPv6-unclosed"),
    # opaque-host parser 1: a forbidden host code point in a non-special URL's host
    ("sc://a<b/", None, "opaque-host parser", "1", 6, "host-invalid-code-point"),
    # host state 3.1: a special URL with an empty host
    ("http://?x", None, "host state", "3.1", 7, "host-missing"),
]


@pytest.mark.parametrize(("input", "base", "algorithm", "step", "index", "error"), FAILURES)
def test_failure_is_a_place(input: str, base: str | None, algorithm: str | None,
                            step: str | None, index: int | None, error: str | None) -> None:
    m = parse_model(input, base)
    if algorithm is None:
        assert m["ok"] is True
        return
    f = m["failure"]
    assert (f["cause"]["algorithm"], f["cause"]["step"], f["index"]) == (algorithm, step, index)
    assert f["cause"]["text"] == spec.step_text(algorithm, step)
    assert (f["error"]["name"] if f["error"] else None) == error
    assert f["reason"].startswith(f"{algorithm}, step {step}: ")


def test_failure_names_the_errors_raised_on_the_way_separately() -> None:
    f = _failure("http://a b/")
    assert f["error"] is None and f["raised"] == ["domain-to-ASCII"]
    assert [(c["algorithm"], c["step"]) for c in f["via"]] == [("host parser", "7"),
                                                               ("host state", "3.4")]
    f = _failure("http://192.168.0.257/")
    assert f["raised"] == ["IPv4-out-of-range-part"]
    assert [(c["algorithm"], c["step"]) for c in f["via"]] == [("host parser", "8"),
                                                               ("host state", "3.4")]
    # the failing URL step cites the step that returned failure, never "failure"
    steps = _trace("http://h:65536/")
    assert steps[-1]["step"] == "2.1.2" and steps[-1]["outcome"] == "failure"
    # the URL step that returned failure comes before the host parser's steps it called
    last = [s for s in _trace("http://a b/") if s["parser"] == "url"][-1]
    assert (last["state"], last["step"]) == ("host state", "3.4")
    assert [(r["step"], r.get("calls"), r.get("outcome")) for r in last["ran"]] == [
        ("3.3", "host parser", None), ("3.4", None, "failure")]
    assert last["cause"] == {"algorithm": "domain parser", "step": "8"}


def test_no_step_applies_is_said_in_words() -> None:
    for input, state in (("http://h/#f", "fragment state"), ("sc:x", "opaque path state"),
                         ("sc://h", "path start state")):
        last = _trace(input)[-1]
        assert (last["state"], last["step"]) == (state, None), input
        assert last["note"].startswith("no step applies: c is the EOF code point")
    assert all(s["step"] not in ("0", "failure", "1-4") for s in _trace("http://h/#f"))


def test_preprocessing_cites_steps_1_2_1_3_2_and_3() -> None:
    pre = [s for s in _trace(" http://a\t/\n ") if s["algorithm"] == "basic URL parser"]
    assert [s["step"] for s in pre] == ["1.2", "1.3", "2", "3"]
    pre = [s for s in _trace("http://a\t/") if s["algorithm"] == "basic URL parser"]
    assert [s["step"] for s in pre] == ["2", "3"]


def test_path_state_single_dot_before_a_slash_is_step_1_5_only() -> None:
    path = [(s["c"], [r["step"] for r in s["ran"]]) for s in _trace("http://h/a/./b")
            if s["state"] == "path state"]
    # "/" after "." : 1.3 applies only when c is not "/"; 1.4 only when buffer is not "."; the
    # run ends with step 1.5 (set buffer to the empty string), after 1.4.2 appended the segment
    assert path == [("a", ["2.3"]), ("/", ["1.4.2", "1.5"]), (".", ["2.3"]), ("/", ["1.5"]),
                    ("b", ["2.3"]), (None, ["1.4.2", "1.5"])]
    # a final "." : step 1.3 appends the empty string
    path = [(s["c"], [r["step"] for r in s["ran"]]) for s in _trace("http://h/a/.")
            if s["state"] == "path state"]
    assert path[-1] == (None, ["1.3", "1.5"])
    prov = {p["component"]: p for p in parse_model("http://h/a/./b")["provenance"]}
    assert [(n["algorithm"], n["step_id"]) for n in prov["path"]["normalised"]] == [
        ("path state", "1.5")]


def test_host_parser_substeps_follow_the_url_step_and_in_full() -> None:
    steps = _trace("http://0x7f.1/")
    i = next(i for i, s in enumerate(steps) if s["parser"] == "url" and "host" in s["changes"])
    j = next(j for j in range(i + 1, len(steps)) if steps[j]["depth"] == 0)
    before = steps[i + 1:j]  # the host parser's and the algorithms it calls, nested
    assert steps[i]["changes"]["host"] == "127.0.0.1"
    ipv4 = [(s["algorithm"], s["step"]) for s in before if s["depth"] > 0
            and s["algorithm"].startswith("IPv4")]
    # 2 parts (step 3: too few parts); each part: the IPv4 parser's step 6 (6.1 calls the
    # number parser, 6.3 for the non-decimal "0x7f", 6.4 appends), then the number parser's
    # steps it called, nested; return (14)
    assert ipv4 == [("IPv4 parser", "3"), ("IPv4 parser", "6.4"), ("IPv4 number parser", "9"),
                    ("IPv4 parser", "6.4"), ("IPv4 number parser", "9"), ("IPv4 parser", "14")]
    r16 = next(s for s in before if s["algorithm"] == "IPv4 number parser")
    assert (r16["R"], r16["validationError"], r16["part"]) == (16, True, "0x7f")
    v6 = [s["step"] for s in _trace("http://[::1]/") if s.get("algorithm") == "IPv6 parser"]
    assert v6[0] == "5.3"  # the leading "::" (IPv6 parser step 5)
    uts46 = [s["state"] for s in _trace("https://faß.example/") if s["parser"] == "uts46"]
    assert uts46.index("UTS #46 validate") < uts46.index("UTS #46 encode")


def test_ipv6_leading_zero_is_at_the_piece() -> None:
    m = parse_model("http://[::01]/")
    assert [(e["name"], e["index"]) for e in m["validation_errors"]] == [
        ("IPv6-piece-leading-zero", 10)]


def test_provenance_cites_the_step_that_normalised() -> None:
    def prov(input: str) -> dict[str, list[tuple[str, str | None]]]:
        return {p["component"]: [(n["algorithm"], n["step_id"]) for n in p["normalised"]]
                for p in parse_model(input)["provenance"]}
    # host state step 2 ("a ":" follows), not step 3: its sub-step 2.3 runs the host parser
    assert prov("https://EXAMPLE.com:0443/")["host"] == [("host state", "2.3")]
    assert prov("https://EXAMPLE.com/")["host"] == [("host state", "3.3")]
    assert prov("file://EXAMPLE.com/")["host"] == [("file host state", "1.3.1")]
    # "localhost" is the host parser's; its becoming the empty host is step 1.3.3's
    assert prov("file://LOCALHOST/x")["host"] == [("file host state", "1.3.3")]
    assert prov("sc:a<b")["path"] == []  # nothing was percent-encoded
    assert prov("mailto:aéb")["path"] == [("opaque path state", "4.3")]
    assert prov("http://h/é")["path"] == [("path state", "2.3")]
    assert prov("http://h/?é")["query"] == [("query state", "2.2")]
    assert prov("http://h/#é")["fragment"] == [("fragment state", "1.3")]
    assert prov("http://u:p é@h/")["password"] == [("authority state", "1.4.2")]
    # an earlier "@" is prepended to buffer as "%40" (1.2), not percent-encoded by 1.4.2
    assert prov("https://@a@b@h/")["username"] == [("authority state", "1.2")]
    assert prov("http://u:@c@d@h/")["password"] == [("authority state", "1.2")]
    # a space before ? or # in an opaque path (3.2); the other space stays a space (3.3)
    assert prov("sc:a  ?q")["path"] == [("opaque path state", "3.2")]
    # port: "080" is 80 (2.1.1), the default port of http, so null (2.1.3)
    assert prov("http://h:080/")["port"] == [("port state", "2.1.1"), ("port state", "2.1.3")]
    assert prov("http://h:81/")["port"] == []
    # scheme: each state lowercases the code point it appends (step 1 of both) ...
    assert prov("HTtp://h/")["scheme"] == [("scheme start state", "1"), ("scheme state", "1")]
    # ... but a buffer that does not become the scheme (scheme state step 3 starts over) is
    # not the scheme's: "C|" against a file base is a path, and the scheme is the base's
    m = parse_model("C|/x", "file:///tmp/y")
    scheme = next(p for p in m["provenance"] if p["component"] == "scheme")
    assert (scheme["source"], scheme["normalised"]) == ("base", [])
    # "//C|/x" against a file base: no "localhost" anywhere; the drive letter is normalised
    prov_c = {
        p["component"]: [(n["algorithm"], n["step_id"]) for n in p["normalised"]]
        for p in parse_model("//C|/x", "file:///tmp/y")["provenance"]}
    assert prov_c["host"] == [] and prov_c["path"] == [("path state", "1.4.1")]
    # the empty path of a special URL: the path start state did not see "/" (1.3), and the
    # path state appended the empty buffer; "/" against a base runs no path start state
    assert prov("http://h")["path"] == [("path start state", "1.3")]
    m = parse_model("/", "http://h/a/b")
    path = next(p for p in m["provenance"] if p["component"] == "path")
    assert (path["source"], path["normalised"]) == ("input", [])


SETTERS = [
    # (href, setter, value, algorithm, step) of the reason
    ("https://a/", "port", "x", "port state", "2.2"),
    ("mailto:x", "port", "1", "port setter", "1"),
    ("file:///x", "password", "p", "password setter", "1"),
    ("https://a/", "protocol", "1x", "scheme start state", "3"),
    ("https://a/", "protocol", "mailto", "scheme state", "2.1.1"),
    ("mailto:x", "protocol", "http", "scheme state", "2.1.2"),
    ("https://a/", "hostname", "b:1", "hostname state", "2.2"),
    ("https://a/", "host", "a b", "domain parser", "8"),
    ("sc:x", "pathname", "/y", "pathname setter", "1"),
    ("https://u@a/", "host", "", "host state", "3.1"),
]


@pytest.mark.parametrize(("href", "setter", "value", "algorithm", "step"), SETTERS)
def test_setter_reason_cites_the_step(href: str, setter: str, value: str, algorithm: str,
                                      step: str) -> None:
    op = set_model(href, [(setter, value)])["operations"][0]
    assert (op["cited"]["algorithm"], op["cited"]["step"]) == (algorithm, step)
    assert op["cited"]["text"] == spec.step_text(algorithm, step)
    assert spec.step_text(algorithm, step) in op["reason"]


def test_every_setter_traces_its_steps() -> None:
    def setter_steps(href: str, setter: str, value: str) -> list[str | None]:
        op = set_model(href, [(setter, value)], trace=True)["operations"][0]
        return [s["step"] for s in op["trace"]["steps"] if s["parser"] == "setter"]
    assert setter_steps("https://a/", "host", "b") == ["2"]
    assert setter_steps("https://a/", "port", "8") == ["3"]
    assert setter_steps("https://a/", "protocol", "http") == [None]  # no numbered steps
    assert setter_steps("https://a/", "pathname", "x") == ["2", "3"]
    assert setter_steps("https://a/", "search", "?q") == ["3", "4", "5", "6"]
    assert setter_steps("https://a/", "hash", "#f") == ["2", "3", "4"]
    assert setter_steps("https://a/", "href", "https://b/") == ["1", "3"]


def test_host_model_failure_is_a_place() -> None:
    m = host_model("a b")
    assert m["domain"]["ok"] is False
    assert (m["domain"]["cause"]["algorithm"], m["domain"]["cause"]["step"]) == (
        "domain parser", "8")
    assert m["domain"]["cause"]["index"] == 1



def test_each_validation_error_cites_the_step_that_raised_it() -> None:
    m = parse_model(" https://user@0x7f.1\\a\\..\\b?<q>")
    got = [(e["name"], e["index"], e["algorithm"], e["step"]) for e in m["validation_errors"]]
    assert got == [
        ("invalid-URL-unit", 0, "basic URL parser", "1.2"),
        ("invalid-credentials", 13, "authority state", "1.1"),
        ("IPv4-too-few-parts", 14, "IPv4 parser", "3"),
        ("IPv4-non-decimal-part", 14, "IPv4 parser", "6.3"),
        ("invalid-reverse-solidus", 20, "path start state", "1.1"),
        ("invalid-reverse-solidus", 22, "path state", "1.1"),
        ("invalid-reverse-solidus", 25, "path state", "1.1"),
        ("invalid-URL-unit", 28, "query state", "3.1"),
        ("invalid-URL-unit", 30, "query state", "3.1"),
    ]
    got = [(e["algorithm"], e["step"]) for e in parse_model("sc://a%zz/%zz")["validation_errors"]]
    assert got == [("opaque-host parser", "3"), ("path state", "2.2")]
    got = [(e["algorithm"], e["step"]) for e in parse_model("file:///C|/\\x")["validation_errors"]]
    assert ("path state", "1.1") in got
