"""Which steps of the basic URL parser a parse took: the spec's coverage, for surveys.

``covered_parse`` parses like ``basic_url_parse`` (no observer: no trace is built) and also says
which steps applied, as "<state>, step <n>" (each url.bs's own number, as the state function
returns it, so each resolves in the spec text like any citation), plus the preprocessing steps
that raised a validation error ("basic URL parser, step 1.2", "step 2") and, for a failure, the
step of the algorithm it began in (the host parser's, the IPv4 parser's ...). The untraced fast
path cannot say which states it stood for, so it is off here: a covered parse costs the state
machine's time (about 2.5 times the fast path's on the bench corpus).
"""

from __future__ import annotations

from urlcalc.standard.errors import ValidationError
from urlcalc.standard.parser import STATE_NAMES, ParseFailure, State, basic_url_parse
from urlcalc.standard.record import URLRecord


def step_name(algorithm: str, step: str | None) -> str:
    """A step as a coverage key: "<algorithm>, step <n>" (the algorithm alone when the step has
    no number)."""
    return f"{algorithm}, step {step}" if step else algorithm


def covered_parse(input: str, base: URLRecord | None, errors: list[ValidationError]
                  ) -> tuple[URLRecord | ParseFailure, frozenset[str]]:
    """``basic_url_parse(input, base)`` (its validation errors appended to ``errors``) and the
    steps it took."""
    taken: set[tuple[State, str | None]] = set()
    start = len(errors)
    result = basic_url_parse(input, base, errors=errors, taken=taken)
    steps = {step_name(STATE_NAMES.get(state, "?"), step) for state, step in taken}
    for e in errors[start:]:
        if e.algorithm == "basic URL parser":
            steps.add(step_name(e.algorithm, e.step))
    if isinstance(result, ParseFailure) and result.cause is not None:
        steps.add(step_name(*result.cause))
    return result, frozenset(steps)
