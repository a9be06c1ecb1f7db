"""Surviving mutants that no test can kill, by id (tests/mutation/mutants.py: Mutant.id), with
why: the mutated program behaves as the original on every input. The score leaves them out.
An id stops matching when its line or function is edited, renamed or moved:
tests/test_mutation_ids.py then fails, and the claim must be looked at again."""

from __future__ import annotations

EQUIVALENT: dict[str, str] = {
    # kinds.py: ParamType = Literal["text", "flag", "count", "seed", "ops", "choice"]
    "kinds:<module>:string:18597273":
        "'\"flag\"' -> '\"\"' in the ParamType Literal alias: read only by annotations "
        "(Param.type, _JSON_TYPES' key type), which Python never checks values against at run "
        "time (nothing calls get_args on it); mypy --strict catches it, no run can",
}
