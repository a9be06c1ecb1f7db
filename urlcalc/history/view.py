"""Since when does this input mean what it means: the history answer (``kind: "history"``).

For one input (and base), every change of the URL Standard urlcalc can undo whose undoing
alters the result (href, failure, any getter, the validation errors), oldest first: its commit,
date and title, the result without it beside today's, and the text of the steps and definitions
it changed, before and after (``urlcalc/history/data/step_changes.json``, excerpts of url.bs,
CC BY 4.0). It also says how many normative changes since 2015 urlcalc cannot undo yet, so an
empty list is never read as "this input has always meant this".
"""

from __future__ import annotations

from typing import TypedDict

from urlcalc.history.as_of import Change, changes, undone_as_of
from urlcalc.history.catalogue import SINCE
from urlcalc.history.commits import Class, normative, proposals
from urlcalc.history.step_changes import step_changes
from urlcalc.model import budget
from urlcalc.model.limits import MAX_HISTORY_CHARS, ModelError
from urlcalc.model.results import parse_model
from urlcalc.model.shapes import Header, header
from urlcalc.standard.url import GETTERS, Getters
from urlcalc.standard.variants import VARIANTS, undoing


class Reading(TypedDict):
    """What the standard (today's, or without a change) makes of the input."""

    ok: bool
    #: the getters (null on failure)
    getters: Getters | None
    #: why it fails, citing the step (null when it parses)
    failure: str | None
    #: the validation errors' names, in the order they fired
    validation_errors: list[str]


class TextChange(TypedDict):
    """A step (``algorithm``, ``step``) or a definition (``algorithm`` null, ``step`` its name)
    the change touched: its text before and after (null: it did not exist)."""

    algorithm: str | None
    step: str
    before: str | None
    after: str | None


class HistoryChange(TypedDict):
    """A change whose undoing alters this input's result."""

    #: the variant's name (urlcalc.standard.variants)
    name: str
    commit: str
    #: the day it landed on the standard's main branch
    date: str
    title: str
    #: the result without the change (the standard before it, all else as today)
    without: Reading
    #: what differs from today's result: "href", a getter's name, "failure", "validation
    #: errors"
    differs: list[str]
    #: the steps and definitions it changed, with their text before and after
    text: list[TextChange]


class QuietChange(TypedDict):
    """A change urlcalc can undo whose undoing leaves this input's result as it is (the
    timeline folds them, with their count)."""

    name: str
    commit: str
    date: str
    title: str


#: What the history says of every proposal: urlcalc does not apply them.
NOT_APPLIED = "proposal, not applied: urlcalc reads today's standard"


class ProposalEntry(TypedDict):
    """A commit of an unmerged branch of the standard's repository: a proposal, after today.
    urlcalc reads today's standard and applies no proposal (``applied`` is always false, and
    ``note`` says so): what it would do to this input is not computed."""

    branch: str
    commit: str
    #: the day it was committed on its branch
    date: str
    title: str
    #: urlcalc's reading of the commit: normative (it would change what urlcalc computes), api
    #: or editorial (commits.json's class)
    change_class: Class
    #: urlcalc's one-line reading of what it proposes
    reason: str
    applied: bool
    note: str


class AsOf(TypedDict):
    """The input read by the standard as of a date: today's, with every change urlcalc can
    undo that landed after that day undone."""

    date: str
    #: the names of the changes undone, oldest first
    undone: list[str]
    reading: Reading


class HistoryAnswer(Header):
    """The changes of the URL Standard that alter this input's result."""

    input: str
    base: str | None
    today: Reading
    #: the input as of the date asked for (``as_of``; null when none was asked)
    as_of: AsOf | None
    #: oldest first
    changes: list[HistoryChange]
    #: the other changes urlcalc can undo: undone, each leaves this result as it is (oldest
    #: first)
    unchanged: list[QuietChange]
    #: the unmerged branches' commits (proposals, after today; oldest first), none applied
    proposals: list[ProposalEntry]
    #: how many changes urlcalc can undo, and how many normative changes since 2015 there are
    undoable: int
    normative_since_2015: int


def _reading(input: str, base: str | None) -> Reading:
    m = parse_model(input, base)
    failure = m["failure"]
    return {"ok": m["ok"], "getters": m["getters"] if m["ok"] else None,
            "failure": failure["reason"] if failure is not None else None,
            "validation_errors": [e["name"] for e in m["validation_errors"]]}


def _differs(today: Reading, then: Reading) -> list[str]:
    out: list[str] = []
    if today["ok"] != then["ok"] or today["failure"] != then["failure"]:
        out.append("failure")
    a, b = today["getters"], then["getters"]
    if a is not None and b is not None:
        out += [g for g in GETTERS if a[g] != b[g]]  # type: ignore[literal-required]
    if today["validation_errors"] != then["validation_errors"]:
        out.append("validation errors")
    return out


def _text(change: Change) -> list[TextChange]:
    """The steps and definitions the change touched, before and after."""
    try:
        sc = step_changes(change.variant.commit)
    except KeyError:
        return []
    out: list[TextChange] = []
    for name, alg in sc.algorithms.items():
        for number, (before, after) in alg.changed.items():
            out.append({"algorithm": name, "step": number, "before": before, "after": after})
        for number, text in alg.added.items():
            out.append({"algorithm": name, "step": number, "before": None, "after": text})
        for number, text in alg.removed.items():
            if number not in alg.changed and number not in alg.added:
                out.append({"algorithm": name, "step": number, "before": text, "after": None})
    for definition, (was, now) in sc.definitions.items():
        out.append({"algorithm": None, "step": definition, "before": was, "after": now})
    return out


def _proposals() -> list[ProposalEntry]:
    out: list[ProposalEntry] = [
        {"branch": p["branch"], "commit": p["commit"], "date": p["committed"],
         "title": p["title"], "change_class": p["class"], "reason": p["reason"], "applied": False,
         "note": NOT_APPLIED} for p in proposals()]
    return sorted(out, key=lambda p: (p["date"], p["branch"]))


def history_model(input: str, base: str | None = None,
                  as_of: str | None = None) -> HistoryAnswer:
    """Every change urlcalc can undo whose undoing alters ``input``'s result (against
    ``base``), oldest first; with ``as_of`` (yyyy-mm-dd), also the input as of that day."""
    for name, value in (("input", input), ("base", base)):
        if value is not None and len(value) > MAX_HISTORY_CHARS:
            raise ModelError(f"field {name!r} is too long to compare: {len(value)} code points "
                             f"(the history reads at most {MAX_HISTORY_CHARS}, once for each "
                             "change urlcalc can undo)")
    then_as_of: AsOf | None = None
    if as_of is not None:
        try:
            later = undone_as_of(as_of)
        except ValueError as e:
            raise ModelError(str(e)) from None
        budget.at(f"the standard as of {as_of}")
        names = [c.variant.name for c in later]
        with undoing(names):
            then_as_of = {"date": as_of, "undone": names, "reading": _reading(input, base)}
    budget.at("today's standard")
    today = _reading(input, base)
    found: list[HistoryChange] = []
    quiet: list[QuietChange] = []
    for change in changes():
        budget.at(f"without {change.variant.name}")
        with undoing([change.variant.name]):
            then = _reading(input, base)
        differs = _differs(today, then)
        c = change.commit
        if not differs:
            quiet.append({"name": change.variant.name, "commit": c["commit"],
                          "date": c["committed"], "title": c["title"]})
        else:
            found.append({"name": change.variant.name, "commit": c["commit"],
                          "date": c["committed"], "title": c["title"], "without": then,
                          "differs": differs, "text": _text(change)})
    out: HistoryAnswer = {
        **header("history"), "input": input, "base": base, "today": today,
        "as_of": then_as_of, "changes": found, "unchanged": quiet,
        "proposals": _proposals(),
        "undoable": len(VARIANTS),
        "normative_since_2015": sum(1 for c in normative() if c["committed"] >= SINCE),
    }
    return out
