"""Citations under a variant: the trace's events of steps that ran with a change undone.

While a traced run reads an input with changes of the standard undone (urlcalc.standard.variants'
``undoing``), every ``undone(NAME)`` check that takes the old branch notes its variant's name
(``firing``: the list lives only while a trace is recorded, so the untraced parser pays nothing).
The drivers take the names noted since the last event onto the event of the step that ran them
(``take``): the host parser's algorithms take those whose variant touched their algorithm when
they write their event; the trace recorder takes the rest onto the next event it keeps (the state
of the basic URL parser that called the host parser, a setter's step). Each becomes one
``VariantCited`` on the event's ``variants``: which change, its commit, and where today's text
forks (``where``: the touched steps or definitions of that algorithm). urlcalc.history.cite adds
the commit's date and title and the text as it was before the change (from
``urlcalc/history/data/step_changes.json``).
"""

from __future__ import annotations

from urlcalc.standard.observer import Step
from urlcalc.standard.variants import BY_NAME


def _of(touched: str, algorithm: str) -> bool:
    """True when ``touched`` (a Variant's "algorithm, step N" or a definition) is a step of
    ``algorithm`` (or its text: "domain parser ToASCII")."""
    return touched == algorithm or (touched.startswith(algorithm)
                                    and touched[len(algorithm)] in ", (")


def where(name: str, algorithm: str | None) -> list[str]:
    """The variant ``name``'s touched steps of ``algorithm`` (none: [])."""
    if not algorithm:
        return []
    return [t for t in BY_NAME[name].touched if _of(t, algorithm)]


def take(fired: list[str], event: Step, matching_only: bool) -> None:
    """Put the changes noted in ``fired`` on ``event`` (``variants``, one per change), leaving
    in ``fired`` only those that are not its (with ``matching_only``: those whose variant did
    not touch the event's algorithm; else none)."""
    algorithm = event.get("algorithm")
    left: list[str] = []
    cites = event.get("variants")
    have = {c["variant"] for c in cites} if cites else set()
    for name in dict.fromkeys(fired):
        if name in have:
            continue
        at = where(name, algorithm)
        if not at and matching_only:
            left.append(name)
            continue
        have.add(name)
        if cites is None:
            cites = event["variants"] = []
        variant = BY_NAME[name]
        cites.append({"variant": name, "commit": variant.commit[:7],
                      "where": at or list(variant.touched)})
    fired[:] = left
