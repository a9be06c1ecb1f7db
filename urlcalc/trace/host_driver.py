"""The driver of the host parser's steps: what turns the steps the host parser and the
algorithms it calls return (urlcalc.standard.host: the host, IPv4, IPv4 number, IPv6,
opaque-host and domain parsers) into the trace's described steps, and UTS #46's stages into
steps of their own.

An algorithm's observed run tells ``HostSteps`` before and after each state; after it, the
state's describer (``DESCRIBERS``, by state function) writes what the step did in words and
the variables it had in hand, and a failure the state raised is written as a failure step. No
step number is written here: every step cited is the one an algorithm returned, raised or
passed a failure on with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Unpack

from urlcalc.standard import host as h
from urlcalc.standard import steps as spec
from urlcalc.standard.host import HostFailure, HostRun, Report
from urlcalc.standard.observer import Observer, StepDetails, counts_only


class _Stage:
    """The UTS #46 observer: each stage as a step (depth 2) for the host-level observer."""

    __slots__ = ("counts_only", "drop", "mode", "observer")

    def __init__(self, observer: Observer, mode: str,
                 drop: Callable[[], None] | None = None) -> None:
        self.observer = observer
        self.mode = mode
        self.drop = drop
        self.counts_only = drop is not None or counts_only(observer)

    def __call__(self, name: str, details: dict[str, object]) -> None:
        if self.drop is not None:
            self.drop()
            return
        algorithm, step = spec.UTS46_STAGES[name]
        self.observer({"parser": "uts46", "algorithm": algorithm, "state": "UTS #46 " + name,
                       "step": step, "note": f"Unicode ToASCII ({self.mode}): {name}",
                       "details": details, "depth": 2})


#: The domain parser's states that run UTS #46 ToASCII, and in which mode.
_STAGE_MODES: dict[Callable[..., Any], str] = {h.domain_strict: "strict",
                                               h.domain_to_ascii: "relaxed"}


class HostSteps:
    """The driver of one run of an algorithm of the host parser (urlcalc.standard.observer's
    ``StepDriver``): the steps go to ``observer`` (a TraceRecorder, or the URL step's substeps),
    the validation errors each state raised (``raised``) are noted on their way to the run's
    report. With ``drop`` (the URL driver's, once the recorder is full), each step is only
    counted: nothing is built."""

    __slots__ = ("drop", "observer", "raised", "report", "stage")

    def __init__(self, observer: Observer, drop: Callable[[], None] | None = None) -> None:
        self.observer = observer
        self.drop = drop
        self.raised: list[str] = []
        self.report: Report | None = None
        self.stage: _Stage | None = None

    def write(self, parser: str, step: str | None, note: str, depth: int = 1,
              **details: Unpack[StepDetails]) -> None:
        if self.drop is not None:
            self.drop()
            return
        algorithm = h.ALGORITHM_OF_PARSER[parser]
        self.observer({"parser": parser, "algorithm": algorithm, "state": algorithm,
                       "step": step, "note": note, "depth": depth, **details})

    def _noting(self, name: str, offset: int | None, detail: str,
                cite: tuple[str, str | None] | None = None) -> None:
        self.raised.append(name)
        assert self.report is not None
        self.report(name, offset, detail, cite)

    def start(self, run: HostRun) -> None:
        if self.report is None:  # the run's first state: its errors are noted from now on
            self.report = run.report
            run.report = self._noting
        state = run.state
        mode = _STAGE_MODES.get(state) if state is not None else None
        if mode is not None:
            assert isinstance(run, h.DomainRun)
            stage = self.stage
            if stage is None:
                stage = self.stage = _Stage(self.observer, mode, self.drop)
            else:
                stage.mode = mode
            run.stages = stage
        self.raised = []  # a new list: a step written before may hold the last one

    def finish(self, run: HostRun, state: Callable[..., object], step: str | None,
               stop: Exception | None) -> None:
        describe = _EVERY_RUN.get(state)
        if describe is not None:
            describe(self, run, step, stop)
        elif step is not None and stop is None:
            applied = DESCRIBERS.get(state)
            if applied is not None:
                applied(self, run, step)
        if isinstance(stop, HostFailure) and not stop.via:
            # the failing step itself (a failure passed on has been written where it began)
            details: StepDetails = {**stop.details}
            if stop.error is not None:
                details["errors"] = [stop.error]
            details["outcome"] = "failure"
            self.write(stop.parser, stop.step, stop.says + ": failure", **details)


#: Describes the step a state returned.
Describer = Callable[[HostSteps, Any, str], None]
#: Describes what a state did however it ended (the step it returned or None, the failure it
#: raised or passed on).
RunDescriber = Callable[[HostSteps, Any, str | None, Exception | None], None]


# The host parser


def _start(d: HostSteps, r: h.HostParserRun, step: str) -> None:
    # what the step did, by where it leads
    if r.state is h.host_parser_ipv6:
        d.write("host", step, "IPv6 parse the input without its brackets", input=r.input)
    elif r.state is h.host_parser_opaque:
        d.write("host", step, "the URL is not special: opaque-host parse", input=r.input)
    elif r.state is h.host_parser_decode:
        d.write("host", step, "the input contains a percent-encoded byte: validation error",
                errors=d.raised)
    else:  # it went on to decode (host_parser_decode)
        _decode(d, r, step)


def _decode(d: HostSteps, r: h.HostParserRun, step: str) -> None:
    d.write("host", step, "percent-decode, then UTF-8 decode without BOM", input=r.input,
            domain=r.domain)


def _domain(d: HostSteps, r: h.HostParserRun, step: str | None,
            stop: Exception | None) -> None:
    if isinstance(stop, HostFailure):  # the host parser's step that passed it on
        d.write("host", stop.via[-1][1], "asciiDomain is failure: return failure",
                outcome="failure")
    elif r.state is h.host_parser_ipv4:
        d.write("host", step, "ends in a number: IPv4 parse", domain=r.ascii_domain)
    else:
        d.write("host", step, "the host is a domain", result=r.ascii_domain)


# The domain parser


def _strict(d: HostSteps, r: h.DomainRun, step: str) -> None:
    errors = r.strict_errors
    d.write("domain", step, "strictResult: domain parser ToASCII with beStrict true"
            + (": failure (" + ", ".join(errors) + ")" if errors else ": no error"),
            result=r.strict_result)


def _strict_error(d: HostSteps, r: h.DomainRun, step: str) -> None:
    d.write("domain", step, "strictResult is a failure value: validation error (this step "
            "does not return)", errors=d.raised)


def _to_ascii(d: HostSteps, r: h.DomainRun, step: str) -> None:
    if r.lowered is not None:
        d.write("domain", step, "ASCII domain: the result is the domain, lowercased",
                result=r.result)
    else:
        d.write("domain", step, "ToASCII with beStrict false", result=r.result)


# The IPv4 parser and the IPv4 number parser


def _split(d: HostSteps, r: h.IPv4Run, step: str) -> None:
    n = len(r.parts)
    d.write("ipv4", step, f"{n} part{'s' if n != 1 else ''}"
            + (" (a trailing empty part removed, step 2)" if r.input.endswith(".") else ""),
            parts=r.parts, errors=d.raised)


def _part(d: HostSteps, r: h.IPv4Run, step: str | None, stop: Exception | None) -> None:
    # The IPv4 number parser's steps (it returns them with its answer), then the part's own.
    value, validation_error, radix, first, last = r.number
    part = r.part
    if part == "":
        d.write("ipv4-number", first, "the part is the empty string: failure", part=part,
                offset=r.offset, depth=2)
    else:
        d.write("ipv4-number", first, f"R is {radix}, validationError is "
                f"{str(validation_error).lower()}", part=part, offset=r.offset, R=radix,
                validationError=validation_error, depth=2)
    if last is not None:
        if value is None:
            d.write("ipv4-number", last, f"not all radix-{radix} digits: failure", depth=2)
        else:
            d.write("ipv4-number", last, "nothing after the prefix: (0, true)", depth=2)
    if step is not None and stop is None:
        d.write("ipv4", step, f"part {part!r}: validationError is true", errors=d.raised)


def _numbers(d: HostSteps, r: h.IPv4Run, step: str) -> None:
    cap = h.IPV4_NUMBER_CAP
    d.write("ipv4", step, "the numbers of the parts",
            numbers=[str(n) if n < cap else f">= {cap}" for n in r.numbers])


def _range(d: HostSteps, r: h.IPv4Run, step: str) -> None:
    d.write("ipv4", step, "a number exceeds 255: validation error", errors=d.raised)


def _ipv4_result(d: HostSteps, r: h.IPv4Run, step: str) -> None:
    d.write("ipv4", step, "return ipv4", result=h.ipv4_serialize(r.result))


# The IPv6 parser


def _ipv6_start(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    d.write("ipv6", step, "the input starts with ::: compress is 1", pointer=r.pointer,
            piece_index=r.piece_index)


def _piece(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    # what the step did, by where it leads: a piece to set, or the next piece after "::"
    if r.state is h.ipv6_set_piece:
        d.write("ipv6", step, "a piece with a leading zero: validation error",
                pointer=r.piece_start, errors=d.raised)
    else:
        d.write("ipv6", step, "compression", pointer=r.pointer, piece_index=r.piece_index)


def _set_piece(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    d.write("ipv6", step, f"piece {r.piece_index - 1} = {r.value:x}", pointer=r.pointer,
            pieces=list(r.address))


def _embedded(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    d.write("ipv6", step, "embedded IPv4 address", pointer=r.pointer, pieces=list(r.address))


def _expand(d: HostSteps, r: h.IPv6Run, step: str) -> None:
    d.write("ipv6", step, "expand the compression", pieces=list(r.address))


# The opaque-host parser


def _opaque(d: HostSteps, r: h.OpaqueHostRun, step: str) -> None:
    d.write("opaque-host", step, "UTF-8 percent-encode with the C0 control set",
            result=r.result)


#: What each state's step says, by state function (a state not listed writes no step of its
#: own: it runs an algorithm whose steps are written, or a failure it raises is).
DESCRIBERS: dict[Callable[..., Any], Describer] = {
    h.host_parser_start: _start,
    h.host_parser_decode: _decode,
    h.domain_strict: _strict,
    h.domain_strict_error: _strict_error,
    h.domain_to_ascii: _to_ascii,
    h.ipv4_split: _split,
    h.ipv4_numbers: _numbers,
    h.ipv4_range: _range,
    h.ipv4_result: _ipv4_result,
    h.ipv6_start: _ipv6_start,
    h.ipv6_piece: _piece,
    h.ipv6_set_piece: _set_piece,
    h.ipv6_ipv4: _embedded,
    h.ipv6_end: _expand,
    h.opaque_host_parser: _opaque,
}
#: The states whose describer is told however they ended: the host parser's step that passes
#: the domain parser's failure on writes a step of its own; the IPv4 number parser's steps are
#: written before the IPv4 parser's failure that follows from them.
_EVERY_RUN: dict[Callable[..., Any], RunDescriber] = {
    h.host_parser_domain: _domain,
    h.ipv4_part: _part,
}
