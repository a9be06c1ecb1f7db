"""Run every edition on one input and base, side by side with the current URL Standard.

The current standard's getters are supplied by the caller (``current``), so this module
does not depend on the main parser.
"""

from __future__ import annotations

import functools
import inspect
import random
from typing import Any, TypedDict, cast

from urlcalc.model import budget
from urlcalc.standard.url import Getters

from . import EDITIONS
from .edition import (
    GETTERS,
    STATUS_FAILURE,
    STATUS_NOT_RUN,
    STATUS_OK,
    STATUS_UNSPECIFIED,
    EditionResult,
    EditionResultJSON,
    Note,
)
from .explain import explain_acceptance, explain_getter, explain_rejection

CURRENT = "current"
#: The ``error`` of an edition (status "not run") left out because the request had spent its
#: CPU budget (urlcalc.model.budget) before its turn.
NOT_RUN_BUDGET = "not run: the request's CPU budget was spent"


class EditionReading(EditionResultJSON):
    """One edition's reading, with the edition's name, year, source and terms, and (when the
    trace was cut for the answer) how: ``trace_clipped``."""

    id: str
    name: str
    year: int
    source: str
    #: the edition's own terms for the getters' parts
    terms: dict[str, str]
    #: how many steps the edition's trace had (before max_trace)
    trace_steps: int
    #: null, or how the trace was cut: steps (in all), kept, max_text (longest string kept)
    trace_clipped: dict[str, int] | None


class ComparisonRow(TypedDict):
    """One getter: each reading's value, whether it differs from the current standard's, and
    each edition's status."""

    getter: str
    values: dict[str, str | None]
    differs: dict[str, bool]
    status: dict[str, str]


class Difference(TypedDict):
    """A difference and the rule that caused it, with the edition's own words for its section
    (``quote``) and whose rule it is (``kind``)."""

    edition: str
    getter: str
    rule: str
    section: str
    text: str
    kind: str
    quote: str


class Unspecified(TypedDict):
    """An area an edition's text leaves unspecified that this input ran into."""

    edition: str
    text: str


class Comparison(TypedDict):
    """Every edition beside the current standard."""

    input: str
    base: str | None
    current: Getters | None
    editions: list[EditionReading]
    rows: list[ComparisonRow]
    differences: list[Difference]
    unspecified: list[Unspecified]


def _line(mod: Any, eid: str, getter: str, note: Note, text: str | None = None) -> Difference:
    """One difference line: the edition, the getter, and the rule that caused it, with the
    edition's own words for its section (``quote``) and whose rule it is (``kind``)."""
    sections: dict[str, str] = getattr(mod, "SECTIONS", {})
    return {
        "edition": eid,
        "getter": getter,
        "rule": note.rule,
        "section": note.section,
        "text": text if text is not None else note.text,
        "kind": note.kind,
        "quote": sections.get(note.section, ""),
    }


@functools.lru_cache(maxsize=32)
def _reads_errata(parse: Any) -> bool:
    """Whether an edition's ``parse`` has an ``errata`` reading (takes ``errata=``). Cached per
    function: inspect.signature takes longer than some editions' parse."""
    return "errata" in inspect.signature(parse).parameters


def compare(
    input: str, base: str | None = None, current: Getters | None = None,
    errata: bool = False, current_failure: str | None = None, max_trace: int | None = None,
) -> Comparison:
    """Run all editions; ``current`` holds the current standard's eleven getters (or None
    when the current standard fails to parse; ``current_failure`` then names the validation
    error that failed it, when known). ``errata`` reads the seeds with their slips fixed
    (editions that have such a reading); by default each seed is read as written.
    ``max_trace`` keeps only that many steps of each edition's trace (``trace_steps`` then
    says how many there were). Returns a JSON-serialisable dict."""
    # The explanations read the current getters by name (every value a string).
    getters = cast(dict[str, str], current) if current is not None else None
    results: dict[str, EditionResult] = {}
    for eid, mod in EDITIONS.items():
        if budget.spent():
            results[eid] = EditionResult.skipped(eid, NOT_RUN_BUDGET)
            continue
        with budget.doing(f"edition {eid}"):
            if errata and _reads_errata(mod.parse):
                results[eid] = mod.parse(input, base, errata=True)  # type: ignore[call-arg]
            else:
                results[eid] = mod.parse(input, base)
    editions: list[EditionReading] = []
    for eid, res in results.items():
        mod = EDITIONS[eid]
        steps = len(res.trace or ())
        if max_trace is not None and res.trace is not None and steps > max_trace:
            res.trace = res.trace[:max_trace]
        editions.append({**res.to_json(), "id": eid, "name": mod.NAME, "year": mod.YEAR,
                         "source": mod.SOURCE, "terms": dict(mod.TERMS), "trace_steps": steps,
                         "trace_clipped": None})
    rows: list[ComparisonRow] = []
    differences: list[Difference] = []
    unspecified: list[Unspecified] = []
    for eid, res in results.items():
        for text in res.unspecified:
            unspecified.append({"edition": eid, "text": text})
    for getter in GETTERS:
        cur = None if current is None else str(current.get(getter))
        values: dict[str, str | None] = {CURRENT: cur}
        differs: dict[str, bool] = {}
        status: dict[str, str] = {}
        for eid, res in results.items():
            st = res.status
            if st == STATUS_OK and getter in res.unspecified_getters:
                st = STATUS_UNSPECIFIED  # this cell only: the text stops before deciding it
            status[eid] = st
            value = res.getters.get(getter) if st == STATUS_OK else None
            values[eid] = value
            if st == STATUS_FAILURE:
                differs[eid] = current is not None
            elif st != STATUS_OK or value is None:
                differs[eid] = False
            else:
                differs[eid] = current is None or value != cur
        rows.append({"getter": getter, "values": values, "differs": differs, "status": status})
    for eid, res in results.items():
        st = res.status
        mod = EDITIONS[eid]
        if st == STATUS_FAILURE and current is not None:
            note = explain_rejection(res)
            differences.append(_line(mod, eid, "href", note,
                                     f"rejects the input: {res.error or note.text}"))
            continue
        if st == STATUS_OK and current is None:
            note = explain_acceptance(mod, res, current_failure)
            differences.append(_line(mod, eid, "href", note,
                                     f"the current standard fails, this edition accepts the "
                                     f"input: {note.text}"))
            continue
        if st != STATUS_OK or current is None:
            continue
        assert getters is not None
        known: dict[str, Note] = {}  # this edition's notes so far, by getter
        for row in rows:
            if row["differs"][eid]:
                g = row["getter"]
                differences.append(_line(mod, eid, g,
                                         explain_getter(mod, res, g, getters, known)))
    return {
        "input": input,
        "base": base,
        "current": current,
        "editions": editions,
        "rows": rows,
        "differences": differences,
        "unspecified": unspecified,
    }


def _cell(value: str | None, status: str, differs: bool, width: int) -> str:
    if status == STATUS_FAILURE:
        text = "(fails)"
    elif status == STATUS_NOT_RUN:
        text = "(not run)"
    elif status != STATUS_OK:
        text = "(unspecified)"
    elif value is None:
        text = "—"
    else:
        text = repr(value)[1:-1] if value else '""'
    if differs:
        text = "*" + text
    if len(text) > width:
        text = text[: width - 1] + "…"
    return text.ljust(width)


def format_table(result: Comparison, width: int = 24) -> str:
    """A plain-text table: rows = getters, columns = current + editions ('*' = differs)."""
    ids = [e["id"] for e in result["editions"]]
    header = ["getter".ljust(9), "current".ljust(width), *(i.ljust(width) for i in ids)]
    lines = [
        f"input: {result['input']!r}   base: {result['base']!r}",
        " | ".join(header),
        "-+-".join("-" * len(h) for h in header),
    ]
    for row in result["rows"]:
        cur = row["values"]["current"]
        cells = [
            row["getter"].ljust(9),
            _cell(
                cur, STATUS_OK if result["current"] is not None else STATUS_FAILURE, False, width
            ),
        ]
        for eid in ids:
            cells.append(_cell(row["values"][eid], row["status"][eid], row["differs"][eid], width))
        lines.append(" | ".join(cells).rstrip())
    lines.append("")
    lines.append("* = differs from the current URL Standard")
    if result["differences"]:
        lines.append("differences:")
        for d in result["differences"]:
            sec = f" ({d['section']})" if d["section"] else ""
            whose = {"unspecified": " [unspecified: urlcalc's choice]",
                     "mapping": " [urlcalc's getter mapping]"}.get(d.get("kind", ""), "")
            lines.append(f"  {d['edition']} {d['getter']}: {d['rule']}{sec}{whose}: {d['text']}")
    if result["unspecified"]:
        lines.append("unspecified in the edition's text:")
        for u in result["unspecified"]:
            lines.append(f"  {u['edition']}: {u['text']}")
    return "\n".join(lines)


# --- random URLs per grammar (the 2009 desk calculator's convenience) -----------------------

_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"


def _word(rng: random.Random, alphabet: str = _ALNUM, lo: int = 1, hi: int = 6) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))


def _host(rng: random.Random, wild: bool) -> str:
    kind = rng.randrange(4 if wild else 3)
    if kind == 0:
        return ".".join(str(rng.randrange(256)) for _ in range(4))
    if kind == 1:
        return "[" + ":".join(f"{rng.randrange(65536):x}" for _ in range(8)) + "]"
    if kind == 2:
        return ".".join(_word(rng, "abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 3)))
    return rng.choice(["EXAMPLE.com", "bücher.de", "a%2Eb", "0x7f.1", "ex ample"])


def _segments(rng: random.Random, extra: str, sep: str = "/") -> str:
    segs = []
    for _ in range(rng.randint(0, 4)):
        r = rng.random()
        segs.append("." if r < 0.1 else ".." if r < 0.2 else _word(rng, _ALNUM + extra))
    return sep.join(segs)


def random_url(edition_id: str, rng: random.Random) -> str:
    """A random string shaped by ``edition_id``'s grammar (valid and near-miss forms)."""
    wild = edition_id != "rfc3986"
    unreserved_extra = "-._~!$&'()*+,;=:@" + ("%7e" if rng.random() < 0.3 else "")
    odd = ' \\^|{}<>"`é☺' if wild else ""
    scheme = rng.choice(["http", "https", "ftp", "file", "mailto", "x-y+z", "ws", "HTTP"])
    if edition_id == "whatwg_2014":
        form = rng.randrange(4)
        if form == 0:
            return f"file:{rng.choice('cC')}{rng.choice(':|')}\\{_segments(rng, '', chr(92))}"
        if form == 1:
            return f"javascript:{_word(rng)}({_word(rng)})"
    if edition_id == "formal_model" and rng.random() < 0.3:
        return f"{scheme}:" + "/" * rng.randint(0, 3) + _segments(rng, "")
    sep = "/" if not wild or rng.random() < 0.7 else "\\"
    out = ""
    if rng.random() < 0.75:
        out += scheme + ":"
    if rng.random() < 0.7:
        out += sep * 2
        if rng.random() < 0.2:
            out += _word(rng) + (":" + _word(rng) if rng.random() < 0.5 else "") + "@"
        out += _host(rng, wild)
        if rng.random() < 0.3:
            out += ":" + str(rng.choice([80, 443, 21, 8080, 0]))
        if rng.random() < 0.8:
            out += sep + _segments(rng, unreserved_extra + odd, sep)
    else:
        out += ("/" if rng.random() < 0.5 else "") + _segments(rng, unreserved_extra + odd)
    if rng.random() < 0.3:
        out += "?" + _word(rng, _ALNUM + "=&/?" + odd)
    if rng.random() < 0.3:
        out += "#" + _word(rng, _ALNUM + "/?" + ("#" if wild else "") + odd)
    if wild and rng.random() < 0.1:
        out = " " + out + "\t"
    return out
