"""Tests for urlcalc.standard.uts46 (UTS #46 Processing, Validity Criteria, ToASCII, ToUnicode).

The conformance part runs the WPT copy of IdnaTestV2 (tests/data/wpt/IdnaTestV2.json) through
``to_ascii`` with the URL Standard's beStrict=false parameters, two ways:

* URL level, as WPT reads the file: ``output`` null means the URL host parser fails. Besides
  ToASCII errors the host parser fails on an empty result or a forbidden domain code point, and
  (URL Standard, domain to ASCII, beStrict false) an ASCII domain is only ASCII-lowercased,
  without UTS #46 at all; so ASCII inputs whose IdnaTestV2 status lists errors (e.g. "xn--0.pt",
  "xn--ab-j1t") have a non-null ``output`` in this file.
* UTS #46 level: each entry's ``comment`` carries the IdnaTestV2 toAsciiN status codes, with
  those the URL Standard does not check marked "(ignored)" (A4_1, A4_2: VerifyDnsLength; V2, V3:
  CheckHyphens; U1: UseSTD3ASCIIRules). The codes we record must be exactly the others.

The WPT file predates the Unicode 18 tables of idna 3.20 / unicodedata2 18: the Small Seal
characters U+3E8AC, U+3F02B and U+3F8CD were unassigned (so disallowed, V7) when it was made and
are valid now. The entries that contain them are listed below as strict expected failures.
"""

from __future__ import annotations

import importlib.util
import re
from typing import Any

import pytest
from cases import wpt_entries

from urlcalc.standard import uts46
from urlcalc.standard.uts46 import to_ascii, to_unicode

# The URL Standard's parameters for domain to ASCII with beStrict false.
RELAXED: dict[str, bool] = {
    "check_hyphens": False,
    "check_bidi": True,
    "check_joiners": True,
    "use_std3_ascii_rules": False,
    "transitional_processing": False,
    "verify_dns_length": False,
    "ignore_invalid_punycode": False,
}
# ... and with beStrict true.
STRICT: dict[str, bool] = {
    **RELAXED,
    "check_hyphens": True,
    "use_std3_ascii_rules": True,
    "verify_dns_length": True,
}


def _unicode_kwargs(params: dict[str, bool]) -> dict[str, bool]:
    return {k: v for k, v in params.items() if k != "verify_dns_length"}


# Forbidden domain code points (URL Standard): C0 controls, space, # % / : < > ? @ [ \ ] ^ |, DEL.
FORBIDDEN_DOMAIN_RE = re.compile(r"[\x00-\x20#%/:<>?@\[\\\]^|\x7f]")

UNICODE_18_REASON = (
    "WPT IdnaTestV2.json predates Unicode 18: Small Seal characters (U+3E8AC, U+3F02B, U+3F8CD)"
    " were unassigned (V7) then and are valid in idna 3.20 / unicodedata2 18 tables"
)

# URL level: non-ASCII inputs whose only error in the file is the now-valid U+3E8AC.
URL_LEVEL_UNICODE_18 = frozenset(
    {
        "\U0003e8ac\u3002\u0729\u3002\ucbd95",
        "\U0003e8ac\u3002\u0729\u3002\u110d\u1173\u11ac5",
    }
)

# UTS #46 level: every entry whose status codes include a V7 for a Small Seal character.
STATUS_LEVEL_UNICODE_18 = frozenset(
    {
        "\u10ad\U0003f8cd\ua868\u05ae\u3002\u10be\u200c\u200c",
        "\u2d0d\U0003f8cd\ua868\u05ae\u3002\u2d1e\u200c\u200c",
        "xn--5cb172r175fug38a.xn--mlj",
        "xn--5cb172r175fug38a.xn--0uga051h",
        "\U0003f02b\uff0e\u1baa\u03c2\u10a6\u200d",
        "\U0003f02b.\u1baa\u03c2\u10a6\u200d",
        "\U0003f02b.\u1baa\u03c2\u2d06\u200d",
        "\U0003f02b.\u1baa\u03a3\u10a6\u200d",
        "\U0003f02b.\u1baa\u03c3\u2d06\u200d",
        "\U0003f02b.\u1baa\u03a3\u2d06\u200d",
        "xn--nu4s.xn--4xa153j7im",
        "xn--nu4s.xn--4xa153jk8cs1q",
        "xn--nu4s.xn--3xa353jk8cs1q",
        "\U0003f02b\uff0e\u1baa\u03c2\u2d06\u200d",
        "\U0003f02b\uff0e\u1baa\u03a3\u10a6\u200d",
        "\U0003f02b\uff0e\u1baa\u03c3\u2d06\u200d",
        "\U0003f02b\uff0e\u1baa\u03a3\u2d06\u200d",
        "\U0003e8ac\u3002\u0729\u3002\ucbd95",
        "\U0003e8ac\u3002\u0729\u3002\u110d\u1173\u11ac5",
        "xn--t92s.xn--znb.xn--5-y88f",
    }
)


def _load_cases() -> list[dict[str, Any]]:
    return wpt_entries("IdnaTestV2.json")


CASES = _load_cases()


def _params(xfail_inputs: frozenset[str]) -> list[Any]:
    out = []
    for i, case in enumerate(CASES):
        marks = []
        if case["input"] in xfail_inputs:
            marks.append(pytest.mark.xfail(reason=UNICODE_18_REASON, strict=True))
        out.append(pytest.param(case, id=f"{i}-{ascii(case['input'])[1:-1][:40]}", marks=marks))
    return out


def _statuses(case: dict[str, Any]) -> set[str]:
    comment = case.get("comment", "")
    return {s for s in comment.split("; ") if s and not s.endswith("(ignored)")}


def test_wpt_data_loaded() -> None:
    assert len(CASES) > 2500
    # Every xfail entry exists, so that none of them is a silent no-op.
    inputs = {case["input"] for case in CASES}
    assert inputs >= URL_LEVEL_UNICODE_18
    assert inputs >= STATUS_LEVEL_UNICODE_18


@pytest.mark.parametrize("case", _params(URL_LEVEL_UNICODE_18))
def test_wpt_idna_url_level(case: dict[str, Any]) -> None:
    source: str = case["input"]
    expected: str | None = case["output"]
    result, errors = to_ascii(source, **RELAXED)
    if source.isascii():
        # URL Standard, domain to ASCII (beStrict false): an ASCII domain is ASCII-lowercased.
        url_result: str | None = source.lower()
        if FORBIDDEN_DOMAIN_RE.search(url_result):
            url_result = None
    elif errors or FORBIDDEN_DOMAIN_RE.search(result) or result == "":
        url_result = None
    else:
        url_result = result
    assert url_result == expected, f"errors={errors} result={result!r}"


@pytest.mark.parametrize("case", _params(STATUS_LEVEL_UNICODE_18))
def test_wpt_idna_status_codes(case: dict[str, Any]) -> None:
    result, errors = to_ascii(case["input"], **RELAXED)
    assert len(errors) == len(set(errors))
    statuses = _statuses(case)
    assert set(errors) == statuses, f"result={result!r}"
    if not statuses:
        assert result == case["output"]


# ---------------------------------------------------------------------------------------------
# Bidi (UTS46 4.1 step 9, RFC 5893 section 2): a property of the whole domain
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("domain", "expected"),
    [
        # A digit-initial ASCII label in a Bidi domain name breaks rule 1 (first must be L/R/AL).
        ("1.\u05d0", ["B1"]),
        ("\u05d0.1", ["B1"]),
        ("1.xn--4db", ["B1"]),  # the Bidi domain is seen after Punycode decoding
        # An LTR label made of L characters satisfies rules 5 and 6.
        ("a.\u05d0", []),
        ("\u05d0.a", []),
        ("\u05d01", []),  # RTL label ending in EN: rule 3 allows it
        ("\u05d0a\u05d0", ["B2"]),  # L inside an RTL label
        ("\u05d0a", ["B2", "B3"]),  # ... and at its end
        ("a\u05d0", ["B5", "B6"]),  # R inside an LTR label, which does not end in L/EN
        ("\u05d01\u0661", ["B4"]),  # EN and AN mixed in an RTL label
        ("\u05d0-", ["B3"]),  # RTL label ending in ON
        ("1.a", []),  # no RTL label: not a Bidi domain name
        ("\u0627\u064b", []),  # AL then NSM: rule 3 skips trailing NSM
    ],
)
def test_bidi_domain_rule(domain: str, expected: list[str]) -> None:
    _result, errors = to_ascii(domain, **RELAXED)
    assert errors == expected


def test_bidi_unchecked_when_disabled() -> None:
    params = {**RELAXED, "check_bidi": False}
    assert to_ascii("1.\u05d0", **params) == ("1.xn--4db", [])
    assert to_ascii("a\u05d0", **params)[1] == []


# ---------------------------------------------------------------------------------------------
# CONTEXTJ (UTS46 4.1 step 8, RFC 5892 Appendix A)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("domain", "expected"),
    [
        ("a\u200cb", ["C1"]),  # ZWNJ between non-joining letters
        ("a\u200db", ["C2"]),  # ZWJ not after a virama
        ("\u200c", ["C1"]),
        ("\u0915\u094d\u200c\u0937", []),  # ZWNJ after DEVANAGARI SIGN VIRAMA
        ("\u0915\u094d\u200d\u0937", []),  # ZWJ after DEVANAGARI SIGN VIRAMA
        ("\u0628\u200c\u0628", []),  # BEH (D) ZWNJ BEH (D)
        ("\u0628\u064b\u200c\u064b\u0628", []),  # transparent marks (T) are skipped
        ("\u0627\u200c\u0628", ["C1"]),  # ALEF is R: it cannot join to the left
        ("\u0628\u200c\u0627", []),  # D before, R after
    ],
)
def test_joiners(domain: str, expected: list[str]) -> None:
    _result, errors = to_ascii(domain, **RELAXED)
    assert errors == expected


def test_joiners_unchecked_when_disabled() -> None:
    params = {**RELAXED, "check_joiners": False}
    assert to_ascii("a\u200cb", **params) == ("xn--ab-j1t", [])
    assert to_ascii("a\u200db", **params) == ("xn--ab-m1t", [])


def test_error_result_still_produced() -> None:
    assert to_ascii("a\u200cb", **RELAXED) == ("xn--ab-j1t", ["C1"])


# ---------------------------------------------------------------------------------------------
# Deviation characters (UTS46 4 step 1; valid in Nontransitional Processing)
# ---------------------------------------------------------------------------------------------


def test_deviations_nontransitional() -> None:
    assert to_ascii("faß.de", **RELAXED) == ("xn--fa-hia.de", [])
    assert to_ascii("Faß.DE", **RELAXED) == ("xn--fa-hia.de", [])
    assert to_ascii("ß", **RELAXED) == ("xn--zca", [])
    assert to_ascii("ς", **RELAXED) == ("xn--3xa", [])
    assert to_ascii("\u1e9e", **RELAXED) == ("xn--zca", [])  # CAPITAL SHARP S maps to ß


def test_deviations_transitional() -> None:
    params = {**RELAXED, "transitional_processing": True}
    assert to_ascii("faß.de", **params) == ("fass.de", [])
    assert to_ascii("ς", **params) == ("xn--4xa", [])  # σ
    assert to_ascii("a\u200db", **params) == ("ab", [])  # ZWJ removed, no CONTEXTJ error
    # Decoded labels are validated as Nontransitional: the deviation stays valid.
    assert to_ascii("xn--zca", **params) == ("xn--zca", [])


# ---------------------------------------------------------------------------------------------
# UseSTD3ASCIIRules (UTS46 4.1 V7), CheckHyphens (V2, V3), V4
# ---------------------------------------------------------------------------------------------


def test_std3_rules() -> None:
    assert to_ascii("a_b", **RELAXED) == ("a_b", [])
    assert to_ascii("a_b", **{**RELAXED, "use_std3_ascii_rules": True}) == ("a_b", ["U1"])
    # Checked after mapping: FULLWIDTH LOW LINE maps to "_".
    assert to_ascii("a\uff3fb", **{**RELAXED, "use_std3_ascii_rules": True}) == ("a_b", ["U1"])
    # ... and for ASCII next to non-ASCII.
    assert to_ascii("ä_b", **{**RELAXED, "use_std3_ascii_rules": True})[1] == ["U1"]
    # NOT EQUAL TO is valid since Unicode 15.1 (no more disallowed_STD3_valid).
    assert to_ascii("\u2260", **{**RELAXED, "use_std3_ascii_rules": True}) == ("xn--1ch", [])


def test_hyphens() -> None:
    hyphens = {**RELAXED, "check_hyphens": True}
    assert to_ascii("-a", **RELAXED)[1] == []
    assert to_ascii("-a", **hyphens)[1] == ["V3"]
    assert to_ascii("a-", **hyphens)[1] == ["V3"]
    assert to_ascii("ab--c", **hyphens)[1] == ["V2"]
    assert to_ascii("ab--c", **RELAXED)[1] == []
    # A decoded label beginning with "xn--": V4 without CheckHyphens, V2 with it.
    assert to_ascii("xn--xn--a--gua", **RELAXED)[1] == ["V4"]
    assert to_ascii("xn--xn--a--gua", **hyphens)[1] == ["V2"]


def test_strict_parameters() -> None:
    assert to_ascii("Example.COM", **STRICT) == ("example.com", [])
    assert to_ascii("bücher.example", **STRICT) == ("xn--bcher-kva.example", [])
    assert to_ascii("a b", **STRICT) == ("a b", ["U1"])


# ---------------------------------------------------------------------------------------------
# VerifyDnsLength (UTS46 4.2 step 4)
# ---------------------------------------------------------------------------------------------


def test_dns_length() -> None:
    on = {**RELAXED, "verify_dns_length": True}
    long_label = "a" * 64
    assert to_ascii(long_label, **RELAXED) == (long_label, [])
    assert to_ascii(long_label, **on) == (long_label, ["A4_2"])
    assert to_ascii("a" * 63, **on)[1] == []
    # 253 octets is the limit for the domain (without the root label and its dot).
    domain_253 = ".".join(["a" * 63] * 3 + ["a" * 61])
    assert len(domain_253) == 253
    assert to_ascii(domain_253, **on)[1] == []
    # the root label is left out of the 253 limit, but is an empty label (IdnaTestV2: A4_2)
    assert to_ascii(domain_253 + ".", **on)[1] == ["A4_2"]
    assert to_ascii(domain_253 + "a", **on)[1] == ["A4_1"]
    assert to_ascii(domain_253 + "a", **RELAXED)[1] == []
    assert to_ascii("example.com.", **on) == ("example.com.", ["A4_2"])
    assert to_ascii("a..b", **on)[1] == ["A4_2"]
    assert to_ascii("a..b", **RELAXED) == ("a..b", [])
    assert to_ascii("", **on)[1] == ["A4_1", "A4_2"]
    assert to_ascii(".", **on)[1] == ["A4_1", "A4_2"]
    # The length counts the Punycode form.
    assert to_ascii("ä" * 60, **on)[1] == ["A4_2"]


# ---------------------------------------------------------------------------------------------
# Punycode labels (UTS46 4 step 4) and ToUnicode (UTS46 4.3)
# ---------------------------------------------------------------------------------------------


def test_to_unicode() -> None:
    params = _unicode_kwargs(RELAXED)
    assert to_unicode("xn--fa-hia.de", **params) == ("faß.de", [])
    assert to_unicode("XN--FA-HIA.DE", **params) == ("faß.de", [])
    assert to_unicode("Faß.de", **params) == ("faß.de", [])
    assert to_unicode("example.com", **params) == ("example.com", [])
    assert to_unicode("xn--4db.xn--fa-hia", **params) == ("\u05d0.faß", [])
    assert to_unicode("xn--ab-j1t", **params) == ("a\u200cb", ["C1"])


@pytest.mark.parametrize(
    ("domain", "expected_unicode", "expected_errors"),
    [
        ("xn--a", "\x80", ["V7"]),  # valid Punycode for U+0080, a disallowed code point
        ("xn--0", "xn--0", ["P4"]),  # truncated variable-length integer
        ("xn--0.pt", "xn--0.pt", ["P4"]),
        ("xn---bbk", "xn---bbk", ["P4"]),  # RFC 3492 6.2: a leading delimiter is not consumed
        ("xn--", "", ["P4"]),  # decodes to the empty label, which replaces it
        ("xn---", "xn---", ["P4"]),
        ("xn--ascii-", "ascii", ["P4"]),  # decodes to ASCII only
        ("xn--a-ä", "xn--a-ä", ["P4"]),  # non-ASCII in an xn-- label
        ("xn--bbk", "ま", []),
    ],
)
def test_punycode_labels(domain: str, expected_unicode: str, expected_errors: list[str]) -> None:
    assert to_unicode(domain, **_unicode_kwargs(RELAXED)) == (expected_unicode, expected_errors)
    assert to_ascii(domain, **RELAXED)[1] == expected_errors


def test_ignore_invalid_punycode() -> None:
    params = {**RELAXED, "ignore_invalid_punycode": True}
    assert to_ascii("xn--0.pt", **params) == ("xn--0.pt", [])
    assert to_unicode("xn--0.pt", **_unicode_kwargs(params)) == ("xn--0.pt", [])
    # Only decoding failures are ignored.
    assert to_ascii("xn--ascii-", **params)[1] == ["P4"]
    assert to_ascii("xn--a-ä", **params)[1] == ["P4"]


def test_to_ascii_encodes_non_ascii_labels() -> None:
    assert to_ascii("日本.jp", **RELAXED) == ("xn--wgv71a.jp", [])
    assert to_ascii("\u3002a\uff0eb\uff61", **RELAXED) == (".a.b.", [])  # mapped full stops
    assert to_ascii("a\u00adb", **RELAXED) == ("ab", [])  # SOFT HYPHEN is ignored
    assert to_ascii("a\ud900z", **RELAXED)[1] == ["V7", "A3"]  # surrogates cannot be encoded


# ---------------------------------------------------------------------------------------------
# The observer
# ---------------------------------------------------------------------------------------------


def _record() -> tuple[list[tuple[str, dict[str, object]]], uts46.Observer]:
    seen: list[tuple[str, dict[str, object]]] = []

    def observer(stage: str, details: dict[str, object]) -> None:
        seen.append((stage, details))

    return seen, observer


# UTS #46 section 4 (Processing) steps 1-4, then (ToASCII only) section 4.2 step 3, the
# Punycode encoding, which comes after Processing has validated the labels.
STAGES = ["map", "normalize", "break", "convert", "validate"]
TO_ASCII_STAGES = [*STAGES, "encode"]


def test_observer_stages_to_ascii() -> None:
    seen, observer = _record()
    result = to_ascii("Faß.xn--4db", **RELAXED, observer=observer)
    assert result == to_ascii("Faß.xn--4db", **RELAXED)
    assert [stage for stage, _ in seen] == TO_ASCII_STAGES
    details = dict(seen)
    assert details["map"]["output"] == "faß.xn--4db"
    assert details["map"]["code_points"] == [
        {"cp": "U+0046", "status": "mapped", "to": "f"},
        {"cp": "U+00DF", "status": "deviation", "to": "ß"},
    ]
    assert details["break"]["labels"] == ["faß", "xn--4db"]
    convert = details["convert"]["labels"]
    assert isinstance(convert, list)
    assert convert[1]["decoded"] == "\u05d0"
    encode = details["encode"]["labels"]
    assert isinstance(encode, list)
    assert encode[0]["ascii"] == "xn--fa-hia"
    assert details["validate"]["bidi_domain"] is True


def test_observer_stages_dns_length_and_to_unicode() -> None:
    seen, observer = _record()
    to_ascii("example.com", **{**RELAXED, "verify_dns_length": True}, observer=observer)
    assert [stage for stage, _ in seen] == [*TO_ASCII_STAGES, "verify-dns-length"]
    seen, observer = _record()
    to_unicode("xn--fa-hia.de", **_unicode_kwargs(RELAXED), observer=observer)
    assert [stage for stage, _ in seen] == STAGES


def test_observer_failure_details() -> None:
    seen, observer = _record()
    _result, errors = to_ascii("1.\u05d0", **RELAXED, observer=observer)
    assert errors == ["B1"]
    validate = dict(seen)["validate"]["labels"]
    assert isinstance(validate, list)
    assert validate[0]["failed"] == ["B1"]
    assert "B1" in validate[0]["checked"]
    assert validate[1]["failed"] == []


# ---------------------------------------------------------------------------------------------
# The ASCII fast path agrees with the full algorithm (which runs whenever there is an observer)
# ---------------------------------------------------------------------------------------------

ASCII_SAMPLES = [
    "",
    ".",
    "a..b.",
    "Example.COM",
    "-a.b-",
    "ab--cd",
    "a_b.c d",
    "xn--fa-hia.de",
    "XN--ZCA",
    "xn--0",
    "a" * 70 + ".b",
    "1.2.3.4",
    "%41.com",
]


@pytest.mark.parametrize("domain", ASCII_SAMPLES)
@pytest.mark.parametrize("params", [RELAXED, STRICT], ids=["relaxed", "strict"])
def test_ascii_fast_path_agrees(domain: str, params: dict[str, bool]) -> None:
    _seen, observer = _record()
    assert to_ascii(domain, **params) == to_ascii(domain, **params, observer=observer)
    unicode_params = _unicode_kwargs(params)
    assert to_unicode(domain, **unicode_params) == to_unicode(
        domain, **unicode_params, observer=observer
    )


# ---------------------------------------------------------------------------------------------
# Versions
# ---------------------------------------------------------------------------------------------


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def test_versions() -> None:
    assert _version(uts46.IDNA_TABLES_VERSION) >= (15, 1)
    if importlib.util.find_spec("unicodedata2") is not None:
        assert _version(uts46.UNICODE_VERSION) >= (15,)
        import unicodedata2

        assert unicodedata2.unidata_version == uts46.UNICODE_VERSION
