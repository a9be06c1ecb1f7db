"""The result model: one JSON-ready description of what the URL Standard does with an input.

The CLI, the JSON API and the web page all render these dicts; the README documents them.
urlcalc.answers.kinds lists the requests that reach these functions (``dispatch``).
Every function takes plain strings (lone surrogates are converted as Web IDL's USVString does)
and raises ``ModelError`` (a ValueError) for a bad request, e.g. an unknown encoding label.
"""

from __future__ import annotations

import json
from typing import Any

from urlcalc.model.limits import MAX_ANSWER_CHARS, MAX_OPS, ModelError
from urlcalc.model.provenance import href_spans, provenance, spans
from urlcalc.model.runtime import engine_info
from urlcalc.standard import steps as spec
from urlcalc.standard import validity as writing
from urlcalc.standard.encoding import UnknownEncodingError, get_encoding, get_output_encoding
from urlcalc.standard.errors import ValidationError
from urlcalc.standard.host import HostFailure, Report, domain_to_unicode, host_parse, host_serialize
from urlcalc.standard.infra import to_usv
from urlcalc.standard.parser import STATE_NAMES, ParseFailure, basic_url_parse
from urlcalc.standard.percent import (
    ENCODE_SETS,
    percent_decode,
    percent_encode_after_encoding,
)
from urlcalc.standard.record import RECORD_FIELDS, URLRecord, host_kind
from urlcalc.standard.serializer import origin, record_json
from urlcalc.standard.url import GETTERS, SETTERS, URL, URLParseError
from urlcalc.standard.urlencoded import parse_urlencoded_string, serialize_urlencoded
from urlcalc.trace.recorder import DEFAULT_MAX_CHARS, DEFAULT_MAX_STEPS, TraceRecorder, json_chars

MODEL_VERSION = 1


def _header(kind: str) -> dict[str, Any]:
    return {"model": "urlcalc", "version": MODEL_VERSION, "kind": kind, "engine": engine_info()}


def _changed(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [f for f in RECORD_FIELDS if before[f] != after[f]]


def _errors_json(errors: list[ValidationError]) -> list[dict[str, object]]:
    return [e.to_json() for e in errors]


class _Budget:
    """What is left of an answer's MAX_ANSWER_CHARS."""

    __slots__ = ("left",)

    def __init__(self, chars: int = MAX_ANSWER_CHARS) -> None:
        self.left = chars

    def take(self, chars: int) -> bool:
        """Spend ``chars`` if that many are left."""
        if chars > self.left:
            return False
        self.left -= chars
        return True

    def errors(self, errors: list[ValidationError], limit: int | None = None
               ) -> list[dict[str, object]]:
        """The JSON of the first errors (at most ``limit``) that fit in the budget."""
        out: list[dict[str, object]] = []
        for e in errors if limit is None else errors[:limit]:
            item = e.to_json()
            if not self.take(json_chars(item)):
                self.left = 0  # the list is cut here: no later, shorter error slips in
                break
            out.append(item)
        return out

    def recorder(self, max_steps: int) -> TraceRecorder:
        """A trace recorder keeping at most half of what is left (and its usual bounds)."""
        return TraceRecorder(max_steps, max(0, min(DEFAULT_MAX_CHARS, self.left // 2)))

    def take_trace(self, recorder: TraceRecorder) -> None:
        self.left = max(0, self.left - _trace_chars(recorder))


def _trace_chars(recorder: TraceRecorder) -> int:
    """About the JSON length of ``recorder.to_json()``: the steps' number times the length of
    16 of them spread over the trace (their keys weigh as much as their strings)."""
    steps = recorder.steps
    if not steps:
        return 100
    sample = steps[::max(1, len(steps) // 16)][:16]
    return len(steps) * len(json.dumps(sample, ensure_ascii=False)) // len(sample) + 100


def _citation_json(algorithm: str, step: str | None) -> dict[str, Any]:
    cited: dict[str, Any] = dict(spec.cite(algorithm, step))
    return cited


def _failure_json(failure: ParseFailure,
                  raised: list[ValidationError] | None = None) -> dict[str, Any]:
    """Failure as a place: the algorithm and step that returned failure (``cause``: often the
    basic URL parser state's step itself, or a step of the host parser it called), the input
    index it concerns, the spec's words, the steps that passed it on (``via``, innermost
    first), the validation error that step raises (``error``, often none) and, separately, the
    validation errors raised on the way (``raised``)."""
    cause = failure.cause
    cited = _citation_json(*cause) if cause is not None else None
    if cited is not None:
        reason = f"{spec.label(cited['algorithm'], cited['step'])}: {cited['text']}"
    else:
        reason = failure.reason or (failure.error.type.description if failure.error else "")
    return {"error": failure.error.to_json() if failure.error else None,
            "reason": reason,
            "cause": cited,
            "index": failure.index,
            "note": failure.reason or None,
            "via": [_citation_json(a, st) for a, st in failure.via],
            "raised": [e.name for e in raised] if raised is not None else []}


def _encoding(label: str | None) -> str:
    if label is None or label == "":
        return "UTF-8"
    try:
        return get_encoding(label)
    except UnknownEncodingError as e:
        raise ModelError(str(e)) from None


def parse_model(input: str, base: str | None = None, encoding: str | None = None,
                trace: bool = False, max_steps: int = DEFAULT_MAX_STEPS,
                max_errors: int | None = None) -> dict[str, Any]:
    """The URL parser run on ``input`` against ``base``: record, getters, errors, trace.

    ``max_errors``: return at most that many of the input's validation errors (the first ones;
    ``validation_errors_total`` always counts them all): a page showing a few hundred need not
    receive the 65,000 of 64 KB of stray "%"."""
    input = to_usv(input)
    base = to_usv(base) if base is not None else None
    enc = _encoding(encoding)
    out = _header("parse")
    out.update({"input": input, "base": base, "encoding": enc})
    base_record: URLRecord | None = None
    if base is not None:
        base_errors: list[ValidationError] = []
        parsed_base = basic_url_parse(base, errors=base_errors)
        out["base_validation_errors"] = _errors_json(base_errors)
        if isinstance(parsed_base, ParseFailure):
            failure = {"in": "base", **_failure_json(parsed_base, base_errors)}
            out.update({"ok": False, "failure": failure,
                        "record": None, "base_record": None, "getters": None, "origin": None,
                        "validation_errors": [], "valid": None, "trace": None, "spans": []})
            return out
        base_record = parsed_base
    errors: list[ValidationError] = []
    # Without a trace asked for, keep no step: the recorder's outline alone gives the spans and
    # the provenance.
    budget = _Budget()
    recorder = budget.recorder(max_steps if trace else 0)
    result = basic_url_parse(input, base_record, enc, observer=recorder, errors=errors)
    budget.take_trace(recorder)
    out["base_record"] = record_json(base_record) if base_record is not None else None
    out["validation_errors"] = budget.errors(errors, max_errors)
    out["validation_errors_total"] = len(errors)
    out["valid"] = writing.check(input, base_record).to_json()
    out["trace"] = recorder.to_json() if trace else None
    out["spans"] = spans(input, recorder.outline)
    if isinstance(result, ParseFailure):
        out.update({"ok": False, "failure": {"in": "input", **_failure_json(result, errors)},
                    "record": None, "getters": None, "origin": None, "href_spans": []})
        return out
    url = URL.from_record(result)
    out.update({
        "ok": True,
        "failure": None,
        "record": record_json(result),
        "getters": url.getters(),
        "hostname_unicode": url.hostname_unicode(),
        "origin": origin(result).to_json(),
        "href_spans": href_spans(result),
        "provenance": provenance(input, result, recorder.outline, out["spans"]),
    })
    return out


_SEARCH_PARAMS_OPS = ("searchParams.append", "searchParams.set", "searchParams.delete",
                      "searchParams.sort")
OPERATIONS = SETTERS + _SEARCH_PARAMS_OPS


def _search_params_op(url: URL, op: str, value: str) -> None:
    params = url.search_params
    name, eq, val = value.partition("=")
    if op == "searchParams.append":
        params.append(name, val)
    elif op == "searchParams.set":
        params.set(name, val)
    elif op == "searchParams.delete":
        params.delete(name, val if eq else None)
    else:
        params.sort()


def set_model(input: str, ops: list[tuple[str, str]], base: str | None = None,
              trace: bool = False, max_steps: int = DEFAULT_MAX_STEPS) -> dict[str, Any]:
    """Parse ``input`` then apply setter operations in order, recording each one's effect."""
    if len(ops) > MAX_OPS:
        raise ModelError(f"too many operations: {len(ops)} (at most {MAX_OPS})")
    for op, _ in ops:
        if op not in OPERATIONS:
            raise ModelError(f"unknown operation {op!r}; expected one of {', '.join(OPERATIONS)}")
    input = to_usv(input)
    base = to_usv(base) if base is not None else None
    out = _header("set")
    out.update({"input": input, "base": base})
    try:
        url = URL(input, base)
    except URLParseError as e:
        out.update({"ok": False, "failure": _failure_json(e.failure), "operations": [],
                    "record": None, "getters": None})
        return out
    results = []
    budget = _Budget()
    summarised = 0
    for op, value in ops:
        value = to_usv(value)
        before, getters_before = record_json(url.record), url.getters()
        errors: list[ValidationError] = []
        recorder = budget.recorder(max_steps) if trace else None
        threw = None
        reason: str | None = None
        cited: dict[str, Any] | None = None
        if op in SETTERS:
            try:
                stop = url.set_cited(op, value, recorder, errors)
            except URLParseError as e:
                threw = "TypeError: " + str(e)
                if e.thrown_at is not None:
                    cited = dict(spec.cite(*e.thrown_at))
                    reason = f"{spec.label(*e.thrown_at)}: {cited['text']}"
            else:
                if stop is not None:
                    reason = stop.text()
                    cited = dict(stop.citation())
        else:
            _search_params_op(url, op, value)
        after, getters_after = record_json(url.record), url.getters()
        changed = _changed(before, after)
        if not changed and reason is None:
            reason = "the setter ran to the end, but the URL record is the same as before"
        # The records and getters are the copies that repeat with every operation: past the
        # budget the operation is summarised (what changed and why stay).
        copies = (json_chars(before) + json_chars(after) + json_chars(getters_before)
                  + json_chars(getters_after) + len(value))
        full = budget.take(copies)
        if recorder is not None:
            if full:
                budget.take_trace(recorder)
            else:
                recorder = None
        summarised += not full
        results.append({
            "op": op, "value": value, "before": before if full else None,
            "after": after if full else None, "changed": changed,
            "getters_before": getters_before if full else None,
            "getters_after": getters_after if full else None,
            "changed_getters": [g for g in GETTERS if getters_before[g] != getters_after[g]],
            "reason": reason, "cited": cited, "threw": threw,
            "validation_errors": budget.errors(errors),
            "validation_errors_total": len(errors),
            "trace": recorder.to_json() if recorder is not None else None,
            "summarised": not full,
        })
    out.update({"ok": True, "failure": None, "operations": results,
                "summarised_operations": summarised,
                "record": record_json(url.record), "getters": url.getters()})
    return out


def _host_reporter(errors: list[dict[str, object]]) -> Report:
    def report(name: str, offset: int | None, detail: str,
               cite: tuple[str, str | None] | None = None) -> None:
        algorithm, step = cite if cite is not None else ("", None)
        errors.append(ValidationError(name, offset, "host parser", detail, algorithm,
                                      step).to_json())
    return report


def host_model(input: str, trace: bool = False,
               max_steps: int = DEFAULT_MAX_STEPS) -> dict[str, Any]:
    """The host parser on ``input``, as a special URL's host and as an opaque host."""
    input = to_usv(input)
    out = _header("host")
    out["input"] = input
    for key, is_opaque in (("domain", False), ("opaque", True)):
        errors: list[dict[str, object]] = []
        recorder = TraceRecorder(max_steps, DEFAULT_MAX_CHARS)

        report = _host_reporter(errors)

        entry: dict[str, Any] = {}
        if input == "" and not is_opaque:
            entry = {"ok": False, "failure": "the host parser's input must not be empty "
                     "(special URLs fail with host-missing before reaching it)"}
        else:
            try:
                host = host_parse(input, is_opaque, report, recorder if trace else None)
            except HostFailure as e:
                cited = spec.cite(e.algorithm, e.step)
                entry = {"ok": False,
                         "failure": f"{spec.label(e.algorithm, e.step)}: {cited['text']}",
                         "cause": {**cited, "index": e.offset, "note": e.note},
                         "via": [spec.cite(a, st) for a, st in e.via]}
            else:
                kind = host_kind(host)
                entry = {"ok": True, "kind": kind, "serialized": host_serialize(host)}
                if kind == "domain":
                    assert isinstance(host, str)
                    entry["unicode"] = domain_to_unicode(host)
                if isinstance(host, int):
                    entry["value"] = host
                elif isinstance(host, tuple):
                    entry["value"] = list(host)
        entry["validation_errors"] = errors
        entry["trace"] = recorder.to_json() if trace else None
        out[key] = entry
    return out


def urlencoded_model(input: str) -> dict[str, Any]:
    """application/x-www-form-urlencoded: parse, then serialize the pairs back."""
    input = to_usv(input)
    pairs = parse_urlencoded_string(input)
    out = _header("urlencoded")
    out.update({"input": input, "pairs": [list(p) for p in pairs],
                "serialized": serialize_urlencoded(pairs)})
    return out


# url.bs: percent-encode after encoding, step 1 asserts that a non-UTF-8 encoding only comes with
# these sets (the query of a special URL, and form submission's serializer).
_NON_UTF8_SETS = ("special-query percent-encode set",
                  "application/x-www-form-urlencoded percent-encode set")


def percent_model(input: str, encode_set: str = "component percent-encode set",
                  encoding: str | None = None) -> dict[str, Any]:
    """Percent-encode after encoding with a chosen encode set, and percent-decode.

    The encoding goes through the Encoding Standard's "get an output encoding" first, as every
    caller of percent-encode after encoding in url.bs does (the basic URL parser, the
    application/x-www-form-urlencoded serializer): replacement, UTF-16BE and UTF-16LE have no
    encoder and give UTF-8. ``output_encoding`` says which encoding encoded. A non-UTF-8 output
    encoding with a set other than the two of ``_NON_UTF8_SETS`` is refused: url.bs asserts that
    no caller does that, so the standard has no answer for it."""
    input = to_usv(input)
    if encode_set not in ENCODE_SETS:
        raise ModelError(f"unknown percent-encode set {encode_set!r}; expected one of "
                         f"{', '.join(ENCODE_SETS)}")
    enc = _encoding(encoding)
    output_encoding = get_output_encoding(enc)
    if output_encoding != "UTF-8" and encode_set not in _NON_UTF8_SETS:
        raise ModelError(
            f"the standard has no answer for {output_encoding} with the {encode_set}: url.bs, "
            "percent-encode after encoding, step 1 asserts that an encoding other than UTF-8 "
            f"only comes with the {' or the '.join(_NON_UTF8_SETS)} (use one of those, or UTF-8)")
    out = _header("percent")
    decoded = percent_decode(input)
    out.update({
        "input": input, "encode_set": encode_set, "encoding": enc,
        "output_encoding": output_encoding,
        "encoded": percent_encode_after_encoding(output_encoding, input,
                                                 ENCODE_SETS[encode_set]),
        "decoded_utf8": decoded.decode("utf-8", "replace"),
        "decoded_bytes": decoded.hex(" "),
        "encode_sets": list(ENCODE_SETS),
    })
    if output_encoding != enc:
        out["note"] = (f"{enc} has no encoder: its output encoding (Encoding Standard: get an "
                       f"output encoding) is {output_encoding}, which encodes")
    return out


def validate_model(input: str, base: str | None = None) -> dict[str, Any]:
    """The valid-URL-string verdict beside the parser's validation errors."""
    parsed = parse_model(input, base)
    out = _header("validate")
    out.update({"input": parsed["input"], "base": parsed["base"], "ok": parsed["ok"],
                "failure": parsed["failure"], "valid": parsed["valid"],
                "validation_errors": parsed["validation_errors"]})
    return out


def version_model() -> dict[str, Any]:
    out = _header("version")
    out["states"] = list(STATE_NAMES.values())
    out["operations"] = list(OPERATIONS)
    out["getters"] = list(GETTERS)
    out["spec"] = spec.source()
    out["wpt"] = spec.wpt_revision()
    return out


def spec_model() -> dict[str, Any]:
    """The spec's words: every algorithm urlcalc cites, with its anchor, introduction and
    numbered steps (url.bs; UTS #46 as urlcalc's summaries), for the views that show the text
    of the steps they cite. The same data for every answer: a page asks once."""
    out = _header("spec")
    out["source"] = spec.source()
    out["algorithms"] = {name: {"anchor": a.anchor, "intro": a.intro, "steps": a.steps,
                                "document": a.document, "url": a.url}
                         for name, a in spec.algorithms().items()}
    return out
