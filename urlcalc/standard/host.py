"""Hosts (url.bs: "Hosts (domains and IP addresses)"): parsing, serializing, IDNA.

Validation errors go to ``report(name, offset, detail)`` where ``offset`` is the code-point offset
in the host input (None when unknown).

The host parser and the algorithms it calls (the IPv4, IPv6, opaque-host and domain parsers) are
written as the basic URL parser's states are: each runs as a sequence of state functions over
its variables (a ``HostRun``), each state returning the number of the spec step that applied
(None: no step the trace shows) or raising ``HostFailure`` with the step that returned failure.
``_run`` runs them: with no observer it only calls the states; with one, it tells the
observer's driver (urlcalc.standard.observer's ``StepDriver``: urlcalc.trace.host_driver's)
before and after each state, and the driver writes the trace's steps. The IPv4 number parser
returns the steps that applied with its result.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol, Unpack, cast

from urlcalc.standard import uts46
from urlcalc.standard.infra import is_url_code_point
from urlcalc.standard.observer import Observer, StepDetails, StepDriver, driver_of
from urlcalc.standard.percent import C0_CONTROL_SET, percent_decode, utf8_percent_encode
from urlcalc.standard.record import EMPTY_HOST, Domain, Host, OpaqueHost
from urlcalc.standard.variants import (
    ASCII_DOMAIN_TO_ASCII_FALLBACK,
    CHECK_HYPHENS_BE_STRICT,
    DOMAIN_EMPTY_AFTER_TO_ASCII,
    DOMAIN_ENDING_IN_NUMBER_IS_IPV4,
    DOMAIN_STRICT_TO_ASCII_ERROR,
    FORBIDDEN_DOMAIN_CODE_POINT,
    HOSTS_FORBID_LT_GT_CARET,
    HOSTS_FORBID_PIPE,
    IDNA_CHECK_HYPHENS_FALSE,
    IDNA_NONTRANSITIONAL,
    IPV4_EMPTY_PART_IS_DOMAIN,
    IPV4_ERRORS_WHERE_FOUND,
    IPV4_IN_IPV6_NUMBERS_SEEN,
    IPV4_LAST_NUMBER_RANGE,
    IPV4_NUMBER_0X,
    IPV4_NUMBER_EMPTY_IS_NON_DECIMAL,
    IPV4_NUMBER_ZERO,
    IPV4_PARSER,
    IPV4_SYNTAX_VIOLATIONS,
    IPV4_TOO_FEW_PARTS,
    IPV6_PIECE_LEADING_ZERO,
    OPAQUE_HOST_PERCENT_AND_IPV6,
    OPAQUE_HOST_VALIDITY,
    any_undone,
    undone,
)


class HostFailure(Exception):
    """An algorithm of the host parser returned failure.

    ``algorithm`` and ``step`` cite the step that returned failure (url.bs names), ``error``
    names the validation error that step raises (None when it raises none, as the domain
    parser's steps), ``offset`` is the code-point offset in the host input it concerns (when
    known), ``note`` says why in words, and ``via`` lists the steps that passed the failure on
    (innermost first: the host parser's "return failure" steps). For the trace: ``parser`` is
    the algorithm's short name (ALGORITHM_OF_PARSER), ``says`` the failing step in brief and
    ``details`` what the step had in hand."""

    def __init__(self, error: str | None, algorithm: str, step: str, note: str,
                 offset: int | None = None, *, parser: str = "", says: str | None = None,
                 details: StepDetails | None = None) -> None:
        super().__init__(error or note)
        self.error = error
        self.algorithm = algorithm
        self.step = step
        self.note = note
        self.offset = offset
        self.via: tuple[tuple[str, str | None], ...] = ()
        self.parser = parser
        self.says = says if says is not None else note
        self.details: StepDetails = details if details is not None else {}

    def passed_on(self, algorithm: str, step: str | None) -> HostFailure:
        self.via = (*self.via, (algorithm, step))
        return self


Cite = tuple[str, str | None]


class Report(Protocol):
    """Where validation errors go: ``name``, the code-point ``offset`` in the host input (None
    when unknown), ``detail``, and ``cite``: the algorithm and step that raised it."""

    def __call__(self, name: str, offset: int | None, detail: str,
                 cite: Cite | None = None) -> None: ...


def _no_report(name: str, offset: int | None, detail: str, cite: Cite | None = None) -> None:
    pass


_HEX = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")
_OCTAL = frozenset("01234567")
# IPv4 numbers: 2 ** 32 and more are all "too big" alike (see ipv4_number_parse). The digit
# counts are those of 2 ** 32 - 1 in each radix: a longer string (less leading zeros) is bigger.
IPV4_NUMBER_CAP = 2 ** 32
_MAX_IPV4_DIGITS = {8: 11, 10: 10, 16: 8}
# url.bs: Host miscellaneous
FORBIDDEN_HOST_CODE_POINTS = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
FORBIDDEN_DOMAIN_CODE_POINTS = (
    FORBIDDEN_HOST_CODE_POINTS | frozenset(chr(i) for i in range(0x20)) | frozenset("%\x7f")
)
_FORBIDDEN_DOMAIN_RE = re.compile("[" + re.escape("".join(sorted(FORBIDDEN_DOMAIN_CODE_POINTS)))
                                  + "]")
# The code points that became forbidden host (and so domain) code points, by variant; undone, a
# host may hold them (_forbidden_then).
_FORBIDDEN_SINCE = (
    (HOSTS_FORBID_LT_GT_CARET, frozenset("<>^")),  # "Forbid <, >, and ^ in hosts" (2020)
    (HOSTS_FORBID_PIPE, frozenset("|")),  # "Forbid U+007C (|) in hosts" (2021)
)
# "Forbid more code points in (non-opaque) domains" (2022): before, the domain parser checked the
# forbidden host code points (which held U+0025 (%) then), not these too.
_FORBIDDEN_DOMAIN_SINCE_2022 = FORBIDDEN_DOMAIN_CODE_POINTS - FORBIDDEN_HOST_CODE_POINTS - {"%"}


def _forbidden_then(domain: bool) -> frozenset[str]:
    """The forbidden host (``domain``: domain) code points with the undone changes undone."""
    forbidden = FORBIDDEN_DOMAIN_CODE_POINTS if domain else FORBIDDEN_HOST_CODE_POINTS
    for name, since in _FORBIDDEN_SINCE:
        if undone(name):
            forbidden -= since
    if domain and undone(FORBIDDEN_DOMAIN_CODE_POINT):
        forbidden -= _FORBIDDEN_DOMAIN_SINCE_2022
    return forbidden
_PERCENT_ENCODED_RE = re.compile("%[0-9A-Fa-f]{2}")
# A lowercase ASCII domain that strict UTS #46 ToASCII passes without error: LDH labels of 1-63,
# no leading/trailing hyphen, no "--" in positions 3-4 (covers "xn--", which needs decoding),
# no empty label (a trailing dot is one: IdnaTestV2 reports A4_2), at most 253 long.
_STRICT_ASCII_OK = re.compile(
    r"(?=.{1,253}$)(?:(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*"
    r"(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
)


# The trace's short parser names and the algorithms (url.bs names) they cite.
ALGORITHM_OF_PARSER = {
    "host": "host parser", "ipv4": "IPv4 parser", "ipv4-number": "IPv4 number parser",
    "ipv6": "IPv6 parser", "opaque-host": "opaque-host parser", "domain": "domain parser",
}


def _failure(report: Report, parser: str, step: str, note: str, error: str | None = None,
             at: int | None = None, says: str | None = None,
             **details: Unpack[StepDetails]) -> HostFailure:
    """``step`` of ``parser``'s algorithm returns failure, raising the validation ``error``
    first when it raises one: the error reported (at offset ``at`` in the host input, when
    known), and the HostFailure to raise (``says``: the step in brief for the trace, default
    ``note``; ``details``: what the trace shows of it)."""
    algorithm = ALGORITHM_OF_PARSER[parser]
    if error is not None:
        report(error, at, "", (algorithm, step))
    return HostFailure(error, algorithm, step, note, at, parser=parser, says=says,
                       details=details)


# ---------------------------------------------------------------------------------------------
# Running an algorithm's states


class HostRun:
    """One run of an algorithm of the host parser: the state to run next (None: done), where
    validation errors go, the observer (passed on to the algorithms it calls), and its result;
    each algorithm's run adds its own variables. Traced (``observer`` is not None), ``driver``
    is the driver of its steps (set by ``_run``)."""

    __slots__ = ("driver", "observer", "report", "state")

    state: Callable[[Any], str | None] | None
    report: Report
    observer: Observer | None
    driver: HostStepDriver

    def ran(self, step: str, calls: str | None = None) -> None:
        """Traced only (the states ask ``observer is not None`` first): tell the driver of a
        step that ran before the one the state returns, and that the trace lists (it calls
        ``calls``, or changes what the algorithm returns)."""
        self.driver.ran(self, step, calls)


class HostStepDriver(StepDriver[HostRun], Protocol):
    """The driver of an algorithm of the host parser (urlcalc.trace.host_driver's
    ``HostSteps``): a ``StepDriver`` that is also told of the steps a state ran before the one
    it returns (``ran``)."""

    def ran(self, run: HostRun, step: str, calls: str | None) -> None: ...


def host_steps(observer: Observer) -> HostStepDriver:
    """The driver that records a run's steps for ``observer`` (urlcalc.standard.observer's
    ``Driven``)."""
    return cast("HostStepDriver", driver_of(observer, "host_steps", "host parser"))


def _run(run: HostRun) -> None:
    """Run ``run``'s states until one leaves no next state; with an observer, its driver is told
    before and after each state, and of the step it returned or raised with."""
    observer = run.observer
    if observer is None:
        state = run.state
        while state is not None:
            state(run)
            state = run.state
        return
    driver = run.driver = host_steps(observer)
    while (state := run.state) is not None:
        driver.start(run)
        try:
            step = state(run)
        except HostFailure as stop:
            driver.finish(run, state, stop.step, stop)
            raise
        driver.finish(run, state, step, None)


# ---------------------------------------------------------------------------------------------
# url.bs: host parsing, the host parser


class HostParserRun(HostRun):
    """The host parser's variables: its input, whether the host is opaque, the domain (step 5)
    and asciiDomain (step 6), and the host it returns."""

    __slots__ = ("ascii_domain", "domain", "failure", "input", "is_opaque", "result")

    def __init__(self, input: str, is_opaque: bool, report: Report,
                 observer: Observer | None) -> None:
        self.state = host_parser_start
        self.report = report
        self.observer = observer
        self.input = input
        self.is_opaque = is_opaque
        self.domain = input
        self.ascii_domain = ""
        self.result: Host = EMPTY_HOST
        self.failure: HostFailure | None = None


def host_parse(input: str, is_opaque: bool = False, report: Report = _no_report,
               observer: Observer | None = None) -> Host:
    """Return a host or raise HostFailure."""
    if observer is None and not is_opaque and "%" not in input and input.isascii() \
            and not any_undone():
        # The untraced path's shortcut for the commonest host: an ASCII domain that the domain
        # parser returns lowercased without a validation error (step 6: strict ToASCII passes,
        # hence no forbidden code point) and that does not end in a number (step 8).
        lowered = input.lower()
        if _STRICT_ASCII_OK.fullmatch(lowered) and not ends_in_a_number(lowered):
            return Domain(lowered)
    run = HostParserRun(input, is_opaque, report, observer)
    _run(run)
    return run.result


def host_parser_start(h: HostParserRun) -> str | None:
    input = h.input
    # step 1
    if input.startswith("["):
        # step 1.1
        if not input.endswith("]"):
            raise _failure(h.report, "host", "1.1", "the input starts with [ but does not end "
                           "with ]", "IPv6-unclosed", says="starts with [ but does not end with ]",
                           input=input)
        if h.is_opaque and undone(OPAQUE_HOST_PERCENT_AND_IPV6):
            # variant: before "Allow % and IPv6 addresses in non-special URL hosts", the
            # URL-host parser: "If input contains a forbidden host code point, syntax
            # violation, return failure"
            raise _failure(h.report, "opaque-host", "1", "the input contains a forbidden host "
                           "code point, U+005B", "host-invalid-code-point", 0)
        h.state = host_parser_ipv6
        return "1.2"
    # step 2
    if h.is_opaque:
        h.state = host_parser_opaque
        return "2"
    # step 3: Assert input is not the empty string.
    # step 4
    if "%" in input and _PERCENT_ENCODED_RE.search(input) and \
            not undone(DOMAIN_STRICT_TO_ASCII_ERROR):  # (variant: before, no such step)
        h.report("domain-percent-encoded", None, "", ("host parser", "4"))
        h.state = host_parser_decode
        return "4"
    return host_parser_decode(h)


def host_parser_ipv6(h: HostParserRun) -> str:
    # step 1.2 (offsets reported by the IPv6 parser count from after the "[")
    report = h.report

    def inner(name: str, offset: int | None, detail: str, cite: Cite | None = None) -> None:
        report(name, None if offset is None else offset + 1, detail, cite)

    try:
        h.result = ipv6_parse(h.input[1:-1], inner, h.observer)
    except HostFailure as e:
        if e.offset is not None:
            e.offset += 1
        raise e.passed_on("host parser", "1.2") from None
    h.state = None
    return "1.2"


def host_parser_opaque(h: HostParserRun) -> str:
    # step 2
    try:
        opaque = opaque_host_parse(h.input, h.report, h.observer)
    except HostFailure as e:
        raise e.passed_on("host parser", "2") from None
    # an opaque host is non-empty: the empty string is the empty host
    h.result = OpaqueHost(opaque) if opaque else EMPTY_HOST
    h.state = None
    return "2"


def host_parser_decode(h: HostParserRun) -> str:
    # step 5
    input = h.input
    h.domain = percent_decode(input).decode("utf-8", "replace") if "%" in input else input
    h.state = host_parser_domain
    return "5"


def host_parser_domain(h: HostParserRun) -> str | None:
    # step 6 (a failure is step 7's to return: the trace shows the step that calls the domain
    # parser, then the domain parser's steps, then the step that returns failure)
    domain = h.domain
    try:
        h.ascii_domain = domain_parse(domain, False, h.report, h.observer)
    except HostFailure as e:
        input = h.input
        if domain is not input and e.offset is not None:
            # percent-decoded: find the code point in the input itself, if it is there
            i = input.find(domain[e.offset])
            e.offset = i if i >= 0 else None
        if h.observer is None:  # untraced: step 7 at once
            raise e.passed_on("host parser", "7") from None
        h.failure = e
        h.state = host_parser_failed
        return "6"
    if h.observer is None:  # untraced: steps 8-9 at once
        return host_parser_checks(h)
    h.state = host_parser_checks
    return "6"


def host_parser_failed(h: HostParserRun) -> None:
    # step 7
    assert h.failure is not None
    raise h.failure.passed_on("host parser", "7") from None


def host_parser_checks(h: HostParserRun) -> str | None:
    ascii_domain = h.ascii_domain
    # step 8 (its step is host_parser_ipv4's: it returns the IPv4 parser's result)
    if ends_in_a_number(ascii_domain):
        h.state = host_parser_ipv4
        return None
    # step 9
    h.result = Domain(ascii_domain)
    h.state = None
    return "9"


def host_parser_ipv4(h: HostParserRun) -> str:
    # step 8
    if undone(IPV4_PARSER) or (undone(DOMAIN_ENDING_IN_NUMBER_IS_IPV4)
                               and _ipv4_parser_returns_input_2015(h.ascii_domain)):
        # variant: before "Reject non-IPv4 domains that end in numbers", "If ipv4Host is an
        # IPv4 address or failure, return ipv4Host. Return asciiDomain."; before "Define an
        # IPv4 parser that is compatible with Chrome", no IPv4 parser: "Return asciiDomain"
        h.result = Domain(h.ascii_domain)
        h.state = None
        return "9"
    try:
        h.result = ipv4_parse(h.ascii_domain, h.report, h.observer)
    except HostFailure as e:
        raise e.passed_on("host parser", "8") from None
    h.state = None
    return "8"


# ---------------------------------------------------------------------------------------------
# url.bs: IDNA, the domain parser


def _strict_to_ascii(domain: str, observer: uts46.StageObserver) -> tuple[str, list[str]]:
    # CheckHyphens is beStrict (variant: before that change it was false; before "IDNA: use
    # proposed UTS46 flags", there was no such flag: hyphens were checked)
    return uts46.to_ascii(domain, check_hyphens=not undone(CHECK_HYPHENS_BE_STRICT)
                          or undone(IDNA_CHECK_HYPHENS_FALSE),
                          check_bidi=True, check_joiners=True,
                          use_std3_ascii_rules=True, transitional_processing=False,
                          verify_dns_length=True, ignore_invalid_punycode=False,
                          observer=observer)


def _relaxed_to_ascii(domain: str, observer: uts46.StageObserver) -> tuple[str, list[str]]:
    # (variants: before "IDNA: use proposed UTS46 flags", no CheckHyphens flag: checked;
    # before "Use Nontransitional_Processing for IDNA ToASCII", Transitional_Processing)
    return uts46.to_ascii(domain, check_hyphens=undone(IDNA_CHECK_HYPHENS_FALSE),
                          check_bidi=True, check_joiners=True, use_std3_ascii_rules=False,
                          transitional_processing=undone(IDNA_NONTRANSITIONAL),
                          verify_dns_length=False, ignore_invalid_punycode=False,
                          observer=observer)


class DomainRun(HostRun):
    """The domain parser's variables; ``stages``: where UTS #46 reports its stages (None: not
    traced; a driver sets it for the states that run ToASCII)."""

    __slots__ = ("be_strict", "domain", "lowered", "result", "stages", "strict_errors",
                 "strict_result")

    def __init__(self, domain: str, be_strict: bool, report: Report,
                 observer: Observer | None) -> None:
        self.state = domain_strict
        self.report = report
        self.observer = observer
        self.domain = domain
        self.be_strict = be_strict
        self.lowered: str | None = None
        self.strict_result = ""
        self.strict_errors: list[str] = []
        self.result = ""
        self.stages: uts46.StageObserver = None


def domain_parse(domain: str, be_strict: bool, report: Report = _no_report,
                 observer: Observer | None = None) -> str:
    """Return a domain or raise HostFailure."""
    run = DomainRun(domain, be_strict, report, observer)
    _run(run)
    return run.result


def domain_strict(d: DomainRun) -> str:
    # step 1
    domain = d.domain
    lowered = d.lowered = domain.lower() if domain.isascii() else None
    if lowered is not None and d.stages is None and _STRICT_ASCII_OK.fullmatch(lowered):
        d.strict_result, d.strict_errors = lowered, list[str]()
    else:
        d.strict_result, d.strict_errors = _strict_to_ascii(domain, d.stages)
    d.state = domain_strict_error if d.strict_errors or d.be_strict else domain_to_ascii
    return "1"


def domain_strict_error(d: DomainRun) -> str | None:
    strict_errors = d.strict_errors
    # step 2 (variant: before "Close gap between URL writing and parser sections", with
    # beStrict false no strict run reported an error: steps 5, 6.2 and 7 did)
    if strict_errors and (d.be_strict or not undone(DOMAIN_STRICT_TO_ASCII_ERROR)):
        d.report("domain-to-ASCII", None, " ".join(strict_errors), ("domain parser", "2"))
    # step 3
    if d.be_strict:
        if strict_errors:  # (not traced: beStrict is true only outside the URL parser)
            raise _failure(d.report, "domain", "3.1", "strictResult is a failure value")
        d.result = d.strict_result
        d.state = None
        return "3.2"
    d.state = domain_to_ascii
    return "2" if strict_errors else None


def domain_to_ascii(d: DomainRun) -> str:
    d.state = domain_result_checks
    # step 4-5 (variant: before "Add Unicode ToASCII fallback for ASCII domains", an ASCII
    # domain went through step 6 as any other; relaxed ToASCII fails only where strict did)
    if d.lowered is not None and not (d.strict_errors and undone(ASCII_DOMAIN_TO_ASCII_FALLBACK)):
        if d.strict_errors and undone(DOMAIN_STRICT_TO_ASCII_ERROR):
            # variant: before "Close gap ...", step 5.1: "If running Unicode ToASCII [relaxed]
            # ... is a failure value, domain-to-ASCII validation error"
            errors = _relaxed_to_ascii(d.domain, None)[1]
            if errors:
                d.report("domain-to-ASCII", None, " ".join(errors), ("domain parser", "5"))
        d.result = d.lowered
        return "5"
    # step 6
    if not d.strict_errors and d.stages is None and not any_undone():
        # The relaxed run cannot fail where the strict one passed: same result (traced, it runs,
        # for its stages; while a change is undone it may not be the same: Transitional_Processing).
        result, errors = d.strict_result, list[str]()
    else:
        if d.stages is not None:
            d.ran("6.1", "UTS #46 ToASCII")
        result, errors = _relaxed_to_ascii(d.domain, d.stages)
    if errors:
        raise _failure(d.report, "domain", "6.2", "domain parser ToASCII with beStrict false is "
                       "a failure value (" + ", ".join(errors) + ")",
                       # variant: before "Close gap ...", "domain-to-ASCII validation error,
                       # return failure"
                       "domain-to-ASCII" if undone(DOMAIN_STRICT_TO_ASCII_ERROR) else None,
                       says="ToASCII with beStrict false failed", uts46_errors=errors)
    d.result = result
    return "6.1"


def domain_result_checks(d: DomainRun) -> str:
    result = d.result
    # step 7 (variant: before "Verify domain is not empty after Unicode ToASCII", no such step;
    # before "Close gap ...", "domain-to-ASCII validation error, return failure")
    if result == "" and not undone(DOMAIN_EMPTY_AFTER_TO_ASCII):
        raise _failure(d.report, "domain", "7", "the result is the empty string",
                       "domain-to-ASCII" if undone(DOMAIN_STRICT_TO_ASCII_ERROR) else None)
    # step 8
    forbidden = _FORBIDDEN_DOMAIN_RE.search(result)
    if forbidden and any_undone():
        # variant: a code point forbidden since a change undone here is not forbidden
        then = _forbidden_then(True)
        forbidden = next((m for m in _FORBIDDEN_DOMAIN_RE.finditer(result) if m.group() in then),
                         None)
    if forbidden:
        domain = d.domain
        ch = forbidden.group()
        # Where that code point stands in the domain given (the result may be mapped).
        offset = forbidden.start() if result is domain or domain[forbidden.start():
                                                                forbidden.start() + 1] == ch \
            else domain.find(ch)
        raise _failure(d.report, "domain", "8",
                       f"the result contains a forbidden domain code point, U+{ord(ch):04X}",
                       # variant: before "Close gap ...", "domain-invalid-code-point validation
                       # error, return failure"
                       "domain-invalid-code-point" if undone(DOMAIN_STRICT_TO_ASCII_ERROR)
                       else None, at=offset if offset >= 0 else None, result=result)
    # step 9
    d.state = None
    return "9"


# url.bs: IDNA, domain to Unicode
def domain_to_unicode(domain: str) -> str:
    result, errors = uts46.to_unicode(domain, check_hyphens=undone(IDNA_CHECK_HYPHENS_FALSE),
                                      check_bidi=True,
                                      check_joiners=True, use_std3_ascii_rules=False,
                                      transitional_processing=False,
                                      ignore_invalid_punycode=False)
    # step 2 (variant: before "Add Unicode ToASCII fallback for ASCII domains", "Signify
    # domain-to-Unicode validation errors for any returned errors, and then, return result")
    return domain if errors and not undone(ASCII_DOMAIN_TO_ASCII_FALLBACK) else result


# url.bs: host parsing, the ends in a number checker
def ends_in_a_number(input: str) -> bool:
    # step 2-3
    parts = input.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    # step 4
    last = parts[-1]
    # step 5
    if last != "" and last.isascii() and last.isdigit():
        return True
    # step 6
    return ipv4_number(last)[0] is not None


def _ipv4_parser_returns_input_2015(input: str) -> bool:
    """The IPv4 parser as it was from 2015 to "Reject non-IPv4 domains that end in numbers"
    (2021): true when it returned ``input`` itself (a domain, not an IPv4 address): "If parts's
    size is greater than 4, then return input", "If part is the empty string, then return
    input", "If result is failure, then return input". (Otherwise it ran as today's.)"""
    parts = input.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    # (variant: before "If IPv4 parser finds empty labels, return input as domain", an empty
    # part went to the IPv4 number parser)
    empty_is_domain = not undone(IPV4_EMPTY_PART_IS_DOMAIN)
    return len(parts) > 4 or any((p == "" and empty_is_domain) or ipv4_number(p)[0] is None
                                 for p in parts)


# ---------------------------------------------------------------------------------------------
# url.bs: host parsing, the IPv4 parser


class IPv4Run(HostRun):
    """The IPv4 parser's variables: ``part`` (at ``offset`` in the input, the ``index``-th;
    the next part starts at ``end``) and ``number``, the IPv4 number parser's answer for it
    (ipv4_number)."""

    __slots__ = ("deferred", "end", "index", "input", "number", "numbers", "offset", "part",
                 "parts", "result")

    def __init__(self, input: str, report: Report, observer: Observer | None) -> None:
        self.state = ipv4_split
        self.report = report
        self.observer = observer
        self.input = input
        self.parts: list[str] = []
        self.numbers: list[int] = []
        self.part = ""
        self.number: IPv4Number = (None, False, 10, None, None)
        self.index = 0
        self.offset = 0
        self.end = 0
        self.result = 0
        # variant: before "Redo validation errors in the IPv4 parser", the validationError
        # reported once after every part parsed (named here by its first cause)
        self.deferred: str | None = None


def ipv4_parse(input: str, report: Report = _no_report, observer: Observer | None = None) -> int:
    run = IPv4Run(input, report, observer)
    _run(run)
    return run.result


def ipv4_split(r: IPv4Run) -> str:
    # step 1
    parts = r.parts = r.input.split(".")
    # step 2
    if parts[-1] == "":
        if undone(IPV4_SYNTAX_VIOLATIONS):  # variant: before "Report all IPv4 ...", none
            pass
        elif undone(IPV4_ERRORS_WHERE_FOUND):  # variant: before, "Set validationError to true"
            r.deferred = r.deferred or "IPv4-empty-part"
        else:
            r.report("IPv4-empty-part", None, "", ("IPv4 parser", "2.1"))
        if len(parts) > 1:
            parts.pop()
            if r.observer is not None:
                r.ran("2.2")
    # step 3 (variant: before "Valid domain needs to account for ending with a number", no such
    # step)
    too_few = len(parts) < 4 and not undone(IPV4_TOO_FEW_PARTS)
    if too_few:
        r.report("IPv4-too-few-parts", None, "", ("IPv4 parser", "3"))
    # step 4
    if len(parts) > 4:
        raise _failure(r.report, "ipv4", "4", "more than 4 parts", "IPv4-too-many-parts",
                       parts=parts)
    # step 5
    r.state = ipv4_part
    return "3" if too_few else "1"


def ipv4_part(r: IPv4Run) -> str:
    # step 6: for each part
    part = r.part = r.parts[r.index]
    r.offset = r.end
    # step 6.1
    if r.observer is not None:
        r.ran("6.1", "IPv4 number parser")
    number = r.number = ipv4_number(part)
    value = number[0]
    # step 6.2
    if value is None:
        raise _failure(r.report, "ipv4", "6.2", f"the part {part!r} is not an IPv4 number",
                       "IPv4-non-numeric-part", r.offset, says=f"part {part!r} is not numeric")
    # step 6.4
    r.numbers.append(value)
    r.index += 1
    r.end += len(part) + 1
    if r.index == len(r.parts):
        r.state = ipv4_numbers
    # step 6.3
    if number[1]:
        if undone(IPV4_SYNTAX_VIOLATIONS):  # variant: before "Report all IPv4 ...", none
            pass
        elif undone(IPV4_ERRORS_WHERE_FOUND):  # variant: before, "set validationError to true"
            r.deferred = r.deferred or "IPv4-non-decimal-part"
        else:
            r.report("IPv4-non-decimal-part", None, "", ("IPv4 parser", "6.3"))
    return "6.4"


def ipv4_numbers(r: IPv4Run) -> str:
    # step 6.4, for every part
    if r.deferred is not None:
        # variant: before "Redo validation errors in the IPv4 parser", "If validationError is
        # true, validation error"
        r.report(r.deferred, None, "", ("IPv4 parser", "7"))
    r.state = ipv4_range if any(n > 255 for n in r.numbers) else ipv4_result
    return "6.4"


def ipv4_range(r: IPv4Run) -> str:
    # step 7: a number is greater than 255 (variant: before "Report all IPv4 syntax
    # violations", no such step)
    if not undone(IPV4_SYNTAX_VIOLATIONS):
        r.report("IPv4-out-of-range-part", None, "", ("IPv4 parser", "7"))
    r.state = ipv4_result
    return "7"


def ipv4_result(r: IPv4Run) -> str:
    numbers = r.numbers
    # step 8
    if any(n > 255 for n in numbers[:-1]):
        raise _failure(r.report, "ipv4", "8", "a number before the last exceeds 255")
    # step 9 (variant: before "Off-by-one error in IPv4 parser", 256^(4 - n))
    last = numbers[-1]
    if last >= 256 ** (5 - len(numbers)) or (
            last >= 256 ** (4 - len(numbers)) and undone(IPV4_LAST_NUMBER_RANGE)):
        raise _failure(r.report, "ipv4", "9", "the last number is greater than or "
                       f"equal to 256^{5 - len(numbers)}",
                       says=f"the last number is 256^{5 - len(numbers)} or more")
    # step 10-13
    ipv4 = numbers[-1]
    for counter, n in enumerate(numbers[:-1]):
        ipv4 += n * 256 ** (3 - counter)
    r.result = ipv4
    r.state = None
    # step 14
    return "14"


#: The IPv4 number parser's answer: the number (None: failure), validationError, R, and the
#: steps that applied: the first (step 1, the empty string, or the step that chose R), the last
#: (the step that returns: 6, 7 or 9; None when step 1 returned failure).
IPv4Number = tuple[int | None, bool, int, str | None, str | None]


# url.bs: host parsing, the IPv4 number parser
def ipv4_number(input: str) -> IPv4Number:
    """The IPv4 number parser, with the steps that applied (see IPv4Number)."""
    # step 1 (variant: before "Reject non-IPv4 domains that end in numbers", no such step: an
    # empty part, when the IPv4 parser of then did not return input for it, went on)
    if input == "" and not (undone(DOMAIN_ENDING_IN_NUMBER_IS_IPV4)
                            and undone(IPV4_EMPTY_PART_IS_DOMAIN)):
        return (None, False, 10, "1", None)
    # step 2-5
    if input == "0" and undone(IPV4_NUMBER_ZERO):
        # variant: before 'Handle "0" as input', "at least one code point": octal, then
        # nothing left to parse: failure
        return (None, True, 8, "5", "7")
    if len(input) >= 2 and input[0] == "0":
        if input[1] in "xX":
            validation_error, input, radix, step = True, input[2:], 16, "4"
        else:
            validation_error, input, radix, step = True, input[1:], 8, "5"
    else:
        validation_error, radix, step = False, 10, "3"
    # step 6 (variant: before "Correct IPv4 number parser", "then return 0": no validationError)
    if input == "":
        if undone(IPV4_NUMBER_0X):  # variant: before "Apparently 0x is an IPv4 number", none
            return (None, validation_error, radix, step, "7")
        return (0, not undone(IPV4_NUMBER_EMPTY_IS_NON_DECIMAL), radix, step, "6")
    # step 7
    digits = _OCTAL if radix == 8 else _DIGITS if radix == 10 else _HEX
    if not all(ch in digits for ch in input):
        return (None, validation_error, radix, step, "7")
    # step 8-9. A number of IPV4_NUMBER_CAP or more fails the IPv4 parser's range checks (steps 8
    # and 9 compare with 255 and 256 ** (5 - n) <= 2 ** 32) exactly as its true value would, so
    # a long digit string is read as IPV4_NUMBER_CAP without converting it: int() is quadratic on
    # long decimal strings and refuses more than 4,300 digits (sys.get_int_max_str_digits).
    significant = input.lstrip("0")
    if len(significant) > _MAX_IPV4_DIGITS[radix]:
        return (IPV4_NUMBER_CAP, validation_error, radix, step, "9")
    # step 9
    return (min(int(significant or "0", radix), IPV4_NUMBER_CAP), validation_error, radix, step,
            "9")


def ipv4_number_parse(input: str) -> tuple[int, bool] | None:
    """url.bs: the IPv4 number parser: (number, validationError), or None for failure."""
    value, validation_error, _, _, _ = ipv4_number(input)
    return None if value is None else (value, validation_error)


# ---------------------------------------------------------------------------------------------
# url.bs: host parsing, the IPv6 parser


class IPv6Run(HostRun):
    """The IPv6 parser's variables (url.bs names), and the piece being read: its ``value`` and
    where it began (``piece_start``)."""

    __slots__ = ("address", "compress", "input", "n", "piece_index", "piece_start", "pointer",
                 "value")

    def __init__(self, input: str, report: Report, observer: Observer | None) -> None:
        self.state = ipv6_start
        self.report = report
        self.observer = observer
        self.input = input
        self.n = len(input)
        # step 1-4
        self.address = [0] * 8
        self.piece_index = 0
        self.compress: int | None = None
        self.pointer = 0
        self.value = 0
        self.piece_start = 0


def ipv6_parse(input: str, report: Report = _no_report,
               observer: Observer | None = None) -> tuple[int, ...]:
    run = IPv6Run(input, report, observer)
    _run(run)
    # step 9
    return tuple(run.address)


def _ipv6_fail(v: IPv6Run, name: str, step: str, note: str) -> HostFailure:
    pointer = v.pointer
    return _failure(v.report, "ipv6", step, note, name, pointer, pointer=pointer)


def ipv6_start(v: IPv6Run) -> str | None:
    v.state = ipv6_piece
    input = v.input
    # step 5
    if input[:1] == ":":
        if input[1:2] != ":":
            raise _ipv6_fail(v, "IPv6-invalid-compression", "5.1", "starts with a single :")
        v.pointer += 2
        v.piece_index += 1
        v.compress = v.piece_index
        return "5.3"
    return None


def ipv6_piece(v: IPv6Run) -> str | None:
    input = v.input
    n = v.n
    pointer = v.pointer
    # step 6
    if pointer >= n:
        v.state = ipv6_end
        return None
    # step 6.1
    if v.piece_index == 8:
        raise _ipv6_fail(v, "IPv6-too-many-pieces", "6.1", "more than 8 pieces")
    # step 6.2
    if input[pointer] == ":":
        if v.compress is not None:
            raise _ipv6_fail(v, "IPv6-multiple-compression", "6.2.1", "a second ::")
        v.pointer += 1
        v.piece_index += 1
        v.compress = v.piece_index
        return "6.2.2"
    # step 6.3-6.4
    value = length = 0
    v.piece_start = pointer
    while length < 4 and pointer < n and input[pointer] in _HEX:
        value = value * 0x10 + int(input[pointer], 16)
        pointer += 1
        length += 1
    v.pointer = pointer
    v.value = value
    c = input[pointer] if pointer < n else ""
    # step 6.5
    if c == ".":
        if length == 0:
            raise _ipv6_fail(v, "IPv4-in-IPv6-invalid-code-point", "6.5.1", "empty IPv4 part")
        v.pointer -= length
        if v.piece_index > 6:
            raise _ipv6_fail(v, "IPv4-in-IPv6-too-many-pieces", "6.5.3", "no room for IPv4")
        # (variant: before "Disallow invalid IPv4 in IPv6 parser", the dots-seen loop)
        v.state = ipv6_ipv4_2016 if undone(IPV4_IN_IPV6_NUMBERS_SEEN) else ipv6_ipv4
        return None
    # step 6.6
    if c == ":":
        v.pointer += 1
        if v.pointer >= n:
            raise _ipv6_fail(v, "IPv6-invalid-code-point", "6.6.2", "ends after :")
    # step 6.7
    elif pointer < n:
        raise _ipv6_fail(v, "IPv6-invalid-code-point", "6.7", f"unexpected code point {c!r}")
    v.state = ipv6_set_piece
    # step 6.8
    # (variant: before "Define valid IPv6-address string inline", no such step)
    if length > 1 and value < 0x10 ** (length - 1) and not undone(IPV6_PIECE_LEADING_ZERO):
        v.report("IPv6-piece-leading-zero", v.piece_start, "", ("IPv6 parser", "6.8"))
        return "6.8"
    return None


def ipv6_set_piece(v: IPv6Run) -> str:
    # step 6.9-6.10
    v.address[v.piece_index] = v.value
    v.piece_index += 1
    v.state = ipv6_piece
    return "6.9"


def ipv6_ipv4(v: IPv6Run) -> str:
    # step 6.5.4-6.5.7
    input = v.input
    n = v.n
    address = v.address
    numbers_seen = 0
    while v.pointer < n:
        ipv4_piece: int | None = None
        if numbers_seen > 0:
            if input[v.pointer] == "." and numbers_seen < 4:
                v.pointer += 1
            else:
                raise _ipv6_fail(v, "IPv4-in-IPv6-invalid-code-point", "6.5.5.2.2",
                                 "unexpected code point in the IPv4 part")
        if v.pointer >= n or input[v.pointer] not in _DIGITS:
            raise _ipv6_fail(v, "IPv4-in-IPv6-invalid-code-point", "6.5.5.3",
                             "an IPv4 part is not a digit")
        while v.pointer < n and input[v.pointer] in _DIGITS:
            number = int(input[v.pointer])
            if ipv4_piece is None:
                ipv4_piece = number
            elif ipv4_piece == 0:
                raise _ipv6_fail(v, "IPv4-in-IPv6-invalid-code-point", "6.5.5.4.3",
                                 "an IPv4 part has a leading 0")
            else:
                ipv4_piece = ipv4_piece * 10 + number
            if ipv4_piece > 255:
                raise _ipv6_fail(v, "IPv4-in-IPv6-out-of-range-part", "6.5.5.4.5",
                                 "an IPv4 part exceeds 255")
            v.pointer += 1
        assert ipv4_piece is not None
        address[v.piece_index] = address[v.piece_index] * 0x100 + ipv4_piece
        numbers_seen += 1
        if numbers_seen in (2, 4):
            v.piece_index += 1
    if numbers_seen != 4:
        raise _ipv6_fail(v, "IPv4-in-IPv6-too-few-parts", "6.5.6", "fewer than 4 IPv4 parts")
    # step 6.5.7: break
    v.state = ipv6_end
    return "6.5.7"


def ipv6_ipv4_2016(v: IPv6Run) -> str:
    """The IPv6 parser's IPv4 part before "Disallow invalid IPv4 in IPv6 parser" (2017): it
    counted dots seen, and after a number's "." at EOF stopped, four numbers or not."""
    input = v.input
    n = v.n
    address = v.address
    dots_seen = 0
    while v.pointer < n:
        if input[v.pointer] not in _DIGITS:  # "If c is not an ASCII digit, ... failure"
            raise _ipv6_fail(v, "IPv4-in-IPv6-invalid-code-point", "6.5.5.3",
                             "an IPv4 part is not a digit")
        value: int | None = None
        while v.pointer < n and input[v.pointer] in _DIGITS:
            number = int(input[v.pointer])
            if value is None:
                value = number
            elif value == 0:
                raise _ipv6_fail(v, "IPv4-in-IPv6-invalid-code-point", "6.5.5.4.3",
                                 "an IPv4 part has a leading 0")
            else:
                value = value * 10 + number
            v.pointer += 1
            if value > 255:
                raise _ipv6_fail(v, "IPv4-in-IPv6-out-of-range-part", "6.5.5.4.5",
                                 "an IPv4 part exceeds 255")
        assert value is not None
        c = input[v.pointer] if v.pointer < n else ""
        # "If dots seen is less than 3 and c is not a ".", syntax violation, return failure."
        if dots_seen < 3 and c != ".":
            raise _ipv6_fail(v, "IPv4-in-IPv6-too-few-parts" if c == "" else
                             "IPv4-in-IPv6-invalid-code-point", "6.5.6", "fewer than 4 IPv4 "
                             "parts" if c == "" else "unexpected code point in the IPv4 part")
        address[v.piece_index] = address[v.piece_index] * 0x100 + value
        if dots_seen in (1, 3):
            v.piece_index += 1
        if c != "":
            v.pointer += 1
        # "If dots seen is 3 and c is not the EOF code point, syntax violation, return failure."
        if dots_seen == 3 and c != "":
            raise _ipv6_fail(v, "IPv4-in-IPv6-invalid-code-point", "6.5.5.2.2",
                             "unexpected code point after the IPv4 part")
        dots_seen += 1
    v.state = ipv6_end
    return "6.5.7"


def ipv6_end(v: IPv6Run) -> str:
    # step 7
    if v.compress is not None:
        address = v.address
        compress = v.compress
        swaps = v.piece_index - compress
        piece_index = 7
        while piece_index != 0 and swaps > 0:
            j = compress + swaps - 1
            address[piece_index], address[j] = address[j], address[piece_index]
            piece_index -= 1
            swaps -= 1
        v.piece_index = piece_index
        v.state = ipv6_return
        return "7.3"
    return ipv6_return(v)


def ipv6_return(v: IPv6Run) -> str:
    v.state = None
    # step 8
    if v.compress is None and v.piece_index != 8:
        raise _ipv6_fail(v, "IPv6-too-few-pieces", "8", "fewer than 8 pieces and no compression")
    # step 9 (ipv6_parse returns address)
    return "9"


# ---------------------------------------------------------------------------------------------
# url.bs: host parsing, the opaque-host parser


class OpaqueHostRun(HostRun):
    """The opaque-host parser's input and result."""

    __slots__ = ("input", "result")

    def __init__(self, input: str, report: Report, observer: Observer | None) -> None:
        self.state = opaque_host_parser
        self.report = report
        self.observer = observer
        self.input = input
        self.result = ""


def opaque_host_parse(input: str, report: Report = _no_report,
                      observer: Observer | None = None) -> str:
    run = OpaqueHostRun(input, report, observer)
    _run(run)
    return run.result


def opaque_host_parser(o: OpaqueHostRun) -> str:
    input = o.input
    report = o.report
    if "%" in input and undone(OPAQUE_HOST_PERCENT_AND_IPV6):
        # variant: before "Allow % and IPv6 ...", % was a forbidden host code point here too
        raise _failure(report, "opaque-host", "1", "the input contains a forbidden host code "
                       "point, U+0025", "host-invalid-code-point", input.index("%"))
    # step 1
    for i, ch in enumerate(input):
        if ch in FORBIDDEN_HOST_CODE_POINTS and not (
                ch in "<>^|" and ch not in _forbidden_then(False)):  # (variant: not before)
            raise _failure(report, "opaque-host", "1",
                           f"the input contains a forbidden host code point, U+{ord(ch):04X}",
                           "host-invalid-code-point", i,
                           says=f"forbidden host code point {ch!r}")
    # step 2-3: two separate checks, so a host with both kinds of invalid unit reports two
    # validation errors (variant: before "Fix validity for opaque hosts", no such steps)
    if undone(OPAQUE_HOST_VALIDITY):
        o.result = utf8_percent_encode(input, C0_CONTROL_SET)
        o.state = None
        return "4"
    # step 2
    bad = next((i for i, ch in enumerate(input) if ch != "%" and not is_url_code_point(ch)),
               None)
    if bad is not None:
        report("invalid-URL-unit", bad, "", ("opaque-host parser", "2"))
    # step 3
    if "%" in input:
        bad = next((i for i, ch in enumerate(input) if ch == "%" and not (
            input[i + 1:i + 2] in _HEX and input[i + 2:i + 3] in _HEX)), None)
        if bad is not None:
            report("invalid-URL-unit", bad, "", ("opaque-host parser", "3"))
    # step 4
    o.result = utf8_percent_encode(input, C0_CONTROL_SET)
    o.state = None
    return "4"

# url.bs: host serializing
def host_serialize(host: Host) -> str:
    if isinstance(host, int):
        return ipv4_serialize(host)
    if isinstance(host, tuple):
        return "[" + ipv6_serialize(host) + "]"
    return host


def ipv4_serialize(address: int) -> str:
    return f"{address >> 24}.{(address >> 16) & 255}.{(address >> 8) & 255}.{address & 255}"


def ipv6_serialize(address: tuple[int, ...]) -> str:
    # step 1-3
    output = ""
    compress = find_compressed_piece_index(address)
    ignore0 = False
    # step 4
    for piece_index, piece in enumerate(address):
        if ignore0 and piece == 0:
            continue
        ignore0 = False
        if compress == piece_index:
            output += "::" if piece_index == 0 else ":"
            ignore0 = True
            continue
        output += f"{piece:x}"
        if piece_index != 7:
            output += ":"
    return output


# url.bs: host serializing, find the IPv6 address compressed piece index
def find_compressed_piece_index(address: tuple[int, ...]) -> int | None:
    longest_index: int | None = None
    longest_size = 1
    found_index: int | None = None
    found_size = 0
    for piece_index, piece in enumerate(address):
        if piece != 0:
            if found_size > longest_size:
                longest_index, longest_size = found_index, found_size
            found_index, found_size = None, 0
        else:
            if found_index is None:
                found_index = piece_index
            found_size += 1
    if found_size > longest_size:
        return found_index
    return longest_index
