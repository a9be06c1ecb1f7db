"""The standard as of a date, or without one change: which variants to undo.

urlcalc.standard.variants lists the normative changes the parser can undo (each by its url.bs
commit); ``urlcalc/history/data/commits.json`` dates and titles them. A change counts from the
day it landed on main (``committed``): "the URL Standard on 2019-06-01" is today's standard
with every undoable change that landed after that day undone.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from urlcalc.history.commits import Commit, by_sha
from urlcalc.standard.variants import BY_NAME, VARIANTS, Variant


class Change(NamedTuple):
    """An undoable change with its commit's date and title."""

    variant: Variant
    commit: Commit

    @property
    def label(self) -> str:
        """``<name> (<sha7> <yyyy-mm-dd> "<title>")``."""
        c = self.commit
        return f'{self.variant.name} ({c["commit"][:7]} {c["committed"]} "{c["title"]}")'


@cache
def _changes() -> tuple[Change, ...]:
    # (by_sha scans the 411 commits: once per variant, once per process)
    out = [Change(v, by_sha(v.commit)) for v in VARIANTS]
    return tuple(sorted(out, key=lambda c: (c.commit["committed"], c.variant.name)))


def changes() -> list[Change]:
    """Every undoable change, oldest first."""
    return list(_changes())


def change(name_or_sha: str) -> Change:
    """The undoable change named ``name_or_sha`` (a variant's name, or a prefix of at least 7
    hex digits of its commit); ValueError when there is none."""
    if name_or_sha in BY_NAME:
        v = BY_NAME[name_or_sha]
        return Change(v, by_sha(v.commit))
    key = name_or_sha.lower()
    if len(key) >= 7:
        found = [c for c in changes() if c.variant.commit.startswith(key)]
        if found:
            return found[0]
    known = ", ".join(f"{c.variant.name} ({c.variant.commit[:7]})" for c in changes())
    raise ValueError(f"{name_or_sha!r} is no change urlcalc can undo; it can undo: {known}")


def undone_as_of(date: str) -> list[Change]:
    """The undoable changes that landed after ``date`` (yyyy-mm-dd): undone, they give the
    standard as it was on that day (as far as urlcalc can undo it)."""
    if len(date) != 10 or date[4] != "-" or date[7] != "-" or not \
            (date[:4] + date[5:7] + date[8:]).isdigit():
        raise ValueError(f"{date!r} is not a date (yyyy-mm-dd)")
    return [c for c in changes() if c.commit["committed"] > date]
