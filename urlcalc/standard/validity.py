"""The valid URL string checker (url.bs: "URL writing", "Host writing").

A verdict separate from the parser's validation errors: whether the input is a valid URL string
(with an optional base, for relative-URL strings), and if not, the first rule it breaks and where.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from urlcalc.standard.host import HostFailure, domain_parse, ends_in_a_number
from urlcalc.standard.infra import ASCII_ALPHA, ASCII_ALPHANUMERIC, ASCII_DIGITS, ASCII_HEX_DIGITS
from urlcalc.standard.parser import first_invalid_url_unit
from urlcalc.standard.record import SPECIAL_SCHEMES, URLRecord, is_windows_drive_letter
from urlcalc.standard.variants import (
    IPV4_TOO_FEW_PARTS,
    IPV6_PIECE_LEADING_ZERO,
    OPAQUE_HOST_VALIDITY,
    PATH_ABSOLUTE_NON_AUTHORITY,
    PATH_RELATIVE_SCHEME_LESS,
    PATH_SEGMENTS_CAN_BE_EMPTY,
    RELATIVE_WITH_FRAGMENT_OPAQUE_BASE,
    URL_PORT_STRING_LIMIT,
    URL_WITHOUT_FRAGMENT,
    VALID_IPV4_SHORTEST,
    VALID_OPAQUE_HOST_IPV6,
    undone,
)

_FORBIDDEN_HOST = frozenset("\x00\t\n\r #/:<>?@[\\]^|")


class VerdictJSON(TypedDict):
    """The valid-URL-string verdict (url.bs: valid URL string)."""

    valid: bool
    #: the production that matched, or the one that failed
    production: str
    #: where the input stops matching (null when valid)
    index: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class Verdict:
    valid: bool
    production: str  # the production that matched, or the one that failed
    index: int | None = None  # where the input stops matching
    reason: str = ""

    def to_json(self) -> VerdictJSON:
        return {"valid": self.valid, "production": self.production, "index": self.index,
                "reason": self.reason}


class _Invalid(Exception):
    def __init__(self, production: str, index: int, reason: str) -> None:
        super().__init__(reason)
        self.production = production
        self.index = index
        self.reason = reason


def _units(s: str, start: int, production: str, exclude: str = "") -> None:
    """Zero or more URL units (excluding the code points in ``exclude``)."""
    for ch in exclude:
        i = s.find(ch)
        if i >= 0:
            raise _Invalid(production, start + i, f"{ch!r} is not allowed here")
    bad = first_invalid_url_unit(s)
    if bad is not None:
        what = "a % not followed by two hex digits" if s[bad] == "%" else \
            f"U+{ord(s[bad]):04X} is not a URL code point"
        raise _Invalid(production, start + bad, what)


def is_valid_ipv4_address_string(s: str) -> bool:
    parts = s.split(".")
    # url.bs: valid IPv4-address-string: four shortest (no leading zero) decimal numbers of at
    # most 255; the length check first keeps int() off long digit strings (which it refuses
    # past 4,300 digits).
    return len(parts) == 4 and all(
        0 < len(p) <= 3 and all(ch in ASCII_DIGITS for ch in p)
        # (variant: before "Correct valid IPv4-address string", "up to three ASCII digits")
        and (str(int(p)) == p or undone(VALID_IPV4_SHORTEST))
        and int(p) <= 255 for p in parts)


def _pieces(s: str) -> int | None:
    """Effective piece length of a valid IPv6-pieces(-and-IPv4) string, or None."""
    if s == "":
        return None
    parts = s.split(":")
    count = 0
    for i, part in enumerate(parts):
        if i == len(parts) - 1 and "." in part:
            if not is_valid_ipv4_address_string(part):
                return None
            count += 2
        elif (part and len(part) <= 4 and all(ch in ASCII_HEX_DIGITS for ch in part)
              and (len(part) == 1 or part[0] != "0"
                   # (variant: before "Define valid IPv6-address string inline", RFC 4291's
                   # "one to four hexadecimal digits", leading zeros allowed)
                   or undone(IPV6_PIECE_LEADING_ZERO))):
            count += 1
        else:
            return None
    return count


def is_valid_ipv6_address_string(s: str) -> bool:
    if "::" not in s:
        return _pieces(s) == 8
    before, _, after = s.partition("::")
    if "::" in after:
        return False
    if before and ("." in before):
        return False
    n_before = _pieces(before) if before else 0
    n_after = _pieces(after) if after else 0
    return n_before is not None and n_after is not None and n_before + n_after <= 7


def is_valid_domain(s: str) -> bool:
    try:
        domain = domain_parse(s, True)
    except HostFailure:
        return False
    # (variant: before "Valid domain needs to account for ending with a number", no such step)
    return not ends_in_a_number(domain) or undone(IPV4_TOO_FEW_PARTS)


def is_valid_host_string(s: str) -> bool:
    if s.startswith("[") and s.endswith("]"):
        return is_valid_ipv6_address_string(s[1:-1])
    return is_valid_domain(s) or is_valid_ipv4_address_string(s)


def is_valid_opaque_host_string(s: str) -> bool:
    # (variant: before "Make IPv6 addresses in special URLs valid", URL units only)
    if s.startswith("[") and s.endswith("]") and not undone(VALID_OPAQUE_HOST_IPV6):
        return is_valid_ipv6_address_string(s[1:-1])
    # (variant: before "Fix validity for opaque hosts", "one or more URL units": forbidden host
    # code points too)
    return s != "" and (not any(ch in _FORBIDDEN_HOST for ch in s)
                        or undone(OPAQUE_HOST_VALIDITY)) and first_invalid_url_unit(s) is None


def _port(s: str, start: int) -> None:
    # url.bs: URL-port string: ASCII digits representing a 16-bit unsigned integer. Past five
    # significant digits it is not one, checked without int() (which refuses past 4,300 digits).
    if s and not (all(ch in ASCII_DIGITS for ch in s)
                  and ((int(s[-5:]) <= 65535 and len(s.lstrip("0")) <= 5)
                       # (variant: before, "zero or more ASCII digits", with no upper limit)
                       or undone(URL_PORT_STRING_LIMIT))):
        raise _Invalid("URL-port string", start, "the port is not a 16-bit decimal number")


def _path_absolute(s: str, start: int) -> None:
    if not s.startswith("/"):
        raise _Invalid("path-absolute-URL string", start, "expected /")
    # (variant: before path segments could be empty, a path-absolute-URL string was "/" followed
    # by a path-relative-URL string, which does not start with "/")
    if s.startswith("//") and undone(PATH_SEGMENTS_CAN_BE_EMPTY):
        raise _Invalid("path-relative-URL string", start + 1, "must not start with /")
    _units(s, start, "URL-path-segment string", "?")


def _authority(s: str, start: int, kind: str) -> None:
    """What follows "//" in a scheme-relative(-special|-file)-URL string."""
    end = len(s)
    for i, ch in enumerate(s):
        if ch == "/":
            end = i
            break
    authority, path = s[:end], s[end:]
    at = authority.find("@")
    if at >= 0:
        raise _Invalid("valid host string", start + at, "a valid URL string cannot express a "
                       "username or password (url.bs: URL writing)")
    if kind == "file":
        if authority and not is_valid_host_string(authority):
            raise _Invalid("valid host string", start, f"{authority!r} is not a valid host")
        # (variant: before, "//" was followed by a host or a path-absolute-URL string, not
        # optionally)
        if not s and undone(PATH_SEGMENTS_CAN_BE_EMPTY):
            raise _Invalid("scheme-relative-file-URL string", start,
                           "expected a host or a path-absolute-URL string after //")
        # (variant: before, a path after a host was a path-absolute-non-Windows-file-URL string:
        # not "/", a Windows drive letter, "/")
        if (authority and path[3:4] == "/" and is_windows_drive_letter(path[1:3])
                and undone(PATH_ABSOLUTE_NON_AUTHORITY)):
            raise _Invalid("path-absolute-non-Windows-file-URL string", start + end,
                           "a path after a file host must not start with a Windows drive letter")
    else:
        host, port = authority, None
        if (not authority.endswith("]") and ":" in authority) or "]:" in authority:
            host, _, port = authority.rpartition(":")
        if kind == "special":
            if not is_valid_host_string(host):
                raise _Invalid("valid host string", start, f"{host!r} is not a valid host")
        elif authority and not is_valid_opaque_host_string(host):
            raise _Invalid("valid opaque-host string", start,
                           f"{host!r} is not a valid opaque host")
        if port is not None:
            _port(port, start + len(host) + 1)
    if path:
        _path_absolute(path, start + end)


def _scheme_relative(s: str, start: int, kind: str) -> None:
    """A scheme-relative(-special|-file)-URL string at ``s`` (which starts with "//")."""
    try:
        _authority(s[2:], start + 2, kind)
    except _Invalid:
        # (variant: before path-absolute-non-authority-URL strings, a path-absolute-URL string
        # was offered beside the scheme-relative one, so "//" could fall back to it)
        if not undone(PATH_ABSOLUTE_NON_AUTHORITY):
            raise
        _path_absolute(s, start)


def _scheme_end(s: str) -> int | None:
    """The index of the ":" after a URL-scheme string at the start of s, if there is one."""
    if not s or s[0] not in ASCII_ALPHA:
        return None
    for i, ch in enumerate(s):
        if ch == ":":
            return i
        if ch not in ASCII_ALPHANUMERIC and ch not in "+-.":
            return None
    return None


def _path_relative(s: str, start: int) -> None:
    if s.startswith("/"):
        raise _Invalid("path-relative-URL string", start, "must not start with /")
    _units(s, start, "URL-path-segment string", "?")


def check(input: str, base: URLRecord | None = None) -> Verdict:
    """Is ``input`` a valid URL string (given ``base`` for relative-URL strings)?"""
    # valid URL string: (relative|absolute)-URL-with-fragment string
    rest, hash_sign, fragment = input.partition("#")
    try:
        # (variant: before f88f96f, an absolute or relative URL "with fragment" was one
        # "followed by "#" and a fragment", not optionally)
        if not hash_sign and undone(URL_WITHOUT_FRAGMENT):
            raise _Invalid("URL-fragment string", len(input), "expected # and a fragment")
        if hash_sign:
            _units(fragment, len(rest) + 1, "URL-fragment string")
        body, q, query = rest.partition("?")
        if q:
            _units(query, len(body) + 1, "URL-query string")
        colon = _scheme_end(body)
        if colon is not None:
            scheme = body[:colon].lower()
            after = body[colon + 1:]
            start = colon + 1
            if scheme in SPECIAL_SCHEMES and scheme != "file":
                if not after.startswith("//"):
                    # (variant: before dbec293, against a file base, "a path-relative URL",
                    # which could start with a scheme and ":")
                    if (base is not None and base.scheme == "file" and not after.startswith("/")
                            and undone(PATH_RELATIVE_SCHEME_LESS)):
                        _path_relative(body, 0)
                        return Verdict(True, "relative-URL-with-fragment string")
                    raise _Invalid("scheme-relative-special-URL string", start,
                                   "a special scheme must be followed by //")
                _authority(after[2:], start + 2, "special")
                return Verdict(True, "absolute-URL-with-fragment string")
            if scheme == "file":
                if not after.startswith("//"):
                    raise _Invalid("scheme-relative-file-URL string", start,
                                   "file: must be followed by //")
                _authority(after[2:], start + 2, "file")
                return Verdict(True, "absolute-URL-with-fragment string")
            if after.startswith("//"):
                _scheme_relative(after, start, "opaque")
            elif after.startswith("/"):
                _path_absolute(after, start)
            else:
                _units(after, start, "opaque-path-URL string", "?")
            return Verdict(True, "absolute-URL-with-fragment string")
        # relative-URL-with-fragment string
        if base is None:
            raise _Invalid("absolute-URL string", 0,
                           "no URL-scheme string followed by : (and no base URL)")
        # (variant: before 24deb59 an opaque-path base was not special here: a relative-URL
        # string, and a fragment; between it and 6ae8486, the empty string and a fragment)
        if isinstance(base.path, str) and not undone(RELATIVE_WITH_FRAGMENT_OPAQUE_BASE):
            if body or q:
                raise _Invalid("relative-URL-with-fragment string", 0,
                               "the base URL has an opaque path: only a fragment is allowed")
            if not hash_sign and not undone(PATH_ABSOLUTE_NON_AUTHORITY):
                raise _Invalid("relative-URL-with-fragment string", 0,
                               "the base URL has an opaque path: # and a fragment are needed")
            return Verdict(True, "relative-URL-with-fragment string")
        if body.startswith("//"):
            kind = ("file" if base.scheme == "file" else
                    "special" if base.scheme in SPECIAL_SCHEMES else "opaque")
            _scheme_relative(body, 0, kind)
        elif body.startswith("/"):
            _path_absolute(body, 0)
            # (variant: before 6ae8486, against a file base with a host that is not the empty
            # host, a path-absolute-non-Windows-file-URL string)
            if (base.scheme == "file" and base.host and body[3:4] == "/"
                    and is_windows_drive_letter(body[1:3])
                    and undone(PATH_ABSOLUTE_NON_AUTHORITY)):
                raise _Invalid("path-absolute-non-Windows-file-URL string", 0,
                               "against a file base with a host, a path must not start with a "
                               "Windows drive letter")
        else:
            _path_relative(body, 0)
        return Verdict(True, "relative-URL-with-fragment string")
    except _Invalid as e:
        return Verdict(False, e.production, e.index, e.reason)
