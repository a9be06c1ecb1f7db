"""Surviving mutants that no test can kill, by id (tests/mutation/mutants.py: Mutant.id), with
why: the mutated program behaves as the original on every input. The score leaves them out."""

from __future__ import annotations

EQUIVALENT: dict[str, str] = {
}
