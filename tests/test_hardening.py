"""Regression tests for the library bugs found by the property, differential and linear-time
work of issue 5 (each names the url.bs step it follows)."""

from __future__ import annotations

import random

import pytest

from urlcalc import URL
from urlcalc.model.results import parse_model
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.host import IPV4_NUMBER_CAP, ipv4_number_parse, opaque_host_parse
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.uts46 import _punycode_decode, _punycode_encode, to_ascii
from urlcalc.standard.validity import check, is_valid_ipv4_address_string
from urlcalc.trace.recorder import TraceRecorder


def _errors(input: str, fast: bool = True) -> list[str]:
    errors: list[ValidationError] = []
    basic_url_parse(input, errors=errors, _fast=fast)
    return [e.name for e in errors]


# url.bs: path state 2.1, opaque path state 4.1, fragment state 1.1: a code point that is not a
# URL code point is a validation error even when the percent-encode set leaves it as it is.
@pytest.mark.parametrize(("input", "count"), [
    ("non-special:\\\\opaque", 2),        # opaque path: "\" twice
    ("sc:a|b", 1),                        # opaque path: "|"
    ("sc://h/[x]", 2),                    # path: "[" and "]"
    ("sc://h/a\\b", 1),                   # path of a non-special URL: "\"
    ("http://h/#a#b", 1),                 # fragment: "#"
    ("http://h/#[|]", 3),                 # fragment: "[", "|", "]"
    ("http://h/a~b#c-d", 0),              # URL code points only
])
def test_non_url_code_points_left_unencoded_are_still_invalid_url_units(
        input: str, count: int) -> None:
    assert _errors(input, fast=False).count("invalid-URL-unit") == count
    assert _errors(input) == _errors(input, fast=False)


# url.bs: opaque-host parser, steps 2 and 3 are separate checks: up to two validation errors.
@pytest.mark.parametrize(("input", "errors"), [
    ('a"%zz', [("invalid-URL-unit", 1), ("invalid-URL-unit", 2)]),
    ('%zz"', [("invalid-URL-unit", 3), ("invalid-URL-unit", 0)]),
    ("%", [("invalid-URL-unit", 0)]),
    ('a"b"', [("invalid-URL-unit", 1)]),
    ("%41", []),
])
def test_opaque_host_reports_each_kind_of_invalid_unit(
        input: str, errors: list[tuple[str, int]]) -> None:
    seen: list[tuple[str, int | None]] = []
    opaque_host_parse(input, lambda name, offset, detail, *cited: seen.append((name, offset)))
    assert seen == errors


# url.bs: IPv4 number parser, steps 8-9: the value of a long digit string only matters as "too
# big"; int() must not see it (ValueError past 4,300 decimal digits, quadratic before that).
def test_long_ipv4_numbers_do_not_raise() -> None:
    assert ipv4_number_parse("9" * 5000) == (IPV4_NUMBER_CAP, False)
    assert ipv4_number_parse("0x" + "f" * 5000) == (IPV4_NUMBER_CAP, True)
    assert ipv4_number_parse("0" + "7" * 5000) == (IPV4_NUMBER_CAP, True)
    assert ipv4_number_parse("0" * 5000 + "17") == (15, True)  # octal, leading zeros
    assert ipv4_number_parse("4294967295") == (2**32 - 1, False)
    assert ipv4_number_parse("4294967296") == (IPV4_NUMBER_CAP, False)
    for host in ("1" * 5000, "1.2.3." + "9" * 5000, "0x" + "f" * 5000, "1" * 5000 + ".1"):
        result = basic_url_parse(f"http://{host}/")
        assert isinstance(result, ParseFailure)
        # IPv4 parser step 7 raises IPv4-out-of-range-part; step 8 or 9 returns failure (no
        # error of its own)
        assert result.error is None and result.cause is not None
        assert result.cause[0] == "IPv4 parser" and result.cause[1] in ("8", "9")
        assert parse_model(f"http://{host}/", trace=True)["ok"] is False
    ok = basic_url_parse("http://0" + "0" * 5000 + "1.1/")
    assert isinstance(ok, URLRecord) and ok.host == 0x01000001
    m = parse_model("http://0" + "0" * 5000 + "1.1/", trace=True)
    assert m["ok"] and m["getters"]["hostname"] == "1.0.0.1"


def test_valid_url_string_checker_takes_long_digit_strings() -> None:
    assert not is_valid_ipv4_address_string("1" * 5000 + ".1.1.1")
    assert not check("http://h:" + "1" * 5000 + "/").valid
    assert check("http://h:" + "0" * 5000 + "80/").valid
    assert not check("http://h:65536/").valid
    assert check("http://1.2.3.4:65535/").valid


# url.bs: authority state, step 1.4: every "@" adds to the username (or the password).
def test_many_at_signs() -> None:
    url = URL("http://a@b:c@d@h/")
    assert (url.username, url.password) == ("a%40b", "c%40d")
    long = "http://" + "a@" * 3000 + "h/"
    plain = basic_url_parse(long)
    assert isinstance(plain, URLRecord)
    assert plain.username == "a" + "%40a" * 2999
    for recorder in (TraceRecorder(), TraceRecorder(10), TraceRecorder(100_000)):
        traced = basic_url_parse(long, observer=recorder)
        assert isinstance(traced, URLRecord) and traced.snapshot() == plain.snapshot()


def test_a_full_trace_counts_what_it_drops() -> None:
    input = "http://u:p@example.com/a/./b/../c?" + "q" * 3000 + "#f"
    everything = TraceRecorder(10**9)
    basic_url_parse(input, observer=everything)
    for limit in (0, 1, 50, 1000):
        bounded = TraceRecorder(limit)
        result = basic_url_parse(input, observer=bounded)
        assert isinstance(result, URLRecord)
        assert bounded.steps == everything.steps[:limit]
        assert len(bounded.steps) + bounded.dropped == len(everything.steps)


# RFC 3492 (UTS #46 4 step 4.2 and 4.2 step 3): the O(n log n) Punycode gives the codec's results.
def test_punycode_matches_the_codec() -> None:
    r = random.Random(46)
    pools = ("abc-", "üéø", "日本語", "😀🎉", "\u0080\uffff", "\U0010fffd", "\ud800")
    for _ in range(400):
        pool = "".join(r.sample(pools, r.randrange(1, len(pools))))
        label = "".join(r.choice(pool) for _ in range(r.choice((1, 2, 7, 40, 700))))
        encoded, ok = _punycode_encode(label)
        assert encoded == label.encode("punycode").decode("ascii")
        assert ok == ("\ud800" not in label)
        if not encoded.startswith("-"):
            assert _punycode_decode(encoded) == label
    for text in ("", "a", "a-", "-a", "99999999", "zzzzzzzzzzzzz", "abc-d9", "bcher-kva",
                 "A-B-", "ls8h", "0" * 30):
        try:
            codec: str | None = text.encode("ascii").decode("punycode")
        except UnicodeError:
            codec = None
        if text.startswith("-") and text.count("-") == 1:
            codec = None
        assert _punycode_decode(text) == codec, text


def test_long_labels_and_joiners() -> None:
    label = "".join(chr(0x4E00 + i) for i in range(3000))
    encoded, ok = _punycode_encode(label)
    assert ok and _punycode_decode(encoded) == label
    url = URL("http://xn--" + encoded + "/")
    assert url.hostname == "xn--" + encoded and url.hostname_unicode() == label
    # RFC 5892 A.1: ZWNJ between dual-joining letters is fine, however many there are
    joined = "\u0628\u200c" * 2000 + "\u0628"
    assert to_ascii(joined, check_hyphens=False, check_bidi=True, check_joiners=True,
                    use_std3_ascii_rules=False, transitional_processing=False,
                    verify_dns_length=False, ignore_invalid_punycode=False)[1] == []
    assert "C1" in to_ascii("a\u200c" * 2000, check_hyphens=False, check_bidi=True,
                            check_joiners=True, use_std3_ascii_rules=False,
                            transitional_processing=False, verify_dns_length=False,
                            ignore_invalid_punycode=False)[1]


# url.bs: search setter, step 6: the list is the parse of input (tabs and newlines kept), whether
# or not searchParams was used before.
@pytest.mark.parametrize("touch_first", [False, True])
def test_search_setter_list_is_the_parse_of_the_input(touch_first: bool) -> None:
    url = URL("http://h/")
    if touch_first:
        assert url.search_params.size == 0
    url.search = "?a\tb=c\n&d=e"
    assert url.search == "?ab=c&d=e"
    assert list(url.search_params) == [("a\tb", "c\n"), ("d", "e")]
    url.search = "\n"
    assert url.search == "" and list(url.search_params) == [("\n", "")]


# --- issue 10: Punycode decoding (RFC 3492 6.2 with the overflow handling of 6.4) -------------


def test_punycode_overflow_fails_at_the_first_impossible_digit() -> None:
    # U+10FFFF is the last code point a variable-length integer may give.
    assert _punycode_decode(_punycode_encode("a\U0010ffff")[0]) == "a\U0010ffff"
    assert _punycode_decode(_punycode_encode("\U0010ffff" * 3)[0]) == "\U0010ffff" * 3
    assert _punycode_decode(_punycode_encode("\x80\U0010ffff\x80")[0]) == "\x80\U0010ffff\x80"
    # A run of digits is one ever larger integer: it must fail after a handful of digits, not
    # after reading (and multiplying) all of them.
    calls = 0
    real = dict.get

    class CountingDigits(dict[str, int]):
        def get(self, key: str, default: int | None = None) -> int | None:  # type: ignore[override]
            nonlocal calls
            calls += 1
            return real(self, key, default)

    import urlcalc.standard.uts46 as uts46

    saved = uts46._DIGIT_VALUES
    uts46._DIGIT_VALUES = CountingDigits(saved)  # type: ignore[misc]
    try:
        assert uts46._punycode_decode_label("9" * 100_000) is None
        assert uts46._punycode_decode_label("a" * 50 + "-" + "9" * 100_000) is None
    finally:
        uts46._DIGIT_VALUES = saved  # type: ignore[misc]
    assert calls < 40


@pytest.mark.parametrize("text", ["9" * 20, "99999999", "zzzzzzzzzzzzz", "a" * 10 + "9" * 30,
                                  "abc-" + "9" * 12, "0" * 30, "ba9999999", "99999999a"])
def test_punycode_overflow_gives_the_unbounded_result(text: str) -> None:
    try:
        codec: str | None = text.encode("ascii").decode("punycode")
    except UnicodeError:
        codec = None
    assert _punycode_decode(text) == codec


def test_strict_and_relaxed_runs_decode_a_label_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import urlcalc.standard.uts46 as uts46

    label = _punycode_encode("".join(chr(0x4E00 + i) for i in range(7, 1207)))[0]
    real = uts46._punycode_decode_label
    decoded: list[str] = []

    def counting(text: str) -> str | None:
        decoded.append(text)
        return real(text)

    monkeypatch.setattr(uts46, "_punycode_decode_label", counting)
    # "_" fails the strict run (UseSTD3ASCIIRules), so the domain parser runs ToASCII again
    # with beStrict false (url.bs: domain parser, step 6.1); both decode the xn-- label.
    url = URL(f"http://\u00fc_.xn--{label}/")
    assert url.hostname == f"xn--_-dha.xn--{label}"
    assert decoded == [label]
    # The memo is bounded by the code points it holds.
    assert uts46._decoded_chars <= uts46._DECODED_MAX_CHARS
