"""The spec's coverage (urlcalc.standard.coverage): the steps a parse took, each a real step of
url.bs, and the fast path's remembered shapes give the state machine's steps exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urlcalc.standard import steps as spec
from urlcalc.standard.coverage import MAX_SHAPES, NO_STEP, Coverage, covered_parse, shape
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.variants import VARIANTS, undoing

DATA = Path(__file__).parent / "data"


def _cases() -> list[tuple[str, str | None]]:
    wpt = json.loads((DATA / "wpt" / "urltestdata.json").read_text("utf-8"))
    cases = [(c["input"], c.get("base")) for c in wpt if isinstance(c, dict)]
    urls = (DATA / "bench" / "corpus-10k.txt").read_text("utf-8").splitlines()
    cases += [(u, None) for u in urls]
    cases += [(u, "http://example.com/a/b?q#f") for u in urls[::3]]
    return cases


def _base(b: str | None, cache: dict[str | None, URLRecord | None]) -> URLRecord | None:
    if b not in cache:
        r = basic_url_parse(b) if b is not None else None
        cache[b] = r if isinstance(r, URLRecord) else None
    return cache[b]


def test_the_shapes_give_the_state_machines_steps() -> None:
    cov = Coverage()
    bases: dict[str | None, URLRecord | None] = {}
    wrong = []
    cases = _cases()
    for input, b in cases:
        base = _base(b, bases)
        want_result, want = covered_parse(input, base, [])
        got_result, got = cov.parse(input, base, [])
        if got != want or str(got_result) != str(want_result) or \
                isinstance(got_result, ParseFailure) != isinstance(want_result, ParseFailure):
            wrong.append((input, b, sorted(want ^ got)))
    assert wrong == []
    # The shortcut is taken (else this test would prove nothing about it).
    assert cov.hits > len(cases) // 4, cov.hits
    assert 0 < len(cov.shapes) <= MAX_SHAPES


def test_every_step_taken_is_a_step_of_url_bs() -> None:
    cov = Coverage()
    bases: dict[str | None, URLRecord | None] = {}
    seen: set[str] = set()
    for input, b in _cases():
        seen |= cov.parse(input, _base(b, bases), [])[1]
    assert len(seen) > 60
    unresolved = []
    for key in sorted(seen):
        if key.endswith(", " + NO_STEP):
            algorithm, step = key[:-len(NO_STEP) - 2], None
        else:
            algorithm, _, step = key.partition(", step ")
        if not spec.resolves(algorithm, step):
            unresolved.append(key)
    assert unresolved == []


def test_covered_parse_is_the_parse() -> None:
    # "  http://a b/": the leading spaces are trimmed (step 1.2's validation error), the scheme
    # is set (2.2), the host state calls the host parser (3.3), and the host "a b" fails at the
    # domain parser's forbidden-domain-code-point step (8).
    r, steps = covered_parse("  http://a b/", None, [])
    assert isinstance(r, ParseFailure) and r.cause == ("domain parser", "8")
    assert steps == {
        "basic URL parser, step 1.2", "scheme start state, step 1", "scheme state, step 1",
        "scheme state, step 2.2", "scheme state, step 2.7",
        "special authority slashes state, step 1",
        "special authority ignore slashes state, step 1", "authority state, step 2.2",
        "authority state, step 3", "host state, step 3.3", "host state, step 3.4",
        "host state, step 4.3", "domain parser, step 8"}
    r2, steps2 = covered_parse("http://example.com/a/../b?x#y", None, [])
    assert isinstance(r2, URLRecord) and r2.path == ["b"]
    # ".." shortens the path (path state, step 1.2.1), "b" is appended (1.4.2), and the
    # fragment state runs at the end of the input, where no step applies.
    assert {"path state, step 1.2.1", "path state, step 1.4.2",
            "fragment state, no step applies"} <= steps2
    assert not any(s.startswith("domain parser") for s in steps2)


def test_shapes_tell_dot_segments_and_ports_apart() -> None:
    assert shape("http://a/b/./c") != shape("http://a/b/x/c")
    assert shape("http://a/b/%2e/c") != shape("http://a/b/%41/c")
    assert shape("http://a:80/") != shape("http://a/")
    assert shape("http://a:/") != shape("http://a:8/")
    assert shape("http://[::1]/") != shape("http://a/")
    assert shape("http://example.com/abc") == shape("http://example.org/xyz")


@pytest.mark.parametrize("variant", [v.name for v in VARIANTS[:5]])
def test_an_undone_change_reads_by_the_state_machine(variant: str) -> None:
    cov = Coverage()
    with undoing([variant]):
        r, steps = cov.parse("http://example.com/a", None, [])
    assert isinstance(r, URLRecord) and steps
    assert cov.hits == 0 and not cov.shapes
