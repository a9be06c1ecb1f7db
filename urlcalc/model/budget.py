"""CPU time per request: the budget a request may spend, the part of its answer being computed,
and how a part that would spend more is cut.

A server request runs inside ``running(Budget(kind, seconds))``; the page's own answers (Pyodide)
and the CLI run with no budget, and then every call here costs a context-variable read and
nothing else. The budget is counted in CPU time of the thread that computes the request
(``time.thread_time``: a request waiting for the processor spends none of it), including what it
spends in third-party code (the other implementations, the codecs of the older editions).

Two ways a request is stopped:

* **between parts** (everywhere): code that computes an answer in parts (each edition, each
  implementation, each setter operation, every ``CHECK_EVERY`` traced steps) asks
  ``spent()`` before a part and leaves the rest out, saying so in the answer ("not run: the
  request's CPU budget was spent"), or calls ``check(part)`` or ``at(part)``, which raise
  ``BudgetSpent``;
* **inside a part** (``hard=True``, in the server's worker processes only): a CPU-time timer
  (``setitimer(ITIMER_PROF)``) interrupts whatever code is running, third-party code included,
  with ``BudgetSpent`` naming the part it was in.

``urlcalc.answers.answer`` turns ``BudgetSpent`` into status 422 and ``{"error": ..., "cut":
PART}``. The budgets themselves are urlcalc.model.limits' (``CPU_BUDGET_S``, by kind)."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType

__all__ = ["CHECK_EVERY", "Budget", "BudgetSpent", "at", "check", "current", "doing", "running",
           "spent"]

#: Loops that make many small steps (a trace's) look at the clock once in this many.
CHECK_EVERY = 1024


class BudgetSpent(Exception):
    """A request spent its CPU budget: stopped in ``part``."""

    def __init__(self, kind: str, seconds: float, part: str) -> None:
        super().__init__(f"stopped after {seconds:g} s of CPU time, the budget of a {kind!r} "
                         f"request, while computing: {part}")
        self.kind = kind
        self.seconds = seconds
        self.part = part


class Budget:
    """``seconds`` of CPU time for one ``kind`` request, counted from its creation in the thread
    that creates it."""

    def __init__(self, kind: str, seconds: float) -> None:
        self.kind = kind
        self.seconds = seconds
        self.part = "the request"
        self._start = time.thread_time()

    def used(self) -> float:
        """CPU seconds spent so far."""
        return time.thread_time() - self._start

    def left(self) -> float:
        return self.seconds - self.used()

    def spent(self) -> bool:
        return self.used() >= self.seconds

    def error(self, part: str | None = None) -> BudgetSpent:
        return BudgetSpent(self.kind, self.seconds, part or self.part)


_current: ContextVar[Budget | None] = ContextVar("urlcalc_budget", default=None)


def current() -> Budget | None:
    """The budget of the request being computed, if any."""
    return _current.get()


def spent() -> bool:
    """Whether the request being computed has spent its budget (False with no budget)."""
    budget = _current.get()
    return budget is not None and budget.spent()


def check(part: str | None = None) -> None:
    """Raise ``BudgetSpent`` (naming ``part``, or the part being computed) when the request
    being computed has spent its budget."""
    budget = _current.get()
    if budget is not None and budget.spent():
        raise budget.error(part)


def at(part: str) -> None:
    """Begin ``part`` of the answer, the previous one done: raise ``BudgetSpent`` (naming
    ``part``, the one cut) when the budget is spent, else name ``part`` as the one being
    computed."""
    budget = _current.get()
    if budget is not None:
        if budget.spent():
            raise budget.error(part)
        budget.part = part


@contextmanager
def doing(part: str) -> Iterator[None]:
    """Compute ``part`` of the answer (named in a ``BudgetSpent`` raised meanwhile)."""
    budget = _current.get()
    if budget is None:
        yield
        return
    outer, budget.part = budget.part, part
    try:
        yield
    finally:
        budget.part = outer


#: How often the CPU-time timer fires again once the budget is spent (``running``).
RETRY_S = 0.01


def _interrupt(signum: int, frame: FrameType | None) -> None:
    budget = _current.get()
    if budget is not None:
        raise budget.error()


@contextmanager
def running(budget: Budget, hard: bool = False) -> Iterator[Budget]:
    """Compute a request within ``budget``. ``hard``: also stop it inside a part, by a CPU-time
    timer (only in a process's main thread, where signals are handled: the worker processes;
    elsewhere only the checks between parts stop it)."""
    token = _current.set(budget)
    armed = hard and threading.current_thread() is threading.main_thread() \
        and hasattr(signal, "setitimer")
    previous = None
    if armed:
        previous = signal.signal(signal.SIGPROF, _interrupt)
        # Then again every RETRY_S: a signal handler's exception raised while the interpreter
        # runs a callback (a gc callback, a __del__) is printed and dropped, and the request
        # would go on; the next tick raises again.
        signal.setitimer(signal.ITIMER_PROF, max(budget.left(), 0.001), RETRY_S)
    try:
        yield budget
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
        _current.reset(token)
