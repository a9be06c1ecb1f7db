"""Edition 1: RFC 3986 (STD 66, 2005), read strictly.

* Section 3 / Appendix A: the generic-syntax ABNF, checked production by production;
  an invalid input reports the rule that failed and where.
* Appendix B: the regular expression that splits any string into the five components.
* Section 5.2: reference resolution (5.2.2 transform, 5.2.3 merge, 5.2.4
  remove_dot_segments traced step by step, 5.3 recomposition).
* Section 6.2.2: syntax-based normalisation (case, percent-encoding, dot segments).

Written from the RFC's text; ``urllib.parse`` is deliberately not used (it deviates).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .edition import (
    KIND_UNSPECIFIED,
    EditionResult,
    Note,
    empty_getters,
    hash_getter,
    search_getter,
)

ID = "rfc3986"
NAME = "RFC 3986 (strict)"
YEAR = 2005
SOURCE = "RFC 3986 (STD 66), Uniform Resource Identifier (URI): Generic Syntax"
TERMS: dict[str, str] = {
    "URI-reference": "URI / relative-ref (section 4.1): what a string must match to be valid",
    "relative-ref": "a reference without a scheme, resolved against a base URI (4.2)",
    "Appendix B": "the regular expression that splits any string into five components",
    "target URI (T)": "the result of resolving reference R against base URI Base (5.2)",
    "merge": "5.2.3: base path up to its last '/' followed by the reference's path",
    "remove_dot_segments": "5.2.4: the loop over an input buffer and an output buffer",
    "strict parser": "5.2.2: a scheme in the reference is always honoured (http:g -> http:g)",
    "syntax-based normalization": "6.2.2: case, percent-encoding and dot-segment rules",
}
UNSPECIFIED: list[str] = [
    "Strings that do not match URI-reference: the RFC defines no processing for them; "
    "urlcalc reports the failed rule and still shows the Appendix B split.",
    "Which characters may appear outside ASCII: none (IRIs are RFC 3987); urlcalc rejects them.",
    "Splitting userinfo into user and password: 3.2.1 deprecates 'user:password'; urlcalc "
    "maps username/password by splitting userinfo at its first ':' for the getters only.",
    "Scheme-based normalisation (6.2.3: default ports, empty path) is not part of 6.2.2; "
    "urlcalc does not apply it, so ':80' stays.",
    "Origin: RFC 3986 has no notion of origin (that is RFC 6454); the getter is absent.",
    "A reference without a base URI: 5.1 says a base must be established; urlcalc fails.",
]

# --- character classes (section 2, Appendix A) -------------------------------------------

ALPHA = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
DIGIT = frozenset("0123456789")
HEXDIG = frozenset("0123456789ABCDEFabcdef")
UNRESERVED = ALPHA | DIGIT | frozenset("-._~")
GEN_DELIMS = frozenset(":/?#[]@")
SUB_DELIMS = frozenset("!$&'()*+,;=")
RESERVED = GEN_DELIMS | SUB_DELIMS
PCHAR = UNRESERVED | SUB_DELIMS | frozenset(":@")  # plus pct-encoded
USERINFO = UNRESERVED | SUB_DELIMS | frozenset(":")  # plus pct-encoded
REG_NAME = UNRESERVED | SUB_DELIMS  # plus pct-encoded
QUERY = PCHAR | frozenset("/?")  # query and fragment (3.4, 3.5)
SCHEME_REST = ALPHA | DIGIT | frozenset("+-.")

# Appendix B, verbatim (DOTALL so that '.' matches any character, as the RFC intends).
APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", re.DOTALL)


@dataclass
class Components:
    """The five components of section 5.2.1 (``None`` = undefined, not empty)."""

    scheme: str | None
    authority: str | None
    path: str
    query: str | None
    fragment: str | None

    def to_json(self) -> dict[str, str | None]:
        return {
            "scheme": self.scheme,
            "authority": self.authority,
            "path": self.path,
            "query": self.query,
            "fragment": self.fragment,
        }


def split(s: str) -> Components:
    """Appendix B: split any string into scheme, authority, path, query and fragment."""
    m = APPENDIX_B.match(s)
    assert m is not None  # the expression matches every string
    return Components(m.group(2), m.group(4), m.group(5), m.group(7), m.group(9))


def recompose(c: Components) -> str:
    """Section 5.3: component recomposition."""
    out = ""
    if c.scheme is not None:
        out += c.scheme + ":"
    if c.authority is not None:
        out += "//" + c.authority
    out += c.path
    if c.query is not None:
        out += "?" + c.query
    if c.fragment is not None:
        out += "#" + c.fragment
    return out


# --- the ABNF validator ---------------------------------------------------------------------


@dataclass
class Validation:
    """Outcome of checking a string against URI-reference (4.1)."""

    valid: bool
    production: str  # "URI" or "relative-ref"
    rule: str | None = None  # the rule that failed
    section: str | None = None
    position: int | None = None  # offset of the offending character in the input
    message: str | None = None
    matched: list[tuple[str, str]] = field(default_factory=list)  # (rule, text) in order
    host_kind: str | None = None  # IP-literal / IPv4address / reg-name

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "production": self.production,
            "rule": self.rule,
            "section": self.section,
            "position": self.position,
            "message": self.message,
            "matched": [list(m) for m in self.matched],
            "host_kind": self.host_kind,
        }


class _Invalid(Exception):
    def __init__(self, rule: str, section: str, position: int, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.section = section
        self.position = position
        self.message = message


def _scan(text: str, allowed: frozenset[str], offset: int, rule: str, section: str) -> None:
    """Check ``text`` is ``*( allowed / pct-encoded )``; raise at the first offending char."""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "%":
            if i + 2 < len(text) and text[i + 1] in HEXDIG and text[i + 2] in HEXDIG:
                i += 3
                continue
            raise _Invalid(
                "pct-encoded",
                "2.1",
                offset + i,
                f"'%' at offset {offset + i} is not followed by two HEXDIG (in {rule})",
            )
        if ch not in allowed:
            raise _Invalid(
                rule, section, offset + i, f"{ch!r} at offset {offset + i} is not allowed in {rule}"
            )
        i += 1


def _is_dec_octet(s: str) -> bool:
    if not s or any(c not in DIGIT for c in s):
        return False
    if len(s) > 1 and s[0] == "0":
        return False
    return int(s) <= 255


def is_ipv4address(s: str) -> bool:
    """IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet (3.2.2)."""
    parts = s.split(".")
    return len(parts) == 4 and all(_is_dec_octet(p) for p in parts)


def _is_h16(s: str) -> bool:
    return 1 <= len(s) <= 4 and all(c in HEXDIG for c in s)


def is_ipv6address(s: str) -> bool:
    """IPv6address (3.2.2): the nine ABNF alternatives, counted in 16-bit pieces."""
    if s.count("::") > 1:
        return False

    def pieces(part: str, may_end_in_v4: bool) -> int | None:
        if part == "":
            return 0
        items = part.split(":")
        count = 0
        for k, item in enumerate(items):
            if k == len(items) - 1 and may_end_in_v4 and "." in item:
                if not is_ipv4address(item):
                    return None
                count += 2  # ls32 = IPv4address
            elif _is_h16(item):
                count += 1
            else:
                return None
        return count

    if "::" in s:
        left, right = s.split("::")
        nl = pieces(left, False)
        nr = pieces(right, True)
        return nl is not None and nr is not None and nl + nr <= 7
    n = pieces(s, True)
    return n == 8


def is_ipvfuture(s: str) -> bool:
    """IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )."""
    if len(s) < 4 or s[0] not in "vV":
        return False
    dot = s.find(".", 1)
    if dot <= 1 or dot == len(s) - 1:
        return False
    if any(c not in HEXDIG for c in s[1:dot]):
        return False
    allowed = UNRESERVED | SUB_DELIMS | frozenset(":")
    return all(c in allowed for c in s[dot + 1 :])


def _validate_authority(auth: str, offset: int, v: Validation) -> None:
    rest, rest_off = auth, offset
    at = auth.find("@")
    if at >= 0:
        _scan(auth[:at], USERINFO, offset, "userinfo", "3.2.1")
        v.matched.append(("userinfo", auth[:at]))
        rest, rest_off = auth[at + 1 :], offset + at + 1
    if rest.startswith("["):
        close = rest.find("]")
        if close < 0:
            raise _Invalid("IP-literal", "3.2.2", rest_off, "'[' without a closing ']'")
        literal = rest[1:close]
        if not (is_ipv6address(literal) or is_ipvfuture(literal)):
            raise _Invalid(
                "IP-literal",
                "3.2.2",
                rest_off + 1,
                f"{literal!r} is neither IPv6address nor IPvFuture",
            )
        v.host_kind = "IP-literal"
        v.matched.append(("host", rest[: close + 1]))
        after = rest[close + 1 :]
        if after and after[0] != ":":
            raise _Invalid(
                "authority", "3.2", rest_off + close + 1, f"{after[0]!r} after the IP-literal"
            )
        port, port_off = after[1:], rest_off + close + 2
        has_port = bool(after)
    else:
        colon = rest.find(":")
        host = rest if colon < 0 else rest[:colon]
        _scan(host, REG_NAME, rest_off, "reg-name", "3.2.2")
        v.host_kind = "IPv4address" if is_ipv4address(host) else "reg-name"
        v.matched.append(("host", host))
        has_port = colon >= 0
        port, port_off = (rest[colon + 1 :], rest_off + colon + 1) if has_port else ("", 0)
    if has_port:
        for k, ch in enumerate(port):
            if ch not in DIGIT:
                raise _Invalid(
                    "port", "3.2.3", port_off + k, f"{ch!r} at offset {port_off + k} is not a DIGIT"
                )
        v.matched.append(("port", port))


def _validate_segments(path: str, offset: int, rule: str, first_nc: bool) -> None:
    pos = offset
    for k, seg in enumerate(path.split("/")):
        if k == 0 and first_nc:
            _scan(seg, PCHAR - {":"}, pos, "segment-nz-nc", "3.3")
        else:
            _scan(seg, PCHAR, pos, rule, "3.3")
        pos += len(seg) + 1


def validate(s: str) -> Validation:
    """Check ``s`` against URI-reference = URI / relative-ref (4.1)."""
    m = APPENDIX_B.match(s)
    assert m is not None
    scheme = m.group(2)
    v = Validation(valid=True, production="URI" if scheme is not None else "relative-ref")
    try:
        if scheme is not None:
            if scheme[0] not in ALPHA:
                raise _Invalid(
                    "scheme", "3.1", 0, f"a scheme must begin with ALPHA, not {scheme[0]!r}"
                )
            for k, ch in enumerate(scheme):
                if ch not in SCHEME_REST:
                    raise _Invalid(
                        "scheme", "3.1", k, f"{ch!r} at offset {k} is not allowed in scheme"
                    )
            v.matched.append(("scheme", scheme))
        auth = m.group(4)
        path = m.group(5)
        path_off = m.start(5)
        if auth is not None:
            _validate_authority(auth, m.start(4), v)
            v.matched.append(("path-abempty", path))
            _validate_segments(path, path_off, "segment", False)
        elif path == "":
            v.matched.append(("path-empty", path))
        elif path.startswith("/"):
            v.matched.append(("path-absolute", path))
            _validate_segments(path, path_off, "segment", False)
        elif scheme is not None:
            v.matched.append(("path-rootless", path))
            _validate_segments(path, path_off, "segment", False)
        else:
            v.matched.append(("path-noscheme", path))
            _validate_segments(path, path_off, "segment", True)
        if m.group(7) is not None:
            _scan(m.group(7), QUERY, m.start(7), "query", "3.4")
            v.matched.append(("query", m.group(7)))
        if m.group(9) is not None:
            _scan(m.group(9), QUERY, m.start(9), "fragment", "3.5")
            v.matched.append(("fragment", m.group(9)))
    except _Invalid as e:
        v.valid = False
        v.rule, v.section, v.position, v.message = e.rule, e.section, e.position, e.message
    return v


# --- 5.2 reference resolution -----------------------------------------------------------------


def remove_dot_segments(path: str, steps: list[dict[str, Any]] | None = None) -> str:
    """Section 5.2.4, recording each pass of the loop as (rule, input buffer, output buffer)."""
    inp = path
    out: list[str] = []  # output buffer, as the list of strings moved to it

    def record(rule: str) -> None:
        if steps is not None:
            steps.append({"step": "5.2.4", "rule": rule, "input": inp, "output": "".join(out)})

    record("1")
    while inp:
        if inp.startswith("../"):
            inp = inp[3:]
            record("2A")
        elif inp.startswith("./"):
            inp = inp[2:]
            record("2A")
        elif inp.startswith("/./"):
            inp = "/" + inp[3:]
            record("2B")
        elif inp == "/.":
            inp = "/"
            record("2B")
        elif inp.startswith("/../") or inp == "/..":
            inp = "/" + inp[4:]
            if out:
                out.pop()
            record("2C")
        elif inp in (".", ".."):
            inp = ""
            record("2D")
        else:
            start = 1 if inp.startswith("/") else 0
            nxt = inp.find("/", start)
            seg = inp if nxt < 0 else inp[:nxt]
            out.append(seg)
            inp = inp[len(seg) :]
            record("2E")
    return "".join(out)


def merge(base: Components, ref_path: str) -> str:
    """Section 5.2.3."""
    if base.authority is not None and base.path == "":
        return "/" + ref_path
    slash = base.path.rfind("/")
    return ref_path if slash < 0 else base.path[: slash + 1] + ref_path


def resolve(
    r: Components,
    base: Components,
    *,
    strict: bool = True,
    trace: list[dict[str, Any]] | None = None,
) -> Components:
    """Section 5.2.2 (transform references), with each branch recorded in ``trace``."""

    def say(text: str) -> None:
        if trace is not None:
            trace.append({"step": "5.2.2", "text": text})

    def rds(p: str) -> str:
        return remove_dot_segments(p, trace)

    scheme = r.scheme
    same = scheme is not None and scheme.lower() == (base.scheme or "").lower()
    if not strict and same:
        say("non-strict: R.scheme equals Base.scheme, so R.scheme is undefined")
        scheme = None
    if scheme is not None:
        say(
            "R.scheme is defined: T takes R's scheme, authority, path (dot segments removed), query"
        )
        t = Components(scheme, r.authority, rds(r.path), r.query, None)
    else:
        if r.authority is not None:
            say("R.authority is defined: T takes R's authority, path and query")
            t = Components(None, r.authority, rds(r.path), r.query, None)
        else:
            if r.path == "":
                say(
                    "R.path is empty: T.path = Base.path; "
                    "T.query = R.query if defined, else Base.query"
                )
                q = r.query if r.query is not None else base.query
                t = Components(None, None, base.path, q, None)
            elif r.path.startswith("/"):
                say("R.path starts with '/': T.path = remove_dot_segments(R.path)")
                t = Components(None, None, rds(r.path), r.query, None)
            else:
                merged = merge(base, r.path)
                say(
                    f"T.path = merge(Base.path, R.path) = {merged!r} (5.2.3), "
                    "then remove_dot_segments"
                )
                t = Components(None, None, rds(merged), r.query, None)
            t.authority = base.authority
        t.scheme = base.scheme
    t.fragment = r.fragment
    say(f"T.fragment = R.fragment; T = {recompose(t)!r} (5.3)")
    return t


# --- 6.2.2 syntax-based normalisation --------------------------------------------------------

_PCT = re.compile(r"%([0-9A-Fa-f]{2})")


def _normalize_pct(s: str) -> str:
    """6.2.2.1 (uppercase hex in triplets) and 6.2.2.2 (decode unreserved octets)."""

    def fix(m: re.Match[str]) -> str:
        ch = chr(int(m.group(1), 16))
        return ch if ch in UNRESERVED else "%" + m.group(1).upper()

    return _PCT.sub(fix, s)


def _lower_outside_triplets(s: str) -> str:
    parts = re.split(r"(%[0-9A-Fa-f]{2})", s)
    return "".join(p if p.startswith("%") and len(p) == 3 else p.lower() for p in parts)


def split_authority(auth: str) -> tuple[str | None, str, str | None]:
    """Split ``authority`` into (userinfo, host, port) following 3.2's ABNF shape."""
    userinfo: str | None = None
    rest = auth
    at = auth.rfind("@")
    if at >= 0:
        userinfo, rest = auth[:at], auth[at + 1 :]
    if rest.startswith("[") and "]" in rest:
        close = rest.index("]")
        host, after = rest[: close + 1], rest[close + 1 :]
        return userinfo, host, (after[1:] if after.startswith(":") else None)
    colon = rest.rfind(":")
    if colon >= 0:
        return userinfo, rest[:colon], rest[colon + 1 :]
    return userinfo, rest, None


def normalize(c: Components, changes: list[str] | None = None) -> Components:
    """Section 6.2.2: case (6.2.2.1), percent-encoding (6.2.2.2), dot segments (6.2.2.3)."""
    authority = c.authority
    if authority is not None:
        userinfo, host, port = split_authority(authority)
        host = _lower_outside_triplets(_normalize_pct(host))
        authority = (
            (_normalize_pct(userinfo) + "@" if userinfo is not None else "")
            + host
            + (":" + port if port is not None else "")
        )
    path = _normalize_pct(c.path)
    if c.scheme is not None or authority is not None:
        path = remove_dot_segments(path)
    out = Components(
        c.scheme.lower() if c.scheme is not None else None,
        authority,
        path,
        _normalize_pct(c.query) if c.query is not None else None,
        _normalize_pct(c.fragment) if c.fragment is not None else None,
    )
    if changes is not None:
        if out.scheme != c.scheme:
            changes.append(f"6.2.2.1: scheme lowercased {c.scheme!r} -> {out.scheme!r}")
        if out.authority != c.authority:
            changes.append(f"6.2.2.1/6.2.2.2: authority {c.authority!r} -> {out.authority!r}")
        if out.path != c.path:
            changes.append(f"6.2.2.2/6.2.2.3: path {c.path!r} -> {out.path!r}")
        if out.query != c.query:
            changes.append(f"6.2.2.2: query {c.query!r} -> {out.query!r}")
        if out.fragment != c.fragment:
            changes.append(f"6.2.2.2: fragment {c.fragment!r} -> {out.fragment!r}")
    return out


# --- getters ------------------------------------------------------------------------------------

MAPPING_NOTES: dict[str, str] = {
    "href": "the target URI after 5.2 resolution and 6.2.2 normalisation, recomposed (5.3)",
    "origin": "RFC 3986 has no origin (RFC 6454 defines it later): no such notion",
    "protocol": "scheme + ':'",
    "username": "userinfo up to its first ':' (3.2.1 deprecates user:password)",
    "password": "userinfo after its first ':', or ''",
    "host": "host, plus ':' port when the port is non-empty (no default-port removal)",
    "hostname": "the host subcomponent (IP-literal keeps its brackets)",
    "port": "the port subcomponent as written (6.2.3 would remove default ports; not applied)",
    "pathname": "the path component",
    "search": "'?' + query when the query is non-empty, else ''",
    "hash": "'#' + fragment when the fragment is non-empty, else ''",
}


def getters_for(c: Components) -> dict[str, str | None]:
    g = empty_getters()
    g["href"] = recompose(c)
    g["protocol"] = (c.scheme or "") + ":"
    userinfo, host, port = (
        split_authority(c.authority)
        if c.authority is not None
        else (
            None,
            "",
            None,
        )
    )
    user, _, password = (userinfo or "").partition(":")
    g["username"] = user
    g["password"] = password
    g["hostname"] = host
    g["port"] = port or ""
    g["host"] = host + (":" + port if port else "")
    g["pathname"] = c.path
    g["search"] = search_getter(c.query)
    g["hash"] = hash_getter(c.fragment)
    return g


# --- the edition ---------------------------------------------------------------------------------


def parse(input: str, base: str | None = None) -> EditionResult:
    """Validate, split, resolve (5.2, strict) and normalise (6.2.2) ``input``."""
    res = EditionResult(edition=ID, ok=True, mapping_notes=dict(MAPPING_NOTES))
    res.getters = empty_getters()
    trace: list[dict[str, Any]] = []
    res.trace = trace
    v = validate(input)
    ref = split(input)
    res.components["appendix_b"] = ref.to_json()
    res.components["validation"] = v.to_json()
    if not v.valid:
        res.note(
            v.rule or "URI-reference",
            v.section or "4.1",
            f"not a URI-reference: {v.message}",
            ("href",),
        )
        return res.fail(f"rule {v.rule} (section {v.section}) failed: {v.message}")
    res.note(
        v.production,
        "4.1" if v.production == "URI" else "4.2",
        f"matches {v.production}: " + ", ".join(f"{r}={t!r}" for r, t in v.matched),
    )
    base_c = Components(None, None, "", None, None)
    if base is not None:
        bv = validate(base)
        if bv.valid and bv.production == "URI":
            base_c = split(base)
            if base_c.fragment is not None:
                res.note("5.2.1", "5.2.1", "the base URI's fragment is stripped before use")
                base_c.fragment = None
            res.components["base"] = base_c.to_json()
        else:
            reason = bv.message if not bv.valid else "it has no scheme"
            res.note("5.2.1", "5.2.1", f"the base must be a URI: {reason}",
                     ("href",) if ref.scheme is None else ())
            if ref.scheme is None:
                return res.fail(f"base is not a URI (5.2.1): {reason}")
    if ref.scheme is None and base_c.scheme is None:
        res.note("5.1", "5.1", "a relative reference needs a base URI; none was given")
        return res.fail("relative reference without a base URI (5.1)")
    target = resolve(ref, base_c, strict=True, trace=trace)
    res.components["target"] = target.to_json()
    res.components["target_href"] = recompose(target)
    loose = resolve(ref, base_c, strict=False)
    if recompose(loose) != recompose(target):
        res.components["non_strict_href"] = recompose(loose)
        res.alternatives["non-strict"] = getters_for(normalize(loose))
        res.note(
            "strict parser",
            "5.2.2",
            f"a strict parser keeps R's scheme: {recompose(target)!r}; a non-strict "
            f"(backward-compatible) parser would give {recompose(loose)!r}",
            ("href", "host", "hostname", "pathname"),
        )
    changes: list[str] = []
    normal = normalize(target, changes)
    res.components["normalized"] = normal.to_json()
    res.components["normalized_href"] = recompose(normal)
    for ch in changes:
        gs: tuple[str, ...] = ("href",)
        if "scheme" in ch:
            gs += ("protocol",)
        if "authority" in ch:
            gs += ("host", "hostname", "username", "password")
        if "path" in ch:
            gs += ("pathname",)
        if "query" in ch:
            gs += ("search",)
        if "fragment" in ch:
            gs += ("hash",)
        res.note("syntax-based normalization", ch.split(":", 1)[0].split("/", 1)[0], ch, gs)
    trace.append({"step": "6.2.2", "text": f"normalized: {recompose(normal)!r}"})
    res.getters = getters_for(normal)
    if ref.scheme is None:
        res.note("5.2.2", "5.2.2", f"resolved against the base: {recompose(target)!r}", ("href",))
    _, _, port = (
        split_authority(normal.authority)
        if normal.authority is not None
        else (
            None,
            "",
            None,
        )
    )
    if port is not None:
        res.note(
            "port",
            "3.2.3",
            f"port {port!r} is kept as written: default-port removal is scheme-based (6.2.3), "
            "which syntax-based normalisation (6.2.2) does not include",
            ("port", "host", "href"),
        )
    return res


# --- why a getter differs from the current standard's -------------------------------------------

#: Every section this edition cites, with the RFC's own words there (tests/data/seeds/ holds
#: the excerpts of RFC 3986 they are checked against).
SECTIONS: dict[str, str] = {
    "2.1": 'pct-encoded = "%" HEXDIG HEXDIG',
    "3.1": "scheme = ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" )",
    "3.2": 'The authority component is preceded by a double slash ("//") and is terminated by '
           'the next slash ("/"), question mark ("?"), or number sign ("#") character, or by '
           "the end of the URI.",
    "3.2.1": 'userinfo = *( unreserved / pct-encoded / sub-delims / ":" )',
    "3.2.2": "Note that other forms of dotted notation may be interpreted on some platforms, as "
             "described in Section 7.4, but only the dotted-decimal form of four octets is "
             "allowed by this grammar.",
    "3.2.3": "port = *DIGIT",
    "3.3": "pchar = unreserved / pct-encoded / sub-delims / \":\" / \"@\"",
    "3.4": 'query = *( pchar / "/" / "?" )',
    "3.5": 'fragment = *( pchar / "/" / "?" )',
    "4.1": "URI-reference = URI / relative-ref",
    "4.2": 'relative-ref = relative-part [ "?" query ] [ "#" fragment ]',
    "5.1": "A base URI must be established by the parser prior to parsing URI references that "
           "might be relative.",
    "5.2.1": "The base URI (Base) is established according to the procedure of Section 5.1 and "
             "parsed into the five main components described in Section 3.",
    "5.2.2": "-- A non-strict parser may ignore a scheme in the reference -- if it is identical "
             "to the base URI's scheme.",
    "5.2.3": "return a string consisting of the reference's path component appended to all but "
             "the last segment of the base URI's path",
    "5.2.4": "This is done after the path is extracted from a reference, whether or not the "
             "path was relative, in order to remove any invalid or extraneous dot-segments "
             "prior to forming the target URI.",
    "6.2.2.1": "the hexadecimal digits within a percent-encoding triplet (e.g., \"%3a\" versus "
               "\"%3A\") are case-insensitive and therefore should be normalized to use "
               "uppercase letters for the digits A-F.",
    "6.2.2.1 host": "the scheme and host are case-insensitive and therefore should be "
                    "normalized to lowercase.",
    "6.2.2.2": "These URIs should be normalized by decoding any percent-encoded octet that "
               "corresponds to an unreserved character, as described in Section 2.3.",
    "6.2.2.3": "URI normalizers should remove dot-segments by applying the remove_dot_segments "
               "algorithm to the path, as described in Section 5.2.4.",
    "6.2.3": "In general, a URI that uses the generic syntax for authority with an empty path "
             "should be normalized to a path of \"/\". Likewise, an explicit \":port\", for "
             "which the port is empty or the default for the scheme, is equivalent to one where "
             "the port and its \":\" delimiter are elided and thus should be removed by "
             "scheme-based normalization.",
}

_SCHEME_BASED = ("6.2.3 (scheme-based normalisation) is not part of syntax-based "
                 "normalisation (6.2.2), so RFC 3986 as urlcalc runs it does not apply it")


def _percent_note(getter: str, before: str | None, after: str | None, ours: str, cur: str,
                  grammar: tuple[str, str, str]) -> Note | None:
    """The rule behind a difference in percent-encoding only: 6.2.2.1 (hex case), 6.2.2.2
    (decoding unreserved octets), or the component's grammar (the characters are allowed)."""
    from .explain import how_differs, upper_triplets

    how = how_differs(ours, cur)
    if how not in ("hex-case", "kept", "encoded", "percent"):
        return None
    if before is not None and after is not None and before != after:
        if upper_triplets(before) != before and how in ("hex-case", "percent"):
            return Note("case normalization", "6.2.2.1",
                        "percent-encoding triplets are uppercased", (getter,))
        return Note("percent-encoding normalization", "6.2.2.2",
                    "percent-encoded octets of unreserved characters are decoded", (getter,))
    rule, section, production = grammar
    return Note(rule, section, f"kept as written: {production} allows these characters "
                "literally, and RFC 3986 never percent-encodes (it only validates)", (getter,))


_EMPTY_AUTHORITY = ("the authority ends at the next '/': it is empty here (an empty "
                    "reg-name), and no rule skips further slashes")


def _target(res: EditionResult, key: str) -> dict[str, Any]:
    value = res.components.get(key)
    return value if isinstance(value, dict) else {}


def explain(res: EditionResult, getter: str, ours: str, current: dict[str, str]) -> Note | None:
    """The rule of RFC 3986 that made ``getter`` differ from the current standard's."""
    from .explain import DEFAULT_PORTS, how_differs, is_ipv4, scheme_of

    cur = current.get(getter, "")
    target, normal = _target(res, "target"), _target(res, "normalized")
    alt = res.alternatives.get("non-strict")
    if alt is not None and alt.get(getter) != res.getters.get(getter):
        return Note("strict parser", "5.2.2",
                    "a strict parser honours the reference's scheme, so it is not resolved "
                    "against the base (a non-strict parser would give "
                    f"{res.components.get('non_strict_href')!r})", (getter,))
    authority_getters = ("username", "password", "hostname", "host", "port", "pathname")
    if normal.get("authority") is None and current.get("hostname") and \
            getter in authority_getters:
        return Note("authority", "3.2",
                    "without '//' there is no authority: the rest is the path", (getter,))
    scheme = scheme_of(current)
    if getter in ("username", "password"):
        auth_t, auth_n = target.get("authority") or "", normal.get("authority") or ""
        found = _percent_note(getter, auth_t, auth_n, ours, cur,
                              ("userinfo", "3.2.1", "userinfo"))
        if found is not None:
            return found
        return Note("user:password", "3.2.1",
                    "RFC 3986 deprecates 'user:password' and defines no split: urlcalc splits "
                    "userinfo at its first ':'", (getter,), KIND_UNSPECIFIED)
    if getter == "hostname":
        if is_ipv4(cur) and not is_ipv4(ours):
            return Note("IPv4address", "3.2.2",
                        f"{ours!r} is not dotted-decimal, so it is a reg-name, kept as written "
                        "(RFC 3986 has no other IPv4 number forms)", (getter,))
        if ours.startswith("["):
            return Note("IP-literal", "3.2.2",
                        "the IP-literal is kept as written: RFC 3986 defines no canonical IPv6 "
                        "text form", (getter,))
        if scheme == "file" and ours.lower() == "localhost" and cur == "":
            return Note("scheme-based normalization", "6.2.3",
                        f"'localhost' as the file host's default: {_SCHEME_BASED}", (getter,))
        found = _percent_note(getter, target.get("authority"), normal.get("authority"), ours,
                              cur, ("reg-name", "3.2.2", "reg-name"))
        if found is not None:
            return found
        if ours == "" and cur:
            return Note("authority", "3.2", _EMPTY_AUTHORITY, (getter,))
        if cur == "" and current.get("pathname", "").lower().startswith(f"/{ours.lower()}:"):
            return Note("authority", "3.2", f"the authority runs to the next '/': "
                        f"{normal.get('authority')!r} is the authority, not a drive letter "
                        "(RFC 3986 has none)", (getter,))
        if ours != cur and ours == cur.lower():
            return Note("case normalization", "6.2.2.1 host", "the host is lowercased by "
                        "syntax-based normalisation, whatever the scheme", (getter,))
        return Note("reg-name", "3.2.2",
                             "the host is kept as written (lowercased by 6.2.2.1 only): no IDNA, "
                             "no IPv4 or IPv6 parsing", (getter,))
    if getter == "port":
        if cur == "" and ours == DEFAULT_PORTS.get(scheme):
            return Note("scheme-based normalization", "6.2.3",
                        f"the default port {ours!r} stays: {_SCHEME_BASED}", (getter,))
        return Note("port", "3.2.3", f"the port is the digits as written ({ours!r}), not a "
                    "number: no leading zeros are dropped, no range is checked", (getter,))
    if getter == "pathname":
        if ours == "" and cur == "/":
            return Note("scheme-based normalization", "6.2.3",
                        f"an empty path stays empty: {_SCHEME_BASED}", (getter,))
        found = _percent_note(getter, target.get("path"), normal.get("path"), ours, cur,
                              ("pchar", "3.3", "pchar"))
        if found is not None:
            return found
        if "/" + ours == cur:
            return Note("path-rootless", "3.3",
                        "without an authority the path need not begin with '/'", (getter,))
        if res.getters.get("hostname") == "" and current.get("hostname") and \
                normal.get("authority") == "":
            return Note("authority", "3.2", _EMPTY_AUTHORITY, (getter,))
        ref = _target(res, "appendix_b")
        drive = re.match(r"/[A-Za-z]:", cur)
        if drive and not ours.lower().startswith(drive.group(0).lower()) and \
                drive.group(0)[1:].lower() in str(normal.get("authority") or "").lower():
            return Note("authority", "3.2", f"the authority runs to the next '/': "
                        f"{normal.get('authority')!r} is the authority, not a drive letter "
                        "(RFC 3986 has none)", (getter,))
        if ref.get("scheme") is None and ref.get("authority") is None and ref.get("path"):
            if str(ref["path"]).startswith("/"):
                return Note("transform references", "5.2.2", "an absolute-path reference "
                            "replaces the base's whole path (a drive letter included: RFC 3986 "
                            "has none)" if drive else "an absolute-path reference replaces the "
                            "base's whole path", (getter,))
            return Note("merge", "5.2.3", "the reference's path is merged with the base's "
                        "path up to its last '/', and remove_dot_segments (5.2.4) follows: every "
                        "segment is an ordinary segment (no Windows drive letters)", (getter,))
        if ref.get("path") != target.get("path") and how_differs(ours, cur) == "other":
            # 5.2.2 ran remove_dot_segments (5.2.4) on the reference's own path
            return Note("remove_dot_segments", "5.2.4", f"the reference's path "
                        f"{ref.get('path')!r} became {target.get('path')!r}: 5.2.2 applies "
                        "remove_dot_segments (5.2.4) to every reference's path, whether or not "
                        "it was relative (with any scheme, and to a path without a leading '/')",
                        (getter,))
        if target.get("path") != normal.get("path") and how_differs(ours, cur) == "other":
            return Note("path segment normalization", "6.2.2.3",
                        "remove_dot_segments (5.2.4) treats only literal '.' and '..' as dot "
                        "segments", (getter,))
        return Note("path", "3.3", "the path is kept as written (segments of pchar)", (getter,))
    if getter in ("search", "hash"):
        key, section = ("query", "3.4") if getter == "search" else ("fragment", "3.5")
        found = _percent_note(getter, target.get(key), normal.get(key), ours, cur,
                              (key, section, key))
        return found or Note(key, section, f"the {key} is kept as written", (getter,))
    if getter == "protocol":
        return Note("scheme", "3.1", "the scheme is kept (lowercased by 6.2.2.1)", (getter,))
    return None


def explain_serialization(res: EditionResult, getter: str, ours: str,
                          current: dict[str, str]) -> Note | None:
    """``href`` differs though every part agrees: the delimiters recomposition (5.3) keeps."""
    if getter != "href":
        return None
    authority = _target(res, "normalized").get("authority")
    if authority is None:
        return Note("authority", "3.2", "without '//' there is no authority, not even an empty "
                    "one", (getter,))
    userinfo, _, port = split_authority(authority)
    if port == "":
        return Note("scheme-based normalization", "6.2.3",
                    f"the empty port's ':' stays: {_SCHEME_BASED}", (getter,))
    if userinfo is not None and (userinfo == "" or userinfo.endswith(":")):
        return Note("userinfo", "3.2.1",
                    f"the userinfo {userinfo + '@'!r} is recomposed as written (5.3): its "
                    "delimiters are kept", (getter,))
    return None


def accepts(res: EditionResult, failure: str) -> Note:
    """The rule of RFC 3986 that accepts an input the current standard rejects."""
    from .explain import failure_part

    part = failure_part(failure)
    validation = res.components.get("validation") or {}
    if part == "port":
        return Note("port", "3.2.3", "port = *DIGIT: any number of digits, no range",
                    ("href",))
    if part == "host":
        kind = validation.get("host_kind") or "reg-name"
        return Note(kind, "3.2.2", f"the host matches {kind}, which RFC 3986 checks no further "
                    "(a reg-name may be empty, hold any sub-delims and pct-encoded octets, and "
                    "needs no DNS syntax)", ("href",))
    if part == "credentials":
        return Note("userinfo", "3.2.1", "userinfo is allowed with any scheme", ("href",))
    if part == "scheme" and res.components.get("base"):
        return Note("transform references", "5.2.2", "a relative reference is resolved "
                    "against any base URI: RFC 3986 has no opaque paths that refuse it",
                    ("href",))
    return Note(str(validation.get("production") or "URI-reference"), "4.1",
                "the input matches URI-reference: RFC 3986 has no other failure", ("href",))
