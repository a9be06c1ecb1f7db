"""Why an edition's getter differs from the current URL Standard's: the rule that caused it.

``compare`` asks this module for one :class:`Note` per difference line. The answer comes from
the edition itself, in this order:

1. the edition's ``explain(res, getter, ours, current)``: its own rules, checked against what
   the run recorded (components, notes, counterfactual readings such as ``errata``) and the
   way the two values differ (``how_differs``); for a getter built from others (``href``,
   ``origin``, ``host``) only causes that concern the whole URL;
2. for such a getter, the causes of the parts that differ, named in the text; and when no
   part differs, the edition's ``explain_serialization`` (delimiters its serialiser keeps);
3. the most specific note the run recorded for that getter;
4. only then urlcalc's getter mapping (``kind`` ``mapping``), which the tests keep rare.

Every ``section`` a note names is a key of the edition module's ``SECTIONS`` (the seed's own
words for that place), so a difference line can be checked against the edition's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from urlcalc.standard.percent import percent_decode

from .edition import KIND_MAPPING, KIND_RULE, EditionResult, Note

#: Getters computed from other getters: a difference in one of them is explained by the first
#: part that differs (in this order).
PARTS: dict[str, tuple[str, ...]] = {
    "href": ("protocol", "username", "password", "hostname", "port", "pathname", "search",
             "hash"),
    "origin": ("protocol", "hostname", "port"),
    "host": ("hostname", "port"),
}

#: The current standard's special schemes and their default ports (for the classifiers only).
DEFAULT_PORTS = {"ftp": "21", "http": "80", "https": "443", "ws": "80", "wss": "443"}

Explainer = Callable[[EditionResult, str, str, dict[str, str]], "Note | None"]

_TRIPLET = re.compile(r"%[0-9A-Fa-f]{2}")
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
_IPV4 = re.compile(rf"(?:{_OCTET}\.){{3}}{_OCTET}")


# --- how two values differ -------------------------------------------------------------------


def _decoded(s: str) -> bytes:
    return percent_decode(s)


def upper_triplets(s: str) -> str:
    """``s`` with the hex digits of every percent-encoded triplet uppercased."""
    return _TRIPLET.sub(lambda m: m.group(0).upper(), s)


def how_differs(ours: str, cur: str) -> str:
    """A coarse classification of how the edition's value differs from the current one.

    ``case``: only in ASCII case; ``hex-case``: only in the case of percent-encoded triplets;
    ``kept``: the edition keeps literal (or decoded) what the current standard percent-encodes;
    ``encoded``: the edition percent-encodes what the current standard keeps literal;
    ``percent``: both, or otherwise only in percent-encoding; ``backslash``: the edition keeps
    ``\\`` (or ``%5C``) where the current standard has ``/``; ``empty``: the edition's value is
    empty; ``other``: anything else."""
    if ours == cur:
        return "same"
    if ours.lower() == cur.lower() and upper_triplets(ours) != upper_triplets(cur):
        return "case"
    if upper_triplets(ours) == upper_triplets(cur):
        return "hex-case"
    if ours.replace("\\", "/") == cur or ours.replace("%5C", "/").replace("%5c", "/") == cur:
        return "backslash"
    try:
        same_bytes = _decoded(ours) == _decoded(cur)
    except (UnicodeError, ValueError):  # pragma: no cover - lone surrogates are encoded
        same_bytes = False
    if same_bytes:
        n_ours, n_cur = len(_TRIPLET.findall(ours)), len(_TRIPLET.findall(cur))
        if n_ours < n_cur:
            return "kept"
        if n_ours > n_cur:
            return "encoded"
        return "percent"
    if ours == "":
        return "empty"
    return "other"


def is_ipv4(s: str) -> bool:
    """A dotted-decimal IPv4 address, as the current standard serialises one."""
    return _IPV4.fullmatch(s) is not None


def scheme_of(current: dict[str, str]) -> str:
    return current.get("protocol", ":")[:-1]


# --- the explanation -----------------------------------------------------------------------


def _most_specific(res: EditionResult, getter: str) -> Note | None:
    hits = [n for n in res.notes if getter in n.getters]
    if hits:
        return min(hits, key=lambda n: len(n.getters))  # most specific; first on ties
    return None


def _from_parts(mod: Any, res: EditionResult, getter: str, current: dict[str, str],
                known: dict[str, Note] | None) -> Note | None:
    causes: list[tuple[str, Note]] = []
    for part in PARTS.get(getter, ()):
        ours = res.getters.get(part)
        cur = current.get(part)
        if ours is None or cur is None or ours == cur:
            continue
        note = explain_getter(mod, res, part, current, known)
        if note.kind != KIND_MAPPING:
            causes.append((part, note))
    if not causes:
        return None
    part, first = causes[0]
    text = f"{getter} differs in {part}: {first.text}"
    others = [(p, n) for p, n in causes[1:] if (n.rule, n.section) != (first.rule, first.section)]
    if others:
        text += "; also " + "; ".join(f"{p}: {n.rule} ({n.section})" for p, n in others)
    return Note(first.rule, first.section, text, (getter,), first.kind)


def explain_getter(mod: Any, res: EditionResult, getter: str, current: dict[str, str],
                   known: dict[str, Note] | None = None) -> Note:
    """The rule of edition ``mod`` that made ``res``'s ``getter`` differ from ``current``'s.

    ``known`` holds the notes already found for ``res`` against ``current``, by getter, and
    gets this one: ``compare`` explains a part both in its own row and inside ``href``,
    ``origin`` or ``host``, and finds it once."""
    if known is not None and getter in known:
        return known[getter]
    note = _explain_getter(mod, res, getter, current, known)
    if known is not None:
        known[getter] = note
    return note


def _explain_getter(mod: Any, res: EditionResult, getter: str, current: dict[str, str],
                    known: dict[str, Note] | None) -> Note:
    ours = res.getters.get(getter) or ""
    explain: Explainer | None = getattr(mod, "explain", None)
    if explain is not None:
        note = explain(res, getter, ours, current)
        if note is not None:
            return note
    note = _from_parts(mod, res, getter, current, known)
    if note is not None:
        return note
    serialization: Explainer | None = getattr(mod, "explain_serialization", None)
    if serialization is not None and getter in PARTS:
        note = serialization(res, getter, ours, current)
        if note is not None:
            return note
    note = _most_specific(res, getter)
    if note is not None:
        return note
    return Note("getter mapping", "mapping", res.mapping_notes.get(getter, "no rule recorded"),
                (getter,), KIND_MAPPING)


def explain_rejection(res: EditionResult) -> Note:
    """The rule that made the edition reject an input the current standard accepts."""
    note = next((n for n in res.notes if "href" in n.getters), None)
    if note is not None:
        return note
    return Note("failure", "", res.error or "the edition rejects the input", ("href",),
                KIND_RULE)


def explain_acceptance(mod: Any, res: EditionResult, failure: str | None) -> Note:
    """The rule that made the edition accept an input the current standard rejects;
    ``failure`` is the name of the current standard's validation error that failed it."""
    accepts: Callable[[EditionResult, str], Note] | None = getattr(mod, "accepts", None)
    if accepts is not None:
        return accepts(res, failure or "")
    return Note("accepts", "", "the current standard fails, this edition accepts the input",
                ("href",), KIND_MAPPING)


def failure_part(failure: str) -> str:
    """Which part of the URL the current standard's validation error ``failure`` is about:
    ``port``, ``host``, ``scheme`` (no scheme and no usable base), ``credentials`` or ``url``."""
    low = failure.lower()
    if low.startswith("port"):
        return "port"
    if low.startswith(("ipv4", "ipv6", "domain", "host", "opaque")):
        return "host"
    if "scheme" in low:
        return "scheme"
    if "credentials" in low:
        return "credentials"
    return "url"
