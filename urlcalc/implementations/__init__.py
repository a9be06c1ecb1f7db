"""Implementations side by side: the URL Standard (urlcalc) next to the URL parsers people run.

``implementations_model(input, base)`` is the result model's ``kind: "implementations"``: the
standard's reading, then each implementation's (whatwg-url and Node's URL through the node
helper, ada-url, urllib.parse, rfc3986, yarl), mapped onto the eleven getters, with each
difference from the standard and its explanation where one is known (``explain``). An
implementation that cannot run here (a missing package or node, or in Pyodide) is listed as not
available, with the reason. The page adds two columns of its own, computed in JavaScript and
labelled so: this browser's ``new URL()`` and whatwg-url bundled into the page.

One module per implementation (``*_adapter.py``); ``scores.py`` holds their WPT scores, written
by ``make interop`` (benchmarks/interop.py) with docs/interop.md."""

from __future__ import annotations

from typing import TypedDict

from urlcalc.implementations import node_adapter
from urlcalc.implementations.ada_adapter import ADA
from urlcalc.implementations.base import Implementation, Reading, Unavailable, exception_text
from urlcalc.implementations.confusion import (
    AllowedHost,
    Confusion,
    ReadsAnotherHost,
    Side,
    allowed_host,
    classify,
    reads_another_host,
)
from urlcalc.implementations.explain import (
    WHATWG_UNKNOWN,
    Context,
    explain_getter,
    explain_status,
)
from urlcalc.implementations.idna_cap import idna_cap_reason
from urlcalc.implementations.node_adapter import NODE, WHATWG_URL
from urlcalc.implementations.rfc3986_adapter import RFC3986
from urlcalc.implementations.urllib_adapter import URLLIB
from urlcalc.implementations.yarl_adapter import YARL
from urlcalc.model import budget
from urlcalc.model.limits import MAX_IMPLEMENTATIONS_CHARS
from urlcalc.model.shapes import Header, header
from urlcalc.standard.errors import ValidationErrorJSON
from urlcalc.standard.infra import to_usv
from urlcalc.standard.url import GETTERS, Getters

__all__ = ["IMPLEMENTATIONS", "MAX_IMPLEMENTATIONS_CHARS", "NOT_RUN_BUDGET",
           "format_implementations", "implementations_model"]

#: Column order: the URL Standard's implementations first, then the others.
IMPLEMENTATIONS: tuple[Implementation, ...] = (WHATWG_URL, NODE, ADA, URLLIB, RFC3986, YARL)
#: The reason (``reason``, with ``available`` false) of an implementation left out because the
#: request had spent its CPU budget (urlcalc.model.budget) before its turn.
NOT_RUN_BUDGET = "not run: the request's CPU budget was spent"


class StandardFailure(TypedDict):
    """Why the URL Standard fails to parse the input."""

    error: ValidationErrorJSON | None
    reason: str


class StandardReading(TypedDict):
    """The URL Standard's (urlcalc's) reading, beside the others."""

    ok: bool
    href: str | None
    failure: StandardFailure | None
    getters: Getters | None


class GetterDifference(TypedDict):
    """A getter on which an implementation differs from the standard, and why (when known)."""

    getter: str
    standard: str
    value: str
    explanation: str | None


class ImplementationReading(TypedDict):
    """One implementation: what it is, whether it can run here (else why not), and its
    reading: href or failure, the eleven getters (null where it has no such notion), and its
    differences from the standard with their explanations."""

    id: str
    name: str
    family: str
    package: str
    about: str
    call: str
    #: per getter, how the library's API is mapped onto it
    mapping: dict[str, str]
    #: the getters the library has no notion of, and why
    no_notion: dict[str, str]
    #: its WPT scores per file ([passed, total]), measured by make interop
    wpt: dict[str, list[int]] | None
    version: str | None
    runtime: str
    available: bool
    reason: str | None
    #: null when not available
    ok: bool | None
    href: str | None
    failure: str | None
    relative: bool
    getters: dict[str, str | None] | None
    getter_errors: dict[str, str]
    differences: list[GetterDifference]
    #: why it accepts what the standard rejects, or the other way round
    status_difference: str | None
    differs: bool
    #: the confusion class of its disagreement (urlcalc.implementations.confusion), or null
    confusion: Confusion | None
    #: an allowlist test on its hostname accepts a host the standard does not read, or null
    allowed_host: ReadsAnotherHost | None


class ImplementationsRow(TypedDict):
    """One getter across the standard and every implementation."""

    getter: str
    values: dict[str, str | None]
    differs: dict[str, bool]


class WptScoreRow(TypedDict):
    id: str
    name: str
    version: str
    scores: dict[str, list[int]]


class WptTable(TypedDict):
    """The WPT scores make interop measured."""

    files: list[str]
    measured: str
    rows: list[WptScoreRow]


class ImplementationsAnswer(Header):
    """The input read by other implementations beside the URL Standard."""

    input: str
    base: str | None
    standard: StandardReading
    implementations: list[ImplementationReading]
    rows: list[ImplementationsRow]
    differing: list[str]
    not_available: list[str]
    #: what a difference of an implementation of the standard gets, for the page's own columns
    #: ({name} is the implementation's name)
    unexplained_whatwg: str
    #: the naive allowlist tests (urlcalc.model.confusion.NAIVE_CHECKS) that accept the input
    #: for a host it mentions while the standard's host is another
    allowed_host: list[AllowedHost]
    wpt: WptTable


def _standard(ctx: Context) -> StandardReading:
    if ctx.url is not None:
        getters = ctx.url.getters()
        return {"ok": True, "href": getters["href"], "failure": None, "getters": getters}
    failure = ctx.failure
    error = failure.error if failure is not None else None
    return {"ok": False, "href": None, "getters": None, "failure": {
        "error": error.to_json() if error is not None else None,
        "reason": (failure.reason if failure is not None and failure.reason else "")
        or (error.type.description if error is not None else ""),
    }}


def _scores(impl_id: str) -> dict[str, list[int]] | None:
    from urlcalc.implementations.scores import SCORES

    row = SCORES.get(impl_id)
    return {f: list(v) for f, v in row["scores"].items()} if row else None


def wpt_table() -> WptTable:
    """The WPT scores `make interop` measured (urlcalc.implementations.scores), as a table."""
    from urlcalc.implementations import scores

    return {"files": list(scores.FILES), "measured": str(scores.MEASURED),
            "rows": [{"id": k, "name": str(v["name"]), "version": str(v["version"]),
                      "scores": {str(f): [int(n) for n in s] for f, s in v["scores"].items()}}
                     for k, v in scores.SCORES.items()]}


def _not_run(impl: Implementation, input: str, base: str | None) -> str | None:
    """Why ``impl`` is not run on this input (its IDNA is quadratic on the host, or the
    request's CPU budget is spent), or None."""
    if impl.idna is not None:
        reason = idna_cap_reason(impl.name, impl.idna, input, base)
        if reason is not None:
            return reason
    return NOT_RUN_BUDGET if budget.spent() else None


def _entry(impl: Implementation, ctx: Context, std: StandardReading) -> ImplementationReading:
    reason = _not_run(impl, ctx.input, ctx.base) or impl.unavailable()
    reading: Reading | None = None
    if reason is None:
        try:
            with budget.doing(impl.id):
                reading = impl.read(ctx.input, ctx.base)
        except Unavailable as e:
            reason = str(e)
        except budget.BudgetSpent:  # stopped inside it: the answer says where
            raise
        except Exception as e:  # a library bug is an answer too, never a 5xx
            reading = Reading.failed(f"raised {exception_text(e)}")
    out: ImplementationReading = {
        "id": impl.id, "name": impl.name, "family": impl.family, "package": impl.package,
        "about": impl.about, "call": impl.call, "mapping": impl.mapping,
        "no_notion": impl.no_notion, "wpt": _scores(impl.id), "version": impl.version(),
        "runtime": impl.runtime(), "available": reason is None, "reason": reason,
        "ok": None, "href": None, "failure": None, "relative": False, "getters": None,
        "getter_errors": {}, "differences": [], "status_difference": None, "differs": False,
        "confusion": None, "allowed_host": None}
    if reading is None:
        return out
    out["ok"] = reading.ok
    out["href"] = reading.getters.get("href") if reading.ok else None
    out["failure"] = None if reading.ok else reading.failure
    out["relative"] = reading.relative
    out["getters"] = {g: reading.getters.get(g) for g in GETTERS} if reading.ok else None
    out["getter_errors"] = dict(reading.getter_errors)
    differences: list[GetterDifference] = []
    status = None
    standard = std["getters"]
    if reading.ok != std["ok"]:
        status = explain_status(impl, reading, ctx)
    elif reading.ok and standard is not None:
        getters = reading.getters
        ours = {g: str(standard.get(g)) for g in GETTERS}
        differing = [g for g in GETTERS
                     if getters.get(g) is not None and getters[g] != ours[g]]
        for g in differing:
            value = getters[g]
            assert value is not None
            differences.append({
                "getter": g, "standard": ours[g], "value": value,
                "explanation": explain_getter(impl, g, ours[g], value, ctx, differing),
            })
    out["differences"] = differences
    out["status_difference"] = status
    out["differs"] = bool(differences) or status is not None
    standard_side, side = _side(std), Side(reading.ok, out["getters"] or {}, reading.relative)
    if out["differs"]:
        out["confusion"] = classify(ctx.input, ctx.base, standard_side, side)
    out["allowed_host"] = reads_another_host(ctx.input, standard_side, side)
    return out


def _side(std: StandardReading) -> Side:
    """The standard's reading, as urlcalc.implementations.confusion reads one."""
    getters = std["getters"]
    return Side(std["ok"], {g: str(getters.get(g)) for g in GETTERS} if getters else {})


def implementations_model(input: str, base: str | None = None) -> ImplementationsAnswer:
    """The standard and every implementation on ``input`` (against ``base``). Raises
    ModelError for an input or base over MAX_IMPLEMENTATIONS_CHARS code points."""
    from urlcalc.model.limits import ModelError

    input = to_usv(input)
    base = to_usv(base) if base is not None else None
    for name, value in (("input", input), ("base", base)):
        if value is not None and len(value) > MAX_IMPLEMENTATIONS_CHARS:
            raise ModelError(f"field {name!r} is too long to compare: {len(value)} code points "
                             f"(implementations are compared on at most "
                             f"{MAX_IMPLEMENTATIONS_CHARS})")
    # node reads the input while the others here do: its request goes first, its answer is
    # taken last (the columns keep their order); not when its IDNA is not to see this host
    if idna_cap_reason(NODE.name, NODE.idna or "", input, base) is None:
        node_adapter.parse_soon(input, base)
    try:
        with budget.doing("the URL Standard"):
            ctx = Context.of(input, base)
        std = _standard(ctx)
        order = sorted(range(len(IMPLEMENTATIONS)),
                       key=lambda i: IMPLEMENTATIONS[i].runtime_kind == "node")
        by_index = {i: _entry(IMPLEMENTATIONS[i], ctx, std) for i in order}
    finally:
        node_adapter.forget_soon()
    entries = [by_index[i] for i in range(len(IMPLEMENTATIONS))]
    standard = std["getters"]
    rows: list[ImplementationsRow] = [{
        "getter": g,
        "values": {"standard": str(standard.get(g)) if standard is not None else None,
                   **{e["id"]: (e["getters"] or {}).get(g) for e in entries}},
        "differs": {e["id"]: any(d["getter"] == g for d in e["differences"]) for e in entries},
    } for g in GETTERS]
    return {
        **header("implementations"), "input": input, "base": base, "standard": std,
        "implementations": entries, "rows": rows,
        "differing": [e["id"] for e in entries if e["differs"]],
        "not_available": [e["id"] for e in entries if not e["available"]],
        # what a difference of an implementation of the standard gets, for the page's own
        # columns ({name} is the implementation's name)
        "unexplained_whatwg": WHATWG_UNKNOWN,
        "allowed_host": allowed_host(input, _side(std), [(e["getters"] or {}).get("hostname")
                                                         for e in entries]),
        "wpt": wpt_table(),
    }


def _cell(value: str | None, width: int = 60) -> str:
    import json

    text = json.dumps(value, ensure_ascii=False) if value is not None else "no such notion"
    return text if len(text) <= width else text[: width - 1] + "…"


def format_implementations(result: ImplementationsAnswer) -> str:
    """The model as text: the standard's getters, then each implementation's verdict and its
    differences with their explanations."""
    base = result["base"]
    lines = [f"input  {_cell(result['input'])}", f"base   {_cell(base) if base else '(none)'}"]
    std = result["standard"]
    standard, failure = std["getters"], std["failure"]
    if standard is not None:
        lines.append("URL Standard (urlcalc):")
        lines += [f"  {g.ljust(8)}  {_cell(str(standard.get(g)))}" for g in GETTERS]
    else:
        lines.append("URL Standard (urlcalc): failure "
                     f"({failure['reason'] if failure is not None else ''})")
    for e in result["implementations"]:
        head = f"{e['name']} {e['version'] or ''} ({e['runtime']})".replace("  ", " ")
        if not e["available"]:
            lines.append(f"{head}: not available: {e['reason']}")
            continue
        if e["status_difference"]:
            verdict = f"{e['href']!r}" if e["ok"] else f"failure: {e['failure']}"
            lines.append(f"{head}: differs: {verdict}")
            lines.append(f"  why: {e['status_difference']}")
            lines += _confusion_lines(e)
            continue
        if not e["ok"]:
            lines.append(f"{head}: failure, as the standard: {e['failure']}")
            continue
        if not e["differences"]:
            notions = ", ".join(e["no_notion"])
            lines.append(f"{head}: agrees" + (f" (no notion of {notions})" if notions else ""))
            continue
        lines.append(f"{head}: differs on {', '.join(d['getter'] for d in e['differences'])}")
        for d in e["differences"]:
            lines.append(f"  {d['getter'].ljust(8)}  {_cell(d['value'])}  (standard: "
                         f"{_cell(d['standard'])})")
            lines.append(f"  {''.ljust(8)}  why: {d['explanation'] or 'no explanation known'}")
        lines += _confusion_lines(e)
    from urlcalc.model.confusion import NAIVE_CHECKS

    code = {c["id"]: c["code"] for c in NAIVE_CHECKS}
    for f in result["allowed_host"]:
        lines.append(f"allowed host: {code[f['check']]} accepts H = {_cell(f['allowed'])}; the "
                     f"standard's host is {_cell(f['standard_host'])}")
    return "\n".join(lines) + "\n"


def _confusion_lines(e: ImplementationReading) -> list[str]:
    """An implementation's confusion class and allowed-host finding, as text."""
    out = []
    if e["confusion"] is not None:
        out.append(f"  confusion: {e['confusion']['name']}"
                   + (" (host)" if e["confusion"]["host"] else ""))
    found = e["allowed_host"]
    if found is not None:
        out.append(f"  allowlist: its hostname {_cell(found['allowed'])} is not the standard's "
                   f"host {_cell(found['standard_host'])}")
    return out
