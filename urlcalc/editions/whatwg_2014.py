"""Edition 5: URL Standard, the 2014 "grammar" edition (railroad diagrams + evaluation steps).

Seed ``001_e7633538c285917c.txt`` (url.bs of the webspecs/url fork). URLs are parsed by
railroad productions "evaluated sequentially, first left-to-right then top-to-bottom,
backtracking as necessary"; each production has evaluation steps that may *return
failure* (the next alternative is tried), indicate a *conformance error* (reported, parsing
goes on) or terminate with a *parse exception* (parsing stops).

The seed is cut off in the middle of ``host(input)`` (at domain validation). Everything
it defines after that point — ``path``, ``query``, ``fragment``, ``port``, ``scheme-data``,
``ipv4addr``, ``ipv6addr``, host parsing, "cleanse", the "default encode set", "path
concatenation", serialisation and the API — is missing. urlcalc matches those
productions with the syntax the seed's authoring requirements give (noted as
*assumed*), shows the matched text, and says "cut off in the seed" for their values.

By default the text is followed literally; ``parse(..., errata=True)`` inverts the one
condition that contradicts the seed's own example (non-relative-url step 2).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
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

ID = "whatwg_2014"
NAME = "URL Standard, grammar edition (2014)"
YEAR = 2014
SOURCE = "001_e7633538c285917c.txt (url.bs, webspecs/url, 2014; cut off at host parsing)"
TERMS: dict[str, str] = {
    "conformance error": "reported (user agents are encouraged to expose it); parsing goes on",
    "parse exception": "terminates parsing; must be implemented by all implementations",
    "railroad diagram": "a production; alternatives tried top to bottom, with backtracking",
    "is present": "the production matched some part of the input (first matching alternative)",
    "value of": "the value returned by the production's function for the part it matched",
    "return failure": "the alternative does not apply: evaluation continues with the next one",
    "relative scheme": "ftp, file, gopher, http, https, ws, wss",
    "non-file-relative-scheme": "ftp, gopher, https, http, wss, ws (case-insensitive)",
    "scheme data": "what follows 'scheme:' in a non-relative URL",
    "cut off": "defined after the point where the seed's copy of the text ends",
}
UNSPECIFIED: list[str] = [
    "Cut off: the seed ends inside host(input) at 'Validate domain'. The productions path, "
    "query, fragment, port, scheme-data, ipv4addr and ipv6addr have no railroad in the seed; "
    "urlcalc matches them with the authoring requirements' syntax (path: any except '?' "
    "'#'; query: any except '#'; fragment: anything; port: ASCII digits; scheme-data: any "
    "except '?' '#'; ipv6addr: '[' hex digits, ':' and '.' ']'; ipv4addr: never matches) and "
    "shows their matched text instead of their value.",
    "Cut off: 'cleanse' and the 'default encode set' (user, password): the matched text is shown.",
    "Cut off: host parsing (the host's value): the matched text, with U+0009, U+000A, U+000D, "
    "U+200B, U+2060 and U+FEFF removed as the seed says, is shown.",
    "Cut off: 'path concatenation' and the value of path: pathname is not given.",
    "Cut off: serialisation and the URLUtils API: href and origin are not given; the other "
    "getters are mapped from the components like the current standard's getters.",
    "The host railroad lost its indentation in the seed; urlcalc reads it as three "
    "alternatives: ipv6addr | ipv4addr | any-except-[:/\\?#]*.",
    "As written, non-relative-url step 2 returns failure when the scheme is *not* a relative "
    "scheme, which contradicts its own example (javascript:); errata=True inverts it.",
    "file-url row 3's steps (example file:/example.com/) prepend 'the code point following "
    "the initial /' and ':' to the path, apparently copied from the drive-letter row; the path "
    "is cut off anyway, so urlcalc only lists the pending step.",
]

RELATIVE_SCHEMES: dict[str, str | None] = {
    "ftp": "21",
    "file": None,
    "gopher": "70",
    "http": "80",
    "https": "443",
    "ws": "80",
    "wss": "443",
}
ASCII_WHITESPACE = "\t\n\f\r "
ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class ParseException(Exception):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


FAILURE = object()


@dataclass
class Node:
    """A production that matched input[start:end]."""

    name: str
    start: int
    end: int
    children: list[Node]
    value: Any = None
    errors: list[str] = field(default_factory=list)  # conformance errors
    cut: list[str] = field(default_factory=list)  # cut-off notes

    def find(self, name: str) -> Node | None:
        """'is present': the first node named ``name`` in this match (not inside others)."""
        for ch in self.children:
            if ch.name == name:
                return ch
            if ch.name.startswith("row"):
                hit = ch.find(name)
                if hit is not None:
                    return hit
        return None

    def to_json(self, s: str) -> dict[str, Any]:
        return {
            "rule": self.name,
            "text": s[self.start : self.end],
            "children": [c.to_json(s) for c in self.children],
        }


Match = tuple[int, list[Node]]
#: A railroad: every way it matches the input ``s`` from position ``i`` (end, matched
#: productions), in the seed's order; ``ev`` is the parse whose evaluation steps run on each
#: production matched.
P = Callable[[str, int, "Evaluation"], Iterator[Match]]


def T(lit: str, ci: bool = False) -> P:
    def p(s: str, i: int, ev: Evaluation) -> Iterator[Match]:
        part = s[i : i + len(lit)]
        if part == lit or (ci and part.lower() == lit):
            yield i + len(lit), []

    return p


def Span(pred: Callable[[str], bool], minimum: int = 0) -> P:
    """ZeroOrMore (or OneOrMore) of one character class, greedy, backtracking."""

    def p(s: str, i: int, ev: Evaluation) -> Iterator[Match]:
        j = i
        while j < len(s) and pred(s[j]):
            j += 1
        for k in range(j, i + minimum - 1, -1):
            yield k, []

    return p


def One(pred: Callable[[str], bool]) -> P:
    def p(s: str, i: int, ev: Evaluation) -> Iterator[Match]:
        if i < len(s) and pred(s[i]):
            yield i + 1, []

    return p


def Seq(*ps: P) -> P:
    def go(s: str, i: int, ev: Evaluation, k: int) -> Iterator[Match]:
        if k == len(ps):
            yield i, []
            return
        for j, kids in ps[k](s, i, ev):
            for e, more in go(s, j, ev, k + 1):
                yield e, kids + more

    return lambda s, i, ev: go(s, i, ev, 0)


def Alt(*ps: P) -> P:
    def p(s: str, i: int, ev: Evaluation) -> Iterator[Match]:
        for q in ps:
            yield from q(s, i, ev)

    return p


def Opt(q: P) -> P:
    def p(s: str, i: int, ev: Evaluation) -> Iterator[Match]:
        yield from q(s, i, ev)
        yield i, []

    return p


def Slash() -> P:
    return One(lambda c: c in "/\\")


def nt(name: str) -> P:
    """The production ``name``: its railroad (RULES), then its evaluation steps; a match whose
    steps return failure is passed over (the next alternative is tried)."""

    def p(s: str, i: int, ev: Evaluation) -> Iterator[Match]:
        for j, kids in RULES[name](s, i, ev):
            node = Node(name, i, j, kids)
            value = ev.evaluate(node)
            if value is FAILURE:
                continue
            node.value = value
            yield j, [node]

    return p


def row(name: str, q: P) -> P:
    def p(s: str, i: int, ev: Evaluation) -> Iterator[Match]:
        for j, kids in q(s, i, ev):
            yield j, [Node(name, i, j, kids)]

    return p


def _productions() -> dict[str, P]:
    """The productions of the seed (its railroad diagrams)."""
    r: dict[str, P] = {}
    r["url"] = Seq(
        Alt(nt("file-url"), nt("non-relative-url"), nt("relative-url")),
        Opt(Seq(T("?"), nt("query"))),
        Opt(Seq(T("#"), nt("fragment"))),
    )
    alpha = One(lambda c: c in ALPHA)
    r["file-url"] = Alt(
        row(
            "row1",
            Seq(
                T("file", True),
                T(":"),
                alpha,
                One(lambda c: c in ":|"),
                Opt(Slash()),
                nt("path"),
            ),
        ),
        row("row2", Seq(Span(lambda c: c == "/"), alpha, T("|"), Opt(T("/")), nt("path"))),
        row(
            "row3",
            Seq(
                T("file", True),
                T(":"),
                Opt(Seq(T("/"), T("/"), nt("host"))),
                Span(lambda c: c == "/"),
                nt("path"),
            ),
        ),
    )
    r["non-relative-url"] = Seq(nt("scheme"), T(":"), nt("scheme-data"))
    nfrs = nt("non-file-relative-scheme")
    r["relative-url"] = Alt(
        row(
            "row1",
            Seq(
                Opt(Seq(nfrs, T(":"))),
                Slash(),
                Slash(),
                nt("authority"),
                Opt(Seq(Slash(), nt("path"))),
            ),
        ),
        row(
            "row2",
            Seq(nfrs, T(":"), Opt(Slash()), nt("authority"), Opt(Seq(Slash(), nt("path")))),
        ),
        row("row3", Seq(nfrs, T(":"), nt("path"))),
        row("row4", nt("path")),
    )
    r["non-file-relative-scheme"] = Alt(
        *(T(x, True) for x in ("ftp", "gopher", "https", "http", "wss", "ws"))
    )
    r["scheme"] = Seq(alpha, Span(lambda c: c in ALPHA or c in "-+."))
    r["authority"] = Seq(
        Opt(Seq(nt("user"), Opt(Seq(T(":"), nt("password"))), T("@"))),
        nt("host"),
        Opt(Seq(T(":"), nt("port"))),
    )
    r["user"] = Span(lambda c: c not in "/\\?#@:")
    r["password"] = Span(lambda c: c not in "/\\?#@")
    r["host"] = Alt(nt("ipv6addr"), nt("ipv4addr"), Span(lambda c: c not in ":/\\?#"))
    # --- assumed (cut off in the seed): syntax from the authoring requirements ---
    r["ipv6addr"] = Seq(T("["), Span(lambda c: c in "0123456789abcdefABCDEF:."), T("]"))
    r["ipv4addr"] = lambda s, i, ev: iter(())
    r["port"] = Span(lambda c: c in "0123456789")
    r["path"] = Span(lambda c: c not in "?#")
    r["query"] = Span(lambda c: c != "#")
    r["fragment"] = Span(lambda c: True)
    r["scheme-data"] = Span(lambda c: c not in "?#")
    return r


#: The railroads, built once (they were built anew for every parse, a third of its time): they
#: hold nothing of a parse, which each match is handed (``ev``: the input, the base, the errata
#: reading), so all parses, in all threads, share them.
RULES: dict[str, P] = _productions()


class Evaluation:
    """One parse: the input, the base, the reading (errata or as written), and the evaluation
    steps of the productions (``eval_<production>``), run on each production matched."""

    def __init__(self, input: str, base: dict[str, Any], errata: bool) -> None:
        self.input = input
        self.base = base
        self.errata = errata

    def text(self, node: Node | None) -> str:
        return "" if node is None else self.input[node.start : node.end]

    # evaluation steps -------------------------------------------------------------------------

    def evaluate(self, n: Node) -> Any:
        fn = getattr(self, "eval_" + n.name.replace("-", "_"), None)
        if fn is None:  # an assumed production: its value is cut off in the seed
            n.cut.append(f"the value of {n.name} is cut off in the seed; matched {self.text(n)!r}")
            return {"matched": self.text(n), "cut_off": True}
        return fn(n)

    def eval_scheme(self, n: Node) -> Any:
        return self.text(n).lower()

    def eval_non_file_relative_scheme(self, n: Node) -> Any:
        return self.text(n).lower()

    def eval_user(self, n: Node) -> Any:
        n.cut.append("'cleanse' with the 'default encode set' is cut off: user shown as matched")
        return self.text(n)

    def eval_password(self, n: Node) -> Any:
        n.cut.append(
            "'cleanse' with the 'default encode set' is cut off: password shown as matched"
        )
        return self.text(n)

    def eval_host(self, n: Node) -> Any:
        v6 = n.find("ipv6addr")
        if v6 is not None:
            n.cut.append("ipv6addr's value is cut off: shown as matched")
            return self.text(v6)
        result = self.text(n)
        cleaned = "".join(c for c in result if c not in "\t\n\r\u200b\u2060\ufeff")
        if cleaned != result:
            n.errors.append("host: tab, newline, zero-width or BOM code points removed")
        n.cut.append(
            "host parsing (and ipv4addr, domain validation) is cut off: host shown as matched"
        )
        return cleaned

    def eval_authority(self, n: Node) -> Any:
        result: dict[str, Any] = {}
        user, password, host = n.find("user"), n.find("password"), n.find("host")
        if user is not None:
            result["username"] = user.value
        if password is not None:
            result["password"] = password.value
        hv: str = host.value if host is not None else ""
        if "@" in hv:
            n.errors.append("authority: '@' in host (step 6.1)")
            info = "%40" + hv.split("@", 1)[1].replace("@", "%40")
            result["host"] = hv.split("@", 1)[0]
            if password is not None:
                result["password"] += info
            elif user is not None:
                result["username"] += info
            else:
                result["username"] = info
        else:
            result["host"] = hv
        port = n.find("port")
        if port is not None:
            result["port"] = self.text(port)
            n.cut.append("the value of port is cut off: shown as matched digits")
        return result

    def eval_non_relative_url(self, n: Node) -> Any:
        scheme = n.find("scheme")
        sv = scheme.value if scheme is not None else ""
        is_relative = sv in RELATIVE_SCHEMES
        if (not self.errata and not is_relative) or (self.errata and is_relative):
            return FAILURE  # step 2 (as written: 'does not match any relative scheme')
        return {
            "scheme": sv,
            "schemeData": self.text(n.find("scheme-data")),
            "_rule": "non-relative-url",
        }

    def eval_file_url(self, n: Node) -> Any:
        row = n.children[0]
        result: dict[str, Any] = {"scheme": "file", "_rule": f"file-url {row.name}"}
        path = row.find("path")
        pending: list[str] = []
        if row.name == "row1":
            pending.append("remove the first element if empty and a second is non-empty")
            colon = self.input.find(":")
            pending.append(f"prepend {self.input[colon + 1] + ':'!r}")
        elif row.name == "row2":
            host = row.find("host")
            if host is not None:
                result["host"] = host.value
            if (
                host is None
                and not self.input[: row.start].endswith("/")
                and not self.text(row).startswith("/")
            ):
                pending.append("prepend base.path minus its last element")
        else:
            n.errors.append("file-url row 3: conformance error")
            host = row.find("host")
            if host is not None:
                result["host"] = host.value
            pending.append("remove the first element if empty and a second is non-empty")
            pending.append(
                "prepend the code point after the initial '/' followed by ':' (as written)"
            )
        result["path"] = {"matched": self.text(path), "cut_off": True, "pending": pending}
        n.cut.append("the value of path is cut off")
        return result

    def eval_relative_url(self, n: Node) -> Any:
        row = n.children[0]
        nfrs = row.find("non-file-relative-scheme")
        path = row.find("path")
        result: dict[str, Any]
        if row.name == "row1":
            colon = self.input.find(":")
            if nfrs is not None and self.input[colon + 1 : colon + 3] != "//":
                n.errors.append(
                    "relative-url row 1: something other than '//' follows the first colon"
                )
            auth = row.find("authority")
            result = dict(auth.value) if auth is not None else {}
            result["scheme"] = nfrs.value if nfrs is not None else self.base.get("scheme")
        elif row.name == "row2":
            assert nfrs is not None
            if nfrs.value == self.base.get("scheme"):
                return FAILURE
            n.errors.append("relative-url row 2: conformance error")
            auth = row.find("authority")
            result = dict(auth.value) if auth is not None else {}
            result["scheme"] = nfrs.value
            host = result.get("host", "")
            if host == "" or ":" in host:
                raise ParseException(
                    "relative-url row 2", "result.host is empty or contains ':' (parse exception)"
                )
        elif row.name == "row3":
            assert nfrs is not None
            n.errors.append("relative-url row 3: conformance error")
            result = {"scheme": nfrs.value, "host": self.base.get("host")}
        else:
            result = {"scheme": self.base.get("scheme"), "host": self.base.get("host")}
            first = self.text(path).replace("\\", "/").split("/")[0]
            if ":" in first:
                n.errors.append("relative-url row 4: the first path segment contains ':'")
        result["_rule"] = f"relative-url {row.name}"
        if path is not None:
            pending = (
                ["path concatenation of base.path and path"] if row.name in ("row3", "row4") else []
            )
            result["path"] = {"matched": self.text(path), "cut_off": True, "pending": pending}
            n.cut.append("the value of path (and path concatenation) is cut off")
        return result


def _collect(nodes: list[Node], errors: list[str], cut: list[str]) -> None:
    for node in nodes:
        errors.extend(node.errors)
        cut.extend(node.cut)
        _collect(node.children, errors, cut)


def run(
    input: str, base: dict[str, Any], errata: bool
) -> tuple[dict[str, Any], list[Node], list[str], list[str]]:
    """The basic URL parser of the seed: returns (result, tree, conformance errors, cut)."""
    errors: list[str] = []
    stripped = input.strip(ASCII_WHITESPACE)
    if stripped != input:
        errors.append("leading or trailing ASCII whitespace (removed)")
    g = Evaluation(stripped, base, errata)
    for end, kids in RULES["url"](stripped, 0, g):
        if end != len(stripped):
            continue
        main = kids[0]
        result = dict(main.value)
        q = next((k for k in kids if k.name == "query"), None)
        f = next((k for k in kids if k.name == "fragment"), None)
        if q is not None:
            result["query"] = g.text(q)
        if f is not None:
            result["fragment"] = g.text(f)
        default = RELATIVE_SCHEMES.get(result.get("scheme") or "")
        if default is not None and result.get("port") == default:
            del result["port"]
            result["_default_port_deleted"] = default
        cut: list[str] = []
        _collect(kids, errors, cut)
        return result, kids, errors, cut
    raise ParseException("url", "the input does not match the url railroad diagram")


MAPPING_NOTES: dict[str, str] = {
    "href": "unspecified: serialisation is cut off in the seed (urlcalc gives no value; the "
            "components show what was matched)",
    "origin": "unspecified: the URLUtils API is cut off in the seed (urlcalc gives no value)",
    "protocol": "result.scheme + ':'",
    "username": "result.username as matched ('cleanse' is cut off)",
    "password": "result.password as matched ('cleanse' is cut off)",
    "host": "hostname, plus ':' port when result.port is present",
    "hostname": "result.host before host parsing (host parsing is cut off)",
    "port": "result.port as matched digits (deleted when it is the default port, url step 5)",
    "pathname": "unspecified: the value of path is cut off (urlcalc gives no value; the "
                "components show the matched text)",
    "search": "'?' + the matched query when non-empty ('query' is cut off)",
    "hash": "'#' + the matched fragment when non-empty ('fragment' is cut off)",
}


def parse(input: str, base: str | None = None, *, errata: bool = False) -> EditionResult:
    res = EditionResult(edition=ID, ok=True, mapping_notes=dict(MAPPING_NOTES))
    res.getters = empty_getters()
    base_obj: dict[str, Any] = {"scheme": "about"}
    try:
        if base is not None:
            base_obj, _, _, _ = run(base, {"scheme": "about"}, errata)
            res.components["base"] = {k: v for k, v in base_obj.items() if not k.startswith("_")}
        result, tree, errors, cut = run(input, base_obj, errata)
        uses_base = base is None or not re.match(
            re.escape(str(result.get("scheme"))) + ":", input.strip(ASCII_WHITESPACE), re.I)
        if base is not None and uses_base and not errata and _step2_misreads(
                base.strip(ASCII_WHITESPACE), base_obj):
            res.hit_unspecified(UNSPECIFIED[6])
            res.note(
                "non-relative-url step 2 (as written)",
                "non-relative-url(input)",
                f"the base {base!r} is misread: as written step 2 inverts its condition, "
                f"so the base's scheme is {base_obj.get('scheme')!r}",
                STEP2_GETTERS,
            )
    except ParseException as e:
        res.note(e.rule, "Parsing Rules", f"parse exception: {e}", ("href",))
        res.components["parse exception"] = str(e)
        return res.fail(f"parse exception: {e}")
    stripped = input.strip(ASCII_WHITESPACE)
    production = result.pop("_rule", None)
    res.components["production"] = production
    res.components["result"] = {k: v for k, v in result.items() if not k.startswith("_")}
    res.components["conformance errors"] = errors
    res.components["parse exceptions"] = []
    res.components["cut off"] = sorted(set(cut))
    res.trace = [n.to_json(stripped) for n in tree]
    res.note(
        str(res.components["production"]),
        "Parsing Rules",
        f"matched {res.components['production']}",
        ("href",),
    )
    for err in errors:
        res.note("conformance error", "Parsing Rules", err)
    res.hit_unspecified(UNSPECIFIED[0])
    if cut:
        res.hit_unspecified(UNSPECIFIED[4])
    g = res.getters
    scheme = result.get("scheme")
    g["protocol"] = (scheme or "") + ":"
    if production == "non-relative-url":
        g["username"] = g["password"] = g["host"] = g["hostname"] = g["port"] = ""
        res.note(
            "non-relative-url",
            "non-relative-url(input)",
            f"scheme data {result.get('schemeData')!r}: no host, no path",
            ("host", "hostname", "pathname"),
        )
    else:
        g["username"] = result.get("username", "")
        g["password"] = result.get("password", "")
        hostname = result.get("host") or ""
        g["hostname"] = hostname
        g["port"] = result.get("port", "")
        g["host"] = hostname + (":" + result["port"] if result.get("port") else "")
        if "_default_port_deleted" in result:
            res.note(
                "url step 5",
                "url(input)",
                f"port {result['_default_port_deleted']!r} is the default port: deleted",
                ("port", "host"),
            )
    g["search"] = search_getter(result.get("query"))
    g["hash"] = hash_getter(result.get("fragment"))
    # cut off in the seed: unspecified cells, not "no such notion"
    res.getter_unspecified("href", UNSPECIFIED[4])
    res.getter_unspecified("origin", UNSPECIFIED[4])
    res.getter_unspecified("pathname", UNSPECIFIED[3])
    if not errata and scheme in RELATIVE_SCHEMES and "schemeData" in result:
        res.hit_unspecified(UNSPECIFIED[6])
        res.note(
            "non-relative-url step 2 (as written)",
            "non-relative-url(input)",
            f"{scheme!r} is a relative scheme, so step 2 does not return failure and the "
            "URL is read as scheme + scheme data",
            STEP2_GETTERS,
        )
    if not errata and production == "relative-url row4" and _looks_absolute(stripped):
        res.hit_unspecified(UNSPECIFIED[6])
        res.note(
            "non-relative-url step 2 (as written)",
            "non-relative-url(input)",
            "the scheme is not a relative scheme, so step 2 returns failure and the input "
            "is read as a path relative to the base",
            STEP2_GETTERS,
        )
    return res


#: Every getter a misreading of non-relative-url step 2 changes (href and origin are cut off).
STEP2_GETTERS = ("protocol", "username", "password", "host", "hostname", "port", "pathname")


def _looks_absolute(s: str) -> bool:
    return re.match(r"[A-Za-z][A-Za-z+\-.]*:", s) is not None


def _step2_misreads(s: str, result: dict[str, Any]) -> bool:
    """Whether the as-written step 2 decided how ``s`` (read as ``result``) was matched."""
    rule = result.get("_rule")
    if rule == "non-relative-url":
        return result.get("scheme") in RELATIVE_SCHEMES
    return rule == "relative-url row4" and _looks_absolute(s)


# --- why a getter differs from the current standard's -------------------------------------------

#: Every section this edition cites (the seed's headings), with the seed's own words there.
SECTIONS: dict[str, str] = {
    "Parsing Rules": "Parsing Rules {#parsing-rules}",
    "url(input)": "If result.scheme has a default port, and if result.port is equal to that "
                  "default, then delete the port property from result.",
    "file-url(input)": "file-url(input)",
    "non-relative-url(input)": "does not match any relative scheme then return failure.",
    "relative-url(input)": "Set result.host to base.host.",
    "authority(input)": "If port is present, set result.port to its value.",
    "user(input)": "Return the cleansed result using the default encode set.",
    "password(input)": "Return the cleansed result using the default encode set.",
    "host(input)": "Let domain be the result of host parsing result.",
}


def explain(res: EditionResult, getter: str, ours: str, current: dict[str, str]) -> Note | None:
    """The rule of the 2014 edition that made ``getter`` differ from the current standard's."""
    step2 = [n for n in res.notes if n.rule == "non-relative-url step 2 (as written)"
             and getter in n.getters]
    step2.sort(key=lambda n: n.text.startswith("the base "))  # the input's own reading first
    if step2:
        return Note(step2[0].rule, step2[0].section, step2[0].text, (getter,), step2[0].kind)
    production = str(res.components.get("production") or "")
    if "base" not in res.components and production.startswith("relative-url") and getter in (
            "protocol", "hostname", "host", "pathname"):
        return Note("no base (cut off)", "url(input)", "the URL API, and so what a missing base "
                    "is, is cut off in the seed: urlcalc reads a relative URL against a base "
                    "whose scheme is 'about' (like the 2012 constructor's about:blank)",
                    (getter,), KIND_UNSPECIFIED)
    if production == "relative-url row4" and getter == "protocol":
        return Note("relative-url row 4", "relative-url(input)", "the input does not start "
                    "with a scheme the rows match, so row 4 takes result.scheme from base.scheme",
                    (getter,))
    if production == "non-relative-url" and getter in ("username", "password", "host",
                                                       "hostname", "port"):
        return Note("non-relative-url", "non-relative-url(input)", "a non-relative URL has "
                    "only a scheme and scheme data: no credentials, host or port", (getter,))
    if production == "relative-url row4" and getter in ("username", "password", "port"):
        return Note("relative-url row 4", "relative-url(input)", "row 4 copies only "
                    "base.host (and base.scheme): not the base's username, password or port",
                    (getter,))
    cut = "cut off in the seed: urlcalc shows the matched text, unprocessed"
    if getter in ("username", "password"):
        return Note("cleanse (cut off)", f"{'user' if getter == 'username' else 'password'}"
                    "(input)", f"'cleanse' and the 'default encode set' are {cut}", (getter,),
                    KIND_UNSPECIFIED)
    if getter == "hostname":
        return Note("host parsing (cut off)", "host(input)", f"host parsing is {cut} (only "
                    "tab, newline and zero-width code points removed)", (getter,),
                    KIND_UNSPECIFIED)
    if getter == "port":
        return Note("port (cut off)", "authority(input)", f"the port production is {cut} "
                    "(digits as matched)", (getter,), KIND_UNSPECIFIED)
    if getter in ("search", "hash"):
        return Note(f"{'query' if getter == 'search' else 'fragment'} (cut off)", "url(input)",
                    f"the value of {'query' if getter == 'search' else 'fragment'} is {cut}",
                    (getter,), KIND_UNSPECIFIED)
    if getter == "protocol":
        return Note(production or "url", "url(input)", "the scheme as the matched production "
                    "gives it", (getter,))
    return None


def accepts(res: EditionResult, failure: str) -> Note:
    """The rule of the 2014 edition that accepts an input the current standard rejects."""
    from .explain import failure_part

    step2 = next((n for n in res.notes if n.rule == "non-relative-url step 2 (as written)"),
                 None)
    if step2 is not None:
        return Note(step2.rule, step2.section, step2.text, ("href",), step2.kind)
    part = failure_part(failure)
    if "base" not in res.components and str(res.components.get("production")).startswith(
            "relative-url"):
        return Note("no base (cut off)", "url(input)", "the URL API, and so what a missing base "
                    "is, is cut off in the seed: urlcalc reads a relative URL against a base "
                    "whose scheme is 'about'", ("href",), KIND_UNSPECIFIED)
    if part == "host":
        return Note("host parsing (cut off)", "host(input)", "the seed is cut off inside "
                    "host(input), before the checks that would fail this host", ("href",),
                    KIND_UNSPECIFIED)
    if part == "port":
        return Note("port (cut off)", "authority(input)", "the port production is cut off in "
                    "the seed: no range is checked", ("href",), KIND_UNSPECIFIED)
    return Note(str(res.components.get("production") or "url"), "url(input)",
                "the input matches the url railroad diagram", ("href",))
