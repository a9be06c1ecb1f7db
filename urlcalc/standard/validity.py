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
from urlcalc.standard.record import SPECIAL_SCHEMES, URLRecord

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
        0 < len(p) <= 3 and all(ch in ASCII_DIGITS for ch in p) and str(int(p)) == p
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
              and (len(part) == 1 or part[0] != "0")):
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
    return not ends_in_a_number(domain)


def is_valid_host_string(s: str) -> bool:
    if s.startswith("[") and s.endswith("]"):
        return is_valid_ipv6_address_string(s[1:-1])
    return is_valid_domain(s) or is_valid_ipv4_address_string(s)


def is_valid_opaque_host_string(s: str) -> bool:
    if s.startswith("[") and s.endswith("]"):
        return is_valid_ipv6_address_string(s[1:-1])
    return s != "" and not any(ch in _FORBIDDEN_HOST for ch in s) and \
        first_invalid_url_unit(s) is None


def _port(s: str, start: int) -> None:
    # url.bs: URL-port string: ASCII digits representing a 16-bit unsigned integer. Past five
    # significant digits it is not one, checked without int() (which refuses past 4,300 digits).
    if s and not (all(ch in ASCII_DIGITS for ch in s)
                  and int(s[-5:]) <= 65535 and len(s.lstrip("0")) <= 5):
        raise _Invalid("URL-port string", start, "the port is not a 16-bit decimal number")


def _path_absolute(s: str, start: int) -> None:
    if not s.startswith("/"):
        raise _Invalid("path-absolute-URL string", start, "expected /")
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
                _authority(after[2:], start + 2, "opaque")
            elif after.startswith("/"):
                _path_absolute(after, start)
            else:
                _units(after, start, "opaque-path-URL string", "?")
            return Verdict(True, "absolute-URL-with-fragment string")
        # relative-URL-with-fragment string
        if base is None:
            raise _Invalid("absolute-URL string", 0,
                           "no URL-scheme string followed by : (and no base URL)")
        if isinstance(base.path, str):
            if body or q:
                raise _Invalid("relative-URL-with-fragment string", 0,
                               "the base URL has an opaque path: only a fragment is allowed")
            return Verdict(True, "relative-URL-with-fragment string")
        if body.startswith("//"):
            kind = ("file" if base.scheme == "file" else
                    "special" if base.scheme in SPECIAL_SCHEMES else "opaque")
            _authority(body[2:], 2, kind)
        elif body.startswith("/"):
            _path_absolute(body, 0)
        else:
            _path_relative(body, 0)
        return Verdict(True, "relative-URL-with-fragment string")
    except _Invalid as e:
        return Verdict(False, e.production, e.index, e.reason)
