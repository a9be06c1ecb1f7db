"""The standard without one change, in the basic URL parser's states (issue 27, item 2): each
undoable change of the states and the preprocessing, an input whose result differs with and
without it, the results written from the text of url.bs before and after the change (each case
quotes the sentence), not from the code; where two changes touch one step, the stacking: undoing
the later restores the text between the two, undoing both the text before both.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from urlcalc.model.results import parse_model
from urlcalc.standard import variants
from urlcalc.standard.url import URL
from urlcalc.standard.variants import any_undone, undoing

Result = tuple[str, list[str]]


def _read(input: str, base: str | None = None) -> Result:
    m = parse_model(input, base)
    href = m["getters"]["href"] if m["ok"] and m["getters"] else "failure"
    return href, [e["name"] for e in m["validation_errors"]]


def _set(url: str, setter: str, value: str) -> tuple[str, str]:
    """The href after the setter ran, and how the basic URL parser it ran ended: "failure",
    "return" (an early return that left the URL as it was) or "ran" (it ran to the end, or
    returned after changing the URL)."""
    u = URL(url)
    stop = u.set_cited(setter, value)
    how = "ran" if stop is None else "failure" if stop.failure else "return"
    return u.href, how


PARSES: list[tuple[tuple[str, ...], str, Result, Result]] = [
    # (variants undone, input, today, with those undone)
    # 3e8cd02 "Change validation error when a URL has credentials but no host" (its example,
    # "https://user:pass@"): authority state, step 2.1, after: "If atSignSeen is true and
    # buffer is the empty string, host-missing validation error, return failure."; before:
    # "..., invalid-credentials validation error, return failure." (step 1.1's
    # invalid-credentials for the "@" comes first in both).
    ((variants.CREDENTIALS_NO_HOST_HOST_MISSING,), "https://user:pass@",
     ("failure", ["invalid-credentials", "host-missing"]),
     ("failure", ["invalid-credentials", "invalid-credentials"])),
    # 6c78200 "Ensure opaque paths always roundtrip" (#784: an opaque path ending in spaces
    # before a query or fragment): opaque path state, after: "Otherwise, if c is U+0020 SPACE:
    # If remaining starts with U+003F (?) or U+003F (#), then append "%20" ...; otherwise,
    # append U+0020 SPACE"; before, no such step: "If c is not the EOF code point, not a URL
    # code point, and not U+0025 (%), invalid-URL-unit validation error" and the space is
    # appended as it is (not in the C0 control percent-encode set).
    ((variants.OPAQUE_PATH_SPACE_ROUNDTRIP,), "sc:a ?b",
     ("sc:a%20?b", ["invalid-URL-unit"]), ("sc:a ?b", ["invalid-URL-unit"])),
    # b11d73b "Correct a couple minor issues": the step 6c78200 added read "U+003F (?) or
    # U+003F (#)": read as written, only "?" counted, so a space before "#" stayed a space;
    # after: "U+003F (?) or U+0023 (#)".
    ((variants.OPAQUE_PATH_SPACE_BEFORE_HASH,), "sc:a #b",
     ("sc:a%20#b", ["invalid-URL-unit"]), ("sc:a #b", ["invalid-URL-unit"])),
    ((variants.OPAQUE_PATH_SPACE_BEFORE_HASH,), "sc:a ?b",
     ("sc:a%20?b", ["invalid-URL-unit"]), ("sc:a%20?b", ["invalid-URL-unit"])),
    # stacking: undoing 6c78200 removes the step b11d73b corrected, with or without b11d73b
    ((variants.OPAQUE_PATH_SPACE_ROUNDTRIP,), "sc:a #b",
     ("sc:a%20#b", ["invalid-URL-unit"]), ("sc:a #b", ["invalid-URL-unit"])),
    ((variants.OPAQUE_PATH_SPACE_ROUNDTRIP, variants.OPAQUE_PATH_SPACE_BEFORE_HASH), "sc:a ?b",
     ("sc:a%20?b", ["invalid-URL-unit"]), ("sc:a ?b", ["invalid-URL-unit"])),
    # 0bab926 "Trip C0 controls and space rather than just ASCII whitespace from parser input"
    # (bug 27280): basic URL parser, after: "Remove any leading and trailing C0 controls and
    # space from input"; before: "Remove any leading and trailing ASCII whitespace from
    # input": a trailing U+0000 stayed, and the path state percent-encoded it (a C0 control).
    ((variants.TRIM_C0_CONTROL_OR_SPACE,), "http://h/\0",
     ("http://h/", ["invalid-URL-unit"]), ("http://h/%00", ["invalid-URL-unit"])),
    ((variants.TRIM_C0_CONTROL_OR_SPACE,), " http://h/ ",
     ("http://h/", ["invalid-URL-unit"]), ("http://h/", ["invalid-URL-unit"])),
    # c3a454c "Make port either null or a 16-bit integer" (bug 26446): port state, before:
    # "Remove leading U+0030 code points from buffer ... Set url's port to buffer." (no bound);
    # after: "If port is greater than 2^16 - 1, parse error, return failure."
    ((variants.PORT_16_BIT,), "http://h:65536/",
     ("failure", ["port-out-of-range"]), ("http://h:65536/", [])),
    ((variants.PORT_16_BIT,), "http://h:0080/", ("http://h/", []), ("http://h/", [])),
    # bb36bd9 "Make file:/// and file://LOCALHOST/ parse identically": file host state,
    # before: "Set url's host to host"; after: "If host is not "localhost", set url's host to
    # host." (today: "If host is "localhost", then set host to the empty string.")
    ((variants.FILE_LOCALHOST_EMPTY,), "file://LOCALHOST/x",
     ("file:///x", []), ("file://localhost/x", [])),
    # 373dbed "Percent encode fragments too": fragment state, after: "UTF-8 percent encode c
    # using the simple encode set and append the result to url's fragment"; before: "Append c
    # to url's fragment" (not percent-encoding "is intentional").
    ((variants.FRAGMENT_PERCENT_ENCODED,), "http://h/#\u00e9",
     ("http://h/#%C3%A9", []), ("http://h/#\u00e9", [])),
    # 7a3c69f "Percent-encode additional characters in "fragment state"": after: "... using
    # the fragment percent-encode set" (the C0 control percent-encode set and U+0020 SPACE,
    # U+0022 ("), U+003C (<), U+003E (>), and U+0060 (`)); before: "... using the C0 control
    # percent-encode set". A space is no URL code point: invalid-URL-unit in both.
    ((variants.FRAGMENT_PERCENT_ENCODE_SET,), "http://h/#a b`",
     ("http://h/#a%20b%60", ["invalid-URL-unit", "invalid-URL-unit"]),
     ("http://h/#a b`", ["invalid-URL-unit", "invalid-URL-unit"])),
    ((variants.FRAGMENT_PERCENT_ENCODE_SET,), "http://h/#\u00e9",
     ("http://h/#%C3%A9", []), ("http://h/#%C3%A9", [])),
    # stacking: undoing 373dbed alone (before it, nothing was encoded) or both
    ((variants.FRAGMENT_PERCENT_ENCODED,), "http://h/#a b",
     ("http://h/#a%20b", ["invalid-URL-unit"]), ("http://h/#a b", ["invalid-URL-unit"])),
    ((variants.FRAGMENT_PERCENT_ENCODED, variants.FRAGMENT_PERCENT_ENCODE_SET),
     "http://h/#\u00e9", ("http://h/#%C3%A9", []), ("http://h/#\u00e9", [])),
    # f54c44d "Do not encode ` in query. Fixes #17.": query state, before: "If byte is less
    # than 0x21, greater than 0x7E, or is one of 0x22, 0x23, 0x3C, 0x3E, and 0x60, append byte,
    # percent encoded"; after, 0x60 is not in the list. (` is no URL code point: a validation
    # error in both.)
    ((variants.QUERY_BACKTICK_KEPT,), "http://h/?a`b",
     ("http://h/?a`b", ["invalid-URL-unit"]), ("http://h/?a%60b", ["invalid-URL-unit"])),
    ((variants.QUERY_BACKTICK_KEPT, variants.SPECIAL_QUERY_APOSTROPHE), "http://h/?`'",
     ("http://h/?`%27", ["invalid-URL-unit"]), ("http://h/?%60'", ["invalid-URL-unit"])),
    # bee5ad8 "Fix #77: always decode "%2e" in a URL's path" added to the path state: "If c is
    # "%" and remaining, ASCII lowercased, starts with "2e", append "." to buffer and increase
    # pointer by two."; fbff683 "Stop decoding all %2e's in paths" removed it again. Undoing
    # fbff683 restores the text between the two; undoing bee5ad8 alone, or both, the text
    # without that step (today's).
    ((variants.PATH_STOP_DECODING_DOT,), "http://h/a%2eb/%2Ec",
     ("http://h/a%2eb/%2Ec", []), ("http://h/a.b/.c", [])),
    ((variants.PATH_DECODE_DOT,), "http://h/a%2eb/%2Ec",
     ("http://h/a%2eb/%2Ec", []), ("http://h/a%2eb/%2Ec", [])),
    ((variants.PATH_DECODE_DOT, variants.PATH_STOP_DECODING_DOT), "http://h/a%2eb/%2Ec",
     ("http://h/a%2eb/%2Ec", []), ("http://h/a%2eb/%2Ec", [])),
    # e0c721b "Make it non-conforming to place a username and/or password in a URL" (bug
    # 27516): authority state, after: "Parse error. If the @ flag is set, prepend "%40" to
    # buffer."; before: "If the @ flag is set, parse error, prepend "%40" to buffer."
    ((variants.CREDENTIALS_NON_CONFORMING,), "http://u@h/",
     ("http://u@h/", ["invalid-credentials"]), ("http://u@h/", [])),
    ((variants.CREDENTIALS_NON_CONFORMING,), "http://a@b@h/",
     ("http://a%40b@h/", ["invalid-credentials", "invalid-credentials"]),
     ("http://a%40b@h/", ["invalid-credentials"])),
    # 6ef17eb "Percent-encode ' in queries of URLs with special schemes": query state, after:
    # the bytes percent-encoded include "byte is 0x27 (') and url is special"; before, not.
    ((variants.SPECIAL_QUERY_APOSTROPHE,), "http://h/?a'b",
     ("http://h/?a%27b", []), ("http://h/?a'b", [])),
    ((variants.SPECIAL_QUERY_APOSTROPHE,), "sc://h/?a'b",
     ("sc://h/?a'b", []), ("sc://h/?a'b", [])),
    # d589670 "Remove gopher from list of special schemes" (#342): the special scheme table
    # lost the row "gopher" 70. Before, a gopher URL was special: its default port 70 became
    # null (port state), "\\" was a path separator, and "gopher:x" needed its "//"
    # (special authority slashes state: special-scheme-missing-following-solidus).
    ((variants.GOPHER_NOT_SPECIAL,), "gopher://h:70/a\\b",
     ("gopher://h:70/a\\b", ["invalid-URL-unit"]),
     ("gopher://h/a/b", ["invalid-reverse-solidus"])),
    ((variants.GOPHER_NOT_SPECIAL,), "gopher:x",
     ("gopher:x", []), ("gopher://x/", ["special-scheme-missing-following-solidus"])),
    ((variants.GOPHER_NOT_SPECIAL,), "GOPHER://H\u00c9/",
     ("gopher://H%C3%89/", []), ("gopher://xn--h-bga/", [])),
    # 3d57401 "Remove U+0000 case in the fragment state": before: "U+0000 NULL: Validation
    # error." (and nothing appended); after, U+0000 is UTF-8 percent-encoded with the fragment
    # percent-encode set (a C0 control), after "If c is not a URL code point and not U+0025
    # (%), validation error".
    ((variants.FRAGMENT_NUL_ENCODED,), "http://h/#a\0b",
     ("http://h/#a%00b", ["invalid-URL-unit"]), ("http://h/#ab", ["invalid-URL-unit"])),
    ((variants.FRAGMENT_NUL_ENCODED, variants.FRAGMENT_PERCENT_ENCODED), "http://h/#a\0b",
     ("http://h/#a%00b", ["invalid-URL-unit"]), ("http://h/#ab", ["invalid-URL-unit"])),
]


@pytest.mark.parametrize(("names", "input", "today", "before"), PARSES,
                         ids=[f"{'+'.join(c[0])}:{c[1]}" for c in PARSES])
def test_each_change_undone_parses_as_the_text_before_it(
        names: tuple[str, ...], input: str, today: Result, before: Result) -> None:
    assert _read(input) == today
    with undoing(names):
        assert any_undone()
        assert _read(input) == before
    assert not any_undone() and _read(input) == today


SETS: list[tuple[tuple[str, ...], str, str, str, tuple[str, str], tuple[str, str]]] = [
    # (variants undone, URL, setter, value, today, with those undone): (href, how it ended)
    # 5533c8d "Once you're a special URL, you cannot become non-special. And vice versa.":
    # scheme state, after: "If url's scheme is a special scheme and buffer is not, terminate
    # this algorithm" (and vice versa); before, no such substeps: the scheme was set.
    ((variants.SCHEME_OVERRIDE_SPECIAL_STAYS,), "http://h/", "protocol", "sc",
     ("http://h/", "return"), ("sc://h/", "ran")),
    ((variants.SCHEME_OVERRIDE_SPECIAL_STAYS,), "sc://h/", "protocol", "http",
     ("sc://h/", "return"), ("http://h/", "ran")),
    # d589670, with the protocol setter: gopher to http was special to special
    ((variants.GOPHER_NOT_SPECIAL,), "gopher://h/", "protocol", "http",
     ("gopher://h/", "return"), ("http://h/", "ran")),
    # 4617e33 "Return failure in state override scheme parsing": scheme start state and scheme
    # state, before: "Otherwise, syntax violation, terminate this algorithm."; after: "...,
    # return failure."
    ((variants.SCHEME_OVERRIDE_FAILURE,), "http://h/", "protocol", "1x",
     ("http://h/", "failure"), ("http://h/", "return")),
    ((variants.SCHEME_OVERRIDE_FAILURE,), "http://h/", "protocol", "h~",
     ("http://h/", "failure"), ("http://h/", "return")),
    # 462fdc1 "Restrict protocol around "file"": after: "If url includes credentials or has a
    # non-null port, and buffer is "file", then return." and "If url's scheme is "file" and
    # its host is an empty host or null, then return."; before, no such steps.
    ((variants.SCHEME_OVERRIDE_FILE_RESTRICTED,), "http://u@h/", "protocol", "file",
     ("http://u@h/", "return"), ("file://u@h/", "ran")),
    ((variants.SCHEME_OVERRIDE_FILE_RESTRICTED,), "file:///x", "protocol", "http",
     ("file:///x", "return"), ("http:///x", "ran")),
    # 0f53958 "Normalize port after updating scheme": after: "If state override is given,
    # then: If url's port is url's scheme's default port, then set url's port to null.
    # Return."; before: "If state override is given, then return."
    ((variants.SCHEME_OVERRIDE_PORT_NORMALIZED,), "http://h:443/", "protocol", "https",
     ("https://h/", "ran"), ("https://h:443/", "ran")),
    # cc8b776 "Make port state override return failure more for URLPattern" (urlpattern#266:
    # a port not starting with an ASCII digit): port state, step 2, after: "If state override
    # is given, then return failure."; before: "If state override is given, then return."
    ((variants.PORT_OVERRIDE_FAILURE,), "http://h/", "port", "a",
     ("http://h/", "failure"), ("http://h/", "return")),
    # c23aec1 "Report all hostname state failures for URLPattern": host state, step 2.2,
    # after: "Otherwise, if state override is given and state override is hostname state,
    # then return failure."; before: "..., then return."
    ((variants.HOSTNAME_OVERRIDE_FAILURES,), "http://example.net/", "hostname",
     "example.com:8080", ("http://example.net/", "failure"), ("http://example.net/", "return")),
    # c23aec1, step 3.2 (its second "return failure", with credentials): after: "Otherwise, if
    # state override is given, buffer is the empty string, and either url includes
    # credentials or url's port is non-null, then return failure."; before: "..., return."
    ((variants.HOSTNAME_OVERRIDE_FAILURES,), "sc://u@h/", "hostname", "",
     ("sc://u@h/", "failure"), ("sc://u@h/", "return")),
    # ec96993 "Make override hostname state return early if a port is given" (wpt#29021: the
    # hostname setter given "example.com:8080" leaves the host): before, step 2 read: "Let host
    # be the result of host parsing buffer ... Set url's host to host, buffer to the empty
    # string, and state to port state. If state override is given and state override is
    # hostname state, then return." Undoing it alone moves that step back after the host is
    # set, with c23aec1's "return failure"; undoing both restores "return" there.
    ((variants.HOSTNAME_OVERRIDE_RETURNS_BEFORE_PORT,), "http://example.net/", "hostname",
     "example.com:8080", ("http://example.net/", "failure"), ("http://example.com/", "failure")),
    ((variants.HOSTNAME_OVERRIDE_RETURNS_BEFORE_PORT, variants.HOSTNAME_OVERRIDE_FAILURES),
     "http://example.net/", "hostname", "example.com:8080",
     ("http://example.net/", "failure"), ("http://example.com/", "ran")),
    # 0672f2e "Prevent the pathname setter from erasing the path of path-only URLs" (#581):
    # path start state, after: "Otherwise, if state override is given and url's host is null,
    # append the empty string to url's path."; before, no such step: the pathname setter's
    # empty path stayed empty, and "sc:" would reparse with an opaque path.
    ((variants.PATH_START_OVERRIDE_EMPTY_SEGMENT,), "sc:/a", "pathname", "",
     ("sc:/", "ran"), ("sc:", "ran")),
]


WITH_BASE: list[tuple[tuple[str, ...], str, str, Result, Result]] = [
    # (variants undone, input, base, today, with those undone)
    # 06b2e68 "Copy username/password for relative URLs": relative state, after: "Set url's
    # username to base's username, url's password to base's password, url's host to base's
    # host, ..."; before: "Set url's host to base's host, url's port to base's port, ...".
    ((variants.RELATIVE_COPIES_CREDENTIALS,), "?x", "http://u:p@h/a",
     ("http://u:p@h/a?x", []), ("http://h/a?x", [])),
    ((variants.RELATIVE_COPIES_CREDENTIALS,), "b", "http://u:p@h/a",
     ("http://u:p@h/b", []), ("http://h/b", [])),
    # fe6b251 "Fix Windows drive letter handling in the file state": before, the base's path
    # was copied and shortened if "c and the first code point of remaining are not a Windows
    # drive letter", "remaining consists of one code point", or "remaining's second code
    # point is not /, \\, ? or #"; "Otherwise, validation error". After, "remaining consists
    # of one code point" is gone: "C:" at the end is a drive letter.
    # ("C|", not "C:": "C:" would be a scheme; "|" is no URL code point: invalid-URL-unit.)
    ((variants.FILE_DRIVE_LETTER_AT_END,), "C|", "file:///a/b",
     ("file:///C:", ["file-invalid-Windows-drive-letter", "invalid-URL-unit"]),
     ("file:///a/C|", ["invalid-URL-unit"])),
    ((variants.FILE_DRIVE_LETTER_AT_END,), "C|/x", "file:///a/b",
     ("file:///C:/x", ["file-invalid-Windows-drive-letter", "invalid-URL-unit"]),
     ("file:///C:/x", ["file-invalid-Windows-drive-letter", "invalid-URL-unit"])),
    # 2eef975 "Fix Windows drive letter handling in the file slash state": before: "If base is
    # non-null and base's scheme is "file", then: If base's path[0] is a normalized Windows
    # drive letter, append base's path[0] to url's path."; after: "... and the substring from
    # pointer in input does not start with a Windows drive letter, then: ...".
    ((variants.FILE_SLASH_DRIVE_LETTER,), "/D:/x", "file:///C:/a",
     ("file:///D:/x", []), ("file:///C:/D:/x", [])),
    ((variants.FILE_SLASH_DRIVE_LETTER,), "/y", "file:///C:/a",
     ("file:///C:/y", []), ("file:///C:/y", [])),
    # 7468c39 "Support fragments as long as base URL is non-null" (bug 28600): no scheme state,
    # before: "If base is null, or base's scheme is not a relative scheme, parse error, return
    # failure."; after: "... is not a relative scheme and c is not "#", ...".
    ((variants.FRAGMENT_AGAINST_OPAQUE_BASE,), "#x", "sc:a",
     ("sc:a#x", []), ("failure", ["missing-scheme-non-relative-URL"])),
]


@pytest.mark.parametrize(("names", "input", "base", "today", "before"), WITH_BASE,
                         ids=[f"{'+'.join(c[0])}:{c[1]}" for c in WITH_BASE])
def test_each_change_undone_resolves_as_the_text_before_it(
        names: tuple[str, ...], input: str, base: str, today: Result, before: Result) -> None:
    assert _read(input, base) == today
    with undoing(names):
        assert _read(input, base) == before
    assert _read(input, base) == today


@pytest.mark.parametrize(("names", "url", "setter", "value", "today", "before"), SETS,
                         ids=[f"{'+'.join(c[0])}:{c[1]}.{c[2]}={c[3]}" for c in SETS])
def test_each_change_undone_sets_as_the_text_before_it(
        names: Iterable[str], url: str, setter: str, value: str, today: tuple[str, str],
        before: tuple[str, str]) -> None:
    assert _set(url, setter, value) == today
    with undoing(names):
        assert _set(url, setter, value) == before
    assert _set(url, setter, value) == today


def test_the_query_encoded_code_point_by_code_point_before_04f5bd0() -> None:
    # 04f5bd0 "Refactor query state to operate on a buffer": after, "Percent-encode after
    # encoding, with encoding, buffer, and queryPercentEncodeSet" at the end ("This operation
    # cannot be invoked code-point-for-code-point due to the stateful ISO-2022-JP encoder");
    # before, each c was percent-encoded after encoding as it came. ISO-2022-JP encodes U+3042
    # as ESC $ B 0x24 0x22 ESC ( B, alone; U+3042 U+3044 together as ESC $ B 0x24 0x22 0x24 0x24
    # ESC ( B. (0x22 is in the query percent-encode set; ESC is a C0 control.)
    from urlcalc.standard.parser import basic_url_parse

    def query(encoding: str) -> str | None:
        r = basic_url_parse("http://h/?\u3042\u3044", None, encoding)
        assert not isinstance(r, Exception)
        return r.query

    assert query("ISO-2022-JP") == "%1B$B$%22$$%1B(B"
    assert query("Shift_JIS") == "%82%A0%82%A2"
    with undoing([variants.QUERY_BUFFERED]):
        assert query("ISO-2022-JP") == "%1B$B$%22%1B(B%1B$B$$%1B(B"
        assert query("Shift_JIS") == "%82%A0%82%A2"


def test_the_states_block_is_oldest_first_and_every_variant_has_a_case() -> None:
    from urlcalc.history.commits import by_sha

    ours = {n for c in PARSES for n in c[0]} | {n for c in SETS for n in c[0]} | {
        n for c in WITH_BASE for n in c[0]} | {variants.QUERY_BUFFERED}
    block = [v for v in variants.VARIANTS if v.name in ours]
    dates = [by_sha(v.commit)["date"] for v in block]
    assert dates == sorted(dates)
    assert len(block) >= 7


# The normative changes of the states' area since 2015 (issue 27's assignment, newest first):
# each is a variant above or listed, with its reason, in not_undoable/states.json.
AREA = ["b11d73b", "cc8b776", "c23aec1", "6c78200", "3e8cd02", "0672f2e", "a1e71d1", "ec96993",
        "2ce4938", "04f5bd0", "a19495e", "47efa00", "3d57401", "d589670", "6ef17eb", "f0e4390",
        "7a3c69f", "2eef975", "0f53958", "fe6b251", "6103e0a", "462fdc1", "cf616f9", "698f3e8",
        "b087fe2", "3036255", "4617e33", "fbff683", "5e0b05e", "373dbed", "7b40216", "a9197f7",
        "bee5ad8", "f0f43b4", "9ca26e5", "c3a454c", "09cd673", "bb36bd9", "b266a43", "5533c8d",
        "0bab926", "7f5036c", "7876306", "7468c39", "e0c721b", "f54c44d", "06b2e68"]
NOT_UNDOABLE = Path(__file__).parent.parent / "urlcalc/history/data/not_undoable/states.json"


def test_the_states_changes_are_each_undoable_or_listed_as_not() -> None:
    from urlcalc.history.commits import by_sha

    listed = json.loads(NOT_UNDOABLE.read_text("utf-8"))
    undoable = {v.commit for v in variants.VARIANTS}
    for sha, reason in listed.items():
        assert len(sha) == 40 and reason and sha not in undoable
        assert by_sha(sha)["class"] == "normative", sha
    known = undoable | listed.keys()
    for short in AREA:
        assert [s for s in known if s.startswith(short)], short


# --- The file states (file, file slash, file host) as they were: 698f3e8, cf616f9, 6103e0a,
# 47efa00 and a19495e. Each case quotes url.bs before and after the change; where two changes
# touch one step, the stacking.

FILE_PARSES: list[tuple[tuple[str, ...], str, str | None, Result, Result]] = [
    # (variants undone, input, base, today, with those undone)
    # a19495e "Fix file URL reparse issue" (#549; wpt#25989's "file:.//p", "file:/.//p"): file
    # state, after: "Set url's host to the empty string."; before, no such step (the host stays
    # null), and the URL serializer had "Otherwise, if url's host is null and url's scheme is
    # "file", append "//" to output", then (83adf0c) "/." before a path whose first segment is
    # empty: file:.//p (path « "", "p" ») was file:///.//p, which reparses as file:////p.
    ((variants.FILE_HOST_NEVER_NULL,), "file:.//p", None,
     ("file:////p", ["special-scheme-missing-following-solidus"]),
     ("file:///.//p", ["special-scheme-missing-following-solidus"])),
    ((variants.FILE_HOST_NEVER_NULL,), "file:/.//p", None,
     ("file:////p", ["special-scheme-missing-following-solidus"]),
     ("file:///.//p", ["special-scheme-missing-following-solidus"])),
    # stacking: without 83adf0c's "/." too, file:.//p was file:////p (the bug before the bug)
    ((variants.FILE_HOST_NEVER_NULL, variants.SERIALIZER_NULL_HOST_DOT_SEGMENT), "file:.//p",
     None, ("file:////p", ["special-scheme-missing-following-solidus"]),
     ("file:////p", ["special-scheme-missing-following-solidus"])),
    # 47efa00 "Changes to file URL path normalization" (#302, #402; wpt#25716): path state,
    # before: "If url's scheme is "file", url's path is empty, and buffer is a Windows drive
    # letter, then: If url's host is neither the empty string nor null, validation error, set
    # url's host to the empty string. Replace the second code point in buffer with U+003A (:)."
    # after: "..., then replace the second code point in buffer with U+003A (:)." (the host is
    # kept). The error had no name then (urlcalc: file-host-with-Windows-drive-letter).
    ((variants.FILE_PATH_NORMALIZATION,), "file://example.net/C:/", None,
     ("file://example.net/C:/", []),
     ("file:///C:/", ["file-host-with-Windows-drive-letter"])),
    ((variants.FILE_PATH_NORMALIZATION,), "file://1.2.3.4/C|/x", None,
     ("file://1.2.3.4/C:/x", ["invalid-URL-unit"]),
     ("file:///C:/x", ["invalid-URL-unit", "file-host-with-Windows-drive-letter"])),
    # 47efa00, the step 6103e0a added and it removed: "If url's scheme is "file" and c is the
    # EOF code point, U+003F (?), or U+0023 (#), then while url's path's size is greater than 1
    # and url's path[0] is the empty string, validation error, remove the first item from url's
    # path." (urlcalc: file-path-leading-empty-segment). Undoing 47efa00 restores it; undoing
    # 6103e0a alone, or both, the text without it (today's).
    ((variants.FILE_PATH_NORMALIZATION,), "file:////x?q", None,
     ("file:////x?q", []), ("file:///x?q", ["file-path-leading-empty-segment"])),
    ((variants.FILE_PATH_TRIM_LEADING_EMPTY,), "file:////x", None,
     ("file:////x", []), ("file:////x", [])),
    ((variants.FILE_PATH_NORMALIZATION, variants.FILE_PATH_TRIM_LEADING_EMPTY), "file:////x",
     None, ("file:////x", []), ("file:////x", [])),
    # 47efa00, file slash state, before: "If base is non-null, base's scheme is "file", and the
    # substring from pointer in input does not start with a Windows drive letter, then: If
    # base's path[0] is a normalized Windows drive letter, append ... Otherwise, set url's host
    # to base's host."; after: "If base is non-null and base's scheme is "file", then: Set
    # url's host to base's host. ...": "/C:/x" did not take the base's host.
    ((variants.FILE_PATH_NORMALIZATION,), "/C:/x", "file://host/dir/f",
     ("file://host/C:/x", []), ("file:///C:/x", [])),
    # 6103e0a "URL: trim leading slashes of file URL paths" ("Also copy file URL hosts correctly
    # for path-absolute input"), file slash state, before: "If base is non-null, base's scheme
    # is "file", and base's path[0] is a normalized Windows drive letter, append base's path[0]
    # to url's path." (no "Otherwise, set url's host to base's host"): with 47efa00 undone too,
    # "/x" against file://h/a lost the host; with 47efa00 alone undone, 6103e0a's text keeps it.
    ((variants.FILE_PATH_NORMALIZATION,), "/x", "file://h/a",
     ("file://h/x", []), ("file://h/x", [])),
    ((variants.FILE_PATH_NORMALIZATION, variants.FILE_PATH_TRIM_LEADING_EMPTY), "/x",
     "file://h/a", ("file://h/x", []), ("file:///x", [])),
    # 47efa00, file state, before: "Validation error. Set url's host to null and url's path to
    # an empty list."; after: "Set url's path to an empty list." With a19495e's serializer (no
    # "//" for a null host) the result alone is file:/C:/x; undoing a19495e too, file:///C:/x.
    ((variants.FILE_PATH_NORMALIZATION,), "C|/x", "file://host/dir/f",
     ("file://host/C:/x", ["file-invalid-Windows-drive-letter", "invalid-URL-unit"]),
     ("file:/C:/x", ["file-invalid-Windows-drive-letter", "invalid-URL-unit"])),
    ((variants.FILE_PATH_NORMALIZATION, variants.FILE_HOST_NEVER_NULL), "C|/x",
     "file://host/dir/f",
     ("file://host/C:/x", ["file-invalid-Windows-drive-letter", "invalid-URL-unit"]),
     ("file:///C:/x", ["file-invalid-Windows-drive-letter", "invalid-URL-unit"])),
    # 698f3e8 "File state did not correctly deal with lack of base URL" (#217; wpt#4700's
    # "file:", "file:?q=v", "file:#frag"): file state, before, switching on c: "EOF code point:
    # If base is non-null and base's scheme is "file", set url's host to base's host, ..."; "?":
    # "If base is non-null and base's scheme is "file", set ... state to query state" (likewise
    # "#"); with no base, nothing: the next code point went to the file state again, and
    # "Otherwise" to the path state. After: "Otherwise, set state to path state, and decrease
    # pointer by one."
    ((variants.FILE_STATE_WITHOUT_BASE,), "file:", None,
     ("file:///", ["special-scheme-missing-following-solidus"]),
     ("file://", ["special-scheme-missing-following-solidus"])),
    ((variants.FILE_STATE_WITHOUT_BASE,), "file:?q=v", None,
     ("file:///?q=v", ["special-scheme-missing-following-solidus"]),
     ("file:///q=v", ["special-scheme-missing-following-solidus"])),
    ((variants.FILE_STATE_WITHOUT_BASE,), "file:#frag", None,
     ("file:///#frag", ["special-scheme-missing-following-solidus"]),
     ("file:///frag", ["special-scheme-missing-following-solidus"])),
    ((variants.FILE_STATE_WITHOUT_BASE,), "?x", "file:///a/b",
     ("file:///a/b?x", []), ("file:///a/b?x", [])),
]


@pytest.mark.parametrize(("names", "input", "base", "today", "before"), FILE_PARSES,
                         ids=[f"{'+'.join(c[0])}:{c[1]}" for c in FILE_PARSES])
def test_each_file_state_change_undone_parses_as_the_text_before_it(
        names: tuple[str, ...], input: str, base: str | None, today: Result,
        before: Result) -> None:
    assert _read(input, base) == today
    with undoing(names):
        assert _read(input, base) == before
    assert _read(input, base) == today


FILE_SETS: list[tuple[tuple[str, ...], str, str, str, tuple[str, str], tuple[str, str]]] = [
    # (variants undone, URL, setter, value, today, with those undone)
    # cf616f9 "Cleanup API for file and non-special URLs" (#97): hostname state, after: "If
    # state override is given and url's scheme is "file", then decrease pointer by one and set
    # state to file host state."; before, no such step: the host state's "If url is special
    # and buffer is the empty string, validation error, return failure" stopped host = "".
    ((variants.FILE_API_CLEANUP,), "file://h/x", "hostname", "",
     ("file:///x", "ran"), ("file://h/x", "failure")),
    # ... and localhost: the file host state's "If host is "localhost", then set host to the
    # empty string" was not reached (the host state set it as parsed)
    ((variants.FILE_API_CLEANUP,), "file://h/x", "host", "localhost",
     ("file:///x", "ran"), ("file://localhost/x", "ran")),
    # cf616f9, username setter, before: "If context object's url's host is null, or its
    # cannot-be-a-base-URL flag is set, terminate these steps."; after: "If context object's
    # url cannot have a username/password/port, then return." (host null or the empty string,
    # cannot-be-a-base-URL, or scheme "file"). The port setter already stopped for "file".
    ((variants.FILE_API_CLEANUP,), "file://h/x", "username", "u",
     ("file://h/x", "return"), ("file://u@h/x", "ran")),
    ((variants.FILE_API_CLEANUP,), "file://h/x", "port", "8",
     ("file://h/x", "return"), ("file://h/x", "return")),
    ((variants.FILE_API_CLEANUP,), "sc:///x", "port", "8",
     ("sc:///x", "return"), ("sc://:8/x", "ran")),
    # cf616f9, host state, after: "Otherwise, if state override is given, buffer is the empty
    # string, and either url includes credentials or url's port is non-null, syntax violation,
    # return." (c23aec1: return failure); before, no such step: the empty opaque host was set.
    ((variants.FILE_API_CLEANUP,), "sc://u@h/", "hostname", "",
     ("sc://u@h/", "failure"), ("sc://u@/", "ran")),
]


@pytest.mark.parametrize(("names", "url", "setter", "value", "today", "before"), FILE_SETS,
                         ids=[f"{'+'.join(c[0])}:{c[1]}.{c[2]}={c[3]}" for c in FILE_SETS])
def test_each_file_state_change_undone_sets_as_the_text_before_it(
        names: Iterable[str], url: str, setter: str, value: str, today: tuple[str, str],
        before: tuple[str, str]) -> None:
    assert _set(url, setter, value) == today
    with undoing(names):
        assert _set(url, setter, value) == before
    assert _set(url, setter, value) == today


def test_the_file_state_variants_each_have_a_case_and_sit_in_date_order() -> None:
    from urlcalc.history.commits import by_sha

    ours = ({n for c in FILE_PARSES for n in c[0]} | {n for c in FILE_SETS for n in c[0]}) - {
        variants.SERIALIZER_NULL_HOST_DOT_SEGMENT}  # (the serializer's: another block's)
    file_changes = {variants.FILE_STATE_WITHOUT_BASE, variants.FILE_API_CLEANUP,
                    variants.FILE_PATH_TRIM_LEADING_EMPTY, variants.FILE_PATH_NORMALIZATION,
                    variants.FILE_HOST_NEVER_NULL}
    assert file_changes <= ours
    # the states block stays oldest first with them in it
    block = [v for v in variants.VARIANTS
             if v.name in ours | {n for c in PARSES for n in c[0]} | {
                 n for c in SETS for n in c[0]} | {n for c in WITH_BASE for n in c[0]}]
    dates = [by_sha(v.commit)["date"] for v in block]
    assert dates == sorted(dates)


# --- 2015-2018: unknown schemes, userinfo encode sets, null passwords, non-special paths, the
# query's "&#N;" (each case quotes the text before and after its commit) ------------------------

PARSES_MORE: list[tuple[tuple[str, ...], str, str | None, Result, Result]] = [
    # (variants undone, input, base, today, with those undone)
    # b266a43 "Support relative URLs for unknown schemes" (bug 27233): scheme state, before:
    # "Otherwise, if url's relative flag is set, ... Otherwise, set state to scheme data
    # state": a scheme that is not special was followed by scheme data (appended code point by
    # code point, the simple encode set), "//" or not; after: "Otherwise, if remaining starts
    # with an "/", set state to path or authority state". No scheme state, before: "If base is
    # null, or base's scheme is not a special scheme and c is not "#", parse error, return
    # failure."
    ((variants.RELATIVE_URLS_UNKNOWN_SCHEMES,), "sc://h/a/../b", None,
     ("sc://h/b", []), ("sc://h/a/../b", [])),
    ((variants.RELATIVE_URLS_UNKNOWN_SCHEMES,), "x", "sc://h/a",
     ("sc://h/x", []), ("failure", ["missing-scheme-non-relative-URL"])),
    ((variants.RELATIVE_URLS_UNKNOWN_SCHEMES,), "#f", "sc://h/a",
     ("sc://h/a#f", []), ("sc://h/a#f", [])),
    # 9ca26e5 "Encode more code points for usernames and passwords" (#30): after, "The userinfo
    # encode set is the default encode set and code points "/", ":", ";", "=", "@", "[", "\\",
    # "]", "^", and "|""; before, "The password encode set is the default encode set and code
    # points "/", "@", and "\\"" and "The username encode set is the password encode set and
    # code point ":"": ; = [ ] | and a password's ":" were kept.
    ((variants.USERINFO_ENCODE_SET,), "sc://a;=[]|:b:;=[]|@h/", None,
     ("sc://a%3B%3D%5B%5D%7C:b%3A%3B%3D%5B%5D%7C@h/", ["invalid-credentials"]),
     ("sc://a;=[]|:b:;=[]|@h/", ["invalid-credentials"])),
    # ^: in the userinfo set since 9ca26e5, in the default (path) set only since 9bc33c3
    ((variants.USERINFO_ENCODE_SET, variants.PATH_PERCENT_ENCODE_CARET), "http://a^@h/", None,
     ("http://a%5E@h/", ["invalid-credentials"]), ("http://a^@h/", ["invalid-credentials"])),
    # 7876306 "Use the username and password encode sets within authority state" (#28): before,
    # "utf-8 percent encode code point using the default encode set and append the result to
    # url's password if url's password is non-null, and to url's username otherwise"; after,
    # the password and username encode sets ("/", "@" and "\\" besides): a non-special URL's
    # "\\" is userinfo. Undoing 9ca26e5 restores the text between the two; undoing both, the
    # default encode set; undoing 7876306 alone, today's (9ca26e5 rewrote that sentence).
    ((variants.USERINFO_ENCODE_SET,), "sc://a\\b:c\\d@h/", None,
     ("sc://a%5Cb:c%5Cd@h/", ["invalid-credentials"]),
     ("sc://a%5Cb:c%5Cd@h/", ["invalid-credentials"])),
    ((variants.USERINFO_ENCODE_SET, variants.AUTHORITY_USERNAME_PASSWORD_SETS),
     "sc://a\\b:c\\d@h/", None, ("sc://a%5Cb:c%5Cd@h/", ["invalid-credentials"]),
     ("sc://a\\b:c\\d@h/", ["invalid-credentials"])),
    ((variants.AUTHORITY_USERNAME_PASSWORD_SETS,), "sc://a\\b:c\\d@h/", None,
     ("sc://a%5Cb:c%5Cd@h/", ["invalid-credentials"]),
     ("sc://a%5Cb:c%5Cd@h/", ["invalid-credentials"])),
    # 5e0b05e "No need for null passwords" (#181, wpt#4405): URL serializer, before: "If url's
    # username is not the empty string or url's password is non-null, run these substeps: ...
    # If url's password is non-null, append ":", followed by url's password"; authority state,
    # before: "If codePoint is ":" and url's password is null, set url's password to the empty
    # string"; after: "If url includes credentials, then: ... If url's password is not the empty
    # string, then append ":", followed by url's password".
    ((variants.PASSWORD_NOT_NULLABLE,), "http://u:@h/", None,
     ("http://u@h/", ["invalid-credentials"]), ("http://u:@h/", ["invalid-credentials"])),
    ((variants.PASSWORD_NOT_NULLABLE,), "http://:@h/", None,
     ("http://h/", ["invalid-credentials"]), ("http://:@h/", ["invalid-credentials"])),
    ((variants.PASSWORD_NOT_NULLABLE,), "?x", "http://u:@h/a",
     ("http://u@h/a?x", []), ("http://u:@h/a?x", [])),
    # b087fe2 "Change path parsing for non-special URLs" (#212, wpt#4586): path start state,
    # before: "Set state to path state, and if neither c is "/", nor url is special and c is
    # "\\", decrease pointer by one" (the path state then appends the empty buffer: "sc://h"
    # had the path [""]); after: "Otherwise, if state override is not given and c is "?", then
    # set url's query to the empty string and state to query state" ... "Otherwise, if c is not
    # EOF code point, then: set state to path state ...". Relative slash state, before: "If
    # either c is "/", or url is special and c is "\\", ... Set state to special authority
    # ignore slashes state"; after: "Otherwise, if c is "/", then set state to authority
    # state."
    ((variants.NON_SPECIAL_PATH_PARSING,), "sc://h", None, ("sc://h", []), ("sc://h/", [])),
    ((variants.NON_SPECIAL_PATH_PARSING,), "sc://h?q", None,
     ("sc://h?q", []), ("sc://h/?q", [])),
    ((variants.NON_SPECIAL_PATH_PARSING,), "///x", "sc://h/a",
     ("sc:///x", []), ("sc://x/", ["special-scheme-missing-following-solidus"])),
    ((variants.NON_SPECIAL_PATH_PARSING,), "http://h", None, ("http://h/", []),
     ("http://h/", [])),
    # stacking: before b266a43 a non-special URL never reached the path start state
    ((variants.NON_SPECIAL_PATH_PARSING, variants.RELATIVE_URLS_UNKNOWN_SCHEMES), "sc://h",
     None, ("sc://h", []), ("sc://h", [])),
]


@pytest.mark.parametrize(("names", "input", "base", "today", "before"), PARSES_MORE,
                         ids=[f"{'+'.join(c[0])}:{c[1]}" for c in PARSES_MORE])
def test_more_changes_undone_parse_as_the_text_before_them(
        names: tuple[str, ...], input: str, base: str | None, today: Result,
        before: Result) -> None:
    assert _read(input, base) == today
    with undoing(names):
        assert _read(input, base) == before
    assert _read(input, base) == today


SETS_MORE: list[tuple[tuple[str, ...], str, str, str, tuple[str, str], tuple[str, str]]] = [
    # 9ca26e5, in "set the username" and "set the password": before, "utf-8 percent encode it
    # using the username encode set" (with ":") and "... the password encode set" (without)
    ((variants.USERINFO_ENCODE_SET,), "http://h/", "username", "a:b;",
     ("http://a%3Ab%3B@h/", "ran"), ("http://a%3Ab;@h/", "ran")),
    ((variants.USERINFO_ENCODE_SET,), "http://h/", "password", "a:b;",
     ("http://:a%3Ab%3B@h/", "ran"), ("http://:a:b;@h/", "ran")),
    # 7876306 changed the authority state only: the setters kept their sets
    ((variants.USERINFO_ENCODE_SET, variants.AUTHORITY_USERNAME_PASSWORD_SETS), "sc://h/",
     "password", "c\\d", ("sc://:c%5Cd@h/", "ran"), ("sc://:c%5Cd@h/", "ran")),
    # 5e0b05e, "set the password", before: "If password is the empty string, set url's
    # password to null. Otherwise, ...": "u:@h" kept its ":" until the username went too
    ((variants.PASSWORD_NOT_NULLABLE,), "http://u:@h/", "username", "",
     ("http://h/", "ran"), ("http://:@h/", "ran")),
    ((variants.PASSWORD_NOT_NULLABLE,), "http://u:p@h/", "password", "",
     ("http://u@h/", "ran"), ("http://u@h/", "ran")),
    # b087fe2: the pathname setter, emptying a non-special path (path start state override,
    # the EOF code point): before, the path state appended the empty segment
    ((variants.NON_SPECIAL_PATH_PARSING,), "sc://h/a", "pathname", "",
     ("sc://h", "ran"), ("sc://h/", "ran")),
]


@pytest.mark.parametrize(("names", "url", "setter", "value", "today", "before"), SETS_MORE,
                         ids=[f"{'+'.join(c[0])}:{c[1]}.{c[2]}={c[3]}" for c in SETS_MORE])
def test_more_changes_undone_set_as_the_text_before_them(
        names: Iterable[str], url: str, setter: str, value: str, today: tuple[str, str],
        before: tuple[str, str]) -> None:
    assert _set(url, setter, value) == today
    with undoing(names):
        assert _set(url, setter, value) == before
    assert _set(url, setter, value) == today


def test_the_query_writes_an_unencodable_code_point_as_bytes_before_f0e4390() -> None:
    # f0e4390 "Change query state slightly to better deal with non-UTF-8 encodings" (encoding
    # #139, wpt#10915): after, "If bytes starts with `&#` and ends with 0x3B (;), then: Replace
    # `&#` at the start of bytes with `%26%23`. Replace 0x3B (;) at the end of bytes with
    # `%3B`" (today percent-encode after encoding's "%26%23" ... "%3B"); before, "Set buffer to
    # the result of encoding buffer using encoding. For each byte in buffer: If byte is less
    # than 0x21 (!), greater than 0x7E (~), or is 0x22 ("), 0x23 (#), 0x3C (<), or 0x3E (>),
    # append byte, percent encoded": windows-1252 has no U+3042, encode writes "&#12354;", and
    # only its "#" was percent-encoded.
    from urlcalc.standard.parser import basic_url_parse

    def query(input: str, encoding: str) -> str | None:
        r = basic_url_parse(input, None, encoding)
        assert not isinstance(r, Exception)
        return r.query

    assert query("http://h/?a\u3042b", "windows-1252") == "a%26%2312354%3Bb"
    assert query("http://h/?\u3042\u3044", "ISO-2022-JP") == "%1B$B$%22$$%1B(B"
    with undoing([variants.QUERY_NCR_PERCENT_ENCODED]):
        assert query("http://h/?a\u3042b", "windows-1252") == "a&%2312354;b"
        assert query("sc://h/?a\u3042b", "windows-1252") == "a%E3%81%82b"  # UTF-8: step 1
    # stacking with 04f5bd0: before f0e4390 the buffer was encoded at once, as today; undoing
    # 04f5bd0 alone restores the text between the two (code point by code point)
    with undoing([variants.QUERY_BUFFERED]):
        assert query("http://h/?\u3042\u3044", "ISO-2022-JP") == "%1B$B$%22%1B(B%1B$B$$%1B(B"
        assert query("http://h/?a\u3042b", "windows-1252") == "a%26%2312354%3Bb"
    with undoing([variants.QUERY_BUFFERED, variants.QUERY_NCR_PERCENT_ENCODED]):
        assert query("http://h/?\u3042\u3044", "ISO-2022-JP") == "%1B$B$%22$$%1B(B"
        assert query("http://h/?a\u3042b", "windows-1252") == "a&%2312354;b"


TABS: list[tuple[str, Result, Result]] = [
    # 7b40216 "Fix #101: always strip U+0009, U+000A, and U+000D": after, basic URL parser:
    # "If input contains any tab and newline, syntax violation. Remove all tab and newline from
    # input."; before, no such steps: the host, hostname, port, file host, path and query
    # states read "Otherwise, if c is U+0009, U+000A, or U+000D, syntax violation" (the code
    # point skipped, one violation each), the fragment state "U+0000 U+0009 U+000A U+000D:
    # Syntax violation", the authority state's userinfo "If codePoint is U+0009, U+000A, or
    # U+000D, run these substeps for the next code point" (no violation), and the scheme state
    # met a tab as any code point that is not a scheme's: "Otherwise, if state override is not
    # given, set buffer to the empty string, state to no scheme state, and start over".
    # (input, today, with 7b40216 undone)
    ("java\nscript:alert(1)", ("javascript:alert(1)", ["invalid-URL-unit"]),
     ("failure", ["missing-scheme-non-relative-URL"])),
    ("http://h/a\t\tb", ("http://h/ab", ["invalid-URL-unit"]),
     ("http://h/ab", ["invalid-URL-unit", "invalid-URL-unit"])),
    ("http://u\t:p@h/?q\r#f\ng",
     ("http://u:p@h/?q#fg", ["invalid-URL-unit", "invalid-credentials"]),
     ("http://u:p@h/?q#fg", ["invalid-credentials", "invalid-URL-unit", "invalid-URL-unit"])),
    # the special authority slashes state, before: "If c is "/" and remaining starts with "/"":
    # remaining was "\t/h/"; the special authority ignore slashes state then passed the tab to
    # the authority state, and the host state met "/" with an empty buffer: failure
    ("http:/\t/h/", ("http://h/", ["invalid-URL-unit"]),
     ("failure", ["special-scheme-missing-following-solidus",
                  "special-scheme-missing-following-solidus", "invalid-URL-unit",
                  "host-missing"])),
]


@pytest.mark.parametrize(("input", "today", "before"), TABS, ids=[repr(c[0]) for c in TABS])
def test_tab_and_newline_state_by_state_before_7b40216(input: str, today: Result,
                                                        before: Result) -> None:
    assert _read(input) == today
    with undoing([variants.TAB_NEWLINE_STRIPPED]):
        assert _read(input) == before
    assert _read(input) == today


def test_tab_in_a_port_setter_before_7b40216() -> None:
    # port state, before: "Otherwise, if c is one of EOF code point, ... or state override is
    # given, run these substeps: ... If state override is given, terminate this algorithm.":
    # with a state override the tab ended the port (its own step came after that one)
    assert _set("http://h/", "port", "8\t1") == ("http://h:81/", "ran")
    with undoing([variants.TAB_NEWLINE_STRIPPED]):
        assert _set("http://h/", "port", "8\t1") == ("http://h:8/", "ran")
        assert _set("http://h/", "hash", "a\tb") == ("http://h/#ab", "ran")
