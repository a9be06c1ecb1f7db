"""Citations under a variant, completed: the commit's date and title and the step's old words.

A trace read with changes undone marks each event whose step took a change's old branch
(``variants``, urlcalc.trace.undone: the change, its commit, where today's text forks). This
module adds what the history knows: the commit's ``date`` (committed) and ``title``
(``urlcalc/history/data/commits.json``) and ``before``, the words each touched step or
definition had before the change, from ``urlcalc/history/data/step_changes.json`` (url.bs at
the commit's first parent; CC BY 4.0, WHATWG), or, where those were not extracted as steps,
urlcalc's one-line summary of the change (``Variant.before``, marked ``source: "variant"``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from urlcalc.history.commits import by_sha
from urlcalc.history.step_changes import AlgorithmChange, StepChanges, step_changes
from urlcalc.standard.observer import OldText, Step, VariantCited
from urlcalc.standard.variants import BY_NAME, Variant

_STEP = ", step "


def _algorithm(changes: StepChanges, name: str) -> AlgorithmChange | None:
    """The commit's changes to the algorithm ``name`` (also under its name before a rename)."""
    found = changes.algorithms.get(name)
    if found is not None:
        return found
    for rename in changes.renamed:
        if rename.new == name and rename.old in changes.algorithms:
            return changes.algorithms[rename.old]
    return None


def old_text(variant: Variant, where: str) -> OldText:
    """What ``where`` (today's "algorithm, step N" or a definition, one of the variant's
    ``touched``) said before the variant's commit: url.bs's words at the commit's parent (None:
    the step did not exist before it), else the variant's summary."""
    changes = step_changes(variant.commit)
    algorithm, sep, step = where.partition(_STEP)
    if sep:
        change = _algorithm(changes, algorithm)
        if change is not None:
            if step in change.changed:
                return {"where": where, "text": change.changed[step][0], "source": "url.bs"}
            if step in change.removed:
                return {"where": where, "text": change.removed[step], "source": "url.bs"}
            if step in change.added:
                return {"where": where, "text": None, "source": "url.bs"}
    elif where in changes.definitions:
        return {"where": where, "text": changes.definitions[where][0], "source": "url.bs"}
    return {"where": where, "text": variant.before, "source": "variant"}


def complete(cited: VariantCited) -> VariantCited:
    """``cited`` (as the trace wrote it) with its commit's date and title and the old text of
    each step it names."""
    variant = BY_NAME[cited["variant"]]
    commit = by_sha(variant.commit)
    cited["date"] = commit["committed"]
    cited["title"] = commit["title"]
    cited["summary"] = variant.before
    where = list(cited.get("where", ()))
    # the definitions the change rewrote (a forbidden host code point ...) govern the step too
    definitions = step_changes(variant.commit).definitions
    where += [t for t in variant.touched if t in definitions and t not in where]
    cited["before"] = [old_text(variant, w) for w in where]
    return cited


def cite_steps(steps: Iterable[Step]) -> int:
    """Complete every variant citation of ``steps`` (a trace's); how many there were."""
    n = 0
    for step in steps:
        for cited in step.get("variants") or ():
            complete(cited)
            n += 1
    return n


def _traces(answer: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    """Every trace of a parse, set or host answer."""
    for value in (answer.get("trace"),
                  *(op.get("trace") for op in answer.get("operations") or ()),
                  *((answer.get(k) or {}).get("trace") for k in ("domain", "opaque"))):
        if isinstance(value, Mapping):
            yield value


def cite_answer(answer: Mapping[str, Any]) -> int:
    """Complete the variant citations of every trace of ``answer`` (a parse, set or host
    answer); how many there were."""
    return sum(cite_steps(trace["steps"]) for trace in _traces(answer))
