"""What a request will cost, before it runs: the server decides by it where the request runs (in
its own threads, or queued fairly for a worker process: urlcalc.serving.work_pool), never by the
size of its body.

``estimate(kind, params)`` is an upper estimate of the CPU time the request takes, in
milliseconds of the reference machine (a 2-vCPU Xeon server of 2026, CPython 3.11, where a
small parse takes about 0.3 ms). It reads what makes a request costly: its kind; trace or not;
the input's and the base's length in code points, and how many of them are not ASCII (the host's
IDNA mapping and punycode cost several times an ASCII character); the setter operations and
their values; the editions and implementations compared (their third-party code is capped by
urlcalc.model.limits, so its cost is linear too). The coefficients were fitted on the reference
machine by ``python -m benchmarks.cost``, which prints each sample's measured time beside its
estimate; tests/test_cost.py checks, on whatever machine runs it, that no sample costs more than
a few times its estimate (as ratios to a small parse timed in the same run).

A request is *heavy* when its estimate is at least ``HEAVY_COST_MS``: about 30 small parses, or
a 2,500-character URL (a URL typed or pasted into the page is far below it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["HEAVY_COST_MS", "SMALL_COST_MS", "Cost", "estimate"]

#: The estimate of a small request (``parse`` of ``http://example.com/``): the unit the ratios
#: of the tests and the benchmarks divide by.
SMALL_COST_MS = 0.3
#: At and over this estimate a request is heavy: computed by the worker processes, queued per
#: client (urlcalc.serving.work_pool).
HEAVY_COST_MS = 10.0

# Milliseconds per code point, by what is done with it.
_PARSE_MS = 0.005        # the parse model (record, errors, spans, provenance)
_NON_ASCII_MS = 0.02     # extra, per non-ASCII code point (IDNA mapping, punycode)
_TRACE_FACTOR = 2.0      # a traced parse or host, against an untraced one
_VALIDATE_FACTOR = 1.6   # the verdict's grammar besides the parse
_HOST_MS = 0.0003
_HOST_NON_ASCII_MS = 0.012
_HOST_TRACE_FACTOR = 3.0
_URLENCODED_MS = 0.0008
_PERCENT_MS = 0.0002
_SET_INPUT_MS = 0.0004   # per operation, per code point of the URL it works on
_SET_VALUE_MS = 0.0005   # per code point of a setter's value (the setter's parse: no spans)
_SET_TRACE_FACTOR = 6.0
_COMPARE_MS = 0.006      # all six editions, per code point (traces included)
_COMPARE_NON_ASCII_MS = 0.06
_IMPLEMENTATIONS_MS = 0.0015
_IMPLEMENTATIONS_NON_ASCII_MS = 0.03
_SURVEY_URL_MS = 0.4     # per URL of a survey: its parse with coverage and its buckets
_SURVEY_FACTOR = 3.0     # a parse with coverage, against a bare one, per code point

_FIXED_MS: dict[str, float] = {
    "parse": SMALL_COST_MS, "set": SMALL_COST_MS, "host": SMALL_COST_MS,
    "urlencoded": SMALL_COST_MS, "percent": SMALL_COST_MS, "validate": SMALL_COST_MS,
    "compare": 1.0, "random": 0.5, "implementations": 1.0, "version": 0.1, "spec": 0.1,
    "history": SMALL_COST_MS, "survey": SMALL_COST_MS, "wpt": 1.0,
}


@dataclass(frozen=True)
class Cost:
    """A request's estimated CPU time (reference milliseconds) and whether that is heavy."""

    ms: float

    @property
    def heavy(self) -> bool:
        return self.ms >= HEAVY_COST_MS


def _text(params: dict[str, Any], name: str) -> str:
    value = params.get(name)
    return value if isinstance(value, str) else ""


def _size(text: str) -> tuple[int, int]:
    """(code points, non-ASCII code points) of ``text``."""
    return len(text), len(text) - len(text.encode("ascii", "ignore"))


def estimate(kind: str, params: object) -> Cost:
    """The estimated cost of the request ``kind`` with ``params`` (its JSON object, checked or
    not: a malformed request is cheap, it is refused at once)."""
    if not isinstance(params, dict) or kind not in _FIXED_MS:
        return Cost(SMALL_COST_MS)
    traced = params.get("trace") is True
    chars, non_ascii = _size(_text(params, "input") + _text(params, "base"))
    ms = _FIXED_MS[kind]
    if kind in ("parse", "validate", "wpt"):
        # (wpt: the input's parse, then a few dictionary reads and a ranking of at most a few
        # hundred entries: the fixed part; the index is built once, on the first lookup)
        work = chars * _PARSE_MS + non_ascii * _NON_ASCII_MS
        ms += work * (_TRACE_FACTOR if traced else 1.0) \
            * (_VALIDATE_FACTOR if kind == "validate" else 1.0)
    elif kind == "host":
        # (as a domain and as an opaque host)
        ms += (chars * _HOST_MS + non_ascii * _HOST_NON_ASCII_MS) * 2 \
            * (_HOST_TRACE_FACTOR if traced else 1.0)
    elif kind == "urlencoded":
        ms += chars * _URLENCODED_MS
    elif kind == "percent":
        ms += chars * _PERCENT_MS
    elif kind == "set":
        ms += chars * _PARSE_MS + non_ascii * _NON_ASCII_MS
        ops = params.get("ops")
        for op in ops if isinstance(ops, list) else ():
            value = op[1] if isinstance(op, list | tuple) and len(op) == 2 \
                and isinstance(op[1], str) else ""
            v_chars, v_non_ascii = _size(value)
            # (the URL an operation works on grows by its value at most)
            ms += ((chars + v_chars) * _SET_INPUT_MS + v_chars * _SET_VALUE_MS
                   + v_non_ascii * _NON_ASCII_MS) * (_SET_TRACE_FACTOR if traced else 1.0)
    elif kind == "compare":
        ms += chars * _COMPARE_MS + non_ascii * _COMPARE_NON_ASCII_MS
        # a parse per extra column of the standard (a day of as_of, a change without)
        days = _text(params, "as_of").count(",") + 1 if _text(params, "as_of").strip() else 0
        columns = days + (1 if _text(params, "without").strip() else 0)
        ms += columns * (SMALL_COST_MS + chars * _PARSE_MS + non_ascii * _NON_ASCII_MS)
    elif kind == "implementations":
        ms += chars * _IMPLEMENTATIONS_MS + non_ascii * _IMPLEMENTATIONS_NON_ASCII_MS
    elif kind == "history":
        # today's parse, then one without each change urlcalc can undo
        from urlcalc.standard.variants import VARIANTS

        ms = (1 + len(VARIANTS)) * (SMALL_COST_MS + chars * _PARSE_MS + non_ascii * _NON_ASCII_MS)
    elif kind == "survey":
        # a parse with coverage per URL (the state machine's steps: about 3 times a bare parse)
        urls = _text(params, "urls")
        u_chars, u_non_ascii = _size(urls)
        ms += (urls.count("\n") + 1) * _SURVEY_URL_MS \
            + (u_chars * _PARSE_MS + u_non_ascii * _NON_ASCII_MS) * _SURVEY_FACTOR
    return Cost(ms)
