"""A fast path for the untraced URL parser: common URLs in one regex match instead of a loop.

It accepts only inputs on which the basic URL parser raises no validation error and takes no
quirky branch (special non-file schemes, hosts the host parser takes without a validation error,
no credentials, URL units only, UTF-8), and builds the same URL record the state machine builds;
anything else returns None and the state machine runs. Same results on every WPT input and the
whole benchmark corpus is a test (tests/test_fastpath.py).
"""

from __future__ import annotations

import re

from urlcalc.standard.host import _STRICT_ASCII_OK, HostFailure, ends_in_a_number, host_parse
from urlcalc.standard.record import (
    SPECIAL_SCHEMES,
    Domain,
    Host,
    URLRecord,
    is_double_dot,
    is_single_dot,
)

# scheme ":" "//" host [":" port] path ["?" query] ["#" fragment], where every component holds
# URL units only (ASCII URL code points other than the delimiters, non-ASCII URL code points of
# the Basic Multilingual Plane, and "%" followed by two hex digits).
_CODE_POINTS = r"A-Za-z0-9!$&'()*+,\-.:;=@_~/\u00a0-\ud7ff\ue000-\ufdcf\ufdf0-\ufffd"
_UNIT = rf"(?:[{_CODE_POINTS}]|%[0-9A-Fa-f]{{2}})"
_QUERY_UNIT = rf"(?:[{_CODE_POINTS}?]|%[0-9A-Fa-f]{{2}})"
_HOST = r"([^\x00-\x20/?#\\@:\[\]%\x7f]+|\[[0-9A-Fa-f:.]+\])"
_AUTHORITY = rf"{_HOST}(?::([0-9]{{0,5}}))?"
# The repeats are possessive (*+): a unit never has to be given back (none of them is the "?" or
# "#" that follows), and a backtracking repeat of an alternation makes the regex engine keep
# state for every unit, which costs far more than linear time on inputs of a few hundred KB.
_RELATIVE_PATTERN = rf"((?!//){_UNIT}*+)(?:\?({_QUERY_UNIT}*+))?(?:#({_QUERY_UNIT}*+))?"


class _Regexes:
    """The fast path's regexes, compiled on first use: compiling them at import costs tens of ms
    of Pyodide's boot, and the page's first answers come from the traced parser, which never
    takes the fast path."""

    __slots__ = ("absolute", "dotted_decimal", "ldh_host", "relative", "scheme_prefix",
                 "scheme_relative")

    def __init__(self) -> None:
        self.absolute = re.compile(
            rf"([A-Za-z][A-Za-z0-9+.\-]*)://{_AUTHORITY}"
            rf"(/{_UNIT}*+)?(?:\?({_QUERY_UNIT}*+))?(?:#({_QUERY_UNIT}*+))?"
        )
        self.scheme_relative = re.compile(
            rf"//{_AUTHORITY}(/{_UNIT}*+)?(?:\?({_QUERY_UNIT}*+))?(?:#({_QUERY_UNIT}*+))?"
        )
        self.ldh_host = re.compile(r"[a-z0-9.\-]+")
        self.dotted_decimal = re.compile(
            r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}"
            r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])")
        # A relative reference: a path (not starting with "//"), a query or a fragment.
        self.relative = re.compile(_RELATIVE_PATTERN)
        self.scheme_prefix = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


_compiled: _Regexes | None = None


def _regexes() -> _Regexes:
    global _compiled
    if _compiled is None:
        _compiled = _Regexes()
    return _compiled


_FAST_SCHEMES = frozenset(("http", "https", "ws", "wss", "ftp"))


def _encode_non_ascii(s: str, extra: str = "") -> str:
    """UTF-8 percent-encode the non-ASCII code points of ``s`` (and the ASCII ones in
    ``extra``): what the path, query and fragment sets do to URL units."""
    if s.isascii() and not (extra and extra in s):
        return s
    out = []
    for ch in s:
        if ch > "\x7f" or ch in extra:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


class _Quirk(Exception):
    """The host parser reported a validation error: leave the input to the state machine."""


def _report(name: str, offset: int | None, detail: str,
            cite: tuple[str, str | None] | None = None) -> None:
    raise _Quirk(name)


def _host(text: str) -> Host | None:
    """url.bs: host parsing, for a host on which it reports no validation error."""
    host = text.lower() if text.isascii() else text
    r = _compiled or _regexes()
    if r.ldh_host.fullmatch(host):
        if _STRICT_ASCII_OK.fullmatch(host) and not ends_in_a_number(host):
            return Domain(host)
        if r.dotted_decimal.fullmatch(host):
            a, b, c, d = host.split(".")
            return (int(a) << 24) | (int(b) << 16) | (int(c) << 8) | int(d)
        return None
    try:
        return host_parse(text, False, _report)
    except (_Quirk, HostFailure):
        return None


def _append_segments(path: list[str], segments: list[str]) -> list[str]:
    """url.bs: path state, step 1 for each segment (the last one ends at EOF, ? or #)."""
    last = len(segments) - 1
    for i, segment in enumerate(segments):
        if "." in segment or "%" in segment:
            if is_double_dot(segment):
                # step 1.2 (shorten: no file URLs here)
                if path:
                    path.pop()
                if i == last:
                    path.append("")
                continue
            if is_single_dot(segment):
                # step 1.3
                if i == last:
                    path.append("")
                continue
        # step 1.4
        path.append(segment)
    return path


def _path(path: str) -> list[str]:
    return _append_segments([], _encode_non_ascii(path[1:]).split("/"))


def _authority_url(scheme: str, m: re.Match[str], first: int) -> URLRecord | None:
    host = _host(m.group(first))
    if host is None:
        return None
    url = URLRecord()
    url.scheme = scheme
    url.host = host
    port = m.group(first + 1)
    if port:
        n = int(port)
        if n > 65535:
            return None
        url.port = None if n == SPECIAL_SCHEMES[scheme] else n
    path = m.group(first + 2)
    url.path = _path(path) if path else [""]
    query = m.group(first + 3)
    if query is not None:
        url.query = _encode_non_ascii(query, "'")
    fragment = m.group(first + 4)
    if fragment is not None:
        url.fragment = _encode_non_ascii(fragment)
    return url


def fast_parse(input: str, base: URLRecord | None) -> URLRecord | None:
    """The URL record the basic URL parser returns for ``input`` (no state override, UTF-8), or
    None when the input needs the state machine."""
    r = _compiled or _regexes()
    m = r.absolute.fullmatch(input)
    if m is not None:
        scheme = m.group(1)
        if not scheme.islower():
            scheme = scheme.lower()
        if scheme not in _FAST_SCHEMES:
            return None
        return _authority_url(scheme, m, 2)
    if base is None or base.scheme not in _FAST_SCHEMES or not input \
            or r.scheme_prefix.match(input):
        return None
    if input.startswith("//"):
        # url.bs: relative state, relative slash state, then the authority state
        m = r.scheme_relative.fullmatch(input)
        return _authority_url(base.scheme, m, 1) if m is not None else None
    m = r.relative.fullmatch(input)
    if m is None:
        return None
    path, query, fragment = m.group(1), m.group(2), m.group(3)
    url = URLRecord()
    # url.bs: relative state, step 2 and 5.1 (and relative slash state, step 3)
    url.scheme = base.scheme
    url.username = base.username
    url.password = base.password
    url.host = base.host
    url.port = base.port
    assert isinstance(base.path, list)
    if path.startswith("/"):
        url.path = _path(path)
    elif path:
        # url.bs: relative state, step 5.4: shorten the base's path, then the path state
        url.path = _append_segments(base.path[:-1], _encode_non_ascii(path).split("/"))
    else:
        url.path = list(base.path)
        if query is None:
            url.query = base.query
    if query is not None:
        url.query = _encode_non_ascii(query, "'")
    if fragment is not None:
        url.fragment = _encode_non_ascii(fragment)
    return url
