"""The trace: the parsers report each step to an optional observer.

An observer is any callable taking one step (a JSON-ready dict). With no observer the parsers
take their untraced path and build nothing. ``TraceRecorder`` is the observer the result model,
the CLI, the API and the page use; it is bounded so a huge input cannot make a huge trace.

Keys of a step (present when they apply):

``parser``  which algorithm: "url", "host", "ipv4", "ipv6", "opaque-host", "domain", "uts46",
            "shorten", "setter"
``state``   the basic URL parser state (spec name), or the algorithm's name
``step``    the spec step that applied (e.g. "2.1"), ``anchor`` the spec's fragment id
``pointer`` pointer into the processed input; ``index`` the code-point index in the original
            input; ``c`` the code point (None for EOF); ``buffer``; ``flags``
``errors``  validation errors raised during the step (names)
``changes`` URL record fields changed by the step, with their new values (JSON form)
``note``    a short human explanation; ``depth`` nesting (host steps sit under the URL step)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from urlcalc.outline import OutlineEntry


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


#: What the parsers report their steps to (urlcalc.uts46 reports its stages to a
#: ``uts46.StageObserver`` instead, which urlcalc.host turns into steps).
Observer = Callable[[Step], None]
DEFAULT_MAX_STEPS = 5000
#: A step repeats the buffer and the changed fields' values, so on a long input the kept steps
#: can weigh far more than their number says (5000 steps over a 60 KB path: 100 MB of JSON).
#: The result model's recorders (``max_chars``) also stop keeping steps once their strings add
#: up to this many code points.
DEFAULT_MAX_CHARS = 250_000


def json_chars(value: object) -> int:
    """About how many characters ``value`` takes as JSON (each string by its length: escapes
    are not counted). Linear in the number of values, not in the length of the strings."""
    if isinstance(value, str):
        return len(value) + 2
    if isinstance(value, dict):
        return 2 + sum(len(k) + 4 + json_chars(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return 2 + sum(json_chars(v) + 1 for v in value)
    return 6  # a number, a boolean, null


def _weight(step: Step) -> int:
    """About how many code points ``step`` holds in its strings (its JSON is a bit longer)."""
    weight = 64
    details = step.get("details")
    if details:  # the UTS #46 stages: the labels, the mapped code points
        weight += json_chars(details)
    buffer = step.get("buffer")
    if isinstance(buffer, str):
        weight += len(buffer)
    changes = step.get("changes")
    if changes:
        for value in changes.values():
            if isinstance(value, str):
                weight += len(value)
            elif isinstance(value, list):
                weight += sum(len(v) + 4 for v in value if isinstance(v, str))
    return weight


class TraceRecorder:
    """Collects steps, keeping the first ``max_steps`` (with ``max_chars``, only as many as hold
    that many code points in their strings: see DEFAULT_MAX_CHARS) and counting the rest.

    ``outline`` gets one ``OutlineEntry`` for every step of the basic URL parser, kept or
    dropped: enough for the result model's per-code-point spans and provenance on an input of
    any length (``max_steps=0`` keeps no step at all, only the outline, which costs constant
    time per step)."""

    __slots__ = ("chars", "dropped", "max_chars", "max_steps", "outline", "steps")

    def __init__(self, max_steps: int = DEFAULT_MAX_STEPS,
                 max_chars: int | None = None) -> None:
        self.steps: list[Step] = []
        self.max_steps = max_steps
        self.max_chars = max_chars
        self.chars = 0
        self.dropped = 0
        self.outline: list[OutlineEntry] = []

    def __call__(self, step: Step) -> None:
        if not self.is_full():
            step["i"] = len(self.steps)
            self.steps.append(step)
            if self.max_chars is not None:
                self.chars += _weight(step)
        else:
            self.dropped += 1

    def is_full(self) -> bool:
        """True once no further step is kept (``max_steps`` kept, or ``max_chars`` code points in
        their strings): the parser then stops describing its steps and only counts them
        (``drop``), so a long input costs linear time with a trace too."""
        return len(self.steps) >= self.max_steps or (
            self.max_chars is not None and self.chars >= self.max_chars)

    @property
    def counts_only(self) -> bool:
        """True once full: steps given now are only counted, so an algorithm may give them
        without their details (see ``counts_only`` below)."""
        return self.is_full()

    def drop(self) -> None:
        """Count one step that was not kept (and not built)."""
        self.dropped += 1

    def to_json(self) -> dict[str, object]:
        return {"steps": self.steps, "truncated": self.dropped > 0, "dropped": self.dropped,
                "max_steps": self.max_steps, "max_chars": self.max_chars}


def counts_only(observer: object) -> bool:
    """True when ``observer`` keeps none of the steps it is given, only counts them (a full
    TraceRecorder; the parser's counter of dropped substeps): an algorithm then reports its steps
    without the details that would cost time and memory to build (per-label lists on a domain of
    200,000 labels)."""
    return bool(getattr(observer, "counts_only", False))
