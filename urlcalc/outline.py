"""The outline: every step of the basic URL parser in brief, and the facts a step established.

A ``TraceRecorder`` (urlcalc.trace) keeps one ``OutlineEntry`` per state-machine step however long
the input and however short the trace, so that the result model can colour every code point of
the input and say where each record field came from (urlcalc.provenance). The facts are recorded
by the state functions themselves (urlcalc.parser), at the branch that applied, with the spec step
that did it: nothing downstream re-derives which step copies from the base or normalises a
component, so no step number is written twice.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from urlcalc.errors import ValidationError


class FactKind(Enum):
    """What a step did to the URL record beyond appending the input's own code points.

    The value is what the result model says about it (a normalisation), or, for the two source
    facts, what it records."""

    # Sources: which record fields a step set from the base URL (or, after such a copy in the
    # same step, from the input again).
    FROM_BASE = "copied from the base URL"
    FROM_INPUT = "set from the input"
    # Normalisations.
    SCHEME_LOWERCASED = "ASCII lowercased"
    USERINFO_AT_ENCODED = "an earlier @ kept as %40"
    USERINFO_ENCODED = "percent-encoded (userinfo percent-encode set)"
    HOST_PARSED = "the host parser's result"
    LOCALHOST_EMPTY = "\"localhost\" becomes the empty host"
    PORT_LEADING_ZEROS = "leading zeros dropped"
    PORT_DEFAULT_NULL = "the scheme's default port becomes null"
    SPECIAL_EMPTY_PATH = "a special URL's empty path becomes /"
    SINGLE_DOT_DROPPED = "a single-dot segment dropped"
    SINGLE_DOT_EMPTY_SEGMENT = "a final single-dot segment becomes an empty segment"
    DRIVE_LETTER_NORMALIZED = "Windows drive letter normalized (| becomes :)"
    PATH_ENCODED = "percent-encoded (path percent-encode set)"
    OPAQUE_PATH_SPACE_ENCODED = "a space before ? or # becomes %20"
    OPAQUE_PATH_ENCODED = "percent-encoded (C0 control percent-encode set)"
    QUERY_ENCODED = "percent-encoded ((special-)query percent-encode set)"
    FRAGMENT_ENCODED = "percent-encoded (fragment percent-encode set)"


class Fact(NamedTuple):
    """A fact established by the step of the state that recorded it: ``step`` is that state's
    step (url.bs numbering) that did it, ``fields`` the record fields it concerns."""

    kind: FactKind
    step: str
    fields: tuple[str, ...] = ()


class OutlineEntry(NamedTuple):
    """One basic-URL-parser step in brief."""

    #: the code-point index in the original input of the code point the step read
    input_index: int
    #: the state's spec name ("path state")
    state: str
    #: the code point, None for EOF
    c: str | None
    #: the state's step that applied (None when no step applies)
    step: str | None
    #: the names of the record fields the step changed
    changed: tuple[str, ...]
    #: the validation errors the step raised
    errors: tuple[ValidationError, ...]
    #: how many path segments "shorten a URL's path" removed during the step
    shortened: int
    #: what the step did beyond appending code points (see FactKind)
    facts: tuple[Fact, ...]
