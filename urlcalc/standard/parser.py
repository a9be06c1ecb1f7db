"""The URL parser (url.bs: "URL parsing").

Each state of the basic URL parser is a function named after the spec's state. A state function
takes the parser context ``p`` and the code point ``c`` (``EOF`` is the empty string) and returns
the number of the spec step that applied; it reports validation errors with ``p.error`` and ends
the parse by raising ``ParseFailure`` ("return failure") or ``ParseReturn`` ("return").

The state machine runs in one of two loops: ``_run`` (no observer: nothing is built for the
trace) and ``_run_observed``, which tells the observer's driver (urlcalc.standard.observer's
``URLStepDriver``: urlcalc.trace.driver's) before and after each state, and of the step it
returned: the driver describes, cites and bounds the steps; nothing here builds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

from urlcalc.standard import host as hostmod
from urlcalc.standard.encoding import encode_or_fail_chunks, get_encoding, get_output_encoding
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.fastpath import fast_parse
from urlcalc.standard.infra import (
    ASCII_ALPHA,
    ASCII_ALPHANUMERIC,
    ASCII_DIGITS,
    ASCII_HEX_DIGITS,
    ASCII_URL_CODE_POINTS,
    is_url_code_point,
    to_usv,
)
from urlcalc.standard.observer import Fact, FactKind, Observer, URLStepDriver, driver_of
from urlcalc.standard.percent import (
    C0_CONTROL_SET,
    FRAGMENT_SET,
    PATH_SET,
    QUERY_SET,
    SPECIAL_QUERY_SET,
    PercentEncodeSet,
    percent_encode_after_encoding,
    percent_encode_bytes,
    userinfo_set,
    utf8_percent_encode,
)
from urlcalc.standard.record import (
    EMPTY_HOST,
    SPECIAL_SCHEMES,
    Host,
    URLRecord,
    is_double_dot,
    is_normalized_windows_drive_letter,
    is_single_dot,
    is_windows_drive_letter,
    starts_with_windows_drive_letter,
)
from urlcalc.standard.variants import (  # the basic URL parser's states' variants
    CREDENTIALS_NO_HOST_HOST_MISSING,
    CREDENTIALS_NON_CONFORMING,
    ENCODE_BRACES,
    FILE_API_CLEANUP,
    FILE_DRIVE_LETTER_AT_END,
    FILE_HOST_NEVER_NULL,
    FILE_LOCALHOST_EMPTY,
    FILE_PATH_NORMALIZATION,
    FILE_PATH_TRIM_LEADING_EMPTY,
    FILE_SLASH_DRIVE_LETTER,
    FILE_STATE_WITHOUT_BASE,
    FRAGMENT_AGAINST_OPAQUE_BASE,
    FRAGMENT_NUL_ENCODED,
    FRAGMENT_PERCENT_ENCODE_SET,
    FRAGMENT_PERCENT_ENCODED,
    GOPHER_NOT_SPECIAL,
    HOSTNAME_OVERRIDE_FAILURES,
    HOSTNAME_OVERRIDE_RETURNS_BEFORE_PORT,
    NON_SPECIAL_PATH_PARSING,
    OPAQUE_PATH_SPACE_BEFORE_HASH,
    OPAQUE_PATH_SPACE_ROUNDTRIP,
    PASSWORD_NOT_NULLABLE,
    PATH_DECODE_DOT,
    PATH_PERCENT_ENCODE_CARET,
    PATH_START_OVERRIDE_EMPTY_SEGMENT,
    PATH_STOP_DECODING_DOT,
    PORT_16_BIT,
    PORT_OVERRIDE_FAILURE,
    QUERY_BACKTICK_KEPT,
    QUERY_BUFFERED,
    QUERY_NCR_PERCENT_ENCODED,
    RELATIVE_COPIES_CREDENTIALS,
    RELATIVE_URLS_UNKNOWN_SCHEMES,
    SCHEME_OVERRIDE_FAILURE,
    SCHEME_OVERRIDE_FILE_RESTRICTED,
    SCHEME_OVERRIDE_PORT_NORMALIZED,
    SCHEME_OVERRIDE_SPECIAL_STAYS,
    SPECIAL_QUERY_APOSTROPHE,
    TAB_NEWLINE_STRIPPED,
    TRIM_C0_CONTROL_OR_SPACE,
    any_undone,
    undone,
    undone_now,
)

EOF = ""

_SCHEME_CODE_POINTS = ASCII_ALPHANUMERIC | frozenset("+-.")
_C0_CONTROL_OR_SPACE = "".join(chr(i) for i in range(0x21))
_ASCII_WHITESPACE = "\t\n\x0c\r "
#: url.bs before d589670 "Remove gopher from list of special schemes" (2019): special schemes.
_SPECIAL_SCHEMES_2019: dict[str, int | None] = {**SPECIAL_SCHEMES, "gopher": 70}


def _encoded_safe(encode_set: PercentEncodeSet) -> frozenset[str]:
    """The ASCII code points ``encode_set`` leaves as they are and that need no URL-unit check
    (U+0025 (%) is left as it is, but must be followed by two hex digits).

    url.bs: path state step 2.1, opaque path state step 4.1, fragment state step 1.1: "If c is
    not a URL code point and not U+0025 (%), invalid-URL-unit validation error": code points
    the set leaves alone but that are not URL code points (e.g. "\\", "[", "|", and "#" in a
    fragment) still need the check."""
    return frozenset(chr(i) for i in range(0x80)
                     if chr(i) not in encode_set and chr(i) in ASCII_URL_CODE_POINTS)


_PATH_SAFE = _encoded_safe(PATH_SET)
_FRAGMENT_SAFE = _encoded_safe(FRAGMENT_SET)
_C0_SAFE = _encoded_safe(C0_CONTROL_SET)


def first_invalid_url_unit(s: str) -> int | None:
    """The offset of the first code point that is not a URL unit (url.bs: URL units), if any."""
    for i, ch in enumerate(s):
        if ch == "%":
            if s[i + 1:i + 2] not in ASCII_HEX_DIGITS or s[i + 2:i + 3] not in ASCII_HEX_DIGITS \
                    or len(s) < i + 3:
                return i
        elif not is_url_code_point(ch):
            return i
    return None


class ParseFailure(Exception):
    """The basic URL parser returned failure.

    ``error`` is the validation error the failing step itself raises (None for the steps that
    return failure without one: the state override's and the domain parser's); ``step`` is the
    basic URL parser state's step that returned failure; ``cause`` is where the failure began
    (the same step, or a step of the host parser, IPv4/IPv6/opaque-host or domain parser it
    called: ``via`` lists the steps that passed it on, innermost first) and ``index`` the
    code-point index in the original input it concerns."""

    def __init__(self, error: ValidationError | None, reason: str = "",
                 state: str | None = None, step: str | None = None,
                 cause: tuple[str, str | None] | None = None, index: int | None = None,
                 via: tuple[tuple[str, str | None], ...] = ()) -> None:
        super().__init__(error.name if error else reason)
        self.error = error
        self.reason = reason
        self.state = state
        self.step = step
        self.cause = cause if cause is not None else (
            (state, step) if state is not None else None)
        self.index = index
        self.via = via


class ParseReturn(Exception):
    """The basic URL parser returned (with a state override) before the end of input.

    ``ignored`` is true for the returns that leave the URL unchanged (the protocol setter's
    scheme checks); ``note`` says why; ``state`` and ``step`` cite the step that returned."""

    def __init__(self, step: str, note: str = "", ignored: bool = False,
                 state: str = "") -> None:
        super().__init__(step, note)
        self.step = step
        self.note = note
        self.ignored = ignored
        self.state = state


class Parser:
    """The basic URL parser's variables (url.bs: basic URL parser, steps 1-9)."""

    __slots__ = (
        "at_sign_seen",
        "base",
        "buffer",
        "driver",
        "encoding",
        "errors",
        "facts",
        "index_map",
        "input",
        "inside_brackets",
        "lead",
        "live",
        "observer",
        "password_parts",
        "password_token_seen",
        "past",
        "pointer",
        "shortenings",
        "specials",
        "state",
        "state_override",
        "url",
        "username_parts",
    )

    def __init__(self, input: str, base: URLRecord | None, encoding: str, url: URLRecord,
                 state_override: State | None, observer: Observer | None) -> None:
        self.input = input
        self.base = base
        self.encoding = encoding
        self.url = url
        self.state_override = state_override
        self.observer = observer
        # The changes undone in this context (urlcalc.standard.variants), read once per parse:
        # empty (false) unless the standard is read as it was, so a fork on a per-code-point
        # branch tests ``p.past`` before calling ``undone``.
        self.past = undone_now()
        # The special schemes and their default ports (variant d589670, gopher-not-special:
        # before, gopher was special, with default port 70)
        self.specials = _SPECIAL_SCHEMES_2019 if self.past and undone(GOPHER_NOT_SPECIAL) \
            else SPECIAL_SCHEMES
        self.state: State = state_override or scheme_start_state
        self.buffer: list[str] = []
        self.at_sign_seen = False
        self.inside_brackets = False
        self.password_token_seen = False
        self.pointer = 0
        self.errors: list[ValidationError] = []
        self.lead = 0
        self.index_map: list[int] | None = None
        # The authority state's additions to the username and password, joined into the URL
        # record when the authority ends (appending to a string at every "@" would be quadratic).
        # While a trace step is being recorded (``live``) they join at once, so the step shows
        # the change where the spec makes it.
        self.username_parts: list[str] = []
        self.password_parts: list[str] = []
        self.live = observer is not None
        # While traced: the driver told of the steps that ran before the one a state returns
        # (``ran``; the state functions call it only while ``live``).
        self.driver: URLStepDriver[Parser] | None = None
        # While an outline is recorded (urlcalc.standard.observer), the facts the current step
        # established: None otherwise, so the untraced parser only tests for None at the branches
        # that record one.
        self.facts: list[Fact] | None = None
        # While traced, the path shortenings of the current step (shorten_path's): None
        # otherwise.
        self.shortenings: list[Shortening] | None = None

    def index(self, pointer: int) -> int:
        """The code-point index in the original input of a pointer into the processed input."""
        if self.index_map is None:
            return self.lead + pointer
        m = self.index_map
        return m[pointer] if pointer < len(m) else (m[-1] + 1 if m else self.lead)

    def error(self, name: str, step: str | None, pointer: int | None = None, detail: str = "",
              cite: tuple[str, str | None] | None = None) -> None:
        """The current state's ``step`` raises the validation error ``name`` (``cite``: another
        algorithm's step raised it, e.g. the host parser's)."""
        state = STATE_NAMES.get(self.state, "?")
        algorithm, at = cite if cite is not None else (state, step)
        self.errors.append(ValidationError(
            name, self.index(self.pointer if pointer is None else pointer), state, detail,
            algorithm, at))

    def fail(self, name: str, step: str, pointer: int | None = None) -> ParseFailure:
        """The current state's ``step`` raises the validation error ``name`` and returns
        failure."""
        self.error(name, step, pointer)
        err = self.errors[-1]
        return ParseFailure(err, state=STATE_NAMES[self.state], step=step, index=err.index)

    def fail_silently(self, step: str, reason: str) -> ParseFailure:
        """The current state's ``step`` returns failure without a validation error (the state
        override's failures)."""
        state = STATE_NAMES[self.state]
        return ParseFailure(None, f"{state}, step {step}: {reason}", state=state, step=step,
                            index=self.index(self.pointer))

    def returns(self, step: str, note: str, ignored: bool = False) -> ParseReturn:
        """The current state's ``step`` returns (with a state override)."""
        return ParseReturn(step, note, ignored, STATE_NAMES[self.state])

    def ran(self, step: str, calls: str | None = None) -> None:
        """The current state's ``step`` ran: it wrote a URL record field, or called the
        algorithm ``calls``, and is not the step the state will return. Called only while
        ``live`` (a traced step is being described): the trace lists every step that ran."""
        driver = self.driver
        if driver is not None:
            driver.ran(self, step, calls)

    def fact(self, kind: FactKind, step: str, *fields: str) -> None:
        """The current state's ``step`` established ``kind`` (for ``fields``): kept while an
        outline is recorded."""
        if self.facts is not None:
            self.facts.append(Fact(kind, step, fields))

    def remaining_starts_with(self, s: str) -> bool:
        return self.input.startswith(s, self.pointer + 1)

    def check_url_unit(self, c: str, steps: tuple[str, str]) -> None:
        """url.bs: path, opaque path, query and fragment states: the two invalid-URL-unit
        checks, ``steps`` (c is not a URL code point, c is a "%" not followed by two hex
        digits) in the current state."""
        if c == "%":
            i = self.input
            p = self.pointer
            if i[p + 1:p + 2] not in ASCII_HEX_DIGITS or i[p + 2:p + 3] not in ASCII_HEX_DIGITS \
                    or len(i) < p + 3:
                self.error("invalid-URL-unit", steps[1])
        elif not is_url_code_point(c):
            self.error("invalid-URL-unit", steps[0])

    def host_parse(self, buffer: str, start: int, calls: str, step: str) -> Host:
        """The current state's step ``calls``: host-parse ``buffer`` (which began at pointer
        ``start``); on failure, its ``step`` ("If host is failure, then return failure")
        raises."""
        sub: Observer | None = self.observer

        def report(name: str, offset: int | None, detail: str,
                   cite: tuple[str, str | None] | None = None) -> None:
            self.error(name, None, start + (offset or 0), detail, cite)

        try:
            host = hostmod.host_parse(buffer, self.url.scheme not in self.specials, report, sub)
        except hostmod.HostFailure as e:
            if self.live:
                self.ran(calls, "host parser")
            # The validation error of the failing step itself, if it raises one (the domain
            # parser's failures raise none: its domain-to-ASCII error is step 2's, on the way).
            err = next((x for x in reversed(self.errors) if x.name == e.error), None) \
                if e.error else None
            state = STATE_NAMES[self.state]
            raise ParseFailure(
                err, e.note, state=state, step=step, cause=(e.algorithm, e.step),
                index=self.index(start + e.offset) if e.offset is not None else
                self.index(start), via=(*e.via, (state, step))) from None
        if self.live:
            self.ran(calls, "host parser")
        return host


State = Callable[[Parser, str], "str | None"]


class Shortening(NamedTuple):
    """What "shorten a url's path" did: the ``step`` that applied, the segment it ``removed``
    (None: none), and whether it ``kept`` a file URL's drive letter."""

    step: str
    removed: str | None
    kept: bool


def shorten_path(url: URLRecord) -> Shortening:
    """url.bs: shorten a url's path."""
    path = url.path
    assert isinstance(path, list)
    # step 3
    if url.scheme == "file" and len(path) == 1 and is_normalized_windows_drive_letter(path[0]):
        return Shortening("3", None, True)
    # step 4
    return Shortening("4", path.pop() if path else None, False)


SHORTEN = "shorten a url's path"


def _shorten(p: Parser, step: str) -> None:
    """The state's ``step`` shortens the URL's path (kept in ``p.shortenings`` while traced)."""
    applied = shorten_path(p.url)
    if p.shortenings is not None:
        p.shortenings.append(applied)
        if p.live:
            p.ran(step, SHORTEN)


# ---------------------------------------------------------------------------------------------
# The states. url.bs: basic URL parser, step 10.


def scheme_start_state(p: Parser, c: str) -> str:
    if c in ASCII_ALPHA:
        lower = c.lower()
        if lower != c:
            p.fact(FactKind.SCHEME_LOWERCASED, "1", "scheme")
        p.buffer.append(lower)
        p.state = scheme_state
        return "1"
    if p.state_override is None:
        p.state = no_scheme_state
        p.pointer -= 1
        return "2"
    # variant 4617e33 (scheme-override-failure): before, "terminate this algorithm" (a return)
    if undone(SCHEME_OVERRIDE_FAILURE):
        raise p.returns("3", "with a state override, c is not an ASCII alpha", True)
    raise p.fail_silently("3", "with a state override, c is not an ASCII alpha")


def scheme_state(p: Parser, c: str) -> str:
    if c in _SCHEME_CODE_POINTS:
        lower = c.lower()
        if lower != c:
            p.fact(FactKind.SCHEME_LOWERCASED, "1", "scheme")
        p.buffer.append(lower)
        return "1"
    url = p.url
    if c == ":":
        buffer = "".join(p.buffer)
        if p.state_override is not None:
            special = url.scheme in p.specials
            # steps 2.1.1-2.1.2 (variant 5533c8d, scheme-override-special-stays: before, no
            # such steps)
            if special != (buffer in p.specials) \
                    and not undone(SCHEME_OVERRIDE_SPECIAL_STAYS):
                if special:
                    raise p.returns("2.1.1", "the URL's scheme is special but the new scheme is "
                                    "not", True)
                raise p.returns("2.1.2", "the URL's scheme is not special but the new scheme "
                                "is", True)
            # steps 2.1.3-2.1.4 (variant 462fdc1, scheme-override-file-restricted: before, no
            # such steps)
            if (url.includes_credentials or url.port is not None) and buffer == "file" \
                    and not undone(SCHEME_OVERRIDE_FILE_RESTRICTED):
                raise p.returns("2.1.3", "the URL includes credentials or has a port, and "
                                  "the new scheme is file", True)
            # (variant a19495e, file-host-never-null: before, "its host is an empty host or
            # null")
            if url.scheme == "file" and (url.host == "" or (
                    url.host is None and undone(FILE_HOST_NEVER_NULL))) \
                    and not undone(SCHEME_OVERRIDE_FILE_RESTRICTED):
                raise p.returns("2.1.4", "the URL's scheme is file and its host is the empty "
                                  "host", True)
        # step 2.2
        url.scheme = buffer
        if p.live:
            p.ran("2.2")
        # step 2.3
        if p.state_override is not None:
            # step 2.3.1 (variant 0f53958, scheme-override-port-normalized: before, no such step)
            if url.port == p.specials.get(url.scheme) \
                    and not undone(SCHEME_OVERRIDE_PORT_NORMALIZED):
                url.port = None
                if p.live:
                    p.ran("2.3.1")
            raise p.returns("2.3.2", "the scheme is set")
        p.buffer = []
        # step 2.5
        if url.scheme == "file":
            if not p.remaining_starts_with("//"):
                p.error("special-scheme-missing-following-solidus", "2.5.1")
            p.state = file_state
            return "2.5.2"
        # step 2.6
        if url.scheme in p.specials and p.base is not None and p.base.scheme == url.scheme:
            p.state = special_relative_or_authority_state
            return "2.6.2"
        if url.scheme in p.specials:
            p.state = special_authority_slashes_state
            return "2.7"
        # (variant b266a43, relative-urls-unknown-schemes: before, "Otherwise, set state to
        # scheme data state", "/" or not: today's step 2.9)
        if p.remaining_starts_with("/") \
                and not (p.past and undone(RELATIVE_URLS_UNKNOWN_SCHEMES)):
            p.state = path_or_authority_state
            p.pointer += 1
            return "2.8"
        url.path = ""
        p.state = opaque_path_state
        return "2.9"
    if p.state_override is None:
        p.buffer = []
        p.state = no_scheme_state
        p.pointer = -1
        return "3"
    # variant 4617e33 (scheme-override-failure): before, "terminate this algorithm" (a return)
    if undone(SCHEME_OVERRIDE_FAILURE):
        raise p.returns("4", "with a state override, c is not a scheme code point nor U+003A "
                        "(:)", True)
    raise p.fail_silently("4", "with a state override, c is not a scheme code point "
                          "nor U+003A (:)")


def no_scheme_state(p: Parser, c: str) -> str:
    base = p.base
    # (variant 7468c39, fragment-against-opaque-base: before, "... is not a relative scheme,
    # parse error, return failure", whatever c)
    if base is None or (isinstance(base.path, str) and (
            c != "#" or (p.past and undone(FRAGMENT_AGAINST_OPAQUE_BASE)))):
        raise p.fail("missing-scheme-non-relative-URL", "1")
    url = p.url
    if isinstance(base.path, str) and c == "#":
        url.scheme = base.scheme
        url.path = base.path
        url.query = base.query
        url.fragment = ""
        p.fact(FactKind.FROM_BASE, "2", "scheme", "path", "query")
        p.state = fragment_state
        return "2"
    if base.scheme != "file":
        p.state = relative_state
        p.pointer -= 1
        return "3"
    p.state = file_state
    p.pointer -= 1
    return "4"


def special_relative_or_authority_state(p: Parser, c: str) -> str:
    if c == "/" and p.remaining_starts_with("/"):
        p.state = special_authority_ignore_slashes_state
        p.pointer += 1
        return "1"
    p.error("special-scheme-missing-following-solidus", "2")
    p.state = relative_state
    p.pointer -= 1
    return "2"


def path_or_authority_state(p: Parser, c: str) -> str:
    if c == "/":
        p.state = authority_state
        return "1"
    p.state = path_state
    p.pointer -= 1
    return "2"


def relative_state(p: Parser, c: str) -> str:
    base = p.base
    assert base is not None and base.scheme != "file"
    url = p.url
    # step 2
    url.scheme = base.scheme
    p.fact(FactKind.FROM_BASE, "2", "scheme")
    if p.live:
        p.ran("2")
    # step 3
    if c == "/":
        p.state = relative_slash_state
        return "3"
    # step 4
    if url.scheme in p.specials and c == "\\":
        p.error("invalid-reverse-solidus", "4")
        p.state = relative_slash_state
        return "4"
    # step 5.1 (variant 06b2e68, relative-copies-credentials: before, the username and password
    # were not copied)
    if not (p.past and undone(RELATIVE_COPIES_CREDENTIALS)):
        url.username = base.username
        url.password = base.password
        url.password_non_null = base.password_non_null  # (variant 5e0b05e)
    url.host = base.host
    url.port = base.port
    url.path = list(base.path)
    url.query = base.query
    p.fact(FactKind.FROM_BASE, "5.1", "username", "password", "host", "port", "path", "query")
    # step 5.2
    if c == "?":
        if p.live:
            p.ran("5.1")
        url.query = ""
        p.fact(FactKind.FROM_INPUT, "5.2", "query")
        p.state = query_state
        return "5.2"
    # step 5.3
    if c == "#":
        if p.live:
            p.ran("5.1")
        url.fragment = ""
        p.state = fragment_state
        return "5.3"
    # step 5.4
    if c != EOF:
        if p.live:
            p.ran("5.1")
        url.query = None
        if p.live:
            p.ran("5.4.1")
        _shorten(p, "5.4.2")
        p.state = path_state
        p.pointer -= 1
        return "5.4.3"
    return "5.1"


def relative_slash_state(p: Parser, c: str) -> str:
    url = p.url
    if url.scheme in p.specials and c in ("/", "\\"):
        if c == "\\":
            p.error("invalid-reverse-solidus", "1.1")
        p.state = special_authority_ignore_slashes_state
        return "1.2"
    if c == "/":
        # (variant b087fe2, non-special-path-parsing: before, "If either c is "/", or url is
        # special and c is "\", ...: set state to special authority ignore slashes state")
        if p.past and undone(NON_SPECIAL_PATH_PARSING):
            p.state = special_authority_ignore_slashes_state
            return "1.2"
        p.state = authority_state
        return "2"
    base = p.base
    assert base is not None
    # (variant 06b2e68, relative-copies-credentials: before, the username and password were not
    # copied)
    if not (p.past and undone(RELATIVE_COPIES_CREDENTIALS)):
        url.username = base.username
        url.password = base.password
        url.password_non_null = base.password_non_null  # (variant 5e0b05e)
    url.host = base.host
    url.port = base.port
    p.fact(FactKind.FROM_BASE, "3", "username", "password", "host", "port")
    p.state = path_state
    p.pointer -= 1
    return "3"


def special_authority_slashes_state(p: Parser, c: str) -> str:
    if c == "/" and p.remaining_starts_with("/"):
        p.state = special_authority_ignore_slashes_state
        p.pointer += 1
        return "1"
    p.error("special-scheme-missing-following-solidus", "2")
    p.state = special_authority_ignore_slashes_state
    p.pointer -= 1
    return "2"


def special_authority_ignore_slashes_state(p: Parser, c: str) -> str:
    if c not in ("/", "\\"):
        p.state = authority_state
        p.pointer -= 1
        return "1"
    p.error("special-scheme-missing-following-solidus", "2")
    return "2"


def authority_state(p: Parser, c: str) -> str:
    url = p.url
    if c == "@":
        # step 1.1-1.3 (variant e0c721b, credentials-non-conforming: before, "If the @ flag is
        # set, parse error, prepend "%40" to buffer": no error for the first "@")
        if p.at_sign_seen or not (p.past and undone(CREDENTIALS_NON_CONFORMING)):
            p.error("invalid-credentials", "1.1")
        if p.at_sign_seen:
            p.buffer.insert(0, "%40")
            p.fact(FactKind.USERINFO_AT_ENCODED, "1.2",
                   "password" if p.password_token_seen else "username")
        p.at_sign_seen = True
        # step 1.4: for each code point of buffer, the first ":" (if no password token was seen)
        # switches to the password; everything else is percent-encoded with the userinfo set.
        # Done per run of code points rather than per code point: the same result.
        buffer = "".join(p.buffer)
        # (variant 7b40216, tab-newline-stripped: before, "If codePoint is U+0009, U+000A, or
        # U+000D, run these substeps for the next code point")
        if p.past and undone(TAB_NEWLINE_STRIPPED):
            buffer = buffer.translate(_STRIP_TABLE)
        if p.password_token_seen:
            user, password = "", buffer
        else:
            user, sep, password = buffer.partition(":")
            p.password_token_seen = sep == ":"
            # (variant 5e0b05e, password-not-nullable: before, "If codePoint is ":" and url's
            # password is null, set url's password to the empty string": non-null, even empty)
            if sep and p.past and undone(PASSWORD_NOT_NULLABLE):
                url.password_non_null = True
        if user:
            # (variants c296e2f, 9ca26e5, 7876306: the set of the day, see userinfo_set)
            encoded = utf8_percent_encode(user, userinfo_set(authority=True))
            if encoded != user:
                p.fact(FactKind.USERINFO_ENCODED, "1.4.2", "username")
            p.username_parts.append(encoded)
            if p.live:  # step 1.4.4
                _join_userinfo(p)
                p.ran("1.4.4")
        if password:
            encoded = utf8_percent_encode(password, userinfo_set(True, authority=True))
            if encoded != password:
                p.fact(FactKind.USERINFO_ENCODED, "1.4.2", "password")
            p.password_parts.append(encoded)
            if p.live:  # step 1.4.3
                _join_userinfo(p)
                p.ran("1.4.3")
        # step 1.5
        p.buffer = []
        return "1.5"
    if c in ("", "/", "?", "#") or (c == "\\" and url.scheme in p.specials):
        _join_userinfo(p)
        # step 2.1
        if p.at_sign_seen and not p.buffer:
            # variant 3e8cd02 (credentials-no-host-host-missing): before, "invalid-credentials
            # validation error, return failure"
            raise p.fail("invalid-credentials" if undone(CREDENTIALS_NO_HOST_HOST_MISSING)
                         else "host-missing", "2.1")
        # step 2.2
        p.pointer -= len(p.buffer) + 1
        p.buffer = []
        p.state = host_state
        return "2.2"
    # step 3
    p.buffer.append(c)
    return "3"


def _join_userinfo(p: Parser) -> None:
    """Append the authority state's pending username and password code points (step 1.4) to
    the URL record."""
    if p.username_parts:
        p.url.username += "".join(p.username_parts)
        p.username_parts = []
    if p.password_parts:
        p.url.password += "".join(p.password_parts)
        p.password_parts = []


def host_state(p: Parser, c: str) -> str:
    url = p.url
    # step 1 (variant cf616f9, file-api-cleanup: before, no such step: the host
    # setters of a file URL ran the host state)
    if p.state_override is not None and url.scheme == "file" \
            and not undone(FILE_API_CLEANUP):
        p.pointer -= 1
        p.state = file_host_state
        return "1"
    special = url.scheme in p.specials
    # step 2
    if c == ":" and not p.inside_brackets:
        if not p.buffer:
            raise p.fail("host-missing", "2.1")
        # variant ec96993 (hostname-override-returns-before-port): before, this check came
        # after the host was parsed and set (below)
        if p.state_override is hostname_state \
                and not undone(HOSTNAME_OVERRIDE_RETURNS_BEFORE_PORT):
            _hostname_override_stop(p, "2.2")
        host = p.host_parse("".join(p.buffer), p.pointer - len(p.buffer), "2.3", "2.4")
        url.host = host
        p.fact(FactKind.HOST_PARSED, "2.3", "host")
        p.buffer = []
        if p.state_override is hostname_state:  # (only while ec96993 is undone)
            _hostname_override_stop(p, "2.5")
        p.state = port_state
        return "2.5"
    # step 3
    if c in ("", "/", "?", "#") or (c == "\\" and special):
        start = p.pointer - len(p.buffer)
        p.pointer -= 1
        if special and not p.buffer:
            raise p.fail("host-missing", "3.1", start)
        # (variant cf616f9, file-api-cleanup: before, no step 3.2)
        if p.state_override is not None and not p.buffer and (
                url.includes_credentials or url.port is not None) \
                and not undone(FILE_API_CLEANUP):
            # variant c23aec1 (hostname-override-failures): before, "return" (not failure)
            if undone(HOSTNAME_OVERRIDE_FAILURES):
                raise p.returns("3.2", "the host cannot be emptied while the URL includes "
                                "credentials or has a port", True)
            raise p.fail_silently("3.2", "the host cannot be emptied while the URL includes "
                                  "credentials or has a port")
        url.host = p.host_parse("".join(p.buffer), start, "3.3", "3.4")
        p.fact(FactKind.HOST_PARSED, "3.3", "host")
        p.buffer = []
        p.state = path_start_state
        if p.state_override is not None:
            if p.live:
                p.ran("3.5")
            raise p.returns("3.6", "the host is set")
        return "3.5"
    # step 4
    if c == "[":
        p.inside_brackets = True
    elif c == "]":
        p.inside_brackets = False
    p.buffer.append(c)
    return "4.3"


def _hostname_override_stop(p: Parser, step: str) -> None:
    """host state, step 2.2: with the hostname state override, a ":" returns failure (a port is
    not allowed). Variant c23aec1 (hostname-override-failures): before, it returned. Step
    "2.5" is where the check sat before ec96993, after the host was set."""
    if undone(HOSTNAME_OVERRIDE_FAILURES):
        raise p.returns(step, "the state override is the hostname state: a port is not "
                        "allowed", step != "2.5")
    raise p.fail_silently(step, "the state override is the hostname state: a port is not "
                          "allowed")


def hostname_state(p: Parser, c: str) -> str:
    """url.bs: the host state and the hostname state are one state with two names."""
    return host_state(p, c)


def port_state(p: Parser, c: str) -> str:
    url = p.url
    # step 1
    if c in ASCII_DIGITS:
        p.buffer.append(c)
        return "1"
    # step 2
    if c in ("", "/", "?", "#") or (c == "\\" and url.scheme in p.specials) \
            or p.state_override is not None:
        if p.buffer:
            # step 2.1.1-2.1.2 (leading zeros do not change the value; a long run of digits is
            # out of range without converting it)
            digits = "".join(p.buffer).lstrip("0")
            # (variant c3a454c, port-16-bit: before, the port was the buffer, an ASCII string,
            # with no upper bound)
            if (len(digits) > 5 or (digits and int(digits) > 65535)) \
                    and not (p.past and undone(PORT_16_BIT)):
                raise p.fail("port-out-of-range", "2.1.2")
            port = int(digits) if digits else 0
            if p.facts is not None and len(p.buffer) > 1 and p.buffer[0] == "0":
                p.fact(FactKind.PORT_LEADING_ZEROS, "2.1.1", "port")
            url.port = None if port == p.specials.get(url.scheme) else port
            if url.port is None:
                p.fact(FactKind.PORT_DEFAULT_NULL, "2.1.3", "port")
            if p.live:
                p.ran("2.1.3")
            p.buffer = []
            if p.state_override is not None:
                raise p.returns("2.1.5", "the port is set")
        if p.state_override is not None:
            # variant cc8b776 (port-override-failure): before, "If state override is given,
            # then return"
            if undone(PORT_OVERRIDE_FAILURE):
                raise p.returns("2.2", "with a state override, the value does not start with "
                                "an ASCII digit", True)
            raise p.fail_silently("2.2", "with a state override, the value does not start with "
                                  "an ASCII digit")
        p.state = path_start_state
        p.pointer -= 1
        return "2.3"
    # step 3
    raise p.fail("port-invalid", "3")


def file_state(p: Parser, c: str) -> str:
    url = p.url
    # step 1-2
    if url.scheme != "file":
        # reached from the no scheme state (step 4): the scheme is file because base's is
        p.fact(FactKind.FROM_BASE, "1", "scheme")
    url.scheme = "file"
    if p.live:
        p.ran("1")
    # (variant a19495e, file-host-never-null: before, no step 2: the host stayed null)
    if not (p.past and undone(FILE_HOST_NEVER_NULL)):
        url.host = EMPTY_HOST
        if p.live:
            p.ran("2")
    # step 3
    if c in ("/", "\\"):
        if c == "\\":
            p.error("invalid-reverse-solidus", "3.1")
        p.state = file_slash_state
        return "3.2"
    base = p.base
    # step 4
    if base is not None and base.scheme == "file":
        url.host = base.host
        url.path = list(base.path)
        url.query = base.query
        p.fact(FactKind.FROM_BASE, "4.1", "host", "path", "query")
        if c != EOF and p.live:
            p.ran("4.1")
        if c == "?":
            url.query = ""
            p.fact(FactKind.FROM_INPUT, "4.2", "query")
            p.state = query_state
            return "4.2"
        if c == "#":
            url.fragment = ""
            p.state = fragment_state
            return "4.3"
        if c != EOF:
            url.query = None
            if p.live:
                p.ran("4.4.1")
            # (variant fe6b251, file-drive-letter-at-end: before, "remaining consists of one
            # code point" was among the conditions to copy the base's path: "C:" at the end of
            # the input was no drive letter)
            if not starts_with_windows_drive_letter(p.input, p.pointer) or (
                    p.past and len(p.input) - p.pointer == 2
                    and undone(FILE_DRIVE_LETTER_AT_END)):
                _shorten(p, "4.4.2")
            else:
                p.error("file-invalid-Windows-drive-letter", "4.4.3.1")
                url.path = []
                # (variant 47efa00, file-path-normalization: before, "Set url's host to null
                # and url's path to an empty list")
                if p.past and undone(FILE_PATH_NORMALIZATION):
                    url.host = None
                if p.live:
                    p.ran("4.4.3.2")
            p.state = path_state
            p.pointer -= 1
            return "4.4.4"
        return "4.1"
    # step 5 (variant 698f3e8, file-state-without-base: before, the state switched on c, and
    # with no file base the EOF code point, "?" and "#" did nothing: the state stayed the file
    # state, and "file:?x" had the path "x")
    if (c == EOF or c == "?" or c == "#") and p.past and undone(FILE_STATE_WITHOUT_BASE):
        return "5"
    p.state = path_state
    p.pointer -= 1
    return "5"


def file_slash_state(p: Parser, c: str) -> str:
    url = p.url
    # step 1
    if c in ("/", "\\"):
        if c == "\\":
            p.error("invalid-reverse-solidus", "1.1")
        p.state = file_host_state
        return "1.2"
    # step 2
    base = p.base
    if base is not None and base.scheme == "file":
        # (variants 47efa00 and 6103e0a: the step as it read before them)
        if p.past and undone(FILE_PATH_NORMALIZATION):
            _file_slash_state_2017(p, base)
            p.state = path_state
            p.pointer -= 1
            return "2.2"
        url.host = base.host
        p.fact(FactKind.FROM_BASE, "2.1.1", "host")
        if p.live:
            p.ran("2.1.1")
        # (variant 2eef975, file-slash-drive-letter: before, the base's drive letter was
        # appended whatever the input started with)
        if ((not starts_with_windows_drive_letter(p.input, p.pointer)
             or (p.past and undone(FILE_SLASH_DRIVE_LETTER)))
                and isinstance(base.path, list) and base.path
                and is_normalized_windows_drive_letter(base.path[0])):
            assert isinstance(url.path, list)
            url.path.append(base.path[0])
            p.fact(FactKind.FROM_BASE, "2.1.2", "path")
            if p.live:
                p.ran("2.1.2")
    p.state = path_state
    p.pointer -= 1
    return "2.2"


def _file_slash_state_2017(p: Parser, base: URLRecord) -> None:
    """The file slash state's step 2.1 with a file base, as url.bs read it before 47efa00
    "Changes to file URL path normalization" (2020). From 6103e0a (2017): "If base is non-null,
    base's scheme is "file", and the substring from pointer in input does not start with a
    Windows drive letter, then: If base's path[0] is a normalized Windows drive letter, then
    append base's path[0] to url's path. Otherwise, set url's host to base's host." (the
    drive-letter condition is 2eef975's; before it, none). Before 6103e0a: "If base is
    non-null, base's scheme is "file", and base's path[0] is a normalized Windows drive letter,
    append base's path[0] to url's path": the host was not copied."""
    url = p.url
    if starts_with_windows_drive_letter(p.input, p.pointer) \
            and not undone(FILE_SLASH_DRIVE_LETTER):
        return
    if isinstance(base.path, list) and base.path \
            and is_normalized_windows_drive_letter(base.path[0]):
        assert isinstance(url.path, list)
        url.path.append(base.path[0])
        p.fact(FactKind.FROM_BASE, "2.1.2", "path")
        if p.live:
            p.ran("2.1.2")
    elif not undone(FILE_PATH_TRIM_LEADING_EMPTY):
        url.host = base.host
        p.fact(FactKind.FROM_BASE, "2.1.1", "host")
        if p.live:
            p.ran("2.1.1")


def file_host_state(p: Parser, c: str) -> str:
    url = p.url
    # step 1
    if c in ("", "/", "\\", "?", "#"):
        start = p.pointer - len(p.buffer)
        p.pointer -= 1
        buffer = "".join(p.buffer)
        # step 1.1
        if p.state_override is None and is_windows_drive_letter(buffer):
            p.error("file-invalid-Windows-drive-letter-host", "1.1", start)
            p.state = path_state
            return "1.1"
        # step 1.2
        if buffer == "":
            # (variant cf616f9, file-api-cleanup: before, "Otherwise, if buffer is the
            # empty string, set state to path start state": the host was left as it was)
            if not (p.past and undone(FILE_API_CLEANUP)):
                url.host = EMPTY_HOST
                if p.live:
                    p.ran("1.2.1")
            if p.state_override is not None:
                raise p.returns("1.2.2", "the host is the empty host")
            p.state = path_start_state
            return "1.2.3"
        # step 1.3
        host: Host | None = p.host_parse(buffer, start, "1.3.1", "1.3.2")
        # (variant bb36bd9, file-localhost-empty: before, "Set url's host to host", localhost
        # too)
        if host == "localhost" and not (p.past and undone(FILE_LOCALHOST_EMPTY)):
            # (variant cf616f9, file-api-cleanup: before, "If host is not
            # "localhost", set url's host to host": localhost left the host as it was)
            host = url.host if p.past and undone(FILE_API_CLEANUP) else EMPTY_HOST
            p.fact(FactKind.LOCALHOST_EMPTY, "1.3.3", "host")
        url.host = host
        p.fact(FactKind.HOST_PARSED, "1.3.1", "host")
        if p.live:
            p.ran("1.3.4")
        if p.state_override is not None:
            raise p.returns("1.3.5", "the host is set")
        p.buffer = []
        p.state = path_start_state
        return "1.3.6"
    # step 2
    p.buffer.append(c)
    return "2"


def path_start_state(p: Parser, c: str) -> str | None:
    url = p.url
    # step 1
    if url.scheme in p.specials:
        if c == "\\":
            p.error("invalid-reverse-solidus", "1.1")
        p.state = path_state
        if c not in ("/", "\\"):
            p.pointer -= 1
            if p.state_override is None:  # c is ?, # or EOF: the path state appends ""
                p.fact(FactKind.SPECIAL_EMPTY_PATH, "1.3", "path")
            return "1.3"
        return "1.2"
    # (variant b087fe2, non-special-path-parsing: before, no steps 2-4, see _path_start_2016)
    if p.past and undone(NON_SPECIAL_PATH_PARSING):
        return _path_start_2016(p, c)
    # step 2
    if p.state_override is None and c == "?":
        url.query = ""
        p.state = query_state
        return "2"
    # step 3
    if p.state_override is None and c == "#":
        url.fragment = ""
        p.state = fragment_state
        return "3"
    # step 4
    if c != EOF:
        p.state = path_state
        if c != "/":
            p.pointer -= 1
            return "4.2"
        return "4.1"
    # step 5 (variant 0672f2e, path-start-override-empty-segment: before, there was no step 5)
    if p.state_override is not None and url.host is None \
            and not undone(PATH_START_OVERRIDE_EMPTY_SEGMENT):
        assert isinstance(url.path, list)
        url.path.append("")
        return "5"
    return None


def _path_start_2016(p: Parser, c: str) -> str:
    """The path start state of a non-special URL before b087fe2 "Change path parsing for
    non-special URLs" (2017): "Set state to path state, and if neither c is "/", nor url is
    special and c is "\", decrease pointer by one": "?", "#" and the EOF code point went to the
    path state too, which appended an empty segment (the path was never empty). The steps
    cited are today's that do the same for other code points."""
    p.state = path_state
    if c != "/":
        p.pointer -= 1
        return "4.2"
    return "4.1"


def path_state(p: Parser, c: str) -> str:
    url = p.url
    special = url.scheme in p.specials
    # step 1
    if c == "" or c == "/" or (special and c == "\\") or (
            p.state_override is None and c in ("?", "#")):
        path = url.path
        assert isinstance(path, list)
        slash = c == "/" or (special and c == "\\")
        # step 1.1
        if special and c == "\\":
            p.error("invalid-reverse-solidus", "1.1")
        buffer = "".join(p.buffer)
        # step 1.2
        if is_double_dot(buffer):
            _shorten(p, "1.2.1")
            step = "1.2.1"
            if not slash:
                path.append("")
                step = "1.2.2"
        # step 1.3 (only when c is not a slash: otherwise no step of 1.2-1.4 applies and the
        # segment is dropped by step 1.5 alone)
        elif is_single_dot(buffer):
            if not slash:
                path.append("")
                p.fact(FactKind.SINGLE_DOT_EMPTY_SEGMENT, "1.3", "path")
                step = "1.3"
            else:
                p.fact(FactKind.SINGLE_DOT_DROPPED, "1.5", "path")
                step = "1.5"
        # step 1.4
        else:
            if url.scheme == "file" and not path and is_windows_drive_letter(buffer):
                # (variant 47efa00, file-path-normalization: before, "If url's host is neither
                # the empty string nor null, validation error, set url's host to the empty
                # string")
                if p.past and url.host != "" and url.host is not None \
                        and undone(FILE_PATH_NORMALIZATION):
                    p.error("file-host-with-Windows-drive-letter", "1.4.1")
                    url.host = EMPTY_HOST
                if buffer[1] != ":":
                    p.fact(FactKind.DRIVE_LETTER_NORMALIZED, "1.4.1", "path")
                buffer = buffer[0] + ":"
            path.append(buffer)
            step = "1.4.2"
        # step 1.5
        p.buffer = []
        # (variants 6103e0a and 47efa00: between them, "If url's scheme is "file" and c is the
        # EOF code point, U+003F (?), or U+0023 (#), then while url's path's size is greater
        # than 1 and url's path[0] is the empty string, validation error, remove the first item
        # from url's path")
        if p.past and not slash and url.scheme == "file":
            _trim_file_path_2017(p, path)
        # step 1.6-1.7
        if c == "?":
            if p.live and step != "1.5":
                p.ran(step)
            url.query = ""
            p.state = query_state
            return "1.6"
        if c == "#":
            if p.live and step != "1.5":
                p.ran(step)
            url.fragment = ""
            p.state = fragment_state
            return "1.7"
        if p.live and step != "1.5" and step != "1.2.1":
            p.ran(step)
        return "1.5"
    # step 2.1-2.2
    if c not in _PATH_SAFE:
        # variant fbff683 (path-stop-decoding-dot): before, "If c is "%" and remaining, ASCII
        # lowercased, starts with "2e", append "." to buffer and increase pointer by two" (the
        # text bee5ad8 added: undoing both restores the text before both, today's)
        if c == "%" and p.past and undone(PATH_STOP_DECODING_DOT) \
                and not undone(PATH_DECODE_DOT) \
                and p.input[p.pointer + 1:p.pointer + 3].lower() == "2e":
            p.buffer.append(".")
            p.pointer += 2
            return "2.3"
        p.check_url_unit(c, ("2.1", "2.2"))
        # step 2.3 (variant: before U+005E (^) was in the path percent-encode set, it was kept)
        encoded = c if (c == "^" and undone(PATH_PERCENT_ENCODE_CARET)) or (
            c in "{}" and undone(ENCODE_BRACES)) else \
            utf8_percent_encode(c, PATH_SET)
        if p.facts is not None and encoded != c:
            p.fact(FactKind.PATH_ENCODED, "2.3", "path")
        p.buffer.append(encoded)
    else:
        p.buffer.append(c)
    return "2.3"


def _trim_file_path_2017(p: Parser, path: list[str]) -> None:
    """The path state's step that 6103e0a "URL: trim leading slashes of file URL paths" (2017)
    added and 47efa00 "Changes to file URL path normalization" (2020) removed: read while 47efa00
    is undone and 6103e0a is not."""
    if len(path) > 1 and path[0] == "" and undone(FILE_PATH_NORMALIZATION) \
            and not undone(FILE_PATH_TRIM_LEADING_EMPTY):
        while len(path) > 1 and path[0] == "":
            p.error("file-path-leading-empty-segment", "1.5")
            del path[0]


def opaque_path_state(p: Parser, c: str) -> str | None:
    url = p.url
    # The path's code points collect in buffer (unused in this state) and join the path when the
    # state ends: appending to a string one code point at a time would be quadratic. The trace
    # shows the spec's view (see _APPENDING).
    if c == "?" or c == "#" or c == EOF:
        assert isinstance(url.path, str)
        url.path += "".join(p.buffer)
        p.buffer = []
        # step 1
        if c == "?":
            url.query = ""
            p.state = query_state
            return "1"
        # step 2
        if c == "#":
            url.fragment = ""
            p.state = fragment_state
            return "2"
        return None
    # step 3
    if c == " ":
        p.error("invalid-URL-unit", "3.1")
        # variants 6c78200 (opaque-path-space-roundtrip): before, no step 3: a space was
        # appended as it is; b11d73b (opaque-path-space-before-hash): before, step 3.1 read
        # "U+003F (?) or U+003F (#)", so only "?" counted
        if p.input[p.pointer + 1:p.pointer + 2] in (
                ("?",) if undone(OPAQUE_PATH_SPACE_BEFORE_HASH) else ("?", "#")) \
                and not undone(OPAQUE_PATH_SPACE_ROUNDTRIP):
            p.fact(FactKind.OPAQUE_PATH_SPACE_ENCODED, "3.2", "path")
            p.buffer.append("%20")
            return "3.2"
        p.buffer.append(" ")
        return "3.3"
    # step 4
    if c not in _C0_SAFE:
        p.check_url_unit(c, ("4.1", "4.2"))
        encoded = utf8_percent_encode(c, C0_CONTROL_SET)
        if p.facts is not None and encoded != c:
            p.fact(FactKind.OPAQUE_PATH_ENCODED, "4.3", "path")
        p.buffer.append(encoded)
    else:
        p.buffer.append(c)
    return "4.3"


def query_state(p: Parser, c: str) -> str:
    url = p.url
    # step 1
    if p.encoding != "UTF-8" and (url.scheme not in p.specials or url.scheme in ("ws",
                                                                                    "wss")):
        p.encoding = "UTF-8"
    # step 2
    if (p.state_override is None and c == "#") or c == EOF:
        encode_set = _query_set_past(p) if p.past else \
            SPECIAL_QUERY_SET if url.scheme in p.specials else QUERY_SET
        buffer = "".join(p.buffer)
        # (variants 04f5bd0 and f0e4390, with an encoding other than UTF-8: _query_encode_past)
        encoded = _query_encode_past(p, buffer, encode_set) \
            if p.past and p.encoding != "UTF-8" else \
            percent_encode_after_encoding(p.encoding, buffer, encode_set)
        if p.facts is not None and encoded != buffer:
            p.fact(FactKind.QUERY_ENCODED, "2.2", "query")
        url.query = (url.query or "") + encoded
        if p.live:
            p.ran("2.2")
        p.buffer = []
        if c == "#":
            url.fragment = ""
            p.state = fragment_state
            return "2.4"
        return "2.3"
    # step 3
    if c not in ASCII_URL_CODE_POINTS:
        p.check_url_unit(c, ("3.1", "3.2"))
    p.buffer.append(c)
    return "3.3"


def fragment_state(p: Parser, c: str) -> str | None:
    url = p.url
    # As in the opaque path state, the fragment's code points collect in buffer and join the
    # fragment at the end of input; the trace shows the spec's view (see _APPENDING).
    if c == EOF:
        url.fragment = (url.fragment or "") + "".join(p.buffer)
        p.buffer = []
        return None
    # step 1
    if c not in _FRAGMENT_SAFE:
        if p.past:
            return _fragment_state_past(p, c)
        p.check_url_unit(c, ("1.1", "1.2"))
        encoded = utf8_percent_encode(c, FRAGMENT_SET)
        if p.facts is not None and encoded != c:
            p.fact(FactKind.FRAGMENT_ENCODED, "1.3", "fragment")
        p.buffer.append(encoded)
    else:
        p.buffer.append(c)
    return "1.3"


_QUERY_SET_2015 = QUERY_SET.union("query percent-encode set, with ` (before f54c44d)", "`")
_SPECIAL_QUERY_SET_2015 = SPECIAL_QUERY_SET.union(
    "special-query percent-encode set, with ` (before f54c44d)", "`")


def _query_set_past(p: Parser) -> PercentEncodeSet:
    """The query state's step 2.1 encode set, while changes are undone."""
    # variant 6ef17eb (special-query-apostrophe): before, a special URL's query used the query
    # percent-encode set too: ' was not encoded
    special = p.url.scheme in p.specials and not undone(SPECIAL_QUERY_APOSTROPHE)
    # variant f54c44d (query-backtick-kept): before, "0x22, 0x23, 0x3C, 0x3E, and 0x60" were
    # percent-encoded: ` too
    if undone(QUERY_BACKTICK_KEPT):
        return _SPECIAL_QUERY_SET_2015 if special else _QUERY_SET_2015
    return SPECIAL_QUERY_SET if special else QUERY_SET


def _query_encode_past(p: Parser, buffer: str, encode_set: PercentEncodeSet) -> str:
    """The query state's step 2.2 with an encoding other than UTF-8, while changes are
    undone."""
    # variant f0e4390 (query-ncr-percent-encoded): before, "Set buffer to the result of encoding
    # buffer using encoding. For each byte in buffer: If byte is less than 0x21 (!), greater
    # than 0x7E (~), or is 0x22 ("), 0x23 (#), 0x3C (<), or 0x3E (>), append byte, percent
    # encoded ...": the whole buffer at once, and an unencodable code point's "&#N;" (encode's
    # html mode) bytes like any others: "&%23N;". (Undoing it restores that text, whatever
    # 04f5bd0, which came later.)
    if undone(QUERY_NCR_PERCENT_ENCODED):
        return "".join(
            percent_encode_bytes(output, encode_set) + (
                "" if error is None else percent_encode_bytes(b"&#%d;" % error, encode_set))
            for output, error in encode_or_fail_chunks(get_encoding(p.encoding),
                                                       to_usv(buffer)))
    # variant 04f5bd0 (query-buffered): before, each code point was percent-encoded after
    # encoding as it came, "code-point-for-code-point": a stateful encoder (ISO-2022-JP) began
    # and ended its escape at each one
    if undone(QUERY_BUFFERED):
        return "".join(percent_encode_after_encoding(p.encoding, ch, encode_set)
                       for ch in buffer)
    return percent_encode_after_encoding(p.encoding, buffer, encode_set)


def _fragment_state_past(p: Parser, c: str) -> str:
    """The fragment state's step 1 for a code point it may encode, while changes are undone."""
    # variant 3d57401 (fragment-nul-encoded): before, "U+0000 NULL: Validation error." and
    # nothing appended
    if c == "\0" and undone(FRAGMENT_NUL_ENCODED):
        p.error("invalid-URL-unit", "1.1")
        return "1.1"
    p.check_url_unit(c, ("1.1", "1.2"))
    # variant 373dbed (fragment-percent-encoded): before, "Append c to url's fragment"; variant
    # 7a3c69f (fragment-percent-encode-set): before, "UTF-8 percent encode c using the C0
    # control percent-encode set" (373dbed's "simple encode set", renamed)
    encoded = c if undone(FRAGMENT_PERCENT_ENCODED) else utf8_percent_encode(
        c, C0_CONTROL_SET if undone(FRAGMENT_PERCENT_ENCODE_SET) else FRAGMENT_SET)
    if p.facts is not None and encoded != c:
        p.fact(FactKind.FRAGMENT_ENCODED, "1.3", "fragment")
    p.buffer.append(encoded)
    return "1.3"


STATES: tuple[State, ...] = (
    scheme_start_state, scheme_state, no_scheme_state, special_relative_or_authority_state,
    path_or_authority_state, relative_state, relative_slash_state,
    special_authority_slashes_state, special_authority_ignore_slashes_state, authority_state,
    host_state, hostname_state, port_state, file_state, file_slash_state, file_host_state,
    path_start_state, path_state, opaque_path_state, query_state, fragment_state,
)
STATE_NAMES: dict[Callable[..., Any], str] = {s: s.__name__.replace("_", " ") for s in STATES}
STATES_BY_NAME: dict[str, State] = {v: k for k, v in STATE_NAMES.items()}


# ---------------------------------------------------------------------------------------------
# The basic URL parser


_STRIP_TABLE = {9: None, 10: None, 13: None}


def basic_url_parse(
    input: str,
    base: URLRecord | None = None,
    encoding: str = "UTF-8",
    *,
    observer: Observer | None = None,
    errors: list[ValidationError] | None = None,
    _fast: bool = True,
    taken: set[tuple[State, str | None]] | None = None,
) -> URLRecord | ParseFailure:
    """url.bs: basic URL parser, with no url and no state override given (the URL constructor,
    the href setter, the parse of a base): the new URL record, or a ``ParseFailure`` (failure,
    carrying the validation error that caused it). Validation errors are appended to
    ``errors`` when given. ``_fast=False`` turns off the fast path (urlcalc.standard.fastpath), for
    tests and benchmarks."""
    result = _basic_url_parse(input, base, encoding, None, None, observer, errors, _fast,
                               taken)
    assert not isinstance(result, ParseReturn)  # only a state override returns early
    return result


def state_override_parse(
    input: str,
    url: URLRecord,
    state_override: State,
    *,
    observer: Observer | None = None,
    errors: list[ValidationError] | None = None,
) -> ParseFailure | ParseReturn | None:
    """url.bs: basic URL parser with url and state override given (the setters): changes
    ``url`` in place; a ``ParseReturn`` when a state override made it return before the end of
    input (``ignored``: the URL is unchanged), a ``ParseFailure``, or None when it ran to the
    end."""
    result = _basic_url_parse(input, None, "UTF-8", url, state_override, observer, errors,
                              False)
    return None if isinstance(result, URLRecord) else result


def _basic_url_parse(
    input: str,
    base: URLRecord | None,
    encoding: str,
    url: URLRecord | None,
    state_override: State | None,
    observer: Observer | None,
    errors: list[ValidationError] | None,
    _fast: bool,
    taken: set[tuple[State, str | None]] | None = None,
) -> URLRecord | ParseFailure | ParseReturn:
    """url.bs: basic URL parser (both entry points above). ``taken``, when given, receives each
    (state, step) that applied (urlcalc.standard.coverage's)."""
    if url is None and observer is None and encoding == "UTF-8" and _fast and taken is None \
            and not any_undone():
        # urlcalc.standard.fastpath: the same record for inputs that need no state machine quirks
        fast = fast_parse(input, base)
        if fast is not None:
            return fast
    # step 1 (only when url is not given)
    if url is None:
        url = URLRecord()
        trimmed_input, lead = _trim(input)
    else:
        trimmed_input, lead = input, 0
    # step 2-3
    processed, index_map = _remove_tab_and_newline(trimmed_input, lead)
    # (variant 7b40216, tab-newline-stripped: before, no steps 2-3: the states met tab and
    # newline, see _run_tabs_2016)
    tabs_2016 = index_map is not None and undone(TAB_NEWLINE_STRIPPED)
    if tabs_2016:
        processed, index_map = trimmed_input, None
    # step 5
    encoding = get_output_encoding(get_encoding(encoding)) if encoding != "UTF-8" else encoding
    p = Parser(processed, base, encoding, url, state_override, observer)
    p.lead = lead
    p.index_map = index_map
    early: list[ValidationError] = []
    trimmed = lead or len(trimmed_input) != len(input)
    if trimmed:
        # step 1.2
        early.append(ValidationError("invalid-URL-unit", 0 if lead else len(input) - 1,
                                     "(before the state machine)", "", "basic URL parser",
                                     "1.2"))
    if index_map is not None:
        # step 2
        first = next(i for i, ch in enumerate(trimmed_input) if ch in "\t\n\r")
        early.append(ValidationError("invalid-URL-unit", lead + first,
                                     "(before the state machine)", "", "basic URL parser", "2"))
    p.errors = early
    driver = url_steps(observer) if observer is not None else None
    if driver is not None and early:
        # The preprocessing steps that applied (url.bs: basic URL parser, steps 1.2-1.3, 2-3).
        if trimmed:
            driver.preprocessing(p, "1.2", "the input has leading or trailing C0 control or "
                                 "space: validation error", None, early[0])
            driver.preprocessing(p, "1.3", "remove the leading and trailing C0 control or "
                                 "space", trimmed_input, None)
        if index_map is not None:
            driver.preprocessing(p, "2", "the input contains ASCII tab or newline: "
                                 "validation error", None, early[-1])
            driver.preprocessing(p, "3", "remove all ASCII tab or newline", processed, None)
    try:
        if tabs_2016:
            _run_tabs_2016(p, driver)
        elif taken is not None:
            _run_taking(p, taken)
        elif driver is None:
            _run(p)
        else:
            _run_observed(p, driver)
    except ParseFailure as failure:
        if errors is not None:
            errors.extend(p.errors)
        return failure
    except ParseReturn as early_return:
        if errors is not None:
            errors.extend(p.errors)
        return early_return
    if errors is not None:
        errors.extend(p.errors)
    # step 11
    return url


def _trim(input: str) -> tuple[str, int]:
    """url.bs: basic URL parser, step 1.3: ``input`` without its leading and trailing C0 control
    or space, and how many code points led."""
    stripped = input.strip(_C0_CONTROL_OR_SPACE)
    if stripped is input or len(stripped) == len(input):
        return input, 0
    # variant 0bab926 (trim-c0-control-or-space): before, "Remove any leading and trailing ASCII
    # whitespace from input"
    strip = _ASCII_WHITESPACE if undone(TRIM_C0_CONTROL_OR_SPACE) else _C0_CONTROL_OR_SPACE
    stripped = input.strip(strip)
    return stripped, len(input) - len(input.lstrip(strip))


def _remove_tab_and_newline(input: str, lead: int) -> tuple[str, list[int] | None]:
    """url.bs: basic URL parser, step 3: ``input`` without ASCII tab or newline, and (when any
    was removed) the index in the original input of each code point kept (``lead`` code points
    were trimmed before ``input``)."""
    if "\t" in input or "\n" in input or "\r" in input:
        return (input.translate(_STRIP_TABLE),
                [lead + i for i, ch in enumerate(input) if ch not in "\t\n\r"])
    return input, None


def kept_indices(input: str) -> range | list[int]:
    """The indices of ``input``'s code points that the basic URL parser's preprocessing keeps
    (steps 1-3, no url given): the state machine reads these, in order."""
    trimmed, lead = _trim(input)
    processed, index_map = _remove_tab_and_newline(trimmed, lead)
    return index_map if index_map is not None else range(lead, lead + len(processed))


def _run(p: Parser) -> None:
    """url.bs: basic URL parser, step 10, with no observer."""
    input = p.input
    n = len(input)
    while True:
        pointer = p.pointer
        p.state(p, input[pointer] if pointer < n else EOF)
        if p.pointer >= n:
            return
        p.pointer += 1


class _Taking:
    """The driver of a covered parse (``_run_taking``): notes each step a state tells it ran."""

    __slots__ = ("taken",)

    def __init__(self, taken: set[tuple[State, str | None]]) -> None:
        self.taken = taken

    def ran(self, p: Parser, step: str, calls: str | None) -> None:
        self.taken.add((p.state, step))


def _run_taking(p: Parser, taken: set[tuple[State, str | None]]) -> None:
    """url.bs: basic URL parser, step 10, with no observer, adding to ``taken`` each (state,
    step) that applied, and the step that returned or returned failure."""
    input = p.input
    n = len(input)
    add = taken.add
    # The steps before the one a state returns (``Parser.ran``): told while ``live``, to a
    # driver that only notes them (no trace is built).
    p.live = True
    p.driver = cast("URLStepDriver[Parser]", _Taking(taken))
    p.shortenings = []  # (one per shortening: at most one per code point)
    while True:
        state = p.state
        try:
            add((state, state(p, input[p.pointer] if p.pointer < n else EOF)))
        except (ParseFailure, ParseReturn) as stop:
            add((state, stop.step))
            raise
        if p.pointer >= n:
            return
        p.pointer += 1


def _run_observed(p: Parser, driver: URLStepDriver[Parser]) -> None:
    """url.bs: basic URL parser, step 10, with an observer: the same loop, with the observer's
    ``driver`` (urlcalc.trace.driver) told before and after each state runs, and of the step
    the state returned or raised with."""
    observer = p.observer
    input = p.input
    n = len(input)
    p.driver = driver
    try:
        while True:
            _observed_step(p, driver, p.state, input[p.pointer] if p.pointer < n else EOF)
            if p.pointer >= n:
                return
            p.pointer += 1
    finally:
        p.observer = observer
        p.facts = None
        p.shortenings = None
        p.driver = None


def _observed_step(p: Parser, driver: URLStepDriver[Parser], state: State, c: str) -> None:
    """One state run with the observer's ``driver`` told before and after, and of the step the
    state returned or raised with."""
    driver.start(p)
    try:
        step = state(p, c)
    except (ParseFailure, ParseReturn) as stop:
        driver.finish(p, state, stop.step, stop)
        raise
    driver.finish(p, state, step, None)


_TAB_OR_NEWLINE = frozenset("\t\n\r")


def _run_tabs_2016(p: Parser, driver: URLStepDriver[Parser] | None) -> None:
    """url.bs: basic URL parser, step 10, before 7b40216 "Fix #101: always strip U+0009,
    U+000A, and U+000D" (2016), for an input that holds tab or newline (kept: no steps 2-3).
    The host, hostname, port (no state override), file host, path and query states read
    "Otherwise, if c is U+0009, U+000A, or U+000D, syntax violation" and the fragment state
    "U+0000 U+0009 U+000A U+000D: Syntax violation": the code point is skipped with an
    invalid-URL-unit error (today's name for it), as is the non-relative (opaque) path state's
    (not a URL code point, not appended); the authority state drops them from the userinfo
    ("If codePoint is U+0009, U+000A, or U+000D, run these substeps for the next code point");
    every other state reads them as it reads any other code point (a tab in a scheme ends
    it). With a ``driver``, the states that run are told to it as in ``_run_observed``."""
    observer = p.observer
    input = p.input
    n = len(input)
    skipping = (host_state, hostname_state, file_host_state, path_state, opaque_path_state,
                query_state, fragment_state)
    p.driver = driver
    try:
        while True:
            state = p.state
            c = input[p.pointer] if p.pointer < n else EOF
            if c in _TAB_OR_NEWLINE and (state in skipping or (
                    state is port_state and p.state_override is None)):
                p.error("invalid-URL-unit", None)
            elif driver is None:
                state(p, c)
            else:
                _observed_step(p, driver, state, c)
            if p.pointer >= n:
                return
            p.pointer += 1
    finally:
        p.observer = observer
        p.facts = None
        p.shortenings = None
        p.driver = None


def url_steps(observer: Observer) -> URLStepDriver[Parser]:
    """The driver that records one parse's steps for ``observer`` (urlcalc.standard.observer's
    ``Driven``)."""
    return cast("URLStepDriver[Parser]", driver_of(observer, "url_steps", "basic URL parser"))


# url.bs: URL parsing, the URL parser
def url_parse(input: str, base: URLRecord | None = None, encoding: str = "UTF-8",
              observer: Observer | None = None,
              errors: list[ValidationError] | None = None) -> URLRecord | ParseFailure:
    # step 1-2
    url = basic_url_parse(input, base, encoding, observer=observer, errors=errors)
    # step 3-5: urlcalc has no blob URL store, so a blob URL's blob URL entry stays null.
    return url


# url.bs: API, the API URL parser
def api_url_parse(url: str, base: str | None = None, observer: Observer | None = None,
                  errors: list[ValidationError] | None = None) -> URLRecord | ParseFailure:
    parsed_base: URLRecord | None = None
    if base is not None:
        b = basic_url_parse(base)
        if isinstance(b, ParseFailure):
            return b
        parsed_base = b
    return basic_url_parse(url, parsed_base, observer=observer, errors=errors)
