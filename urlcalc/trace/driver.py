"""The driver above the states: what turns the step numbers the algorithms return into the
trace's described, cited and bounded steps.

The basic URL parser's states (urlcalc.standard.parser) return the number of the spec step that
applied; with an observer, the parser's observed loop asks it for a per-parse driver
(``url_steps``, urlcalc.standard.observer's ``URLStepDriver``) and calls ``start`` before each
state and ``finish`` after it. The driver here (``URLSteps``) describes each step (pointer, c,
buffer, flags, the errors it raised, the record fields it changed, the state it leads to), cites
the state's anchor, puts the host parser's and path shortening's substeps before the step that
used them, keeps the outline (every step in brief, with the facts the states recorded), and,
once a bounded observer (urlcalc.trace.recorder's TraceRecorder) is full, only counts the steps,
so that a long input stays linear.

No step number is written here: every step cited is the one an algorithm returned or raised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from urlcalc.standard import host as hostmod
from urlcalc.standard import steps as spec
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.observer import CalledBy, Fact, Observer, OutlineEntry, RanStep, Step
from urlcalc.standard.parser import (
    EOF,
    STATE_NAMES,
    ParseFailure,
    Parser,
    ParseReturn,
    Shortening,
    State,
    fragment_state,
    opaque_path_state,
)
from urlcalc.standard.record import RECORD_FIELDS, URLRecord
from urlcalc.trace.host_driver import HostSteps

# The spec's anchors for each state (url.bs dfn ids), from the spec's step data.
STATE_ANCHORS: dict[str, str] = {name: spec.algorithms()[name].anchor
                                 for name in STATE_NAMES.values()}
BASIC_URL_PARSER = "basic URL parser"


def no_step_applies(state: str, c: str | None) -> str:
    """Why a run of ``state`` cited no step: no step's condition held."""
    if c is None:
        if state == "path start state":
            return "no step applies: c is the EOF code point and there is no state override " \
                   "with a null host (step 5)"
        return "no step applies: c is the EOF code point"
    return "no step applies"


def _json_field(url: URLRecord, name: str) -> object:
    """A record field's current value in the trace's JSON form."""
    if name == "host":
        return None if url.host is None else hostmod.host_serialize(url.host)
    value = getattr(url, name)
    if name == "path" and isinstance(value, list):
        return list(value)
    return value


def _fields(url: URLRecord) -> tuple[object, ...]:
    """The record's fields, cheaply, for telling which ones a step changed: a list path stands
    for itself with its length and last segment (a step appends or removes at most one segment,
    or replaces the list), so no step copies the whole path."""
    path = url.path
    return (url.scheme, url.username, url.password, url.host, url.port,
            path if isinstance(path, str) else (path, len(path), path[-1] if path else None),
            url.query, url.fragment)


def _changed(before: tuple[object, ...], after: tuple[object, ...]) -> tuple[str, ...]:
    if before == after:
        return ()
    return tuple(name for name, b, a in zip(RECORD_FIELDS, before, after, strict=True)
                 if a != b)


# The opaque path state and the fragment state collect their code points in buffer and join them
# to the record when the state ends (appending to a string one code point at a time would be
# quadratic); the spec appends each one to the record at once and has no buffer there. The trace
# reports the spec's view: an empty buffer, and the field growing at each step that reads any
# code point but those that end the state (the opaque path state's steps 1-2 and EOF; the
# fragment state's EOF).
_APPENDING: dict[Callable[..., Any], tuple[str, frozenset[str]]] = {
    opaque_path_state: ("path", frozenset(("?", "#", EOF))),
    fragment_state: ("fragment", frozenset((EOF,))),
}


def _spec_changed(state: State, c: str, changed: tuple[str, ...]
                  ) -> tuple[tuple[str, ...], str | None]:
    """The fields a step changed in the spec's view, and the field its state appends to (see
    _APPENDING; None for other states): that field grows at every appending step and at no
    other (joining buffer to it is no change)."""
    appending = _APPENDING.get(state)
    if appending is None:
        return changed, None
    field, ending = appending
    if c not in ending:
        return tuple(f for f in RECORD_FIELDS if f == field or f in changed), field
    return tuple(f for f in changed if f != field), field


SHORTEN = "shorten a url's path"


def _shortening(applied: Shortening, depth: int, called_by: CalledBy) -> Step:
    """The event of "shorten a url's path" a state's step ran (nested under it, after it)."""
    if applied.kept:
        return {"parser": "shorten", "algorithm": SHORTEN, "state": SHORTEN,
                "step": applied.step, "ran": [{"step": applied.step, "outcome": "return"}],
                "note": "file URL whose path is a drive letter: keep it", "depth": depth,
                "called_by": called_by}
    return {"parser": "shorten", "algorithm": SHORTEN, "state": SHORTEN, "step": applied.step,
            "ran": [{"step": applied.step}],
            "note": "remove the last path segment" if applied.removed is not None
            else "the path is empty: nothing to remove", "removed": applied.removed,
            "depth": depth, "called_by": called_by}


def _removals(shortenings: list[Shortening] | None) -> int:
    """How many path segments the step's shortenings removed (for the outline)."""
    return sum(1 for s in shortenings if s.removed is not None) if shortenings else 0


def _take(facts: list[Fact]) -> tuple[Fact, ...]:
    """The facts the step established, leaving the list empty for the next step."""
    if not facts:
        return ()
    out = tuple(facts)
    facts.clear()
    return out


def _own(error: ValidationError, state: str) -> bool:
    """True when the state itself raised ``error`` (not an algorithm it called: the host
    parser's errors sit on the host parser's events)."""
    return not error.algorithm or error.algorithm == state


class _Substeps(list[Step]):
    """The observer of a step's host substeps while the recorder keeps steps: they are kept
    here until the step that ran them is described (they come after it, nested). ``fired``:
    the recorder's changes noted under a variant (urlcalc.trace.undone), or None."""

    fired: list[str] | None = None

    def __call__(self, step: Step) -> None:
        self.append(step)

    def host_steps(self) -> HostSteps:
        return HostSteps(self, fired=self.fired)


class _DroppedSubsteps:
    """The observer of host substeps once the recorder is full: counts each one with ``drop``.
    It keeps nothing, so the algorithms need not build their steps' details
    (``counts_only``)."""

    __slots__ = ("drop",)
    counts_only = True

    def __init__(self, drop: Callable[[], None]) -> None:
        self.drop = drop

    def __call__(self, step: Step) -> None:
        self.drop()

    def host_steps(self) -> HostSteps:
        return HostSteps(self, self.drop)


class URLSteps:
    """The driver of one traced parse (urlcalc.standard.observer's ``URLStepDriver``).

    Every run of a state is described to ``observer`` as one event (pointer, c, buffer, flags,
    errors, the fields it changed) with every step that ran in it (``ran``: the state tells
    ``ran`` of each step that wrote a record field or called an algorithm before the one it
    returns; the validation errors name their own steps), each step with the changes, errors
    and outcome it made. The events of the algorithms a step called (the host parser's, shorten
    a url's path) follow the event, one deeper, naming that step (``called_by``). Once
    ``is_full`` says a bounded observer (a full TraceRecorder) keeps no more, each step is
    counted with ``drop`` instead (describing it costs time in the length of the buffer and
    path, which would make long inputs quadratic), and so are its substeps. With an
    ``outline``, every step also goes there in brief, with the facts the state functions
    recorded (constant time: see ``_fields``). ``depth`` is the basic URL parser's (1 under a
    setter, which ``called_by`` names)."""

    __slots__ = ("before", "c", "called_by", "depth", "described", "drop", "dropped", "facts",
                 "fired", "is_full", "mark", "mark_errors", "n_errors", "nested", "observer",
                 "outline", "pointer", "ran_steps", "shortened", "shortenings", "state_name",
                 "substeps", "taken")

    def __init__(self, observer: Observer, outline: list[OutlineEntry] | None = None,
                 is_full: Callable[[], bool] | None = None,
                 drop: Callable[[], None] | None = None, depth: int = 0,
                 called_by: CalledBy | None = None) -> None:
        self.observer = observer
        self.outline = outline
        self.is_full = is_full if drop is not None else None
        self.drop = drop
        self.depth = depth
        self.called_by = called_by
        self.described = True
        self.facts: list[Fact] = []
        # where a step's substeps go: kept until the step is described, or counted
        self.substeps = _Substeps()
        self.dropped: _DroppedSubsteps | None = None
        self.shortenings: list[Shortening] = []
        self.pointer = 0
        self.c = EOF
        self.before: tuple[object, ...] = ()
        self.n_errors = 0
        # the run's steps so far (``ran``), the record and the errors when the last was told,
        # the nested events of the steps told, and how many substeps and shortenings they took
        self.ran_steps: list[RanStep] = []
        self.mark: tuple[object, ...] = ()
        self.mark_errors = 0
        self.nested: list[Step] = []
        self.taken = 0
        self.shortened = 0
        self.state_name = ""
        # the changes noted under a variant (urlcalc.trace.undone: the recorder takes them onto
        # the next event it keeps); cleared at each step only counted
        self.fired: list[str] | None = None

    def _event(self, record: Step) -> Step:
        """``record`` at this parse's depth, naming the setter step that runs it."""
        if self.depth:
            record["depth"] = self.depth
            if self.called_by is not None:
                record["called_by"] = self.called_by
        return record

    def preprocessing(self, p: Parser, step: str, note: str, input: str | None,
                      error: ValidationError | None) -> None:
        """A step of the basic URL parser before its state machine (steps 1.2-1.3, 2-3)."""
        ran: RanStep = {"step": step}
        if error is not None:
            ran["errors"] = [error.name]
        record: Step = {"parser": "url", "algorithm": BASIC_URL_PARSER,
                        "state": BASIC_URL_PARSER, "anchor": "concept-basic-url-parser",
                        "step": step, "ran": [ran], "note": note,
                        "errors": [error.name] if error else [], "depth": 0}
        if input is not None:
            record["input"] = input
        if error is not None and error.index is not None:
            record["index"] = error.index
        self.observer(self._event(record))

    def start(self, p: Parser) -> None:
        if p.shortenings is None:  # the first step: the parser keeps facts and shortenings
            p.shortenings = self.shortenings
            if self.outline is not None:
                p.facts = self.facts
        if self.described:
            is_full = self.is_full
            if is_full is not None and is_full():
                assert self.drop is not None
                self.described = p.live = False
                p.observer = self.dropped = _DroppedSubsteps(self.drop)
            else:
                p.observer = self.substeps
        pointer = self.pointer = p.pointer
        self.c = p.input[pointer] if pointer < len(p.input) else EOF
        self.state_name = STATE_NAMES[p.state]
        self.before = self.mark = _fields(p.url)
        self.n_errors = self.mark_errors = len(p.errors)

    def ran(self, p: Parser, step: str, calls: str | None) -> None:
        if not self.described:
            return
        after = _fields(p.url)
        self._told(p, step, _changed(self.mark, after), None, calls)
        self.mark = after

    def _told(self, p: Parser, step: str, changed: tuple[str, ...],
              changes: dict[str, object] | None, calls: str | None,
              outcome: str | None = None) -> None:
        """The step ``step`` ran: what changed since the last step told (``changed``, or the
        ``changes`` made), the errors raised since (on the steps that raised them), the
        algorithm it ``calls`` (its events, collected since, nest under it)."""
        ran_steps = self.ran_steps
        name = self.state_name
        own: list[str] = []
        for error in p.errors[self.mark_errors:]:
            if not _own(error, name):
                continue
            at = error.step
            if at == step or at is None:
                own.append(error.name)
            elif ran_steps and ran_steps[-1]["step"] == at:
                ran_steps[-1].setdefault("errors", []).append(error.name)
            else:
                ran_steps.append({"step": at, "errors": [error.name]})
        self.mark_errors = len(p.errors)
        item: RanStep = ran_steps.pop() if ran_steps and ran_steps[-1]["step"] == step \
            else {"step": step}
        if changes is None and changed:
            changes = {f: _json_field(p.url, f) for f in changed}
        if changes:
            item.setdefault("changes", {}).update(changes)
        if own:
            item.setdefault("errors", []).extend(own)
        if outcome is not None:
            item["outcome"] = outcome
        if calls is not None:
            item["calls"] = calls
            self._nest(p, step)
        ran_steps.append(item)

    def _nest(self, p: Parser, step: str) -> None:
        """The substeps and shortenings since the last call are ``step``'s: nested under it
        (a shortening's step 4 with the path it left)."""
        called_by: CalledBy = {"algorithm": self.state_name, "step": step}
        depth = self.depth + 1
        substeps = self.substeps
        for event in substeps[self.taken:]:
            event["depth"] = event.get("depth", 0) + depth
            if "called_by" not in event:
                event["called_by"] = called_by
            self.nested.append(event)
        self.taken = len(substeps)
        shortenings = self.shortenings
        for applied in shortenings[self.shortened:]:
            event = _shortening(applied, depth, called_by)
            if applied.removed is not None:
                event["ran"][0]["changes"] = {"path": _json_field(p.url, "path")}
            self.nested.append(event)
        self.shortened = len(shortenings)

    def finish(self, p: Parser, state: State, step: str | None,
               stop: Exception | None) -> None:
        if self.described:
            self._describe(p, state, step, stop)
            return
        # counted
        drop = self.drop
        assert drop is not None
        if self.fired:
            self.fired.clear()
        shortenings = self.shortenings
        removed = 0
        if shortenings:
            for applied in shortenings:
                drop()
                if applied.removed is not None:
                    removed += 1
            shortenings.clear()
        drop()
        if self.outline is not None:
            n_errors = self.n_errors
            errors = tuple(p.errors[n_errors:]) if len(p.errors) > n_errors else ()
            c = self.c
            changed, _ = _spec_changed(state, c, _changed(self.before, _fields(p.url)))
            self.outline.append(OutlineEntry(
                p.index(self.pointer), STATE_NAMES[state], c if c != EOF else None, step,
                changed, errors, removed, _take(self.facts)))

    def _describe(self, p: Parser, state: State, step: str | None,
                  stop: Exception | None) -> None:
        observer = self.observer
        p.observer = observer
        url = p.url
        c = self.c
        pointer = self.pointer
        name = STATE_NAMES[state]
        after = _fields(url)
        changed, appended = _spec_changed(state, c, _changed(self.before, after))
        buffer = "".join(p.buffer)
        changes = {f: getattr(url, f) + buffer if f == appended else _json_field(url, f)
                   for f in changed} if changed else {}
        if appended is not None:  # the spec's view: no buffer in this state
            buffer = ""
        index = p.index(pointer)
        raised = p.errors[self.n_errors:]
        outcome = "failure" if isinstance(stop, ParseFailure) else \
            "return" if isinstance(stop, ParseReturn) else None
        ran = self.ran_steps
        if step is not None:
            if not ran and not raised and outcome is None and not self.substeps \
                    and not self.shortenings:
                # one step ran: it made every change (the common case, built directly)
                ran.append({"step": step, "changes": changes} if changes else {"step": step})
            else:
                # the last step's own changes: those since the last step told
                last = changed if self.mark is self.before else \
                    _spec_changed(state, c, _changed(self.mark, after))[0]
                self._told(p, step, (), {f: changes[f] for f in last if f in changes}, None,
                           outcome)
        if len(ran) > 1:  # the run's changes are its steps' (a field set and set back counts)
            changes = {}
            for r in ran:
                if "changes" in r:
                    changes.update(r["changes"])
        record: Step = {
            "parser": "url",
            "algorithm": name,
            "state": name,
            "anchor": STATE_ANCHORS[name],
            "step": step,
            "ran": ran,
            "pointer": pointer,
            "index": index,
            "c": c if c != EOF else None,
            "buffer": buffer,
            "flags": {"at_sign_seen": p.at_sign_seen, "inside_brackets": p.inside_brackets,
                      "password_token_seen": p.password_token_seen},
            "errors": [e.name for e in raised if _own(e, name)] if raised else [],
            "changes": changes,
            "next_state": STATE_NAMES[p.state],
            "depth": 0,
        }
        if isinstance(stop, ParseFailure):
            record["outcome"] = "failure"
            if stop.reason:
                record["note"] = stop.reason
            if stop.cause is not None and stop.cause != (name, step):
                record["cause"] = {"algorithm": stop.cause[0], "step": stop.cause[1]}
        elif isinstance(stop, ParseReturn):
            record["outcome"] = "return"
            if stop.note:
                record["note"] = stop.note
        elif step is None:
            record["note"] = no_step_applies(name, record["c"])
        # substeps no step was told to have called (none should be): the last step's
        if len(self.substeps) > self.taken or len(self.shortenings) > self.shortened:
            self._nest(p, step or "")
        shortenings = self.shortenings
        observer(self._event(record))
        for event in self.nested:
            observer(event)
        if self.outline is not None:
            self.outline.append(OutlineEntry(index, name, record["c"], step, changed,
                                             tuple(raised), _removals(shortenings),
                                             _take(self.facts)))
        shortenings.clear()
        self.substeps.clear()
        self.nested = []
        self.ran_steps = []
        self.taken = self.shortened = 0


class Described:
    """Any callable as an observer whose steps the driver describes (a plain callable given to
    the parser raises TypeError: it does not say how its steps are described). Unbounded: every
    step is described."""

    __slots__ = ("observer",)

    def __init__(self, observer: Observer) -> None:
        self.observer = observer

    def __call__(self, step: Step) -> None:
        self.observer(step)

    @property
    def counts_only(self) -> bool:
        return bool(getattr(self.observer, "counts_only", False))

    def url_steps(self) -> URLSteps:
        return URLSteps(self)

    def host_steps(self) -> HostSteps:
        return HostSteps(self)

    def nested(self, algorithm: str, step: str | None) -> Nested:
        return Nested(self, 1, {"algorithm": algorithm, "step": step})


class Nested(Described):
    """An observer for an algorithm a step calls (urlcalc.standard.observer's ``Driven.nested``:
    the basic URL parser a setter runs): the basic URL parser's events one deeper, each naming
    that step (``called_by``); everything else as ``observer`` (a Driven) does it."""

    __slots__ = ("called_by", "depth")

    def __init__(self, observer: Any, depth: int, called_by: CalledBy) -> None:
        super().__init__(observer)
        self.depth = depth
        self.called_by = called_by

    def url_steps(self) -> URLSteps:
        driver: URLSteps = self.observer.url_steps()  # type: ignore[attr-defined]
        driver.depth = self.depth
        driver.called_by = self.called_by
        return driver

    def host_steps(self) -> HostSteps:
        driver: HostSteps = self.observer.host_steps()  # type: ignore[attr-defined]
        return driver

    def nested(self, algorithm: str, step: str | None) -> Nested:
        return Nested(self.observer, self.depth + 1, {"algorithm": algorithm, "step": step})
