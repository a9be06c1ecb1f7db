"""Confusion classes and the allowed-host check (urlcalc.implementations.confusion, the table in
urlcalc.model.confusion): the patterns of the 2022 Claroty/Snyk study "Exploiting URL Parsing
Confusion", re-derived here, each classed as the study classes it, through the real libraries
that read them so (urllib.parse, rfc3986, yarl) and through readings written by hand for the
behaviours the study describes in parsers urlcalc does not run (a parser that decodes escapes
before splitting); what no class accounts for named by what differs; naive allowlist tests
fooled, or not; the survey's ``confusion:<id>`` and ``allowed-host`` families against a
per-URL loop."""

from __future__ import annotations

import pytest
from required import missing

from urlcalc.implementations import IMPLEMENTATIONS
from urlcalc.implementations.base import Implementation
from urlcalc.implementations.confusion import (
    PREDICATES,
    Side,
    allowed_host,
    classify,
    host_candidates,
    reads_another_host,
    slashes_after_scheme,
)
from urlcalc.implementations.rfc3986_adapter import RFC3986
from urlcalc.implementations.urllib_adapter import URLLIB
from urlcalc.implementations.yarl_adapter import YARL
from urlcalc.model.confusion import CONFUSION_CLASSES, NAIVE_CHECKS, OTHER
from urlcalc.standard.url import GETTERS, URL, URLParseError
from urlcalc.survey.observe import Options
from urlcalc.survey.run import survey_lines


def standard(input: str, base: str | None = None) -> Side:
    try:
        url = URL(input, base)
    except URLParseError:
        return Side(False, {})
    return Side(True, {g: getattr(url, g) for g in GETTERS})


def read(impl: Implementation, input: str, base: str | None = None) -> Side:
    reason = impl.unavailable()
    if reason is not None:
        missing(f"{impl.name}: {reason}")
    r = impl.read(input, base)
    return Side(r.ok, r.getters if r.ok else {}, r.relative)


def class_of(impl: Implementation, input: str, base: str | None = None) -> str | None:
    found = classify(input, base, standard(input, base), read(impl, input, base))
    return found["id"] if found is not None else None


def hand(url: str, **getters: str) -> Side:
    """A reading written by hand: the standard's getters of ``url``, with ``getters`` replaced
    (what a parser the study describes gives)."""
    side = standard(url)
    assert side.ok
    return Side(True, {**side.getters, **getters})


# --- the table --------------------------------------------------------------------------------

def test_every_class_has_one_predicate_and_the_table_is_well_formed() -> None:
    ids = [c["id"] for c in CONFUSION_CLASSES]
    assert len(set(ids)) == len(ids) == 5
    assert list(PREDICATES) == ids  # tested in the table's order
    assert all(not i.startswith(OTHER) for i in ids)
    assert all(len(c["definition"]) > 100 for c in CONFUSION_CLASSES)
    assert [c["id"] for c in NAIVE_CHECKS] == ["urlsplit-hostname", "startswith", "substring",
                                               "netloc-endswith"]


# --- the study's patterns, through the libraries that read them so ----------------------------

@pytest.mark.parametrize(("input", "impl", "expected"), [
    # backslash: the standard reads \ as / in a special URL; the others keep it
    ("http://evil.com\\@good.com/", URLLIB, "backslash-confusion"),  # host good.com
    ("http://evil.com\\@good.com/", RFC3986, "backslash-confusion"),  # path %5C@good.com/
    ("http://evil.com\\@good.com/", YARL, "backslash-confusion"),  # refuses it
    ("http:/\\evil.com", URLLIB, "backslash-confusion"),
    ("https:\\\\evil.com/", YARL, "backslash-confusion"),
    # slashes: the standard skips any number before a special URL's host
    ("http:///evil.com", URLLIB, "slash-confusion"),  # empty host, path /evil.com
    ("http:/evil.com", RFC3986, "slash-confusion"),
    ("https:evil.com", URLLIB, "slash-confusion"),  # no slash: no host, path evil.com
    # scheme: none in the input, the standard refuses it, the others read a reference
    ("//evil.com/x", URLLIB, "scheme-confusion"),  # urllib: host evil.com
    ("evil.com/x", YARL, "scheme-confusion"),
    # escapes: the standard decodes the host's, the others keep them (or refuse what they
    # decode to)
    ("http://ev%69l.com/", URLLIB, "encoded-data-confusion"),
    ("http://evil.com%2f.good.com/", URLLIB, "encoded-data-confusion"),
    ("http://u%41@a/", YARL, "encoded-data-confusion"),  # yarl decodes the username
    # an escape in the path does not make a kept default port encoded-data confusion
    ("https://a.com:443/x/a%2Fb", URLLIB, "scheme-mixup"),
    # scheme mixup: a special scheme's rules (empty path "/", origin) left out or applied to
    # another scheme
    ("HTTP://a", URLLIB, "scheme-mixup"),  # urllib's path is ""
    ("x-http://a", YARL, "scheme-mixup"),  # yarl: path "/" and an origin
    ("x-http://A/", URLLIB, "scheme-mixup"),  # urllib lowercases an opaque host
    ("http://good.com%2F@evil.com", URLLIB, "scheme-mixup"),  # the hosts agree; the path not
])
def test_the_studys_patterns(input: str, impl: Implementation, expected: str) -> None:
    assert class_of(impl, input) == expected


def test_a_parser_that_decodes_before_splitting_is_encoded_data_confusion() -> None:
    # the study's http://good.com%2F@evil.com against a parser that decodes %2F first: it sees
    # host good.com and the path /@evil.com, where the standard's host is evil.com
    url = "http://good.com%2F@evil.com"
    decoder = hand("http://good.com/@evil.com", username="")
    found = classify(url, None, standard(url), decoder)
    assert found is not None and found["id"] == "encoded-data-confusion" and found["host"]
    assert "hostname" in found["getters"]
    # the same reading of an input without the escape is no encoded-data confusion
    plain = "http://good.com/@evil.com"
    other = hand("http://good.com/@evil.com", hostname="good.com.", host="good.com.")
    got = classify(plain, None, standard(plain), other)
    assert got is not None and got["id"] != "encoded-data-confusion"


def test_a_non_special_url_whose_backslash_the_other_reads_as_a_slash() -> None:
    # the standard keeps \ in a non-special URL's path; a parser with the http rules does not
    url = "x-web://h/a\\b"
    other = hand(url, pathname="/a/b", href="x-web://h/a/b")
    assert classify(url, None, standard(url), other) == {
        "id": "backslash-confusion", "name": "Backslash confusion", "getters": ["pathname"],
        "host": False}


def test_the_same_reading_is_no_confusion_and_whatwg_parsers_agree_on_the_patterns() -> None:
    for url in ("http://evil.com\\@good.com/", "https:evil.com", "http://ev%69l.com/"):
        assert classify(url, None, standard(url), standard(url)) is None
    assert classify("nope", None, Side(False, {}), Side(False, {})) is None


def test_which_class_first_and_negative_cases() -> None:
    # a backslash in the query is no backslash confusion (the standard keeps it there too)
    url = "http://a/?x\\y"
    other = hand(url, search="?x%5Cy")
    got = classify(url, None, standard(url), other)
    assert got is not None and got["id"] == "other: query (percent-encoding)"
    # two slashes: no slash confusion whatever differs
    assert slashes_after_scheme("http://a") == 2
    assert slashes_after_scheme("http:\\/a") == 2
    assert slashes_after_scheme("a/b") is None
    assert slashes_after_scheme("https:a") == 0
    # a scheme the two read differently is scheme confusion even with slashes
    url = "http://a/"
    got = classify(url, None, standard(url), hand(url, protocol="https:"))
    assert got is not None and got["id"] == "scheme-confusion"


@pytest.mark.parametrize(("input", "impl", "expected"), [
    ("http://faß.example/", URLLIB, "other: host (IDNA)"),
    ("http://0x7f.1/", URLLIB, "other: host (IPv4)"),
    ("http://[0:0::1]/", URLLIB, "other: host (IPv6)"),
    ("http://a/b/../c", URLLIB, "other: path (dot segments)"),
    ("http://a/b?c d", YARL, "other: query (form encoding)"),
    ("http://a/b#c d", URLLIB, "other: fragment (percent-encoding)"),
    ("http://a:080/", RFC3986, "other: port"),
    ("http://faß.example/", RFC3986, "other: fails where the standard parses"),
])
def test_what_no_class_accounts_for_is_named_by_what_differs(
        input: str, impl: Implementation, expected: str) -> None:
    found = classify(input, None, standard(input), read(impl, input))
    assert found is not None and found["id"] == found["name"] == expected


def test_an_other_host_split_at_the_userinfo() -> None:
    url = "http://a@b@c/"
    other = hand(url, username="a", password="", host="b", hostname="b")
    found = classify(url, None, standard(url), other)
    assert found is not None and found["id"] == "other: host (userinfo split)" and found["host"]


# --- the allowed-host check -------------------------------------------------------------------

def _checks(url: str, hosts: tuple[str, ...] = ()) -> dict[str, tuple[str, str | None]]:
    return {f["check"]: (f["allowed"], f["standard_host"])
            for f in allowed_host(url, standard(url), hosts)}


def test_naive_tests_fooled_by_a_backslash() -> None:
    url = "http://evil.com\\@good.com/"
    # urllib reads good.com; the standard, evil.com
    assert _checks(url, (read(URLLIB, url).get("hostname") or "",)) == {
        "urlsplit-hostname": ("good.com", "evil.com"),
        "substring": ("good.com", "evil.com"),
        "netloc-endswith": ("good.com", "evil.com"),
    }
    # found from the text alone too (the name after the backslash and "@")
    assert "good.com" in host_candidates(url, standard(url), ())


def test_naive_tests_fooled_by_userinfo_and_by_a_parameter() -> None:
    assert _checks("https://good.com@evil.com/") == {
        "startswith": ("good.com", "evil.com"), "substring": ("good.com", "evil.com")}
    assert _checks("https://evil.com/?next=https://good.com/") == {
        "substring": ("good.com", "evil.com")}
    assert _checks("http://evil.com#@good.com") == {"substring": ("good.com", "evil.com")}
    # a javascript: URL has no host at all
    assert _checks("javascript:alert(1)//good.com") == {"substring": ("good.com", None)}
    # a suffix test accepts a subdomain on purpose; another name ending so fools it
    assert _checks("https://lore.kernel.org/r/1-a@kernel.org") == {
        "substring": ("kernel.org", "lore.kernel.org")}
    assert _checks("https://evilkernel.org/r/1-a@kernel.org") == {
        "substring": ("kernel.org", "evilkernel.org"),
        "netloc-endswith": ("kernel.org", "evilkernel.org")}


def test_no_finding_for_the_standards_own_host_or_a_refused_url() -> None:
    assert _checks("https://good.com/a@b") == {}
    assert _checks("HTTPS://GOOD.COM/", ("good.com",)) == {}
    assert _checks("https://xn--fa-hia.example/", ("faß.example",)) == {}  # the same host
    assert _checks("http://good.com@/") == {}  # the standard refuses it
    assert allowed_host("http://evil.com\\@good.com/", Side(False, {}), ("good.com",)) == []
    # a name in the path is not an authority the text mentions
    assert _checks("https://example.com/readme.md") == {}
    # a name is taken whole, in any script: www.münchen.de is the standard's own host
    assert host_candidates("https://www.münchen.de/x", standard("https://www.münchen.de/x"),
                           ("www.münchen.de",)) == []


def test_an_implementation_that_reads_another_host() -> None:
    url = "http://evil.com\\@good.com/"
    found = reads_another_host(url, standard(url), read(URLLIB, url))
    assert found == {"allowed": "good.com", "standard_host": "evil.com",
                     "naive": ["urlsplit-hostname", "substring", "netloc-endswith"]}
    assert reads_another_host(url, standard(url), standard(url)) is None
    assert reads_another_host("http:///h", standard("http:///h"),
                              read(URLLIB, "http:///h")) is None  # urllib's host is empty


# --- the survey's families --------------------------------------------------------------------

CORPUS = ["http://evil.com\\@good.com/", "http:/\\evil.com", "https:evil.com", "HTTP://a",
          "x-http://a", "//evil.com/x", "http://ev%69l.com", "https://a.com/?u=https://b.org/",
          "http://faß.example/", "https://example.com/", "http://good.com@evil.com/"]


def test_the_survey_counts_confusion_and_allowed_host_as_a_per_url_loop() -> None:
    ids = ("urllib", "yarl")
    for impl in (URLLIB, YARL):
        read(impl, "http://a/")  # missing() when not installed
    tally = survey_lines(CORPUS, Options(compare=frozenset({"implementations"}),
                                         implementations=ids, coverage=False))
    expected: dict[tuple[str, str], int] = {}
    code = {c["id"]: c["code"] for c in NAIVE_CHECKS}
    by_id = {i.id: i for i in IMPLEMENTATIONS}
    for url in CORPUS:
        mine = standard(url)
        hosts = []
        for impl_id in ids:
            other = read(by_id[impl_id], url)
            hosts.append(other.get("hostname"))
            found = classify(url, None, mine, other)
            if found is not None:
                key = (f"confusion:{impl_id}", found["id"])
                expected[key] = expected.get(key, 0) + 1
        for f in allowed_host(url, mine, hosts):
            key = ("allowed-host", code[f["check"]])
            expected[key] = expected.get(key, 0) + 1
    got = {(family, key): b.count for family, keys in tally.buckets.items()
           if family.startswith("confusion:") or family == "allowed-host"
           for key, b in keys.items()}
    assert got == expected
    assert got[("confusion:urllib", "backslash-confusion")] == 2
    assert got[("confusion:yarl", "scheme-mixup")] == 2  # x-http://a, and HTTP://a's href
    assert got[("allowed-host", "H in url")] == 3
    assert tally.buckets["allowed-host"]["H in url"].examples[:2] == [
        "http://good.com@evil.com/", "http://evil.com\\@good.com/"]  # shortest first
    # the keys stay few: the classes, a few "other" names, and one per naive test
    assert len(tally.buckets["allowed-host"]) <= len(NAIVE_CHECKS)
