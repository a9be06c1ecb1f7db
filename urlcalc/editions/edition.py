"""Shared data model of the editions: one result shape for six URL specifications.

Every edition module (see ``urlcalc.editions``) returns an :class:`EditionResult`. The
result keeps the edition's *own* components (in the edition's own vocabulary), the
eleven WHATWG getters mapped as well as the edition allows, the rules of the edition
that fired (:class:`Note`), the areas the edition's text leaves unspecified that this
input ran into, and an optional step-by-step trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict

from urlcalc.model.shapes import JSONValue
from urlcalc.standard.url import GETTERS as _GETTERS

#: The eleven getters of the current URL Standard, in the order of its IDL (urlcalc.standard.url's).
GETTERS: tuple[str, ...] = _GETTERS

#: ``EditionResult.status`` values.
STATUS_OK = "ok"
STATUS_FAILURE = "failure"
STATUS_UNSPECIFIED = "unspecified"
#: The edition was not run on this input (``error`` says why: the request's CPU budget was spent
#: before its turn).
STATUS_NOT_RUN = "not run"

#: ``Note.kind`` values: a rule of the edition's text; a place where the text is silent and
#: urlcalc had to choose to go on (the note says what urlcalc does); urlcalc's mapping of the
#: edition's components onto the eleven getters (only where the edition has no such getter).
KIND_RULE = "rule"
KIND_UNSPECIFIED = "unspecified"
KIND_MAPPING = "mapping"

JSON = dict[str, Any]


class NoteJSON(TypedDict):
    """A rule of the edition that fired: where it is in the edition's text and what it did."""

    rule: str
    #: a key of the edition's sections (its own words for that place)
    section: str
    text: str
    #: the getters whose value the rule decided
    getters: list[str]
    #: whose rule: "rule" (the edition's), "unspecified" (urlcalc's choice where the edition's
    #: text is silent) or "mapping" (urlcalc's getter mapping)
    kind: str


class EditionResultJSON(TypedDict):
    """One edition's reading of the input."""

    edition: str
    ok: bool
    #: "ok", "failure", "unspecified" or "not run" (then ``error`` says why)
    status: str
    error: str | None
    #: the edition's own components (their names and shapes differ by edition)
    components: dict[str, JSONValue]
    #: the WHATWG getters as this edition reads them (null: no such notion)
    getters: dict[str, str | None]
    mapping_notes: dict[str, str]
    notes: list[NoteJSON]
    unspecified: list[str]
    trace: list[dict[str, JSONValue]] | None


@dataclass(frozen=True)
class Note:
    """Which rule of the edition fired, where it is in the edition's text, and what it did.

    ``getters`` optionally names the WHATWG getters whose value this rule decided, so that
    ``compare`` can explain a difference in one getter by the rule that caused it. ``section``
    is a key of the edition module's ``SECTIONS`` (the seed's own words for that place).
    ``kind`` says whose rule it is: the edition's (``rule``), or urlcalc's choice where the
    edition's text is silent (``unspecified``), or urlcalc's getter mapping (``mapping``).
    """

    rule: str
    section: str
    text: str
    getters: tuple[str, ...] = ()
    kind: str = KIND_RULE

    def to_json(self) -> NoteJSON:
        return {
            "rule": self.rule,
            "section": self.section,
            "text": self.text,
            "getters": list(self.getters),
            "kind": self.kind,
        }


@dataclass
class EditionResult:
    """The outcome of reading one input (and base) with one edition."""

    edition: str
    ok: bool
    components: dict[str, Any] = field(default_factory=dict)
    getters: dict[str, str | None] = field(default_factory=dict)
    mapping_notes: dict[str, str] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    unspecified: list[str] = field(default_factory=list)
    trace: list[dict[str, Any]] | None = None
    error: str | None = None
    #: Getters under another reading of the same text (e.g. RFC 3986's non-strict parser,
    #: a seed's errata): what ``explain`` compares against to tell whether the reading caused
    #: a difference. Not part of the JSON answer (the components show what matters).
    alternatives: dict[str, dict[str, str | None]] = field(default_factory=dict)
    #: Not run on this input (``error`` says why).
    not_run: bool = False
    #: Getters the edition's text does not decide for this input though it reads the input
    #: (its text is cut off or silent there), each with the ``unspecified`` entry that says so:
    #: their cells are *unspecified*, not "no such notion" (the getter's value is None).
    unspecified_getters: dict[str, str] = field(default_factory=dict)

    @classmethod
    def skipped(cls, edition: str, reason: str) -> EditionResult:
        """The result of an edition not run on this input, for ``reason``."""
        return cls(edition=edition, ok=False, getters=empty_getters(), error=reason,
                   not_run=True)

    @property
    def status(self) -> str:
        """``ok``, ``failure`` (the edition rejects the input), ``unspecified`` or ``not run``.

        ``unspecified`` means the edition's text stops (a TODO, a stub, a cut-off seed)
        before it decides the outcome, so urlcalc does not invent one; ``not run``, that the
        request spent its CPU budget before this edition's turn.
        """
        if self.not_run:
            return STATUS_NOT_RUN
        if self.ok:
            return STATUS_OK
        if self.unspecified and self.error is None:
            return STATUS_UNSPECIFIED
        return STATUS_FAILURE

    def note(self, rule: str, section: str, text: str, getters: tuple[str, ...] = (),
             kind: str = KIND_RULE) -> None:
        """Record that ``rule`` (in ``section`` of the edition's text) fired; with ``kind``
        ``unspecified``, that urlcalc chose where that section is silent."""
        self.notes.append(Note(rule, section, text, getters, kind))

    def hit_unspecified(self, text: str) -> None:
        """Record an unspecified area this input ran into (once)."""
        if text not in self.unspecified:
            self.unspecified.append(text)

    def getter_unspecified(self, getter: str, text: str) -> None:
        """Record that the edition's text does not decide ``getter`` (``text`` says where it
        stops and what urlcalc does): its value is None and its cell *unspecified*."""
        self.getters[getter] = None
        self.unspecified_getters[getter] = text
        self.hit_unspecified(text)

    def fail(self, error: str) -> EditionResult:
        """Mark the result as a failure of the edition (it rejects the input)."""
        self.ok = False
        self.error = error
        return self

    def to_json(self) -> EditionResultJSON:
        return {
            "edition": self.edition,
            "ok": self.ok,
            "status": self.status,
            "error": self.error,
            "components": _jsonable_dict(self.components),
            "getters": dict(self.getters),
            "mapping_notes": dict(self.mapping_notes),
            "notes": [n.to_json() for n in self.notes],
            "unspecified": list(self.unspecified),
            "trace": [_jsonable_dict(step) for step in self.trace]
            if self.trace is not None else None,
        }


_CONTAINERS = (dict, list, tuple)


def _jsonable_dict(value: dict[str, Any]) -> dict[str, JSONValue]:
    """A dict of ``_jsonable`` values (leaves kept without a call, as in ``_jsonable``)."""
    return {str(k): _jsonable(v) if isinstance(v, _CONTAINERS) else v for k, v in value.items()}


def _jsonable(value: Any) -> JSONValue:
    """Turn tuples into lists (recursively) so that ``json.dumps`` round-trips cleanly."""
    # (a leaf, mostly a string, is kept as it is without a call: they are most of the values,
    # and this runs on every edition's components and trace on every keystroke)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) if isinstance(v, _CONTAINERS) else v
                for k, v in value.items()}
    if isinstance(value, _CONTAINERS):
        return [_jsonable(v) if isinstance(v, _CONTAINERS) else v for v in value]
    leaf: JSONValue = value  # a string, number, boolean or None
    return leaf


#: The longest label RFC 3490's ToASCII gives Punycode: step 8 refuses an ACE label over 63
#: octets, and "xn--" followed by the Punycode of n code points is at least 4 + n long (every
#: basic code point is copied, every other takes at least one digit), so a label of 60 or more
#: fails step 8 whatever it holds. The editions that apply ToASCII (html5_2009, formal_model)
#: decide that before step 6 rather than after: Punycode is quadratic (CPython's took about 1 s
#: on a label of 2,040 distinct code points, where a whole small compare takes 1 ms).
MAX_TOASCII_PUNYCODE = 59
#: What such a label's failure adds to the edition's own words.
TOASCII_DECIDED = (f"a label of over {MAX_TOASCII_PUNYCODE} code points after nameprep cannot "
                   f"fit 63 octets; decided before Punycode (step 6), which urlcalc does not run "
                   f"on it: it is quadratic")


def empty_getters() -> dict[str, str | None]:
    """All eleven getters set to ``None`` (no such notion / not determined)."""
    return dict.fromkeys(GETTERS)


def search_getter(query: str | None) -> str:
    """The current standard's ``search`` shape: ``""`` for null or empty, else ``"?" + q``."""
    return "" if not query else "?" + query


def hash_getter(fragment: str | None) -> str:
    """The current standard's ``hash`` shape: ``""`` for null or empty, else ``"#" + f``."""
    return "" if not fragment else "#" + fragment


class Edition(Protocol):
    """The small interface every edition module provides."""

    ID: str
    NAME: str
    YEAR: int
    SOURCE: str
    TERMS: dict[str, str]
    UNSPECIFIED: list[str]
    SECTIONS: dict[str, str]

    def parse(self, input: str, base: str | None = None) -> EditionResult: ...
