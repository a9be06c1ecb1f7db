"""What each normative commit of url.bs since 2015 changed, step by step
(``urlcalc/history/data/step_changes.json``, made by ``spec/history/step_changes.py``).

``step_changes(sha)`` gives one commit's changes (any unambiguous prefix of 4 or more hex digits):
per algorithm, the steps added, removed and changed with their text before and after (from url.bs
at the commit and at its first parent); the algorithms renamed; the definitions that are not
numbered steps (percent-encode sets, forbidden host/domain code points, the special scheme table,
path segments, Windows drive letters, the origin getter, and the changed paragraphs of the URL
writing and host writing sections), each as [before, after] with None where one side has none;
and the names commits.json lists for the commit that neither version has (``unextractable``).

Step numbers are url.bs's (``"2.3"``); two pseudo-steps: ``"intro"``, the sentence that
introduces an algorithm, and ``"¶"``, the whole text of an algorithm or state written as prose
(no numbered steps). ``added`` and ``changed`` are keyed by the number after the commit,
``removed`` by the number before; ``was`` maps a changed step's number after to its number
before when it moved. The texts are excerpts of url.bs (CC BY 4.0, WHATWG): ``licence()``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

PROSE = "¶"
INTRO = "intro"


@dataclass(frozen=True)
class AlgorithmChange:
    """One algorithm's steps that a commit changed."""

    name: str
    added: dict[str, str]
    removed: dict[str, str]
    changed: dict[str, tuple[str, str]]
    was: dict[str, str]
    new: bool = False     # the algorithm appeared with this commit
    gone: bool = False    # the algorithm disappeared with this commit

    def steps(self) -> list[str]:
        """Every step number named (after the commit, then removed ones before it)."""
        return [*self.changed, *self.added,
                *(s for s in self.removed if s not in self.changed and s not in self.added)]


@dataclass(frozen=True)
class Rename:
    """An algorithm (a state) that took a new name: its steps' text similarity old vs new."""

    old: str
    new: str
    similarity: float
    same_steps: bool


@dataclass(frozen=True)
class Unextractable:
    """A name commits.json gives for the commit that neither url.bs version has, with why."""

    name: str
    why: str


@dataclass(frozen=True)
class StepChanges:
    """What one commit changed in url.bs's algorithms and definitions."""

    commit: str
    date: str
    title: str
    parent: str
    algorithms: dict[str, AlgorithmChange]
    renamed: tuple[Rename, ...]
    definitions: dict[str, tuple[str | None, str | None]]
    unextractable: tuple[Unextractable, ...]

    @property
    def empty(self) -> bool:
        """Neither steps nor definitions recorded (a human has to read the diff)."""
        return not self.algorithms and not self.definitions

    def step(self, algorithm: str, number: str) -> tuple[str | None, str | None]:
        """One step's text before and after the commit (None where it did not exist/changed).

        For a changed step ``number`` is the one after the commit; an added step has no text
        before, a removed one (numbered as before the commit) none after."""
        change = self.algorithms.get(algorithm)
        if change is None:
            return (None, None)
        if number in change.changed:
            return change.changed[number]
        return (change.removed.get(number), change.added.get(number))


@cache
def _data() -> dict[str, Any]:
    text = (resources.files("urlcalc.history").joinpath("data/step_changes.json")
            .read_text("utf-8"))
    data: dict[str, Any] = json.loads(text)
    return data


def _pair(value: list[str | None]) -> tuple[str | None, str | None]:
    return (value[0], value[1])


def _algorithm(name: str, raw: dict[str, Any]) -> AlgorithmChange:
    return AlgorithmChange(
        name=name,
        added=dict(raw["added"]),
        removed=dict(raw["removed"]),
        changed={k: (v[0], v[1]) for k, v in raw["changed"].items()},
        was=dict(raw.get("was", {})),
        new=bool(raw.get("new", False)),
        gone=bool(raw.get("gone", False)),
    )


@cache
def _entry(sha: str) -> StepChanges:
    raw = _data()["commits"][sha]
    return StepChanges(
        commit=sha,
        date=raw["date"],
        title=raw["title"],
        parent=raw["parent"],
        algorithms={n: _algorithm(n, a) for n, a in raw["algorithms"].items()},
        renamed=tuple(Rename(r["from"], r["to"], float(r["similarity"]), bool(r["same_steps"]))
                      for r in raw["renamed"]),
        definitions={n: _pair(v) for n, v in raw["definitions"].items()},
        unextractable=tuple(Unextractable(u["name"], u["why"]) for u in raw["unextractable"]),
    )


def shas() -> list[str]:
    """The commits covered (normative, dated 2015-01-01 or later), oldest first."""
    return list(_data()["commits"])


def step_changes(sha: str) -> StepChanges:
    """One commit's changes, by its sha or an unambiguous prefix of 4 or more hex digits.

    Raises KeyError when no covered commit matches and ValueError for a bad or ambiguous
    prefix."""
    key = sha.strip().lower()
    if len(key) < 4 or any(ch not in "0123456789abcdef" for ch in key):
        raise ValueError(f"not a commit prefix: {sha!r} (4 or more hex digits)")
    found = [s for s in _data()["commits"] if s.startswith(key)]
    if not found:
        raise KeyError(sha)
    if len(found) > 1:
        raise ValueError(f"ambiguous commit prefix {sha!r}: "
                         + ", ".join(s[:10] for s in found))
    return _entry(found[0])


def counts() -> dict[str, int]:
    """Commits covered, with steps, with definitions only, with neither."""
    return {k: int(v) for k, v in _data()["counts"].items()}


def licence() -> str:
    """The licence note for the texts (url.bs is CC BY 4.0)."""
    note: str = _data()["licence"]
    return note


def method() -> str:
    """How the data was made."""
    how: str = _data()["method"]
    return how
