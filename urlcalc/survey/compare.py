"""The survey's comparisons: other implementations, the older specs (editions), and the standard's
own history, each as buckets per URL (urlcalc.survey.observe's families)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

from urlcalc.editions import EDITIONS
from urlcalc.history.as_of import changes
from urlcalc.implementations import IMPLEMENTATIONS
from urlcalc.implementations.base import Implementation, Reading
from urlcalc.implementations.confusion import Side, allowed_host, classify
from urlcalc.implementations.idna_cap import idna_cap_reason
from urlcalc.model.limits import MAX_IMPLEMENTATIONS_CHARS
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.record import URLRecord
from urlcalc.standard.url import GETTERS, URL
from urlcalc.standard.variants import undoing
from urlcalc.survey.observe import Key, Observation, Options

Comparer = Callable[[Observation], Iterator[Key]]

FAILS_WHERE_STANDARD_PARSES = "fails where the standard parses"
PARSES_WHERE_STANDARD_FAILS = "parses where the standard fails"
AGREES = "agrees"
NOT_AVAILABLE = "not available"


def _getter_keys(mine: dict[str, str] | None, theirs: dict[str, str | None], ok: bool
                 ) -> list[str]:
    """The differences of one reading from the standard's, as keys."""
    if mine is None:
        return [] if not ok else [PARSES_WHERE_STANDARD_FAILS]
    if not ok:
        return [FAILS_WHERE_STANDARD_PARSES]
    return [f"differs: {g}" for g in GETTERS
            if theirs.get(g) is not None and theirs.get(g) != mine[g]]


def implementations_comparer(options: Options) -> Comparer:
    """Each available implementation's reading against the standard's."""
    chosen = [i for i in IMPLEMENTATIONS
              if not options.implementations or i.id in options.implementations]
    missing = sorted(set(options.implementations) - {i.id for i in IMPLEMENTATIONS})
    if missing:
        raise ValueError(f"no such implementation: {', '.join(missing)}; the implementations "
                         f"are {', '.join(i.id for i in IMPLEMENTATIONS)}")
    unavailable = {i.id: i.unavailable() for i in chosen}
    base = options.base

    def compare(obs: Observation) -> Iterator[Key]:
        for impl in chosen:
            family = f"implementation:{impl.id}"
            if unavailable[impl.id] is not None:
                yield (family, NOT_AVAILABLE)
                continue
            try:
                reading = read_once(impl, obs.url, base)
            except NotRun as e:
                yield (family, str(e))
                continue
            except Exception as e:  # a library's crash is a finding, not the survey's end
                yield (family, f"raised {type(e).__name__}")
                continue
            keys = _getter_keys(obs.getters, reading.getters, reading.ok)
            if not keys:
                yield (family, AGREES)
            for k in keys:
                yield (family, k)
                if k == "differs: host" or k == "differs: hostname":
                    yield ("host-disagreement", impl.id)
    return compare


def editions_comparer(options: Options) -> Comparer:
    """Each older spec's reading (urlcalc.editions) against today's standard."""
    chosen = {k: v for k, v in EDITIONS.items()
              if not options.editions or k in options.editions}
    base = options.base

    def compare(obs: Observation) -> Iterator[Key]:
        for eid, edition in chosen.items():
            family = f"edition:{eid}"
            r = edition.parse(obs.url, base)
            status = r.status
            if status in ("unspecified", "not run"):
                yield (family, status)
                continue
            keys = _getter_keys(obs.getters, r.getters, r.ok)
            yield from ((family, k) for k in (keys or ["same"]))
    return compare


def _signature(url: str, base: URLRecord | None) -> tuple[object, ...]:
    """What a history change is compared on: the href or failure, every getter, and the
    validation errors' names."""
    errors: list[ValidationError] = []
    r = basic_url_parse(url, base, errors=errors)
    names = tuple(e.name for e in errors)
    if isinstance(r, ParseFailure):
        return ("failure", str(r), names)
    u = URL.from_record(r)
    return ("ok", tuple(getattr(u, g) for g in GETTERS), names)


def history_comparer(options: Options) -> Comparer:
    """Each undoable change of the standard since 2015: does undoing it change this URL?"""
    base_record: URLRecord | None = None
    if options.base is not None:
        b = basic_url_parse(options.base)
        base_record = b if isinstance(b, URLRecord) else None
    all_changes = changes()

    def compare(obs: Observation) -> Iterator[Key]:
        today = _signature(obs.url, base_record)
        for change in all_changes:
            with undoing([change.variant.name]):
                then = _signature(obs.url, base_record)
            if then != today:
                yield (f"history:{change.variant.name}", "differs")
    return compare


# The last URL's readings, per thread: the implementations' comparer reads each implementation
# once, and the confusion comparer after it finds the readings here.
_last = threading.local()


#: Why an implementation is not run on a URL, as the server bounds it (urlcalc.model.limits):
#: a URL or base over MAX_IMPLEMENTATIONS_CHARS, or a host over the IDNA caps.
NOT_RUN_LONG = f"not run: over {MAX_IMPLEMENTATIONS_CHARS} code points"
NOT_RUN_IDNA = "not run: host over the IDNA caps"


class NotRun(Exception):
    """An implementation not run on a URL (the reason is the bucket's key)."""


def read_once(impl: Implementation, url: str, base: str | None) -> Reading:
    """``impl.read(url, base)``, remembered until the thread reads another URL (a library's
    exception is remembered and raised again); ``NotRun`` where the server would not run it."""
    key = (url, base)
    if getattr(_last, "key", None) != key:
        _last.key, _last.readings = key, {}
    readings: dict[str, Reading | Exception] = _last.readings
    if impl.id not in readings:
        try:
            if len(url) > MAX_IMPLEMENTATIONS_CHARS or (
                    base is not None and len(base) > MAX_IMPLEMENTATIONS_CHARS):
                raise NotRun(NOT_RUN_LONG)
            if impl.idna is not None and idna_cap_reason(impl.name, impl.idna, url, base):
                raise NotRun(NOT_RUN_IDNA)
            readings[impl.id] = impl.read(url, base)
        except Exception as e:
            readings[impl.id] = e
    got = readings[impl.id]
    if isinstance(got, Exception):
        raise got
    return got


def confusion_comparer(options: Options) -> Comparer:
    """Each available implementation's disagreement with the standard, by its confusion class
    (``confusion:<id>``: urlcalc.model.confusion's id, or an "other: ..." name), and the naive
    allowlist tests fooled by the URL (``allowed-host``: one key per test,
    urlcalc.model.confusion.NAIVE_CHECKS's code, so the keys stay few; the hosts are in the
    examples, and in the Implementations view of each)."""
    from urlcalc.model.confusion import NAIVE_CHECKS

    chosen = [i for i in IMPLEMENTATIONS
              if (not options.implementations or i.id in options.implementations)
              and i.unavailable() is None]
    code = {c["id"]: c["code"] for c in NAIVE_CHECKS}
    base = options.base

    def compare(obs: Observation) -> Iterator[Key]:
        mine = obs.getters
        standard = Side(mine is not None, mine or {})
        hosts: list[str | None] = []
        for impl in chosen:
            try:
                reading = read_once(impl, obs.url, base)
            except Exception:  # counted as "raised ..." by implementations_comparer
                continue
            other = Side(reading.ok, reading.getters if reading.ok else {}, reading.relative)
            hosts.append(other.get("hostname"))
            found = classify(obs.url, base, standard, other)
            if found is not None:
                yield (f"confusion:{impl.id}", found["id"])
        for finding in allowed_host(obs.url, standard, hosts):
            yield ("allowed-host", code[finding["check"]])
    return compare
