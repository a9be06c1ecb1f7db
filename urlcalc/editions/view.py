"""The Editions view's model: one input read by six older URL specifications and the current
URL Standard (urlcalc.editions holds the editions), and the random-URL generator per edition
grammar that the view offers (the 2009 desk calculator's convenience)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, TypedDict

from urlcalc.editions import EDITIONS
from urlcalc.editions.compare import (
    Comparison,
    ComparisonRow,
    Difference,
    EditionReading,
    Unspecified,
    compare,
    format_table,
    random_url,
)
from urlcalc.model import budget
from urlcalc.model.limits import MAX_COMPARE_CHARS, MAX_SEED, ModelError
from urlcalc.model.shapes import Header, header
from urlcalc.standard.infra import to_usv
from urlcalc.standard.url import GETTERS, URL, Getters, URLParseError
from urlcalc.standard.variants import undoing

#: The base offered with a random relative reference (RFC 3986 section 5.4's example base).
RANDOM_BASE = "http://a/b/c/d;p?q"
#: Each edition's trace is cut to this many steps, and every string in a step to this many
#: code points (a 5.2.4 pass holds two buffers as long as the path), so that an answer stays
#: small; ``trace_clipped`` says when and how.
MAX_TRACE_STEPS = 400
MAX_TRACE_TEXT = 200

_seeds = random.Random()


def _clip(value: Any) -> tuple[Any, bool]:
    """``value`` with every string over MAX_TRACE_TEXT code points cut (ending in "…")."""
    if isinstance(value, str):
        if len(value) > MAX_TRACE_TEXT:
            return value[: MAX_TRACE_TEXT - 1] + "…", True
        return value, False
    # (a short string, most of a trace, is kept without a call: every step of every edition's
    # trace comes here on every keystroke while the view shows traces)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        cut = False
        for k, v in value.items():
            if isinstance(v, str) and len(v) <= MAX_TRACE_TEXT:
                out[k] = v
            else:
                out[k], c = _clip(v)
                cut = cut or c
        return out, cut
    if isinstance(value, list):
        items: list[Any] = []
        cut = False
        for v in value:
            if isinstance(v, str) and len(v) <= MAX_TRACE_TEXT:
                items.append(v)
            else:
                v, c = _clip(v)
                items.append(v)
                cut = cut or c
        return items, cut
    return value, False


class ColumnAsked(NamedTuple):
    """An extra column of the URL Standard, as asked: today's parser with ``undone`` (names of
    urlcalc.standard.variants) undone. The history layer resolves a day or a change into it."""

    kind: Literal["as_of", "without"]
    #: the day (as_of) or the change's name (without)
    key: str
    label: str
    #: the change's commit and title (without; null for a day)
    commit: str | None
    title: str | None
    undone: list[str]


class StandardColumn(TypedDict):
    """The URL Standard on a day, or today's without one change, read by today's parser with the
    later (or that one) change undone: the same getters as the current standard's column."""

    #: "as_of:YYYY-MM-DD" or "without:<change>"
    id: str
    kind: Literal["as_of", "without"]
    #: "URL Standard on YYYY-MM-DD" or "today without <change>"
    label: str
    #: the day (as_of) or the change's name (without)
    key: str
    #: the change's commit and title (without; null for a day)
    commit: str | None
    title: str | None
    #: the changes undone for this column (urlcalc.standard.variants names), oldest first
    undone: list[str]
    #: its getters (null when it fails to parse)
    getters: Getters | None
    #: why it fails (null when it parses)
    failure: str | None
    #: the getters whose value differs from the current standard's (every getter when one of
    #: the two fails and the other does not)
    differs: list[str]


class CompareAnswer(Header):
    """One input read by the older URL specifications beside the current URL Standard."""

    input: str
    base: str | None
    errata: bool
    traces: bool
    #: the current standard's getters (null when it fails to parse)
    current: Getters | None
    #: why the current standard fails (null when it parses)
    current_failure: str | None
    editions: list[EditionReading]
    rows: list[ComparisonRow]
    differences: list[Difference]
    unspecified: list[Unspecified]
    #: the URL Standard on the days asked (``as_of``) and without the change asked
    #: (``without``), in that order; empty when none was asked
    columns: list[StandardColumn]


class RandomAnswer(Header):
    """A random input shaped by an edition's grammar, repeatable from its seed."""

    edition: str
    name: str
    year: int
    seed: int
    input: str
    #: a base when the input is a relative reference that only parses against one
    base: str | None


def _clip_trace(edition: EditionReading) -> None:
    trace = edition["trace"]
    edition["trace_clipped"] = None
    steps = edition["trace_steps"]
    if not trace:
        return
    kept, cut = _clip(trace[:MAX_TRACE_STEPS])
    if cut or steps > MAX_TRACE_STEPS:
        edition["trace"] = kept
        edition["trace_clipped"] = {"steps": steps, "kept": len(kept),
                                    "max_text": MAX_TRACE_TEXT}


def _column(asked: ColumnAsked, input: str, base: str | None,
            current: Getters | None) -> StandardColumn:
    """One extra column: today's parser on ``input`` with ``asked.undone`` undone."""
    budget.at(asked.label)
    with undoing(asked.undone):
        try:
            getters: Getters | None = URL(input, base).getters()
            failure = None
        except URLParseError as e:
            getters, failure = None, str(e)
    if getters is None or current is None:
        differs = [] if getters is None and current is None else list(GETTERS)
    else:
        differs = [g for g in GETTERS
                   if getters[g] != current[g]]  # type: ignore[literal-required]
    return {"id": f"{asked.kind}:{asked.key}", "kind": asked.kind, "label": asked.label,
            "key": asked.key, "commit": asked.commit, "title": asked.title,
            "undone": list(asked.undone), "getters": getters, "failure": failure,
            "differs": differs}


def compare_model(input: str, base: str | None = None, errata: bool = False,
                  traces: bool = True, columns: Sequence[ColumnAsked] = ()) -> CompareAnswer:
    """Every edition and the current standard on ``input`` (against ``base``); ``errata``
    reads the editions with their slips fixed; without ``traces``, each edition's ``trace`` is
    None (and ``trace_clipped`` too): the Editions view asks for them only while it shows one.
    ``columns`` adds the URL Standard on a day or without a change beside them (resolved by
    urlcalc.history.columns, which the compare request reads ``as_of`` and ``without`` with).
    Raises ModelError for an input or base over MAX_COMPARE_CHARS code points."""
    input = to_usv(input)
    base = to_usv(base) if base is not None else None
    for name, value in (("input", input), ("base", base)):
        if value is not None and len(value) > MAX_COMPARE_CHARS:
            raise ModelError(f"field {name!r} is too long to compare: {len(value)} code points "
                             f"(the editions are compared on at most {MAX_COMPARE_CHARS})")
    current_failure: str | None = None
    failure_name: str | None = None
    try:
        current: Getters | None = URL(input, base).getters()
    except URLParseError as e:
        current = None
        current_failure = str(e)
        # the validation error that failed it, else the algorithm that returned failure
        error = getattr(e.failure, "error", None)
        cause = getattr(e.failure, "cause", None)
        failure_name = (getattr(error, "name", None) or (cause[0] if cause else None)
                        or getattr(e.failure, "reason", None))
    c = compare(input, base, current, errata=errata, current_failure=failure_name,
                max_trace=MAX_TRACE_STEPS if traces else 0)
    for edition in c["editions"]:
        if traces:
            _clip_trace(edition)
        else:
            edition["trace"] = edition["trace_clipped"] = None
    return {**header("compare"), "input": c["input"], "base": c["base"], "errata": errata,
            "traces": traces, "current": c["current"], "current_failure": current_failure,
            "editions": c["editions"], "rows": c["rows"], "differences": c["differences"],
            "unspecified": c["unspecified"],
            "columns": [_column(a, c["input"], c["base"], current) for a in columns]}


def format_compare(result: CompareAnswer | Comparison) -> str:
    """The editions' table, then each extra column of the standard: what it reads and which
    getters differ from the current standard's."""
    text = format_table(result)
    columns: list[StandardColumn] = result.get("columns", [])  # type: ignore[assignment]
    for col in columns:
        getters = col["getters"]
        read = (f"href {getters['href']!r}" if getters is not None
                else f"fails: {col['failure']}")
        what = f" ({col['commit'][:7]} {col['title']!r})" if col["commit"] else ""
        text += (f"\n{col['label']}{what}: {read}; "
                 + (f"differs from the current standard: {', '.join(col['differs'])}"
                    if col["differs"] else "the same as the current standard")
                 + f" ({len(col['undone'])} change{'s' if len(col['undone']) != 1 else ''}"
                 " undone)")
    return text


def random_model(edition: str | None = None, seed: int | None = None) -> RandomAnswer:
    """A random input shaped by ``edition``'s grammar (a random edition when None), from
    ``seed`` (a fresh one when None; the answer says which, so a draw can be repeated).

    ``base`` is RANDOM_BASE when the input is a relative reference that the current standard
    only parses against a base, else None. Raises ModelError for an unknown edition or a seed
    outside 0 .. MAX_SEED."""
    if edition is not None and edition not in EDITIONS:
        raise ModelError(f"unknown edition {edition!r}; expected one of {', '.join(EDITIONS)}")
    if seed is None:
        seed = _seeds.randrange(2**32)
    elif not 0 <= seed <= MAX_SEED:
        raise ModelError(f"field 'seed' must be between 0 and {MAX_SEED}")
    rng = random.Random(seed)
    if edition is None:
        edition = rng.choice(list(EDITIONS))
    text = random_url(edition, rng)
    base = None
    if not URL.can_parse(text) and URL.can_parse(text, RANDOM_BASE):
        base = RANDOM_BASE
    mod = EDITIONS[edition]
    return {**header("random"), "edition": edition, "name": mod.NAME, "year": mod.YEAR,
            "seed": seed, "input": text, "base": base}
