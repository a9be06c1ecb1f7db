"""The standard without one change, for encode sets, serializers, setters, urlencoded, origin and
URL writing (issue 27, item 2): each undoable change in that area, an input taken from the
commit's own diff or message, and the results written from url.bs's text before and after the
change (quoted beside each case), not from the code.
"""

from __future__ import annotations

import pytest

from urlcalc.standard import variants
from urlcalc.standard.parser import basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.url import URL
from urlcalc.standard.urlencoded import URLSearchParams
from urlcalc.standard.validity import check
from urlcalc.standard.variants import undoing


def _base(s: str) -> URLRecord:
    r = basic_url_parse(s)
    assert isinstance(r, URLRecord)
    return r


def _valid(input: str, base: str | None = None) -> bool:
    return check(input, _base(base) if base is not None else None).valid


# --- URL writing: the valid URL string verdict ---------------------------------------------

WRITING = [
    # (variant, input, base, valid today, valid without the change)
    # 6ae8486 "Close more gaps between URL writing and parser sections": its message names
    # foo://:80, foo://h@x, foo://h:8x and //:80 (against https://, foo:// and file:// bases):
    # before, "a URL-scheme string ... followed by U+003A (:) and one of: a scheme-relative-URL
    # string, a path-absolute-URL string, or an opaque-path-URL string", so "//" fell back to a
    # path-absolute-URL string; after, "a path-absolute-non-authority-URL string ... that does
    # not start with two U+002F (/) code points".
    (variants.PATH_ABSOLUTE_NON_AUTHORITY, "foo://:80", None, False, True),
    (variants.PATH_ABSOLUTE_NON_AUTHORITY, "foo://h@x", None, False, True),
    (variants.PATH_ABSOLUTE_NON_AUTHORITY, "foo://h:8x", None, False, True),
    (variants.PATH_ABSOLUTE_NON_AUTHORITY, "//:80", "https://example.com/", False, True),
    (variants.PATH_ABSOLUTE_NON_AUTHORITY, "//:80", "foo://example.com/", False, True),
    # "Remove path-absolute-non-Windows-file-URL string. The parser accepts file://host/C:/demo
    # and /C:/path against file://server/tmp/": before, "a valid host string, optionally
    # followed by a path-absolute-non-Windows-file-URL string" ("a path-absolute-URL string
    # that does not start with: U+002F (/), followed by a Windows drive letter, followed by
    # U+002F (/)").
    (variants.PATH_ABSOLUTE_NON_AUTHORITY, "file://host/C:/demo", None, True, False),
    (variants.PATH_ABSOLUTE_NON_AUTHORITY, "/C:/path", "file://server/tmp/", True, False),
    # "The empty string against foo:opaque was valid by the grammar": before, "the empty
    # string, if base URL has an opaque path ... optionally followed by U+0023 (#) and a
    # URL-fragment string"; after, "U+0023 (#) followed by a URL-fragment string, if base URL
    # has an opaque path".
    (variants.PATH_ABSOLUTE_NON_AUTHORITY, "", "foo:opaque", False, True),
    # 24deb59 "a/b against foo:opaque was considered valid by the writing section": before, "a
    # relative-URL string, optionally followed by U+0023 (#) and a URL-fragment string" (for
    # scheme foo: "a path-relative-scheme-less-URL string").
    (variants.RELATIVE_WITH_FRAGMENT_OPAQUE_BASE, "a/b", "foo:opaque", False, True),
    # 1505976 "Path segments can be empty. E.g., https://example.com///this///is///fine. And
    # file:// can be followed by nothing": before, "A path-absolute-URL string must be U+002F
    # (/) followed by a path-relative-URL string" (which must "not start with U+002F (/)"), and
    # a scheme-relative-file-URL string "must be "//", followed by one of the following".
    (variants.PATH_SEGMENTS_CAN_BE_EMPTY, "https://example.com///this///is///fine", None,
     True, False),
    (variants.PATH_SEGMENTS_CAN_BE_EMPTY, "file://", None, True, False),
    # dbec293 "Introduce path-relative scheme-less URLs. And fix a bug for relative URLs when
    # the base URL's scheme is "file"": for a "file" base, "a path-relative URL" became "a
    # path-relative scheme-less URL" ("a path-relative URL that does not start with a scheme
    # and ":""), as it already was for other bases.
    (variants.PATH_RELATIVE_SCHEME_LESS, "http:x", "file:///tmp/", False, True),
    (variants.PATH_RELATIVE_SCHEME_LESS, "http:x", "https://example.com/", False, False),
    # f88f96f "Allow URLs without fragments" (#134, a regression of aedbc12): before, "An
    # absolute URL with fragment must be an absolute URL, followed by "#" and a fragment";
    # after, "optionally followed by".
    (variants.URL_WITHOUT_FRAGMENT, "https://example.com/", None, True, False),
    (variants.URL_WITHOUT_FRAGMENT, "https://example.com/#f", None, True, True),
    (variants.URL_WITHOUT_FRAGMENT, "../a", "https://example.com/b/c", True, False),
    # c1c2133 "Define upper limit of a URL-port string": before, "zero or more ASCII digits";
    # after, "one or more ASCII digits representing a decimal number no greater than
    # 2^16 - 1".
    (variants.URL_PORT_STRING_LIMIT, "https://example.com:65536/", None, False, True),
]


@pytest.mark.parametrize(("name", "input", "base", "today", "before"), WRITING,
                         ids=[f"{c[0]}:{c[1]!r}@{c[2]}" for c in WRITING])
def test_url_writing_without_the_change(name: str, input: str, base: str | None, today: bool,
                                        before: bool) -> None:
    assert _valid(input, base) is today
    with undoing([name]):
        assert _valid(input, base) is before
    assert _valid(input, base) is today


def test_url_writing_stacked_changes() -> None:
    # 6ae8486 rewrote the sentence 24deb59 had written: undoing 6ae8486 gives the text between
    # the two ("the empty string, if base URL has an opaque path"), undoing 24deb59 (or both)
    # the text before both (a relative-URL string, whatever the base).
    with undoing([variants.PATH_ABSOLUTE_NON_AUTHORITY]):
        assert _valid("", "foo:opaque") and _valid("#x", "foo:opaque")
        assert not _valid("a/b", "foo:opaque")
    for undone in ([variants.RELATIVE_WITH_FRAGMENT_OPAQUE_BASE],
                   [variants.RELATIVE_WITH_FRAGMENT_OPAQUE_BASE,
                    variants.PATH_ABSOLUTE_NON_AUTHORITY]):
        with undoing(undone):
            assert _valid("", "foo:opaque") and _valid("a/b", "foo:opaque")
    # 6ae8486's fallback from "//" to a path-absolute-URL string met 1505976's empty segments:
    # with 1505976 undone too, "//:80" is no path-absolute-URL string either ("/" followed by a
    # path-relative-URL string, which does not start with "/").
    with undoing([variants.PATH_ABSOLUTE_NON_AUTHORITY, variants.PATH_SEGMENTS_CAN_BE_EMPTY]):
        assert not _valid("foo://:80")
        assert not _valid("//:80", "https://example.com/")


# --- the URL serializer, origin --------------------------------------------------------------

GETTERS = [
    # (variant, input, getter, today, without the change)
    # 83adf0c "Non-special URLs were not idempotent": "If url's host is null, url's path's size
    # is greater than 1, and url's path[0] is the empty string, then append U+002F (/) followed
    # by U+002E (.) to output"; its note: "This prevents web+demo:/.//not-a-host/ or
    # web+demo:/path/..//not-a-host/ ... from ending up as web+demo://not-a-host/".
    (variants.SERIALIZER_NULL_HOST_DOT_SEGMENT, "web+demo:/.//not-a-host/", "href",
     "web+demo:/.//not-a-host/", "web+demo://not-a-host/"),
    (variants.SERIALIZER_NULL_HOST_DOT_SEGMENT, "web+demo:/path/..//not-a-host/", "href",
     "web+demo:/.//not-a-host/", "web+demo://not-a-host/"),
    # eee49fd "Return opaque origin for blob: URL containing inner non-http(s): URL": added "If
    # pathURL's scheme is not "http" and not "https", then return a new opaque origin" before
    # "Return pathURL's origin" (ftp and ws have tuple origins).
    (variants.BLOB_ORIGIN_HTTP_ONLY, "blob:ftp://example.com/", "origin", "null",
     "ftp://example.com"),
    (variants.BLOB_ORIGIN_HTTP_ONLY, "blob:ws://example.org/", "origin", "null",
     "ws://example.org"),
    # 7ae1c69 "Remove gopher case from origin algorithm": the switch lost "gopher" beside
    # "ftp", "http", "https", "ws", "wss" (return a tuple origin (scheme, host, port, null));
    # "the intention is that a gopher URL's origin would be opaque (null)".
    (variants.GOPHER_ORIGIN_REMOVED, "gopher://example.com/", "origin", "null",
     "gopher://example.com"),
    # 20c3257 "Make URL's origin return solely ASCII code points": before, the getter returned
    # "the Unicode serialization of context object's url's origin"; after, "the serialization".
    (variants.ORIGIN_ASCII_SERIALIZATION, "https://xn--n3h.example/", "origin",
     "https://xn--n3h.example", "https://\u2603.example"),
]


@pytest.mark.parametrize(("name", "input", "getter", "today", "before"), GETTERS,
                         ids=[f"{c[0]}:{c[1]}" for c in GETTERS])
def test_getters_without_the_change(name: str, input: str, getter: str, today: str,
                                    before: str) -> None:
    assert URL(input).getters()[getter] == today  # type: ignore[literal-required]
    with undoing([name]):
        assert URL(input).getters()[getter] == before  # type: ignore[literal-required]
    assert URL(input).getters()[getter] == today  # type: ignore[literal-required]


def test_blob_origins_stack() -> None:
    # fff33c3 let blob:file: through ("http", "https", or "file"); a file: URL's origin is an
    # opaque origin in urlcalc, so undoing eee49fd alone or with it reads blob:file: the same.
    with undoing([variants.BLOB_ORIGIN_HTTP_ONLY]):
        assert URL("blob:file:///x").origin == "null"
        assert URL("blob:https://a.example/x").origin == "https://a.example"


# --- setters and URLSearchParams ------------------------------------------------------------

SETTERS = [
    # (variant, input, setter, value, href today, href without the change)
    # 05ffaa6 "Change URL's port attribute's setter": "If the given value is the empty string,
    # then set url's port to null" (before, the value was basic URL parsed with the port state
    # override, which for the empty string returned with the port as it was: "Previously that
    # was a no-op").
    (variants.PORT_SETTER_EMPTY_STRING, "http://example.com:8080/", "port", "",
     "http://example.com/", "http://example.com:8080/"),
    # 4f1c2dd "Stop after setting an url's query to null": before, step 2 "set url's query to
    # null and empty ... list" without "and terminate these steps", so steps 3-5 set the query
    # to the empty string and parsed "" into it.
    (variants.SEARCH_SETTER_EMPTY_RETURNS, "http://example.com/?q", "search", "",
     "http://example.com/", "http://example.com/?"),
    # 4bf85a0 "Remove javascript URL special case from the API": the hash setter lost "If
    # context object's url's scheme is "javascript", then return".
    (variants.HASH_SETTER_JAVASCRIPT, "javascript:alert(1)", "hash", "x",
     "javascript:alert(1)#x", "javascript:alert(1)"),
]


@pytest.mark.parametrize(("name", "input", "setter", "value", "today", "before"), SETTERS,
                         ids=[f"{c[0]}:{c[1]}" for c in SETTERS])
def test_setters_without_the_change(name: str, input: str, setter: str, value: str,
                                    today: str, before: str) -> None:
    def after() -> str:
        u = URL(input)
        u.set(setter, value)
        return u.href

    assert after() == today
    with undoing([name]):
        assert after() == before
    assert after() == today


def test_search_params_update_without_removing_the_trailing_question_mark() -> None:
    # 4315826 "Remove trailing ? when updating URLSearchParams" (wpt issue 6540): after, "If
    # query is the empty string, then set query to null"; before, the query was set to the
    # serialization, the empty string.
    def after() -> str:
        u = URL("http://example.com/?a=b")
        u.search_params.delete("a")
        return u.href

    assert after() == "http://example.com/"
    with undoing([variants.SEARCH_PARAMS_UPDATE_NULL_QUERY]):
        assert after() == "http://example.com/?"
    assert after() == "http://example.com/"


def test_space_as_plus_without_continue() -> None:
    # 334966e "Fix handling of spaceAsPlus in percent-encode after encoding": "If spaceAsPlus
    # is true and byte is 0x20 (SP), then append U+002B (+) to output" gained "and continue";
    # before, the space went on to the isomorph steps and, being in the
    # application/x-www-form-urlencoded percent-encode set, was percent-encoded after the "+".
    def serialized() -> str:
        return URLSearchParams([("a b", "c d")]).to_string()

    assert serialized() == "a+b=c+d"
    with undoing([variants.SPACE_AS_PLUS_CONTINUE]):
        assert serialized() == "a+%20b=c+%20d"
        from urlcalc.standard.percent import FORM_URLENCODED_SET, percent_encode_after_encoding
        assert percent_encode_after_encoding("windows-1252", "a b", FORM_URLENCODED_SET,
                                             True) == "a+%20b"
    assert serialized() == "a+b=c+d"


# --- encode sets, origin tuples, the urlencoded parser, opaque paths through the API ------------

def test_braces_in_path_and_userinfo() -> None:
    # c296e2f "Encode { and } in username/password/path" (#16): the default encode set (the
    # path's) gained "{" (0x7B) and "}" (0x7D), and with it the username and password sets.
    def href(input: str) -> str:
        return URL(input).href

    assert href("http://example.com/{a}") == "http://example.com/%7Ba%7D"
    assert href("http://{u}:{p}@example.com/") == "http://%7Bu%7D:%7Bp%7D@example.com/"
    with undoing([variants.ENCODE_BRACES]):
        assert href("http://example.com/{a}") == "http://example.com/{a}"
        assert href("http://{u}:{p}@example.com/") == "http://{u}:{p}@example.com/"
        u = URL("http://example.com/")
        u.set("username", "{x}")
        assert u.href == "http://{x}@example.com/"
        # the ^ of 9bc33c3 is its own change: still encoded
        assert href("http://example.com/^{") == "http://example.com/%5E{"
    assert href("http://example.com/{a}") == "http://example.com/%7Ba%7D"


def test_origin_tuple_holds_the_default_port_without_b0e4def() -> None:
    # b0e4def "Align with origin changes in HTML": before, "Return a tuple consisting of URL's
    # scheme, its host, and its default port if its port is null, and its port otherwise";
    # after, "URL's scheme, URL's host, URL's port, and null". (Its serialization left the
    # default port out, then as now.)
    from urlcalc.model.results import parse_model

    def origin() -> tuple[object, object]:
        o = parse_model("http://example.com/", None)["origin"]
        assert o is not None
        return o["port"], o["serialized"]

    assert origin() == (None, "http://example.com")
    with undoing([variants.ORIGIN_TUPLE_URL_PORT]):
        assert origin() == (80, "http://example.com")
        assert URL("https://example.com:8443/").origin == "https://example.com:8443"
    assert origin() == (None, "http://example.com")


def test_urlencoded_parser_keeps_a_bom_since_3fe9696() -> None:
    # 3fe9696 "Parse application/x-www-form-urlencoded using UTF-8 only ... Make it clear that
    # decoding doesn't strip any BOM": "running decode on the percent decoding of the name and
    # value" became "running UTF-8 decode without BOM".
    def pairs() -> list[tuple[str, str]]:
        return list(URLSearchParams("%EF%BB%BFa=%EF%BB%BFb"))

    assert pairs() == [("\ufeffa", "\ufeffb")]
    with undoing([variants.URLENCODED_PARSE_UTF8_ONLY]):
        assert pairs() == [("a", "b")]
    assert pairs() == [("\ufeffa", "\ufeffb")]


def test_opaque_path_trailing_spaces_through_the_api() -> None:
    # fdaa0e5 "Ensure the API roundtrips for opaque paths" (wpt: data:space ?query): the search
    # setter's empty string, the hash setter's and URLSearchParams' update "potentially strip
    # trailing spaces from an opaque path". 6c78200 (2025, the states' variant
    # OPAQUE_PATH_SPACE_ROUNDTRIP) encoded the space as %20 in the opaque path state instead and
    # removed the stripping: with 6c78200 undone the text between the two strips; with both
    # undone, the text before both keeps the space.
    def after(input: str, setter: str) -> str:
        u = URL(input)
        if setter == "searchParams":
            u.search_params.delete("query")
        else:
            u.set(setter, "")
        return u.href

    cases = [("data:space ?query", "search"), ("sc:space #fragment", "hash"),
             ("data:space ?query", "searchParams")]
    for input, setter in cases:
        today = input.split(" ")[0] + "%20"  # the opaque path state's step 3.2: "%20"
        assert after(input, setter) == today
        with undoing([variants.API_OPAQUE_PATH_STRIP]):  # alone: today's text has no strip
            assert after(input, setter) == today
        with undoing([variants.OPAQUE_PATH_SPACE_ROUNDTRIP]):
            assert after(input, setter) == input.split(" ")[0], setter
        with undoing([variants.OPAQUE_PATH_SPACE_ROUNDTRIP, variants.API_OPAQUE_PATH_STRIP]):
            assert after(input, setter) == input.split(" ")[0] + " ", setter


def test_urlencoded_serializer_logic_error_of_a_day() -> None:
    # b174f8f (2016-02-09) rewrote the serializer's step for tuples: "If tuple has a type ...
    # isindex ..., append outputPair's value to output. Otherwise, if tuple is not the first
    # pair in tuples, append "&" to output. Otherwise, append outputPair's name, followed by
    # "=", followed by outputPair's value, to output." 052a89f (the next day, "Fix logic
    # errors") made the last two one "Otherwise" with both substeps. Before b174f8f: "If pair is
    # not the first pair in pairs, append "&" to output. Append outputPair's name, followed by
    # "=", followed by outputPair's value to output."
    def serialized() -> str:
        return URLSearchParams([("a", "1"), ("b", "2")]).to_string()

    assert serialized() == "a=1&b=2"
    with undoing([variants.URLENCODED_SERIALIZER_LOGIC]):
        assert serialized() == "a=1&"
    with undoing([variants.URLENCODED_SERIALIZER_TUPLES]):  # alone: no type passed, no change
        assert serialized() == "a=1&b=2"
    with undoing([variants.URLENCODED_SERIALIZER_LOGIC, variants.URLENCODED_SERIALIZER_TUPLES]):
        assert serialized() == "a=1&b=2"


def test_percent_encode_after_encoding_code_point_by_code_point_before_2ce4938() -> None:
    # 2ce4938 "Fix percent-encoding for ISO-2022-JP" (#557): after, "Let encoder be the result
    # of getting an encoder from encoding" once, and "encode or fail" over the whole input;
    # before, "For each codePoint of input: If spaceAsPlus is true and codePoint is U+0020,
    # then append U+002B (+) to output. Otherwise, run percent-encode after encoding with
    # encoding, codePoint, and percentEncodeSet": each code point encoded alone ("Let bytes be
    # the result of encoding codePoint using encoding"). ISO-2022-JP writes U+00A5 as ESC ( J
    # 0x5C and returns to ASCII with ESC ( B at the end: once for "¥¥" today, twice before.
    # (The commit's own table, "¥" alone with the special-query set, reads the same in both.)
    from urlcalc.standard.percent import (
        FORM_URLENCODED_SET,
        SPECIAL_QUERY_SET,
        percent_encode_after_encoding,
    )

    def encode(encoding: str, text: str, space_as_plus: bool = False) -> str:
        return percent_encode_after_encoding(
            encoding, text, FORM_URLENCODED_SET if space_as_plus else SPECIAL_QUERY_SET,
            space_as_plus)

    assert encode("ISO-2022-JP", "\u00a5") == "%1B(J\\%1B(B"
    assert encode("ISO-2022-JP", "\u00a5\u00a5") == "%1B(J\\\\%1B(B"
    # the table's Shift_JIS row: stateless, the same either way
    table = "1%2B1+%81%DF+2%2520%26%238253%3B"
    assert encode("Shift_JIS", "1+1 \u2261 2%20\u203d", True) == table
    with undoing([variants.PERCENT_ENCODE_ONE_ENCODER]):
        assert encode("ISO-2022-JP", "\u00a5") == "%1B(J\\%1B(B"
        assert encode("ISO-2022-JP", "\u00a5\u00a5") == "%1B(J\\%1B(B%1B(J\\%1B(B"
        assert encode("Shift_JIS", "1+1 \u2261 2%20\u203d", True) == table
        assert URLSearchParams([("a b", "c")]).to_string() == "a+b=c"
    # stacking: 334966e fixed the "+%20" that 2ce4938's byte loop brought; undoing both
    # restores the text before 2ce4938, where a space code point was "+" alone
    with undoing([variants.SPACE_AS_PLUS_CONTINUE]):
        assert encode("Shift_JIS", "a b", True) == "a+%20b"
        assert URLSearchParams([("a b", "c")]).to_string() == "a+%20b=c"
    with undoing([variants.SPACE_AS_PLUS_CONTINUE, variants.PERCENT_ENCODE_ONE_ENCODER]):
        assert encode("Shift_JIS", "a b", True) == "a+b"
        assert URLSearchParams([("a b", "c")]).to_string() == "a+b=c"
    assert encode("ISO-2022-JP", "\u00a5\u00a5") == "%1B(J\\\\%1B(B"
