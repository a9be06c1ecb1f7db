"""Edition 6: a formal model of URLs (URL Specification 0.9.0, a rephrasing of WHATWG).

Seed ``004_2bd83c95cfeb75ec.txt``. A URL is a *sequence of typed components*, ordered

    scheme < authority < drive < path-root < dir < file < query < fragment

and reference resolution is algebra on such sequences: ``ord``, ``upto``, ``goto``,
``force``, generic / legacy / WHATWG resolution, then path, authority and scheme-based
normalisation and printing. Every operation's intermediate result is recorded in the
trace, so resolution can be read step by step.
"""

from __future__ import annotations

import encodings.idna
import re
from typing import Any

from urlcalc.standard.percent import percent_decode

from .edition import (
    KIND_UNSPECIFIED,
    MAX_TOASCII_PUNYCODE,
    TOASCII_DECIDED,
    EditionResult,
    Note,
    empty_getters,
)

ID = "formal_model"
NAME = "Formal URL model (URL Specification 0.9)"
YEAR = 2016
SOURCE = "004_2bd83c95cfeb75ec.txt (URL Specification, version 0.9.0, a formal model)"
TERMS: dict[str, str] = {
    "component": "a tagged value (type value); types are ordered scheme < authority < drive "
    "< path-root < dir < file < query < fragment",
    "ord": "the order of a URL: the type of its first component (fragment if empty)",
    "upto": "url upto order: the prefix with the components below order (dirs up to it)",
    "goto": "url1 goto url2: url1 upto (ord url2) followed by url2 (RFC 3986's merge, as algebra)",
    "force": "makes a web- or file-URL have an authority and a path-root (may fail)",
    "generic resolution": "url2 goto url1, when either has a scheme (RFC 3986 strict)",
    "legacy resolution": "generic resolution after dropping url1's scheme if it equals url2's",
    "WHATWG resolution": "force (legacy-resolve ...) for web/file URLs, else generic",
    "parser mode": "web-mode, file-mode or generic-mode, from the scheme or the base",
    "web-URL / file-URL": "a URL whose scheme is http(s), ws(s), ftp / file",
    "percent-encode profile": "which characters each component type must percent-encode",
}
UNSPECIFIED: list[str] = [
    "Percent encoding: 'To percent-encode a string ... Wrap this up.'; the profile tables "
    "(generic, special, minimal, minimal-special) are lost in the seed; urlcalc uses the "
    "current URL Standard's percent-encode sets (userinfo, path, query, special-query, "
    "fragment, C0 control) for the printable-ASCII part.",
    "Host parsing is only listed (percent decode, puny decode, IDNA/Nameprep, IPv4, "
    "forbidden code points); urlcalc uses UTF-8 percent-decoding, ASCII lowercasing, "
    "IDNA2003 Nameprep + Punycode (Python's encodings.idna), the seed's ip4-address grammar "
    "with the current standard's interpretation of the numbers, and hchar as the forbidden "
    "set; opaque hosts (generic-mode) are kept as written.",
    "IPv6 addresses ('Double check the following, and include it here'): urlcalc keeps the "
    "bracketed text, lowercased, without compressing it.",
    "pathname getter '(...)': urlcalc prints the drive, path-root, dir and file components.",
    "The origin getter is not listed: no such notion.",
    "The loose url-char set is lost in the seed ('any \\'); urlcalc uses any code point.",
    "The second member of hchar's exclusion list is lost; urlcalc reads it as U+0020 space.",
    "Without a base the fallback parser mode is not given; urlcalc uses generic-mode.",
    "Printing drive letters is 'an open issue'; urlcalc prints (authority)(drive) as "
    "'//' authority '/' drive.",
]

ORDER = ("scheme", "authority", "drive", "path-root", "dir", "file", "query", "fragment")
RANK = {t: i for i, t in enumerate(ORDER)}
WEB_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp"})
DEFAULT_PORTS = {"http": 80, "ws": 80, "ftp": 21, "wss": 443, "https": 443}
ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
C0_SPACE = "".join(chr(c) for c in range(0x21))
DOT = (".", "%2e", "%2E")
DOTS = tuple(a + b for a in DOT for b in DOT)

Component = tuple[str, Any]
URL = list[Component]


class ModelFailure(Exception):
    def __init__(self, rule: str, section: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.section = section


# --- display -------------------------------------------------------------------------------


def show_authority(auth: dict[str, Any]) -> str:
    if not auth:
        return "ε"
    return "・".join(
        f"({k} {auth[k] if auth[k] != '' else 'ε'})"
        for k in ("username", "password", "host", "port")
        if k in auth
    )


def show(url: URL) -> str:
    """The component sequence in the seed's notation, e.g. (scheme http)・(dir a)."""
    if not url:
        return "ε"
    parts = []
    for t, v in url:
        if t == "authority":
            parts.append(f"(authority {show_authority(v)})")
        else:
            parts.append(f"({t} {v if v != '' else 'ε'})")
    return "・".join(parts)


def has(url: URL, t: str) -> bool:
    return any(c[0] == t for c in url)


def get(url: URL, t: str) -> Any:
    return next((v for k, v in url if k == t), None)


def scheme_of(url: URL) -> str | None:
    s = get(url, "scheme")
    return s.lower() if isinstance(s, str) else None


def is_web(url: URL) -> bool:
    return scheme_of(url) in WEB_SCHEMES


def is_file(url: URL) -> bool:
    return scheme_of(url) == "file"


# --- order, upto, goto (Reference Resolution) ------------------------------------------------


def ord_(url: URL) -> str:
    """The order of an URL: fragment for ε, else the type of its first component."""
    return "fragment" if not url else url[0][0]


def upto(url: URL, order: str) -> URL:
    """Order-limited prefix: types strictly below order, and dirs when dir <= order."""
    return [
        c for c in url if RANK[c[0]] < RANK[order] or (c[0] == "dir" and RANK[order] >= RANK["dir"])
    ]


def _fix_path_root(url: URL) -> URL:
    """The path-root-constraint: authority or drive + dir or file => a path-root."""
    rooted = has(url, "authority") or has(url, "drive")
    if rooted and (has(url, "dir") or has(url, "file")) and not has(url, "path-root"):
        url = [*url, ("path-root", "/")]
        url.sort(key=lambda c: RANK[c[0]])
    return url


def goto(url1: URL, url2: URL) -> URL:
    """url1 goto url2: the shortest URL with prefix (url1 upto ord url2) and postfix url2."""
    out = upto(url1, ord_(url2)) + list(url2)
    out.sort(key=lambda c: RANK[c[0]])  # stable: dirs keep their order
    return _fix_path_root(out)


def force_file(url: URL) -> URL:
    url = list(url)
    auth = get(url, "authority")
    if auth is None:
        url.append(("authority", {}))
    elif "username" in auth or "port" in auth:
        raise ModelFailure("force", "Forced File URL", "a file URL with a username or a port")
    if not has(url, "drive") and not has(url, "path-root"):
        url.append(("path-root", "/"))
    url.sort(key=lambda c: RANK[c[0]])
    return url


def force_web(url: URL) -> URL:
    url = [c for c in url if c[0] != "path-root"] + [("path-root", "/")]
    url.sort(key=lambda c: RANK[c[0]])
    if get(url, "authority"):
        return url
    idx = next((i for i, (t, v) in enumerate(url) if t in ("dir", "file") and v != ""), None)
    if idx is None:
        raise ModelFailure("force", "Forced Web URL", "no authority and no non-empty dir or file")
    value = url[idx][1]
    url = [c for i, c in enumerate(url) if not (c[0] in ("dir", "file") and i <= idx)]
    auth = parse_authority(value, "web")
    url = [c for c in url if c[0] != "authority"] + [("authority", auth)]
    url.sort(key=lambda c: RANK[c[0]])
    return url


def force(url: URL) -> URL:
    return force_file(url) if is_file(url) else force_web(url)


def generic_resolve(url1: URL, url2: URL) -> URL:
    if not (has(url2, "scheme") or has(url1, "scheme")):
        raise ModelFailure("generic resolution", "Generic Resolution", "neither URL has a scheme")
    return goto(url2, url1)


def legacy_strip(url1: URL, url2: URL) -> URL:
    s1, s2 = scheme_of(url1), scheme_of(url2)
    if s1 is not None and s1 == s2:
        return [c for c in url1 if c[0] != "scheme"]
    return url1


def whatwg_resolve(url1: URL, url2: URL, trace: list[dict[str, Any]]) -> URL:
    def rec(op: str, value: URL, **extra: Any) -> None:
        trace.append({"op": op, "result": show(value), **extra})

    special1 = is_web(url1) or is_file(url1)
    if special1 or (not has(url1, "scheme") and (is_web(url2) or is_file(url2))):
        stripped = legacy_strip(url1, url2)
        if stripped is not url1:
            rec("legacy-resolve: drop url1's scheme (same as the base's)", stripped)
        o = ord_(stripped)
        prefix = upto(url2, o)
        rec(f"ord url1 = {o}; base upto {o}", prefix)
        if not (has(url2, "scheme") or has(stripped, "scheme")):
            raise ModelFailure(
                "generic resolution", "Generic Resolution", "neither URL has a scheme"
            )
        g = goto(url2, stripped)
        rec("base goto url1", g)
        f = force(g)
        rec("force", f, modified=f != g)
        return f
    first = url1[0][0] if url1 else None
    if first in ("scheme", "fragment") or has(url2, "authority") or has(url2, "path-root"):
        o = ord_(url1)
        rec(f"ord url1 = {o}; base upto {o}", upto(url2, o))
        g = generic_resolve(url1, url2)
        rec("generic-resolve: base goto url1", g)
        return g
    raise ModelFailure(
        "WHATWG resolution",
        "WHATWG Resolution",
        "url1 is not a web/file URL, does not start with a scheme or fragment, "
        "and the base has no authority or path-root",
    )


# --- parsing --------------------------------------------------------------------------------


def preprocess(s: str) -> str:
    s = s.strip(C0_SPACE)
    return s.replace("\t", "").replace("\n", "").replace("\r", "")


SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*(?=:)")
HCHAR_EXCLUDED = frozenset("#?:@\x00 <>[\\]^|/")


def mode_for(s: str, supplied: str) -> str:
    m = SCHEME_RE.match(s)
    if not m:
        return supplied
    low = m.group(0).lower()
    return "web" if low in WEB_SCHEMES else "file" if low == "file" else "generic"


def parse_authority(text: str, mode: str) -> dict[str, Any]:
    """authority ::= ε | [credentials '@'] host [':' port]."""
    auth: dict[str, Any] = {}
    if text == "":
        return auth
    rest = text
    if "@" in text:
        cred, rest = text.rsplit("@", 1)
        user, sep, pw = cred.partition(":")
        auth["username"] = user
        if sep:
            auth["password"] = pw
    port: str | None = None
    if rest.startswith("["):
        close = rest.find("]")
        if close < 0:
            raise ModelFailure("host", "URL Grammar", "'[' without ']'")
        host, after = rest[: close + 1], rest[close + 1 :]
        if after:
            if not after.startswith(":"):
                raise ModelFailure("authority", "URL Grammar", f"{after!r} after the IPv6 host")
            port = after[1:]
    else:
        host, sep, p = rest.partition(":")
        if sep:
            port = p
        bad = [c for c in host if c in HCHAR_EXCLUDED]
        if bad:
            raise ModelFailure("opaque-host", "URL Grammar", f"{bad[0]!r} is not an hchar")
        if host == "":
            raise ModelFailure("opaque-host", "URL Grammar", "opaque-host ::= (pcts | hchar)+")
    auth["host"] = host
    if port is not None:
        if port and not port.isdigit():
            raise ModelFailure("port", "URL Grammar", f"port {port!r} is not digit+")
        if port and int(port) >= 2**16:
            raise ModelFailure("port", "URL components", "a port must be < 2^16")
        auth["port"] = int(port) if port else ""
    return auth


def _path_rel(text: str, s: str) -> URL:
    """path-rel ::= (dir s)* [file]."""
    pieces = re.split("[" + re.escape(s) + "]", text) if text else [""]
    out: URL = [("dir", p) for p in pieces[:-1]]
    if pieces[-1] != "":
        out.append(("file", pieces[-1]))
    return out


def _drive(t: str, s: str) -> tuple[str, str] | None:
    if len(t) >= 2 and t[0] in ALPHA and t[1] in ":|" and (len(t) == 2 or t[2] in s):
        return t[:2], t[2:]
    return None


def parse_string(s: str, supplied_mode: str) -> tuple[URL, str]:
    """The URL grammar (loose), parameterised by the parser mode."""
    url: URL = []
    mode = mode_for(s, supplied_mode)
    slashes = "/" if mode == "generic" else "/\\"
    m = SCHEME_RE.match(s)
    rest = s
    if m:
        url.append(("scheme", m.group(0)))
        rest = s[m.end() + 1 :]
    fragment = query = None
    if "#" in rest:
        rest, fragment = rest.split("#", 1)
    if "?" in rest:
        rest, query = rest.split("?", 1)

    def two(t: str) -> bool:
        return len(t) >= 2 and t[0] in slashes and t[1] in slashes

    def after_root(t: str) -> None:
        if t:
            url.append(("path-root", "/"))  # path-root ::= s; its value is the string "/"
            url.extend(_path_rel(t[1:], slashes))

    def authority_then(t: str) -> str:
        end = next((i for i, c in enumerate(t) if c in slashes), len(t))
        url.append(("authority", parse_authority(t[:end], mode)))
        return t[end:]

    if mode == "file":
        if two(rest):
            after = rest[2:]
            d = _drive(after[1:], slashes) if after[:1] and after[0] in slashes else None
            d = d or _drive(after, slashes)
            if d:  # [s s authority-ε] [s] drive
                url.append(("authority", {}))
                url.append(("drive", d[0]))
                after_root(d[1])
            else:  # s s authority [s drive]
                t = authority_then(after)
                d2 = _drive(t[1:], slashes) if t else None
                if d2:
                    url.append(("drive", d2[0]))
                    t = d2[1]
                after_root(t)
        else:
            d = _drive(rest[1:], slashes) if rest[:1] and rest[0] in slashes else None
            d = d or _drive(rest, slashes)
            if d:
                url.append(("drive", d[0]))
                after_root(d[1])
            elif rest[:1] and rest[0] in slashes:
                after_root(rest)
            else:
                url.extend(_path_rel(rest, slashes))
    elif two(rest):
        after_root(authority_then(rest[2:]))
    elif rest[:1] and rest[0] in slashes:
        after_root(rest)
    else:
        url.extend(_path_rel(rest, slashes))
    if query is not None:
        url.append(("query", query))
    if fragment is not None:
        url.append(("fragment", fragment))
    return url, mode


# --- host parsing ------------------------------------------------------------------------------


def _ipv4(host: str) -> str | None:
    """ip4-address ::= num [. num [. num [. num]]] [.] — None if it does not match."""
    parts = host.split(".")
    if len(parts) > 1 and parts[-1] == "":
        parts = parts[:-1]
    if not 1 <= len(parts) <= 4:
        return None
    nums: list[int] = []
    for p in parts:
        if re.fullmatch(r"0[xX][0-9A-Fa-f]*", p):
            nums.append(int(p[2:] or "0", 16))
        elif re.fullmatch(r"0[0-7]*", p):
            nums.append(int(p, 8))
        elif re.fullmatch(r"[1-9][0-9]*", p):
            nums.append(int(p))
        else:
            return None
    if any(n > 255 for n in nums[:-1]) or nums[-1] >= 256 ** (5 - len(nums)):
        raise ModelFailure("ip4-address", "IPv4 Address", "an IPv4 number is out of range")
    value = nums[-1]
    for k, n in enumerate(nums[:-1]):
        value += n * 256 ** (3 - k)
    return ".".join(str((value >> (8 * k)) & 255) for k in (3, 2, 1, 0))


def _to_ascii(label: str) -> bytes:
    """Python's ``encodings.idna.ToASCII`` of a non-ASCII ``label``, with its step 8 failure
    decided before Punycode (step 6) for a label too long to pass it (MAX_TOASCII_PUNYCODE)."""
    prepared = encodings.idna.nameprep(label)
    if not prepared.isascii() and len(prepared) > MAX_TOASCII_PUNYCODE:
        raise UnicodeError(f"label empty or too long ({TOASCII_DECIDED})")
    return encodings.idna.ToASCII(label)


#: What urlcalc reconstructs where the seed only lists a host-parsing phase (key: the phase).
RECONSTRUCTED = {
    "Nameprep": "'Apply IDNA/ Nameprep normalisation' is only listed: urlcalc's reconstruction "
                "is IDNA2003 Nameprep then Punycode (Python's encodings.idna ToASCII) of each "
                "non-ASCII label, where the list says 'Puny decode'",
    "IPv4": "'Detect and interpret IPv4 addresses': the seed gives the ip4-address grammar, not "
            "the value of its numbers; urlcalc's reconstruction is the current URL Standard's "
            "(the last number fills the remaining bytes)",
}
#: The components key that shows them, beside the model's own values.
RECONSTRUCTION_KEY = "urlcalc's reconstruction (not the model's)"


def parse_host(host: str, used: dict[str, str] | None = None) -> str:
    """Host parsing for web- and file-URLs (the seed's five listed phases). ``used`` gets, per
    phase urlcalc had to reconstruct (RECONSTRUCTED), what it turned into what."""
    if host.startswith("["):
        return host.lower()
    try:
        decoded = percent_decode(host).decode("utf-8")
    except UnicodeDecodeError as e:
        raise ModelFailure("host", "Host Parsing", "percent-decoded host is not UTF-8") from e
    labels = decoded.lower().split(".")
    out = []
    for label in labels:
        if label.isascii() or label == "":
            out.append(label)
            continue
        try:
            out.append(_to_ascii(label).decode("ascii").lower())
        except UnicodeError as e:
            raise ModelFailure("host", "Host Parsing", f"IDNA/Nameprep fails: {e}") from e
        if used is not None:
            used["Nameprep"] = f"{label!r} -> {out[-1]!r}"
    result = ".".join(out)
    v4 = _ipv4(result)
    if v4 is not None:
        if used is not None and v4 != result:
            used["IPv4"] = f"{result!r} -> {v4!r}"
        return v4
    bad = [c for c in result if c in HCHAR_EXCLUDED or c == "%"]
    if bad:
        raise ModelFailure("host", "Host Parsing", f"forbidden host code point {bad[0]!r}")
    return result


# --- normalisation -------------------------------------------------------------------------


def normalise_path(url: URL, steps: list[dict[str, Any]]) -> URL:
    """Path segment normalisation: the seed's equations, exhaustively, left to right."""
    url = list(url)
    changed = True
    while changed:
        changed = False
        for i, (t, v) in enumerate(url):
            nxt = url[i + 1] if i + 1 < len(url) else None
            rule = None
            if t == "drive" and v.endswith("|"):
                url[i] = ("drive", v[0] + ":")
                rule = "drive x| ≈ drive x:"
            elif t == "path-root" and nxt and nxt[0] in ("dir", "file") and nxt[1] in DOTS:
                del url[i + 1]
                rule = f"path-root /・{nxt[0]} {nxt[1]} ≈ path-root /"
            elif t in ("dir", "file") and v in DOT:
                del url[i]
                rule = f"{t} {v} ≈ ε"
            elif (
                t == "dir"
                and nxt
                and nxt[0] in ("dir", "file")
                and nxt[1] in DOTS
                and (v not in DOTS)
            ):
                del url[i : i + 2]
                rule = f"dir {v or 'ε'}・{nxt[0]} {nxt[1]} ≈ ε"
            if rule:
                steps.append({"op": "path normalisation", "rule": rule, "result": show(url)})
                changed = True
                break
    return url


def normalise_authority(url: URL, steps: list[dict[str, Any]]) -> URL:
    out: URL = []
    scheme = scheme_of(url)
    for t, v in url:
        if t == "scheme" and v != v.lower():
            steps.append({"op": "scheme normalisation", "rule": "scheme s ≈ scheme (lowercase s)"})
            v = v.lower()
        if t == "authority":
            a = dict(v)
            if a.get("password") == "":
                del a["password"]
            if a.get("username") == "" and "password" not in a:
                del a["username"]
            if a.get("port") == "":
                del a["port"]
            if scheme in DEFAULT_PORTS and a.get("port") == DEFAULT_PORTS[scheme]:
                del a["port"]
                steps.append(
                    {
                        "op": "scheme-based authority normalisation",
                        "rule": f"scheme {scheme}・authority (xs・port "
                        f"{DEFAULT_PORTS[scheme]}) ≈ scheme {scheme}・authority xs",
                    }
                )
            if scheme == "file" and a == {"host": "localhost"}:
                a = {}
                steps.append(
                    {
                        "op": "scheme-based authority normalisation",
                        "rule": "scheme file・authority (host localhost) ≈ scheme file・"
                        "authority ε",
                    }
                )
            if a != v:
                steps.append({"op": "authority normalisation", "result": show_authority(a)})
            v = a
        out.append((t, v))
    return out


# --- percent encoding and printing --------------------------------------------------------------

C0 = frozenset(chr(c) for c in range(0x20)) | frozenset(chr(0x7F))
FRAGMENT_SET = C0 | frozenset(' "<>`')
QUERY_SET = C0 | frozenset(' "#<>')
SPECIAL_QUERY_SET = QUERY_SET | frozenset("'")
PATH_SET = QUERY_SET | frozenset("?^`{}")
USERINFO_SET = PATH_SET | frozenset("/:;=@[\\]|")


def _encode(s: str, encode_set: frozenset[str]) -> str:
    out = []
    for ch in s:
        if ch in encode_set or ord(ch) > 0x7E:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogatepass")))
        else:
            out.append(ch)
    return "".join(out)


def profile_for(url: URL) -> str:
    if is_file(url) or is_web(url) or not has(url, "scheme"):
        return "special"
    if has(url, "authority") or has(url, "path-root"):
        return "generic"
    return "minimal"


def percent_encode(url: URL) -> URL:
    profile = profile_for(url)
    path_set = C0 if profile == "minimal" else PATH_SET
    query_set = SPECIAL_QUERY_SET if profile == "special" else QUERY_SET
    out: URL = []
    for t, v in url:
        if t == "authority":
            v = dict(v)
            for k in ("username", "password"):
                if k in v:
                    v[k] = _encode(v[k], USERINFO_SET)
        elif t in ("dir", "file"):
            v = _encode(v, path_set)
        elif t == "query":
            v = _encode(v, query_set)
        elif t == "fragment":
            v = _encode(v, FRAGMENT_SET)
        out.append((t, v))
    return out


def print_authority(a: dict[str, Any]) -> str:
    out = ""
    if "username" in a:
        out += str(a["username"])
        if "password" in a:
            out += ":" + str(a["password"])
        out += "@"
    out += str(a.get("host", ""))
    if "port" in a:
        out += ":" + str(a["port"])
    return out


def normalise_for_printing(url: URL) -> URL:
    if not has(url, "drive") and not has(url, "authority"):
        idx = next((i for i, c in enumerate(url) if c[0] == "dir"), None)
        if idx is not None and url[idx][1] == "" and has(url, "path-root"):
            return [*url[:idx], ("dir", "."), *url[idx:]]
    return url


def print_url(url: URL) -> str:
    out = ""
    for t, v in url:
        if t == "scheme":
            out += v + ":"
        elif t == "authority":
            out += "//" + print_authority(v)
        elif t == "drive":
            out += "/" + v
        elif t == "path-root":
            out += "/"
        elif t == "dir":
            out += v + "/"
        elif t == "file":
            out += v
        elif t == "query":
            out += "?" + v
        elif t == "fragment":
            out += "#" + v
    return out


def pathname_of(url: URL) -> str:
    return print_url([c for c in url if c[0] in ("drive", "path-root", "dir", "file")])


# --- the edition -------------------------------------------------------------------------------

MAPPING_NOTES: dict[str, str] = {
    "href": "Concluding: the printed URL",
    "origin": "not among the seed's getters: no such notion",
    "protocol": "Concluding: scheme + ':' or ε",
    "username": "Concluding: ε if absent, else the username",
    "password": "Concluding: ε if absent, else the password",
    "host": "Concluding: ε, host, or host ':' port",
    "hostname": "Concluding: ε if no host, else the host",
    "port": "the port component (not listed among the getters; mapped like the host getter)",
    "pathname": "'pathname (...)' is elided: the printed drive, path-root, dir and file",
    "search": "Concluding, as written: ε if no query, else the value of the query (no '?')",
    "hash": "Concluding, as written: ε if the URL has no *query*, else the fragment's value",
}


def _prepare(s: str, supplied: str, res: EditionResult, label: str) -> tuple[URL, str]:
    pre = preprocess(s)
    url, mode = parse_string(pre, supplied)
    res.trace = res.trace or []
    res.trace.append({"op": f"parse {label} ({mode}-mode)", "input": pre, "result": show(url)})
    if is_web(url) or is_file(url) or (not has(url, "scheme") and supplied != "generic"):
        hosted: URL = []
        used: dict[str, str] = {}
        for t, v in url:
            if t == "authority" and "host" in v:
                v = {**v, "host": parse_host(v["host"], used)}
            hosted.append((t, v))
        if used:  # flagged whenever shown, whether or not it agrees with the current standard
            res.hit_unspecified(UNSPECIFIED[1])
            shown = res.components.setdefault(RECONSTRUCTION_KEY, {})
            for phase, change in used.items():
                shown[f"{phase} ({label})"] = change
                res.note(f"host parsing: {phase}", "Host Parsing",
                         f"{change}: {RECONSTRUCTED[phase]}",
                         ("hostname", "host", "href", "origin"), KIND_UNSPECIFIED)
        if hosted != url:
            res.trace.append({"op": f"host parsing ({label})", "result": show(hosted)})
        url = hosted
    return url, mode


def parse(input: str, base: str | None = None, *, errata: bool = False) -> EditionResult:
    """parse-resolve-and-normalise (Concluding), with every operation in the trace."""
    res = EditionResult(edition=ID, ok=True, mapping_notes=dict(MAPPING_NOTES))
    res.getters = empty_getters()
    res.trace = []
    try:
        base_url: URL = []
        supplied = "generic"
        if base is not None:
            base_url, _base_mode = _prepare(base, "generic", res, "base")
            supplied = "web" if is_web(base_url) else "file" if is_file(base_url) else "generic"
        elif SCHEME_RE.match(preprocess(input)) is None:
            # parser-mode-for: the supplied (fallback) mode decides only when the input does
            # not start with a scheme-string followed by ':'
            res.hit_unspecified(UNSPECIFIED[7])
        url1, mode = _prepare(input, supplied, res, "input")
        res.components["url1"] = show(url1)
        res.components["base"] = show(base_url)
        res.components["parser mode"] = mode
        res.components["ord url1"] = ord_(url1)
        resolved = whatwg_resolve(url1, base_url, res.trace)
        res.components["resolved"] = show(resolved)
        normal = normalise_path(resolved, res.trace)
        normal = normalise_authority(normal, res.trace)
        res.components["normalised"] = show(normal)
        encoded = normalise_for_printing(percent_encode(normal))
        res.components["percent-encode profile"] = profile_for(normal)
        res.components["printed"] = print_url(encoded)
        res.trace.append({"op": "percent encode + print", "result": print_url(encoded)})
    except ModelFailure as e:
        res.note(e.rule, e.section, str(e), ("href",))
        return res.fail(str(e))
    res.hit_unspecified(UNSPECIFIED[0])
    g = res.getters
    g["href"] = print_url(encoded)
    scheme = get(encoded, "scheme")
    g["protocol"] = scheme + ":" if scheme is not None else ""
    auth = get(encoded, "authority") or {}
    g["username"] = auth.get("username", "")
    g["password"] = auth.get("password", "")
    g["hostname"] = auth.get("host", "")
    g["port"] = str(auth.get("port", ""))
    g["host"] = f"{g['hostname']}:{g['port']}" if "port" in auth else g["hostname"]
    g["pathname"] = pathname_of(encoded)
    res.hit_unspecified(UNSPECIFIED[3])
    query, fragment = get(encoded, "query"), get(encoded, "fragment")
    if errata:
        g["search"] = "?" + query if query else ""
        g["hash"] = "#" + fragment if fragment else ""
    else:
        g["search"] = query if query is not None else ""
        g["hash"] = fragment if (fragment is not None and query is not None) else ""
        if query:
            res.note(
                "search getter",
                "Concluding",
                "as written the search getter returns the value of the query, without '?'",
                ("search",),
            )
        if fragment is not None and query is None:
            res.note(
                "hash getter",
                "Concluding: hash",
                "as written the hash getter returns ε when the URL has no query",
                ("hash",),
            )
        elif fragment:
            res.note(
                "hash getter",
                "Concluding: hash",
                "as written the hash getter returns the value of the fragment, without '#'",
                ("hash",),
            )
    for step in res.trace:
        op = str(step.get("op", ""))
        if op.startswith("path normalisation"):
            res.note(
                "path normalisation",
                "Path Segment Normalisation",
                str(step["rule"]),
                ("pathname", "href"),
            )
        elif "authority normalisation" in op and "rule" in step:
            res.note(
                "authority normalisation",
                "Scheme-Based Authority Normalisation",
                str(step["rule"]),
                ("port", "host", "href"),
            )
        elif op == "force" and step.get("modified"):
            res.note(
                "force",
                "Forcing",
                f"force changed the URL to {step['result']}",
                ("href", "host", "hostname", "pathname"),
            )
    return res


# --- why a getter differs from the current standard's -------------------------------------------

#: Every section this edition cites (the seed's headings), with the seed's own words there.
SECTIONS: dict[str, str] = {
    "URL components": "Whenever present, the components of an URL are subject to the following "
                      "constraints:",
    "URL Grammar": "This subsection specifies the grammar for URL-strings.",
    "Host Parsing": "Apply IDNA/ Nameprep normalisation.",
    "IPv6 Addresses": "IPv6 Addresses Double check the following, and include it here",
    "IPv4 Address": "An IPv4 address-string consists of one up to four dot-separated numbers "
                    "with an optional trailing dot.",
    "Forcing": "There is an additional operation on URLs that I have named force.",
    "Forced File URL": "If otherwise the authority of url has a username or a port then fail.",
    "Forced Web URL": "If no such component exists, fail.",
    "Generic Resolution": "if url2 has a scheme or url1 has a scheme. Otherwise resolution fails.",
    "WHATWG Resolution": "The WHATWG-resolution of url1 against url2 is defined as:",
    "Path Segment Normalisation": "Path equivalence is defined by the following equations.",
    "Authority Normalisation": "This has the same effect as removing any empty port or password "
                               "component",
    "Scheme-Based Authority Normalisation": "Normalisation according to these rules involves "
                                            "the removal of default ports",
    "Percent Encode Profiles": "There are four distinct percent-encode-profiles that are "
                               "relevant for this specification.",
    "Normalise for Printing": "then it must be normalised for printing by inserting a "
                              "component (dir .",
    "Concluding": "The search getter returns ε if the URL has no query, otherwise it returns "
                  "the value of the query.",
    "Concluding: hash": "The hash getter returns returns ε if the URL has no query, otherwise "
                        "it returns the value of the fragment.",
    "Concluding: parse-resolve-and-normalise": "force resolve url1 against base - normalise "
                                               "and percent encode the result.",
}


def explain(res: EditionResult, getter: str, ours: str, current: dict[str, str]) -> Note | None:
    """The rule of the formal model that made ``getter`` differ from the current standard's."""
    from .explain import PARTS, how_differs

    cur = current.get(getter, "")
    how = how_differs(ours, cur)
    if getter == "search" and cur == "?" + ours:
        return Note("search getter", "Concluding", "as written the search getter returns the "
                    "value of the query, without '?'", (getter,))
    if getter == "hash" and (cur == "#" + ours or ours == ""):
        text = ("as written the hash getter returns the value of the fragment, without '#'"
                if ours else "as written the hash getter returns ε when the URL has no query")
        return Note("hash getter", "Concluding: hash", text, (getter,))
    if getter in PARTS:
        return None  # href and host: explained by the parts that differ
    forced = next((n for n in res.notes if n.rule == "force"), None)
    if forced is not None and getter == "pathname" and how in ("other", "empty"):
        return Note(forced.rule, forced.section, forced.text, (getter,))
    if getter == "hostname":
        if ours.startswith("["):
            return Note("IPv6 addresses", "IPv6 Addresses", "the section is a placeholder "
                        "('Double check the following, and include it here'): urlcalc keeps the "
                        "bracketed text, lowercased", (getter,), KIND_UNSPECIFIED)
        rebuilt = [n for n in res.notes if n.rule.startswith("host parsing: ")]
        if rebuilt:
            return Note(rebuilt[-1].rule, rebuilt[-1].section, rebuilt[-1].text, (getter,),
                        KIND_UNSPECIFIED)
        if res.components.get("parser mode") == "generic":
            what = "generic-mode hosts are opaque: urlcalc keeps them as written"
        else:
            what = "the host-parsing phases are only listed: urlcalc uses IDNA2003 Nameprep and "
            what += "the seed's ip4-address grammar"
        return Note("host parsing", "Host Parsing", what, (getter,), KIND_UNSPECIFIED)
    if getter == "pathname" and ours.startswith("/.") and ours[2:] == cur:
        return Note("pathname (…)", "Normalise for Printing", "the pathname getter is elided in "
                    "the seed ('pathname (…)'): urlcalc prints the path after normalising for "
                    "printing, which inserts (dir .)", (getter,), KIND_UNSPECIFIED)
    if how in ("kept", "encoded", "percent", "hex-case"):
        return Note("percent-encode profile", "Percent Encode Profiles", "the profile tables are "
                    "lost in the seed: urlcalc uses the current standard's percent-encode sets "
                    "for printable ASCII", (getter,), KIND_UNSPECIFIED)
    if getter == "pathname":
        rewrite = next((n for n in res.notes if n.rule == "path normalisation"), None)
        if rewrite is not None:
            return Note(rewrite.rule, rewrite.section, rewrite.text, (getter,))
        if any(f"({t} {d})" in str(res.components.get("base")) for t in ("dir", "file")
               for d in DOTS + DOT):
            return Note("parse-resolve-and-normalise", "Concluding: parse-resolve-and-normalise",
                        "the base is resolved "
                        "against as parsed and the result normalised after: the base's own dot "
                        "segments were never normalised away", (getter,))
    return None


def accepts(res: EditionResult, failure: str) -> Note:
    """The rule of the formal model that accepts an input the current standard rejects."""
    from .explain import failure_part

    part = failure_part(failure)
    if part == "host":
        return Note("host parsing", "Host Parsing", "the host-parsing phases are only listed in "
                    "the seed: urlcalc's reading (IDNA2003, hchar, IPv6 kept as written) lets "
                    "this host through", ("href",), KIND_UNSPECIFIED)
    return Note("url", "URL Grammar", "the input matches the (loose) URL grammar and resolves",
                ("href",))
