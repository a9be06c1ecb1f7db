"""One URL in, the buckets it falls into out: what a survey counts (urlcalc.survey.tally keeps it).

Families (each key is one bucket; a URL falls into each of its keys once):

``outcome``          "parses" or "fails"
``failure``          where a failing parse began: "<algorithm>, step <n>" (the cause: a basic URL
                     parser state's step, or the host/IPv4/IPv6/opaque-host/domain parser's it
                     called), with the validation error that step raised, if any
``validation-error`` each validation error's name
``error-site``       each validation error with the step that raised it
``scheme``           the parsed URL's scheme ("special" or not is in ``scheme-kind``)
``host``             the host parser's path: the host's kind and how it was reached
``step``             each basic URL parser (and host parser) step taken: the spec's coverage
``implementation:<id>``  per other implementation: "agrees", "differs: <getter>", "fails where
                     the standard parses", "parses where the standard fails", "not available"
``host-disagreement``  the implementations whose host differs from the standard's (the bucket
                     security reviewers read first: SSRF and allowlist bypasses live there)
``confusion:<id>``   per other implementation that disagrees: the confusion class of the
                     disagreement (urlcalc.model.confusion's classes, or "other: <what>")
``allowed-host``     the naive allowlist tests that would accept a host the standard's host is
                     not (urlcalc.implementations.confusion)
``edition:<id>``     per edition (older spec): "same" or "differs: <getter>" ...
``history:<name>``   per undoable change of the standard's history: "differs" when undoing it
                     changes this URL's result

What is compared is chosen by ``Options.compare`` (a set of "implementations", "editions",
"history"); the standard's own families are always counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from urlcalc.standard.errors import ValidationError
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.url import GETTERS, URL

#: What a survey can compare the standard with.
COMPARE = ("implementations", "editions", "history")

Key = tuple[str, str]


@dataclass(frozen=True)
class Options:
    """What a survey reads and compares: ``base`` (a URL string, or None), ``compare`` (a subset
    of COMPARE) and, for "implementations", which ones (ids; empty: every available one)."""

    base: str | None = None
    compare: frozenset[str] = frozenset()
    implementations: tuple[str, ...] = ()
    editions: tuple[str, ...] = ()
    #: Count the steps each URL takes (the ``step`` family; urlcalc.standard.coverage: the fast
    #: path with the steps of each input shape remembered).
    coverage: bool = True

    def __post_init__(self) -> None:
        unknown = sorted(self.compare - set(COMPARE))
        if unknown:
            raise ValueError(f"cannot compare with {', '.join(unknown)}: "
                             f"the choices are {', '.join(COMPARE)}")


@dataclass
class Observation:
    """What the standard made of one URL: the record (or failure), its validation errors and
    the steps taken; ``getters`` (None when it fails) are computed when first asked for (the
    standard's own buckets need none)."""

    url: str
    result: URLRecord | ParseFailure
    errors: list[ValidationError]
    steps: frozenset[str] = field(default_factory=frozenset)
    _getters: dict[str, str] | None = None

    @property
    def getters(self) -> dict[str, str] | None:
        if self._getters is None and isinstance(self.result, URLRecord):
            u = URL.from_record(self.result)
            self._getters = {g: getattr(u, g) for g in GETTERS}
        return self._getters


def failure_site(f: ParseFailure) -> str:
    """Where a failing parse began, as a bucket key."""
    algorithm, step = f.cause if f.cause is not None else (f.state or "?", f.step)
    site = f"{algorithm}, step {step}" if step else algorithm
    return f"{site}: {f.error.name}" if f.error is not None else site


def host_path(record: URLRecord) -> str:
    """The host parser's path to this record's host, as a bucket key."""
    host = record.host
    kind = record.host_kind
    if host is None:
        return "null (no host)"
    if kind == "domain":
        text = str(host)
        if any(label.startswith("xn--") for label in text.split(".")):
            return "domain, Punycode (domain to ASCII, UTS #46 ToASCII)"
        return "domain, ASCII"
    return str(kind)


def standard_keys(obs: Observation, steps: bool = True) -> Iterable[Key]:
    """The standard's own buckets for one observation (with the steps taken unless ``steps``
    is false)."""
    result = obs.result
    if isinstance(result, ParseFailure):
        yield ("outcome", "fails")
        yield ("failure", failure_site(result))
    else:
        yield ("outcome", "parses")
        yield ("scheme", result.scheme)
        yield ("scheme-kind", "special" if result.is_special else "not special")
        yield ("host", host_path(result))
    for e in obs.errors:
        yield ("validation-error", e.name)
        if e.step:
            yield ("error-site", f"{e.name} at {e.algorithm}, step {e.step}")
        else:
            yield ("error-site", f"{e.name} at {e.algorithm}")
    if steps:
        for step in obs.steps:
            yield ("step", step)


def plain_parse(url: str, base: URLRecord | None, errors: list[ValidationError]
                ) -> tuple[URLRecord | ParseFailure, frozenset[str]]:
    """The standard's parse without coverage (``Options.coverage`` false)."""
    return basic_url_parse(url, base, errors=errors), frozenset()
