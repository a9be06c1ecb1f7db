"""Hosts (url.bs: "Hosts (domains and IP addresses)"): parsing, serializing, IDNA.

Validation errors go to ``report(name, offset, detail)`` where ``offset`` is the code-point offset
in the host input (None when unknown); steps go to the optional ``observer``.
"""

from __future__ import annotations

import re
from typing import Protocol, Unpack

from urlcalc.standard import steps as spec
from urlcalc.standard import uts46
from urlcalc.standard.infra import is_url_code_point
from urlcalc.standard.observer import Observer, StepDetails, counts_only
from urlcalc.standard.percent import C0_CONTROL_SET, percent_decode, utf8_percent_encode
from urlcalc.standard.record import EMPTY_HOST, Domain, Host, OpaqueHost


class HostFailure(Exception):
    """An algorithm of the host parser returned failure.

    ``algorithm`` and ``step`` cite the step that returned failure (url.bs names), ``error``
    names the validation error that step raises (None when it raises none, as the domain
    parser's steps), ``offset`` is the code-point offset in the host input it concerns (when
    known), ``note`` says why in words, and ``via`` lists the steps that passed the failure on
    (innermost first: the host parser's "return failure" steps)."""

    def __init__(self, error: str | None, algorithm: str, step: str, note: str,
                 offset: int | None = None) -> None:
        super().__init__(error or note)
        self.error = error
        self.algorithm = algorithm
        self.step = step
        self.note = note
        self.offset = offset
        self.via: tuple[tuple[str, str | None], ...] = ()

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


def _emit(observer: Observer | None, parser: str, step: str, note: str, depth: int = 1,
          **extra: Unpack[StepDetails]) -> None:
    if observer is not None:
        algorithm = ALGORITHM_OF_PARSER[parser]
        observer({"parser": parser, "algorithm": algorithm, "state": algorithm, "step": step,
                  "note": note, "depth": depth, **extra})


def _failure(report: Report, observer: Observer | None, parser: str, step: str, note: str,
             error: str | None = None, at: int | None = None, says: str | None = None,
             **extra: Unpack[StepDetails]) -> HostFailure:
    """``step`` of ``parser``'s algorithm returns failure, raising the validation ``error``
    first when it raises one: the error reported (at offset ``at`` in the host input, when known),
    the step traced (``says`` in the trace, default ``note``), and the HostFailure to raise."""
    algorithm = ALGORITHM_OF_PARSER[parser]
    if error is not None:
        report(error, at, "", (algorithm, step))
    if observer is not None:
        if error is not None:
            extra["errors"] = [error]
        extra["outcome"] = "failure"
        _emit(observer, parser, step, (says or note) + ": failure", **extra)
    return HostFailure(error, algorithm, step, note, at)


# url.bs: host parsing, the host parser
def host_parse(input: str, is_opaque: bool = False, report: Report = _no_report,
               observer: Observer | None = None) -> Host:
    """Return a host or raise HostFailure."""
    # step 1
    if input.startswith("["):
        # step 1.1
        if not input.endswith("]"):
            raise _failure(report, observer, "host", "1.1",
                           "the input starts with [ but does not end with ]", "IPv6-unclosed",
                           says="starts with [ but does not end with ]", input=input)
        if observer is not None:
            _emit(observer, "host", "1.2", "IPv6 parse the input without its brackets", input=input)
        # step 1.2 (offsets reported by the IPv6 parser count from after the "[")
        def inner(name: str, offset: int | None, detail: str, cite: Cite | None = None) -> None:
            report(name, None if offset is None else offset + 1, detail, cite)

        try:
            return ipv6_parse(input[1:-1], inner, observer)
        except HostFailure as e:
            if e.offset is not None:
                e.offset += 1
            raise e.passed_on("host parser", "1.2") from None
    # step 2
    if is_opaque:
        if observer is not None:
            _emit(observer, "host", "2", "the URL is not special: opaque-host parse", input=input)
        try:
            opaque = opaque_host_parse(input, report, observer)
        except HostFailure as e:
            raise e.passed_on("host parser", "2") from None
        # an opaque host is non-empty: the empty string is the empty host
        return OpaqueHost(opaque) if opaque else EMPTY_HOST
    # step 3: Assert input is not the empty string.
    # step 4
    if "%" in input and _PERCENT_ENCODED_RE.search(input):
        report("domain-percent-encoded", None, "", ("host parser", "4"))
        if observer is not None:
            _emit(observer, "host", "4", "the input contains a percent-encoded byte: "
                  "validation error", errors=["domain-percent-encoded"])
    # step 5
    domain = percent_decode(input).decode("utf-8", "replace") if "%" in input else input
    if observer is not None:
        _emit(observer, "host", "5", "percent-decode, then UTF-8 decode without BOM", input=input,
              domain=domain)
    # step 6-7
    try:
        ascii_domain = domain_parse(domain, False, report, observer)
    except HostFailure as e:
        if domain is not input and e.offset is not None:
            # percent-decoded: find the code point in the input itself, if it is there
            i = input.find(domain[e.offset])
            e.offset = i if i >= 0 else None
        if observer is not None:
            _emit(observer, "host", "7", "asciiDomain is failure: return failure",
                  outcome="failure")
        raise e.passed_on("host parser", "7") from None
    # step 8
    if ends_in_a_number(ascii_domain):
        if observer is not None:
            _emit(observer, "host", "8", "ends in a number: IPv4 parse", domain=ascii_domain)
        try:
            return ipv4_parse(ascii_domain, report, observer)
        except HostFailure as e:
            raise e.passed_on("host parser", "8") from None
    if observer is not None:
        _emit(observer, "host", "9", "the host is a domain", result=ascii_domain)
    # step 9
    return Domain(ascii_domain)


def _strict_to_ascii(domain: str, observer: uts46.StageObserver) -> tuple[str, list[str]]:
    return uts46.to_ascii(domain, check_hyphens=True, check_bidi=True, check_joiners=True,
                          use_std3_ascii_rules=True, transitional_processing=False,
                          verify_dns_length=True, ignore_invalid_punycode=False,
                          observer=observer)


def _relaxed_to_ascii(domain: str, observer: uts46.StageObserver) -> tuple[str, list[str]]:
    return uts46.to_ascii(domain, check_hyphens=False, check_bidi=True, check_joiners=True,
                          use_std3_ascii_rules=False, transitional_processing=False,
                          verify_dns_length=False, ignore_invalid_punycode=False,
                          observer=observer)


# The UTS #46 stages urlcalc.standard.uts46 reports, in UTS #46's order, and what each cites.
UTS46_STAGES = spec.UTS46_STAGES


class _Stage:
    """The UTS #46 observer: each stage as a step (depth 2) for the URL-level observer."""

    __slots__ = ("counts_only", "mode", "observer")

    def __init__(self, observer: Observer, mode: str) -> None:
        self.observer = observer
        self.mode = mode
        self.counts_only = counts_only(observer)

    def __call__(self, name: str, details: dict[str, object]) -> None:
        algorithm, step = UTS46_STAGES[name]
        self.observer({"parser": "uts46", "algorithm": algorithm, "state": "UTS #46 " + name,
                       "step": step, "note": f"Unicode ToASCII ({self.mode}): {name}",
                       "details": details, "depth": 2})


def _uts46_observer(observer: Observer | None, mode: str) -> uts46.StageObserver:
    return None if observer is None else _Stage(observer, mode)


# url.bs: IDNA, the domain parser
def domain_parse(domain: str, be_strict: bool, report: Report = _no_report,
                 observer: Observer | None = None) -> str:
    """Return a domain or raise HostFailure."""
    # step 1
    lowered = domain.lower() if domain.isascii() else None
    if lowered is not None and observer is None and _STRICT_ASCII_OK.fullmatch(lowered):
        strict_result, strict_errors = lowered, list[str]()
    else:
        strict_result, strict_errors = _strict_to_ascii(domain,
                                                        _uts46_observer(observer, "strict"))
    if observer is not None:
        _emit(observer, "domain", "1", "strictResult: domain parser ToASCII with beStrict true"
              + (": failure (" + ", ".join(strict_errors) + ")" if strict_errors
                 else ": no error"), result=strict_result)
    # step 2
    if strict_errors:
        report("domain-to-ASCII", None, " ".join(strict_errors), ("domain parser", "2"))
        if observer is not None:
            _emit(observer, "domain", "2", "strictResult is a failure value: validation error "
                  "(this step does not return)", errors=["domain-to-ASCII"])
    # step 3
    if be_strict:
        if strict_errors:  # (not traced: beStrict is true only outside the URL parser)
            raise _failure(report, None, "domain", "3.1", "strictResult is a failure value")
        return strict_result
    # step 4-5
    if lowered is not None:
        result = lowered
        if observer is not None:
            _emit(observer, "domain", "5", "ASCII domain: the result is the domain, lowercased",
                  result=result)
    # step 6
    else:
        if not strict_errors:
            # The relaxed run cannot fail where the strict one passed: same result.
            result, errors = strict_result, list[str]()
        else:
            result, errors = _relaxed_to_ascii(domain, _uts46_observer(observer, "relaxed"))
        if errors:
            raise _failure(report, observer, "domain", "6.2", "domain parser ToASCII with "
                           "beStrict false is a failure value (" + ", ".join(errors) + ")",
                           says="ToASCII with beStrict false failed", uts46_errors=errors)
        if observer is not None:
            _emit(observer, "domain", "6.1", "ToASCII with beStrict false", result=result)
    # step 7
    if result == "":
        raise _failure(report, observer, "domain", "7", "the result is the empty string")
    # step 8
    forbidden = _FORBIDDEN_DOMAIN_RE.search(result)
    if forbidden:
        ch = forbidden.group()
        # Where that code point stands in the domain given (the result may be mapped).
        offset = forbidden.start() if result is domain or domain[forbidden.start():
                                                                forbidden.start() + 1] == ch \
            else domain.find(ch)
        raise _failure(report, observer, "domain", "8",
                       f"the result contains a forbidden domain code point, U+{ord(ch):04X}",
                       at=offset if offset >= 0 else None, result=result)
    # step 9
    return result


# url.bs: IDNA, domain to Unicode
def domain_to_unicode(domain: str) -> str:
    result, errors = uts46.to_unicode(domain, check_hyphens=False, check_bidi=True,
                                      check_joiners=True, use_std3_ascii_rules=False,
                                      transitional_processing=False,
                                      ignore_invalid_punycode=False)
    # step 2
    return domain if errors else result


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
    return ipv4_number_parse(last) is not None


# url.bs: host parsing, the IPv4 parser
def ipv4_parse(input: str, report: Report = _no_report, observer: Observer | None = None) -> int:
    # step 1
    parts = input.split(".")
    # step 2
    if parts[-1] == "":
        report("IPv4-empty-part", None, "", ("IPv4 parser", "2.1"))
        if len(parts) > 1:
            parts.pop()
    # step 3
    if len(parts) < 4:
        report("IPv4-too-few-parts", None, "", ("IPv4 parser", "3"))
    # step 4
    if len(parts) > 4:
        raise _failure(report, observer, "ipv4", "4", "more than 4 parts",
                       "IPv4-too-many-parts", parts=parts)
    if observer is not None:
        errors = (["IPv4-empty-part"] if input.endswith(".") else []) + \
            (["IPv4-too-few-parts"] if len(parts) < 4 else [])
        _emit(observer, "ipv4", "3" if len(parts) < 4 else "1",
              f"{len(parts)} part{'s' if len(parts) != 1 else ''}"
              + (" (a trailing empty part removed, step 2)" if input.endswith(".") else ""),
              parts=parts, errors=errors)
    # step 5-6
    numbers: list[int] = []
    offset = 0
    for part in parts:
        # step 6.1
        result = ipv4_number_parse(part, observer, offset)
        if result is None:
            raise _failure(report, observer, "ipv4", "6.2",
                           f"the part {part!r} is not an IPv4 number", "IPv4-non-numeric-part",
                           offset, says=f"part {part!r} is not numeric")
        # step 6.3
        if result[1]:
            report("IPv4-non-decimal-part", None, "", ("IPv4 parser", "6.3"))
            if observer is not None:
                _emit(observer, "ipv4", "6.3", f"part {part!r}: validationError is true",
                      errors=["IPv4-non-decimal-part"])
        numbers.append(result[0])
        offset += len(part) + 1
    if observer is not None:
        _emit(observer, "ipv4", "6.4", "the numbers of the parts",
              numbers=[str(n) if n < IPV4_NUMBER_CAP else f">= {IPV4_NUMBER_CAP}"
                       for n in numbers])
    # step 7
    if any(n > 255 for n in numbers):
        report("IPv4-out-of-range-part", None, "", ("IPv4 parser", "7"))
        if observer is not None:
            _emit(observer, "ipv4", "7", "a number exceeds 255: validation error",
                  errors=["IPv4-out-of-range-part"])
    # step 8
    if any(n > 255 for n in numbers[:-1]):
        raise _failure(report, observer, "ipv4", "8", "a number before the last exceeds 255")
    # step 9
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        raise _failure(report, observer, "ipv4", "9", "the last number is greater than or "
                       f"equal to 256^{5 - len(numbers)}",
                       says=f"the last number is 256^{5 - len(numbers)} or more")
    # step 10-13
    ipv4 = numbers[-1]
    for counter, n in enumerate(numbers[:-1]):
        ipv4 += n * 256 ** (3 - counter)
    if observer is not None:
        _emit(observer, "ipv4", "14", "return ipv4", result=ipv4_serialize(ipv4))
    # step 14
    return ipv4


# url.bs: host parsing, the IPv4 number parser
def ipv4_number_parse(input: str, observer: Observer | None = None,
                      offset: int = 0) -> tuple[int, bool] | None:
    """``observer`` and ``offset`` (of ``input`` in the IPv4 parser's input): for the trace."""
    part = input
    # step 1
    if input == "":
        if observer is not None:
            _emit(observer, "ipv4-number", "1", "the part is the empty string: failure",
                  part=part, offset=offset, depth=2)
        return None
    # step 2-5
    validation_error = False
    radix = 10
    step = "3"
    if len(input) >= 2 and input[:2] in ("0x", "0X"):
        validation_error, input, radix, step = True, input[2:], 16, "4"
    elif len(input) >= 2 and input[0] == "0":
        validation_error, input, radix, step = True, input[1:], 8, "5"
    if observer is not None:
        _emit(observer, "ipv4-number", step, f"R is {radix}, validationError is "
              f"{str(validation_error).lower()}", part=part, offset=offset, R=radix,
              validationError=validation_error, depth=2)
    # step 6
    if input == "":
        if observer is not None:
            _emit(observer, "ipv4-number", "6", "nothing after the prefix: (0, true)", depth=2)
        return (0, True)
    # step 7
    digits = _OCTAL if radix == 8 else _DIGITS if radix == 10 else _HEX
    if not all(ch in digits for ch in input):
        if observer is not None:
            _emit(observer, "ipv4-number", "7", f"not all radix-{radix} digits: failure",
                  depth=2)
        return None
    # step 8-9. A number of IPV4_NUMBER_CAP or more fails the IPv4 parser's range checks (steps 8
    # and 9 compare with 255 and 256 ** (5 - n) <= 2 ** 32) exactly as its true value would, so
    # a long digit string is read as IPV4_NUMBER_CAP without converting it: int() is quadratic on
    # long decimal strings and refuses more than 4,300 digits (sys.get_int_max_str_digits).
    significant = input.lstrip("0")
    if len(significant) > _MAX_IPV4_DIGITS[radix]:
        return (IPV4_NUMBER_CAP, validation_error)
    return (min(int(significant or "0", radix), IPV4_NUMBER_CAP), validation_error)


# url.bs: host parsing, the IPv6 parser
def ipv6_parse(input: str, report: Report = _no_report,
               observer: Observer | None = None) -> tuple[int, ...]:
    def fail(name: str, step: str, note: str) -> HostFailure:
        return _failure(report, observer, "ipv6", step, note, name, pointer, pointer=pointer)

    # step 1-4
    address = [0] * 8
    piece_index = 0
    compress: int | None = None
    pointer = 0
    n = len(input)

    def c_at(i: int) -> str:
        return input[i] if i < n else ""

    # step 5
    if c_at(pointer) == ":":
        if c_at(pointer + 1) != ":":
            raise fail("IPv6-invalid-compression", "5.1", "starts with a single :")
        pointer += 2
        piece_index += 1
        compress = piece_index
        if observer is not None:
            _emit(observer, "ipv6", "5.3", "the input starts with ::: compress is 1",
                  pointer=pointer, piece_index=piece_index)
    # step 6
    while pointer < n:
        # step 6.1
        if piece_index == 8:
            raise fail("IPv6-too-many-pieces", "6.1", "more than 8 pieces")
        # step 6.2
        if input[pointer] == ":":
            if compress is not None:
                raise fail("IPv6-multiple-compression", "6.2.1", "a second ::")
            pointer += 1
            piece_index += 1
            compress = piece_index
            if observer is not None:
                _emit(observer, "ipv6", "6.2.2", "compression", pointer=pointer,
                      piece_index=piece_index)
            continue
        # step 6.3-6.4
        value = length = 0
        piece_start = pointer
        while length < 4 and c_at(pointer) in _HEX and pointer < n:
            value = value * 0x10 + int(input[pointer], 16)
            pointer += 1
            length += 1
        # step 6.5
        if c_at(pointer) == ".":
            if length == 0:
                raise fail("IPv4-in-IPv6-invalid-code-point", "6.5.1", "empty IPv4 part")
            pointer -= length
            if piece_index > 6:
                raise fail("IPv4-in-IPv6-too-many-pieces", "6.5.3", "no room for IPv4")
            numbers_seen = 0
            while pointer < n:
                ipv4_piece: int | None = None
                if numbers_seen > 0:
                    if input[pointer] == "." and numbers_seen < 4:
                        pointer += 1
                    else:
                        raise fail("IPv4-in-IPv6-invalid-code-point", "6.5.5.2.2",
                                   "unexpected code point in the IPv4 part")
                if c_at(pointer) not in _DIGITS or pointer >= n:
                    raise fail("IPv4-in-IPv6-invalid-code-point", "6.5.5.3",
                               "an IPv4 part is not a digit")
                while pointer < n and input[pointer] in _DIGITS:
                    number = int(input[pointer])
                    if ipv4_piece is None:
                        ipv4_piece = number
                    elif ipv4_piece == 0:
                        raise fail("IPv4-in-IPv6-invalid-code-point", "6.5.5.4.3",
                                   "an IPv4 part has a leading 0")
                    else:
                        ipv4_piece = ipv4_piece * 10 + number
                    if ipv4_piece > 255:
                        raise fail("IPv4-in-IPv6-out-of-range-part", "6.5.5.4.5",
                                   "an IPv4 part exceeds 255")
                    pointer += 1
                assert ipv4_piece is not None
                address[piece_index] = address[piece_index] * 0x100 + ipv4_piece
                numbers_seen += 1
                if numbers_seen in (2, 4):
                    piece_index += 1
            if numbers_seen != 4:
                raise fail("IPv4-in-IPv6-too-few-parts", "6.5.6", "fewer than 4 IPv4 parts")
            if observer is not None:
                _emit(observer, "ipv6", "6.5", "embedded IPv4 address", pointer=pointer,
                      pieces=list(address))
            break
        # step 6.6
        elif c_at(pointer) == ":":
            pointer += 1
            if pointer >= n:
                raise fail("IPv6-invalid-code-point", "6.6.2", "ends after :")
        # step 6.7
        elif pointer < n:
            raise fail("IPv6-invalid-code-point", "6.7",
                       f"unexpected code point {input[pointer]!r}")
        # step 6.8
        if length > 1 and value < 0x10 ** (length - 1):
            report("IPv6-piece-leading-zero", piece_start, "", ("IPv6 parser", "6.8"))
            if observer is not None:
                _emit(observer, "ipv6", "6.8", "a piece with a leading zero: validation error",
                      pointer=piece_start, errors=["IPv6-piece-leading-zero"])
        # step 6.9-6.10
        address[piece_index] = value
        piece_index += 1
        if observer is not None:
            _emit(observer, "ipv6", "6.9", f"piece {piece_index - 1} = {value:x}", pointer=pointer,
                  pieces=list(address))
    # step 7
    if compress is not None:
        swaps = piece_index - compress
        piece_index = 7
        while piece_index != 0 and swaps > 0:
            j = compress + swaps - 1
            address[piece_index], address[j] = address[j], address[piece_index]
            piece_index -= 1
            swaps -= 1
        if observer is not None:
            _emit(observer, "ipv6", "7", "expand the compression", pieces=list(address))
    # step 8
    elif piece_index != 8:
        raise fail("IPv6-too-few-pieces", "8", "fewer than 8 pieces and no compression")
    # step 9
    return tuple(address)


# url.bs: host parsing, the opaque-host parser
def opaque_host_parse(input: str, report: Report = _no_report,
                      observer: Observer | None = None) -> str:
    # step 1
    for i, ch in enumerate(input):
        if ch in FORBIDDEN_HOST_CODE_POINTS:
            raise _failure(report, observer, "opaque-host", "1",
                           f"the input contains a forbidden host code point, U+{ord(ch):04X}",
                           "host-invalid-code-point", i,
                           says=f"forbidden host code point {ch!r}")
    # step 2-3: two separate checks, so a host with both kinds of invalid unit reports two
    # validation errors
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
    result = utf8_percent_encode(input, C0_CONTROL_SET)
    if observer is not None:
        _emit(observer, "opaque-host", "4", "UTF-8 percent-encode with the C0 control set",
              result=result)
    return result


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
