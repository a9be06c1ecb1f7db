"""The trace recorder: the bounded observer that keeps the steps the algorithms report.

``TraceRecorder`` is the observer the result model, the CLI, the API and the page use; it is
bounded (``DEFAULT_MAX_STEPS``, ``DEFAULT_MAX_CHARS``) so that a huge input cannot make a huge
trace, and keeps the outline (urlcalc.standard.observer) of every state-machine step however
short the trace. The keys of a step are urlcalc.standard.observer's.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypedDict

from urlcalc.standard.observer import OutlineEntry, Step
from urlcalc.standard.variants import firing
from urlcalc.trace.driver import Nested, URLSteps
from urlcalc.trace.host_driver import HostSteps
from urlcalc.trace.undone import take


class TraceJSON(TypedDict):
    """Recorded steps: at most max_steps, and (max_chars) only while their strings add up to
    at most that many code points; the rest are counted in dropped."""

    steps: list[Step]
    truncated: bool
    dropped: int
    max_steps: int
    max_chars: int | None


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

    __slots__ = ("chars", "dropped", "fired", "max_chars", "max_steps", "outline", "steps")

    def __init__(self, max_steps: int = DEFAULT_MAX_STEPS,
                 max_chars: int | None = None) -> None:
        self.steps: list[Step] = []
        self.max_steps = max_steps
        self.max_chars = max_chars
        self.chars = 0
        self.dropped = 0
        self.outline: list[OutlineEntry] = []
        # while ``citing``, with changes undone: the changes whose old branch a fork took since
        # the last event (urlcalc.trace.undone)
        self.fired: list[str] | None = None

    @contextmanager
    def citing(self) -> Iterator[None]:
        """Run the algorithms in this block with their steps cited under the changes undone:
        each event kept names the changes whose old branch its step took (``variants``).
        Nothing is noted when nothing is undone or no step is kept (``max_steps`` 0)."""
        if not self.max_steps:
            yield
            return
        with firing() as fired:
            self.fired = fired
            try:
                yield
            finally:
                self.fired = None

    def __call__(self, step: Step) -> None:
        fired = self.fired
        if not self.is_full():
            if fired:
                take(fired, step, False)
            step["i"] = len(self.steps)
            self.steps.append(step)
            if self.max_chars is not None:
                self.chars += _weight(step)
        else:
            if fired:
                fired.clear()
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

    def url_steps(self) -> URLSteps:
        """The driver of one parse (urlcalc.trace.driver): the steps described here until full,
        then counted; the outline kept throughout."""
        driver = URLSteps(self, self.outline, self.is_full, self.drop)
        if self.fired is not None:
            driver.fired = driver.substeps.fired = self.fired
        return driver

    def host_steps(self) -> HostSteps:
        """The driver of one run of an algorithm of the host parser (urlcalc.trace.host_driver):
        its steps described here (counted once full)."""
        return HostSteps(self, fired=self.fired)

    def nested(self, algorithm: str, step: str | None) -> Nested:
        """The observer of the algorithm ``algorithm``'s ``step`` calls (the basic URL parser a
        setter runs): its events one deeper, naming that step."""
        return Nested(self, 1, {"algorithm": algorithm, "step": step})

    def to_json(self) -> TraceJSON:
        return {"steps": self.steps, "truncated": self.dropped > 0, "dropped": self.dropped,
                "max_steps": self.max_steps, "max_chars": self.max_chars}
