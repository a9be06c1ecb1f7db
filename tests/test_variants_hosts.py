"""The standard without one change, in the hosts' algorithms (issue 27, item 2): the host, IPv4,
IPv4 number, IPv6, opaque-host and domain parsers, and host writing (the valid host strings).

Each case: an input from the commit's own diff or message (its examples, the cases it names),
and its result today and with the change undone (href or "failure", the validation errors'
names, the valid-URL-string verdict), written from the text of url.bs before and after the
change (urlcalc/history/data/step_changes.json holds both), not from the code. The sentences
quoted are url.bs's (CC BY 4.0, WHATWG).

Stacking: where two changes touch the same step, undoing the later restores the text between
the two, undoing both the text before both (STACKED below).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urlcalc.history.commits import by_sha
from urlcalc.model.results import parse_model
from urlcalc.standard import variants
from urlcalc.standard.host import domain_to_unicode
from urlcalc.standard.variants import VARIANTS, undoing

Result = tuple[str, list[str], bool | None]


def _read(input: str) -> Result:
    m = parse_model(input, None)
    href = m["getters"]["href"] if m["ok"] and m["getters"] else "failure"
    valid = m["valid"]["valid"] if m["valid"] is not None else None
    return href, [e["name"] for e in m["validation_errors"]], valid


CASES: list[tuple[tuple[str, ...], str, Result, Result]] = [
    # (variants undone, input, today, with them undone)

    # b2965a0 "Define valid IPv6-address string inline" (2026); its example "https://[::01]".
    # After: IPv6 parser 6.8 "If length is greater than 1 and value is less than
    # 0x10^(length - 1), IPv6-piece-leading-zero validation error"; a valid IPv6-piece string
    # is "a shortest possible string of ASCII hex digits". Before: no such step; the valid
    # IPv6-address string was RFC 4291's text representation ("one to four hexadecimal
    # digits").
    ((variants.IPV6_PIECE_LEADING_ZERO,), "https://[::01]/",
     ("https://[::1]/", ["IPv6-piece-leading-zero"], False), ("https://[::1]/", [], True)),

    # acd13be "Valid domain needs to account for ending with a number" (2026): its examples
    # "https://1.2.3/" and example.1. After: IPv4 parser 3 "If parts's size is less than 4,
    # IPv4-too-few-parts validation error"; valid domain "If running the ends in a number
    # checker on domain returns true, then return false". Before: neither step.
    ((variants.IPV4_TOO_FEW_PARTS,), "https://1.2.3/",
     ("https://1.2.0.3/", ["IPv4-too-few-parts"], False), ("https://1.2.0.3/", [], True)),
    ((variants.IPV4_TOO_FEW_PARTS,), "https://example.1/",
     ("failure", ["IPv4-too-few-parts", "IPv4-non-numeric-part"], False),
     ("failure", ["IPv4-non-numeric-part"], True)),

    # 37afb50 "Close gap between URL writing and parser sections" (2026), the hosts' part: its
    # message's _dmarc.example.com and exam%70le.com, and the table's https://exa%23mple.org.
    # After: domain parser 1-2 "Let strictResult be ... domain parser ToASCII with domain and
    # true. If strictResult is a failure value, domain-to-ASCII validation error"; host parser 4
    # "If input contains a percent-encoded byte, domain-percent-encoded validation error";
    # step 8 "If result contains a forbidden domain code point, then return failure". Before:
    # no strict run for beStrict false, no step 4; the ASCII branch "If running Unicode
    # ToASCII [relaxed] ... is a failure value, domain-to-ASCII validation error" (relaxed:
    # _ is fine, # too); "... forbidden domain code point, domain-invalid-code-point
    # validation error, return failure".
    ((variants.DOMAIN_STRICT_TO_ASCII_ERROR,), "https://_dmarc.example.com/",
     ("https://_dmarc.example.com/", ["domain-to-ASCII"], False),
     ("https://_dmarc.example.com/", [], False)),
    ((variants.DOMAIN_STRICT_TO_ASCII_ERROR,), "https://exam%70le.org/",
     ("https://example.org/", ["domain-percent-encoded"], False),
     ("https://example.org/", [], False)),
    ((variants.DOMAIN_STRICT_TO_ASCII_ERROR,), "https://exa%23mple.org/",
     ("failure", ["domain-percent-encoded", "domain-to-ASCII"], False),
     ("failure", ["domain-invalid-code-point"], False)),

    # a8d5ca3 "Add Unicode ToASCII fallback for ASCII domains" (2026): its message's
    # https://xn--8i7caa.famitei.net/sekou/all (xn--8i7caa decodes to a mapped code point).
    # After: "If domain is an ASCII string, then set result to domain, lowercased" (whatever
    # ToASCII says). Before: "Let result be the result of running Unicode ToASCII ... If result
    # is a failure value, domain-to-ASCII validation error, return failure". Undone alone, the
    # strict run (37afb50) still reports domain-to-ASCII and the relaxed run fails: "If result
    # is a failure value, then return failure".
    ((variants.ASCII_DOMAIN_TO_ASCII_FALLBACK,), "https://xn--8i7caa.famitei.net/sekou/all",
     ("https://xn--8i7caa.famitei.net/sekou/all", ["domain-to-ASCII"], False),
     ("failure", ["domain-to-ASCII"], False)),

    # f0806d6 "Redo validation errors in the IPv4 parser" (2023). After: 6.3 "If result[1] is
    # true, IPv4-non-decimal-part validation error" for each part. Before: "If result[1] is
    # true, then set validationError to true" and once, after every part parsed, "If
    # validationError is true, validation error": one error for two hex parts, none when a
    # later part fails ("If result is failure, validation error, return failure").
    ((variants.IPV4_ERRORS_WHERE_FOUND,), "http://0x7f.0.0.0x1/",
     ("http://127.0.0.1/", ["IPv4-non-decimal-part", "IPv4-non-decimal-part"], False),
     ("http://127.0.0.1/", ["IPv4-non-decimal-part"], False)),
    ((variants.IPV4_ERRORS_WHERE_FOUND,), "http://0x1.a.3.4/",
     ("failure", ["IPv4-non-decimal-part", "IPv4-non-numeric-part"], False),
     ("failure", ["IPv4-non-numeric-part"], False)),

    # 35e195a "Forbid more code points in (non-opaque) domains" (2022): "In particular C0
    # controls and U+007F". After: "A forbidden domain code point is a forbidden host code
    # point, a C0 control, U+0025 (%), or U+007F DELETE", checked by the domain parser.
    # Before: "If asciiDomain contains a forbidden host code point": U+0001 and U+007F pass
    # (relaxed ToASCII keeps them), the strict run's error stays (37afb50).
    ((variants.FORBIDDEN_DOMAIN_CODE_POINT,), "https://a%01b/",
     ("failure", ["domain-percent-encoded", "domain-to-ASCII"], False),
     ("https://a\x01b/", ["domain-percent-encoded", "domain-to-ASCII"], False)),
    ((variants.FORBIDDEN_DOMAIN_CODE_POINT,), "https://a%7Fb/",
     ("failure", ["domain-percent-encoded", "domain-to-ASCII"], False),
     ("https://a\x7fb/", ["domain-percent-encoded", "domain-to-ASCII"], False)),

    # 4c18d6c "Correct valid IPv4-address string" (2021). After: "four shortest possible
    # strings of ASCII digits". Before: "four sequences of up to three ASCII digits per
    # sequence, each representing a decimal number no greater than 255": 010 was valid.
    ((variants.VALID_IPV4_SHORTEST,), "https://010.0.0.1/",
     ("https://8.0.0.1/", ["IPv4-non-decimal-part"], False),
     ("https://8.0.0.1/", ["IPv4-non-decimal-part"], True)),

    # fbb91a1 "Correct IPv4 number parser" (2021). After: "If input is the empty string, then
    # return (0, true)". Before: "then return 0" (no validationError): "0x" alone raised no
    # IPv4-non-decimal-part.
    ((variants.IPV4_NUMBER_EMPTY_IS_NON_DECIMAL,), "http://0x/",
     ("http://0.0.0.0/", ["IPv4-too-few-parts", "IPv4-non-decimal-part"], False),
     ("http://0.0.0.0/", ["IPv4-too-few-parts"], False)),

    # ab0e820 "Reject non-IPv4 domains that end in numbers" (2021): its message's "foo.0",
    # "bar.0.09", "a.1.2.0x.", "1.2.3.4.5" "were all previously considered valid non-IPv4
    # domains, but are now all rejected"; the removed example "0..0x300 is a domain".
    # After: "If asciiDomain ends in a number, then return the result of IPv4 parsing
    # asciiDomain". Before: "If ipv4Host is an IPv4 address or failure, return ipv4Host. Return
    # asciiDomain", the IPv4 parser returning input for "size is greater than 4", "part is
    # the empty string", "result is failure".
    ((variants.DOMAIN_ENDING_IN_NUMBER_IS_IPV4,), "http://foo.0/",
     ("failure", ["IPv4-too-few-parts", "IPv4-non-numeric-part"], False),
     ("http://foo.0/", [], False)),
    ((variants.DOMAIN_ENDING_IN_NUMBER_IS_IPV4,), "http://bar.0.09/",
     ("failure", ["IPv4-too-few-parts", "IPv4-non-numeric-part"], False),
     ("http://bar.0.09/", [], False)),
    ((variants.DOMAIN_ENDING_IN_NUMBER_IS_IPV4,), "http://a.1.2.0x./",
     ("failure", ["domain-to-ASCII", "IPv4-empty-part", "IPv4-non-numeric-part"], False),
     ("http://a.1.2.0x./", ["domain-to-ASCII"], False)),
    ((variants.DOMAIN_ENDING_IN_NUMBER_IS_IPV4,), "http://1.2.3.4.5/",
     ("failure", ["IPv4-too-many-parts"], False), ("http://1.2.3.4.5/", [], False)),
    ((variants.DOMAIN_ENDING_IN_NUMBER_IS_IPV4,), "http://0..0x300/",
     ("failure", ["domain-to-ASCII", "IPv4-too-few-parts", "IPv4-non-numeric-part"], False),
     ("http://0..0x300/", ["domain-to-ASCII"], False)),

    # 4025253 "Forbid U+007C (|) in hosts" (2021). After: the forbidden host code points end
    # "U+005E (^), or U+007C (|)". Before: "... or U+005E (^)": an opaque host or a domain may
    # hold |.
    ((variants.HOSTS_FORBID_PIPE,), "sc://a|b/",
     ("failure", ["host-invalid-code-point"], False), ("sc://a|b/", ["invalid-URL-unit"], False)),
    ((variants.HOSTS_FORBID_PIPE,), "http://a|b/",
     ("failure", ["domain-to-ASCII"], False), ("http://a|b/", ["domain-to-ASCII"], False)),

    # cceb435 "Verify domain is not empty after Unicode ToASCII" (2020): its message's "input
    # consists entirely of IDNA ignored code points" (U+00AD). After: "If result is the empty
    # string, ... return failure". Before: no such step: the empty host.
    ((variants.DOMAIN_EMPTY_AFTER_TO_ASCII,), "http://\u00ad/",
     ("failure", ["domain-to-ASCII"], False), ("http:///", ["domain-to-ASCII"], False)),

    # 5d17e7f "Fix validity for opaque hosts" (2020). After: opaque-host parser "If input
    # contains a code point that is not a URL code point and not U+0025 (%), validation error"
    # and "If input contains a U+0025 (%) and the two code points following it are not ASCII
    # hex digits, validation error". Before: neither.
    ((variants.OPAQUE_HOST_VALIDITY,), "sc://a%zz/",
     ("sc://a%zz/", ["invalid-URL-unit"], False), ("sc://a%zz/", [], False)),
    ((variants.OPAQUE_HOST_VALIDITY,), 'sc://a"b/',
     ('sc://a"b/', ["invalid-URL-unit"], False), ('sc://a"b/', [], False)),
]

CASES_2015_2017: list[tuple[tuple[str, ...], str, Result, Result]] = [
    # dc9d831 "IDNA: use proposed UTS46 flags to avoid breaking YouTube" (2017): "This is known
    # to break YouTube: r3---sn-2gb7ln7k.googlevideo.com. This is fixed by setting the proposed
    # CheckHyphens flag to false." Before: no CheckHyphens flag (UTS46 checked hyphens), so
    # the relaxed ToASCII failed. An ASCII domain now skips it (a8d5ca3): undone alone, a
    # non-ASCII label with -- in positions 3-4 shows it; with a8d5ca3 undone too, the
    # commit's own domain.
    ((variants.IDNA_CHECK_HYPHENS_FALSE,), "https://ab--\u00e7.com/",
     ("https://xn--ab---3oa.com/", ["domain-to-ASCII"], False),
     ("failure", ["domain-to-ASCII"], False)),
    ((variants.IDNA_CHECK_HYPHENS_FALSE, variants.ASCII_DOMAIN_TO_ASCII_FALLBACK),
     "https://r3---sn-2gb7ln7k.googlevideo.com/",
     ("https://r3---sn-2gb7ln7k.googlevideo.com/", ["domain-to-ASCII"], False),
     ("failure", ["domain-to-ASCII"], False)),

    # f4d84a5 "Use Nontransitional_Processing for IDNA ToASCII" (2017). After:
    # processing_option "Nontransitional_Processing". Before: "Transitional_Processing": the
    # deviation U+00DF (ß) maps to "ss".
    ((variants.IDNA_NONTRANSITIONAL,), "http://fa\u00df.de/",
     ("http://xn--fa-hia.de/", [], True), ("http://fass.de/", [], True)),

    # aec9424 "Make IPv6 addresses in special URLs valid" (2017). After: a valid opaque-host
    # string "or: "[", followed by an IPv6 address string, followed by "]"". Before: "zero or
    # more URL units" ([ and ] are not URL units).
    ((variants.VALID_OPAQUE_HOST_IPV6,), "sc://[::1]/",
     ("sc://[::1]/", [], True), ("sc://[::1]/", [], False)),

    # cdbcce6 "Allow % and IPv6 addresses in non-special URL hosts" (2017). After: the host
    # parser for a non-special URL: "[" goes to the IPv6 parser, the opaque-host parser fails
    # on "a forbidden host code point excluding "%"". Before: the URL-host parser: "If input
    # contains a forbidden host code point, syntax violation, return failure" (% and [ were).
    ((variants.OPAQUE_HOST_PERCENT_AND_IPV6,), "sc://[::1]/",
     ("sc://[::1]/", [], True), ("failure", ["host-invalid-code-point"], True)),
    ((variants.OPAQUE_HOST_PERCENT_AND_IPV6,), "sc://a%41/",
     ("sc://a%41/", [], True), ("failure", ["host-invalid-code-point"], True)),

    # c1b8970 "Report all IPv4 syntax violations" (2015). After: the empty last part "set
    # syntaxViolationFlag", the number parser's prefixes too, and "If any item in numbers is
    # greater than 255, syntax violation". Before: none of these.
    ((variants.IPV4_SYNTAX_VIOLATIONS,), "http://1.2.3.4./",
     ("http://1.2.3.4/", ["domain-to-ASCII", "IPv4-empty-part"], False),
     ("http://1.2.3.4/", ["domain-to-ASCII"], False)),
    ((variants.IPV4_SYNTAX_VIOLATIONS,), "http://0x7f.0.0.1/",
     ("http://127.0.0.1/", ["IPv4-non-decimal-part"], False), ("http://127.0.0.1/", [], False)),
    ((variants.IPV4_SYNTAX_VIOLATIONS,), "http://1.2.300/",
     ("http://1.2.1.44/", ["IPv4-too-few-parts", "IPv4-out-of-range-part"], False),
     ("http://1.2.1.44/", ["IPv4-too-few-parts"], False)),

    # 990295a "If IPv4 parser finds empty labels, return input as domain" (2015): its example
    # "0..0x300 is a domain, not an IPv4 address". The step lived in the IPv4 parser that
    # ab0e820 replaced; with both undone, the empty part goes to the number parser ("If input
    # is the empty string, return zero"): 0, 0, 0x300 is 0.0.3.0.
    ((variants.IPV4_EMPTY_PART_IS_DOMAIN,), "http://0..0x300/",
     ("failure", ["domain-to-ASCII", "IPv4-too-few-parts", "IPv4-non-numeric-part"], False),
     ("failure", ["domain-to-ASCII", "IPv4-too-few-parts", "IPv4-non-numeric-part"], False)),
    ((variants.IPV4_EMPTY_PART_IS_DOMAIN, variants.DOMAIN_ENDING_IN_NUMBER_IS_IPV4),
     "http://0..0x300/",
     ("failure", ["domain-to-ASCII", "IPv4-too-few-parts", "IPv4-non-numeric-part"], False),
     ("http://0.0.3.0/", ["domain-to-ASCII", "IPv4-too-few-parts", "IPv4-non-decimal-part",
                          "IPv4-non-decimal-part", "IPv4-out-of-range-part"], False)),

    # 1eab2ab "Apparently 0x is an IPv4 number" (2015). After: "If input is the empty string,
    # return zero" (after the 0x prefix). Before: no such step: "0x" is no number, so "0x"
    # does not end in a number: a domain.
    ((variants.IPV4_NUMBER_0X,), "http://0x/",
     ("http://0.0.0.0/", ["IPv4-too-few-parts", "IPv4-non-decimal-part"], False),
     ("http://0x/", [], True)),

    # 8848692 'Handle "0" as input in the IPv4 number parser' (2015): "Needs to be at least
    # two code points. Otherwise "0" as input fails to parse." Before: "at least one code
    # point": "0" is octal with nothing left, a failure; today's IPv4 parser then fails (ends
    # in a number: all digits); with ab0e820 undone too it returns the input, a domain.
    ((variants.IPV4_NUMBER_ZERO,), "http://0/",
     ("http://0.0.0.0/", ["IPv4-too-few-parts"], False),
     ("failure", ["IPv4-too-few-parts", "IPv4-non-numeric-part"], False)),
    ((variants.IPV4_NUMBER_ZERO, variants.DOMAIN_ENDING_IN_NUMBER_IS_IPV4), "http://0/",
     ("http://0.0.0.0/", ["IPv4-too-few-parts"], False), ("http://0/", [], False)),

    # a7ae1b8 "Disallow invalid IPv4 in IPv6 parser" (2017). After: numbersSeen, "If
    # numbersSeen is greater than 0, then: If c is a "." and numbersSeen is less than 4, then
    # increase pointer by one. Otherwise, syntax violation, return failure" and "If
    # numbersSeen is not 4, ... return failure". Before: "dots seen": "If dots seen is less
    # than 3 and c is not a ".", syntax violation, return failure", the loop ending at EOF
    # after a "." with two numbers read: 1.2. fills one piece, 0x102.
    ((variants.IPV4_IN_IPV6_NUMBERS_SEEN,), "http://[::1.2.]/",
     ("failure", ["IPv4-in-IPv6-invalid-code-point"], False), ("http://[::102]/", [], False)),

    # 9043740 "Define an IPv4 parser that is compatible with Chrome" (2015): its number
    # parser's "0x" and "0" prefixes. Before: no IPv4 parser: the host parser returned
    # asciiDomain, 0x7f.0.0.1 a domain.
    ((variants.IPV4_PARSER,), "http://0x7f.0.0.1/",
     ("http://127.0.0.1/", ["IPv4-non-decimal-part"], False), ("http://0x7f.0.0.1/", [], False)),

    # 94e9e60 "Off-by-one error in IPv4 parser" (2015). After: "greater than or equal to
    # 256^(5 - the number of items in numbers), return failure". Before: 256^(4 - ...): a
    # four-part address's last number had to be below 1.
    ((variants.IPV4_LAST_NUMBER_RANGE,), "http://192.168.0.1/",
     ("http://192.168.0.1/", [], True), ("failure", [], True)),
]

STACKED: list[tuple[tuple[str, ...], str, Result, Result]] = [
    # a8d5ca3 then 37afb50, both on the domain parser's ASCII branch: both undone, the text
    # before a8d5ca3: "If result is a failure value, domain-to-ASCII validation error, return
    # failure" (no strict run).
    ((variants.ASCII_DOMAIN_TO_ASCII_FALLBACK, variants.DOMAIN_STRICT_TO_ASCII_ERROR),
     "https://xn--8i7caa.famitei.net/sekou/all",
     ("https://xn--8i7caa.famitei.net/sekou/all", ["domain-to-ASCII"], False),
     ("failure", ["domain-to-ASCII"], False)),
    # 37afb50 alone on the same input: between a8d5ca3 and 37afb50 the ASCII branch's relaxed
    # run failed, "domain-to-ASCII validation error", and the lowercased domain was kept.
    ((variants.DOMAIN_STRICT_TO_ASCII_ERROR,), "https://xn--8i7caa.famitei.net/sekou/all",
     ("https://xn--8i7caa.famitei.net/sekou/all", ["domain-to-ASCII"], False),
     ("https://xn--8i7caa.famitei.net/sekou/all", ["domain-to-ASCII"], False)),
    # cceb435 then 37afb50: both undone, no empty check and no strict run: no error at all.
    ((variants.DOMAIN_EMPTY_AFTER_TO_ASCII, variants.DOMAIN_STRICT_TO_ASCII_ERROR),
     "http://\u00ad/", ("failure", ["domain-to-ASCII"], False), ("http:///", [], False)),
    # 302ba41, 4025253, 35e195a on the forbidden code points: each restores its own.
    ((variants.HOSTS_FORBID_LT_GT_CARET, variants.HOSTS_FORBID_PIPE), "sc://a|b^c/",
     ("failure", ["host-invalid-code-point"], False),
     ("sc://a|b^c/", ["invalid-URL-unit"], False)),
    ((variants.HOSTS_FORBID_PIPE,), "sc://a|b^c/",
     ("failure", ["host-invalid-code-point"], False),
     ("failure", ["host-invalid-code-point"], False)),
    ((variants.FORBIDDEN_DOMAIN_CODE_POINT, variants.HOSTS_FORBID_PIPE), "https://a%01|b/",
     ("failure", ["domain-percent-encoded", "domain-to-ASCII"], False),
     ("https://a\x01|b/", ["domain-percent-encoded", "domain-to-ASCII"], False)),
    ((variants.FORBIDDEN_DOMAIN_CODE_POINT,), "https://a%01|b/",
     ("failure", ["domain-percent-encoded", "domain-to-ASCII"], False),
     ("failure", ["domain-percent-encoded", "domain-to-ASCII"], False)),
    # acd13be then f0806d6-era errors: both undone, neither too-few-parts nor the per-part
    # error; the validationError once.
    ((variants.IPV4_TOO_FEW_PARTS, variants.IPV4_ERRORS_WHERE_FOUND), "http://0x1.0x2/",
     ("http://1.0.0.2/", ["IPv4-too-few-parts", "IPv4-non-decimal-part",
                          "IPv4-non-decimal-part"], False),
     # (and "0x1.0x2" a valid domain again: acd13be's ends-in-a-number step undone)
     ("http://1.0.0.2/", ["IPv4-non-decimal-part"], True)),
]


ALL = CASES + CASES_2015_2017 + STACKED


@pytest.mark.parametrize(("names", "input", "today", "before"), ALL,
                         ids=[f"{'+'.join(c[0])}:{c[1]!r}" for c in ALL])
def test_each_change_undone_reads_as_the_text_before_it(
        names: tuple[str, ...], input: str, today: Result, before: Result) -> None:
    assert _read(input) == today
    with undoing(names):
        assert _read(input) == before
    assert _read(input) == today


def test_domain_to_unicode_before_the_fallback_returned_to_unicode_s_result() -> None:
    # a8d5ca3: after, "If an error was recorded, then return domain"; before, "Signify
    # domain-to-Unicode validation errors for any returned errors, and then, return result".
    assert domain_to_unicode("xn--8i7caa") == "xn--8i7caa"
    with undoing([variants.ASCII_DOMAIN_TO_ASCII_FALLBACK]):
        assert domain_to_unicode("xn--8i7caa") != "xn--8i7caa"


NOT_UNDOABLE = Path(__file__).parent.parent / "urlcalc/history/data/not_undoable/hosts.json"


def test_the_hosts_changes_are_each_undoable_or_listed_as_not() -> None:
    listed = json.loads(NOT_UNDOABLE.read_text("utf-8"))
    mine = {v.commit for v in VARIANTS[:VARIANTS.index(variants.BY_NAME[
        variants.IPV6_PIECE_LEADING_ZERO]) + 1]}
    assert not mine & listed.keys()
    for sha, reason in listed.items():
        assert len(sha) == 40 and reason
        assert by_sha(sha)["class"] == "normative", sha
