"""The result model's types: one ``TypedDict`` per answer and per part of an answer.

Every answer has one shape: each member is always there, and a value that does not apply is
``None`` (JSON ``null``), never a missing key. ``mypy --strict`` checks every producer against
these types; the OpenAPI schemas (urlcalc.serving.openapi) and the page's JSDoc typedefs
(web/js/result-model.js, written by urlcalc.answers.typedefs) are generated from them, and
tests fail when either drifts. The request table (urlcalc.answers.kinds) says which answer type
each kind returns; the editions' and the implementations' answers are typed in their own
packages (urlcalc.editions.view, urlcalc.implementations) from the parts here.

A member's description is the ``#:`` comment above it (read by the generators).
"""

from __future__ import annotations

from typing import Literal, TypeAlias, TypedDict

from urlcalc.model.runtime import Engine, engine_info
from urlcalc.standard.errors import ValidationErrorJSON
from urlcalc.standard.record import HostKind
from urlcalc.standard.serializer import HostJSON, OriginJSON, RecordJSON
from urlcalc.standard.steps import Citation
from urlcalc.standard.url import Getters
from urlcalc.standard.validity import VerdictJSON
from urlcalc.trace.recorder import TraceJSON

__all__ = [
    "AlgorithmText",
    "CutAnswer",
    "Engine",
    "ErrorAnswer",
    "Failure",
    "Getters",
    "Header",
    "HostAnswer",
    "HostCause",
    "HostEntry",
    "HostJSON",
    "HrefPiece",
    "JSONValue",
    "Normalisation",
    "Operation",
    "OriginJSON",
    "ParseAnswer",
    "ParseFailureJSON",
    "PercentAnswer",
    "Provenance",
    "RecordJSON",
    "SetAnswer",
    "Source",
    "Span",
    "SpecAnswer",
    "SpecSource",
    "TraceJSON",
    "UrlencodedAnswer",
    "ValidateAnswer",
    "ValidationErrorJSON",
    "ValidationErrorRaised",
    "VerdictJSON",
    "VersionAnswer",
    "WptRevision",
    "header",
]

#: Any JSON value (the older editions' components and traces, whose members differ by edition).
JSONValue: TypeAlias = str | int | float | bool | list["JSONValue"] | dict[str, "JSONValue"] | None

#: The version of the result model (the ``version`` member of every answer).
MODEL_VERSION = 1


class Header(TypedDict):
    """What every answer starts with."""

    model: Literal["urlcalc"]
    version: int
    #: the request kind that this answers
    kind: str
    engine: Engine


def header(kind: str) -> Header:
    """The start of an answer of ``kind``."""
    return {"model": "urlcalc", "version": MODEL_VERSION, "kind": kind, "engine": engine_info()}


# --- the parts of an answer ---------------------------------------------------------------------






class ValidationErrorRaised(ValidationErrorJSON):
    """A validation error as this run raised it, and whether the run failed with it."""

    #: true only for the error raised by the step that returned failure (the error table's
    #: failure column says whether the error can make a parse fail; this says it did)
    failed_with: bool


class Failure(TypedDict):
    """Where a parser returned failure: the step that did (cause), the steps that passed it on
    (via, innermost first), the validation error that step raises (often none) and the
    validation errors raised on the way (raised)."""

    error: ValidationErrorJSON | None
    reason: str
    cause: Citation | None
    index: int | None
    note: str | None
    via: list[Citation]
    raised: list[str]


ParseFailureJSON = TypedDict("ParseFailureJSON", {
    # whether the input or the base failed to parse
    "in": Literal["input", "base"],
    "error": ValidationErrorJSON | None,
    "reason": str,
    "cause": Citation | None,
    "index": int | None,
    "note": str | None,
    "via": list[Citation],
    "raised": list[str],
})
ParseFailureJSON.__doc__ = "A failure of the parse: the input's or the base's (``in``)."



class Span(TypedDict):
    """A run of the input's code points that ended up in one component."""

    start: int
    end: int
    component: str


class HrefPiece(TypedDict):
    """A piece of the href and the component it serializes."""

    text: str
    component: str


class Normalisation(TypedDict):
    """A normalisation the parser applied to a component, with the step that made it."""

    what: str
    #: "url.bs: <algorithm>, step <n>"
    step: str
    anchor: str
    algorithm: str
    step_id: str | None
    #: the spec's words for the step
    text: str


#: Where a record field came from: the input, the base, both, or neither.
Source = Literal["input", "base", "input+base", "none"]


class Provenance(TypedDict):
    """Where one record field came from and how the parser normalised it."""

    component: str
    source: Source
    normalised: list[Normalisation]
    value: str | int | list[str] | HostJSON | None


class Operation(TypedDict):
    """One setter operation: the record and getters before and after (null when summarised:
    the answer reached its budget), what changed and why, its validation errors and trace."""

    op: str
    value: str
    before: RecordJSON | None
    after: RecordJSON | None
    changed: list[str]
    getters_before: Getters | None
    getters_after: Getters | None
    changed_getters: list[str]
    #: why the setter changed less than asked, in the spec's words (null: it did what it said)
    reason: str | None
    cited: Citation | None
    #: the TypeError a throwing setter (href) threw
    threw: str | None
    validation_errors: list[ValidationErrorRaised]
    validation_errors_total: int
    trace: TraceJSON | None
    summarised: bool


class HostCause(Citation):
    """The step that returned failure, with where in the host input and urlcalc's note."""

    index: int | None
    note: str | None


class HostEntry(TypedDict):
    """The host parser's reading of the input as a domain or as an opaque host."""

    ok: bool
    kind: HostKind | None
    serialized: str | None
    #: the domain to Unicode (domains only)
    unicode: str | None
    value: int | list[int] | None
    failure: str | None
    cause: HostCause | None
    via: list[Citation]
    validation_errors: list[ValidationErrorRaised]
    trace: TraceJSON | None


class SpecSource(TypedDict):
    """Which url.bs the step data was extracted from."""

    document: str
    url: str
    sha256: str
    latest_review_draft: str
    licence: str


class WptRevision(TypedDict):
    """Which web-platform-tests URL data urlcalc is tested against."""

    what: str
    repository: str
    directory: str
    revision: str
    licence: str
    sha256: dict[str, str]


class AlgorithmText(TypedDict):
    """An algorithm urlcalc cites, in the spec's words (UTS #46: urlcalc's summaries)."""

    anchor: str
    intro: str
    steps: dict[str, str]
    document: str
    url: str


# --- the answers ----------------------------------------------------------------------------------

class ParseAnswer(Header):
    """The basic URL parser on the input (against the base)."""

    input: str
    base: str | None
    encoding: str
    ok: bool
    failure: ParseFailureJSON | None
    record: RecordJSON | None
    #: the parsed base (null without a base, or when the base failed)
    base_record: RecordJSON | None
    #: the base's own validation errors (null without a base)
    base_validation_errors: list[ValidationErrorRaised] | None
    getters: Getters | None
    hostname_unicode: str | None
    origin: OriginJSON | None
    validation_errors: list[ValidationErrorRaised]
    #: how many validation errors the input raised (validation_errors may hold fewer)
    validation_errors_total: int
    valid: VerdictJSON | None
    trace: TraceJSON | None
    spans: list[Span]
    href_spans: list[HrefPiece]
    provenance: list[Provenance] | None


class SetAnswer(Header):
    """Parse the input (against the base), then apply setter operations in order."""

    input: str
    base: str | None
    ok: bool
    failure: Failure | None
    operations: list[Operation]
    summarised_operations: int
    record: RecordJSON | None
    getters: Getters | None


class HostAnswer(Header):
    """The host parser on the input, as a special URL's host and as an opaque host."""

    input: str
    domain: HostEntry
    opaque: HostEntry


class UrlencodedAnswer(Header):
    """application/x-www-form-urlencoded: the parsed pairs and their serialization."""

    input: str
    pairs: list[list[str]]
    serialized: str


class PercentAnswer(Header):
    """Percent-encode after encoding with an encode set, and percent-decode."""

    input: str
    encode_set: str
    encoding: str
    #: the encoding that encodes (Encoding Standard: get an output encoding)
    output_encoding: str
    encoded: str
    decoded_utf8: str
    #: the decoded bytes in hexadecimal, space-separated
    decoded_bytes: str
    encode_sets: list[str]
    #: why output_encoding differs from encoding (null when they are the same)
    note: str | None


class ValidateAnswer(Header):
    """The valid-URL-string verdict beside the parser's validation errors."""

    input: str
    base: str | None
    ok: bool
    failure: ParseFailureJSON | None
    valid: VerdictJSON | None
    validation_errors: list[ValidationErrorRaised]


class VersionAnswer(Header):
    """The model version, the engine, the parser states, the operations and the getters."""

    states: list[str]
    operations: list[str]
    getters: list[str]
    spec: SpecSource
    wpt: WptRevision


class SpecAnswer(Header):
    """Every algorithm urlcalc cites, with its anchor, introduction and numbered steps."""

    source: SpecSource
    algorithms: dict[str, AlgorithmText]


class ErrorAnswer(TypedDict):
    """A refused request: a message naming the problem."""

    error: str


class CutAnswer(TypedDict):
    """A request stopped when it had spent its CPU budget (status 422, urlcalc.model.budget): the
    message, the part of the answer it was computing, and the budget."""

    error: str
    #: what was being computed ("the request", a setter operation, an implementation ...)
    cut: str
    cpu_budget_s: float
