"""url.bs "Percent-encoded bytes": percent-encode, percent-decode, and the percent-encode sets.

Every percent-encode set contains the C0 controls and every code point above U+007E, so a set is
stored as the ASCII code points it has beyond those, plus what the hot path needs, precomputed:

* a 256-entry table from a byte to its output ("%XX", or the byte's isomorph when that is not in
  the set), applied with ``str.translate`` to the UTF-8 bytes read as Latin-1;
* a compiled regular expression matching any member, so a string with nothing to encode comes
  back as the very same object after one C-level scan.
"""

from __future__ import annotations

import re

from urlcalc.standard.encoding import UTF_8, encode_or_fail_chunks, get_encoding
from urlcalc.standard.infra import ASCII_HEX_DIGITS, C0_CONTROLS, to_usv
from urlcalc.standard.variants import (
    AUTHORITY_USERNAME_PASSWORD_SETS,
    ENCODE_BRACES,
    PATH_PERCENT_ENCODE_CARET,
    PERCENT_ENCODE_ONE_ENCODER,
    SPACE_AS_PLUS_CONTINUE,
    USERINFO_ENCODE_SET,
    any_undone,
    undone,
)

__all__ = [
    "C0_CONTROL_SET",
    "COMPONENT_SET",
    "ENCODE_SETS",
    "FORM_URLENCODED_SET",
    "FRAGMENT_SET",
    "PATH_SET",
    "QUERY_SET",
    "SPECIAL_QUERY_SET",
    "USERINFO_SET",
    "PercentEncodeSet",
    "contains_percent_encoded_byte",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode_after_encoding",
    "percent_encode_byte",
    "percent_encode_bytes",
    "userinfo_set",
    "utf8_form_urlencode",
    "utf8_form_urlencode_2020",
    "utf8_percent_encode",
    "utf8_percent_encode_code_point",
]

# url.bs: "percent-encode" a byte: "%" followed by two ASCII upper hex digits.
_PERCENT_ENCODED: tuple[str, ...] = tuple(f"%{b:02X}" for b in range(256))


def percent_encode_byte(b: int) -> str:
    """url.bs: "percent-encode" a byte, e.g. 0x23 -> "%23"."""
    if not 0 <= b <= 0xFF:
        raise ValueError(f"not a byte: {b!r}")
    return _PERCENT_ENCODED[b]


class PercentEncodeSet:
    """A url.bs "percent-encode set".

    ``c in s`` takes a one-character string or an int code point. ``ascii_members`` holds the
    set's ASCII code points (the C0 controls, U+007F, and whatever the set adds); every code point
    above U+007E is a member too.
    """

    __slots__ = ("_pattern", "_plus_table", "_table", "ascii_members", "name")

    def __init__(self, name: str, extra: str | frozenset[str] = "") -> None:
        # url.bs: "C0 control percent-encode set": C0 controls and all code points above U+007E.
        members = C0_CONTROLS | {"\x7f"} | frozenset(extra)
        if any(len(c) != 1 or ord(c) > 0x7F for c in members):
            raise ValueError("a percent-encode set is given by its ASCII members")
        self.name = name
        self.ascii_members: frozenset[str] = members
        table = [_PERCENT_ENCODED[b] if b > 0x7F or chr(b) in members else chr(b)
                 for b in range(256)]
        self._table: list[str] = table
        plus = list(table)
        plus[0x20] = "+"  # url.bs: percent-encode after encoding, step 7.3.1 (spaceAsPlus)
        self._plus_table: list[str] = plus
        self._pattern: re.Pattern[str] | None = None  # compiled on first use (see _search)

    def _search(self, text: str) -> bool:
        """Does ``text`` hold a member of the set? (The regex is compiled on first use: compiling
        the eight sets' regexes at import would cost tens of ms of Pyodide's boot.)"""
        pattern = self._pattern
        if pattern is None:
            ascii_class = "".join(re.escape(c) for c in sorted(self.ascii_members - {"\x7f"}))
            pattern = self._pattern = re.compile(f"[{ascii_class}\\x7f-\\U0010ffff]")
        return pattern.search(text) is not None

    def union(self, name: str, extra: str) -> PercentEncodeSet:
        """A new set: this one plus the ASCII code points in ``extra``."""
        return PercentEncodeSet(name, self.ascii_members | frozenset(extra))

    def __contains__(self, c: object) -> bool:
        if isinstance(c, str):
            if len(c) != 1:
                return False
            cp = ord(c)
        elif isinstance(c, int):
            cp = c
        else:
            return False
        return cp > 0x7E or (cp >= 0 and chr(cp) in self.ascii_members)

    def __repr__(self) -> str:
        return f"<PercentEncodeSet {self.name!r}>"


C0_CONTROL_SET = PercentEncodeSet("C0 control percent-encode set")
FRAGMENT_SET = C0_CONTROL_SET.union("fragment percent-encode set", ' "<>`')
QUERY_SET = C0_CONTROL_SET.union("query percent-encode set", ' "#<>')
SPECIAL_QUERY_SET = QUERY_SET.union("special-query percent-encode set", "'")
PATH_SET = QUERY_SET.union("path percent-encode set", "?^`{}")
USERINFO_SET = PATH_SET.union("userinfo percent-encode set", "/:;=@[\\]|")
COMPONENT_SET = USERINFO_SET.union("component percent-encode set", "$%&+,")
FORM_URLENCODED_SET = COMPONENT_SET.union(
    "application/x-www-form-urlencoded percent-encode set", "!'()~"
)

# (variant: before c296e2f, the sets that encoded usernames and passwords did not hold U+007B ({)
# and U+007D (}); the path's is the path state's own check, beside its ^ one)
_USERINFO_SET_2015 = PercentEncodeSet("userinfo percent-encode set (before c296e2f)",
                                      USERINFO_SET.ascii_members - {"{", "}"})


def userinfo_set(password: bool = False, authority: bool = False) -> PercentEncodeSet:
    """The userinfo percent-encode set, for a username or (``password``) a password, in the
    authority state (``authority``) or a setter; while changes are undone, the set of the day
    (for the authority state's "@" branch and the username and password setters, both rare)."""
    if not any_undone():
        return USERINFO_SET
    # (variant 9ca26e5, userinfo-encode-set: before, "The password encode set is the default
    # encode set and code points "/", "@", and "\"" and "The username encode set is the
    # password encode set and code point ":""; 7876306, authority-username-password-sets:
    # before, the authority state used "the default encode set" (today's path percent-encode
    # set). Undoing 7876306 alone leaves today's text: 9ca26e5 rewrote its sentence.)
    if undone(USERINFO_ENCODE_SET):
        extra = "" if authority and undone(AUTHORITY_USERNAME_PASSWORD_SETS) else \
            "/@\\" if password else "/@\\:"
        return _userinfo_set_2015(extra, undone(ENCODE_BRACES), undone(PATH_PERCENT_ENCODE_CARET))
    return _USERINFO_SET_2015 if undone(ENCODE_BRACES) else USERINFO_SET


_SETS_2015: dict[tuple[str, bool, bool], PercentEncodeSet] = {}


def _userinfo_set_2015(extra: str, no_braces: bool, no_caret: bool) -> PercentEncodeSet:
    """The default encode set (today's path percent-encode set; without { and } before
    c296e2f, without ^ before 9bc33c3) and ``extra``: the username, password or default encode
    set of 2015."""
    key = (extra, no_braces, no_caret)
    found = _SETS_2015.get(key)
    if found is None:
        members = (PATH_SET.ascii_members | frozenset(extra)) - frozenset(
            ("{}" if no_braces else "") + ("^" if no_caret else ""))
        name = {"": "default encode set", "/@\\": "password encode set"}.get(
            extra, "username encode set")
        found = _SETS_2015[key] = PercentEncodeSet(f"{name} (2015)", members)
    return found


ENCODE_SETS: dict[str, PercentEncodeSet] = {
    s.name: s
    for s in (C0_CONTROL_SET, FRAGMENT_SET, QUERY_SET, SPECIAL_QUERY_SET, PATH_SET, USERINFO_SET,
              COMPONENT_SET, FORM_URLENCODED_SET)
}


def _utf8_bytes(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # Not a scalar value string: convert it as Web IDL would before encoding.
        return to_usv(text).encode("utf-8")


def utf8_percent_encode(text: str, encode_set: PercentEncodeSet) -> str:
    """url.bs: "UTF-8 percent-encode" a string using a percent-encode set.

    Returns ``text`` itself when it contains nothing in ``encode_set``.
    """
    if not encode_set._search(text):
        return text
    if text.isascii():
        # ASCII: each code point is its own UTF-8 byte.
        return text.translate(encode_set._table)
    # url.bs: percent-encode after encoding, steps 7.3.2-7.3.5 for each UTF-8 byte; reading the
    # bytes as Latin-1 makes each byte one code point for str.translate.
    return _utf8_bytes(text).decode("latin-1").translate(encode_set._table)


def utf8_percent_encode_code_point(c: str, encode_set: PercentEncodeSet) -> str:
    """url.bs: "UTF-8 percent-encode" a code point (a one-character string)."""
    if len(c) != 1:
        raise ValueError(f"expected a single code point, got {c!r}")
    cp = ord(c)
    if cp < 0x80:
        return encode_set._table[cp]
    return _utf8_bytes(c).decode("latin-1").translate(encode_set._table)


def percent_encode_after_encoding(
    encoding: str,
    text: str,
    encode_set: PercentEncodeSet,
    space_as_plus: bool | None = None,
) -> str:
    """url.bs: "percent-encode after encoding".

    ``encoding`` is an encoding name or label. ``space_as_plus`` defaults to the spec's rule (true
    exactly for the application/x-www-form-urlencoded percent-encode set). The spec asserts that a
    non-UTF-8 encoding only comes with the special-query or form-urlencoded set; that is left to
    the caller. Encodings without an encoder (replacement, UTF-16BE/LE) raise ``ValueError``; pass
    them through ``get_output_encoding`` first.
    """
    # Step 2.
    if space_as_plus is None:
        space_as_plus = encode_set is FORM_URLENCODED_SET
    table = encode_set._plus_table if space_as_plus else encode_set._table
    # (variant: before 334966e, step 7.3.1 appended "+" and did not continue: the space went on
    # to steps 7.3.2-7.3.5 and, in the set, was percent-encoded too; before 2ce4938, which
    # brought that step, a space code point was "+" alone)
    if space_as_plus and undone(SPACE_AS_PLUS_CONTINUE) \
            and not undone(PERCENT_ENCODE_ONE_ENCODER):
        table = _space_as_plus_table_2020(encode_set)
    # Step 3 (the encoder itself is made in encode_or_fail_chunks).
    name = UTF_8 if encoding == UTF_8 else get_encoding(encoding)
    if name == UTF_8:
        # UTF-8 never fails, so step 7 runs once; same result as utf8_percent_encode, plus "+".
        if not space_as_plus and not encode_set._search(text):
            return text
        data = text if text.isascii() else _utf8_bytes(text).decode("latin-1")
        return data.translate(table)
    # (variant 2ce4938, percent-encode-one-encoder: before, "For each codePoint of input": each
    # code point encoded alone, by an encoder of its own; UTF-8 gives the same either way)
    if undone(PERCENT_ENCODE_ONE_ENCODER):
        return _percent_encode_code_points_2020(name, text, encode_set, space_as_plus)
    # Steps 4-7: each chunk is one iteration of the step 7 loop.
    output: list[str] = []
    for encode_output, potential_error in encode_or_fail_chunks(name, to_usv(text)):
        # Steps 7.3.1-7.3.5.
        output.append(encode_output.decode("latin-1").translate(table))
        # Step 7.4.
        if potential_error is not None:
            output.append(f"%26%23{potential_error}%3B")
    # Step 8.
    return "".join(output)


def percent_encode_bytes(data: bytes, encode_set: PercentEncodeSet) -> str:
    """url.bs: percent-encode after encoding, steps 7.3.2-7.3.5, for each byte of ``data``: its
    isomorph when that is not in ``encode_set``, otherwise the byte percent-encoded."""
    return data.decode("latin-1").translate(encode_set._table)


def _percent_encode_code_points_2020(encoding: str, text: str, encode_set: PercentEncodeSet,
                                     space_as_plus: bool) -> str:
    """"percent-encode after encoding" (string) before 2ce4938 "Fix percent-encoding for
    ISO-2022-JP" (2020): "For each codePoint of input: If spaceAsPlus is true and codePoint is
    U+0020, then append U+002B (+) to output. Otherwise, run percent-encode after encoding
    [code point]": the code point encoded alone ("bytes"); "&#" bytes ending in ";" (an
    unencodable code point) became "%26%23", the number and "%3B"; each other byte as today."""
    output: list[str] = []
    for c in to_usv(text):
        if space_as_plus and c == " ":
            output.append("+")
            continue
        for encode_output, potential_error in encode_or_fail_chunks(encoding, c):
            output.append(percent_encode_bytes(encode_output, encode_set))
            if potential_error is not None:
                output.append(f"%26%23{potential_error}%3B")
    return "".join(output)


def _space_as_plus_table_2020(encode_set: PercentEncodeSet) -> list[str]:
    """The byte table of "percent-encode after encoding" with spaceAsPlus before 334966e: a
    space appended "+" and then its own percent-encoding when the set holds it."""
    table = list(encode_set._table)
    table[0x20] = "+" + table[0x20] if table[0x20] != " " else "+ "
    return table


def utf8_form_urlencode_2020(text: str) -> str:
    """``utf8_form_urlencode`` before 334966e (a space became "+%20")."""
    data = text if text.isascii() else _utf8_bytes(text).decode("latin-1")
    return data.translate(_space_as_plus_table_2020(FORM_URLENCODED_SET))


def utf8_form_urlencode(text: str) -> str:
    """``percent_encode_after_encoding("UTF-8", text, FORM_URLENCODED_SET, True)``, for the
    application/x-www-form-urlencoded serializer's names and values (url.bs: serializer, steps
    3.2-3.3 with UTF-8): the same steps without the per-call dispatch, since the maximal setter
    chain (64 searchParams.sort over 16,000 pairs) serializes two million of them."""
    data = text if text.isascii() else _utf8_bytes(text).decode("latin-1")
    return data.translate(_FORM_PLUS_TABLE)


_FORM_PLUS_TABLE = FORM_URLENCODED_SET._plus_table


# url.bs: "percent-decode" a byte sequence, step 2.2: "%" not followed by two ASCII hex digits is
# kept as is. A left-to-right regex scan that resumes one byte later after a failed match is the
# spec's loop: "%%41" -> "%A".
_PERCENT_HEX = re.compile(rb"%([0-9A-Fa-f]{2})")
_PERCENT_HEX_STR = re.compile(r"%[0-9A-Fa-f]{2}")
_HEX_PAIR_TO_BYTE: dict[bytes, bytes] = {
    (a + b).encode("ascii"): bytes((int(a + b, 16),))
    for a in ASCII_HEX_DIGITS
    for b in ASCII_HEX_DIGITS
}


def _decode_match(m: re.Match[bytes]) -> bytes:
    # Steps 2.3.1-2.3.3.
    return _HEX_PAIR_TO_BYTE[m.group(1)]


def percent_decode_bytes(data: bytes) -> bytes:
    """url.bs: "percent-decode" a byte sequence, e.g. b"%25%s%1G" -> b"%%s%1G"."""
    if b"%" not in data:
        return bytes(data)
    return _PERCENT_HEX.sub(_decode_match, data)


def percent_decode(s: str) -> bytes:
    """url.bs: "percent-decode" a string: UTF-8 encode it (step 1), then decode the bytes."""
    data = _utf8_bytes(s)
    if b"%" not in data:
        return data
    return _PERCENT_HEX.sub(_decode_match, data)


def contains_percent_encoded_byte(s: str) -> bool:
    """Whether ``s`` contains a url.bs "percent-encoded byte": "%" and two ASCII hex digits."""
    return "%" in s and _PERCENT_HEX_STR.search(s) is not None
