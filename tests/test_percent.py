"""urlcalc.standard.percent: url.bs "Percent-encoded bytes"."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from cases import wpt_entries
from hypothesis import given
from hypothesis import strategies as st

from urlcalc.standard.encoding import UnknownEncodingError
from urlcalc.standard.percent import (
    C0_CONTROL_SET,
    COMPONENT_SET,
    ENCODE_SETS,
    FORM_URLENCODED_SET,
    FRAGMENT_SET,
    PATH_SET,
    QUERY_SET,
    SPECIAL_QUERY_SET,
    USERINFO_SET,
    PercentEncodeSet,
    contains_percent_encoded_byte,
    percent_decode,
    percent_decode_bytes,
    percent_encode_after_encoding,
    percent_encode_byte,
    utf8_percent_encode,
    utf8_percent_encode_code_point,
)

# -- the example table at the end of url.bs "Percent-encoded bytes"


def test_spec_examples_percent_encode_byte() -> None:
    assert percent_encode_byte(0x23) == "%23"
    assert percent_encode_byte(0x7F) == "%7F"
    assert percent_encode_byte(0xAB) == "%AB"  # upper hex
    for bad in (-1, 256):
        with pytest.raises(ValueError):
            percent_encode_byte(bad)


def test_spec_examples_percent_decode() -> None:
    assert percent_decode_bytes(b"%25%s%1G") == b"%%s%1G"
    assert percent_decode("\u203d%25%2E") == b"\xe2\x80\xbd\x25\x2e"


@pytest.mark.parametrize(
    ("text", "expected"),
    [(" ", "%20"), ("\u2261", "%81%DF"), ("\u203d", "%26%238253%3B")],
)
def test_spec_examples_shift_jis_special_query(text: str, expected: str) -> None:
    assert percent_encode_after_encoding("Shift_JIS", text, SPECIAL_QUERY_SET) == expected


def test_spec_examples_iso_2022_jp() -> None:
    assert percent_encode_after_encoding("ISO-2022-JP", "\u00a5", SPECIAL_QUERY_SET) == (
        "%1B(J\\%1B(B"
    )


def test_spec_examples_shift_jis_form() -> None:
    assert percent_encode_after_encoding("Shift_JIS", "1+1 \u2261 2%20\u203d",
                                         FORM_URLENCODED_SET) == (
        "1%2B1+%81%DF+2%2520%26%238253%3B"
    )


def test_spec_examples_utf8() -> None:
    assert utf8_percent_encode_code_point("\u2261", USERINFO_SET) == "%E2%89%A1"
    assert utf8_percent_encode_code_point("\u203d", USERINFO_SET) == "%E2%80%BD"
    assert utf8_percent_encode("Say what\u203d", USERINFO_SET) == "Say%20what%E2%80%BD"


# -- WPT percent-encoding.json


def _wpt_percent_cases() -> list[tuple[str, str, str]]:
    return [
        (encoding, case["input"], expected)
        for case in wpt_entries("percent-encoding.json")
        for encoding, expected in case["output"].items()
    ]


WPT_PERCENT_CASES = _wpt_percent_cases()


def test_wpt_percent_cases_loaded() -> None:
    assert len(WPT_PERCENT_CASES) == 16
    assert {enc for enc, _, _ in WPT_PERCENT_CASES} >= {
        "big5", "euc-kr", "utf-8", "windows-1252", "iso-2022-jp", "gb18030", "shift_jis",
        "iso-8859-2",
    }


@pytest.mark.parametrize(("encoding", "text", "expected"), WPT_PERCENT_CASES)
def test_wpt_percent_encoding(encoding: str, text: str, expected: str) -> None:
    assert percent_encode_after_encoding(encoding, text, SPECIAL_QUERY_SET) == expected


def test_unknown_encoding_label_raises() -> None:
    with pytest.raises(UnknownEncodingError):
        percent_encode_after_encoding("latin-1", "x", SPECIAL_QUERY_SET)
    with pytest.raises(ValueError, match="get_output_encoding"):
        percent_encode_after_encoding("utf-16le", "x", SPECIAL_QUERY_SET)


def test_labels_accepted() -> None:
    assert percent_encode_after_encoding(" SJIS", "\u2261", SPECIAL_QUERY_SET) == "%81%DF"
    assert percent_encode_after_encoding("utf8", "\u2261", SPECIAL_QUERY_SET) == "%E2%89%A1"


# -- percent-decode


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", b""),
        (b"abc", b"abc"),
        (b"%", b"%"),
        (b"%4", b"%4"),
        (b"%41", b"A"),
        (b"%4a%4A", b"JJ"),
        (b"%%41", b"%A"),
        (b"%%%", b"%%%"),
        (b"%zz", b"%zz"),
        (b"%4g", b"%4g"),
        (b"%g4", b"%g4"),
        (b"%+1", b"%+1"),  # int("+1", 16) would accept this; the spec doesn't
        (b"% 1", b"% 1"),
        (b"%_1", b"%_1"),
        (b"%2%41", b"%2A"),
        (b"%00%ff%FF", b"\x00\xff\xff"),
        (b"%e2%80%bd", b"\xe2\x80\xbd"),
        (b"a%2525b", b"a%25b"),  # one pass only
        (b"\xff%41\x80", b"\xffA\x80"),
    ],
)
def test_percent_decode_bytes(data: bytes, expected: bytes) -> None:
    assert percent_decode_bytes(data) == expected
    if data.isascii():
        assert percent_decode(data.decode("ascii")) == expected


def test_percent_decode_string() -> None:
    assert percent_decode("") == b""
    assert percent_decode("caf\u00e9%20") == b"caf\xc3\xa9 "
    assert percent_decode("%F0%9F%8C%88") == "\U0001f308".encode()
    assert percent_decode("\ud800%41") == b"\xef\xbf\xbdA"  # USVString conversion first


def reference_percent_decode(data: bytes) -> bytes:
    """url.bs: percent-decode a byte sequence, step by step."""
    hexdigits = b"0123456789ABCDEFabcdef"
    output = bytearray()
    i = 0
    while i < len(data):
        byte = data[i]
        following = data[i + 1:i + 3]
        if byte == 0x25 and len(following) == 2 and all(b in hexdigits for b in following):
            output.append(int(following, 16))
            i += 3
        else:
            output.append(byte)
            i += 1
    return bytes(output)


@given(st.binary(max_size=40) | st.text(alphabet="%0aAfFgG4+ ", max_size=20).map(str.encode))
def test_percent_decode_matches_the_spec_loop(data: bytes) -> None:
    assert percent_decode_bytes(data) == reference_percent_decode(data)


def test_contains_percent_encoded_byte() -> None:
    assert contains_percent_encoded_byte("a%2Fb")
    assert contains_percent_encoded_byte("%aa")
    assert not contains_percent_encoded_byte("100%")
    assert not contains_percent_encoded_byte("%2G%")
    assert not contains_percent_encoded_byte("")
    assert contains_percent_encoded_byte("%%20")


# -- the percent-encode sets


def spec_sets() -> dict[str, set[int]]:
    """The ASCII members of each set, transcribed from url.bs without using the module."""
    c0 = set(range(0x20)) | {0x7F}
    fragment = c0 | {0x20, 0x22, 0x3C, 0x3E, 0x60}
    query = c0 | {0x20, 0x22, 0x23, 0x3C, 0x3E}
    special_query = query | {0x27}
    path = query | {0x3F, 0x5E, 0x60, 0x7B, 0x7D}
    userinfo = path | {0x2F, 0x3A, 0x3B, 0x3D, 0x40, 0x5B, 0x5C, 0x5D, 0x7C}
    component = userinfo | {0x24, 0x25, 0x26, 0x2B, 0x2C}
    form = component | {0x21, 0x27, 0x28, 0x29, 0x7E}
    return {
        "C0 control percent-encode set": c0,
        "fragment percent-encode set": fragment,
        "query percent-encode set": query,
        "special-query percent-encode set": special_query,
        "path percent-encode set": path,
        "userinfo percent-encode set": userinfo,
        "component percent-encode set": component,
        "application/x-www-form-urlencoded percent-encode set": form,
    }


def test_encode_sets_registry() -> None:
    assert ENCODE_SETS == {
        "C0 control percent-encode set": C0_CONTROL_SET,
        "fragment percent-encode set": FRAGMENT_SET,
        "query percent-encode set": QUERY_SET,
        "special-query percent-encode set": SPECIAL_QUERY_SET,
        "path percent-encode set": PATH_SET,
        "userinfo percent-encode set": USERINFO_SET,
        "component percent-encode set": COMPONENT_SET,
        "application/x-www-form-urlencoded percent-encode set": FORM_URLENCODED_SET,
    }
    for name, encode_set in ENCODE_SETS.items():
        assert encode_set.name == name
        assert name in repr(encode_set)


@pytest.mark.parametrize("name", list(spec_sets()))
def test_encode_set_members(name: str) -> None:
    expected = spec_sets()[name]
    encode_set = ENCODE_SETS[name]
    assert {ord(c) for c in encode_set.ascii_members} == expected
    for cp in range(0x80):
        assert (cp in encode_set) == (cp in expected)
        assert (chr(cp) in encode_set) == (cp in expected)
    for cp in (0x7F, 0x80, 0xA0, 0xFFFD, 0x10FFFF):
        assert cp in encode_set
        assert chr(cp) in encode_set
    assert "" not in encode_set
    assert "ab" not in encode_set
    assert None not in encode_set


def test_form_set_note() -> None:
    # url.bs note: it "contains all code points, except the ASCII alphanumeric, U+002A (*),
    # U+002D (-), U+002E (.), and U+005F (_)".
    outside = {chr(cp) for cp in range(0x80) if chr(cp) not in FORM_URLENCODED_SET}
    assert outside == set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._"
    )


def test_percent_encode_set_validation() -> None:
    with pytest.raises(ValueError):
        PercentEncodeSet("bad", "\u00e9")
    custom = C0_CONTROL_SET.union("custom", "x")
    assert utf8_percent_encode("xyz", custom) == "%78yz"


# -- UTF-8 percent-encode


def reference_utf8_percent_encode(text: str, members: set[int]) -> str:
    out = []
    for byte in text.encode("utf-8", "replace"):
        if byte > 0x7E or byte in members:
            out.append(f"%{byte:02X}")
        else:
            out.append(chr(byte))
    return "".join(out)


@pytest.mark.parametrize("name", list(spec_sets()))
@given(text=st.text(max_size=30))
def test_utf8_percent_encode_matches_reference(name: str, text: str) -> None:
    members = spec_sets()[name]
    assert utf8_percent_encode(text, ENCODE_SETS[name]) == reference_utf8_percent_encode(
        text, members
    )
    assert "".join(utf8_percent_encode_code_point(c, ENCODE_SETS[name]) for c in text) == (
        reference_utf8_percent_encode(text, members)
    )
    assert percent_encode_after_encoding("UTF-8", text, ENCODE_SETS[name], False) == (
        reference_utf8_percent_encode(text, members)
    )


@given(text=st.text(max_size=30))
def test_component_set_is_encode_uri_component(text: str) -> None:
    # url.bs note: the component set with UTF-8 percent-encode equals encodeURIComponent().
    assert utf8_percent_encode(text, COMPONENT_SET) == quote(text, safe="!*'()~")


def test_utf8_percent_encode_returns_input_unchanged() -> None:
    text = "/a/b/c.html"
    assert utf8_percent_encode(text, PATH_SET) is text
    assert utf8_percent_encode("", PATH_SET) == ""
    assert utf8_percent_encode("a b", PATH_SET) == "a%20b"
    assert utf8_percent_encode("a\x7fb", C0_CONTROL_SET) == "a%7Fb"
    assert utf8_percent_encode("%", PATH_SET) == "%"
    assert utf8_percent_encode("%", COMPONENT_SET) == "%25"
    assert utf8_percent_encode("a\ud800b", PATH_SET) == "a%EF%BF%BDb"
    assert utf8_percent_encode("\ud83c\udf08", PATH_SET) == "%F0%9F%8C%88"


def test_utf8_percent_encode_code_point() -> None:
    assert utf8_percent_encode_code_point("a", PATH_SET) == "a"
    assert utf8_percent_encode_code_point(" ", PATH_SET) == "%20"
    assert utf8_percent_encode_code_point("\U0001f308", PATH_SET) == "%F0%9F%8C%88"
    assert utf8_percent_encode_code_point("\udc00", PATH_SET) == "%EF%BF%BD"
    for bad in ("", "ab"):
        with pytest.raises(ValueError):
            utf8_percent_encode_code_point(bad, PATH_SET)


# -- percent-encode after encoding


def test_space_as_plus() -> None:
    assert percent_encode_after_encoding("UTF-8", "a b", FORM_URLENCODED_SET) == "a+b"
    assert percent_encode_after_encoding("UTF-8", "a b", FORM_URLENCODED_SET, False) == "a%20b"
    assert percent_encode_after_encoding("UTF-8", "a b", SPECIAL_QUERY_SET) == "a%20b"
    assert percent_encode_after_encoding("UTF-8", "a b+", COMPONENT_SET, True) == "a+b%2B"
    assert percent_encode_after_encoding("windows-1252", "a b\u00e9", FORM_URLENCODED_SET) == (
        "a+b%E9"
    )


def test_non_utf8_encodings() -> None:
    pe = percent_encode_after_encoding
    assert pe("windows-1252", "\u20ac\u0100'", SPECIAL_QUERY_SET) == "%80%26%23256%3B%27"
    assert pe("windows-1252", "\u0100", FORM_URLENCODED_SET) == "%26%23256%3B"
    assert pe("GBK", "\u20ac\U0001f308", SPECIAL_QUERY_SET) == "%80%26%23127752%3B"
    assert pe("gb18030", "\U0001f308", SPECIAL_QUERY_SET) == "%949%B06"
    assert pe("EUC-KR", "\u2020", SPECIAL_QUERY_SET) == "%A2%D3"
    assert pe("x-user-defined", "\uf7c1A", SPECIAL_QUERY_SET) == "%C1A"
    # The NCR is written while ISO-2022-JP is still in Roman; ASCII needs ESC ( B afterwards.
    assert pe("ISO-2022-JP", "\u00a5\u203d\\", SPECIAL_QUERY_SET) == (
        "%1B(J\\%26%238253%3B%1B(B\\"
    )
    assert pe("ISO-2022-JP", "\x0e", SPECIAL_QUERY_SET) == "%26%2365533%3B"
    assert pe("Shift_JIS", "", SPECIAL_QUERY_SET) == ""
    assert pe("Shift_JIS", "a\ud800", SPECIAL_QUERY_SET) == "a%26%2365533%3B"
