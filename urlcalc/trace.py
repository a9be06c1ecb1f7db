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
from typing import Any

Step = dict[str, Any]
Observer = Callable[[Step], None]

DEFAULT_MAX_STEPS = 5000


class TraceRecorder:
    """Collects steps, keeping the first ``max_steps`` and counting the rest."""

    __slots__ = ("dropped", "max_steps", "steps")

    def __init__(self, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        self.steps: list[Step] = []
        self.max_steps = max_steps
        self.dropped = 0

    def __call__(self, step: Step) -> None:
        if len(self.steps) < self.max_steps:
            step["i"] = len(self.steps)
            self.steps.append(step)
        else:
            self.dropped += 1

    def is_full(self) -> bool:
        """True once no further step is kept: the parser then stops describing its steps and
        only counts them (``drop``), so a long input costs linear time with a trace too."""
        return len(self.steps) >= self.max_steps

    def drop(self) -> None:
        """Count one step that was not kept (and not built)."""
        self.dropped += 1

    def to_json(self) -> dict[str, Any]:
        return {"steps": self.steps, "truncated": self.dropped > 0, "dropped": self.dropped,
                "max_steps": self.max_steps}
