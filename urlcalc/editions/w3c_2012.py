"""Edition 4: W3C URL, editor's draft of 8 November 2012 (copied from the WHATWG draft).

Seed ``003_251f3c0b459c8b78.txt``. The first state-machine URL parser: scheme data
for non-relative schemes, a relative flag, three escape sets, a fatal error flag, and
state overrides used by the URLUtils setters. Run *as written*; each step of the
machine is traced (state, pointer, c, buffer), like the current parser's trace.

The 2012 text has slips that later drafts fixed. ``parse(..., errata=True)`` applies the
later fixes; by default the text is followed literally and a note says where the
literal reading differs from the fixed one:

* authority state: step 2 is not an "Otherwise" of step 1 (so "@" lands in buffer) and
  the pointer goes back by the length of buffer, not that plus one;
* relative state: a "file" URL takes the base's scheme;
* relative path state: ".." and "." followed by "/" or "\\" (rather than by anything
  else) set / append an empty string.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import Any

from .edition import KIND_UNSPECIFIED, EditionResult, Note, empty_getters

ID = "w3c_2012"
NAME = "W3C URL editor's draft (2012)"
YEAR = 2012
SOURCE = "003_251f3c0b459c8b78.txt (W3C URL, Editor's Draft 8 November 2012)"
TERMS: dict[str, str] = {
    "parsed URL": "scheme, scheme data, userinfo, host, port, path (list), query, fragment",
    "scheme data": "everything after 'scheme:' when the scheme is not a relative scheme",
    "relative scheme": "ftp, file, gopher, http, https, ws, wss (with default ports)",
    "relative flag": "set when the URL has a relative scheme: serialised with '//' and a path",
    "fatal error flag": "set by 'neuter': the URL failed to parse",
    "clear / neuter": "reset the components / reset them and set the fatal error flag",
    "URL simple escape set": "code points < U+0020 and > U+007E",
    "URL default escape set": "< U+0021, > U+007E, '\"', '#', '<', '>', '?', '`'",
    "URL query escape set": "the default escape set without '?'",
    "state override": "how the URLUtils setters re-enter the machine in one state",
    "@ flag / [] flag": "seen an '@' in the authority / inside an IPv6 literal",
}
UNSPECIFIED: list[str] = [
    "3.2 host parsing is a stub ('To parse ...'): urlcalc keeps the host exactly as "
    "written (no lowercasing, no IDNA, no IPv4/IPv6 parsing).",
    "Port state 2.1 'parse buffer and set port' is a stub: urlcalc sets port to buffer "
    "unchanged (leading zeros and default ports are kept).",
    "origin: the attribute defers to [ORIGIN] (RFC 6454); urlcalc serialises scheme://host"
    "[:port] for relative schemes other than file (default port omitted), else 'null'.",
    "The URLQuery interface (5.3) is elided ('...'); not modelled.",
    "Encoding override: only utf-8 is modelled (a calculator has no document encoding).",
    "There are no username / password attributes in URLUtils (2012): only userinfo.",
    "Relative state with a null base: a 'file' URL parsed without a base (the base URL "
    "itself, as the constructor parses it with no base) reaches the relative state, which "
    "sets url's scheme to 'base's scheme', host, port, path and query to base's: with base "
    "null these are undefined. Unspecified: urlcalc gives no result.",
]

RELATIVE_SCHEMES: dict[str, str] = {
    "ftp": "21",
    "file": "",
    "gopher": "70",
    "http": "80",
    "https": "443",
    "ws": "80",
    "wss": "443",
}
ASCII_WHITESPACE = "\t\n\f\r "
EOF_CP = None  # the conceptual EOF code point
#: The later drafts' fixes ``errata`` applies, each a slip of the 2012 text (see _FIRED_TEXT).
FIXES = frozenset({"file-scheme", "authority", "path-dots"})


class Unspecified(Exception):
    """The draft's text is silent here: the state machine cannot go on as written."""


def _in_simple(cp: str) -> bool:
    return ord(cp) < 0x20 or ord(cp) > 0x7E


def _in_default(cp: str) -> bool:
    return ord(cp) < 0x21 or ord(cp) > 0x7E or cp in '"#<>?`'


def _in_query(cp: str) -> bool:
    return ord(cp) < 0x21 or ord(cp) > 0x7E or cp in '"#<>`'


def url_escape(cp: str, in_set: Any) -> str:
    """4.2 'URL escape a code point' (utf-8; an encoder error emits 0x3F)."""
    if not in_set(cp):
        return cp
    try:
        data = cp.encode("utf-8")
    except UnicodeEncodeError:
        data = b"?"
    return "".join(f"%{b:02X}" for b in data)


@dataclass
class ParsedURL:
    scheme: str = ""
    scheme_data: str = ""
    userinfo: str = ""
    host: str = ""
    port: str = ""
    path: list[str] = field(default_factory=list)
    query: str | None = None
    fragment: str | None = None
    relative: bool = False
    fatal: bool = False

    def clear(self) -> None:
        self.scheme = self.scheme_data = self.userinfo = self.host = self.port = ""
        self.query = self.fragment = None
        self.path = []

    def neuter(self) -> None:
        self.clear()
        self.fatal = True

    def copy(self) -> ParsedURL:
        """A copy that shares nothing mutable with this one (its path is a new list)."""
        return replace(self, path=list(self.path))

    def to_json(self) -> dict[str, Any]:
        return {
            "scheme": self.scheme,
            "scheme data": self.scheme_data,
            "userinfo": self.userinfo,
            "host": self.host,
            "port": self.port,
            "path": list(self.path),
            "query": self.query,
            "fragment": self.fragment,
            "relative flag": self.relative,
            "fatal error flag": self.fatal,
        }

    def serialize_without_fragment(self) -> str:
        """4.3."""
        out = self.scheme + ":"
        if self.relative:
            out += "//"
            if self.userinfo != "":
                out += self.userinfo + "@"
            out += self.host
            if self.port != "":
                out += ":" + self.port
            out += "/" + "/".join(self.path)
            if self.query is not None:
                out += "?" + self.query
        else:
            out += self.scheme_data
        return out

    def serialize(self) -> str:
        out = self.serialize_without_fragment()
        if self.fragment is not None:
            out += "#" + self.fragment
        return out


def basic_parse(
    input: str,
    base: ParsedURL | None = None,
    url: ParsedURL | None = None,
    state_override: str | None = None,
    *,
    errata: bool | frozenset[str] = False,
    trace: list[dict[str, Any]] | None = None,
    fired: set[str] | None = None,
) -> ParsedURL:
    """4.2 'To parse a string input' — the state machine, step by step. ``errata``: True
    applies every later fix (FIXES), a set applies those fixes only, False none."""
    fired = fired if fired is not None else set()
    fixes = FIXES if errata is True else (errata or frozenset())
    if url is None:  # step 1
        url = ParsedURL()
        url.clear()
        input = input.strip(ASCII_WHITESPACE)
    state = state_override or "scheme start state"  # step 2
    buffer = ""  # step 5
    at_flag = bracket_flag = False  # step 6
    chars: list[str | None] = [*input, EOF_CP]  # step 7
    pointer = 0  # step 8

    def step(action: str) -> None:
        if trace is not None:
            trace[-1]["action"] = action

    def remaining() -> str:
        """'the substring starting after pointer in input' (a copy of the rest of the input:
        made when a state reads it, not on every step)."""
        return input[pointer + 1 :]

    while not url.fatal and pointer < len(chars):  # step 9
        c = chars[pointer]
        if trace is not None:
            trace.append(
                {
                    "state": state,
                    "pointer": pointer,
                    "c": "EOF" if c is None else c,
                    "buffer": buffer,
                }
            )
        if state == "scheme start state":
            if c is not None and c.isascii() and c.isalpha():
                buffer += c.lower()
                state = "scheme state"
                step("append c, lowercased; -> scheme state")
            elif state_override is None:
                buffer = ""
                state = "no scheme state"
                pointer -= 1
                step("-> no scheme state, pointer - 1")
            else:
                step("terminate")
                return url
        elif state == "scheme state":
            if c is not None and c.isascii() and (c.isalnum() or c in "+-."):
                buffer += c.lower()
                step("append c, lowercased")
            elif c == ":":
                url.scheme, buffer = buffer, ""
                if state_override is not None:
                    step("scheme set; state override: terminate")
                    return url
                if url.scheme in RELATIVE_SCHEMES:
                    url.relative = True
                if url.scheme == "file" or (
                    url.relative and base is not None and base.scheme == url.scheme
                ):
                    state = "relative state"
                elif url.relative:
                    state = "authority start state"
                else:
                    state = "scheme data state"
                step(f"scheme = {url.scheme!r}; -> {state}")
            else:
                state, buffer = "no scheme state", ""
                pointer = -1
                step("-> no scheme state, start over from the first code point")
        elif state == "scheme data state":
            if state_override is None and c == "#":
                url.fragment = ""
                state = "fragment state"
                step("fragment = ''; -> fragment state")
            elif c is not None and c not in "\t\n\r":
                url.scheme_data += url_escape(c, _in_simple)
                step("append escaped c (simple set) to scheme data")
        elif state == "no scheme state":
            if base is None or base.scheme not in RELATIVE_SCHEMES:
                url.neuter()
                step("base is null or not relative: neuter")
            else:
                state = "relative state"
                pointer -= 1
                step("-> relative state, pointer - 1")
        elif state == "relative state":
            if base is None:  # only "file" gets here without a base (scheme state 2.3)
                step("base is null: 'set url's scheme to base's scheme' is undefined")
                raise Unspecified(UNSPECIFIED[6])
            url.relative = True
            if "file-scheme" in fixes and url.scheme == "file":
                pass  # later drafts: keep "file" rather than take base's scheme
            else:
                if url.scheme == "file" and base.scheme != "file":
                    fired.add("file-scheme-overwritten")
                url.scheme = base.scheme
            if c is None:
                url.host, url.port = base.host, base.port
                url.path, url.query = list(base.path), base.query
                step("EOF: copy host, port, path, query from base; terminate")
                return url
            if c in "/\\":
                if remaining()[:1] in ("/", "\\"):
                    pointer += 1
                    state = "file host state" if url.scheme == "file" else "authority start state"
                    step(f"two slashes: pointer + 1; -> {state}")
                else:
                    url.host, url.port = base.host, base.port
                    state = "relative path start state"
                    pointer -= 1
                    step("copy host, port from base; -> relative path start state, pointer - 1")
            elif c == "?":
                url.host, url.port, url.path = base.host, base.port, list(base.path)
                url.query = ""
                state = "query state"
                step("copy host, port, path; query = ''; -> query state")
            elif c == "#":
                url.host, url.port = base.host, base.port
                url.path, url.query = list(base.path), base.query
                url.fragment = ""
                state = "fragment state"
                step("copy host, port, path, query; fragment = ''; -> fragment state")
            else:
                url.host, url.port, url.path = base.host, base.port, list(base.path)
                if url.path:
                    url.path.pop()
                state = "relative path start state"
                pointer -= 1
                step("copy host, port, path minus its last string; -> relative path start")
        elif state == "authority start state":
            if c is None or c not in "/\\":
                state = "authority state"
                pointer -= 1
                step("-> authority state, pointer - 1")
            else:
                step("skip slash")
        elif state == "authority state":
            handled_at = False
            if c == "@":
                if at_flag:
                    url.userinfo += "%40"
                at_flag = True
                for cp in buffer:
                    url.userinfo += url_escape(cp, _in_default)
                buffer = ""
                handled_at = True
                step(f"'@': userinfo = {url.userinfo!r}")
            if c is None or c in "/\\?#":
                back = len(buffer) + (1 if "authority" in fixes else 0)
                if "authority" not in fixes and not buffer.startswith("@"):
                    fired.add("authority-off-by-one")
                pointer -= back
                buffer = ""
                state = "host state"
                step(f"pointer - {back}; -> host state")
            elif "authority" in fixes and handled_at:
                pass  # errata: step 3 is an "Otherwise" of step 1 too; '@' is not buffered
            elif c not in "\t\n\r":
                if handled_at:
                    fired.add("authority-at-in-buffer")
                buffer += c
        elif state == "file host state":
            if c is None or c in "/\\?#":
                pointer -= 1
                if (
                    len(buffer) == 2
                    and buffer[0].isascii()
                    and buffer[0].isalpha()
                    and (buffer[1] in ":|")
                ):
                    state = "relative path state"
                    step("drive letter quirk: -> relative path state (buffer kept)")
                else:
                    url.host, buffer = buffer, ""
                    state = "relative path start state"
                    step(f"host = {url.host!r}; -> relative path start state")
            elif c not in "\t\n\r":
                buffer += c
        elif state in ("host state", "hostname state"):
            if c == ":" and not bracket_flag:
                url.host, buffer = buffer, ""
                state = "port state"
                step(f"host = {url.host!r}; -> port state")
                if state_override == "hostname state":
                    return url
            elif c is None or c in "/\\?#":
                pointer -= 1
                url.host, buffer = buffer, ""
                state = "relative path start state"
                step(f"host = {url.host!r}; -> relative path start state")
                if state_override is not None:
                    return url
            elif c not in "\t\n\r":
                if c == "[":
                    bracket_flag = True
                if c == "]":
                    bracket_flag = False
                buffer += c
        elif state == "port state":
            if c is not None and c in "0123456789":
                buffer += c
            elif c is None or c in "/\\?#" or state_override is not None:
                url.port = buffer  # 'parse buffer and set port' (a stub in the draft)
                fired.add("port-stub")
                step(f"port = {url.port!r} (stub: 'parse buffer and set port')")
                if state_override is not None:
                    return url
                buffer = ""
                state = "relative path start state"
                pointer -= 1
            else:
                url.neuter()
                step("not a digit: neuter")
        elif state == "relative path start state":
            state = "relative path state"
            if c is None or c not in "/\\":
                pointer -= 1
            step("-> relative path state")
        elif state == "relative path state":
            if c is None or c in "/\\" or (state_override is None and c in "?#"):
                slash_or_eof = c is None or c in "/\\"
                if "path-dots" in fixes:
                    if buffer == "..":
                        if url.path:
                            url.path.pop()
                        if c is None or c not in "/\\":
                            url.path.append("")
                    elif buffer == ".":
                        if c is None or c not in "/\\":
                            url.path.append("")
                    else:
                        _append_segment(url, buffer)
                else:
                    if buffer == ".." and slash_or_eof:
                        if url.path:
                            url.path[-1] = ""
                        if c is not None:
                            fired.add("dotdot-slash")
                    elif buffer == "..":
                        if url.path:
                            url.path.pop()
                        fired.add("dotdot-query")
                    elif buffer == "." and slash_or_eof:
                        url.path.append("")
                        if c is not None:
                            fired.add("dot-slash")
                    elif buffer != ".":
                        _append_segment(url, buffer)
                buffer = ""
                if c == "?":
                    url.query = ""
                    state = "query state"
                if c == "#":
                    url.fragment = ""
                    state = "fragment state"
                step(f"path = {url.path!r}")
            elif c == "%" and remaining()[:2] in ("2E", "2e"):
                pointer += 2
                buffer += "."
                step("'%2E' read as '.'")
            elif c not in "\t\n\r":
                buffer += url_escape(c, _in_default)
        elif state == "query state":
            if state_override is None and c == "#":
                url.fragment = ""
                state = "fragment state"
            elif c is not None and c not in "\t\n\r":
                url.query = (url.query or "") + url_escape(c, _in_query)
        elif state == "fragment state" and c is not None and c not in "\t\n\r":
            url.fragment = (url.fragment or "") + url_escape(c, _in_simple)
        pointer += 1
    return url  # step 10


def _append_segment(url: ParsedURL, buffer: str) -> None:
    # relative path state 1.4.1: the Windows drive letter quirk
    if (
        url.scheme == "file"
        and not url.path
        and len(buffer) == 2
        and buffer[0].isascii()
        and buffer[0].isalpha()
        and buffer[1] in ":|"
    ):
        buffer = buffer[0] + ":"
    url.path.append(buffer)


# --- URLUtils (5.2) ------------------------------------------------------------------------


def origin_of(url: ParsedURL) -> str:
    if url.fatal or not url.relative or url.scheme == "file":
        return "null"
    default = RELATIVE_SCHEMES.get(url.scheme, "")
    port = "" if url.port in ("", default) else ":" + url.port
    return f"{url.scheme}://{url.host}{port}"


def getters_of(url: ParsedURL, input: str) -> dict[str, str | None]:
    g = empty_getters()
    g["href"] = input if url.fatal else url.serialize()
    g["origin"] = origin_of(url)
    g["protocol"] = url.scheme + ":"
    if url.fatal:
        g["host"] = g["hostname"] = g["port"] = g["pathname"] = g["search"] = g["hash"] = ""
        return g
    g["host"] = url.host if url.port == "" else url.host + ":" + url.port
    g["hostname"] = url.host
    g["port"] = url.port
    g["pathname"] = "/" + "/".join(url.path) if url.relative else url.scheme_data
    g["search"] = "" if not url.query else "?" + url.query
    g["hash"] = "" if not url.fragment else "#" + url.fragment
    return g


def set_attribute(
    url: ParsedURL, base: ParsedURL | None, name: str, value: str, *, errata: bool = False
) -> ParsedURL:
    """The URLUtils setters of 5.2 (href, protocol, host, hostname, port, pathname,
    search, hash), re-entering the machine with a state override."""
    if name == "href":
        url.clear()
        url.fatal = False
        url.relative = False
        return basic_parse(value.strip(ASCII_WHITESPACE), base, url, errata=errata)
    if url.fatal:
        return url
    if name == "protocol":
        return basic_parse(value + ":", base, url, "scheme start state", errata=errata)
    if name in ("host", "hostname"):
        if url.relative:
            basic_parse(value, base, url, f"{name} state", errata=errata)
        return url
    if name == "port":
        if url.relative and url.scheme != "file":
            basic_parse(value, base, url, "port state", errata=errata)
        return url
    if name == "pathname":
        if url.relative:
            url.path = []
            basic_parse(value, base, url, "relative path start state", errata=errata)
        return url
    if name == "search":
        if not url.relative:
            return url
        if value == "":
            url.query = None
            return url
        url.query = ""
        return basic_parse(
            value[1:] if value.startswith("?") else value, base, url, "query state", errata=errata
        )
    if name == "hash":
        if url.scheme == "javascript":
            return url
        if value == "":
            url.fragment = None
            return url
        url.fragment = ""
        return basic_parse(
            value[1:] if value.startswith("#") else value,
            base,
            url,
            "fragment state",
            errata=errata,
        )
    raise ValueError(f"no setter {name!r} in URLUtils (2012)")


MAPPING_NOTES: dict[str, str] = {
    "href": "5.2 href: the serialisation (4.3), or the input when the fatal error flag is set",
    "origin": "5.2 origin: RFC 6454 serialisation, computed by urlcalc (see unspecified)",
    "protocol": "5.2 protocol: scheme + ':'",
    "username": "no username attribute in URLUtils (2012): no such notion",
    "password": "no password attribute in URLUtils (2012): no such notion",
    "host": "5.2 host: host, or host ':' port",
    "hostname": "5.2 hostname: host",
    "port": "5.2 port: port",
    "pathname": "5.2 pathname: scheme data when the relative flag is unset, else '/' + path",
    "search": "5.2 search: '' for null or empty query, else '?' + query",
    "hash": "5.2 hash: '' for null or empty fragment, else '#' + fragment",
}

_FIRED_TEXT: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "file-scheme-overwritten": (
        "relative state",
        "'file' goes to the relative state, which sets url's scheme to base's scheme, so "
        "the 'file' scheme is replaced by the base's",
        ("href", "protocol", "origin", "host", "hostname", "port", "pathname", "search", "hash"),
    ),
    "authority-off-by-one": (
        "authority state, step 2",
        "as written the pointer goes back by the length of buffer, not that plus one, so the "
        "host state starts one code point late (the host loses its first code point)",
        ("href", "origin", "host", "hostname", "port", "pathname"),
    ),
    "authority-at-in-buffer": (
        "authority state, steps 1 and 3",
        "step 3 is an 'Otherwise' of step 2 only, not of step 1, so the '@' step 1 handled is "
        "appended to buffer too (this makes the pointer arithmetic of step 2 come out right "
        "for one '@')",
        ("href", "host", "hostname"),
    ),
    "dotdot-slash": (
        "relative path state, step 1.1",
        "'..' followed by '/' sets the last path string to '' instead of removing it",
        ("href", "pathname"),
    ),
    "dotdot-query": (
        "relative path state, step 1.2",
        "'..' followed by '?' or '#' removes the last string without appending ''",
        ("href", "pathname"),
    ),
    "dot-slash": (
        "relative path state, step 1.3",
        "'.' followed by '/' appends an empty string",
        ("href", "pathname"),
    ),
}


@dataclass(frozen=True)
class BaseReading:
    """5.1 step 2: the base URL parsed (with no base of its own) under a set of fixes: its URL,
    or None where the text is silent (``silent`` says where, ``trace`` the steps up to there),
    and the slips it ran into."""

    url: ParsedURL | None
    fired: frozenset[str]
    trace: tuple[dict[str, Any], ...]
    silent: str | None = None


@functools.lru_cache(maxsize=8)
def _read_base(base: str, fixes: frozenset[str]) -> BaseReading:
    """``base`` (about:blank when there is none) read by 5.1 step 2 under ``fixes``.

    Cached, for a few bases: one parse reads its base as written, with the later fixes and,
    when several slips fire, with each fix alone; and the Editions view reads the same base
    again on every keystroke. The reading is shared, so its users never change it: they take
    ``url.copy()`` and copy the steps they hand out."""
    trace: list[dict[str, Any]] = []
    fired: set[str] = set()
    try:
        url = basic_parse(base, errata=fixes, trace=trace, fired=fired)
    except Unspecified as e:
        return BaseReading(None, frozenset(fired), tuple(trace), str(e))
    # a parse shows the base's steps only where the text is silent: this reading keeps none
    # (the cache need not hold every step of a long base)
    return BaseReading(url, frozenset(fired), ())


def _fixed_reading(input: str, base: str | None,
                   fixes: frozenset[str] = FIXES) -> ParsedURL | None:
    """The URL as the later drafts' ``fixes`` read it (base included), or None when it fails."""
    fixed_base = _read_base(base if base is not None else "about:blank", fixes).url
    if fixed_base is None or fixed_base.fatal:
        return None
    # with a base, the machine never stops where the text is silent (the relative state
    # with a null base): no Unspecified here
    fixed = basic_parse(input, fixed_base.copy(), errata=fixes)
    return None if fixed.fatal else fixed


#: The fix (of FIXES) that mends each slip.
_FIX_OF: dict[str, str] = {
    "file-scheme-overwritten": "file-scheme",
    "authority-off-by-one": "authority",
    "authority-at-in-buffer": "authority",
    "dotdot-slash": "path-dots",
    "dotdot-query": "path-dots",
    "dot-slash": "path-dots",
}


def _one_fix_readings(res: EditionResult, input: str, base: str | None,
                      slips: set[str]) -> None:
    """When several slips fired, the getters with each fix alone (``fix:<name>``), so that
    ``explain`` can tell which slip a difference comes from."""
    fixes = sorted({_FIX_OF[k] for k in slips if k in _FIX_OF})
    if len(fixes) < 2:
        return
    for fix in fixes:
        alone = _fixed_reading(input, base, frozenset({fix}))
        if alone is not None:
            res.alternatives["fix:" + fix] = getters_of(alone, input)


def _note_slips(res: EditionResult, fired: AbstractSet[str],
                base_fired: AbstractSet[str]) -> None:
    """Note each slip of the text that this reading (of the input, or of the base) ran into."""
    for key in sorted(fired & _FIRED_TEXT.keys()):
        rule, text, gs = _FIRED_TEXT[key]
        res.note(rule, _FIRED_SECTION[key], text, gs)
    for key in sorted((base_fired - fired) & _FIRED_TEXT.keys()):
        rule, text, gs = _FIRED_TEXT[key]
        res.note(rule, _FIRED_SECTION[key], f"in the base URL: {text}", gs)


#: The state of 4.2 each slip of _FIRED_TEXT is in (a key of SECTIONS).
_FIRED_SECTION: dict[str, str] = {
    "file-scheme-overwritten": "4.2 relative state",
    "authority-off-by-one": "4.2 authority state",
    "authority-at-in-buffer": "4.2 authority state 3",
    "dotdot-slash": "4.2 relative path state",
    "dotdot-query": "4.2 relative path state",
    "dot-slash": "4.2 relative path state",
}


def parse(input: str, base: str | None = None, *, errata: bool = False) -> EditionResult:
    """The URL(url, base) constructor of 5.1, then the URLUtils getters of 5.2."""
    res = EditionResult(edition=ID, ok=True, mapping_notes=dict(MAPPING_NOTES))
    res.getters = empty_getters()
    trace: list[dict[str, Any]] = []
    res.trace = trace
    reading = _read_base(base if base is not None else "about:blank",
                         FIXES if errata else frozenset())
    base_fired = reading.fired
    if reading.url is None:
        res.ok = False
        res.hit_unspecified(str(reading.silent))
        res.note("relative state", "4.2 relative state",
                 "the base is parsed without a base (5.1 step 2); its 'file' scheme leads to "
                 "the relative state, which copies base's scheme: with base null the text does "
                 "not say what happens", kind=KIND_UNSPECIFIED)
        res.trace = [dict(step) for step in reading.trace]
        res.components["base"] = "unspecified: the relative state with a null base"
        return res
    base_url = reading.url.copy()
    res.components["base"] = base_url.to_json()
    fixed = None if errata else _fixed_reading(input, base)
    if fixed is not None:
        res.alternatives["errata"] = getters_of(fixed, input)
    if base_url.fatal:
        if fixed is not None:
            _note_slips(res, set(), base_fired)
        res.note(
            "5.1 step 3",
            "5.1",
            "the base has its fatal error flag set: InvalidStateError",
            ("href",),
        )
        return res.fail("InvalidStateError: the base URL failed to parse")
    fired: set[str] = set()
    url = basic_parse(input, base_url, errata=errata, trace=trace, fired=fired)
    if input.strip(ASCII_WHITESPACE) != input.strip("".join(map(chr, range(0x21)))):
        res.note("step 1.3", "4.2", "only ASCII whitespace is removed from the ends of the "
                 "input: other C0 control code points stay (and are escaped)")
    res.components["url"] = url.to_json()
    res.components["serialization"] = None if url.fatal else url.serialize()
    res.getters = getters_of(url, input)
    if url.fatal:
        if fixed is not None:
            res.components["errata serialization"] = fixed.serialize()
            _note_slips(res, fired, base_fired)
            _one_fix_readings(res, input, base, fired | base_fired)
        res.note("neuter", "4.2", "the fatal error flag is set (href returns the input)", ("href",))
        return res.fail("fatal error flag set")
    if url.relative:
        res.note(
            "relative flag",
            "4.2",
            f"{url.scheme!r} is a relative scheme: serialised with '//', host and path",
        )
    else:
        res.note(
            "scheme data",
            "4.2 scheme data state",
            f"{url.scheme!r} is not a relative "
            f"scheme: everything after ':' is scheme data ({url.scheme_data!r})",
            ("pathname", "host", "hostname", "href"),
        )
    if url.host:
        res.hit_unspecified(UNSPECIFIED[0])
        if url.host != url.host.lower() or not url.host.isascii():
            res.note(
                "host parsing stub",
                "3.2",
                "the host is kept as written (no lowercasing, no IDNA)",
                ("host", "hostname", "href", "origin"),
                KIND_UNSPECIFIED,
            )
    if "port-stub" in fired:
        res.hit_unspecified(UNSPECIFIED[1])
        if url.port == RELATIVE_SCHEMES.get(url.scheme) and url.port:
            res.note(
                "port state 2.1",
                "4.2 port state",
                f"'parse buffer and set port' is a stub: the default port {url.port!r} is kept",
                ("port", "host", "href"),
                KIND_UNSPECIFIED,
            )
    if not errata and (fixed is None or fixed.serialize() != url.serialize()):
        res.components["errata serialization"] = None if fixed is None else fixed.serialize()
        _note_slips(res, fired, base_fired)
        _one_fix_readings(res, input, base, fired | base_fired)
        res.note(
            "as written",
            "4.2",
            "with the later drafts' fixes the result would be "
            f"{res.components['errata serialization']!r}",
            ("href",),
        )
    return res


# --- why a getter differs from the current standard's -------------------------------------------

#: Every section this edition cites, with the seed's own words there.
SECTIONS: dict[str, str] = {
    "3.2": "To parse ...",
    "4.2": "To parse a string input, optionally with a optionally with a base URL base",
    "4.2 scheme data state": "scheme data state 1. If state override is not given and c is "
                             "\"#\", set url's fragment to the empty string and state to "
                             "fragment state.",
    "4.2 relative state": "relative state Set url's relative flag, set url's scheme to base's "
                          "scheme, and then, based on c:",
    "4.2 authority state": "2. If c is one of EOF code point, \"/\", \"\\\", \"?\", and \"#\", "
                           "decrease pointer by the number of code points in buffer, set buffer "
                           "to the empty string, and state to host state.",
    "4.2 authority state 3": "3. Otherwise, if c is none of U+0009, U+000A, and U+000D, "
                             "append c to buffer.",
    "4.2 port state": "1. parse buffer and set port",
    "4.2 relative path state": "1. If buffer is \"..\" and c is one of EOF code point, \"/\", and "
                               "\"\\\", set the last string in url's path to the empty string.",
    "4.2 relative path state 2": "2. Otherwise, if c is \"%\" and remaining starts with either "
                                 "\"2E\" or \"2e\", increase pointer by two, and append \".\" to "
                                 "buffer.",
    "4": "A relative scheme is a scheme listed in the first column of the following table.",
    "4.2 default escape set": "The URL default escape set are all code points less than "
                              "U+0021, all code points greater than U+007E, '\"', \"#\", \"<\", "
                              "\">\", \"?\", and \"`\".",
    "4.2 simple escape set": "The URL simple escape set are all code points less than U+0020 "
                             "(i.e. excluding U+0020) and all code points greater than U+007E.",
    "4.2 query escape set": "The URL query escape set are all code points less than U+0021, all "
                            "code points greater than U+007E, '\"', \"#\", \"<\", \">\", and "
                            "\"`\".",
    "4.3": "If userinfo is not the empty string, append userinfo concatenated with \"@\" to "
           "output.",
    "5.1": "If base's fatal error flag is set, throw an \"InvalidStateError\" exception.",
    "5.2": "The origin attribute must return the Unicode serialization of the parsed URL's "
           "origin. [ORIGIN]",
}

#: The escape set each getter's characters went through (4.2), for percent-encoding causes.
_ESCAPE_SET = {"pathname": "URL default escape set", "search": "URL query escape set",
               "hash": "URL simple escape set"}
#: The section (SECTIONS key) whose words define each of those escape sets.
_ESCAPE_SECTION = {"pathname": "4.2 default escape set", "search": "4.2 query escape set",
                   "hash": "4.2 simple escape set"}


def explain(res: EditionResult, getter: str, ours: str, current: dict[str, str]) -> Note | None:
    """The rule of the 2012 draft that made ``getter`` differ from the current standard's."""
    from .explain import DEFAULT_PORTS, PARTS, how_differs

    cur = current.get(getter, "")
    fixed = res.alternatives.get("errata")
    if fixed is not None and fixed.get(getter) != ours and getter not in PARTS:
        slips = [n for n in res.notes
                 if n.section in _FIRED_SECTION.values() and getter in n.getters]
        alone = {k[4:]: v for k, v in res.alternatives.items() if k.startswith("fix:")}
        if alone:  # several slips fired: keep those whose fix alone changes this getter
            mended = {fix for fix, g in alone.items() if g.get(getter) != ours}
            slips = [n for n in slips
                     if _FIX_OF[next(k for k, v in _FIRED_TEXT.items() if v[0] == n.rule)]
                     in mended] or slips
            if mended and slips:  # the earliest slip in the parse comes first
                order = ("file-scheme", "authority", "path-dots")
                slips.sort(key=lambda n: order.index(_FIX_OF[next(
                    k for k, v in _FIRED_TEXT.items() if v[0] == n.rule)]))
                slips = slips[:1]
        if slips:
            slip = min(slips, key=lambda n: len(n.getters))  # the slip closest to the getter
            after = ("the current standard's value" if fixed.get(getter) == cur
                     else f"{fixed.get(getter)!r}")
            return Note(slip.rule, slip.section, f"{slip.text} (as written; the later drafts' "
                        f"fix gives {after})", (getter,))
    comps = res.components.get("url")
    relative = isinstance(comps, dict) and bool(comps.get("relative flag"))
    if not relative and getter in ("host", "hostname", "port", "pathname", "search"):
        data = comps.get("scheme data") if isinstance(comps, dict) else ""
        return Note("scheme data", "4.2 scheme data state",
                    "not a relative scheme: everything after ':' up to '#' is scheme data "
                    f"({data!r}), with no host, port, path or query", (getter,))
    how = how_differs(ours, cur)
    scheme = comps.get("scheme") if isinstance(comps, dict) else None
    if relative and scheme in RELATIVE_SCHEMES and scheme not in DEFAULT_PORTS and \
            scheme != "file" and getter in ("host", "hostname", "port", "pathname"):
        return Note("relative scheme", "4", f"{scheme!r} is a relative scheme "
                    "here (the current standard does not make it special), so an authority is "
                    "expected after ':'", (getter,))
    if getter == "hostname" and len(ours) < len(cur) and cur.endswith(ours):
        return Note("authority state, step 2", "4.2 authority state", "the pointer goes back by "
                    "the number of code points in buffer, which misses the code points the "
                    "authority state skipped (tab, newline) or the '@': the host starts late",
                    (getter,))
    if getter == "pathname" and ours == re.sub("%2[eE]", ".", cur):
        return Note("relative path state, step 2", "4.2 relative path state 2", "'%2e' is read "
                    "as '.' wherever it is in a segment", (getter,))
    if getter == "hostname":
        return Note("host parsing stub", "3.2", "host parsing is a stub ('To parse ...'): "
                    "urlcalc keeps the host as written (no lowercasing, no IDNA, no IPv4 or IPv6 "
                    "parsing)", (getter,), KIND_UNSPECIFIED)
    if getter == "port":
        return Note("port state 2.1", "4.2 port state", "'parse buffer and set port' is a stub: "
                    "urlcalc sets port to buffer as written (leading zeros and default ports "
                    "stay)", (getter,), KIND_UNSPECIFIED)
    ends = next((n for n in res.notes if n.rule == "step 1.3"), None)
    if ends is not None and getter in ("pathname", "search", "hash") and any(
            f"%{c:02X}" in ours and f"%{c:02X}" not in cur for c in range(0x20)):
        return Note(ends.rule, ends.section, ends.text, (getter,))
    if getter in _ESCAPE_SET and how in ("kept", "encoded", "percent", "hex-case"):
        return Note(_ESCAPE_SET[getter], _ESCAPE_SECTION[getter],
                    f"the {_ESCAPE_SET[getter]} differs from the current standard's "
                    "percent-encode set", (getter,))
    if getter == "protocol":
        return Note("relative state", "4.2 relative state",
                    "the relative state sets url's scheme to base's scheme", (getter,))
    copied = next((n for n in res.notes if n.rule == "relative state"
                   and "pathname" in n.getters), None)
    if getter == "pathname" and copied is not None and how == "other" and \
            ours.endswith(cur.lstrip("/")):
        return Note("relative state", "4.2 relative state", "the relative state copies base's "
                    "path (without its last string) and the relative path state appends the "
                    f"input's to it: {ours!r}", (getter,))
    if getter == "pathname":
        return Note("relative path state", "4.2 relative path state", "the path as the relative "
                    "path state builds it: the URL default escape set, '%2e' read as '.', and "
                    "'.' and '..' as written", (getter,))
    if getter in _ESCAPE_SET:
        return Note(_ESCAPE_SET[getter], _ESCAPE_SECTION[getter], f"the {_ESCAPE_SET[getter]} "
                    "differs from the current standard's percent-encode set", (getter,))
    return None


def explain_serialization(res: EditionResult, getter: str, ours: str,
                          current: dict[str, str]) -> Note | None:
    """``href`` differs though every part agrees: the serialiser (4.3) keeps userinfo whole."""
    if getter == "origin":
        return Note("origin", "5.2", "the origin attribute defers to [ORIGIN] (RFC 6454): "
                    "urlcalc serialises scheme://host[:port] for relative schemes other than "
                    "file, else 'null'", (getter,), KIND_UNSPECIFIED)
    if getter != "href":
        return None
    comps = res.components.get("url")
    if isinstance(comps, dict) and not comps.get("userinfo") and (
            current.get("username") or current.get("password")):
        return Note("relative state", "4.2 relative state", "the relative state copies base's "
                    "host, port, path and query, not its userinfo", (getter,))
    fixed = res.alternatives.get("errata")
    at_slip = next((n for n in res.notes if n.section == _FIRED_SECTION["authority-at-in-buffer"]),
                   None)
    if at_slip is not None and fixed is not None and fixed.get("href") != ours:
        # the '@' the authority state appended to buffer (step 3) is in url's userinfo: the
        # authority state made the difference, the serialiser only writes userinfo out
        after = ("the current standard's value" if fixed.get("href") == current.get("href")
                 else f"{fixed.get('href')!r}")
        userinfo = comps.get("userinfo") if isinstance(comps, dict) else None
        return Note(at_slip.rule, at_slip.section, f"userinfo {userinfo!r}: "
                    f"{at_slip.text} (as written; the later drafts' fix gives {after})",
                    (getter,))
    if isinstance(comps, dict) and comps.get("userinfo"):
        return Note("serialize", "4.3", f"userinfo {comps['userinfo']!r} is serialised whole, "
                    "delimiters and all (URLUtils (2012) has no username or password)",
                    (getter,))
    return None


def accepts(res: EditionResult, failure: str) -> Note:
    """The rule of the 2012 draft that accepts an input the current standard rejects."""
    from .explain import failure_part

    part = failure_part(failure)
    if part == "port":
        return Note("port state 2.1", "4.2 port state", "'parse buffer and set port' is a stub: "
                    "nothing checks the port's range", ("href",), KIND_UNSPECIFIED)
    if part == "host":
        return Note("host parsing stub", "3.2", "host parsing is a stub ('To parse ...'): "
                    "nothing checks the host", ("href",), KIND_UNSPECIFIED)
    return Note("neuter", "4.2", "the state machine neuters the URL only for a non-digit in the "
                "port or a missing relative base; nothing else fails", ("href",))
