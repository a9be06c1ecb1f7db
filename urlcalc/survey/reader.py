"""Reading URLs for a survey: the standard's observation of each URL (urlcalc.survey.observe)
and the comparisons asked for (urlcalc.survey.compare), as bucket keys."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from urlcalc.standard.coverage import Coverage
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.survey.compare import (
    confusion_comparer,
    editions_comparer,
    history_comparer,
    implementations_comparer,
)
from urlcalc.survey.observe import Key, Observation, Options, plain_parse, standard_keys


class Reader:
    """Reads URLs against one base for a survey (the base is parsed once)."""

    def __init__(self, options: Options,
                 steps_taken: Callable[[str, URLRecord | None, list[ValidationError]],
                                       tuple[URLRecord | ParseFailure, frozenset[str]]]
                 | None = None) -> None:
        self.options = options
        self.base_record: URLRecord | None = None
        if options.base is not None:
            b = basic_url_parse(options.base)
            if isinstance(b, ParseFailure):
                raise ValueError(f"the base {options.base!r} does not parse: {b}")
            self.base_record = b
        self._steps_taken = steps_taken if steps_taken is not None else (
            Coverage().parse if options.coverage else plain_parse)
        self._comparers: list[Callable[[Observation], Iterator[Key]]] = []
        if "implementations" in options.compare:
            self._comparers.append(implementations_comparer(options))
            self._comparers.append(confusion_comparer(options))
        if "editions" in options.compare:
            self._comparers.append(editions_comparer(options))
        if "history" in options.compare:
            self._comparers.append(history_comparer(options))

    def observe(self, url: str) -> Observation:
        errors: list[ValidationError] = []
        result, steps = self._steps_taken(url, self.base_record, errors)
        return Observation(url, result, errors, steps)

    def keys(self, url: str) -> list[Key]:
        """The buckets ``url`` falls into."""
        keys, steps = self.read(url)
        return keys + [("step", s) for s in steps]

    def read(self, url: str) -> tuple[list[Key], frozenset[str]]:
        """The buckets ``url`` falls into, but for the steps taken, which come apart (the
        ``step`` family: Tally.add's ``grouped``)."""
        obs = self.observe(url)
        out = list(standard_keys(obs, steps=False))
        for comparer in self._comparers:
            out.extend(comparer(obs))
        return out, obs.steps
