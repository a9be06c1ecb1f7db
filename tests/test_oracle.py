"""The independent spec-literal oracle (tests/oracle, issue 26 item 5): first the oracle itself
against WPT (its href or failure equals urltestdata.json's expected for every case, and every
setters_tests.json case's expected href), then the calculator's trace against the oracle's ran
steps (tests/oracle/compare.py)."""

from __future__ import annotations

from cases import setter_cases, wpt_entries
from oracle.compare import compare_all, format_report, to_usv
from oracle.record import LAST_RULE
from oracle.setters_literal import serialize, set_value
from oracle.spec_literal import parse


def test_the_oracle_parses_every_urltestdata_case_as_wpt_expects() -> None:
    wrong: list[str] = []
    for case in wpt_entries("urltestdata.json"):
        base = case.get("base")
        url, _ = parse(to_usv(case["input"]), None if base is None else to_usv(base))
        got = "failure" if url is None else serialize(url)
        want = "failure" if case.get("failure") else case["href"]
        if got != want:
            wrong.append(f"{case['input']!r} against {base!r}: {got} (WPT: {want})")
    assert not wrong, "\n".join(wrong)


def test_the_oracle_runs_every_setters_tests_case_as_wpt_expects() -> None:
    wrong: list[str] = []
    for setter, case in setter_cases():
        if setter == "href":  # not part of the oracle
            continue
        url, _ = parse(case["href"])
        assert url is not None
        set_value(url, setter, to_usv(case["new_value"]))
        want = case["expected"].get("href")
        if want is not None and serialize(url) != want:
            wrong.append(f"{setter} {case['new_value']!r} on {case['href']}: {serialize(url)}")
    assert not wrong, "\n".join(wrong)


def test_the_oracle_lists_the_contracts_examples() -> None:
    def ran(input: str, base: str | None = None) -> list[tuple[str, str | None, list[str]]]:
        return [(r.algorithm, r.step, sorted(r.changes)) for r in parse(input, base)[1]]

    # scheme state at ":" ran 2.2 {scheme}, 2.7
    assert ran("http://example.com/")[4:6] == [("scheme state", "2.2", ["scheme"]),
                                                ("scheme state", "2.7", [])]
    # relative state: 2 {scheme}, 5.1 {host, path}, 5.4.1, 5.4.2 calls shorten {path}, 5.4.3,
    # then shorten's own step, one deeper
    steps = parse("x", "http://h/a/b")[1]
    first = next(i for i, r in enumerate(steps) if r.algorithm == "relative state")
    assert [(r.depth, r.algorithm, r.step, sorted(r.changes), r.calls)
            for r in steps[first:first + 6]] == [
        (0, "relative state", "2", ["scheme"], None),
        (0, "relative state", "5.1", ["host", "path"], None),
        (0, "relative state", "5.4.1", [], None),
        (0, "relative state", "5.4.2", ["path"], "shorten a url's path"),
        (0, "relative state", "5.4.3", [], None),
        (1, "shorten a url's path", "4", ["path"], None)]
    assert ("path state", "1.4.2", ["path"]) in ran("http://h/a?q")
    assert ("path state", "1.6", ["query"]) in ran("http://h/a?q")
    opaque = [r for r in parse("mailto:a ?c")[1] if r.algorithm == "opaque path state"]
    assert [(r.step, r.errors) for r in opaque[1:3]] == [("3.1", ("invalid-URL-unit",)),
                                                          ("3.2", ())]
    url, _ = parse("https://a/")
    assert url is not None
    port = set_value(url, "port", "8080")
    assert [(r.depth, r.algorithm, r.step, r.outcome) for r in port[-2:]] == [
        (1, "port state", "2.1.3", None), (1, "port state", "2.1.5", "return")]
    url, _ = parse("http://h:8080/")
    assert url is not None
    assert [(r.algorithm, r.step, sorted(r.changes)) for r in set_value(url, "port", "")] == [
        ("port setter", "2", ["port"])]
    # IPv4 parser step 2.1 raises IPv4-empty-part; host parser 8 calls it and returns
    v4 = [r for r in parse("http://1.2.3.4./")[1] if r.errors or r.calls or r.outcome]
    assert (2, "IPv4 parser", "2.1", ("IPv4-empty-part",)) in [
        (r.depth, r.algorithm, r.step, r.errors) for r in v4]
    assert (1, "host parser", "8", "IPv4 parser", "return") in [
        (r.depth, r.algorithm, r.step, r.calls, r.outcome) for r in v4]


def test_rule_e_has_two_readings() -> None:
    """The contract's rule (e), "the step that applied last in the run (the leaf branch that set
    the next state or ended the run)": urlcalc's observer.py reads it as the step that applied
    last (path state at "\\": 1.5 "Set buffer to the empty string" is listed), the contract's own
    example `http://h/a\\b` lists 1.1, 1.4.2 only. The oracle does either (LAST_RULE)."""
    def at_backslash() -> list[str | None]:
        steps = parse("http://h/a\\b")[1]
        path = [r for r in steps if r.algorithm == "path state"]
        i = next(i for i, r in enumerate(path) if r.step == "1.1")
        return [r.step for r in path[i:i + 3]]

    assert LAST_RULE["rule"] == "applied"
    assert at_backslash() == ["1.1", "1.4.2", "1.5"]
    LAST_RULE["rule"] = "deciding"
    try:
        assert at_backslash() == ["1.1", "1.4.2", "2.3"]  # then "b": path state 2.3
    finally:
        LAST_RULE["rule"] = "applied"


#: the comparison's counts, printed at the end of the run (tests/conftest.py)
SUMMARY: list[str] = []


def test_trace_matches_the_oracle() -> None:
    result = compare_all()
    report = format_report(result)
    print(report)
    SUMMARY.append(" ".join(line.strip() for line in report.splitlines()))
    assert result.total() == 0, report
