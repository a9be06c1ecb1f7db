"""Edition 3: IETF draft-abarth-url (Adam Barth, 2010), "Parsing URLs for Fun and Profit".

Seed ``000_abad3b91c4f322b0.txt``. The draft splits a URL into scheme / after-scheme,
then authority / path / query / fragment, then user-info / host / port, then user /
password, exactly by "consume up to" rules, and resolves relative URLs by five kinds of
relative string. It leaves file URLs, Windows drive letters, mailto and path-relative
resolution as TODOs: urlcalc reports those as "unspecified in this draft" instead of
inventing behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .edition import (
    KIND_UNSPECIFIED,
    EditionResult,
    Note,
    empty_getters,
    hash_getter,
    search_getter,
)

ID = "abarth_2010"
NAME = "draft-abarth-url (2010)"
YEAR = 2010
SOURCE = "000_abad3b91c4f322b0.txt (IETF draft-abarth-url-00, 2010)"
TERMS: dict[str, str] = {
    "after-scheme": "everything after the first ':' (3.1)",
    "remaining string": "the characters of the input not yet consumed",
    "control character": "any character <= U+0020 (2)",
    "slash character": "'/' or '\\' (2)",
    "authority terminating character": "a slash character, '?', '#' or ';' (2)",
    "ParsedURL": "the draft's parsed form: scheme, after-scheme, authority, path, ...",
    "hierarchical": "a scheme whose after-scheme is split further (not defined in the draft)",
    "scheme-relative / authority-relative / query-relative / fragment-relative / "
    "path-relative": "the five kinds of relative string (4.1)",
}
#: The components key of urlcalc's reconstruction of 4.2-4.5 (never the result itself).
RECONSTRUCTION = "urlcalc's reconstruction (not the draft's)"
HIERARCHICAL = frozenset({"ftp", "gopher", "http", "https", "ws", "wss"})
UNSPECIFIED: list[str] = [
    "3: single-letter schemes ('TODO: Windows drive specs!'): unspecified in this draft.",
    "3: the 'file' scheme ('TODO: File URLs!'): unspecified in this draft.",
    "3: the 'mailto' scheme ('TODO: I think mailto URLs are special, but more testing is "
    "required'): unspecified in this draft.",
    "3: 'hierarchical' is never defined; urlcalc treats ftp, gopher, http, https, ws, wss "
    "as hierarchical.",
    "4: 'valid scheme characters' ('TODO: Define valid scheme characters'); urlcalc uses "
    "RFC 3986's ALPHA *( ALPHA / DIGIT / '+' / '-' / '.' ).",
    "4: 'TODO: We probably need to trim leading and trailing control characters' of spec; "
    "urlcalc trims only where 3.1 does (when a scheme is found).",
    "4.1: resolving against a non-hierarchical base ('TODO ... We'll probably want to "
    "return an invalid URL'): unspecified in this draft.",
    "4.6: path-relative URLs ('TODO: Handle path-relative URLs. This requires a bunch of "
    "path and dot semantics.'): unspecified in this draft.",
    "4.2-4.5: the formula of 'resolved-url' (scheme-, authority-, query- and "
    "fragment-relative URLs) is missing from the seed's copy of the draft: unspecified. "
    "urlcalc shows its own reconstruction (base-url's parts before the relative kind, then "
    "spec) beside the result, labelled as urlcalc's, not the draft's.",
    "The draft defines no serialisation: 'the resolved URL is spec parsed as an absolute URL' "
    "is a ParsedURL (its parts), and no text turns one back into a string, so href is "
    "unspecified; urlcalc gives it no value (the components show the string the draft parsed "
    "and its parts). Nor does it define case or percent-encoding normalisation, default ports "
    "or an origin.",
]


def _is_control(ch: str) -> bool:
    return ord(ch) <= 0x20


SLASHES = "/\\"
#: The getters a scheme that is not hierarchical leaves unsplit (all but protocol and href).
NOT_SPLIT = ("username", "password", "host", "hostname", "port", "pathname", "search", "hash")
AUTHORITY_TERMINATORS = "/\\?#;"


@dataclass
class ParsedURL:
    scheme: str | None = None
    after_scheme: str | None = None
    authority: str | None = None
    user_info: str | None = None
    user: str | None = None
    password: str | None = None
    host: str | None = None
    port: str | None = None
    path: str | None = None
    query: str | None = None
    fragment: str | None = None
    string: str = ""

    def to_json(self) -> dict[str, str | None]:
        return {
            "scheme": self.scheme,
            "after-scheme": self.after_scheme,
            "authority": self.authority,
            "user-info": self.user_info,
            "user": self.user,
            "password": self.password,
            "host": self.host,
            "port": self.port,
            "path": self.path,
            "query": self.query,
            "fragment": self.fragment,
        }


class Unspecified(Exception):
    """The draft's text stops here (a TODO)."""


def find_scheme(s: str, trace: list[dict[str, Any]]) -> tuple[str, str] | None:
    """3.1 Finding the scheme; ``None`` when the URL is invalid."""
    i, j = 0, len(s)
    while i < j and _is_control(s[i]):
        i += 1
    while j > i and _is_control(s[j - 1]):
        j -= 1
    rest = s[i:j]
    trace.append(
        {
            "step": "3.1",
            "text": "consume leading and trailing control characters",
            "remaining": rest,
        }
    )
    if ":" not in rest:
        trace.append({"step": "3.1", "text": "no ':' in the remaining string: the URL is invalid"})
        return None
    scheme, after = rest.split(":", 1)
    trace.append(
        {"step": "3.1", "text": "scheme / after-scheme", "scheme": scheme, "after-scheme": after}
    )
    return scheme, after


def split_after_scheme(rest: str, url: ParsedURL, trace: list[dict[str, Any]]) -> None:
    """3.2 Finding the authority, path, query, and fragment."""
    k = 0
    while k < len(rest) and rest[k] in SLASHES:
        k += 1
    rest = rest[k:]
    trace.append({"step": "3.2", "text": f"consume {k} slash characters", "remaining": rest})
    stops = [p for p in (rest.find(c) for c in AUTHORITY_TERMINATORS) if p >= 0]
    if not stops:
        url.authority = rest
        trace.append({"step": "3.2", "text": "no authority terminating character: all authority"})
        return
    url.authority, rest = rest[: min(stops)], rest[min(stops) :]
    if "?" not in rest and "#" not in rest:
        url.path = rest
        trace.append({"step": "3.2", "text": "no '?' or '#': the remaining string is the path"})
        return
    stop = min(p for p in (rest.find("?"), rest.find("#")) if p >= 0)
    url.path, rest = rest[:stop], rest[stop:]
    if rest.startswith("?"):
        rest = rest[1:]
        if "#" not in rest:
            url.query = rest
            trace.append({"step": "3.2", "text": "query is the rest"})
            return
        url.query, rest = rest[: rest.find("#")], rest[rest.find("#") :]
    url.fragment = rest[1:]
    trace.append({"step": "3.2", "text": "fragment is the rest after '#'"})


def split_authority(auth: str, url: ParsedURL, trace: list[dict[str, Any]]) -> None:
    """3.3 Finding the user information, host, and port (user-info up to the *last* '@')."""
    rest = auth
    if "@" in rest:
        at = rest.rfind("@")
        url.user_info, rest = rest[:at], rest[at + 1 :]
    if ":" not in rest or (
        rest.startswith("[") and "]" in rest and rest.rfind(":") < rest.rfind("]")
    ):
        url.host = rest
    else:
        colon = rest.rfind(":")
        url.host, url.port = rest[:colon], rest[colon + 1 :]
    trace.append({"step": "3.3", "user-info": url.user_info, "host": url.host, "port": url.port})
    if url.user_info is not None:
        # 3.4 Find the user name and password
        if ":" not in url.user_info:
            url.user = url.user_info
        else:
            url.user, url.password = url.user_info.split(":", 1)
        trace.append({"step": "3.4", "user": url.user, "password": url.password})


def parse_absolute(s: str, res: EditionResult, trace: list[dict[str, Any]]) -> ParsedURL | None:
    """Section 3, Parsing a URL. Raises ``Unspecified`` at the draft's TODOs."""
    url = ParsedURL(string=s)
    found = find_scheme(s, trace)
    if found is None:
        return None
    url.scheme, url.after_scheme = found
    lower = url.scheme.lower()
    if len(url.scheme) == 1 and url.scheme.isascii() and url.scheme.isalpha():
        res.hit_unspecified(UNSPECIFIED[0])
        res.note(
            "TODO: Windows drive specs!", "3", "single-letter scheme: unspecified in this draft",
            kind=KIND_UNSPECIFIED,
        )
        raise Unspecified("Windows drive specs")
    if lower == "file":
        res.hit_unspecified(UNSPECIFIED[1])
        res.note("TODO: File URLs!", "3", "file URLs: unspecified in this draft",
                 kind=KIND_UNSPECIFIED)
        raise Unspecified("file URLs")
    if lower == "mailto":
        res.hit_unspecified(UNSPECIFIED[2])
        res.note("TODO: mailto", "3", "mailto URLs: unspecified in this draft",
                 kind=KIND_UNSPECIFIED)
        raise Unspecified("mailto URLs")
    res.hit_unspecified(UNSPECIFIED[3])
    if lower in HIERARCHICAL:
        split_after_scheme(url.after_scheme, url, trace)
        if url.authority is not None:
            split_authority(url.authority, url, trace)
        return url
    url.path = url.after_scheme
    trace.append({"step": "3", "text": "not hierarchical: the remaining string is the path"})
    res.note(
        "'hierarchical' (not defined)",
        "3",
        f"the draft never says which schemes are hierarchical; urlcalc's choice is that "
        f"{url.scheme!r} is not, so its after-scheme is not split into authority, path, query "
        "and fragment: the remaining string is the path",
        NOT_SPLIT,
        KIND_UNSPECIFIED,
    )
    return url


def _valid_scheme(s: str) -> bool:
    return (
        bool(s)
        and s[0].isascii()
        and s[0].isalpha()
        and all(c.isascii() and (c.isalnum() or c in "+-.") for c in s)
    )


def _base_prefix(base: ParsedURL, upto: str) -> str:
    """Base-url's string up to (not including) the named part (reconstruction, 4.2-4.5)."""
    out = (base.scheme or "") + ":"
    if upto == "authority":
        return out
    out += "//" + (base.authority or "")
    if upto == "path":
        return out
    out += base.path or ""
    if upto == "query":
        return out
    if base.query is not None:
        out += "?" + base.query
    return out


def resolve(
    spec: str, base: ParsedURL, res: EditionResult, trace: list[dict[str, Any]]
) -> ParsedURL | None:
    """Section 4, Resolving a string relative to a base URL."""
    res.hit_unspecified(UNSPECIFIED[5])
    found = find_scheme(spec, trace)
    if found is None:
        res.note("4: invalid spec", "4", "spec has no ':': resolved as a relative URL")
        return resolve_relative(spec, base, res, trace)
    scheme, after = found
    if not _valid_scheme(scheme):
        res.hit_unspecified(UNSPECIFIED[4])
        res.note(
            "4: scheme characters",
            "4",
            f"{scheme!r} has invalid scheme characters: resolved as a relative URL",
        )
        return resolve_relative(spec, base, res, trace)
    if (base.scheme or "").lower() == scheme.lower() and scheme.lower() in HIERARCHICAL:
        res.hit_unspecified(UNSPECIFIED[3])
        res.note(
            "4: shared scheme",
            "4",
            "same hierarchical scheme as the base: the after-scheme is resolved as a relative URL",
            ("href", "host", "pathname"),
        )
        return resolve_relative(after, base, res, trace)
    return parse_absolute(spec, res, trace)


def resolve_relative(
    spec: str, base: ParsedURL, res: EditionResult, trace: list[dict[str, Any]]
) -> ParsedURL | None:
    """4.1 Resolving a string as a relative URL."""
    if (base.scheme or "").lower() not in HIERARCHICAL:
        res.hit_unspecified(UNSPECIFIED[6])
        res.note(
            "TODO: non-hierarchical base",
            "4.1",
            "relative URL against a non-hierarchical base: unspecified in this draft",
            kind=KIND_UNSPECIFIED,
        )
        raise Unspecified("non-hierarchical base")
    if spec == "":
        trace.append({"step": "4.1", "text": "spec is empty: base-url without its fragment"})
        url = ParsedURL(**{**base.__dict__, "fragment": None})
        url.string = _base_prefix(base, "fragment")
        return url
    if spec[0] in SLASHES:
        if len(spec) >= 2 and spec[1] in SLASHES:
            kind, upto = "scheme-relative", "authority"
        else:
            kind, upto = "authority-relative", "path"
    elif spec[0] == "?":
        kind, upto = "query-relative", "query"
    elif spec[0] == "#":
        kind, upto = "fragment-relative", "fragment"
    else:
        res.hit_unspecified(UNSPECIFIED[7])
        res.note("TODO: path-relative", "4.6", "path-relative URL: unspecified in this draft",
                 kind=KIND_UNSPECIFIED)
        raise Unspecified("path-relative URLs")
    section = {
        "scheme-relative": "4.2",
        "authority-relative": "4.3",
        "query-relative": "4.4",
        "fragment-relative": "4.5",
    }[kind]
    # The seed keeps only "let resolved-url be" and "The resolved URL is resolved-url parsed
    # as an absolute URL": the formula itself is lost, so the result is unspecified. urlcalc's
    # reconstruction (base-url's parts before the relative kind, then spec) is shown as such.
    res.hit_unspecified(UNSPECIFIED[8])
    resolved = _base_prefix(base, upto) + spec
    scratch = EditionResult(edition=ID, ok=True)
    try:
        guess = parse_absolute(resolved, scratch, [])
    except Unspecified:
        guess = None
    res.components[RECONSTRUCTION] = {
        "resolved-url": resolved,
        "parsed as an absolute URL": guess.to_json() if guess is not None else None,
        "href": guess.string if guess is not None else None,
        "by": "urlcalc (the draft's formula for resolved-url is lost in the seed)",
    }
    res.note(
        f"{kind}: resolved-url lost",
        section,
        f"spec is {kind}; the seed keeps 'let resolved-url be' without its formula, so the "
        f"result is unspecified. urlcalc's reconstruction, not the draft's: {resolved!r}",
        ("href",),
        KIND_UNSPECIFIED,
    )
    trace.append({"step": section, "text": "let resolved-url be ... (lost in the seed)",
                  "urlcalc's reconstruction": resolved})
    raise Unspecified(f"{kind} URLs (the formula of resolved-url is lost in the seed)")


MAPPING_NOTES: dict[str, str] = {
    "href": "unspecified: the draft defines no serialiser (the components show the string it "
            "parsed as an absolute URL)",
    "origin": "not defined by the draft: no such notion",
    "protocol": "scheme + ':' (case kept)",
    "username": "user (3.4), or ''",
    "password": "password (3.4), or ''",
    "host": "host, plus ':' port when a port was found",
    "hostname": "host (3.3)",
    "port": "port (3.3), as written",
    "pathname": "path (3.2), as written: no dot segments, no backslash conversion",
    "search": "'?' + query when non-empty, else ''",
    "hash": "'#' + fragment when non-empty, else ''",
}


def parse(input: str, base: str | None = None) -> EditionResult:
    res = EditionResult(edition=ID, ok=True, mapping_notes=dict(MAPPING_NOTES))
    res.getters = empty_getters()
    trace: list[dict[str, Any]] = []
    res.trace = trace
    try:
        if base is None:
            url = parse_absolute(input, res, trace)
        else:
            b = parse_absolute(base, res, [])
            if b is None:
                res.note("3.1", "3.1", "the base has no ':'; it is an invalid URL", ("href",))
                return res.fail("invalid base URL")
            res.components["base"] = b.to_json()
            url = resolve(input, b, res, trace)
    except Unspecified as e:
        res.ok = False
        res.components["unspecified"] = f"unspecified in this draft: {e}"
        return res
    if url is None:
        res.note("3.1", "3.1", "the remaining string has no ':': the URL is invalid", ("href",))
        return res.fail("invalid URL (3.1: no ':')")
    res.components.update(url.to_json())
    g = res.getters
    # no serialiser in the draft: href is unspecified, never the input string beside parts
    # that may say otherwise (the components keep the string parsed)
    res.getter_unspecified("href", UNSPECIFIED[9])
    res.components["parsed as an absolute URL"] = url.string.strip(
        "".join(chr(c) for c in range(0x21)))
    g["protocol"] = (url.scheme or "") + ":"
    g["username"] = url.user or ""
    g["password"] = url.password or ""
    g["hostname"] = url.host or ""
    g["port"] = url.port or ""
    g["host"] = (url.host or "") + (":" + url.port if url.port is not None else "")
    g["pathname"] = url.path or ""
    g["search"] = search_getter(url.query)
    g["hash"] = hash_getter(url.fragment)
    if url.path and "\\" in url.path:
        res.note(
            "3.2",
            "3.2",
            "the path is kept as written: backslashes and dot segments are not interpreted",
            ("pathname", "href"),
        )
    if url.path and any(seg in (".", "..") for seg in url.path.replace("\\", "/").split("/")):
        res.note(
            "3.2",
            "3.2",
            "dot segments are not removed (no path semantics in the draft)",
            ("pathname", "href"),
        )
    if url.scheme and url.scheme != url.scheme.lower():
        res.note("3.1", "3.1", "the scheme is not lowercased", ("protocol", "href"))
    if url.host and url.host != url.host.lower():
        res.note("3.3", "3.3", "the host is not lowercased", ("host", "hostname", "href"))
    if url.port:
        res.note(
            "3.3", "3.3", "the port is kept as written (no default ports)", ("port", "host", "href")
        )
    if url.path is None and url.authority is not None:
        res.note("3.2", "3.2", "no path after the authority: path is absent", ("pathname",))
    if "%" in input:
        res.note(
            "no percent-encoding rules",
            "3",
            "percent-escapes are kept as written",
            ("pathname", "href", "search", "hash"),
        )
    return res


# --- why a getter differs from the current standard's -------------------------------------------

#: Every section this edition cites, with the seed's own words there.
SECTIONS: dict[str, str] = {
    "2": "A /control character/ is a character whose value is less than or equal to U+0020",
    "3": "If the scheme is hierarchical:",
    "3.1": "Consume characters up to, but not including, the first \":\" character. These "
           "characters are the /scheme/.",
    "3.2": "Consume characters up to, but not including, the first authority terminating "
           "character. The consumed characters are /authority/.",
    "3.3": "Consume characters up to, but not including, the last \":\" character. The "
           "consumed characters are the /host/.",
    "3.4": "Consume characters up to, but not including, the first \":\" character. The "
           "consumed characters are the /user/.",
    "4": "Given a string /spec/ and a ParsedURL /base-url/, find the scheme of spec.",
    "4.1": "TODO: If base-url's scheme is not hierarchical, we can't resolve as a relative URL.",
    "4.2": "Resolving a string as a scheme-relative URL",
    "4.3": "Resolving a string as an authority-relative URL",
    "4.4": "Resolving a string as a query-relative URL",
    "4.5": "Resolving a string as a fragment-relative URL",
    "4.6": "TODO: Handle path-relative URLs. This requires a bunch of path and dot semantics.",
}


def explain(res: EditionResult, getter: str, ours: str, current: dict[str, str]) -> Note | None:
    """The rule of the 2010 draft that made ``getter`` differ from the current standard's."""
    from .explain import DEFAULT_PORTS, how_differs

    cur = current.get(getter, "")
    split = next((n for n in res.notes if n.rule == "'hierarchical' (not defined)"), None)
    if split is not None and getter in split.getters:
        return Note(split.rule, split.section, split.text, (getter,), split.kind)
    scheme = (res.components.get("scheme") or "").lower()
    if scheme in HIERARCHICAL and scheme not in DEFAULT_PORTS and getter in NOT_SPLIT:
        return Note("'hierarchical' (not defined)", "3", "the draft never says which schemes "
                    f"are hierarchical; urlcalc's choice is that {scheme!r} is, so its "
                    "after-scheme is split into authority, path, query and fragment (the current "
                    "standard does not make it special)", (getter,), KIND_UNSPECIFIED)
    how = how_differs(ours, cur)
    as_written = "kept as written: the draft only splits the string (no case, percent-encoding "
    if getter == "host" and res.getters.get("hostname") == current.get("hostname"):
        return Note("host and port", "3.3", "the draft has no host getter: urlcalc's mapping "
                    "joins host and port with ':' whenever 3.3 found a port, an empty one too",
                    (getter,), KIND_UNSPECIFIED)
    if getter == "protocol":
        return Note("3.1", "3.1", as_written + "or control-character rules inside the "
                    "scheme; only leading and trailing control characters are consumed)",
                    (getter,))
    if getter in ("username", "password"):
        return Note("3.4", "3.4", f"the {'user' if getter == 'username' else 'password'} is "
                    + as_written + "rules)", (getter,))
    if getter == "hostname":
        return Note("3.3", "3.3", "the host is " + as_written + "rules, no IDNA, no IPv4 or "
                    "IPv6 parsing)", (getter,))
    if getter == "port":
        return Note("3.3", "3.3", "the port is " + as_written + "rules, no number, no "
                    "default ports)", (getter,))
    if getter == "pathname":
        if ours == "" and cur == "/":
            return Note("3.2", "3.2", "no authority terminating character follows the "
                        "authority, so there is no path", (getter,))
        what = {"backslash": "backslashes are not slashes",
                "kept": "characters are not percent-encoded"}.get(how, "dot segments, "
                                                                    "backslashes and "
                                                                    "percent-encoding are not "
                                                                    "interpreted")
        return Note("3.2", "3.2", f"the path is kept as written: {what} (the draft has no "
                    "path semantics)", (getter,))
    if getter in ("search", "hash"):
        return Note("3.2", "3.2", f"the {'query' if getter == 'search' else 'fragment'} is "
                    + as_written + "rules)", (getter,))
    return None


def explain_serialization(res: EditionResult, getter: str, ours: str,
                          current: dict[str, str]) -> Note | None:
    """``href`` differs though every part agrees: the draft has no serialiser."""
    if getter != "href":
        return None
    return Note("no serialiser", "3", "the draft defines no serialisation: urlcalc shows the "
                "string it parsed as href, delimiters and all", (getter,), KIND_UNSPECIFIED)


def accepts(res: EditionResult, failure: str) -> Note:
    """The rule of the 2010 draft that accepts an input the current standard rejects."""
    return Note("3.1", "3.1", "the draft's only failure is a string without ':' (3.1); "
                "everything else is split as written, with no checks on any part", ("href",))
