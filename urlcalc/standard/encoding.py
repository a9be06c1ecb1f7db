"""The parts of the WHATWG Encoding Standard that the URL Standard uses.

* ``get_encoding(label)``: "get an encoding": every label of every encoding in the standard's
  "Names and labels" table, resolved to the encoding's name ("latin1" -> "windows-1252"). An unknown
  label raises ``UnknownEncodingError``; nothing falls back to UTF-8 behind the caller's back.
* ``get_output_encoding(encoding)``: replacement, UTF-16BE and UTF-16LE -> UTF-8.
* ``get_encoder(encoding)`` and ``encode_or_fail_chunks(encoding, text)``: the encoders, with the
  "encode or fail" hook that url.bs's "percent-encode after encoding" loops over.

How the encoders are built. The standard defines each legacy encoder as a small algorithm over
an *index* (a table of pointer -> code point). The indexes are not shipped here; they are read,
the first time an encoding is used, out of CPython's codec tables, and corrected where those
differ from the WHATWG index:

* single-byte encodings: the index is the Python codec's decoding of bytes 0x80-0xFF (windows-1252
  from ``cp1252``, KOI8-U from ``koi8_u``, macintosh from ``mac_roman``, x-mac-cyrillic from
  ``mac_cyrillic``, windows-874 from ``cp874``, ...). The WHATWG windows-* indexes map the bytes
  Microsoft leaves undefined in 0x80-0x9F to the C1 control of the same value; KOI8-U is the
  "KOI8-RU" variant (0xAE, 0xBE are Cyrillic short U); windows-1255 has U+05BA at 0xCA.
* Shift_JIS, EUC-JP and ISO-2022-JP: index jis0208 is ``cp932``'s decoding of every two-byte
  sequence outside the EUDC rows (identical to the WHATWG index); the encoder algorithms (the
  Shift_JIS pointer exclusion of 8272-8835, U+00A5 -> 0x5C, U+203E -> 0x7E, U+2212 -> U+FF0D,
  halfwidth katakana, ISO-2022-JP's ASCII/Roman/jis0208 states) are written out here.
* Big5: index Big5 is ``big5hkscs``'s decoding of lead bytes 0xA1-0xFE (the encoder never uses
  the HKSCS rows below 0xA1), corrected in ``_BIG5_INDEX_PATCHES``.
* gb18030 and GBK: Python's ``gb18030`` codec, corrected for the WHATWG deviations (U+E5E5,
  U+1E3F/U+E7C7, and the GB18030-2022 two-byte mappings), with "is GBK" turning every four-byte
  result into an error and U+20AC into 0x80.
* EUC-KR: Python's ``cp949`` codec, which encodes exactly as the WHATWG EUC-KR encoder.
* UTF-8 and x-user-defined are algorithmic.

Approximations: none known. When this module was written every encoder was compared, for every
scalar value, with an encoder built straight from the WHATWG indexes (the GB18030-2022 changes
applied by hand); all agreed. The result does depend on CPython's codec tables, which have not
changed in many years; ``tests/test_encoding.py`` pins the corrections and a sample of mappings.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from urlcalc.standard.infra import ASCII_WHITESPACE_CHARS, to_usv

__all__ = [
    "ENCODING_NAMES",
    "LABELS",
    "PYTHON_CODECS",
    "UTF_8",
    "Encoder",
    "UnknownEncodingError",
    "encode_or_fail_chunks",
    "get_encoder",
    "get_encoding",
    "get_output_encoding",
]

UTF_8 = "UTF-8"


class UnknownEncodingError(ValueError):
    """``get_encoding`` returned failure: ``label`` is not a label in the Encoding Standard."""

    def __init__(self, label: str) -> None:
        super().__init__(f"unknown encoding label: {label!r}")
        self.label = label


# Encoding Standard: "Names and labels", the table, in its order.
_ENCODINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The Encoding
    ("UTF-8", ("unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8",
               "x-unicode20utf8")),
    # Legacy single-byte encodings
    ("IBM866", ("866", "cp866", "csibm866", "ibm866")),
    ("ISO-8859-2", ("csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592",
                    "iso_8859-2", "iso_8859-2:1987", "l2", "latin2")),
    ("ISO-8859-3", ("csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593",
                    "iso_8859-3", "iso_8859-3:1988", "l3", "latin3")),
    ("ISO-8859-4", ("csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594",
                    "iso_8859-4", "iso_8859-4:1988", "l4", "latin4")),
    ("ISO-8859-5", ("csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5",
                    "iso88595", "iso_8859-5", "iso_8859-5:1988")),
    ("ISO-8859-6", ("arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic",
                    "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127",
                    "iso8859-6", "iso88596", "iso_8859-6", "iso_8859-6:1987")),
    ("ISO-8859-7", ("csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7",
                    "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "iso_8859-7:1987",
                    "sun_eu_greek")),
    ("ISO-8859-8", ("csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e",
                    "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "iso_8859-8:1988",
                    "visual")),
    ("ISO-8859-8-I", ("csiso88598i", "iso-8859-8-i", "logical")),
    ("ISO-8859-10", ("csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910", "l6",
                     "latin6")),
    ("ISO-8859-13", ("iso-8859-13", "iso8859-13", "iso885913")),
    ("ISO-8859-14", ("iso-8859-14", "iso8859-14", "iso885914")),
    ("ISO-8859-15", ("csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15",
                     "l9")),
    ("ISO-8859-16", ("iso-8859-16",)),
    ("KOI8-R", ("cskoi8r", "koi", "koi8", "koi8-r", "koi8_r")),
    ("KOI8-U", ("koi8-ru", "koi8-u")),
    ("macintosh", ("csmacintosh", "mac", "macintosh", "x-mac-roman")),
    ("windows-874", ("dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620",
                     "windows-874")),
    ("windows-1250", ("cp1250", "windows-1250", "x-cp1250")),
    ("windows-1251", ("cp1251", "windows-1251", "x-cp1251")),
    ("windows-1252", ("ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819",
                      "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1",
                      "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252")),
    ("windows-1253", ("cp1253", "windows-1253", "x-cp1253")),
    ("windows-1254", ("cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9",
                      "iso88599", "iso_8859-9", "iso_8859-9:1989", "l5", "latin5", "windows-1254",
                      "x-cp1254")),
    ("windows-1255", ("cp1255", "windows-1255", "x-cp1255")),
    ("windows-1256", ("cp1256", "windows-1256", "x-cp1256")),
    ("windows-1257", ("cp1257", "windows-1257", "x-cp1257")),
    ("windows-1258", ("cp1258", "windows-1258", "x-cp1258")),
    ("x-mac-cyrillic", ("x-mac-cyrillic", "x-mac-ukrainian")),
    # Legacy multi-byte Chinese (simplified) encodings
    ("GBK", ("chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk",
             "iso-ir-58", "x-gbk")),
    ("gb18030", ("gb18030",)),
    # Legacy multi-byte Chinese (traditional) encodings
    ("Big5", ("big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5")),
    # Legacy multi-byte Japanese encodings
    ("EUC-JP", ("cseucpkdfmtjapanese", "euc-jp", "x-euc-jp")),
    ("ISO-2022-JP", ("csiso2022jp", "iso-2022-jp")),
    ("Shift_JIS", ("csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis",
                   "windows-31j", "x-sjis")),
    # Legacy multi-byte Korean encodings
    ("EUC-KR", ("cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987",
                "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949")),
    # Legacy miscellaneous encodings
    ("replacement", ("csiso2022kr", "hz-gb-2312", "iso-2022-cn", "iso-2022-cn-ext", "iso-2022-kr",
                     "replacement")),
    ("UTF-16BE", ("unicodefffe", "utf-16be")),
    ("UTF-16LE", ("csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16",
                  "utf-16le")),
    ("x-user-defined", ("x-user-defined",)),
)

ENCODING_NAMES: tuple[str, ...] = tuple(name for name, _ in _ENCODINGS)
LABELS: Mapping[str, str] = MappingProxyType(
    {label: name for name, labels in _ENCODINGS for label in labels}
)


def get_encoding(label: str) -> str:
    """Encoding Standard: "get an encoding". Returns the encoding's name (e.g. "Shift_JIS")."""
    # Step 1: remove leading and trailing ASCII whitespace (not str.strip()'s Unicode whitespace).
    key = label.strip(ASCII_WHITESPACE_CHARS)
    # Step 2: ASCII case-insensitive match. Every label is ASCII, so a non-ASCII string can't match,
    # and str.lower() must not get the chance to fold e.g. U+212A KELVIN SIGN into "k".
    if key.isascii():
        name = LABELS.get(key.lower())
        if name is not None:
            return name
    raise UnknownEncodingError(label)


def get_output_encoding(encoding: str) -> str:
    """Encoding Standard: "get an output encoding". Takes an encoding name (or any label)."""
    name = get_encoding(encoding)
    # Step 1.
    if name in ("replacement", "UTF-16BE", "UTF-16LE"):
        return UTF_8
    # Step 2.
    return name


# ---------------------------------------------------------------------------------------------
# Encoders


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


class Encoder:
    """One instance of an encoding's encoder (Encoding Standard: "get an encoder").

    ``encode_or_fail(text, start)`` runs Encoding Standard "encode or fail" over the I/O queue
    ``text[start:]``: it returns the bytes output before the first error, the error's code point
    (None when the whole queue, end-of-queue included, was encoded), and the index to resume at.
    Keep the instance for the next call: the ISO-2022-JP encoder carries state across errors.
    """

    def __init__(self, name: str) -> None:
        self.name = name  # the encoding's name

    def encode_or_fail(self, text: str, start: int = 0) -> tuple[bytes, int | None, int]:
        raise NotImplementedError


class _UTF8Encoder(Encoder):
    def encode_or_fail(self, text: str, start: int = 0) -> tuple[bytes, int | None, int]:
        # Encoding Standard: "UTF-8 encoder"; it never returns error.
        return to_usv(text[start:]).encode("utf-8"), None, len(text)


class _StatelessEncoder(Encoder):
    """An encoder whose handler maps ASCII to itself and needs no state (all but ISO-2022-JP)."""

    def _encode(self, cp: int) -> bytes | None:
        """The handler for a non-ASCII code point: its bytes, or None for "error with cp"."""
        raise NotImplementedError

    def encode_or_fail(self, text: str, start: int = 0) -> tuple[bytes, int | None, int]:
        out = bytearray()
        pos, end = start, len(text)
        encode = self._encode
        while pos < end:
            match = _NON_ASCII.search(text, pos)
            if match is None:
                # Every remaining handler step 2: "If code point is an ASCII code point, return a
                # byte whose value is code point."
                out += text[pos:].encode("ascii")
                break
            at = match.start()
            if at > pos:
                out += text[pos:at].encode("ascii")
            cp = ord(text[at])
            pos = at + 1
            encoded = encode(cp)
            if encoded is None:
                return bytes(out), cp, pos
            out += encoded
        return bytes(out), None, end


class _XUserDefinedEncoder(_StatelessEncoder):
    def _encode(self, cp: int) -> bytes | None:
        # Encoding Standard: "x-user-defined encoder", steps 3 and 4.
        if 0xF780 <= cp <= 0xF7FF:
            return bytes((cp - 0xF780 + 0x80,))
        return None


# -- single-byte encodings

# Each single-byte encoding's index comes from this Python codec (see the module docstring).
_SINGLE_BYTE_CODECS: dict[str, str] = {
    "IBM866": "cp866",
    "ISO-8859-2": "iso8859_2",
    "ISO-8859-3": "iso8859_3",
    "ISO-8859-4": "iso8859_4",
    "ISO-8859-5": "iso8859_5",
    "ISO-8859-6": "iso8859_6",
    "ISO-8859-7": "iso8859_7",
    "ISO-8859-8": "iso8859_8",
    "ISO-8859-8-I": "iso8859_8",  # Encoding Standard: both use index ISO-8859-8.
    "ISO-8859-10": "iso8859_10",
    "ISO-8859-13": "iso8859_13",
    "ISO-8859-14": "iso8859_14",
    "ISO-8859-15": "iso8859_15",
    "ISO-8859-16": "iso8859_16",
    "KOI8-R": "koi8_r",
    "KOI8-U": "koi8_u",
    "macintosh": "mac_roman",
    "windows-874": "cp874",
    "windows-1250": "cp1250",
    "windows-1251": "cp1251",
    "windows-1252": "cp1252",
    "windows-1253": "cp1253",
    "windows-1254": "cp1254",
    "windows-1255": "cp1255",
    "windows-1256": "cp1256",
    "windows-1257": "cp1257",
    "windows-1258": "cp1258",
    "x-mac-cyrillic": "mac_cyrillic",
}

# Every Python codec the encoders below read their indexes from (the Pyodide boot snapshot looks
# them all up: urlcalc.answers.warmup).
PYTHON_CODECS: tuple[str, ...] = (*sorted(set(_SINGLE_BYTE_CODECS.values())), "gb18030", "cp949",
                                  "cp932", "big5hkscs")

# Where the WHATWG index (byte -> code point) differs from the Python codec's table, beyond the
# windows-* rule below.
_SINGLE_BYTE_PATCHES: dict[str, dict[int, int]] = {
    # index KOI8-U is KOI8-RU's: Belarusian/Uzbek short U instead of two box-drawing characters.
    "KOI8-U": {0xAE: 0x045E, 0xBE: 0x040E},
    # index windows-1255 maps 0xCA to U+05BA HEBREW POINT HOLAM HASER FOR VAV (cp1255: undefined).
    "windows-1255": {0xCA: 0x05BA},
}


@cache
def _single_byte_encode_table(name: str) -> dict[int, int]:
    """Code point -> byte for a single-byte encoding ("index pointer" = the first pointer)."""
    codec = _SINGLE_BYTE_CODECS[name]
    patches = _SINGLE_BYTE_PATCHES.get(name, {})
    table: dict[int, int] = {}
    for byte in range(0x80, 0x100):
        cp = patches.get(byte)
        if cp is None:
            try:
                cp = ord(bytes((byte,)).decode(codec))
            except UnicodeDecodeError:
                # The WHATWG windows-* indexes (windows-874 included) map what Microsoft leaves
                # undefined in 0x80-0x9F to the C1 control with the same value.
                if name.startswith("windows-") and byte < 0xA0:
                    cp = byte
                else:
                    continue
        table.setdefault(cp, byte)
    return table


class _SingleByteEncoder(_StatelessEncoder):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self._table = _single_byte_encode_table(name)

    def _encode(self, cp: int) -> bytes | None:
        # Encoding Standard: "single-byte encoder", steps 3-5.
        byte = self._table.get(cp)
        return None if byte is None else bytes((byte,))


# -- gb18030 and GBK

# GB18030-2022 moved these two-byte codes from Private Use code points to standard ones; the
# WHATWG index gb18030 follows it, CPython's codec (GB18030-2005) does not.
_GB18030_2022_TWO_BYTE: dict[int, bytes] = {
    0xFE10: b"\xa6\xd9", 0xFE12: b"\xa6\xda", 0xFE11: b"\xa6\xdb", 0xFE13: b"\xa6\xdc",
    0xFE14: b"\xa6\xdd", 0xFE15: b"\xa6\xde", 0xFE16: b"\xa6\xdf", 0xFE17: b"\xa6\xec",
    0xFE18: b"\xa6\xed", 0xFE19: b"\xa6\xf3", 0x9FB4: b"\xfe\x59", 0x9FB5: b"\xfe\x61",
    0x9FB6: b"\xfe\x66", 0x9FB7: b"\xfe\x67", 0x9FB8: b"\xfe\x6d", 0x9FB9: b"\xfe\x7e",
    0x9FBA: b"\xfe\x90", 0x9FBB: b"\xfe\xa0",
}  # (The old Private Use code points keep their bytes: gb18030 encoder step 5's table.)

# index gb18030 puts U+1E3F at 0xA8 0xBC and, via "index gb18030 ranges pointer" step 1, U+E7C7 at
# pointer 7457 (0x81 0x35 0xF4 0x37); CPython has the GB18030-2000 mapping, the other way round.
_GB18030_PATCHES: dict[int, bytes | None] = {
    **_GB18030_2022_TWO_BYTE,
    0x1E3F: b"\xa8\xbc",
    0xE7C7: b"\x81\x35\xf4\x37",
    # Encoding Standard: gb18030 encoder step 3: U+E5E5 is an error (0xA3 0xA0 decodes to U+3000).
    0xE5E5: None,
}
_GBK_PATCHES: dict[int, bytes | None] = {
    **_GB18030_PATCHES,
    # U+E7C7 has no two-byte pointer, so for GBK it is an error (gb18030 encoder step 8).
    0xE7C7: None,
    # gb18030 encoder step 4: "If is GBK is true and code point is U+20AC, return byte 0x80."
    0x20AC: b"\x80",
}


class _GB18030Encoder(_StatelessEncoder):
    def __init__(self, is_gbk: bool) -> None:
        super().__init__("GBK" if is_gbk else "gb18030")
        self._is_gbk = is_gbk
        self._patches = _GBK_PATCHES if is_gbk else _GB18030_PATCHES

    def _encode(self, cp: int) -> bytes | None:
        patches = self._patches
        if cp in patches:
            return patches[cp]
        try:
            encoded = chr(cp).encode("gb18030")
        except UnicodeEncodeError:  # pragma: no cover - gb18030 covers every scalar value
            return None
        # gb18030 encoder step 8: with is GBK, anything without a two-byte pointer is an error.
        if self._is_gbk and len(encoded) != 2:
            return None
        return encoded


# -- EUC-KR


class _EUCKREncoder(_StatelessEncoder):
    def _encode(self, cp: int) -> bytes | None:
        # Encoding Standard: "EUC-KR encoder", steps 3-7; index EUC-KR is Windows code page 949.
        try:
            return chr(cp).encode("cp949")
        except UnicodeEncodeError:
            return None


# -- index jis0208: Shift_JIS, EUC-JP, ISO-2022-JP


def _shift_jis_bytes(pointer: int) -> bytes:
    # Encoding Standard: Shift_JIS encoder, steps 9-13.
    lead = pointer // 188
    lead_offset = 0x81 if lead < 0x1F else 0xC1
    trail = pointer % 188
    offset = 0x40 if trail < 0x3F else 0x41
    return bytes((lead + lead_offset, trail + offset))


@cache
def _jis0208_pointers() -> tuple[dict[int, int], dict[int, int]]:
    """(index pointer, index Shift_JIS pointer): code point -> pointer in index jis0208."""
    first: dict[int, int] = {}
    shift_jis: dict[int, int] = {}
    for pointer in range(60 * 188):
        if 8836 <= pointer <= 10715:
            continue  # EUDC (Private Use), only ever produced by the Shift_JIS decoder.
        try:
            decoded = _shift_jis_bytes(pointer).decode("cp932")
        except UnicodeDecodeError:
            continue
        cp = ord(decoded)
        first.setdefault(cp, pointer)
        # "index Shift_JIS pointer" step 1: skip the NEC-selected IBM extensions, 8272-8835.
        if not 8272 <= pointer <= 8835:
            shift_jis.setdefault(cp, pointer)
    return first, shift_jis


# index ISO-2022-JP katakana: U+FF61..U+FF9F -> their NFKC forms, except that U+FF9E and U+FF9F
# map to U+309B and U+309C (the spacing sound marks) rather than the combining ones.
_ISO2022JP_KATAKANA: tuple[int, ...] = tuple(
    {0xFF9E: 0x309B, 0xFF9F: 0x309C}.get(cp, ord(unicodedata.normalize("NFKC", chr(cp))))
    for cp in range(0xFF61, 0xFFA0)
)


class _ShiftJISEncoder(_StatelessEncoder):
    def __init__(self) -> None:
        super().__init__("Shift_JIS")
        self._pointers = _jis0208_pointers()[1]

    def _encode(self, cp: int) -> bytes | None:
        # Encoding Standard: "Shift_JIS encoder".
        if cp == 0x80:  # step 2
            return b"\x80"
        if cp == 0xA5:  # step 3
            return b"\x5c"
        if cp == 0x203E:  # step 4
            return b"\x7e"
        if 0xFF61 <= cp <= 0xFF9F:  # step 5
            return bytes((cp - 0xFF61 + 0xA1,))
        pointer = self._pointers.get(0xFF0D if cp == 0x2212 else cp)  # steps 6-7
        if pointer is None:  # step 8
            return None
        return _shift_jis_bytes(pointer)


class _EUCJPEncoder(_StatelessEncoder):
    def __init__(self) -> None:
        super().__init__("EUC-JP")
        self._pointers = _jis0208_pointers()[0]

    def _encode(self, cp: int) -> bytes | None:
        # Encoding Standard: "EUC-JP encoder".
        if cp == 0xA5:  # step 3
            return b"\x5c"
        if cp == 0x203E:  # step 4
            return b"\x7e"
        if 0xFF61 <= cp <= 0xFF9F:  # step 5
            return bytes((0x8E, cp - 0xFF61 + 0xA1))
        pointer = self._pointers.get(0xFF0D if cp == 0x2212 else cp)  # steps 6-7
        if pointer is None:  # step 8
            return None
        return bytes((pointer // 94 + 0xA1, pointer % 94 + 0xA1))  # steps 9-11


_ASCII, _ROMAN, _JIS0208 = 0, 1, 2
_ESCAPES = {_ASCII: b"\x1b(B", _ROMAN: b"\x1b(J", _JIS0208: b"\x1b$B"}


class _ISO2022JPEncoder(Encoder):
    def __init__(self) -> None:
        super().__init__("ISO-2022-JP")
        self._pointers = _jis0208_pointers()[0]
        self._state = _ASCII  # "ISO-2022-JP encoder state", initially ASCII

    def encode_or_fail(self, text: str, start: int = 0) -> tuple[bytes, int | None, int]:
        # Encoding Standard: "ISO-2022-JP encoder". A "prepend code point to ioQueue" is a loop
        # iteration that doesn't advance ``pos``.
        out = bytearray()
        state = self._state
        pos, end = start, len(text)
        while True:
            if pos == end:
                # Steps 1-2: at end-of-queue, return to ASCII.
                if state != _ASCII:
                    out += _ESCAPES[_ASCII]
                    state = _ASCII
                self._state = state
                return bytes(out), None, end
            cp = ord(text[pos])
            if state != _JIS0208 and cp in (0x0E, 0x0F, 0x1B):
                # Step 3: error with U+FFFD (not the code point, to prevent escape injection).
                self._state = state
                return bytes(out), 0xFFFD, pos + 1
            if cp < 0x80:
                if state == _ASCII or (state == _ROMAN and cp not in (0x5C, 0x7E)):
                    out.append(cp)  # steps 4 and 5.1
                    pos += 1
                else:
                    out += _ESCAPES[_ASCII]  # step 6
                    state = _ASCII
                continue
            if cp in (0xA5, 0x203E):
                if state != _ROMAN:
                    out += _ESCAPES[_ROMAN]  # step 7
                    state = _ROMAN
                out.append(0x5C if cp == 0xA5 else 0x7E)  # steps 5.2, 5.3
                pos += 1
                continue
            if cp == 0x2212:  # step 8
                cp = 0xFF0D
            elif 0xFF61 <= cp <= 0xFF9F:  # step 9
                cp = _ISO2022JP_KATAKANA[cp - 0xFF61]
            pointer = self._pointers.get(cp)  # step 10
            if pointer is None:  # step 11
                if state == _JIS0208:
                    # 11.1: "restore code point to ioQueue, set ISO-2022-JP encoder state to
                    # ASCII, and return three bytes 0x1B 0x28 0x42" (the error's character
                    # reference is then read as ASCII, not as jis0208 pairs)
                    out += _ESCAPES[_ASCII]
                    state = _ASCII
                    continue
                self._state = state  # 11.2: "Return error with code point."
                return bytes(out), cp, pos + 1
            pos += 1
            if state != _JIS0208:  # step 12 (and the prepended code point's second run)
                out += _ESCAPES[_JIS0208]
                state = _JIS0208
            out += bytes((pointer // 94 + 0x21, pointer % 94 + 0x21))  # steps 13-15


# -- Big5

# index Big5 for lead bytes 0xA1-0xFE is big5hkscs's table except at these byte pairs (the
# HKSCS-2008 Python table prefers other code points there, or leaves the pair unmapped).
_BIG5_INDEX_PATCHES: dict[int, int] = {
    0xA145: 0x2027, 0xA14E: 0xFE51, 0xA1C2: 0x00AF, 0xA1E3: 0xFF5E, 0xA1F2: 0x2295,
    0xA1F3: 0x2299, 0xA241: 0x2215, 0xA242: 0xFE68, 0xA244: 0xFFE5, 0xA246: 0xFFE0,
    0xA247: 0xFFE1,
    # Control pictures U+2400-U+241F at 0xA3C0-0xA3DF, then U+2421 and the euro sign.
    **{0xA3C0 + i: 0x2400 + i for i in range(0x20)},
    0xA3E0: 0x2421, 0xA3E1: 0x20AC,
    # Duplicates of other pairs in index Big5 that the Python table leaves unmapped; several come
    # first (so the encoder uses them) or are the only place a code point is found.
    0xC6CF: 0x5EF4, 0xC6D3: 0x65E0, 0xC6D5: 0x7676, 0xC6D7: 0x96B6, 0xC6DE: 0x3003,
    0xC6DF: 0x4EDD, 0xFA5F: 0x5029, 0xFA66: 0x507D, 0xFABD: 0x5305, 0xFAC5: 0x5344,
    0xFAD5: 0x537F, 0xFB48: 0x5605, 0xFBB8: 0x5A77, 0xFBF3: 0x5E75, 0xFBF9: 0x5ED0,
    0xFC4F: 0x5F58, 0xFC6C: 0x60A4, 0xFCB9: 0x6490, 0xFCE2: 0x6674, 0xFCF1: 0x675E,
    0xFDB7: 0x6C9C, 0xFDB8: 0x6E1D, 0xFDBB: 0x6E2F, 0xFDF1: 0x716E, 0xFE52: 0x732A,
    0xFE6F: 0x745C, 0xFEAA: 0x74E9, 0xFEDD: 0x7809,
}
# "index Big5 pointer" step 2: these use the *last* pointer.
_BIG5_LAST_POINTER = frozenset((0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345))


@cache
def _big5_encode_table() -> dict[int, bytes]:
    table: dict[int, bytes] = {}
    # "index Big5 pointer" step 1: only pointers from (0xA1 - 0x81) × 157 on, i.e. lead >= 0xA1.
    # Lead-major, trail-minor order is pointer order.
    for lead in range(0xA1, 0xFF):
        for trail in (*range(0x40, 0x7F), *range(0xA1, 0xFF)):
            pair = bytes((lead, trail))
            cp = _BIG5_INDEX_PATCHES.get(lead << 8 | trail)
            if cp is None:
                try:
                    decoded = pair.decode("big5hkscs")
                except UnicodeDecodeError:
                    continue
                if len(decoded) != 1:
                    continue
                cp = ord(decoded)
            if cp in _BIG5_LAST_POINTER:
                table[cp] = pair
            else:
                table.setdefault(cp, pair)
    return table


class _Big5Encoder(_StatelessEncoder):
    def __init__(self) -> None:
        super().__init__("Big5")
        self._table = _big5_encode_table()

    def _encode(self, cp: int) -> bytes | None:
        # Encoding Standard: "Big5 encoder", steps 3-8 (the pointer arithmetic is in the table).
        return self._table.get(cp)


def get_encoder(encoding: str) -> Encoder:
    """Encoding Standard: "get an encoder", from an encoding name or label.

    Raises ``ValueError`` for replacement, UTF-16BE and UTF-16LE, which have no encoder (pass the
    encoding through ``get_output_encoding`` first), and ``UnknownEncodingError`` for unknown
    labels. Each call returns a fresh instance.
    """
    name = get_encoding(encoding)
    if name == UTF_8:
        return _UTF8Encoder(UTF_8)
    if name in _SINGLE_BYTE_CODECS:
        return _SingleByteEncoder(name)
    if name == "gb18030":
        return _GB18030Encoder(is_gbk=False)
    if name == "GBK":
        # Encoding Standard: "GBK encoder": gb18030's encoder with its is GBK set to true.
        return _GB18030Encoder(is_gbk=True)
    if name == "Big5":
        return _Big5Encoder()
    if name == "EUC-JP":
        return _EUCJPEncoder()
    if name == "ISO-2022-JP":
        return _ISO2022JPEncoder()
    if name == "Shift_JIS":
        return _ShiftJISEncoder()
    if name == "EUC-KR":
        return _EUCKREncoder("EUC-KR")
    if name == "x-user-defined":
        return _XUserDefinedEncoder("x-user-defined")
    # Encoding Standard: "get an encoder" step 1 asserts this doesn't happen.
    raise ValueError(f"{name} has no encoder; use get_output_encoding() first")


def encode_or_fail_chunks(encoding: str, text: str) -> list[tuple[bytes, int | None]]:
    """Run "encode or fail" over ``text`` until it is consumed, as url.bs's "percent-encode after
    encoding" step 7 does: a list of (encodeOutput, potentialError) pairs, one per iteration.

    Every pair but the last ends at an unencodable code point, given as an int; the last pair's
    error is None. The encoder instance is kept across iterations, so an ISO-2022-JP escape state
    carries over and the last pair ends back in ASCII. ``text`` should be a scalar value string.
    """
    encoder = get_encoder(encoding)
    chunks: list[tuple[bytes, int | None]] = []
    pos = 0
    while True:
        output, error, pos = encoder.encode_or_fail(text, pos)
        chunks.append((output, error))
        if error is None:
            return chunks
