"""The driver of the host parser's steps: what turns the steps the host parser and the
algorithms it calls return (urlcalc.standard.host: the host, IPv4, IPv4 number, IPv6,
opaque-host and domain parsers) into the trace's events, and UTS #46's stages into events of
their own.

An algorithm's observed run tells ``HostSteps`` before and after each state; after it, the
state's describer (``DESCRIBERS``, by state function) writes the event: what the state did in
words, the variables it had in hand, and ``ran``, the steps that ran (the trace contract of
issue 26: each step that raised a validation error, with its ``errors``; that called an
algorithm, with ``calls``; that returned or returned failure, with ``outcome``; and the step the
state returned). A failure the state raised is written as the step that returned it.

Nesting: the events of every run are written at depth 0 and ``called_by``-less; while a state
runs, the algorithms it calls write theirs into a collector (``_Nested``), which is flushed
right after the calling step's event, one deeper, each naming that step (``called_by``) unless
a deeper flush named it already. So ``urlcalc host X --trace`` shows the host parser at depth 0,
the IPv4, IPv6, opaque-host and domain parsers at 1, the IPv4 number parser and UTS #46 at 2,
each after the step that called it; the URL driver adds its own depth to all of them.

The step numbers cited are the ones the algorithms returned, raised or passed a failure on
with, or the ones that name what a state's single step does (a "calls" step: the host parser's
1.2, 2, 6 and 8, the domain parser's 1 and 6.1, the IPv4 parser's 6.1; the IPv4 parser's 2.2
and 6.4, which follow from 2.1 and from a part parsed; the IPv4 number parser's return steps).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from urlcalc.standard import host as h
from urlcalc.standard import steps as spec
from urlcalc.standard.host import HostFailure, HostRun, Report
from urlcalc.standard.observer import Observer, Step, counts_only
from urlcalc.trace.undone import take

#: One step that ran (urlcalc.standard.observer's ``RanStep``): step, errors?, outcome?, calls?
Ran = dict[str, Any]

UTS46_TO_ASCII = "UTS #46 ToASCII"


class _Nested(list[Step]):
    """The collector of the events of the algorithms a state calls: kept until the calling
    step's event is written (``HostSteps.flush``). It counts only when the observer it stands
    for does (``counts_only``, set before each state)."""

    __slots__ = ("counts_only", "fired")

    def __init__(self, fired: list[str] | None = None) -> None:
        super().__init__()
        self.counts_only = False
        self.fired = fired

    def __call__(self, step: Step) -> None:
        self.append(step)

    def host_steps(self) -> HostSteps:
        return HostSteps(self, fired=self.fired)


class _Stage:
    """The UTS #46 observer: each stage as an event of the domain parser's ToASCII call."""

    __slots__ = ("counts_only", "drop", "mode", "observer")

    def __init__(self, observer: Observer, mode: str, counting: bool,
                 drop: Callable[[], None] | None = None) -> None:
        self.observer = observer
        self.mode = mode
        self.drop = drop
        self.counts_only = drop is not None or counting

    def __call__(self, name: str, details: dict[str, object]) -> None:
        if self.drop is not None:
            self.drop()
            return
        algorithm, step = spec.UTS46_STAGES[name]
        self.observer(cast(Step, {
            "parser": "uts46", "algorithm": algorithm, "state": "UTS #46 " + name, "step": step,
            "ran": [{"step": step}], "note": f"Unicode ToASCII ({self.mode}): {name}",
            "details": details, "depth": 0}))


#: The domain parser's states that run UTS #46 ToASCII, and in which mode.
_STAGE_MODES: dict[Callable[..., Any], str] = {h.domain_strict: "strict",
                                               h.domain_to_ascii: "relaxed"}


def _add(ran: list[Ran], step: str | None, **keys: Any) -> None:
    """Add ``keys`` to ``step`` in ``ran``: to the last entry when it is that step, else to a new
    one at the end."""
    if step is None:
        return
    if ran and ran[-1]["step"] == step:
        entry = ran[-1]
    else:
        entry = {"step": step}
        ran.append(entry)
    for key, value in keys.items():
        if key == "errors":
            entry.setdefault("errors", []).extend(value)
        else:
            entry[key] = value


class HostSteps:
    """The driver of one run of an algorithm of the host parser (urlcalc.standard.observer's
    ``HostStepDriver``): the events go to ``observer`` (a TraceRecorder, the URL step's
    substeps, or the calling algorithm's ``_Nested``). While a state runs, ``noted`` keeps, in
    the order they happened, the validation errors raised (name and citing algorithm and step,
    the algorithms it calls included: noted on their way to the run's report) and the steps
    the state told of (``ran``). With ``drop`` (the URL driver's, once the recorder is full),
    each event is only counted: nothing is built, nothing nested. ``fired``: the changes noted
    under a variant (urlcalc.trace.undone), each event taking those of its algorithm."""

    __slots__ = ("drop", "fired", "nested", "noted", "observer", "report", "stage")

    def __init__(self, observer: Observer, drop: Callable[[], None] | None = None,
                 fired: list[str] | None = None) -> None:
        self.observer = observer
        self.drop = drop
        self.fired = fired if drop is None else None
        # (algorithm (None: the run's own), step, error, calls)
        self.noted: list[tuple[str | None, str | None, str | None, str | None]] = []
        self.report: Report | None = None
        self.stage: _Stage | None = None
        self.nested = _Nested(self.fired)

    def event(self, parser: str, ran: list[Ran], note: str, **details: Any) -> Step:
        """An event of ``parser``'s algorithm at depth 0: its step is the last that ran, its
        errors and outcome those of its steps."""
        algorithm = h.ALGORITHM_OF_PARSER[parser]
        event: dict[str, Any] = {"parser": parser, "algorithm": algorithm, "state": algorithm,
                                 "step": ran[-1]["step"] if ran else None, "ran": ran,
                                 "note": note, "depth": 0, **details}
        errors = [e for r in ran for e in r.get("errors", ())]
        if errors:
            event["errors"] = errors
        outcome = next((r["outcome"] for r in reversed(ran) if "outcome" in r), None)
        if outcome is not None:
            event["outcome"] = outcome
        fired = self.fired
        if fired:
            take(fired, cast(Step, event), True)
        return cast(Step, event)

    def write(self, parser: str, ran: list[Ran], note: str, **details: Any) -> None:
        """Write an event, then the events of the algorithm its step called (if any)."""
        if self.drop is not None:
            self.drop()
            return
        self.observer(self.event(parser, ran, note, **details))
        caller = next((r["step"] for r in ran if "calls" in r), None)
        if caller is not None:
            self.flush(h.ALGORITHM_OF_PARSER[parser], caller)

    def sub(self, parser: str, ran: list[Ran], note: str, **details: Any) -> None:
        """An event of an algorithm the running state calls without a run of its own (the
        IPv4 number parser): nested under the next event that calls it."""
        if self.drop is not None:
            self.drop()
            return
        self.nested.append(self.event(parser, ran, note, **details))

    def flush(self, algorithm: str, step: str | None) -> None:
        """The collected events, one deeper, named as called by ``algorithm``'s ``step``."""
        nested = self.nested
        if not nested:
            return
        called_by = {"algorithm": algorithm, "step": step}
        observer = self.observer
        for event in nested:
            loose = cast(dict[str, Any], event)
            loose["depth"] = loose.get("depth", 0) + 1
            if "called_by" not in loose:
                loose["called_by"] = called_by
            observer(event)
        nested.clear()

    def own(self, algorithm: str, fallback: str | None) -> list[Ran]:
        """The steps the state ran, as noted since it began: those it told of, and those of
        ``algorithm`` that raised an error (an error no step cites goes to ``fallback``)."""
        ran: list[Ran] = []
        for by, step, error, calls in self.noted:
            if by is None:
                if calls is not None:
                    _add(ran, step, calls=calls)
                else:
                    _add(ran, step)
            elif by == algorithm or by == "":  # "": an error no step cites
                _add(ran, step if step is not None else fallback, errors=[error])
        return ran

    def ran(self, run: HostRun, step: str, calls: str | None) -> None:
        self.noted.append((None, step, None, calls))

    def _noting(self, name: str, offset: int | None, detail: str,
                cite: tuple[str, str | None] | None = None) -> None:
        self.noted.append((cite[0], cite[1], name, None) if cite is not None
                          else ("", None, name, None))
        assert self.report is not None
        self.report(name, offset, detail, cite)

    def start(self, run: HostRun) -> None:
        if self.report is None:  # the run's first state: its errors are noted from now on
            self.report = run.report
            run.report = self._noting
            if self.drop is None:  # the algorithms the states call write into the collector
                run.observer = self.nested
        if self.drop is None:
            self.nested.counts_only = counts_only(self.observer)
        state = run.state
        mode = _STAGE_MODES.get(state) if state is not None else None
        if mode is not None:
            assert isinstance(run, h.DomainRun)
            stage = self.stage
            if stage is None:
                stage = self.stage = _Stage(self.nested, mode, counts_only(self.observer),
                                            self.drop)
            else:
                stage.mode = mode
            run.stages = stage
        self.noted = []

    def finish(self, run: HostRun, state: Callable[..., object], step: str | None,
               stop: Exception | None) -> None:
        describe = DESCRIBERS.get(state)
        if describe is not None:
            describe(self, run, step, stop)
        elif isinstance(stop, HostFailure) and not stop.via:
            self.fail(stop)

    def fail(self, stop: HostFailure) -> None:
        """The failing step itself, after the steps of the state before it (a failure passed on
        is written by the step that passed it on)."""
        ran = self.own(stop.algorithm, stop.step)
        _add(ran, stop.step, outcome="failure")
        details: dict[str, Any] = {**stop.details}
        self.write(stop.parser, ran, stop.says + ": failure", **details)


#: Describes what a state did, however it ended: the step it returned (None: no step the trace
#: shows), or the failure it raised or passed on.
Describer = Callable[[HostSteps, Any, str | None, Exception | None], None]


def _failure(stop: Exception | None) -> HostFailure | None:
    return stop if isinstance(stop, HostFailure) else None


# The host parser


def _start(d: HostSteps, r: h.HostParserRun, step: str | None,
           stop: Exception | None) -> None:
    failure = _failure(stop)
    if failure is not None:
        d.fail(failure)
    elif r.state is h.host_parser_decode:
        d.write("host", d.own("host parser", step), "the input contains a percent-encoded "
                "byte: validation error")
    elif r.state is h.host_parser_domain:  # it went on to decode (host_parser_decode)
        _decode(d, r, step, None)
    # else: step 1 or 2 chose the IPv6 or the opaque-host parser, whose call is the next state's


def _decode(d: HostSteps, r: h.HostParserRun, step: str | None,
            stop: Exception | None) -> None:
    d.write("host", [{"step": step}], "percent-decode, then UTF-8 decode without BOM",
            input=r.input, domain=r.domain)


def _returns(calls: str, note: str) -> Describer:
    """The host parser's steps that return the result of the algorithm they call (1.2, 2, 8):
    the step, then the algorithm's events."""
    def describe(d: HostSteps, r: h.HostParserRun, step: str | None,
                 stop: Exception | None) -> None:
        failure = _failure(stop)
        if failure is not None:
            step = failure.via[-1][1]
        details: dict[str, Any] = {"domain": r.ascii_domain} if calls == "IPv4 parser" \
            else {"input": r.input}
        if failure is None:
            details["result"] = h.host_serialize(r.result)
        d.write("host", [{"step": step, "calls": calls,
                          "outcome": "failure" if failure is not None else "return"}],
                note + (": failure" if failure is not None else ""), **details)
    return describe


def _domain(d: HostSteps, r: h.HostParserRun, step: str | None,
            stop: Exception | None) -> None:
    details: dict[str, Any] = {"domain": r.domain}
    if r.failure is None:
        details["result"] = r.ascii_domain
    d.write("host", [{"step": step, "calls": "domain parser"}],
            "asciiDomain: the domain parser with domain and false", **details)


def _failed(d: HostSteps, r: h.HostParserRun, step: str | None,
            stop: Exception | None) -> None:
    failure = _failure(stop)
    assert failure is not None
    d.write("host", [{"step": failure.via[-1][1], "outcome": "failure"}],
            "asciiDomain is failure: return failure")


def _checks(d: HostSteps, r: h.HostParserRun, step: str | None,
            stop: Exception | None) -> None:
    if step is not None:  # else asciiDomain ends in a number: step 8 is host_parser_ipv4's
        d.write("host", [{"step": step, "outcome": "return"}], "the host is a domain: return "
                "asciiDomain", result=r.ascii_domain)


# The domain parser


def _strict(d: HostSteps, r: h.DomainRun, step: str | None, stop: Exception | None) -> None:
    errors = r.strict_errors
    d.write("domain", [{"step": step, "calls": UTS46_TO_ASCII}], "strictResult: domain parser "
            "ToASCII with beStrict true" + (": failure (" + ", ".join(errors) + ")" if errors
                                            else ": no error"), result=r.strict_result)


def _strict_error(d: HostSteps, r: h.DomainRun, step: str | None,
                  stop: Exception | None) -> None:
    failure = _failure(stop)
    if failure is not None:
        d.fail(failure)
        return
    ran = d.own("domain parser", step)
    if r.be_strict:
        _add(ran, step, outcome="return")
        d.write("domain", ran, "beStrict: return strictResult", result=r.result)
    else:
        d.write("domain", ran, "strictResult is a failure value: validation error (this step "
                "does not return)")


def _to_ascii(d: HostSteps, r: h.DomainRun, step: str | None, stop: Exception | None) -> None:
    failure = _failure(stop)
    if failure is not None:
        d.fail(failure)
    elif r.lowered is not None:
        d.write("domain", [{"step": step}], "ASCII domain: the result is the domain, lowercased",
                result=r.result)
    else:
        ran = d.own("domain parser", step)
        _add(ran, step)
        d.write("domain", ran, "ToASCII with beStrict false", result=r.result)


def _result_checks(d: HostSteps, r: h.DomainRun, step: str | None,
                   stop: Exception | None) -> None:
    failure = _failure(stop)
    if failure is not None:
        d.fail(failure)
    else:
        d.write("domain", [{"step": step, "outcome": "return"}], "return result",
                result=r.result)


# The IPv4 parser and the IPv4 number parser


def _split(d: HostSteps, r: h.IPv4Run, step: str | None, stop: Exception | None) -> None:
    ran = d.own("IPv4 parser", step)
    n = len(r.parts)
    note = f"{n} part{'s' if n != 1 else ''}"
    failure = _failure(stop)
    if failure is not None:
        _add(ran, failure.step, outcome="failure")
        d.write("ipv4", ran, note + ": " + failure.says + ": failure", parts=r.parts)
        return
    if not ran:
        ran = [{"step": step}]
    d.write("ipv4", ran, note + (" (a trailing empty part removed)"
                                 if r.input.endswith(".") else ""), parts=r.parts)


def _number(d: HostSteps, r: h.IPv4Run) -> None:
    """The IPv4 number parser's run on the part (it returns the steps that applied with its
    answer): its return step, nested under the IPv4 parser's step 6.1."""
    value, validation_error, radix, first, last = r.number
    part = r.part
    if part == "":
        d.sub("ipv4-number", [{"step": first, "outcome": "failure"}],
              "the part is the empty string: return failure", part=part, offset=r.offset)
        return
    says = f"R is {radix}, validationError is {str(validation_error).lower()}"
    if value is None:
        ran: list[Ran] = [{"step": last, "outcome": "failure"}]
        says += f"; not all radix-{radix} digits: return failure"
    elif part.lower() == "0x":
        ran = [{"step": last, "outcome": "return"}]
        says += "; nothing after the prefix: return (0, true)"
    else:
        ran = [{"step": last, "outcome": "return"}]
        says += f": return ({value if value < h.IPV4_NUMBER_CAP else '>= 2^32'}, " \
                f"{str(validation_error).lower()})"
    d.sub("ipv4-number", ran, says, part=part, offset=r.offset, R=radix,
          validationError=validation_error)


def _part(d: HostSteps, r: h.IPv4Run, step: str | None, stop: Exception | None) -> None:
    # step 6.1 calls the IPv4 number parser; then 6.2 (failure) or 6.3 (an error) and 6.4
    _number(d, r)
    failure = _failure(stop)
    if failure is not None:
        d.fail(failure)
        return
    ran = d.own("IPv4 parser", step)
    _add(ran, step)
    cap = h.IPV4_NUMBER_CAP
    d.write("ipv4", ran, f"part {r.part!r}"
            + (": validationError is true" if r.number[1] else "")
            + ": append its number to numbers",
            part=r.part, numbers=[str(n) if n < cap else f">= {cap}" for n in r.numbers])


def _range(d: HostSteps, r: h.IPv4Run, step: str | None, stop: Exception | None) -> None:
    d.write("ipv4", d.own("IPv4 parser", step), "a number exceeds 255: validation error")


def _ipv4_result(d: HostSteps, r: h.IPv4Run, step: str | None,
                 stop: Exception | None) -> None:
    failure = _failure(stop)
    if failure is not None:
        d.fail(failure)
    else:
        d.write("ipv4", [{"step": step, "outcome": "return"}], "return ipv4",
                result=h.ipv4_serialize(r.result))


# The IPv6 parser


def _ipv6_fail_or(write: Callable[[HostSteps, Any, str], None]) -> Describer:
    def describe(d: HostSteps, r: h.IPv6Run, step: str | None,
                 stop: Exception | None) -> None:
        failure = _failure(stop)
        if failure is not None:
            d.fail(failure)
        elif step is not None:
            write(d, r, step)
    return describe


def _ipv6_start(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    d.write("ipv6", [{"step": step}], "the input starts with ::: compress is 1",
            pointer=r.pointer, piece_index=r.piece_index)


def _piece(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    # what the step did, by where it leads: a piece to set, or the next piece after "::"
    if r.state is h.ipv6_set_piece:
        d.write("ipv6", d.own("IPv6 parser", step), "a piece with a leading zero: validation "
                "error", pointer=r.piece_start)
    else:
        d.write("ipv6", [{"step": step}], "compression", pointer=r.pointer,
                piece_index=r.piece_index)


def _set_piece(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    d.write("ipv6", [{"step": step}], f"piece {r.piece_index - 1} = {r.value:x}",
            pointer=r.pointer, pieces=list(r.address))


def _embedded(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    d.write("ipv6", [{"step": step}], "embedded IPv4 address", pointer=r.pointer,
            pieces=list(r.address))


def _end(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    if r.state is h.ipv6_return:
        d.write("ipv6", [{"step": step}], "expand the compression", pieces=list(r.address))
    else:
        d.write("ipv6", [{"step": step, "outcome": "return"}], "return address",
                pieces=list(r.address))


# The opaque-host parser


def _opaque(d: HostSteps, r: h.OpaqueHostRun, step: str | None,
            stop: Exception | None) -> None:
    failure = _failure(stop)
    if failure is not None:
        d.fail(failure)
        return
    ran = d.own("opaque-host parser", step)
    _add(ran, step, outcome="return")
    d.write("opaque-host", ran, "UTF-8 percent-encode with the C0 control set",
            result=r.result)


#: What each state's event says, by state function (a state not listed writes no event of its
#: own, only the failure it raises).
DESCRIBERS: dict[Callable[..., Any], Describer] = {
    h.host_parser_start: _start,
    h.host_parser_decode: _decode,
    h.host_parser_ipv6: _returns("IPv6 parser", "IPv6 parse the input without its brackets"),
    h.host_parser_opaque: _returns("opaque-host parser", "the URL is not special: "
                                   "opaque-host parse"),
    h.host_parser_domain: _domain,
    h.host_parser_failed: _failed,
    h.host_parser_checks: _checks,
    h.host_parser_ipv4: _returns("IPv4 parser", "asciiDomain ends in a number: IPv4 parse"),
    h.domain_strict: _strict,
    h.domain_strict_error: _strict_error,
    h.domain_to_ascii: _to_ascii,
    h.domain_result_checks: _result_checks,
    h.ipv4_split: _split,
    h.ipv4_part: _part,
    h.ipv4_range: _range,
    h.ipv4_result: _ipv4_result,
    h.ipv6_start: _ipv6_fail_or(_ipv6_start),
    h.ipv6_piece: _ipv6_fail_or(_piece),
    h.ipv6_set_piece: _ipv6_fail_or(_set_piece),
    h.ipv6_ipv4: _ipv6_fail_or(_embedded),
    h.ipv6_end: _ipv6_fail_or(_end),
    h.ipv6_return: _ipv6_fail_or(_end),
    h.opaque_host_parser: _opaque,
}
