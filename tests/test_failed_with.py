"""Issue 26, item 3: a validation error is marked ``failed_with`` only when the step that
returned failure raised it, not from the error table's "can this error make the parse fail"."""

from __future__ import annotations

import pytest

from urlcalc.model.results import host_model, parse_model, set_model, validate_model


@pytest.mark.parametrize("input", ["https://EXAMPLE.com./", "https://xn--a.com/"])
def test_a_url_that_parses_failed_with_no_error(input: str) -> None:
    m = parse_model(input)
    assert m["ok"] is True and m["failure"] is None
    assert [e["name"] for e in m["validation_errors"]] == ["domain-to-ASCII"]
    # the table says domain-to-ASCII can make a parse fail; this parse did not
    assert m["validation_errors"][0]["failure"].startswith("yes")
    assert m["validation_errors"][0]["failed_with"] is False


def test_a_failure_at_a_step_that_raises_no_error_marks_none() -> None:
    m = parse_model("http://a b/")
    assert m["ok"] is False and m["failure"] is not None
    f = m["failure"]
    assert f["error"] is None
    assert f["cause"] is not None
    assert (f["cause"]["algorithm"], f["cause"]["step"]) == ("domain parser", "8")
    assert [(e["name"], e["failed_with"]) for e in m["validation_errors"]] == [
        ("domain-to-ASCII", False)]


def test_the_error_of_the_failing_step_is_marked() -> None:
    m = parse_model("http://a:b/")
    assert m["failure"] is not None and m["failure"]["error"] is not None
    assert [(e["name"], e["failed_with"]) for e in m["validation_errors"]] == [
        ("port-invalid", True)]
    m = parse_model("http://user@[::1.2.3.]/")
    assert [(e["name"], e["failed_with"]) for e in m["validation_errors"]] == [
        ("invalid-credentials", False), ("IPv4-in-IPv6-invalid-code-point", True)]
    assert m["failure"] is not None and m["failure"]["cause"] is not None
    assert m["failure"]["cause"]["step"] == m["validation_errors"][1]["step"]


def test_an_error_raised_before_a_failing_step_that_raises_none_is_not_marked() -> None:
    # IPv4 parser step 7 raises IPv4-out-of-range-part; step 9 returns failure, raising none
    m = parse_model("http://1.2.3.256/")
    assert m["failure"] is not None and m["failure"]["error"] is None
    assert m["failure"]["cause"] is not None and m["failure"]["cause"]["step"] == "9"
    assert [e["failed_with"] for e in m["validation_errors"]] == [False]


def test_at_most_one_error_is_marked_and_only_when_the_parse_failed() -> None:
    for input in ["http://a:b/", "https://user:pass@0x7f.1\\p", "http://[::1.2.3.]/",
                  "http://1.2.3.256/", "sc://a%zz\"b/", "http://a b/", "x", "http://h:99999/"]:
        m = parse_model(input)
        marked = [e for e in m["validation_errors"] if e["failed_with"]]
        assert len(marked) <= 1, input
        if m["ok"]:
            assert marked == [], input
        else:
            assert m["failure"] is not None
            error = m["failure"]["error"]
            assert [e["name"] for e in marked] == ([error["name"]] if error else []), input
    assert all(e["failed_with"] is False for e in validate_model("https://EXAMPLE.com./")[
        "validation_errors"])


def test_the_base_the_host_parser_and_the_setters_say_it_too() -> None:
    m = parse_model("x", "http://a:b/")
    assert m["failure"] is not None and m["failure"]["in"] == "base"
    assert [(e["name"], e["failed_with"]) for e in m["base_validation_errors"] or []] == [
        ("port-invalid", True)]
    h = host_model("[::1.2.3.]")
    assert [(e["name"], e["failed_with"]) for e in h["domain"]["validation_errors"]] == [
        ("IPv4-in-IPv6-invalid-code-point", True)]
    h = host_model("EXAMPLE.com.")
    assert all(not e["failed_with"] for e in h["domain"]["validation_errors"])
    s = set_model("http://h/", [("host", "[::1"), ("host", "a b")])
    assert [[(e["name"], e["failed_with"]) for e in o["validation_errors"]]
            for o in s["operations"]] == [[("IPv6-unclosed", True)],
                                          [("domain-to-ASCII", False)]]
