"""The record a student follows in the Steps view: folding each step's changes, in the order the
steps ran, gives the URL record the parser returns (issue 26: "the record after each step
consistent with the record before the next").

Over every WPT input (with its base), the 10k corpus and every WPT setter case: the basic URL
parser's events (depth 0; under a setter, depth 1) are folded step by step from the record the
parse starts from; the result must be the record the parser returned, each event's ``changes``
must be what its steps changed, and every step's change must be a real change (the value
differs from the record before it).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cases import corpus

from urlcalc.standard.host import host_serialize
from urlcalc.standard.observer import Step
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.record import RECORD_FIELDS, URLRecord
from urlcalc.standard.url import URL, URLParseError
from urlcalc.trace.recorder import TraceRecorder

WPT = Path(__file__).resolve().parent / "data" / "wpt"


def _json(url: URLRecord) -> dict[str, object]:
    out: dict[str, object] = {}
    for name in RECORD_FIELDS:
        value = getattr(url, name)
        if name == "host":
            value = None if value is None else host_serialize(value)
        elif name == "path" and isinstance(value, list):
            value = list(value)
        out[name] = value
    return out


def _fold(record: dict[str, object], steps: list[Step], depth: int, where: str) -> None:
    """Fold the basic URL parser's events at ``depth`` into ``record``, checking each."""
    for s in steps:
        if s.get("parser") != "url" or s.get("depth") != depth:
            continue
        ran = s.get("ran")
        assert ran is not None, where
        merged: dict[str, object] = {}
        for r in ran:
            for field, value in (r.get("changes") or {}).items():
                assert record[field] != value, (where, s["state"], r["step"], field, value)
                record[field] = value
                merged[field] = value
        assert merged == (s.get("changes") or {}), (where, s["state"], s.get("i"))


def _check_parse(input: str, base: str | None) -> None:
    base_record = None
    if base is not None:
        b = basic_url_parse(base)
        if isinstance(b, ParseFailure):
            return
        base_record = b
    rec = TraceRecorder(max_steps=100_000)
    result = basic_url_parse(input, base_record, observer=rec)
    record = _json(URLRecord())
    _fold(record, rec.steps, 0, f"{input!r} against {base!r}")
    if not isinstance(result, ParseFailure):
        assert record == _json(result), (input, base)


def _urltestdata() -> list[tuple[str, str | None]]:
    data = json.loads((WPT / "urltestdata.json").read_text("utf-8"))
    return [(c["input"], c.get("base")) for c in data if isinstance(c, dict)]


def test_folding_the_steps_gives_the_record_over_wpt_and_the_corpus() -> None:
    cases = _urltestdata() + list(corpus()[:3000])
    for input, base in cases:
        _check_parse(input, base)
    print(f"\nrecord timelines folded (tests/test_trace_record.py): {len(cases):,} parses")


def test_relative_state_shows_the_base_path_then_the_shortened_one() -> None:
    # issue 26: "../x" against http://h/a/b/c: relative state 5.1 copies the base's path,
    # 5.4.2 shortens it (its "shorten a url's path" event follows, nested, naming 5.4.2), then
    # the path state's 1.2.1 shortens again.
    b = basic_url_parse("http://h/a/b/c")
    assert not isinstance(b, ParseFailure)
    rec = TraceRecorder()
    basic_url_parse("../x", b, observer=rec)
    steps = rec.steps
    i = next(i for i, s in enumerate(steps) if s["state"] == "relative state")
    ran = {r["step"]: r for r in steps[i]["ran"]}
    assert list(ran) == ["2", "5.1", "5.4.1", "5.4.2", "5.4.3"]
    assert ran["2"]["changes"] == {"scheme": "http"}
    assert ran["5.1"]["changes"]["path"] == ["a", "b", "c"]
    assert ran["5.4.2"] == {"step": "5.4.2", "changes": {"path": ["a", "b"]},
                            "calls": "shorten a url's path"}
    shorten = steps[i + 1]
    assert (shorten["state"], shorten["depth"], shorten["removed"], shorten["called_by"]) == (
        "shorten a url's path", 1, "c", {"algorithm": "relative state", "step": "5.4.2"})
    # nothing of the relative state's work shows under the no scheme state before it
    assert steps[i - 1]["state"] == "no scheme state" and steps[i - 1]["changes"] == {}


@pytest.mark.parametrize("setter", ["protocol", "username", "password", "host", "hostname",
                                    "port", "pathname", "search", "hash"])
def test_setter_steps_fold_to_the_record(setter: str) -> None:
    data = json.loads((WPT / "setters_tests.json").read_text("utf-8"))
    n = 0
    for case in data.get(setter, []):
        try:
            url = URL(case["href"])
        except URLParseError:
            continue
        record = _json(url.record)
        rec = TraceRecorder(max_steps=100_000)
        url.set(setter, case["new_value"], rec)
        calling: dict[str, object] | None = None
        for s in rec.steps:  # the setter's own steps, then the parser it runs, one deeper
            if s.get("parser") == "setter":
                assert s.get("depth") == 0
                for r in s.get("ran") or []:
                    if r.get("calls"):  # it changed what the parser it ran changes
                        calling = dict(r.get("changes") or {})
                        start = dict(record)
                    else:
                        record.update(r.get("changes") or {})
            elif s.get("parser") == "url":
                assert s.get("depth") == 1 and s.get("called_by", {}).get(
                    "algorithm") == f"{setter} setter", (setter, case)
                _fold(record, [s], 1, f"{setter} {case['new_value']!r}")
        assert record == _json(url.record), (setter, case)
        if calling is not None:  # the calling step's changes are the parser's, net
            assert calling == {k: v for k, v in record.items() if start[k] != v}, (setter, case)
        n += 1
    assert n > 5
