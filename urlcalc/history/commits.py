"""The commits of url.bs, classified (``urlcalc/history/data/commits.json``).

``commits()`` lists every commit on the URL Standard's main branch that touched url.bs since the
rename of 2014-10-22, oldest first; ``normative()`` the ones that change what the calculator
computes; ``by_sha(prefix)`` finds one by an abbreviated sha; ``proposals()`` the commits of the
unmerged branches. The data is urlcalc's reading of each diff; its titles and dates come from the
standard's repository (url.bs is CC BY 4.0: ``licence()``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Literal, TypedDict, cast

Class = Literal["normative", "api", "editorial"]
CLASSES: tuple[Class, ...] = ("normative", "api", "editorial")

#: One commit of url.bs: sha, author date (yyyy-mm-dd), commit date (when it landed on main:
#: ascending in the list, while 17 author dates are earlier than the commit before them), first
#: line of its message, and the judgement: class, a one-line reason, and (normative only) the
#: url.bs algorithms it touched.
Commit = TypedDict("Commit", {
    "commit": str,
    "date": str,
    "committed": str,
    "title": str,
    "class": Class,
    "reason": str,
    "algorithms": list[str],
})


#: A commit on an unmerged branch of the standard's repository: a Commit's fields, the branch,
#: where it left main (base), and proposal (always true).
Proposal = TypedDict("Proposal", {
    "commit": str,
    "date": str,
    "committed": str,
    "title": str,
    "class": Class,
    "reason": str,
    "algorithms": list[str],
    "branch": str,
    "base": str,
    "proposal": bool,
})


@cache
def _data() -> dict[str, Any]:
    text = resources.files("urlcalc.history").joinpath("data/commits.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@cache
def commits() -> tuple[Commit, ...]:
    """Every url.bs commit on main since the rename, oldest first."""
    return tuple(cast(Commit, c) for c in _data()["commits"])


def normative() -> list[Commit]:
    """The commits that change what the calculator computes, oldest first."""
    return [c for c in commits() if c["class"] == "normative"]


def of_class(name: Class) -> list[Commit]:
    """The commits of one class, oldest first."""
    return [c for c in commits() if c["class"] == name]


def by_sha(prefix: str) -> Commit:
    """The commit whose sha starts with ``prefix`` (at least 4 hex digits, any case).

    Raises KeyError when none does and ValueError when the prefix is too short or ambiguous.
    """
    key = prefix.strip().lower()
    if len(key) < 4 or any(ch not in "0123456789abcdef" for ch in key):
        raise ValueError(f"not a commit prefix: {prefix!r} (4 or more hex digits)")
    found = [c for c in commits() if c["commit"].startswith(key)]
    if not found:
        raise KeyError(prefix)
    if len(found) > 1:
        raise ValueError(f"ambiguous commit prefix {prefix!r}: "
                         + ", ".join(c["commit"][:10] for c in found))
    return found[0]


def proposals() -> tuple[Proposal, ...]:
    """The commits of the repository's unmerged branches (proposals, after today)."""
    return tuple(cast(Proposal, p) for p in _data()["proposals"])


def main_head() -> str:
    """The sha of the standard's main branch the list was made from."""
    head: str = _data()["source"]["main"]
    return head


def counts() -> dict[str, int]:
    """How many commits per class (and in all, and proposals)."""
    return dict(_data()["counts"])


def other_algorithms() -> dict[str, str]:
    """Names used in ``algorithms`` that are not keys of url_steps.json, each with why."""
    return dict(_data()["other_algorithms"])


def licence() -> str:
    """The licence note for the data (url.bs is CC BY 4.0)."""
    note: str = _data()["licence"]
    return note
