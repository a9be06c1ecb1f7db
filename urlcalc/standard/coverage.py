"""Which steps of the basic URL parser a parse took: the spec's coverage, for surveys.

``covered_parse`` parses like ``basic_url_parse`` (no observer: no trace is built) and also says
which steps applied, as "<state>, step <n>" (url.bs's own numbers, as the state functions return
them, so each resolves in the spec text like any citation), plus the preprocessing steps that
raised a validation error ("basic URL parser, step 1.2", "step 2") and, for a failure, the step
of the algorithm it began in (the host parser's, the IPv4 parser's ...).

The state machine says which steps it took; the untraced fast path (urlcalc.standard.fastpath)
cannot, and costs a third of the state machine's time. ``Coverage`` keeps the fast path: an input
the fast path takes (no validation error, no quirk) takes the same set of steps as any other
input of its *shape* (``shape``: the scheme as it is, every other ASCII letter or digit run as
one or two class characters, each non-ASCII code point as one class character, "%2e" apart from
other percent-encoded bytes, the delimiters as they are), so the steps are the state machine's
for the first input of each shape, remembered. tests/test_coverage.py checks the shortcut
against the state machine on every WPT input and the benchmark corpus.
"""

from __future__ import annotations

import re
import string

from urlcalc.standard import steps
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.fastpath import fast_parse
from urlcalc.standard.parser import STATE_NAMES, ParseFailure, State, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.variants import any_undone

BASIC_URL_PARSER = "basic URL parser"
#: Shapes remembered per ``Coverage`` (a survey's reader): past this, a new shape's steps are
#: computed by the state machine and not kept, so memory stays bounded on any corpus.
MAX_SHAPES = 20_000


#: The key of a state that ran but whose steps all had conditions that did not hold (e.g. the
#: fragment state at the end of the input).
NO_STEP = "no step applies"


def state_steps() -> list[str]:
    """The steps of the state machine a covered parse can take, as coverage keys: the
    preprocessing steps that raise a validation error, then each leaf step (one with no
    sub-steps) of each basic URL parser state in url.bs, in the spec's order; what a corpus
    never reached is this list less what it took. (A failure's cause in the host parsers is
    counted too when reached, but those algorithms are not traced by a covered parse, so they
    are not in this list.)"""
    # the preprocessing steps that raise a validation error (the basic URL parser's own steps
    # whose text says so)
    parser = steps.algorithm(BASIC_URL_PARSER)
    out = [step_name(BASIC_URL_PARSER, n) for n, text in (parser.steps.items() if parser else ())
           if "validation error" in text]
    for name in STATE_NAMES.values():
        alg = steps.algorithm(name)
        if alg is None:
            continue
        numbers = list(alg.steps)
        out.extend(step_name(name, n) for n in numbers
                   if not any(m.startswith(n + ".") for m in numbers))
    return out


def step_name(algorithm: str, step: str | None) -> str:
    """A step as a coverage key: "<algorithm>, step <n>", or "<algorithm>, no step applies"."""
    return f"{algorithm}, step {step}" if step else f"{algorithm}, {NO_STEP}"


def covered_parse(input: str, base: URLRecord | None, errors: list[ValidationError]
                  ) -> tuple[URLRecord | ParseFailure, frozenset[str]]:
    """``basic_url_parse(input, base)`` (its validation errors appended to ``errors``) and the
    steps it took, from the state machine."""
    taken: set[tuple[State, str | None]] = set()
    start = len(errors)
    result = basic_url_parse(input, base, errors=errors, taken=taken)
    steps = {step_name(STATE_NAMES.get(state, "?"), step) for state, step in taken}
    for e in errors[start:]:
        if e.algorithm == BASIC_URL_PARSER:
            steps.add(step_name(e.algorithm, e.step))
    if isinstance(result, ParseFailure) and result.cause is not None:
        steps.add(step_name(*result.cause))
    return result, frozenset(steps)


# ASCII letters and digits to class characters ("a", "0"), non-ASCII to "u"; "%2e" to "." (a
# dot), other percent-encoded bytes to "%"; everything else ASCII as it is.
_CLASSES = str.maketrans({**dict.fromkeys(string.ascii_letters, "a"),
                          **dict.fromkeys(string.digits, "0")})
_PERCENT = re.compile(r"%(?:2[eE]|[0-9A-Fa-f]{2})")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")


def _percent(m: re.Match[str]) -> str:
    return "." if m.group(0)[1:].lower() == "2e" else "%"


def _classes(text: str) -> str:
    if "%" in text:
        text = _PERCENT.sub(_percent, text)
    if not text.isascii():
        text = "".join(c if c < "\x80" else "u" for c in text)
    return text.translate(_CLASSES)


def _authority(authority: str) -> tuple[object, ...]:
    """An authority's shape: an IPv6 address or the set of the host's character classes, and
    whether a port follows, empty or not."""
    if authority.startswith("["):
        host, _, after = authority.partition("]")
        port: str | None = after[1:] if after.startswith(":") else None
        return ("[", frozenset(_classes(host[1:])), port == "", port is None)
    host, colon, port = authority.partition(":")
    return ("", frozenset(_classes(host)), colon and port == "", not colon)


def _segment(segment: str) -> str:
    """A path segment's kind: "" (empty), "." or ".." (a dot segment), or "s"."""
    return segment if segment in ("", ".", "..") else "s"


def shape(input: str) -> tuple[object, ...]:
    """The shape of an input the fast path takes (see the module's docstring): the scheme, then
    the authority's (``_authority``), then per component (path, query, fragment) the set
    of its character classes, and the
    kinds of the path's segments (with whether each is the last)."""
    m = _SCHEME.match(input)
    scheme, rest = (input[:m.end()].lower(), input[m.end():]) if m else ("", input)
    fragment: str | None = None
    query: str | None = None
    if "#" in rest:
        rest, fragment = rest.split("#", 1)
    if "?" in rest:
        rest, query = rest.split("?", 1)
    authority: str | None = None
    if rest.startswith("//"):
        authority, slash, rest = rest[2:].partition("/")
        rest = slash + rest
    path = _classes(rest)
    segments = path.split("/")
    last = len(segments) - 1
    return (scheme,
            None if authority is None else _authority(authority),
            path[:1], frozenset(path),
            frozenset((_segment(x), i == last, i == 0) for i, x in enumerate(segments)),
            None if query is None else frozenset(_classes(query)) | {"?"},
            None if fragment is None else frozenset(_classes(fragment)) | {"#"})


class Coverage:
    """Covered parses against one base, with the fast path's shapes remembered."""

    def __init__(self) -> None:
        self.shapes: dict[tuple[object, ...], frozenset[str]] = {}
        self.hits = 0

    def parse(self, input: str, base: URLRecord | None, errors: list[ValidationError]
              ) -> tuple[URLRecord | ParseFailure, frozenset[str]]:
        if any_undone():
            return covered_parse(input, base, errors)
        record = fast_parse(input, base)
        if record is None:
            return covered_parse(input, base, errors)
        key = (shape(input), id(base))
        steps = self.shapes.get(key)
        if steps is None:
            steps = covered_parse(input, base, [])[1]
            if len(self.shapes) < MAX_SHAPES:
                self.shapes[key] = steps
        else:
            self.hits += 1
        return record, steps
