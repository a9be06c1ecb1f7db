"""The URL Standard as it was: each normative change since 2015 that the parser can undo.

The parser is the standard as it is today. A *variant* is one normative change to url.bs (its
commit, and the steps or definitions it touched, in today's numbering); undoing it makes the
parser read an input as the standard did without that change. "The standard as of a date" is
today's standard with every change after that date undone (urlcalc.history, which knows the
commits' dates and titles: ``urlcalc/history/data/commits.json`` is the one source of those).

One table (``VARIANTS``), and one check where the behaviour forks: ``undone(NAME)``, written
beside the branch it changes, naming its variant. With nothing undone (the default) each check
is a set lookup on an empty set, and the untraced fast paths run as before; while anything is
undone (``undoing``), the parser's fast path is off, so every fork is reached.

The undone set is per context (a ``contextvars.ContextVar``): a server thread reading an input
as of 2019 does not change what another thread reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple


class Variant(NamedTuple):
    """A normative change the parser can undo: ``name`` (urlcalc's short id), ``commit`` (the
    url.bs commit that made it), ``touched`` (where today's text forks: "algorithm, step N" or
    a definition) and ``before`` (what the standard said before it, in one line)."""

    name: str
    commit: str
    touched: tuple[str, ...]
    before: str


#: "Forbid <, >, and ^ in hosts" (2020): U+003C (<), U+003E (>) and U+005E (^) became forbidden
#: host code points (and so forbidden domain code points).
HOSTS_FORBID_LT_GT_CARET = "hosts-forbid-lt-gt-caret"
#: "Set IDNA's CheckHyphens to the value of beStrict" (2024).
CHECK_HYPHENS_BE_STRICT = "check-hyphens-be-strict"
#: "Add U+005E (^) to the path percent-encode set" (2025).
PATH_PERCENT_ENCODE_CARET = "path-percent-encode-caret"

# (The table is kept in three blocks, oldest first within each: the host's algorithms, the
# basic URL parser's states, and encode sets, serializers, setters, urlencoded and origin.)
VARIANTS: tuple[Variant, ...] = (
    # --- hosts: host, IPv4, IPv6, opaque-host and domain parsers, IDNA ---
    Variant(HOSTS_FORBID_LT_GT_CARET, "302ba419cb3248568243aaf7b5aca9003694d5c3",
            ("forbidden host code point", "forbidden domain code point",
             "opaque-host parser, step 1", "domain parser, step 8"),
            "<, > and ^ are not forbidden host code points: an opaque host or a domain may "
            "hold them"),
    Variant(CHECK_HYPHENS_BE_STRICT, "cd8f1d6c1ad0bab1cc8e40ad8ef6ee6626c57d57",
            ("domain parser ToASCII", "domain to Unicode"),
            "CheckHyphens is false, with beStrict true too: hyphens in the third and fourth "
            "positions or at a label's ends raise no error"),
    # --- the basic URL parser's states ---
    # --- encode sets, serializers, setters, urlencoded, origin ---
    Variant(PATH_PERCENT_ENCODE_CARET, "9bc33c39d4a6cd6a936ea7620b5a69f606ec0d4c",
            ("path percent-encode set", "path state, step 2.3"),
            "the path percent-encode set does not contain U+005E (^): a path keeps ^ as it is"),
)
BY_NAME: dict[str, Variant] = {v.name: v for v in VARIANTS}

_undone: ContextVar[frozenset[str]] = ContextVar("urlcalc_undone", default=frozenset())


def undone(name: str) -> bool:
    """True when the change ``name`` (a ``Variant.name``) is undone in this context."""
    return name in _undone.get()


def any_undone() -> bool:
    """True when any change is undone in this context (the fast paths are then off)."""
    return bool(_undone.get())


def undone_now() -> frozenset[str]:
    """The names of the changes undone in this context."""
    return _undone.get()


@contextmanager
def undoing(names: Iterable[str]) -> Iterator[frozenset[str]]:
    """Read with the changes ``names`` undone (besides those undone already); a name that is no
    variant's raises KeyError."""
    wanted = frozenset(names)
    unknown = sorted(wanted - BY_NAME.keys())
    if unknown:
        raise KeyError(f"no such variant: {', '.join(unknown)}; the variants are "
                       f"{', '.join(BY_NAME)}")
    token = _undone.set(_undone.get() | wanted)
    try:
        yield _undone.get()
    finally:
        _undone.reset(token)
