"""The validation errors of the URL Standard (url.bs: "Writing", the validation error table).

Every error is known by the spec's own name. ``ValidationError`` is one occurrence: the name, the
code-point index in the original input where it fired, and the parser state it fired in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

SPEC_URL = "https://url.spec.whatwg.org/"


class ValidationErrorJSON(TypedDict):
    """A validation error: its name in the URL Standard, where it fired, and what it means."""

    name: str
    #: the code-point index in the original input (null: not known)
    index: int | None
    #: the parser state it fired in
    state: str | None
    detail: str | None
    description: str
    #: the table's Failure column: "yes", "no", or a qualified "yes (...)"
    failure: str
    url: str
    #: the algorithm and step that raised it
    algorithm: str | None
    step: str | None


@dataclass(frozen=True, slots=True)
class ErrorType:
    """One row of the validation error table."""

    name: str
    group: str  # "IDNA", "Host parsing" or "URL parsing"
    description: str
    failure: str  # "yes", "no", or the table's qualified "yes (...)"

    @property
    def anchor(self) -> str:
        if self.name == "domain-to-ASCII":
            return "validation-error-domain-to-ascii"
        return self.name.lower()

    @property
    def url(self) -> str:
        return SPEC_URL + "#" + self.anchor


def _t(name: str, group: str, failure: str, description: str) -> ErrorType:
    return ErrorType(name, group, description, failure)


_IDNA, _HOST, _URL = "IDNA", "Host parsing", "URL parsing"

ERROR_TYPES: dict[str, ErrorType] = {
    e.name: e
    for e in (
        _t("domain-to-ASCII", _IDNA,
           "yes, when beStrict is true, or the domain is not an ASCII string and Unicode "
           "ToASCII with relaxed parameters also fails",
           "Unicode ToASCII records an error when CheckHyphens, UseSTD3ASCIIRules, and "
           "VerifyDnsLength are all set to true."),
        _t("domain-percent-encoded", _HOST, "no",
           "The input's host to be processed as a domain contains a percent-encoded byte."),
        _t("host-invalid-code-point", _HOST, "yes",
           "An opaque host (in a URL that is not special) contains a forbidden host code point."),
        _t("IPv4-empty-part", _HOST, "no", "An IPv4 address ends with a U+002E (.)."),
        _t("IPv4-too-few-parts", _HOST, "no", "An IPv4 address has fewer than 4 parts."),
        _t("IPv4-too-many-parts", _HOST, "yes", "An IPv4 address has more than 4 parts."),
        _t("IPv4-non-numeric-part", _HOST, "yes", "An IPv4 address part is not numeric."),
        _t("IPv4-non-decimal-part", _HOST, "no",
           "The IPv4 address contains numbers expressed using hexadecimal or octal digits."),
        _t("IPv4-out-of-range-part", _HOST, "yes (only if applicable to the last part)",
           "An IPv4 address part exceeds 255."),
        _t("IPv6-unclosed", _HOST, "yes", "An IPv6 address is missing the closing U+005D (])."),
        _t("IPv6-invalid-compression", _HOST, "yes",
           "An IPv6 address begins with improper compression."),
        _t("IPv6-too-many-pieces", _HOST, "yes", "An IPv6 address contains more than 8 pieces."),
        _t("IPv6-multiple-compression", _HOST, "yes",
           "An IPv6 address is compressed in more than one spot."),
        _t("IPv6-invalid-code-point", _HOST, "yes",
           "An IPv6 address contains a code point that is neither an ASCII hex digit nor a "
           "U+003A (:). Or it unexpectedly ends."),
        _t("IPv6-too-few-pieces", _HOST, "yes",
           "An uncompressed IPv6 address contains fewer than 8 pieces."),
        _t("IPv6-piece-leading-zero", _HOST, "no",
           "An IPv6 address piece contains a leading U+0030 (0)."),
        _t("IPv4-in-IPv6-too-many-pieces", _HOST, "yes",
           "An IPv6 address with IPv4 address syntax: the IPv6 address has more than 6 pieces."),
        _t("IPv4-in-IPv6-invalid-code-point", _HOST, "yes",
           "An IPv6 address with IPv4 address syntax: an IPv4 part is empty or contains a "
           "non-ASCII digit, an IPv4 part contains a leading 0, or there are too many IPv4 "
           "parts."),
        _t("IPv4-in-IPv6-out-of-range-part", _HOST, "yes",
           "An IPv6 address with IPv4 address syntax: an IPv4 part exceeds 255."),
        _t("IPv4-in-IPv6-too-few-parts", _HOST, "yes",
           "An IPv6 address with IPv4 address syntax: an IPv4 address contains too few parts."),
        _t("invalid-URL-unit", _URL, "no", "A code point is found that is not a URL unit."),
        _t("special-scheme-missing-following-solidus", _URL, "no",
           "The input's scheme is not followed by \"//\"."),
        _t("missing-scheme-non-relative-URL", _URL, "yes",
           "The input is missing a scheme, because it does not begin with an ASCII alpha, and "
           "either no base URL was provided or the base URL cannot be used as a base URL "
           "because it has an opaque path."),
        _t("invalid-reverse-solidus", _URL, "no",
           "The URL has a special scheme and it uses U+005C (\\) instead of U+002F (/)."),
        _t("invalid-credentials", _URL, "no", "The input includes credentials."),
        _t("host-missing", _URL, "yes",
           "The input has a special scheme, but does not contain a host."),
        _t("port-out-of-range", _URL, "yes", "The input's port is too big."),
        _t("port-invalid", _URL, "yes", "The input's port is invalid."),
        _t("file-invalid-Windows-drive-letter", _URL, "no",
           "The input is a relative-URL string that starts with a Windows drive letter and the "
           "base URL's scheme is \"file\"."),
        _t("file-invalid-Windows-drive-letter-host", _URL, "no",
           "A file: URL's host is a Windows drive letter."),
    )
}


#: Errors the table had before and today's has not, that the parser raises only with a change
#: undone (urlcalc.standard.variants): their rows as the table had them then.
FORMER_ERROR_TYPES: dict[str, ErrorType] = {
    e.name: e
    for e in (
        # until "Close gap between URL writing and parser sections" (2026)
        _t("domain-invalid-code-point", _IDNA, "yes",
           "The input's host contains a forbidden domain code point."),
        # two errors of the path state until "Changes to file URL path normalization" (2020),
        # when url.bs gave no validation error a name: urlcalc's names
        _t("file-host-with-Windows-drive-letter", _URL, "no",
           "A file: URL's path starts with a Windows drive letter while its host is not empty: "
           "the host is set to the empty host."),
        _t("file-path-leading-empty-segment", _URL, "no",
           "A file: URL's path starts with an empty segment: it is removed."),
    )
}


def error_type(name: str) -> ErrorType:
    """The row of the error ``name``: today's table's, else a former one's."""
    t = ERROR_TYPES.get(name)
    return t if t is not None else FORMER_ERROR_TYPES[name]


@dataclass(frozen=True, slots=True)
class ValidationError:
    """One validation error as it fired: name, code-point index in the original input, state.

    ``index`` is None when the error is not tied to a position (e.g. it fired inside a host
    given to a setter) and ``detail`` carries extra information (e.g. the UTS #46 error codes).
    """

    name: str
    index: int | None
    state: str
    detail: str = ""
    #: the algorithm (url.bs name) and its step that raised the error, when known
    algorithm: str = ""
    step: str | None = None

    @property
    def type(self) -> ErrorType:
        return error_type(self.name)

    def to_json(self) -> ValidationErrorJSON:
        t = error_type(self.name)
        return {
            "name": self.name,
            "index": self.index,
            "state": self.state,
            "detail": self.detail,
            "description": t.description,
            "failure": t.failure,
            "url": t.url,
            "algorithm": self.algorithm or None,
            "step": self.step,
        }
