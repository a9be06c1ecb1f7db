"""Where the reference (whatwg-url 17.x) is wrong by the text of the URL Standard that urlcalc
implements (/work/shared/spec/url.bs, which can be newer or older than the reference).

Each entry names the url.bs step, explains the difference, and says exactly which answers it
covers: ``classify(request, ours, theirs)`` returns the entry's id when the whole difference
between the two answers is that one, else None (a real disagreement). Nothing here is a
tolerance: an entry matches only when urlcalc's answer is the one the spec text gives.

Reviewed against url.bs for every entry; re-check them when either side is updated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from urlcalc.standard.urlencoded import parse_urlencoded_string, serialize_urlencoded

Request = dict[str, Any]
Answer = dict[str, Any]


@dataclass(frozen=True)
class Known:
    id: str
    spec: str  # the url.bs algorithm and step
    explanation: str
    applies: Callable[[Request, Answer, Answer], bool]


def _same_except(ours: Answer, theirs: Answer, *keys: str) -> bool:
    return {k: v for k, v in ours.items() if k not in keys} == \
        {k: v for k, v in theirs.items() if k not in keys}


def _search_setter_list(req: Request, ours: Answer, theirs: Answer) -> bool:
    if req["op"] != "set" or req["setter"] != "search" or not ours.get("ok") \
            or not _same_except(ours, theirs, "searchParams"):
        return False
    value = req["value"]
    if value == "":
        return False
    input = value[1:] if value.startswith("?") else value
    query = ours["getters"]["search"].removeprefix("?")
    return bool(ours["searchParams"] == serialize_urlencoded(parse_urlencoded_string(input))
                and theirs["searchParams"] == serialize_urlencoded(parse_urlencoded_string(query)))


def _ipv4_non_ascii_input(req: Request, ours: Answer, theirs: Answer) -> bool:
    if req["op"] != "parse" or not _same_except(ours, theirs, "errors"):
        return False
    mine, ref = ours.get("errors"), theirs.get("errors")
    if mine is None or ref is None or "IPv4-non-ASCII-input" not in ref:
        return False
    return bool(mine == [e for e in ref if e != "IPv4-non-ASCII-input"])


KNOWN: tuple[Known, ...] = (
    Known(
        "search-setter-list-parses-input",
        "url.bs: URL class, search setter, step 6: \"Set this's query object's list to the "
        "result of parsing input\"",
        "The list is the urlencoded parse of the setter's input (the value less a leading "
        "\"?\"), not of the URL's new query. They differ when the input holds ASCII tabs or "
        "newlines, which the basic URL parser (step 3) removes from the query but which stay in "
        "input: url.search = \"a\\tb=c\" makes the query \"ab=c\" and the list [(\"a\\tb\", "
        "\"c\")]. whatwg-url 17 parses the URL's query instead (URL-impl.js, set search), so "
        "its searchParams show [(\"ab\", \"c\")]. Only searchParams differs; every getter "
        "agrees.",
        _search_setter_list,
    ),
    Known(
        "IPv4-non-ASCII-input",
        "url.bs: host parser, step 8 (and the validation error table)",
        "whatwg-url 17.3 reports an \"IPv4-non-ASCII-input\" validation error when a host "
        "that is not ASCII (e.g. \"１２７.0.0.1\" or \"1。2。3。4\") maps to an IPv4 address "
        "(jsdom/whatwg-url#335, tracking a URL Standard change). The url.bs urlcalc implements "
        "has no such validation error: its host parser goes from \"ends in a number\" straight "
        "to the IPv4 parser. Only the validation error lists differ (the reference's has the "
        "extra entry); the URL is the same.",
        _ipv4_non_ascii_input,
    ),
)


def classify(req: Request, ours: Answer, theirs: Answer) -> str | None:
    """The id of the known divergence that explains the whole difference, or None."""
    for known in KNOWN:
        if known.applies(req, ours, theirs):
            return known.id
    return None
