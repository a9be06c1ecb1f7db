"""urlcalc.standard.encoding: labels, output encodings, and the legacy encoders ("encode or
fail")."""

from __future__ import annotations

import pytest

from urlcalc.standard.encoding import (
    ENCODING_NAMES,
    LABELS,
    UTF_8,
    UnknownEncodingError,
    encode_or_fail_chunks,
    get_encoder,
    get_encoding,
    get_output_encoding,
)

# -- labels


def test_table_size() -> None:
    # Encoding Standard "Names and labels": 40 encodings, 228 labels.
    assert len(ENCODING_NAMES) == 40
    assert len(LABELS) == 228
    assert set(LABELS.values()) == set(ENCODING_NAMES)


@pytest.mark.parametrize("name", ENCODING_NAMES)
def test_lowercased_name_is_a_label(name: str) -> None:
    # Encoding Standard: "ASCII-lowercasing its name yields one of its labels".
    assert get_encoding(name.lower()) == name
    assert get_encoding(name) == name


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("latin1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("us-ascii", "windows-1252"),
        ("iso-8859-1", "windows-1252"),
        ("windows-1252", "windows-1252"),
        ("iso-8859-9", "windows-1254"),
        ("tis-620", "windows-874"),
        ("sjis", "Shift_JIS"),
        ("ms932", "Shift_JIS"),
        ("windows-31j", "Shift_JIS"),
        ("x-euc-jp", "EUC-JP"),
        ("csiso2022jp", "ISO-2022-JP"),
        ("gb2312", "GBK"),
        ("chinese", "GBK"),
        ("gb18030", "gb18030"),
        ("big5-hkscs", "Big5"),
        ("windows-949", "EUC-KR"),
        ("koi8-ru", "KOI8-U"),
        ("koi", "KOI8-R"),
        ("x-mac-ukrainian", "x-mac-cyrillic"),
        ("mac", "macintosh"),
        ("logical", "ISO-8859-8-I"),
        ("visual", "ISO-8859-8"),
        ("unicode11utf8", "UTF-8"),
        ("utf8", "UTF-8"),
        ("unicode-1-1-utf-8", "UTF-8"),
        ("utf-16", "UTF-16LE"),
        ("unicode", "UTF-16LE"),
        ("unicodefffe", "UTF-16BE"),
        ("hz-gb-2312", "replacement"),
        ("iso-2022-kr", "replacement"),
        ("replacement", "replacement"),
        ("x-user-defined", "x-user-defined"),
    ],
)
def test_labels(label: str, name: str) -> None:
    assert get_encoding(label) == name


@pytest.mark.parametrize(
    "label", ["  LATIN1", "Latin1\t\n", "\x0cUtF-8\r", " SHIFT_JIS ", "\tIso-2022-JP\n"]
)
def test_labels_case_and_whitespace_insensitive(label: str) -> None:
    assert get_encoding(label) == LABELS[label.strip(" \t\n\x0c\r").lower()]


@pytest.mark.parametrize(
    "label",
    [
        "",
        "utf-7",
        "latin-1",  # not a label (latin1 is)
        "utf_8",
        "shift jis",
        "x-sjis ",  # fine after stripping; checked below
        "\u00a0utf-8",  # U+00A0 is not ASCII whitespace
        "utf-8\u3000",
        "\u212aoi8-r",  # KELVIN SIGN must not lowercase to "k"
        "utf\u20108",
        "cp932",
        "euc-jp\x00",
    ],
)
def test_unknown_labels_raise(label: str) -> None:
    if label == "x-sjis ":
        assert get_encoding(label) == "Shift_JIS"
        return
    with pytest.raises(UnknownEncodingError) as info:
        get_encoding(label)
    assert isinstance(info.value, ValueError)
    assert info.value.label == label
    assert repr(label) in str(info.value)


def test_output_encoding() -> None:
    for label in ("replacement", "iso-2022-cn", "utf-16", "utf-16le", "UTF-16BE", "unicodefeff"):
        assert get_output_encoding(label) == UTF_8
    for name in ENCODING_NAMES:
        if name not in ("replacement", "UTF-16BE", "UTF-16LE"):
            assert get_output_encoding(name) == name
    assert get_output_encoding("sjis") == "Shift_JIS"
    with pytest.raises(UnknownEncodingError):
        get_output_encoding("nope")


@pytest.mark.parametrize("label", ["replacement", "utf-16be", "utf-16le", "csiso2022kr"])
def test_no_encoder(label: str) -> None:
    with pytest.raises(ValueError, match="get_output_encoding"):
        get_encoder(label)


def test_every_other_encoding_has_an_encoder() -> None:
    for name in ENCODING_NAMES:
        if name in ("replacement", "UTF-16BE", "UTF-16LE"):
            continue
        encoder = get_encoder(name)
        assert encoder.name == name
        # ASCII is ASCII in every encoder (ISO-2022-JP: outside its three escapes).
        assert encode_or_fail_chunks(name, "Az09 ~!") == [(b"Az09 ~!", None)]


# -- encoders


def encode(name: str, text: str) -> bytes | int:
    """The bytes for ``text``, or the first unencodable code point."""
    chunks = encode_or_fail_chunks(name, text)
    if chunks[0][1] is not None:
        return chunks[0][1]
    return chunks[0][0]


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        # single-byte
        ("windows-1252", "\u20ac", b"\x80"),
        ("windows-1252", "\u00e9\u00ff", b"\xe9\xff"),
        ("windows-1252", "\x81\x8d\x8f\x90\x9d", b"\x81\x8d\x8f\x90\x9d"),  # C1 identity
        ("windows-1252", "\u0100", 0x100),
        ("windows-1251", "\x98\u0416", b"\x98\xc6"),
        ("windows-874", "\x81\u0e01", b"\x81\xa1"),
        ("windows-1255", "\u05ba", b"\xca"),
        ("KOI8-U", "\u045e\u040e", b"\xae\xbe"),
        ("KOI8-U", "\u255d", 0x255D),
        ("KOI8-R", "\u255d", b"\xae"),
        ("ISO-8859-2", "\u00a2", 0xA2),
        ("ISO-8859-8-I", "\u05d0", b"\xe0"),
        ("macintosh", "\u00c4", b"\x80"),
        ("IBM866", "\u0410", b"\x80"),
        ("x-mac-cyrillic", "\u0410", b"\x80"),
        ("x-user-defined", "\uf780\uf7ff", b"\x80\xff"),
        ("x-user-defined", "\u00e9", 0xE9),
        # Shift_JIS
        ("Shift_JIS", "\u2261", b"\x81\xdf"),
        ("Shift_JIS", "\u2212", b"\x81\x7c"),  # U+2212 -> U+FF0D
        ("Shift_JIS", "\u00a5\u203e", b"\x5c\x7e"),
        ("Shift_JIS", "\x80", b"\x80"),
        ("Shift_JIS", "\uff61\uff9f", b"\xa1\xdf"),
        ("Shift_JIS", "\u2170", b"\xfa\x40"),  # pointers 8272-8835 excluded: IBM extension
        ("Shift_JIS", "\u65e5\u672c", b"\x93\xfa\x96\x7b"),
        ("Shift_JIS", "\u00a2", 0xA2),  # cp932's best fit, not WHATWG
        ("Shift_JIS", "\ue000", 0xE000),  # EUDC is decode-only
        ("Shift_JIS", "\u203d", 0x203D),
        # EUC-JP
        ("EUC-JP", "\u65e5", b"\xc6\xfc"),
        ("EUC-JP", "\u00a5\u203e", b"\x5c\x7e"),
        ("EUC-JP", "\uff76", b"\x8e\xb6"),
        ("EUC-JP", "\u2212", b"\xa1\xdd"),
        ("EUC-JP", "\u2170", b"\xfc\xf1"),  # first pointer: the NEC-selected row
        ("EUC-JP", "\u00a1", 0xA1),  # JIS X 0212 is decode-only
        # GBK and gb18030
        ("GBK", "\u20ac", b"\x80"),
        ("gb18030", "\u20ac", b"\xa2\xe3"),
        ("gb18030", "\u4e02", b"\x81\x40"),
        ("gb18030", "\u00a5", b"\x81\x30\x84\x36"),
        ("GBK", "\u00a5", 0xA5),
        ("gb18030", "\U0001f308", b"\x94\x39\xb0\x36"),
        ("GBK", "\U0001f308", 0x1F308),
        ("gb18030", "\ue5e5", 0xE5E5),
        ("GBK", "\ue5e5", 0xE5E5),
        ("gb18030", "\u3000", b"\xa1\xa1"),
        ("gb18030", "\u1e3f", b"\xa8\xbc"),
        ("GBK", "\u1e3f", b"\xa8\xbc"),
        ("gb18030", "\ue7c7", b"\x81\x35\xf4\x37"),
        ("GBK", "\ue7c7", 0xE7C7),
        # GB18030-2022 two-byte mappings.
        ("gb18030", "\ufe10\ufe11\ufe12\ufe19", b"\xa6\xd9\xa6\xdb\xa6\xda\xa6\xf3"),
        ("GBK", "\u9fb4\u9fbb", b"\xfe\x59\xfe\xa0"),
        ("gb18030", "\ue78d\ue864", b"\xa6\xd9\xfe\xa0"),  # gb18030 encoder step 5
        # Big5
        ("Big5", "\u4e00", b"\xa4\x40"),
        ("Big5", "\u20ac", b"\xa3\xe1"),
        ("Big5", "\u2027", b"\xa1\x45"),
        ("Big5", "\u2400\u2421", b"\xa3\xc0\xa3\xe0"),
        ("Big5", "\u2550\u255e\u2561\u256a", b"\xf9\xf9\xf9\xe9\xf9\xeb\xf9\xea"),  # last pointer
        ("Big5", "\u5341\u5345", b"\xa4\x51\xa4\xca"),
        ("Big5", "\u4edd", b"\xc6\xdf"),
        ("Big5", "\u00ca", 0xCA),  # HKSCS row 0x88: excluded from encoding
        ("Big5", "\u2020", 0x2020),
        ("Big5", "\u2022", 0x2022),
        # EUC-KR
        ("EUC-KR", "\u2020", b"\xa2\xd3"),
        ("EUC-KR", "\ud55c", b"\xc7\xd1"),
        ("EUC-KR", "\uac02", b"\x81\x41"),  # Unified Hangul Code extension
        ("EUC-KR", "\u00a5", 0xA5),
        # UTF-8
        ("UTF-8", "\u203d\U0001f308", "\u203d\U0001f308".encode()),
        ("UTF-8", "a\ud800b", b"a\xef\xbf\xbdb"),  # lone surrogate -> U+FFFD
    ],
)
def test_encoders(name: str, text: str, expected: bytes | int) -> None:
    assert encode(name, text) == expected


def test_chunks_resume_after_each_error() -> None:
    assert encode_or_fail_chunks("Shift_JIS", "a\u203db\u00a2\u00a2c") == [
        (b"a", 0x203D),
        (b"b", 0xA2),
        (b"", 0xA2),
        (b"c", None),
    ]
    assert encode_or_fail_chunks("windows-1252", "\u203d") == [(b"", 0x203D), (b"", None)]
    assert encode_or_fail_chunks("windows-1252", "") == [(b"", None)]
    assert encode_or_fail_chunks("UTF-8", "\u203d") == [(b"\xe2\x80\xbd", None)]


# -- ISO-2022-JP


@pytest.mark.parametrize(
    ("text", "chunks"),
    [
        ("", [(b"", None)]),
        ("a\\~", [(b"a\\~", None)]),
        ("\u00a5", [(b"\x1b(J\\\x1b(B", None)]),
        ("\u203e\\", [(b"\x1b(J~\x1b(B\\", None)]),
        ("a\u00a5b\u203e", [(b"a\x1b(J\\b~\x1b(B", None)]),
        ("\u65e5\u672c", [(b"\x1b$BF|K\\\x1b(B", None)]),
        ("\u65e5a", [(b"\x1b$BF|\x1b(Ba", None)]),
        ("\uff76", [(b"\x1b$B%+\x1b(B", None)]),  # halfwidth -> fullwidth katakana
        ("\u2212", [(b"\x1b$B!]\x1b(B", None)]),
        ("\x0eA", [(b"", 0xFFFD), (b"A", None)]),
        ("\x1b", [(b"", 0xFFFD), (b"", None)]),
        # Roman survives an error: the NCR is written in Roman; "\\" needs ESC ( B.
        ("\u00a5\u203d\\", [(b"\x1b(J\\", 0x203D), (b"\x1b(B\\", None)]),
        # jis0208 does not (step 11.1): ESC ( B comes before the error, so that its NCR is read
        # as ASCII; Chromium's encoder agrees (tests/browser/test_document_encoding.py).
        ("\u65e5\u203da", [(b"\x1b$BF|\x1b(B", 0x203D), (b"a", None)]),
        ("\u65e5\u203d\u65e5", [(b"\x1b$BF|\x1b(B", 0x203D), (b"\x1b$BF|\x1b(B", None)]),
        # In jis0208 state an ESC first switches back to ASCII, then fails.
        ("\u65e5\x0f", [(b"\x1b$BF|\x1b(B", 0xFFFD), (b"", None)]),
        ("\u00a5\x0e", [(b"\x1b(J\\", 0xFFFD), (b"\x1b(B", None)]),
    ],
)
def test_iso_2022_jp(text: str, chunks: list[tuple[bytes, int | None]]) -> None:
    assert encode_or_fail_chunks("ISO-2022-JP", text) == chunks


# index-iso-2022-jp-katakana.txt from the Encoding Standard (pointers 0-62).
KATAKANA_INDEX = [
    0x3002, 0x300C, 0x300D, 0x3001, 0x30FB, 0x30F2, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9,
    0x30E3, 0x30E5, 0x30E7, 0x30C3, 0x30FC, 0x30A2, 0x30A4, 0x30A6, 0x30A8, 0x30AA, 0x30AB,
    0x30AD, 0x30AF, 0x30B1, 0x30B3, 0x30B5, 0x30B7, 0x30B9, 0x30BB, 0x30BD, 0x30BF, 0x30C1,
    0x30C4, 0x30C6, 0x30C8, 0x30CA, 0x30CB, 0x30CC, 0x30CD, 0x30CE, 0x30CF, 0x30D2, 0x30D5,
    0x30D8, 0x30DB, 0x30DE, 0x30DF, 0x30E0, 0x30E1, 0x30E2, 0x30E4, 0x30E6, 0x30E8, 0x30E9,
    0x30EA, 0x30EB, 0x30EC, 0x30ED, 0x30EF, 0x30F3, 0x309B, 0x309C,
]


def test_iso_2022_jp_katakana_index() -> None:
    from urlcalc.standard.encoding import _ISO2022JP_KATAKANA

    assert list(_ISO2022JP_KATAKANA) == KATAKANA_INDEX
    for i, cp in enumerate(KATAKANA_INDEX):
        half = encode_or_fail_chunks("ISO-2022-JP", chr(0xFF61 + i))
        full = encode_or_fail_chunks("ISO-2022-JP", chr(cp))
        assert half == full
        assert half[0][0].startswith(b"\x1b$B")


def test_encoders_never_emit_for_surrogate_free_ascii_differently() -> None:
    # All 128 ASCII code points for the stateless encoders.
    text = "".join(map(chr, range(0x80)))
    for name in ("windows-1252", "Shift_JIS", "EUC-JP", "gb18030", "GBK", "Big5", "EUC-KR",
                 "x-user-defined", "KOI8-U"):
        assert encode_or_fail_chunks(name, text) == [(text.encode("ascii"), None)]
