"""What the standard's algorithms tell an optional observer: the vocabulary of the trace.

An observer takes steps (JSON-ready dicts, ``Step``). With no observer the algorithms take their
untraced path and build nothing. The algorithms build no step either: the basic URL parser's
states and the host parser's return (or raise with) the number of the step that applied, and
their observed loops tell the observer's driver (``Driven``: ``url_steps``, ``host_steps``;
``StepDriver``), which describes, cites and bounds the steps: urlcalc.trace's, above this layer.
urlcalc.trace.recorder's ``TraceRecorder`` is the observer the result model, the CLI, the API
and the page use; a plain callable is refused by the parsers (the URL setters' own steps,
urlcalc.standard.url's, still go to it).

Keys of a step (present when they apply):

``parser``  which algorithm: "url", "host", "ipv4", "ipv6", "opaque-host", "domain", "uts46",
            "shorten", "setter"
``state``   the basic URL parser state (spec name), or the algorithm's name
``step``    the spec step that applied (e.g. "2.1"), ``anchor`` the spec's fragment id
``pointer`` pointer into the processed input; ``index`` the code-point index in the original
            input; ``c`` the code point (None for EOF); ``buffer``; ``flags``
``errors``  validation errors raised during the step (names)
``changes`` URL record fields changed by the step, with their new values (JSON form)
``note``    a short human explanation
``ran``     every step of the algorithm that ran in this run, in order (``RanStep``): each step
            that wrote a URL record field, raised a validation error, called a traced algorithm,
            returned or returned failure, and the step that applied last (``step`` is that one);
            each change, error and outcome sits on the step that made it
``depth``   the real nesting: an algorithm's events sit one deeper than the step that called it
            (the basic URL parser under a setter, shorten a url's path and the host parser under
            the URL state's step, the IPv4 ... parsers under the host parser ...), and come right
            after that step's event; ``called_by`` names that step (algorithm and step)

The parser's state functions also record *facts* (``Fact``: what a step did to the URL record
beyond appending the input's own code points, with the spec step that did it), kept in the
outline (``OutlineEntry``: every state-machine step in brief, however short the trace), so that
the result model can colour every code point of the input and say where each record field came
from (urlcalc.model.provenance): nothing downstream re-derives which step copies from the base
or normalises a component.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any, NamedTuple, Protocol, TypedDict, TypeVar

from urlcalc.standard.errors import ValidationError


class RanStep(TypedDict, total=False):
    """One step that ran within an event (``Step.ran``): its url.bs number (a leaf: "2.1.3",
    never a container whose own text is only a condition), the record fields whose value it
    changed (their JSON values after it), the validation errors it raised, whether it returned
    or returned failure, and the traced algorithm it called (whose events follow, nested)."""

    step: str
    changes: dict[str, object]
    errors: list[str]
    outcome: str
    calls: str


class CalledBy(TypedDict):
    """The step whose call a nested event's algorithm is running."""

    algorithm: str
    step: str | None


class OldText(TypedDict):
    """A step or definition of url.bs as it was before a change (``VariantCited.before``):
    ``where`` today's step (or definition) it stands for, ``text`` its words before the change
    (None: the step was added by the change), and ``source``: "url.bs" (the words of url.bs at
    the commit's parent, urlcalc/history/data/step_changes.json) or "variant" (urlcalc's
    one-line summary, ``Variant.before``, where no words of url.bs were extracted)."""

    where: str
    text: str | None
    source: str


class VariantCited(TypedDict, total=False):
    """A change of the URL Standard that was undone when the step ran, and whose old branch a
    fork took there (urlcalc.standard.variants): ``variant`` its name, ``commit`` its sha
    (7 hex digits), ``where`` today's steps or definitions of this event's algorithm it touched;
    with urlcalc.history.cite, ``date`` (committed) and ``title``, ``summary`` (urlcalc's
    one line on what the standard said before it, ``Variant.before``) and ``before``: the text
    each step in ``where`` had before the change (what the step read, instead of today's
    words)."""

    variant: str
    commit: str
    where: list[str]
    date: str
    title: str
    summary: str
    before: list[OldText]


class StepDetails(TypedDict, total=False):
    """What a step says beyond which step it is (``Step``): the keys above, and each
    algorithm's own (below)."""

    anchor: str
    pointer: int
    index: int
    c: str | None
    buffer: str
    flags: dict[str, bool]
    errors: list[str]
    changes: dict[str, object]
    next_state: str
    outcome: str
    cause: dict[str, str | None]
    #: the step's number in its trace (TraceRecorder)
    i: int
    #: every step that ran, in order (see RanStep)
    ran: list[RanStep]
    #: on a nested event: the step that called its algorithm
    called_by: CalledBy
    #: the changes undone whose old branch this step took (see VariantCited)
    variants: list[VariantCited]
    #: the host parser and the algorithms it calls: their input, result and workings
    input: str
    result: str
    domain: str
    offset: int
    uts46_errors: list[str]
    #: the UTS #46 stages' workings (labels, mapped code points ...)
    details: dict[str, object]
    #: the IPv4 parser and IPv4 number parser
    parts: list[str]
    part: str
    numbers: list[str]
    R: int
    validationError: bool
    #: the IPv6 parser
    pieces: list[int]
    piece_index: int
    #: shorten a URL's path: the segment removed (None: the path was empty)
    removed: str | None


class Step(StepDetails, total=False):
    """One step of an algorithm, as JSON."""

    parser: str
    algorithm: str
    state: str
    step: str | None
    note: str
    depth: int


#: What the parsers report their steps to (urlcalc.standard.uts46 reports its stages to a
#: ``uts46.StageObserver`` instead, which urlcalc.standard.host turns into steps).
Observer = Callable[[Step], None]

#: The variables of one run of an algorithm, as a driver sees them (the basic URL parser's
#: ``Parser``).
Run = TypeVar("Run", contravariant=True)


class StepDriver(Protocol[Run]):
    """How an algorithm's observed run has its steps recorded: the algorithms only return (or
    raise with) the step that applied; the driver (urlcalc.trace's) describes, cites and bounds
    them. ``start`` before a state runs; ``finish`` after it, however it ended (``stop``: the
    failure or early return it raised)."""

    def start(self, run: Run) -> None: ...

    def finish(self, run: Run, state: Callable[..., object], step: str | None,
               stop: Exception | None) -> None: ...


class URLStepDriver(StepDriver[Run], Protocol[Run]):
    """The basic URL parser's driver (urlcalc.trace.driver's ``URLSteps``): a ``StepDriver``
    that is also told of the steps before the state machine (``preprocessing``: its ``note``,
    the ``input`` it produced or the ``error`` it raised)."""

    def preprocessing(self, run: Run, step: str, note: str, input: str | None,
                      error: ValidationError | None) -> None: ...

    def ran(self, run: Run, step: str, calls: str | None) -> None:
        """A step of the running state ran that wrote a URL record field or called an
        algorithm (``calls``), before the step the state will return: what changed since the
        last step told is this step's doing."""
        ...


class Driven(Protocol):
    """An observer the parsers can trace with: besides taking steps, it gives the driver of a
    parse (``url_steps``, asked once per basic URL parse; ``host_steps``, once per run of an
    algorithm of the host parser). urlcalc.trace.recorder's TraceRecorder is one;
    urlcalc.trace.driver's ``Described`` makes one of any callable. A plain callable given to
    the parsers is refused (TypeError): the standard layer does not describe steps."""

    def __call__(self, step: Step) -> None: ...

    def url_steps(self) -> URLStepDriver[Any]: ...

    def host_steps(self) -> StepDriver[Any]: ...

    def nested(self, algorithm: str, step: str | None) -> Driven:
        """An observer for the algorithm that ``algorithm``'s ``step`` calls (the basic URL
        parser a setter runs): its events one deeper, each naming that step (``called_by``)."""
        ...


def driver_of(observer: Observer, method: str, algorithm: str) -> object:
    """The driver ``observer``'s ``method`` (``url_steps`` or ``host_steps``: ``Driven``) gives
    for a run of ``algorithm``; a plain callable has none, and is refused."""
    make: Callable[[], object] | None = getattr(observer, method, None)
    if make is None:
        raise TypeError(f"the observer does not say how the {algorithm}'s steps are described "
                        f"(no {method}): give a urlcalc.trace.recorder.TraceRecorder, or wrap the "
                        "callable in urlcalc.trace.driver.Described")
    return make()


def nested(observer: Observer, algorithm: str, step: str | None) -> Observer:
    """``observer`` for the algorithm ``algorithm``'s ``step`` calls (``Driven.nested``); an
    observer that cannot nest is given as it is."""
    make: Callable[[str, str | None], Observer] | None = getattr(observer, "nested", None)
    return make(algorithm, step) if make is not None else observer


def counts_only(observer: object) -> bool:
    """True when ``observer`` keeps none of the steps it is given, only counts them (a full
    TraceRecorder; the URL driver's counter of dropped substeps): an algorithm then reports its
    steps without the details that would cost time and memory to build (per-label lists on a
    domain of 200,000 labels)."""
    return bool(getattr(observer, "counts_only", False))


class FactKind(Enum):
    """What a step did to the URL record beyond appending the input's own code points.

    The value is what the result model says about it (a normalisation), or, for the two source
    facts, what it records."""

    # Sources: which record fields a step set from the base URL (or, after such a copy in the
    # same step, from the input again).
    FROM_BASE = "copied from the base URL"
    FROM_INPUT = "set from the input"
    # Normalisations.
    SCHEME_LOWERCASED = "ASCII lowercased"
    USERINFO_AT_ENCODED = "an earlier @ kept as %40"
    USERINFO_ENCODED = "percent-encoded (userinfo percent-encode set)"
    HOST_PARSED = "the host parser's result"
    LOCALHOST_EMPTY = "\"localhost\" becomes the empty host"
    PORT_LEADING_ZEROS = "leading zeros dropped"
    PORT_DEFAULT_NULL = "the scheme's default port becomes null"
    SPECIAL_EMPTY_PATH = "a special URL's empty path becomes /"
    SINGLE_DOT_DROPPED = "a single-dot segment dropped"
    SINGLE_DOT_EMPTY_SEGMENT = "a final single-dot segment becomes an empty segment"
    DRIVE_LETTER_NORMALIZED = "Windows drive letter normalized (| becomes :)"
    PATH_ENCODED = "percent-encoded (path percent-encode set)"
    OPAQUE_PATH_SPACE_ENCODED = "a space before ? or # becomes %20"
    OPAQUE_PATH_ENCODED = "percent-encoded (C0 control percent-encode set)"
    QUERY_ENCODED = "percent-encoded ((special-)query percent-encode set)"
    FRAGMENT_ENCODED = "percent-encoded (fragment percent-encode set)"


class Fact(NamedTuple):
    """A fact established by the step of the state that recorded it: ``step`` is that state's
    step (url.bs numbering) that did it, ``fields`` the record fields it concerns."""

    kind: FactKind
    step: str
    fields: tuple[str, ...] = ()


class OutlineEntry(NamedTuple):
    """One basic-URL-parser step in brief."""

    #: the code-point index in the original input of the code point the step read
    input_index: int
    #: the state's spec name ("path state")
    state: str
    #: the code point, None for EOF
    c: str | None
    #: the state's step that applied (None when no step applies)
    step: str | None
    #: the names of the record fields the step changed
    changed: tuple[str, ...]
    #: the validation errors the step raised
    errors: tuple[ValidationError, ...]
    #: how many path segments "shorten a URL's path" removed during the step
    shortened: int
    #: what the step did beyond appending code points (see FactKind)
    facts: tuple[Fact, ...]
