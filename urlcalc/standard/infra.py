"""Infra Standard pieces the URL Standard leans on: code point classes, USVString conversion.

The code point classes are frozensets of one-character strings, for a bare ``c in SET`` on a hot
path; ``is_url_code_point`` takes a one-character string, and anything else (the empty string at
end of input, a longer string) is never a member, so a parser may pass its "EOF code point"
without special-casing it.
"""

from __future__ import annotations

ASCII_DIGITS: frozenset[str] = frozenset("0123456789")
ASCII_HEX_DIGITS: frozenset[str] = frozenset("0123456789ABCDEFabcdef")
ASCII_ALPHA: frozenset[str] = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
ASCII_ALPHANUMERIC: frozenset[str] = ASCII_ALPHA | ASCII_DIGITS
# Infra: "ASCII whitespace is U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, or U+0020 SPACE."
ASCII_WHITESPACE_CHARS = "\t\n\x0c\r "
# Infra: "A C0 control is a code point in the range U+0000 NULL to U+001F INFORMATION SEPARATOR ONE"
C0_CONTROLS: frozenset[str] = frozenset(chr(c) for c in range(0x20))
# url.bs: "URL code points", the ASCII part.
ASCII_URL_CODE_POINTS: frozenset[str] = ASCII_ALPHANUMERIC | frozenset("!$&'()*+,-./:;=?@_~")


def is_url_code_point(c: str) -> bool:
    """url.bs: "URL code points": ASCII alphanumeric, the listed ASCII punctuation, and U+00A0 to
    U+10FFFD, inclusive, excluding surrogates and noncharacters."""
    if c in ASCII_URL_CODE_POINTS:
        return True
    if len(c) != 1:
        return False
    cp = ord(c)
    if cp < 0xA0:
        return False
    return not (0xD800 <= cp <= 0xDFFF or 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE)


def plain_str(s: str) -> str:
    """``s`` as exactly ``str``: a ``str`` subclass (a ``Domain``, ``OpaqueHost`` or
    ``EmptyHost`` of urlcalc.standard.record, or a caller's own) becomes a plain string with the
    same code points; a plain string is returned as it is."""
    return s if type(s) is str else str.__str__(s)


def to_usv(s: str) -> str:
    """Convert ``s`` the way Web IDL converts a JavaScript string to a USVString.

    A Python ``str`` may hold surrogate code points; they are read as UTF-16 code units, so a high
    surrogate followed by a low one becomes the scalar value they encode, and every other surrogate
    becomes U+FFFD. The result is exactly ``str`` (a ``str`` subclass's code points, as a plain
    string); a plain string without surrogates is returned unchanged (and is not copied).
    """
    if type(s) is not str and isinstance(s, str):
        s = str.__str__(s)
    if s.isascii():
        return s
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return s
