"""The oracle's URL record and its recorder of ran steps (the listing rule of the issue 26 trace
contract, /tmp/prompts/trace-contract.md at the time of writing).

A ``Run`` is one run of one algorithm: one code point in one state of the basic URL parser, one
preprocessing step, one setter step, one run of "shorten a url's path", or one run of a host
algorithm. Inside a run the algorithm reports each leaf step it applied (``Run.step``), after
doing it, saying whether it wrote a URL record field, decided the run (set the next state,
returned, started over), raised validation errors, called an algorithm or returned. On close the
run lists its ran steps, by the contract's rule:

(a) a step that writes a URL record field (listed whether or not the value changed; ``changes``
    holds only the fields whose value differs after it, the called algorithms' changes included),
(b) a step that raises a validation error, (c) a step that calls a traced algorithm,
(d) a step that returns or returns failure, (e) the step that applied last (LAST_RULE below:
    or, read the other way, the last step that set the next state or ended the run; a run that
    lists nothing by (a)-(e) then lists the last step it applied), so that a run lists nothing
    only when no step's condition held.

A step that runs several times in a row in one run (the authority state's "For each codePoint in
buffer" loop) is listed once (unspecified by the contract; the oracle's choice).

Entries are flat (``Ran``), in the contract's order: a run's ran steps, then the entries of the
algorithms its steps called (one deeper), then the next run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

HostValue = str | int | tuple[int, ...]

#: rule (e), two readings of the contract. "applied" (the default; the reading urlcalc's
#: observer.py documents: "the step that applied last (``step`` is that one)") lists the step that
#: applied last, whatever it did (path state at "/": 1.4.2, then 1.5 "Set buffer to the empty
#: string"); "deciding" lists the last step that set the next state or ended the run, which is what
#: the contract's own example `http://h/a\\b` at "\\" (1.1, 1.4.2: no 1.5) and the issue's "the
#: branch that chose the next state" say (``python -m tests.oracle.compare --deciding``).
LAST_RULE = {"rule": "applied"}


class Ran(NamedTuple):
    depth: int
    algorithm: str
    step: str | None
    changes: frozenset[str]
    errors: tuple[str, ...]
    outcome: str | None
    calls: str | None


@dataclass
class URLRecord:
    """url.bs "URL representation": the fields a URL record has."""

    scheme: str = ""
    username: str = ""
    password: str = ""
    host: HostValue | None = None
    port: int | None = None
    path: list[str] | str = field(default_factory=list)
    query: str | None = None
    fragment: str | None = None

    def snapshot(self) -> dict[str, object]:
        return {"scheme": self.scheme, "username": self.username, "password": self.password,
                "host": self.host, "port": self.port,
                "path": tuple(self.path) if isinstance(self.path, list) else self.path,
                "query": self.query, "fragment": self.fragment}

    def clone(self) -> URLRecord:
        path = list(self.path) if isinstance(self.path, list) else self.path
        return URLRecord(self.scheme, self.username, self.password, self.host, self.port, path,
                         self.query, self.fragment)


@dataclass
class _Applied:
    step: str | None
    changes: set[str]
    errors: list[str]
    outcome: str | None
    calls: str | None
    significant: bool
    decides: bool


class Run:
    """One run of one algorithm (see the module's docstring)."""

    def __init__(self, rec: Recorder, depth: int, algorithm: str, url: URLRecord | None,
                 mode: str) -> None:
        self.rec = rec
        self.depth = depth
        self.algorithm = algorithm
        self.url = url
        self.mode = mode  # "url": the listing rule; "all": every step told; "significant"
        self.applied: list[_Applied] = []
        self.nested: list[Ran] = []
        self.last = url.snapshot() if url is not None else {}
        self.closed = False

    def step(self, number: str | None, *, writes: bool = False, decides: bool = False,
             errors: tuple[str, ...] = (), calls: str | None = None,
             outcome: str | None = None) -> None:
        """Step ``number`` applied (told after it ran)."""
        changes: set[str] = set()
        # only a step that writes a field or calls an algorithm can change the record (a step
        # that does neither and yet changed it would show in the next such step's changes)
        if self.url is not None and (writes or calls):
            now = self.url.snapshot()
            changes = {k for k, v in now.items() if self.last[k] != v}
            self.last = now
        significant = bool(writes or errors or calls or outcome)
        self.applied.append(_Applied(number, changes, list(errors), outcome, calls,
                                     significant, decides or outcome is not None))

    def _listed(self) -> list[_Applied]:
        if self.mode != "url":
            return self.applied
        deciding = [a for a in self.applied if a.decides]
        last_deciding = deciding[-1] if deciding else None
        if LAST_RULE["rule"] == "applied" and self.applied:
            last_deciding = self.applied[-1]
        listed = [a for a in self.applied if a.significant or a is last_deciding]
        if not listed and self.applied:
            listed = [self.applied[-1]]
        merged: list[_Applied] = []
        for a in listed:  # a step repeated in a row (a loop) is listed once
            if merged and merged[-1].step == a.step and not a.calls:
                prev = merged[-1]
                prev.changes |= a.changes
                prev.errors += a.errors
                prev.outcome = a.outcome or prev.outcome
                continue
            merged.append(a)
        return merged

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        out = [Ran(self.depth, self.algorithm, a.step, frozenset(a.changes), tuple(a.errors),
                   a.outcome, a.calls) for a in self._listed()]
        out += self.nested
        popped = self.rec.stack.pop()
        assert popped is self
        if self.rec.stack:
            self.rec.stack[-1].nested.extend(out)
        else:
            self.rec.entries.extend(out)


class Recorder:
    """The ran steps of one parse or one setter call, flat and in order."""

    def __init__(self) -> None:
        self.entries: list[Ran] = []
        self.stack: list[Run] = []

    def open(self, depth: int, algorithm: str, url: URLRecord | None = None, *,
             significant_only: bool = False, list_all: bool = False) -> Run:
        mode = "significant" if significant_only else "all" if list_all else "url"
        run = Run(self, depth, algorithm, url, mode)
        self.stack.append(run)
        return run

    def single(self, depth: int, algorithm: str, step: str, url: URLRecord | None = None, *,
               writes: bool = False, errors: tuple[str, ...] = (),
               outcome: str | None = None) -> None:
        """A run of one step that calls nothing (a setter step, a preprocessing step), told
        after it ran: it must not have changed ``url`` (open a run first for one that does)."""
        assert not writes
        run = self.open(depth, algorithm, url, list_all=True)
        run.step(step, writes=writes, errors=errors, outcome=outcome)
        run.close()
