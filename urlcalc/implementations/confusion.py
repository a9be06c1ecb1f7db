"""Which kind of confusion a disagreement is, and whether a naive allowlist test is fooled.

``classify(input, base, standard, other)`` names the disagreement of another implementation's
reading with the URL Standard's by the confusion classes of urlcalc.model.confusion (after the
2022 Claroty/Snyk study of 16 URL parsers): the first class, in the table's order, whose
definition holds; one predicate function per class below tests it (``PREDICATES``). A
disagreement none of them accounts for is named by what differs, from a small set of names so
that a survey's keys stay few: ``other: <part>`` or ``other: <part> (<what>)``, the part being
the first of host, userinfo, port, path, query, fragment, origin that differs.

``allowed_host(input, standard, hosts)`` answers: would a naive allowlist test
(urlcalc.model.confusion.NAIVE_CHECKS) accept this URL for a host H that its text mentions,
while the standard's host is another? The hosts tried are the ones other implementations read
(``hosts``), the userinfo when it looks like a host name, and any name that follows ``@``,
``//`` or a backslash in the input.

Everything here reads strings and urlcalc's own algorithms; no input is listed anywhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypedDict
from urllib.parse import urlsplit

from urlcalc.model.confusion import CONFUSION_CLASSES, NAIVE_CHECKS, OTHER
from urlcalc.standard.host import HostFailure, host_parse, host_serialize
from urlcalc.standard.percent import percent_decode
from urlcalc.standard.record import SPECIAL_SCHEMES
from urlcalc.standard.url import URL, URLParseError

__all__ = ["PREDICATES", "AllowedHost", "Confusion", "ReadsAnotherHost", "Side", "allowed_host",
           "classify", "host_candidates", "reads_another_host"]

_C0_CONTROL_OR_SPACE = "".join(chr(i) for i in range(0x21))
_TAB_OR_NEWLINE = re.compile("[\t\n\r]")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_HOST_GETTERS = ("host", "hostname")
_USERINFO = ("username", "password")
# A host name as a naive check would be given one: dot-separated labels of letters (any
# script), digits, "-" and "_", the last not numeric (or four numbers: an IPv4 address).
_NAME = re.compile(r"(?:[\w-]+\.)+[\w-]+")
_IPV4 = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_DIGITS_AND_DOTS = re.compile(r"[0-9.]+")
# What follows "@", "//" or a backslash, up to the next delimiter: a name if it looks like one.
_MENTION = re.compile(r"(?:@|//|\\)([^/\\?#@:\s]+)")


@dataclass(frozen=True)
class Side:
    """One reading: parses (``ok``) or not, the getters (None where the library has no such
    notion; empty when it fails) and whether it read a relative reference."""

    ok: bool
    getters: Mapping[str, str | None]
    relative: bool = False

    def get(self, getter: str) -> str | None:
        return self.getters.get(getter) if self.ok else None


class Confusion(TypedDict):
    """The class of one implementation's disagreement with the standard: ``id`` (a class of
    urlcalc.model.confusion.CONFUSION_CLASSES, or the name of an "other: ..." one), ``name``,
    the ``getters`` that differ (none when one of them fails), and ``host``: the host differs
    or only one of them parses (the disagreements shown first)."""

    id: str
    name: str
    getters: list[str]
    host: bool


class AllowedHost(TypedDict):
    """A naive allowlist test fooled: ``check`` (an id of urlcalc.model.confusion.NAIVE_CHECKS)
    accepts the URL for ``allowed`` (H), while the standard's host is ``standard_host`` (X;
    null: the URL has no host)."""

    check: str
    allowed: str
    standard_host: str | None


@dataclass(frozen=True)
class _Case:
    """What the predicates read: the input as the standard reads it (stripped, no tabs or
    newlines), its part before the query and fragment, the base, the two readings and the
    getters that differ (href left out)."""

    input: str
    head: str
    base: str | None
    standard: Side
    other: Side
    differing: tuple[str, ...]

    @property
    def special(self) -> bool:
        protocol = self.standard.get("protocol") or ""
        return protocol[:-1] in SPECIAL_SCHEMES


def _clean(input: str) -> str:
    return _TAB_OR_NEWLINE.sub("", input.strip(_C0_CONTROL_OR_SPACE))


def _head(input: str) -> str:
    end = min((i for i in (input.find("?"), input.find("#")) if i >= 0), default=len(input))
    return input[:end]


def _decoded(text: str) -> str:
    return percent_decode(text).decode("utf-8", "replace")


def _domain(text: str) -> str | None:
    """``text`` percent-decoded and read by the standard's host parser as a special URL's host."""
    try:
        return host_serialize(host_parse(_decoded(text), False))
    except HostFailure:
        return None


def is_backslash_confusion(c: _Case) -> bool:
    """CONFUSION_CLASSES "backslash-confusion"."""
    if "\\" not in c.head or not c.standard.ok:
        return False

    def holds(value: str | None) -> bool:
        return value is not None and ("\\" in value or "%5c" in value.lower())

    if c.special:
        if not c.other.ok:
            return True
        return any(holds(c.other.get(g)) and not holds(c.standard.get(g))
                   for g in (*_USERINFO, *_HOST_GETTERS, "pathname"))
    return any(g in c.differing and holds(c.standard.get(g)) and not holds(c.other.get(g))
               for g in (*_HOST_GETTERS, "pathname"))


def is_encoded_data_confusion(c: _Case) -> bool:
    """CONFUSION_CLASSES "encoded-data-confusion"."""
    if not _ESCAPE.search(c.head):
        return False
    if not c.standard.ok:
        hostname = c.other.get("hostname")
        return c.other.ok and hostname is not None and _ESCAPE.search(hostname) is not None
    if not c.other.ok:
        return False
    parts = [g for g in (*_USERINFO, *_HOST_GETTERS) if g in c.differing]
    if parts and all(_decoded(c.standard.get(g) or "").lower()
                     == _decoded(c.other.get(g) or "").lower() for g in parts):
        return True
    theirs = c.other.get("hostname")
    if theirs is None or "hostname" not in c.differing:
        return False
    try:
        decoded = URL(_decoded(c.head) + c.input[len(c.head):], c.base).hostname
    except URLParseError:
        return False
    return decoded.lower() == theirs.lower()


def is_scheme_confusion(c: _Case) -> bool:
    """CONFUSION_CLASSES "scheme-confusion"."""
    if c.standard.ok and c.other.ok and c.other.get("protocol") is not None \
            and c.other.get("protocol") != c.standard.get("protocol"):
        return True
    if _SCHEME.match(c.input):
        return False
    return (not c.standard.ok or not c.other.ok or c.other.relative
            or any(g in c.differing for g in _HOST_GETTERS))


def slashes_after_scheme(input: str) -> int | None:
    """How many slashes (or backslashes) follow the scheme's colon (None: no scheme)."""
    m = _SCHEME.match(input)
    if m is None:
        return None
    rest = input[m.end():]
    return len(rest) - len(rest.lstrip("/\\"))


def is_slash_confusion(c: _Case) -> bool:
    """CONFUSION_CLASSES "slash-confusion"."""
    n = slashes_after_scheme(c.input)
    if n is None or n == 2 or not c.standard.ok:
        return False
    if not c.other.ok:
        return True
    if c.other.get("protocol") not in (None, c.standard.get("protocol")):
        return False
    return any(g in c.differing for g in (*_HOST_GETTERS, "pathname"))


def _default_ports(scheme: str) -> set[str]:
    if scheme in SPECIAL_SCHEMES:
        port = SPECIAL_SCHEMES[scheme]
        return {str(port)} if port is not None else set()
    return {str(p) for p in SPECIAL_SCHEMES.values() if p is not None}


def _split_port(host: str) -> tuple[str, str]:
    if host.startswith("["):
        end = host.find("]")
        rest = host[end + 1:]
        return host[: end + 1], rest[1:] if rest.startswith(":") else ""
    name, colon, port = host.rpartition(":")
    return (name, port) if colon else (host, "")


def _mixup_rule(c: _Case, getter: str) -> bool:
    """Whether the difference on ``getter`` is one a special scheme's rule makes."""
    mine, theirs = c.standard.get(getter), c.other.get(getter)
    if mine is None or theirs is None:
        return False
    scheme = (c.standard.get("protocol") or ":")[:-1]
    ports = _default_ports(scheme)
    if getter == "pathname":
        return {mine, theirs} == {"", "/"}
    if getter == "port":
        return {mine, theirs} in ({"", p} for p in ports)
    if getter == "hostname":
        if mine.lower() == theirs.lower():
            return True
        return not c.special and _domain(mine) == theirs
    if getter == "host":
        (mine_name, mine_port), (their_name, their_port) = _split_port(mine), _split_port(theirs)
        return ((mine_name == their_name or _mixup_rule(c, "hostname"))
                and (mine_port == their_port or {mine_port, their_port} in
                     ({"", p} for p in ports)))
    if getter == "origin":
        return ((mine == "null") != (theirs == "null")
                or ("host" in c.differing and _mixup_rule(c, "host")))
    return False


def _empty_path_in_href(mine: str, theirs: str) -> bool:
    """Whether ``mine`` is ``theirs`` with the "/" of an empty special path added where its path
    begins (before the query, the fragment or the end)."""
    start = theirs.find("//")
    ends = [i for i in (theirs.find("?"), theirs.find("#"), len(theirs)) if i > start]
    i = min(ends)
    return start >= 0 and "/" not in theirs[start + 2:i] and mine == theirs[:i] + "/" + theirs[i:]


def is_scheme_mixup(c: _Case) -> bool:
    """CONFUSION_CLASSES "scheme-mixup"."""
    if not (c.standard.ok and c.other.ok):
        return False
    if not c.differing:
        mine, theirs = c.standard.get("href"), c.other.get("href")
        return mine is not None and theirs is not None and _empty_path_in_href(mine, theirs)
    if c.other.get("protocol") not in (None, c.standard.get("protocol")):
        return False
    return all(_mixup_rule(c, g) for g in c.differing)


#: The predicate of each class of CONFUSION_CLASSES, by id.
PREDICATES: dict[str, Callable[[_Case], bool]] = {
    "backslash-confusion": is_backslash_confusion,
    "encoded-data-confusion": is_encoded_data_confusion,
    "scheme-confusion": is_scheme_confusion,
    "slash-confusion": is_slash_confusion,
    "scheme-mixup": is_scheme_mixup,
}

# The parts an "other" disagreement is named by, in this order: the getters that name it, and
# the one whose values say what differs.
_PARTS = (("host", ("hostname",), "hostname"), ("userinfo", _USERINFO, "username"),
          ("port", ("port", "host"), "port"), ("path", ("pathname",), "pathname"),
          ("query", ("search",), "search"), ("fragment", ("hash",), "hash"),
          ("origin", ("origin",), "origin"), ("scheme", ("protocol",), "protocol"))
_DOTS = re.compile(r"(?:^|/)(?:\.|%2e){1,2}(?:/|$)", re.IGNORECASE)


def _what(c: _Case, part: str, g: str) -> str | None:
    """What differs in ``part`` (read on the getter ``g``), from a few names, or None."""
    mine, theirs = c.standard.get(g) or "", c.other.get(g) or ""
    if part == "host":
        if "@" in c.head and any(u in c.differing for u in _USERINFO):
            return "userinfo split"
        if "xn--" in (mine + theirs).lower() or not (mine + theirs).isascii():
            return "IDNA"
        if mine.startswith("["):
            return "IPv6"
        if _DIGITS_AND_DOTS.fullmatch(mine):
            return "IPv4"
    if part == "port" and theirs.lstrip("0") == mine and theirs != mine:
        return "leading zeros"
    if part == "path" and _DOTS.search(theirs):
        return "dot segments"
    if part == "query" and mine.replace("%20", "+") == theirs:
        return "form encoding"
    if mine != theirs and _decoded(mine) == _decoded(theirs):
        return "percent-encoding"
    return None


def _other(c: _Case) -> str:
    if c.standard.ok != c.other.ok:
        return (f"{OTHER}: fails where the standard parses" if c.standard.ok
                else f"{OTHER}: parses where the standard fails")
    for part, getters, g in _PARTS:
        if any(d in c.differing for d in getters):
            if part == "userinfo" and c.standard.get("username") == c.other.get("username"):
                g = "password"
            what = _what(c, part, g)
            return f"{OTHER}: {part}" + (f" ({what})" if what else "")
    return f"{OTHER}: href"


def differing_getters(standard: Side, other: Side) -> tuple[str, ...]:
    """The getters (href left out) on which ``other`` gives a value the standard does not;
    none when one of them fails."""
    if not (standard.ok and other.ok):
        return ()
    mine = standard.getters
    return tuple(g for g, theirs in other.getters.items()
                 if theirs is not None and theirs != mine.get(g) and g != "href")


def classify(input: str, base: str | None, standard: Side, other: Side) -> Confusion | None:
    """The confusion class of ``other``'s disagreement with ``standard`` on ``input`` (against
    ``base``), or None when they agree."""
    differing = differing_getters(standard, other)
    if standard.ok == other.ok and not differing and (
            not standard.ok or other.get("href") in (None, standard.get("href"))):
        return None
    text = _clean(input)
    case = _Case(text, _head(text), base, standard, other, differing)
    host = standard.ok != other.ok or any(g in differing for g in _HOST_GETTERS)
    for entry in CONFUSION_CLASSES:
        if PREDICATES[entry["id"]](case):
            return {"id": entry["id"], "name": entry["name"], "getters": list(differing),
                    "host": host}
    name = _other(case)
    return {"id": name, "name": name, "getters": list(differing), "host": host}


def _same_host(allowed: str, standard_host: str | None) -> bool:
    if standard_host is None:
        return False
    if allowed.lower() == standard_host.lower():
        return True
    return _domain(allowed) == standard_host


def _looks_like_host(text: str) -> bool:
    return (_NAME.fullmatch(text) is not None and not text[-1].isdigit()) or \
        _IPV4.fullmatch(text) is not None


def host_candidates(input: str, standard: Side, hosts: Iterable[str | None]) -> list[str]:
    """The hosts an allowlist might hold that ``input``'s text mentions: ``hosts`` (other
    readings' hostnames), the userinfo when it looks like a host name, and each name that
    follows "@", "//" or a backslash; lowercased, sorted, without the standard's host."""
    found = {h.lower() for h in hosts if h}
    for g in _USERINFO:
        value = standard.get(g)
        if value:
            found.add(_decoded(value).lower())
    found.update(m.group(1).lower() for m in _MENTION.finditer(input))
    mine = standard.get("hostname")
    return sorted(h for h in found if _looks_like_host(h) and not _same_host(h, mine))


def _fooled(check: str, url: str, allowed: str, standard_host: str | None) -> bool:
    """Whether the naive test ``check`` accepts ``url`` for ``allowed`` where the standard's
    host is ``standard_host`` (another host; for the suffix test, one that is not a subdomain
    of ``allowed`` either: a suffix test means to accept those)."""
    if not _naive(check, url, allowed):
        return False
    return check != "netloc-endswith" or standard_host is None or \
        not standard_host.endswith("." + (_domain(allowed) or allowed))


def _naive(check: str, url: str, allowed: str) -> bool:
    """Whether the naive test ``check`` accepts ``url`` for ``allowed``."""
    if check == "startswith":
        return url.startswith(("http://" + allowed, "https://" + allowed))
    if check == "substring":
        return allowed in url
    try:
        parts = urlsplit(url)
        if check == "urlsplit-hostname":
            return parts.hostname == allowed
        return parts.netloc.endswith(allowed)
    except ValueError:  # urllib refuses it ("Invalid IPv6 URL"): the test raises, not accepts
        return False


def allowed_host(input: str, standard: Side, hosts: Iterable[str | None] = ()
                 ) -> list[AllowedHost]:
    """The naive allowlist tests that accept ``input`` for a host it mentions
    (``host_candidates``) while the standard's host is another: one finding per test (the
    first such host in code-point order). None when the standard refuses the URL (a client
    that follows it fetches nothing)."""
    if not standard.ok:
        return []
    mine = standard.get("hostname") or None
    candidates = host_candidates(input, standard, hosts)
    out: list[AllowedHost] = []
    for check in NAIVE_CHECKS:
        for allowed in candidates:
            if _fooled(check["id"], input, allowed, mine):
                out.append({"check": check["id"], "allowed": allowed, "standard_host": mine})
                break
    return out


class ReadsAnotherHost(TypedDict):
    """An implementation reads a host (``allowed``: an allowlist test on its hostname accepts
    the URL for it) that is not the standard's (``standard_host``; null: the URL has no host);
    ``naive``: the naive tests (ids of urlcalc.model.confusion.NAIVE_CHECKS) that accept it for
    that host too."""

    allowed: str
    standard_host: str | None
    naive: list[str]


def reads_another_host(input: str, standard: Side, other: Side) -> ReadsAnotherHost | None:
    """Whether an allowlist test made with ``other``'s hostname is fooled: ``other`` reads a
    non-empty host that is not the standard's, where the standard parses."""
    theirs = other.get("hostname")
    if not standard.ok or not theirs:
        return None
    mine = standard.get("hostname") or None
    if _same_host(theirs, mine):
        return None
    return {"allowed": theirs, "standard_host": mine,
            "naive": [c["id"] for c in NAIVE_CHECKS if _fooled(c["id"], input, theirs, mine)]}
