"""Edition 2: HTML5 "Web addresses" (W3C editor's draft factored out of HTML5, 2009).

Seed ``002_f3440f6941f3f8ef.txt``. Two algorithms:

* *parse a Web address*: strip spaces, percent-encode non-URI characters (the note says
  this includes "%", so existing escapes are double-encoded), the square-bracket rule,
  percent-encode every "#" after the first, parse with RFC 3986's grammar, and take the
  components as the *decoded* substrings (so they equal the original substrings).
* *resolve a Web address*: host -> UTF-8 expansion + IDNA2003 ToASCII (AllowUnassigned,
  UseSTD3ASCIIRules), path / query characters that are not allowed by RFC 3986 are
  percent-encoded, RFC 3986 section 5.2, and finally backslashes become slashes for
  schemes with a server-based naming authority.

Python's built-in ``encodings.idna`` (IDNA2003 nameprep) is used for ToASCII.
"""

from __future__ import annotations

import encodings.idna
import re
from dataclasses import dataclass
from typing import Any

from urlcalc.standard.percent import percent_decode

from . import rfc3986
from .edition import (
    KIND_UNSPECIFIED,
    MAX_TOASCII_PUNYCODE,
    TOASCII_DECIDED,
    EditionResult,
    Note,
    empty_getters,
    hash_getter,
    search_getter,
)

ID = "html5_2009"
NAME = "HTML5 Web addresses (2009)"
YEAR = 2009
SOURCE = "002_f3440f6941f3f8ef.txt (W3C HTML WG, Web addresses in HTML 5, 2009)"
TERMS: dict[str, str] = {
    "Web address": "any string used to identify a resource, valid or not",
    "valid Web address": "a URI-reference (RFC 3986) or a qualifying IRI-reference (RFC 3987)",
    "non-URI characters": "characters outside RFC 3986's unreserved and reserved sets",
    "decoded substring": "the substring matched by an RFC 3986 production, percent-decoded",
    "<hostport>": "host, plus ':' port only when the port differs from the scheme's default",
    "<host-specific>": "everything after the authority (or the whole string)",
    "URL character encoding": "the document's encoding (urlcalc: UTF-8)",
    "absolute Web address": "one that resolves to itself without an error",
}
UNSPECIFIED: list[str] = [
    "Parse step 2: the list of 'non-URI characters' is missing from the seed ('this "
    "probably needs to be laid out in more detail'); urlcalc encodes every character "
    "outside RFC 3986's unreserved + reserved sets, and '%' as the note says, as UTF-8.",
    "Parse step 3: the two prefixes that keep brackets are lost after the first ('://'); "
    "urlcalc uses '<scheme>://' and '//'.",
    "Components: the list of path productions is lost; urlcalc uses RFC 3986's "
    "path-abempty / path-absolute / path-noscheme / path-rootless / path-empty.",
    "Resolve, path and query steps: the per-character steps are lost; the example implies "
    "UTF-8 then percent-encoding of each byte, which urlcalc does (query: UTF-8 too, as "
    "the document encoding is not an input of the calculator).",
    "Resolve: ToASCII (RFC 3490) converts one label, and the draft applies it to the whole "
    "<host> substring ('if ToASCII fails to convert one of the components of the string'): "
    "urlcalc applies it to each label between dots (a trailing dot kept), so an IP-literal is "
    "one label, whose '[', ':' and ']' fail UseSTD3ASCIIRules, and an empty host one empty "
    "label, which fails step 8: both an error, as the text says.",
    "Resolve: RFC 3986 5.2 has a strict and a non-strict variant; the draft does not say "
    "which; urlcalc uses the strict one.",
    "Resolve: 'apply any relevant conformance criteria of RFC 3986 and RFC 3987' is not "
    "enumerated; urlcalc checks only the draft's own example (data: with an authority).",
    "Resolve: which schemes have a 'server-based naming authority' is not listed; urlcalc "
    "uses ftp, gopher, http, https, telnet, ws, wss.",
    "Default ports for <hostport> are not listed; urlcalc uses ftp 21, gopher 70, http 80, "
    "https 443, ws 80, wss 443.",
    "Without a base, a relative Web address resolves against the document's base, which a "
    "calculator does not have; urlcalc reports an error.",
    "No username / password / origin components or getters exist in this draft.",
]

SPACE_CHARACTERS = " \t\n\f\r"  # HTML5 "space characters"
URI_CHARACTERS = rfc3986.UNRESERVED | rfc3986.RESERVED
SERVER_BASED = frozenset({"ftp", "gopher", "http", "https", "telnet", "ws", "wss"})
DEFAULT_PORTS = {
    "ftp": "21",
    "gopher": "70",
    "http": "80",
    "https": "443",
    "ws": "80",
    "wss": "443",
}
PATH_CHARS = rfc3986.PCHAR | frozenset("/")
QUERY_CHARS = rfc3986.QUERY
LABEL_SEPARATORS = re.compile("[.\u3002\uff0e\uff61]")
LDH = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")


def _pct(ch: str) -> str:
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass"))


def _pct_decode(s: str) -> str:
    # RFC 3986 2.1 percent-decoding is the URL Standard's percent-decode; lone surrogates from
    # encoded UTF-16 halves stay as they are (the 2009 text predates the rule that replaces them)
    return percent_decode(s).decode("utf-8", "surrogatepass")


@dataclass
class WebAddress:
    """The components of a parsed Web address (all decoded substrings)."""

    scheme: str | None
    userinfo: str | None
    host: str | None
    port: str | None
    hostport: str | None
    path: str
    path_production: str
    query: str | None
    fragment: str | None
    host_specific: str

    def to_json(self) -> dict[str, str | None]:
        return {
            "<scheme>": self.scheme,
            "<host>": self.host,
            "<port>": self.port,
            "<hostport>": self.hostport,
            "<path>": self.path,
            "<path> production": self.path_production,
            "<query>": self.query,
            "<fragment>": self.fragment,
            "<host-specific>": self.host_specific,
        }


class WebAddressError(Exception):
    def __init__(self, rule: str, section: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.section = section


def preprocess(w: str, steps: list[dict[str, Any]] | None = None) -> str:
    """Parse steps 1-4: strip, encode non-URI characters, brackets, extra '#'."""

    def rec(step: str, text: str) -> None:
        if steps is not None:
            steps.append({"step": step, "w": text})

    w = w.strip(SPACE_CHARACTERS)
    rec("parse 1: strip leading and trailing space characters", w)
    w = "".join(ch if ch in URI_CHARACTERS else _pct(ch) for ch in w)
    rec("parse 2: percent-encode all non-URI characters (including '%')", w)
    m = re.match(r"[A-Za-z][A-Za-z0-9+.\-]*://|//", w)
    if m:
        after = w.find("//") + 2
        stop = min((k for k in (w.find(c, after) for c in "/?#") if k >= 0), default=len(w))
        w = w[:stop] + w[stop:].replace("[", "%5B").replace("]", "%5D")
        rec("parse 3: percent-encode brackets after the first '/', '?' or '#' after '//'", w)
    else:
        w = w.replace("[", "%5B").replace("]", "%5D")
        rec("parse 3: percent-encode all square brackets", w)
    first = w.find("#")
    if first >= 0:
        w = w[: first + 1] + w[first + 1 :].replace("#", "%23")
    rec("parse 4: percent-encode every '#' after the first", w)
    return w


def parse_web_address(w: str, steps: list[dict[str, Any]] | None = None) -> WebAddress:
    """'To parse a Web address w into its component parts' (the 2009 formulation)."""
    enc = preprocess(w, steps)
    v = rfc3986.validate(enc)
    if not v.valid:
        raise WebAddressError(
            v.rule or "URI-reference",
            "parse step 5",
            f"does not match <URI-reference> even after the changes: {v.message}",
        )
    c = rfc3986.split(enc)
    userinfo = host = port = None
    if c.authority is not None:
        userinfo, host, port = rfc3986.split_authority(c.authority)
    prod = next((r for r, _ in v.matched if r.startswith("path-")), "path-empty")

    def dec(x: str | None) -> str | None:
        return None if x is None else _pct_decode(x)

    scheme = dec(c.scheme)
    host_d, port_d = dec(host), dec(port)
    hostport = host_d
    known = scheme is not None and port_d is not None and host_d is not None
    if known and DEFAULT_PORTS.get((scheme or "").lower()) != port_d:
        hostport = f"{host_d}:{port_d}"
    hs_start = 0 if c.authority is None else enc.find("//") + 2 + len(c.authority)
    return WebAddress(
        scheme=scheme,
        userinfo=dec(userinfo),
        host=host_d,
        port=port_d,
        hostport=hostport,
        path=_pct_decode(c.path),
        path_production=prod,
        query=dec(c.query),
        fragment=dec(c.fragment),
        host_specific=_pct_decode(enc[hs_start:]),
    )


def to_ascii(domain: str) -> str:
    """RFC 3490 ToASCII with AllowUnassigned and UseSTD3ASCIIRules, label by label."""
    labels = LABEL_SEPARATORS.split(domain)
    trailing = len(labels) > 1 and labels[-1] == ""
    if trailing:
        labels = labels[:-1]
    out: list[str] = []
    for label in labels:
        step = label
        if any(ord(ch) > 0x7F for ch in step):
            step = encodings.idna.nameprep(step)  # step 2 (no unassigned check: AllowUnassigned)
        # step 3: UseSTD3ASCIIRules
        bad = [ch for ch in step if ord(ch) <= 0x7F and ch not in LDH]
        if bad:
            raise UnicodeError(f"step 3 (UseSTD3ASCIIRules): {bad[0]!r} in the label {label!r} "
                               "is not a letter, digit or hyphen")
        if step.startswith("-") or step.endswith("-"):
            raise UnicodeError("step 3 (UseSTD3ASCIIRules): leading or trailing hyphen")
        if any(ord(ch) > 0x7F for ch in step):
            if step.lower().startswith("xn--"):
                raise UnicodeError("label starts with the ACE prefix")  # step 5
            if len(step) > MAX_TOASCII_PUNYCODE:  # step 8's verdict, known before step 6
                raise UnicodeError(f"label empty or longer than 63 ({TOASCII_DECIDED})")
            step = "xn--" + step.encode("punycode").decode("ascii")  # steps 6-7
        if not 0 < len(step) < 64:
            raise UnicodeError(f"step 8: the label {step!r} is empty or longer than 63")
        out.append(step)
    return ".".join(out) + ("." if trailing else "")


def _recompose(
    scheme: str | None,
    userinfo: str | None,
    host: str | None,
    port: str | None,
    path: str,
    query: str | None,
    fragment: str | None,
) -> str:
    out = (scheme + ":") if scheme is not None else ""
    if host is not None:
        out += "//" + (userinfo + "@" if userinfo is not None else "") + host
        out += (":" + port) if port is not None else ""
    out += path
    out += ("?" + query) if query is not None else ""
    out += ("#" + fragment) if fragment is not None else ""
    return out


def resolve_web_address(
    w: str, base: str | None, res: EditionResult, steps: list[dict[str, Any]]
) -> str:
    """'To resolve a Web address to an absolute Web address'; raises WebAddressError."""
    w = w.strip(SPACE_CHARACTERS)
    base_c: rfc3986.Components | None = None
    if base is not None:
        try:
            b = resolve_web_address(base, None, EditionResult(ID, True), [])
        except WebAddressError as e:
            raise WebAddressError(
                "base", "resolve step 4", f"the base does not resolve: {e}"
            ) from e
        base_c = rfc3986.split(b)
        steps.append({"step": "resolve 4: base", "w": b})
    parts = parse_web_address(w, steps)
    res.components["parsed"] = parts.to_json()
    host = parts.host
    if host is not None:
        expanded = host
        if "%" in host:
            try:
                expanded = percent_decode(host).decode("utf-8")
            except UnicodeDecodeError as e:
                raise WebAddressError(
                    "host", "resolve: host", "percent-encoded octets in the host are not UTF-8"
                ) from e
        # "Apply the IDNA ToASCII algorithm to the matching substring": every <host>, an
        # IP-literal's brackets and an empty host included (the draft makes no exception)
        try:
            host = to_ascii(expanded)
        except UnicodeError as e:
            raise WebAddressError("ToASCII", "resolve: host error",
                                  f"ToASCII fails on the host {expanded!r}: {e}") from e
        if host != parts.host:
            res.note(
                "ToASCII",
                "resolve: host",
                f"host {parts.host!r} -> {host!r} (UTF-8 expansion + IDNA2003 ToASCII)",
                ("host", "hostname", "href"),
            )
        steps.append({"step": "resolve: host (UTF-8 expansion, ToASCII)", "host": host})
    path = "".join(ch if ch in PATH_CHARS or ch == "%" else _pct(ch) for ch in parts.path)
    if path != parts.path:
        res.note(
            "path characters",
            "resolve: path",
            f"characters not allowed in <path> are percent-encoded: {parts.path!r} -> {path!r}",
            ("pathname", "href"),
        )
    query = parts.query
    if query is not None:
        query = "".join(ch if ch in QUERY_CHARS or ch == "%" else _pct(ch) for ch in query)
        if query != parts.query:
            res.note(
                "query characters",
                "resolve: query",
                "characters not allowed in <query> are percent-encoded: "
                f"{parts.query!r} -> {query!r}",
                ("search", "href"),
            )
    w2 = _recompose(parts.scheme, parts.userinfo, host, parts.port, path, query, parts.fragment)
    steps.append({"step": "resolve: w after host / path / query steps", "w": w2})
    ref = rfc3986.split(w2)
    if ref.scheme is None and base_c is None:
        res.hit_unspecified(UNSPECIFIED[9])
        raise WebAddressError("base", "resolve step 4", "a relative Web address needs a base")
    trace: list[dict[str, Any]] = []
    target = rfc3986.resolve(
        ref, base_c or rfc3986.Components(None, None, "", None, None), trace=trace
    )
    steps.extend(trace)
    result = rfc3986.recompose(target)
    if (target.scheme or "").lower() == "data" and target.authority is not None:
        raise WebAddressError(
            "conformance criteria", "resolve: conformance criteria",
            "a data: URI using the '//' authority syntax",
        )
    if (target.scheme or "").lower() in SERVER_BASED:
        if "\\" in result:
            result = result.replace("\\", "/")
            # the getters whose part held a backslash that became '/'
            held = (("pathname", target.path), ("search", target.query),
                    ("hash", target.fragment))
            res.note(
                "server-based backslashes",
                "resolve: last step",
                "U+005C in the result replaced by U+002F (server-based naming authority)",
                ("href", *(g for g, part in held if part and "\\" in part)),
            )
        elif "\\" in w:
            res.note(
                "server-based backslashes",
                "resolve: last step",
                "the input's backslashes were percent-encoded (%5C) by the parse and path steps "
                "before the last step could turn them into slashes",
                ("href", "pathname", "host", "hostname"),
            )
    steps.append({"step": "resolve: result", "w": result})
    return result




MAPPING_NOTES: dict[str, str] = {
    "href": "the absolute Web address returned by the resolve algorithm",
    "origin": "not defined by this draft (HTML5 defines origin elsewhere): no such notion",
    "protocol": "<scheme> + ':' (case kept: the draft does not lowercase)",
    "username": "the draft has no userinfo component: no such notion",
    "password": "the draft has no userinfo component: no such notion",
    "host": "<hostport> (host, plus ':' port only when not the default port)",
    "hostname": "<host>",
    "port": "<port> (kept even when it is the default port)",
    "pathname": "<path>",
    "search": "'?' + <query> when non-empty, else ''",
    "hash": "'#' + <fragment> when non-empty, else ''",
}


def parse(input: str, base: str | None = None) -> EditionResult:
    """Resolve ``input`` against ``base`` and parse the result into its components."""
    res = EditionResult(edition=ID, ok=True, mapping_notes=dict(MAPPING_NOTES))
    res.getters = empty_getters()
    steps: list[dict[str, Any]] = []
    res.trace = steps
    try:
        result = resolve_web_address(input, base, res, steps)
        final = parse_web_address(result)
    except WebAddressError as e:
        res.note(e.rule, e.section, str(e), ("href",))
        return res.fail(str(e))
    res.components["result"] = result
    res.components["result components"] = final.to_json()
    g = res.getters
    g["href"] = result
    g["protocol"] = (final.scheme or "") + ":"
    g["hostname"] = final.host or ""
    g["port"] = final.port or ""
    g["host"] = final.hostport or ""
    g["pathname"] = final.path
    g["search"] = search_getter(final.query)
    g["hash"] = hash_getter(final.fragment)
    if final.scheme is not None and final.scheme != final.scheme.lower():
        res.note(
            "no case normalisation",
            "parse: components",
            "the draft keeps the scheme's case",
            ("protocol", "href"),
        )
    if final.port is not None and final.hostport == final.host:
        res.note(
            "<hostport>",
            "parse: components",
            f"<hostport> omits the default port {final.port!r}, but <port> keeps it",
            ("port",),
        )
    if (
        final.port is not None
        and final.port != ""
        and DEFAULT_PORTS.get((final.scheme or "").lower()) == final.port
    ):
        res.note("port kept", "parse: components", "no default-port removal in href", ("href",))
    return res


# --- why a getter differs from the current standard's -------------------------------------------

#: Every section this edition cites, with the seed's own words there (the draft numbers no
#: sections: its two algorithms, "parse" and "resolve", and their steps are the places).
SECTIONS: dict[str, str] = {
    "parse": "To parse a Web address w into its component parts, the user agent must use the "
             "following steps:",
    "parse step 5": "If w doesn't match the <URI-reference> production, even after the above "
                    "changes are made to it, then parsing the Web address fails with an error.",
    "parse: components": "First, the substring of the modified w which matched a particular "
                         "production in RFC 3986 is identified; then any percent-encoded "
                         "characters in that substring are decoded.",
    "parse: <hostport>": "and the port given by the <port> component is different than the "
                         "default port defined for the protocol given by the <scheme> "
                         "component, then <hostport> is the decoded substring that starts with "
                         "the decoded substring matched by the <host> production and ends with "
                         "the decoded substring matched by the <port> production, and includes "
                         "the colon in between the two.",
    "resolve": "To resolve a Web address to an absolute Web adddress relative to either another "
               "absolute Web address or an element",
    "resolve step 4": "If the algorithm was invoked with an absolute Web address to use as the "
                      "base Web address, let base be that absolute Web address.",
    "resolve: host expansion": "If parsing w resulted in a <host> component, then replace "
                               "the matching subtring of w with the string that results from "
                               "expanding any sequences of percent-encoded octets in that "
                               "component that are valid UTF-8 sequences into Unicode "
                               "characters as defined by UTF-8.",
    "resolve: host": "Apply the IDNA ToASCII algorithm to the matching substring, with both the "
                     "AllowUnassigned and UseSTD3ASCIIRules flags set.",
    "resolve: host error": "If ToASCII fails to convert one of the components of the string, "
                           "e.g. because it is too long or because it contains invalid "
                           "characters, then return an error and abort these steps",
    "resolve: path": "that doesn't match the original <path> production defined in RFC 3986:",
    "resolve: query": "that doesn't match the original <query> production defined in RFC 3986:",
    "resolve: RFC 3986 5.2": "Apply the algorithm described in RFC 3986 section 5.2 Relative "
                             "Resolution, using w as the potentially relative URI reference (R), "
                             "and base as the base URI (Base).",
    "resolve: conformance criteria": "Apply any relevant conformance criteria of RFC 3986 and "
                                     "RFC 3987, returning an error and aborting these steps if "
                                     "appropriate.",
    "resolve: last step": "If result uses a scheme with a server-based naming authority, "
                          "replace all U+005C REVERSE SOLIDUS (\\) characters in result with "
                          "U+002F SOLIDUS (/) characters.",
}


def explain(res: EditionResult, getter: str, ours: str, current: dict[str, str]) -> Note | None:
    """The rule of the 2009 draft that made ``getter`` differ from the current standard's."""
    from .explain import PARTS, how_differs, is_ipv4, scheme_of

    cur = current.get(getter, "")
    how = how_differs(ours, cur)
    backslashes = next((n for n in res.notes if n.rule == "server-based backslashes"
                        and getter in n.getters), None)
    if backslashes is not None and getter not in PARTS:
        return Note(backslashes.rule, backslashes.section, backslashes.text, (getter,))
    parts = res.components.get("result components") or {}
    if parts.get("<host>") is None and current.get("hostname") and getter in (
            "host", "hostname", "port", "pathname"):
        return Note("RFC 3986 5.2 (strict)", "resolve: RFC 3986 5.2", "RFC 3986 5.2 has a "
                    "strict and a non-strict variant and the draft does not say which; urlcalc's "
                    "strict choice honours the reference's scheme, so there is no authority "
                    "(no '//')", (getter,), KIND_UNSPECIFIED)
    if getter == "host" and res.getters.get("hostname") == current.get("hostname"):
        port = res.getters.get("port") or ""
        if port and port == DEFAULT_PORTS.get(scheme_of(current).lower()):
            return Note("default ports", "parse: <hostport>", "the draft lists no default "
                        f"ports; urlcalc's list makes {port!r} the default for "
                        f"{scheme_of(current)!r}, so <hostport> leaves it out", (getter,),
                        KIND_UNSPECIFIED)
        return Note("<hostport>", "parse: <hostport>", f"the port {port!r} is not the "
                    "default, so <hostport> is host ':' port", (getter,))
    if getter == "protocol":
        return Note("<scheme>", "parse: components", "the scheme is the decoded substring "
                    "matched by <scheme>: its case is kept", (getter,))
    if getter == "hostname":
        if is_ipv4(cur) and not is_ipv4(ours):
            return Note("<host>", "parse: components", "the host is the decoded substring "
                        "matched by <host> (an RFC 3986 reg-name): no IPv4 number forms",
                        (getter,))
        if ours.startswith("["):
            return Note("<host>", "parse: components", "the IP-literal is the decoded "
                        "substring matched by <host>, kept as written", (getter,))
        return _hostname_cause(res, ours, cur, scheme_of(current))
    if getter == "port":
        if cur == "" and ours == DEFAULT_PORTS.get(scheme_of(current).lower()):
            return Note("<port>", "parse: components", "<port> is the decoded substring matched "
                        "by <port>, default or not (only <hostport> leaves the default port "
                        "out)", (getter,))
        return Note("<port>", "parse: components", "<port> is the decoded substring matched by "
                    "<port>: digits as written, not a number", (getter,))
    if getter == "pathname":
        if ours == "" and cur == "/":
            return Note("<path>", "parse: components", "an empty <path> after the authority "
                        "stays empty", (getter,))
        if how in ("encoded", "kept", "percent", "hex-case"):
            return Note("path characters", "resolve: path", "characters that do not match "
                        "RFC 3986's <path> production are percent-encoded (UTF-8)", (getter,))
        if parts.get("<host>") is not None and (res.components.get("parsed") or {}).get(
                "<host>") is None:
            return Note("RFC 3986 5.2", "resolve: RFC 3986 5.2", "after remove_dot_segments "
                        "the target's path begins with '//', so its recomposition (5.3) reads "
                        "as an authority: the path's first segment became the host", (getter,))
        return Note("RFC 3986 5.2", "resolve: RFC 3986 5.2", "RFC 3986's resolution decides the "
                    "path; remove_dot_segments treats only literal '.' and '..' as dot segments",
                    (getter,))
    if getter == "search":
        return Note("query characters", "resolve: query", "only characters that do not match "
                    "RFC 3986's <query> production are percent-encoded", (getter,))
    if getter == "hash":
        return Note("<fragment>", "parse: components", "the fragment is a decoded substring "
                    "and no resolve step encodes it again", (getter,))
    return None


#: The current URL Standard's special schemes (whose hosts it parses as domains).
_SPECIAL = frozenset({"ftp", "file", "http", "https", "ws", "wss"})


def _hostname_cause(res: EditionResult, ours: str, cur: str, scheme: str) -> Note:
    """Which step of the 2009 draft made the hostname ``ours`` where the current standard has
    ``cur``: ToASCII's case only when case is all that differs; otherwise the step that made
    the host (5.2's recomposition, the <host> substring as matched, the UTF-8 expansion, or
    ToASCII's Nameprep)."""
    parsed = res.components.get("parsed") or {}
    given = parsed.get("<host>")
    if given is None:
        return Note("RFC 3986 5.2", "resolve: RFC 3986 5.2", "the input has no <host>: the "
                    "target URI of 5.2 (and its recomposition, 5.3) gives the host "
                    f"{ours!r}, from the base or from a path that starts with '//'",
                    ("hostname",))
    if ours.lower() == cur.lower():
        return Note("ToASCII", "resolve: host", "IDNA2003 ToASCII (AllowUnassigned, "
                    "UseSTD3ASCIIRules) keeps an ASCII label as it is: no lowercasing",
                    ("hostname",))
    expanded = _pct_decode(given) if "%" in given else given
    if scheme not in _SPECIAL:
        section = "resolve: host expansion" if expanded != given else "resolve: host"
        return Note("ToASCII" if section == "resolve: host" else "UTF-8 expansion", section,
                    f"the draft expands and applies ToASCII to every <host>, whatever the "
                    f"scheme: {given!r} -> {ours!r} (the current standard keeps a "
                    f"{scheme!r} URL's host opaque)", ("hostname",))
    if expanded == ours or (ours == given and not any(ord(c) > 0x7F for c in given)):
        return Note("<host>", "parse: components", f"the host is the substring matched by "
                    f"<host>, {given!r}: no rule of the draft changes it (the current "
                    "standard's host parser does)", ("hostname",))
    if expanded != given:
        return Note("UTF-8 expansion", "resolve: host expansion", f"the host {given!r} is "
                    f"expanded from UTF-8 and given to IDNA2003 ToASCII: {ours!r}",
                    ("hostname",))
    return Note("ToASCII", "resolve: host", f"IDNA2003 ToASCII (Nameprep, AllowUnassigned, "
                f"UseSTD3ASCIIRules) maps {given!r} to {ours!r}, where the current standard's "
                "UTS #46 gives another value (Nameprep maps some code points, such as ß, "
                "differently, and keeps ASCII labels' case)", ("hostname",))


def explain_serialization(res: EditionResult, getter: str, ours: str,
                          current: dict[str, str]) -> Note | None:
    """``href`` differs though every part agrees: RFC 3986 recomposition (5.3) of the authority
    as written (the draft has no userinfo component)."""
    if getter != "href":
        return None
    return Note("RFC 3986 5.2", "resolve: RFC 3986 5.2", "the target URI is RFC 3986's "
                "recomposition of the components as written: userinfo (which this draft does "
                "not split) and empty delimiters stay", (getter,))


def accepts(res: EditionResult, failure: str) -> Note:
    """The rule of the 2009 draft that accepts an input the current standard rejects."""
    from .explain import failure_part

    part = failure_part(failure)
    what = {"port": "<port> is RFC 3986's port = *DIGIT: no range",
            "host": "<host> is an RFC 3986 reg-name, and ToASCII accepts it",
            }.get(part, "after parse steps 1-4 the string matches RFC 3986's <URI-reference>")
    return Note("<URI-reference>", "parse step 5", what, ("href",))
