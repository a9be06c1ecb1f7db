"""Host parsing beyond WPT: IPv4 forms, IPv6, IDNA behaviour the URL Standard asks for."""

from __future__ import annotations

import pytest

from urlcalc import URL
from urlcalc.standard.host import (
    HostFailure,
    domain_to_unicode,
    ends_in_a_number,
    host_parse,
    host_serialize,
    ipv4_number_parse,
)


@pytest.mark.parametrize(("input", "expected"), [
    ("0", "0.0.0.0"), ("0x", "0.0.0.0"), ("0xffffffff", "255.255.255.255"),
    ("127.1", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("0x7f.0.0.0x1", "127.0.0.1"),
    ("1.2.3.4.", "1.2.3.4"), ("4294967295", "255.255.255.255"),
    ("[0:0::1]", "[::1]"), ("[1:0:0:2:0:0:0:3]", "[1:0:0:2::3]"),
    ("[::ffff:192.0.2.128]", "[::ffff:c000:280]"), ("[0:f:0:0:f:f:0:0]", "[0:f::f:f:0:0]"),
    ("EXAMPLE.COM", "example.com"), ("example%2Ecom", "example.com"),
    ("faß.example", "xn--fa-hia.example"), ("☕.example", "xn--53h.example"),
    ("a..b", "a..b"),  # empty labels: no DNS length rules when not strict
    ("x" * 64 + ".com", "x" * 64 + ".com"),  # long labels too
    ("xn--ls8h", "xn--ls8h"),  # an emoji label in Punycode
    # An ASCII domain is only lowercased when not strict, even with invalid Punycode (url.bs:
    # the domain parser, step 5, for web compatibility); the strict run still reports it.
    ("XN--A", "xn--a"),
    ("\U0001f4a9.la", "xn--ls8h.la"),
])
def test_special_hosts(input: str, expected: str) -> None:
    assert host_serialize(host_parse(input)) == expected


@pytest.mark.parametrize("input", [
    "4294967296", "1.2.3.256", "256.1.1.1", "09", "example.255", "1.2.3.4.5", "[::1",
    "example^example", "exa#mple", "a\u200db",  # ZWJ outside a virama context: CheckJoiners
    "\u05d0.1a",  # a bidi domain: the label "1a" breaks RFC 5893 rule 1
    "\u00ad", "xn--a.\u00e9",  # a domain mapped to nothing; invalid Punycode in a non-ASCII domain
])
def test_special_host_failures(input: str) -> None:
    with pytest.raises(HostFailure):
        host_parse(input)


def test_bidi_is_a_property_of_the_whole_domain() -> None:
    # each label alone is fine; together they form a bidi domain name where "1a" fails
    host_parse("1a.example")
    host_parse("\u05d0\u05d1")
    with pytest.raises(HostFailure):
        host_parse("1a.\u05d0\u05d1")
    assert host_serialize(host_parse("a.\u05d0\u05d1")) == "a.xn--4dbc"


def test_opaque_hosts() -> None:
    assert host_parse("EXAMPLE.COM", True) == "EXAMPLE.COM"
    assert host_parse("faß.example", True) == "fa%C3%9F.example"
    assert host_parse("0x", True) == "0x"
    with pytest.raises(HostFailure):
        host_parse("example^example", True)


def test_ends_in_a_number_and_number_parser() -> None:
    assert ends_in_a_number("a.1") and ends_in_a_number("a.0x") and ends_in_a_number("1.")
    assert not ends_in_a_number("a.1b") and not ends_in_a_number("0x1g")
    assert ipv4_number_parse("0x") == (0, True)
    assert ipv4_number_parse("010") == (8, True)
    assert ipv4_number_parse("") is None and ipv4_number_parse("08") is None


def test_domain_to_unicode_round_trip() -> None:
    assert domain_to_unicode("xn--fa-hia.de") == "faß.de"
    assert domain_to_unicode("xn--8i7caa") == "xn--8i7caa"
    assert URL("https://xn--fa-hia.de").hostname == "xn--fa-hia.de"


def test_unicode_versions_agree() -> None:
    from urlcalc.standard import uts46

    assert uts46.UNICODE_VERSION == uts46.IDNA_TABLES_VERSION == "18.0.0"


def test_a_host_is_of_its_kind_by_type() -> None:
    """rust-url's lesson: the host's kind is its type (Domain, OpaqueHost, EmptyHost, int,
    tuple), never re-derived from the scheme; over every WPT input, the kind from the type is
    the one the scheme and the value say."""
    import json
    from pathlib import Path

    from urlcalc.standard.parser import ParseFailure, basic_url_parse
    from urlcalc.standard.record import EMPTY_HOST, Domain, EmptyHost, OpaqueHost, host_kind

    data = json.loads((Path(__file__).parent / "data" / "wpt" / "urltestdata.json")
                      .read_text(encoding="utf-8"))
    seen = set()
    for case in (c for c in data if isinstance(c, dict) and "failure" not in c):
        base = basic_url_parse(case["base"]) if case.get("base") else None
        for fast in (True, False):
            url = basic_url_parse(case["input"], base if not isinstance(base, ParseFailure)
                                  else None, _fast=fast)
            if isinstance(url, ParseFailure) or url.host is None:
                continue
            host = url.host
            if isinstance(host, int | tuple):
                continue
            expected = EmptyHost if host == "" else Domain if url.is_special else OpaqueHost
            assert type(host) is expected, (case["input"], fast, type(host))
            seen.add(host_kind(host))
    assert seen == {"domain", "opaque", "empty"}
    assert host_kind(EMPTY_HOST) == "empty" and EMPTY_HOST == ""
    with pytest.raises(TypeError, match="no kind"):
        host_kind("example.com")  # type: ignore[arg-type]


def test_the_untraced_shortcut_and_the_states_agree() -> None:
    # host_parse with no observer takes a shortcut for a lowercase-able ASCII domain; traced, it
    # runs every state. Both give the same host, failure and validation errors.
    import json
    from pathlib import Path

    from urlcalc.standard.host import HostFailure
    from urlcalc.trace.driver import Described

    data = json.loads((Path(__file__).parent / "data" / "wpt" / "toascii.json").read_text("utf-8"))
    hosts = [c["input"] for c in data if isinstance(c, dict)] + [
        "Example.COM", "a.b.c", "0x7f.1", "1.2.3.4", "example.123", "ex--ample.com", "-a.b",
        "a..b", "xn--nxasmq6b.com", "a%41b", "[1::2]", "a_b.com", "x" * 64 + ".com"]
    for host in hosts:
        answers = []
        for observer in (None, Described(lambda step: None)):
            seen: list[tuple[str, int | None]] = []

            def report(name: str, offset: int | None, detail: str,
                       cite: tuple[str, str | None] | None = None,
                       seen: list[tuple[str, int | None]] = seen) -> None:
                seen.append((name, offset))

            try:
                result: object = host_parse(host, False, report, observer)
            except HostFailure as e:
                result = (e.algorithm, e.step, e.via)
            answers.append((result, seen))
        assert answers[0] == answers[1], host


def test_the_ipv4_number_parser_returns_the_steps_that_applied() -> None:
    # url.bs, IPv4 number parser: step 1 (the empty string: failure), steps 3-5 choose R (10;
    # 16 after "0x", with validationError; 8 after "0"), step 6 (nothing left: (0, true)),
    # step 7 (not all radix-R digits: failure); a converted number is returned at step 9.
    from urlcalc.standard.host import ipv4_number

    assert ipv4_number("") == (None, False, 10, "1", None)
    assert ipv4_number("10") == (10, False, 10, "3", "9")
    assert ipv4_number("0x") == (0, True, 16, "4", "6")
    assert ipv4_number("0X1f") == (31, True, 16, "4", "9")
    assert ipv4_number("010") == (8, True, 8, "5", "9")
    assert ipv4_number("09") == (None, True, 8, "5", "7")
    assert ipv4_number("1a") == (None, False, 10, "3", "7")
