"""The host parser's events (issue 26, item 2): one for every step that raises a validation
error, changes the result, calls an algorithm, returns or returns failure; each with ``ran``
(its steps, leaf numbers of url.bs) and ``step == ran[-1]["step"]``; ``depth`` the real nesting
relative to the host parser (host parser 0; IPv4, IPv6, opaque-host and domain parsers 1; IPv4
number parser and UTS #46 2); ``called_by`` on every nested event; an event, then the events of
the algorithms its step calls, then the next event. Expectations derived by hand from url.bs
("host parsing")."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from urlcalc.standard import steps as spec
from urlcalc.standard.host import HostFailure, host_parse
from urlcalc.standard.parser import basic_url_parse
from urlcalc.trace.recorder import TraceRecorder

Event = dict[str, Any]


def _host(input: str, opaque: bool = False) -> list[Event]:
    rec = TraceRecorder()
    with contextlib.suppress(HostFailure):
        host_parse(input, opaque, observer=rec)
    return [dict(s) for s in rec.steps]


def _brief(events: list[Event]) -> list[tuple[int, str, str | None]]:
    return [(e["depth"], e["algorithm"], e["step"]) for e in events if e["parser"] != "uts46"]


def _ran(event: Event) -> list[tuple[str, tuple[str, ...], str | None, str | None]]:
    return [(r["step"], tuple(r.get("errors", ())), r.get("outcome"), r.get("calls"))
            for r in event["ran"]]


def _one(events: list[Event], algorithm: str, step: str) -> Event:
    [event] = [e for e in events if e["algorithm"] == algorithm and e["step"] == step]
    return event


def test_ipv4_parser_step_2_raises_the_empty_part_error_and_removes_the_part() -> None:
    # url.bs, IPv4 parser, step 2: "If the last item in parts is the empty string, then:" 2.1
    # "IPv4-empty-part validation error." 2.2 "If parts's size is greater than 1, then remove
    # the last item from parts." "1.2.3.4." has 5 parts, the last empty: 2.1 and 2.2 run, and
    # no event of step 1 lists the error.
    events = _host("1.2.3.4.")
    split = _one(events, "IPv4 parser", "2.2")
    assert _ran(split) == [("2.1", ("IPv4-empty-part",), None, None), ("2.2", (), None, None)]
    assert split["parts"] == ["1", "2", "3", "4"] and split["errors"] == ["IPv4-empty-part"]
    assert not [e for e in events if e["algorithm"] == "IPv4 parser" and e["step"] == "1"]
    # without the trailing dot: step 1 alone (the split), no error
    assert _ran(_one(_host("1.2.3.4"), "IPv4 parser", "1")) == [("1", (), None, None)]


def test_the_url_parser_shows_the_ipv4_empty_part_on_step_2_1() -> None:
    rec = TraceRecorder()
    basic_url_parse("http://1.2.3.4./", observer=rec)
    ipv4 = [s for s in rec.steps if s["algorithm"] == "IPv4 parser"]
    assert [r["step"] for r in ipv4[0]["ran"]] == ["2.1", "2.2"]
    assert ipv4[0]["ran"][0]["errors"] == ["IPv4-empty-part"]
    host = next(s for s in rec.steps if s["algorithm"] == "host parser" and s["step"] == "8")
    # one deeper than the host parser's step 8, which calls the IPv4 parser
    assert all(s["depth"] == host["depth"] + 1 for s in ipv4)
    assert {(s["called_by"]["algorithm"], s["called_by"]["step"]) for s in ipv4} == {
        ("host parser", "8")}


def test_opaque_host_parser_steps_2_and_3_are_events_with_their_errors() -> None:
    # url.bs, opaque-host parser: step 2 (a code point that is not a URL code point and not
    # "%": invalid-URL-unit, here '"'), step 3 ("%" not followed by two hex digits:
    # invalid-URL-unit, here "%zz"), step 4 returns the percent-encoded input. The host parser's
    # step 2 calls it and returns its result.
    events = _host('a%zz"b', opaque=True)
    assert _brief(events) == [(0, "host parser", "2"), (1, "opaque-host parser", "4")]
    host, opaque = events
    assert _ran(host) == [("2", (), "return", "opaque-host parser")]
    assert "called_by" not in host
    assert _ran(opaque) == [("2", ("invalid-URL-unit",), None, None),
                            ("3", ("invalid-URL-unit",), None, None), ("4", (), "return", None)]
    assert opaque["called_by"] == {"algorithm": "host parser", "step": "2"}
    assert opaque["result"] == 'a%zz"b'  # '"' is not in the C0 control percent-encode set


def test_the_url_parser_shows_the_opaque_host_errors_on_the_opaque_host_parser() -> None:
    rec = TraceRecorder()
    basic_url_parse('sc://a%zz"b/', observer=rec)
    [opaque] = [s for s in rec.steps if s["algorithm"] == "opaque-host parser"]
    assert [(r["step"], r.get("errors")) for r in opaque["ran"]] == [
        ("2", ["invalid-URL-unit"]), ("3", ["invalid-URL-unit"]), ("4", None)]
    [host] = [s for s in rec.steps if s["algorithm"] == "host parser"]
    assert opaque["depth"] == host["depth"] + 1
    assert rec.steps.index(host) + 1 == rec.steps.index(opaque)  # right after its caller


@pytest.mark.parametrize(("input", "host_steps", "inner", "inner_failure"), [
    # host parser 1.2: "Return the result of IPv6 parsing input with its leading U+005B ([) and
    # trailing U+005D (]) removed." The IPv6 parser fails at 6.5.5.3 (the "." after "3" is
    # followed by EOF, not an ASCII digit).
    ("[::1.2.3.]", [("1.2", "IPv6 parser")], "IPv6 parser", "6.5.5.3"),
    # host parser 8: "If asciiDomain ends in a number, then return the result of IPv4 parsing
    # asciiDomain." The IPv4 parser fails at 9 (999999999999 >= 256^1).
    ("1.2.3.999999999999", [("5", None), ("6", "domain parser"), ("8", "IPv4 parser")],
     "IPv4 parser", "9"),
    # IPv4 parser 6.2: the IPv4 number parser returns failure for "x" (step 7)
    ("1.x.3.4", [("5", None), ("6", "domain parser"), ("8", "IPv4 parser")], "IPv4 parser",
     "6.2"),
])
def test_a_failure_passed_on_is_one_failure_event_per_level(
        input: str, host_steps: list[tuple[str, str | None]], inner: str,
        inner_failure: str) -> None:
    events = _host(input)
    host = [e for e in events if e["depth"] == 0]
    assert [(e["step"], next((r.get("calls") for r in e["ran"] if "calls" in r), None))
            for e in host] == host_steps
    assert host[-1]["outcome"] == "failure" and host[-1]["ran"][-1]["outcome"] == "failure"
    failures = [(e["depth"], e["algorithm"], e["step"]) for e in events
                if e.get("outcome") == "failure" and e["algorithm"] != "IPv4 number parser"]
    assert failures == [(0, "host parser", host_steps[-1][0]), (1, inner, inner_failure)]
    # the inner algorithm's events follow the host parser's calling step, one deeper
    i = events.index(host[-1])
    assert all(e["depth"] >= 1 for e in events[i + 1:])
    last = [e for e in events if e["depth"] == 1][-1]
    assert (last["algorithm"], last["step"]) == (inner, inner_failure)


def test_the_ipv4_number_parser_is_nested_under_ipv4_parser_step_6_1() -> None:
    # url.bs, IPv4 parser, 6.1 "Let result be the result of parsing part." (the IPv4 number
    # parser), 6.3 (result[1] is true: IPv4-non-decimal-part), 6.4 (append result[0]).
    events = _host("0x7f.1")
    ipv4 = [e for e in events if e["depth"] >= 1 and e["algorithm"].startswith("IPv4")]
    assert [(e["depth"], e["algorithm"], e["step"]) for e in ipv4] == [
        (1, "IPv4 parser", "3"), (1, "IPv4 parser", "6.4"), (2, "IPv4 number parser", "9"),
        (1, "IPv4 parser", "6.4"), (2, "IPv4 number parser", "9"), (1, "IPv4 parser", "14")]
    assert _ran(ipv4[1]) == [("6.1", (), None, "IPv4 number parser"),
                             ("6.3", ("IPv4-non-decimal-part",), None, None),
                             ("6.4", (), None, None)]
    number = ipv4[2]
    assert (number["R"], number["validationError"], number["part"]) == (16, True, "0x7f")
    assert number["called_by"] == {"algorithm": "IPv4 parser", "step": "6.1"}
    assert ipv4[0]["called_by"] == {"algorithm": "host parser", "step": "8"}
    # the IPv4 number parser's own failures: step 1 (the empty string) and step 7
    for input, step in (("1..2.3", "1"), ("1.09.2.3", "7")):
        [number] = [e for e in _host(input) if e["algorithm"] == "IPv4 number parser"
                    and e.get("outcome") == "failure"]
        assert number["step"] == step and number["depth"] == 2, input


def test_the_domain_parser_follows_host_parser_step_6_and_step_7_returns_failure() -> None:
    # url.bs, host parser, 6: "Let asciiDomain be the result of running domain parser with
    # domain and false." 7: "If asciiDomain is failure, then return failure." The domain parser
    # raises domain-to-ASCII at 2 (strict ToASCII fails: U1, the space) and returns failure at
    # 8 (a forbidden domain code point), raising no error there.
    events = _host("a b")
    assert _brief(events) == [
        (0, "host parser", "5"), (0, "host parser", "6"), (1, "domain parser", "1"),
        (1, "domain parser", "2"), (1, "domain parser", "5"), (1, "domain parser", "8"),
        (0, "host parser", "7")]
    assert _ran(_one(events, "domain parser", "8")) == [("8", (), "failure", None)]
    assert _ran(_one(events, "host parser", "7")) == [("7", (), "failure", None)]
    assert _ran(_one(events, "domain parser", "2")) == [("2", ("domain-to-ASCII",), None, None)]
    # UTS #46 ToASCII's stages come right after the domain parser's step 1, which calls it
    strict = events.index(_one(events, "domain parser", "1"))
    stages = [e for e in events if e["parser"] == "uts46"]
    assert events[strict + 1:strict + 1 + len(stages)] == stages
    assert all(e["depth"] == 2 and e["called_by"] == {"algorithm": "domain parser", "step": "1"}
               for e in stages)


def test_a_non_ascii_domain_runs_to_ascii_twice_each_nested_under_its_step() -> None:
    # url.bs, domain parser: 1 (beStrict true) and 6.1 (beStrict false) both run ToASCII.
    events = _host("faß.example")
    assert _brief(events) == [
        (0, "host parser", "5"), (0, "host parser", "6"), (1, "domain parser", "1"),
        (1, "domain parser", "6.1"), (1, "domain parser", "9"), (0, "host parser", "9")]
    callers = [e["called_by"]["step"] for e in events if e["parser"] == "uts46"]
    assert callers == ["1"] * 7 + ["6.1"] * 6  # the relaxed run does not verify DNS length
    assert _one(events, "host parser", "9")["result"] == "xn--fa-hia.example"


def _leaf(algorithm: str, step: str) -> bool:
    steps = spec.algorithms()[algorithm].steps
    return step in steps and not any(s.startswith(step + ".") for s in steps)


def _hosts() -> list[tuple[str, bool]]:
    data = json.loads((Path(__file__).parent / "data" / "wpt" / "toascii.json")
                      .read_text("utf-8"))
    inputs = [c["input"] for c in data if isinstance(c, dict) and c["input"]] + [
        "1.2.3.4.", "0x7f.1", "1.2.3.999999999999", "1..2.3", "1.09.2.3", "[::1.2.3.]",
        "[1::2]", "[::01]", "[1::2::3]", "[:1]", "[1:2:3:4:5:6:7]", "[1", "a%41b", "a%zz\"b",
        "a b", "1.2.3.4.5", "256.1.1.1", "1.2.3.256", "0x100000000", "faß.example"]
    return [(i, opaque) for i in inputs for opaque in (False, True)]


def test_every_event_keeps_the_contract() -> None:
    """Over toascii.json and the cases above, as a domain and as an opaque host: every event's
    step is its last ran step, a leaf of url.bs (UTS #46: a stage); its errors are its steps'
    errors, and all the errors reported are on some event; a nested event sits one deeper than
    the event that called it, which comes before it and names the algorithm in ``calls``; a
    failure is one event per algorithm that returns it."""
    for input, opaque in _hosts():
        reported: list[str] = []

        def report(name: str, offset: int | None, detail: str,
                   cite: tuple[str, str | None] | None = None,
                   reported: list[str] = reported) -> None:
            reported.append(name)

        rec = TraceRecorder()
        failure: HostFailure | None = None
        try:
            host_parse(input, opaque, report, rec)
        except HostFailure as stop:
            failure = stop
        events: list[Event] = [dict(s) for s in rec.steps]
        where = (input, opaque)
        callers: list[Event] = []  # the calling event at each depth
        for e in events:
            ran = e["ran"]
            assert ran and e["step"] == ran[-1]["step"], where
            if e["parser"] != "uts46":
                assert all(_leaf(e["algorithm"], r["step"]) for r in ran), (where, e)
            assert e.get("errors", []) == [x for r in ran for x in r.get("errors", ())], where
            depth = e["depth"]
            del callers[depth:]
            if depth == 0:
                assert e["algorithm"] == "host parser" and "called_by" not in e, where
            else:
                caller = callers[depth - 1]
                called = e["called_by"]
                assert called["algorithm"] == caller["algorithm"], (where, e)
                calls = [r for r in caller["ran"] if r["step"] == called["step"]]
                assert calls and "calls" in calls[0], (where, e)
            callers.append(e)
        assert sorted(x for e in events for x in e.get("errors", ())) == sorted(reported), where
        failed = [(e["algorithm"], e["step"]) for e in events if e.get("outcome") == "failure"
                  and e["algorithm"] != "IPv4 number parser"]
        if failure is None:
            assert not failed, where
        else:
            chain = [(failure.algorithm, failure.step), *failure.via]
            assert sorted(failed) == sorted(chain), where


def test_a_full_recorder_counts_every_event_it_would_have_kept() -> None:
    for input, opaque in (("1.2.3.4.", False), ("faß.example", False), ("[::1.2.3.]", False),
                          ('a%zz"b', True)):
        full, empty = TraceRecorder(), TraceRecorder(max_steps=0)
        for rec in (full, empty):
            with contextlib.suppress(HostFailure):
                host_parse(input, opaque, observer=rec)
        assert empty.steps == [] and empty.dropped == len(full.steps) > 0, input
