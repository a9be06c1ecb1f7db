"""urlcalc.standard.urlencoded: application/x-www-form-urlencoded and URLSearchParams."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest
from cases import wpt_entries
from hypothesis import given
from hypothesis import strategies as st

from urlcalc.standard.encoding import UnknownEncodingError
from urlcalc.standard.urlencoded import (
    URLSearchParams,
    parse_urlencoded,
    parse_urlencoded_string,
    serialize_urlencoded,
)

# -- the parser


def _wpt_parser_cases() -> list[tuple[str, list[tuple[str, str]]]]:
    return [(case["input"], [(n, v) for n, v in case["output"]])
            for case in wpt_entries("urlencoded-parser-data.json")]


WPT_PARSER_CASES = _wpt_parser_cases()


def test_wpt_parser_cases_loaded() -> None:
    assert len(WPT_PARSER_CASES) == 35


@pytest.mark.parametrize(("text", "expected"), WPT_PARSER_CASES)
def test_wpt_urlencoded_parser(text: str, expected: list[tuple[str, str]]) -> None:
    assert parse_urlencoded_string(text) == expected
    assert parse_urlencoded(text.encode("utf-8")) == expected
    assert list(URLSearchParams(text)) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", []),
        (b"a=b=c", [("a", "b=c")]),
        (b"+=+", [(" ", " ")]),
        (b"%2B=%2b", [("+", "+")]),
        (b"a%26b=c%3Dd", [("a&b", "c=d")]),
        (b"\xff=\xc3\xa9", [("\ufffd", "\u00e9")]),
        (b"\xef\xbb\xbfa=b", [("\ufeffa", "b")]),  # "without BOM": the BOM stays
        (b"%ED%A0%80", [("\ufffd\ufffd\ufffd", "")]),  # UTF-8-encoded surrogate
        (b"%F0%9F%8C", [("\ufffd", "")]),  # truncated sequence: one U+FFFD
        (b"%C0%80", [("\ufffd\ufffd", "")]),  # overlong
        (b"%F4%90%80%80", [("\ufffd\ufffd\ufffd\ufffd", "")]),  # above U+10FFFF
    ],
)
def test_parser_bytes(data: bytes, expected: list[tuple[str, str]]) -> None:
    assert parse_urlencoded(data) == expected


def test_string_parser_converts_lone_surrogates() -> None:
    assert parse_urlencoded_string("a\ud800=\udc00") == [("a\ufffd", "\ufffd")]


def whatwg_utf8_decode(data: bytes) -> str:
    """Encoding Standard: the UTF-8 decoder in replacement mode, transcribed step by step."""
    out: list[str] = []
    code_point = needed = seen = 0
    lower, upper = 0x80, 0xBF
    i = 0
    while True:
        if i == len(data):
            if needed:
                out.append("\ufffd")
            return "".join(out)
        byte = data[i]
        i += 1
        if needed == 0:
            if byte <= 0x7F:
                out.append(chr(byte))
            elif 0xC2 <= byte <= 0xDF:
                needed, code_point = 1, byte & 0x1F
            elif 0xE0 <= byte <= 0xEF:
                if byte == 0xE0:
                    lower = 0xA0
                if byte == 0xED:
                    upper = 0x9F
                needed, code_point = 2, byte & 0xF
            elif 0xF0 <= byte <= 0xF4:
                if byte == 0xF0:
                    lower = 0x90
                if byte == 0xF4:
                    upper = 0x8F
                needed, code_point = 3, byte & 0x7
            else:
                out.append("\ufffd")
            continue
        if not lower <= byte <= upper:
            code_point = needed = seen = 0
            lower, upper = 0x80, 0xBF
            i -= 1  # prepend byte
            out.append("\ufffd")
            continue
        lower, upper = 0x80, 0xBF
        code_point = (code_point << 6) | (byte & 0x3F)
        seen += 1
        if seen == needed:
            out.append(chr(code_point))
            code_point = needed = seen = 0


@given(st.binary(max_size=24) | st.text(max_size=8).map(lambda s: s.encode()[:-1]))
def test_utf8_decode_without_bom_matches_the_encoding_standard(data: bytes) -> None:
    # The parser decodes each name with Python's "replace" handler; it must agree with the spec's
    # decoder on the number of U+FFFDs. "%" escaping keeps "&", "=" and "+" out of the way.
    escaped = "".join(f"%{b:02X}" for b in data).encode()
    assert parse_urlencoded(escaped) == ([(whatwg_utf8_decode(data), "")] if data else [])


# -- the serializer


@pytest.mark.parametrize(
    ("pairs", "expected"),
    [
        ([], ""),
        ([("", "")], "="),
        ([("a", "b")], "a=b"),
        ([("a", "b"), ("c", "d")], "a=b&c=d"),
        ([("a b", "c+d")], "a+b=c%2Bd"),
        ([("*-._", "~!'()")], "*-._=%7E%21%27%28%29"),
        ([("&=", "%")], "%26%3D=%25"),
        ([("\u00e9", "\U0001f308")], "%C3%A9=%F0%9F%8C%88"),
        ([("\ufeff", "\x00\x7f")], "%EF%BB%BF=%00%7F"),
        ([("a\ud800", "\udc00")], "a%EF%BF%BD=%EF%BF%BD"),
    ],
)
def test_serializer(pairs: list[tuple[str, str]], expected: str) -> None:
    assert serialize_urlencoded(pairs) == expected
    assert serialize_urlencoded(pairs).isascii()


def test_serializer_encodings() -> None:
    pairs = [("\u2261", "1+1 \u203d")]
    assert serialize_urlencoded(pairs, "Shift_JIS") == "%81%DF=1%2B1+%26%238253%3B"
    assert serialize_urlencoded(pairs, "sjis") == "%81%DF=1%2B1+%26%238253%3B"
    # get an output encoding: UTF-16 and replacement serialize as UTF-8.
    utf8 = serialize_urlencoded(pairs)
    assert utf8 == "%E2%89%A1=1%2B1+%E2%80%BD"
    for label in ("utf-16le", "UTF-16BE", "utf-16", "replacement", "iso-2022-kr"):
        assert serialize_urlencoded(pairs, label) == utf8
    with pytest.raises(UnknownEncodingError):
        serialize_urlencoded(pairs, "utf-7")


@given(st.lists(st.tuples(st.text(max_size=6), st.text(max_size=6)), max_size=4))
def test_serialize_then_parse_round_trips(pairs: list[tuple[str, str]]) -> None:
    usv = [tuple(s.encode("utf-8", "replace").decode("utf-8") for s in p) for p in pairs]
    assert parse_urlencoded_string(serialize_urlencoded(pairs)) == usv


# -- URLSearchParams: construction


def test_constructor_string() -> None:
    assert list(URLSearchParams()) == []
    assert list(URLSearchParams(None)) == []
    assert list(URLSearchParams("")) == []
    assert list(URLSearchParams("?")) == []
    assert list(URLSearchParams("a=b&c")) == [("a", "b"), ("c", "")]
    assert list(URLSearchParams("?a=b")) == [("a", "b")]
    assert list(URLSearchParams("??a=b")) == [("?a", "b")]  # only one "?" is removed
    assert list(URLSearchParams(" ?a=b")) == [(" ?a", "b")]
    assert list(URLSearchParams("a=b+c%20d")) == [("a", "b c d")]


def test_constructor_sequence() -> None:
    assert list(URLSearchParams([("a", "b"), ["c", "d"], ("a", "e")])) == [
        ("a", "b"), ("c", "d"), ("a", "e"),
    ]
    assert list(URLSearchParams([])) == []
    assert list(URLSearchParams(iter([("x", "y")]))) == [("x", "y")]
    assert list(URLSearchParams(p for p in [("g", "h")])) == [("g", "h")]
    # No percent-decoding or "+" handling for pairs.
    assert list(URLSearchParams([("a+b", "%20")])) == [("a+b", "%20")]


@pytest.mark.parametrize(
    "init",
    [
        [("a",)],
        [("a", "b", "c")],
        [()],
        [("a", "b"), ("c",)],
        ["ab"],  # a string is not a sequence here, even with 2 code points
        [b"ab"],
        [1],
    ],
)
def test_constructor_sequence_type_errors(init: Any) -> None:
    with pytest.raises(TypeError):
        URLSearchParams(init)


@pytest.mark.parametrize("init", [[("a", 1)], [(None, "b")], {"a": 1}, {1: "a"}, b"a=b", 42])
def test_constructor_rejects_non_strings(init: Any) -> None:
    with pytest.raises(TypeError):
        URLSearchParams(init)


def test_constructor_mapping() -> None:
    assert list(URLSearchParams({"key": "730d67"})) == [("key", "730d67")]
    assert str(URLSearchParams({"key": "730d67"})) == "key=730d67"
    ordered = OrderedDict([("b", "1"), ("a", "2")])
    assert list(URLSearchParams(ordered)) == [("b", "1"), ("a", "2")]
    # Record keys are unique after USVString conversion; the later value wins, in place.
    record = dict([("\ud800", "1"), ("x", "2"), ("\udc00", "3")])
    assert list(URLSearchParams(record)) == [
        ("\ufffd", "3"), ("x", "2"),
    ]


def test_constructor_copy() -> None:
    original = URLSearchParams("a=b&c=d")
    copy = URLSearchParams(original)
    assert list(copy) == list(original)
    copy.append("e", "f")
    assert list(original) == [("a", "b"), ("c", "d")]
    assert copy._url_object is None


def test_constructor_usv_conversion() -> None:
    assert list(URLSearchParams([("\ud800", "\udfff")])) == [("\ufffd", "\ufffd")]
    assert list(URLSearchParams([("\ud83c\udf08", "x")])) == [("\U0001f308", "x")]
    assert list(URLSearchParams("\ud800=1")) == [("\ufffd", "1")]


# -- URLSearchParams: methods


def test_size_and_len() -> None:
    params = URLSearchParams("a=1&b=2&a=3")
    assert params.size == 3
    assert len(params) == 3
    params.delete("a")
    assert params.size == len(params) == 1
    assert bool(URLSearchParams()) is False


def test_append() -> None:
    params = URLSearchParams()
    params.append("a", "b")
    params.append("a", "c")
    params.append("", "")
    params.append("\ud800", "\udc00x")
    assert list(params) == [("a", "b"), ("a", "c"), ("", ""), ("\ufffd", "\ufffdx")]
    with pytest.raises(TypeError):
        params.append("a", 1)  # type: ignore[arg-type]


def test_delete() -> None:
    params = URLSearchParams("a=1&b=2&a=3&a=1")
    params.delete("a", "1")
    assert list(params) == [("b", "2"), ("a", "3")]
    params.delete("a", "nope")
    assert list(params) == [("b", "2"), ("a", "3")]
    params.delete("a")
    assert list(params) == [("b", "2")]
    params.delete("missing")
    assert list(params) == [("b", "2")]
    params = URLSearchParams([("\ufffd", "x")])
    params.delete("\ud800")
    assert list(params) == []


def test_get_and_get_all() -> None:
    params = URLSearchParams("a=1&b=2&a=3&c")
    assert params.get("a") == "1"
    assert params.get("c") == ""
    assert params.get("z") is None
    assert params.get_all("a") == ["1", "3"]
    assert params.get_all("z") == []
    assert URLSearchParams([("\ufffd", "v")]).get("\udc00") == "v"


def test_has() -> None:
    params = URLSearchParams("a=1&b=2&a=3")
    assert params.has("a")
    assert not params.has("z")
    assert params.has("a", "3")
    assert not params.has("a", "2")
    assert params.has("b", "2")
    assert "a" in params
    assert "z" not in params
    assert 1 not in params


def test_set() -> None:
    params = URLSearchParams("a=1&b=2&a=3&c=4")
    params.set("a", "x")
    assert list(params) == [("a", "x"), ("b", "2"), ("c", "4")]
    params.set("d", "y")
    assert list(params) == [("a", "x"), ("b", "2"), ("c", "4"), ("d", "y")]
    params.set("\udfff", "\ud800")
    assert params.get("\ufffd") == "\ufffd"


def test_sort_is_stable() -> None:
    params = URLSearchParams("z=1&a=2&z=3&a=4&b=5&a=6")
    params.sort()
    assert list(params) == [("a", "2"), ("a", "4"), ("a", "6"), ("b", "5"), ("z", "1"),
                            ("z", "3")]


def test_sort_by_code_units() -> None:
    # A surrogate pair (0xD83C 0xDF08) sorts before U+FFFD in UTF-16, not after it.
    params = URLSearchParams([("\ufffd", "a"), ("\U0001f308", "b"), ("\ufffd", "c"),
                              ("\uffff", "d"), ("\U0001f308", "e"), ("z", "f"), ("", "g")])
    params.sort()
    assert list(params) == [("", "g"), ("z", "f"), ("\U0001f308", "b"), ("\U0001f308", "e"),
                            ("\ufffd", "a"), ("\ufffd", "c"), ("\uffff", "d")]
    # Prefixes first; code unit order, not code point order, across the BMP boundary.
    params = URLSearchParams("ab=1&a=2&\ufb03=3&\U00010000=4")
    params.sort()
    assert [name for name, _ in params] == ["a", "ab", "\U00010000", "\ufb03"]


def test_sort_example_from_the_spec() -> None:
    params = URLSearchParams("q=\U0001f3f3\ufe0f\u200d\U0001f308&key=e1f7bc78")
    params.sort()
    assert str(params) == "key=e1f7bc78&q=%F0%9F%8F%B3%EF%B8%8F%E2%80%8D%F0%9F%8C%88"


def test_iteration() -> None:
    params = URLSearchParams("a=1&b=2")
    assert list(params) == [("a", "1"), ("b", "2")]
    assert list(params.items()) == [("a", "1"), ("b", "2")]
    assert list(params.entries()) == [("a", "1"), ("b", "2")]
    assert list(params.keys()) == ["a", "b"]
    assert list(params.values()) == ["1", "2"]
    assert dict(params.items()) == {"a": "1", "b": "2"}


def test_iteration_is_live() -> None:
    # Like the IDL iterators: an index into the current list.
    params = URLSearchParams("a=1&b=2&c=3")
    seen = []
    for name, _ in params:
        seen.append(name)
        if name == "a":
            params.delete("a")  # "b" moves to index 0 and is skipped
    assert seen == ["a", "c"]
    params = URLSearchParams("a=1")
    seen = []
    for name, _ in params:
        seen.append(name)
        if len(seen) < 3:
            params.append(name + "+", "")
    assert seen == ["a", "a+", "a++"]


def test_str_and_repr() -> None:
    params = URLSearchParams("a=b c&d=~")
    assert str(params) == "a=b+c&d=%7E"
    assert params.to_string() == str(params)
    assert repr(params) == "URLSearchParams([('a', 'b c'), ('d', '~')])"
    assert str(URLSearchParams()) == ""


# -- URLSearchParams and its URL object


class FakeURL:
    def __init__(self) -> None:
        self.calls: list[str | None] = []

    def _update_query_from_search_params(self, query: str | None) -> None:
        self.calls.append(query)


def test_update_calls_the_url_object() -> None:
    url = FakeURL()
    params = URLSearchParams("a=b")
    assert url.calls == []
    params._url_object = url
    params.append("c", "d e")
    assert url.calls == ["a=b&c=d+e"]
    params.set("a", "~")
    params.sort()
    assert url.calls[-2:] == ["a=%7E&c=d+e", "a=%7E&c=d+e"]
    params.delete("a", "nope")
    assert url.calls[-1] == "a=%7E&c=d+e"
    params.delete("a")
    params.delete("c")
    # url.bs: "update" step 3: an empty serialization becomes null.
    assert url.calls[-2:] == ["c=d+e", None]
    count = len(url.calls)
    # Reads don't update; neither does _replace_list.
    params.get("a")
    params.has("a")
    params.get_all("a")
    list(params)
    str(params)
    params._replace_list([("x", "y")])
    assert len(url.calls) == count
    assert list(params) == [("x", "y")]
    params.sort()
    assert url.calls[-1] == "x=y"


def test_no_url_object_no_update() -> None:
    params = URLSearchParams("a=b")
    params.append("c", "d")
    params.sort()
    assert params._url_object is None
