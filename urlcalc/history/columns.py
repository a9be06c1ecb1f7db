"""The Editions view's extra columns: the URL Standard on a day, or today's without one change.

The compare request (kind "compare") takes ``as_of`` (days, yyyy-mm-dd, comma-separated, at
most urlcalc.model.limits.MAX_AS_OF_COLUMNS) and ``without`` (a change: a variant's name or its
commit, 7+ hex digits). This module turns them into the changes to undo (urlcalc.history.as_of)
and hands them to the editions' compare_model, which reads the input with today's parser under
``undoing``: the editions sit below the standard's history, so days and commits are resolved
here.
"""

from __future__ import annotations

import datetime

from urlcalc.editions.view import ColumnAsked, CompareAnswer, compare_model
from urlcalc.history.as_of import change, undone_as_of
from urlcalc.model.limits import MAX_AS_OF_COLUMNS, ModelError


def days(as_of: str | None) -> list[str]:
    """The days of an ``as_of`` parameter (comma-separated; blanks and repeats dropped), in the
    order given. ModelError for more than MAX_AS_OF_COLUMNS days or one that is not a day."""
    out = list(dict.fromkeys(d.strip() for d in (as_of or "").split(",") if d.strip()))
    if len(out) > MAX_AS_OF_COLUMNS:
        raise ModelError(f"field 'as_of' names {len(out)} days: at most {MAX_AS_OF_COLUMNS} "
                         "columns of the URL Standard on a day")
    for day in out:
        try:
            real = datetime.date.fromisoformat(day).isoformat() == day
        except ValueError:
            real = False
        if not real:
            raise ModelError(f"field 'as_of': {day!r} is not a day (yyyy-mm-dd)")
    return out


def columns_asked(as_of: str | None = None, without: str | None = None) -> list[ColumnAsked]:
    """The extra columns asked for: a column per day of ``as_of``, then one for ``without``."""
    out: list[ColumnAsked] = []
    for day in days(as_of):
        try:
            later = undone_as_of(day)
        except ValueError as e:
            raise ModelError(f"field 'as_of': {e}") from None
        out.append(ColumnAsked("as_of", day, f"URL Standard on {day}", None, None,
                               [c.variant.name for c in later]))
    if without is not None and without.strip():
        try:
            c = change(without.strip())
        except ValueError as e:
            raise ModelError(f"field 'without': {e}") from None
        name = c.variant.name
        out.append(ColumnAsked("without", name, f"today without {name}", c.commit["commit"],
                               c.commit["title"], [name]))
    return out


def compare_with_columns(input: str, base: str | None = None, errata: bool = False,
                         traces: bool = True, as_of: str | None = None,
                         without: str | None = None) -> CompareAnswer:
    """compare_model, with a column of the URL Standard per day of ``as_of`` and one without
    the change ``without`` (the compare request's function: urlcalc.answers.kinds)."""
    return compare_model(input, base, errata=errata, traces=traces,
                         columns=columns_asked(as_of, without))
