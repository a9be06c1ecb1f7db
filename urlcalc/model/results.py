"""The result model: one JSON-ready description of what the URL Standard does with an input.

The CLI, the JSON API and the web page all render these answers, each of its type in
urlcalc.model.shapes; docs/api.md documents them.
urlcalc.answers.kinds lists the requests that reach these functions (``dispatch``).
Every function takes plain strings (lone surrogates are converted as Web IDL's USVString does)
and raises ``ModelError`` (a ValueError) for a bad request, e.g. an unknown encoding label.
"""

from __future__ import annotations

import json
from typing import Literal

from urlcalc.model import budget as cpu
from urlcalc.model.limits import MAX_ANSWER_CHARS, MAX_OPS, ModelError
from urlcalc.model.provenance import href_spans, provenance, spans
from urlcalc.model.shapes import (
    MODEL_VERSION,
    AlgorithmText,
    Failure,
    HostAnswer,
    HostCause,
    HostEntry,
    Operation,
    ParseAnswer,
    ParseFailureJSON,
    PercentAnswer,
    SetAnswer,
    SpecAnswer,
    SpecSource,
    UrlencodedAnswer,
    ValidateAnswer,
    ValidationErrorJSON,
    ValidationErrorRaised,
    VersionAnswer,
    WptRevision,
    header,
)
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
from urlcalc.standard.serializer import RecordJSON, origin, record_json
from urlcalc.standard.steps import Citation
from urlcalc.standard.url import GETTERS, SETTERS, URL, SetterStop, URLParseError
from urlcalc.standard.urlencoded import parse_urlencoded_string, serialize_urlencoded
from urlcalc.trace.recorder import DEFAULT_MAX_CHARS, DEFAULT_MAX_STEPS, TraceRecorder, json_chars

__all__ = ["MODEL_VERSION", "OPERATIONS", "host_model", "parse_model", "percent_model",
           "set_model", "spec_model", "urlencoded_model", "validate_model", "version_model"]


def _changed(before: RecordJSON, after: RecordJSON) -> list[str]:
    return [f for f in RECORD_FIELDS if before[f] != after[f]]


def _raised(error: ValidationError | ValidationErrorJSON, failed_with: bool
            ) -> ValidationErrorRaised:
    item = error.to_json() if isinstance(error, ValidationError) else error
    return {**item, "failed_with": failed_with}


def _failed_with(errors: list[ValidationError], failure: ParseFailure | SetterStop | None
                 ) -> ValidationError | None:
    """The validation error the run failed with: the one raised by the step that returned
    failure (None when the run did not fail, or when that step raises none, as the domain
    parser's steps 7 and 8 and the IPv4 parser's steps 8 and 9 do not)."""
    if isinstance(failure, ParseFailure):
        if failure.error is not None:
            for e in reversed(errors):
                if e is failure.error:
                    return e
            for e in reversed(errors):
                if e == failure.error:
                    return e
            return None
        cause = failure.cause
    elif isinstance(failure, SetterStop) and failure.failure:
        cause = (failure.algorithm, failure.step)
    else:
        return None
    if cause is None:
        return None
    for e in reversed(errors):
        if (e.algorithm or e.state, e.step) == cause:
            return e
    return None


def _errors_json(errors: list[ValidationError], failed: ValidationError | None
                 ) -> list[ValidationErrorRaised]:
    return [_raised(e, e is failed) for e in errors]


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

    def errors(self, errors: list[ValidationError], limit: int | None = None,
               failed: ValidationError | None = None) -> list[ValidationErrorRaised]:
        """The JSON of the first errors (at most ``limit``) that fit in the budget; ``failed``
        is the one the run failed with."""
        out: list[ValidationErrorRaised] = []
        for e in errors if limit is None else errors[:limit]:
            item = _raised(e, e is failed)
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


def _failure_json(failure: ParseFailure,
                  raised: list[ValidationError] | None = None) -> Failure:
    """Failure as a place: the algorithm and step that returned failure (``cause``: often the
    basic URL parser state's step itself, or a step of the host parser it called), the input
    index it concerns, the spec's words, the steps that passed it on (``via``, innermost
    first), the validation error that step raises (``error``, often none) and, separately, the
    validation errors raised on the way (``raised``)."""
    cause = failure.cause
    cited = spec.cite(*cause) if cause is not None else None
    if cited is not None:
        reason = f"{spec.label(cited['algorithm'], cited['step'])}: {cited['text']}"
    else:
        reason = failure.reason or (failure.error.type.description if failure.error else "")
    return {"error": failure.error.to_json() if failure.error else None,
            "reason": reason,
            "cause": cited,
            "index": failure.index,
            "note": failure.reason or None,
            "via": [spec.cite(a, st) for a, st in failure.via],
            "raised": [e.name for e in raised] if raised is not None else []}


def _parse_failure(where: Literal["input", "base"], failure: ParseFailure,
                   raised: list[ValidationError]) -> ParseFailureJSON:
    f = _failure_json(failure, raised)
    return {"in": where, "error": f["error"], "reason": f["reason"], "cause": f["cause"],
            "index": f["index"], "note": f["note"], "via": f["via"], "raised": f["raised"]}


def _encoding(label: str | None) -> str:
    if label is None or label == "":
        return "UTF-8"
    try:
        return get_encoding(label)
    except UnknownEncodingError as e:
        raise ModelError(str(e)) from None


def parse_model(input: str, base: str | None = None, encoding: str | None = None,
                trace: bool = False, max_steps: int = DEFAULT_MAX_STEPS,
                max_errors: int | None = None) -> ParseAnswer:
    """The URL parser run on ``input`` against ``base``: record, getters, errors, trace.

    ``max_errors``: return at most that many of the input's validation errors (the first ones;
    ``validation_errors_total`` always counts them all): a page showing a few hundred need not
    receive the 65,000 of 64 KB of stray "%"."""
    input = to_usv(input)
    base = to_usv(base) if base is not None else None
    enc = _encoding(encoding)
    head = header("parse")
    base_record: URLRecord | None = None
    base_errors_json: list[ValidationErrorRaised] | None = None
    if base is not None:
        base_errors: list[ValidationError] = []
        parsed_base = basic_url_parse(base, errors=base_errors)
        base_failure = parsed_base if isinstance(parsed_base, ParseFailure) else None
        base_errors_json = _errors_json(base_errors, _failed_with(base_errors, base_failure))
        if isinstance(parsed_base, ParseFailure):
            return {**head, "input": input, "base": base, "encoding": enc, "ok": False,
                    "failure": _parse_failure("base", parsed_base, base_errors),
                    "record": None, "base_record": None,
                    "base_validation_errors": base_errors_json, "getters": None,
                    "hostname_unicode": None, "origin": None, "validation_errors": [],
                    "validation_errors_total": 0, "valid": None, "trace": None, "spans": [],
                    "href_spans": [], "provenance": None}
        base_record = parsed_base
    errors: list[ValidationError] = []
    # Without a trace asked for, keep no step: the recorder's outline alone gives the spans and
    # the provenance.
    budget = _Budget()
    recorder = budget.recorder(max_steps if trace else 0)
    with recorder.citing():  # each step under the changes undone cites them (none: free)
        result = basic_url_parse(input, base_record, enc, observer=recorder, errors=errors)
    budget.take_trace(recorder)
    input_spans = spans(input, recorder.outline)
    out: ParseAnswer = {
        **head, "input": input, "base": base, "encoding": enc, "ok": False, "failure": None,
        "record": None,
        "base_record": record_json(base_record) if base_record is not None else None,
        "base_validation_errors": base_errors_json, "getters": None, "hostname_unicode": None,
        "origin": None,
        "validation_errors": budget.errors(
            errors, max_errors,
            _failed_with(errors, result if isinstance(result, ParseFailure) else None)),
        "validation_errors_total": len(errors),
        "valid": writing.check(input, base_record).to_json(),
        "trace": recorder.to_json() if trace else None, "spans": input_spans,
        "href_spans": [], "provenance": None}
    if isinstance(result, ParseFailure):
        out["failure"] = _parse_failure("input", result, errors)
        return out
    url = URL.from_record(result)
    out["ok"] = True
    out["record"] = record_json(result)
    out["getters"] = url.getters()
    out["hostname_unicode"] = url.hostname_unicode()
    out["origin"] = origin(result).to_json()
    out["href_spans"] = href_spans(result)
    out["provenance"] = provenance(input, result, recorder.outline, input_spans)
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
              trace: bool = False, max_steps: int = DEFAULT_MAX_STEPS) -> SetAnswer:
    """Parse ``input`` then apply setter operations in order, recording each one's effect."""
    if len(ops) > MAX_OPS:
        raise ModelError(f"too many operations: {len(ops)} (at most {MAX_OPS})")
    for op, _ in ops:
        if op not in OPERATIONS:
            raise ModelError(f"unknown operation {op!r}; expected one of {', '.join(OPERATIONS)}")
    input = to_usv(input)
    base = to_usv(base) if base is not None else None
    head = header("set")
    try:
        url = URL(input, base)
    except URLParseError as e:
        return {**head, "input": input, "base": base, "ok": False,
                "failure": _failure_json(e.failure), "operations": [],
                "summarised_operations": 0, "record": None, "getters": None}
    results: list[Operation] = []
    budget = _Budget()
    summarised = 0
    for number, (op, value) in enumerate(ops, 1):
        # (past the request's CPU budget, the operations left are cut: a 422 answer)
        cpu.at(f"setter operation {number} of {len(ops)} ({op})")
        value = to_usv(value)
        before, getters_before = record_json(url.record), url.getters()
        errors: list[ValidationError] = []
        recorder = budget.recorder(max_steps) if trace else None
        threw = None
        reason: str | None = None
        cited: Citation | None = None
        stop: SetterStop | ParseFailure | None = None
        if op in SETTERS:
            try:
                if recorder is not None:
                    with recorder.citing():
                        stop = url.set_cited(op, value, recorder, errors)
                else:
                    stop = url.set_cited(op, value, recorder, errors)
            except URLParseError as e:
                stop = e.failure
                threw = "TypeError: " + str(e)
                if e.thrown_at is not None:
                    cited = spec.cite(*e.thrown_at)
                    reason = f"{spec.label(*e.thrown_at)}: {cited['text']}"
            else:
                if isinstance(stop, SetterStop):
                    reason = stop.text()
                    cited = stop.citation()
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
            "changed_getters": [g for g in GETTERS
                                if getters_before.get(g) != getters_after.get(g)],
            "reason": reason, "cited": cited, "threw": threw,
            "validation_errors": budget.errors(errors, failed=_failed_with(errors, stop)),
            "validation_errors_total": len(errors),
            "trace": recorder.to_json() if recorder is not None else None,
            "summarised": not full,
        })
    return {**head, "input": input, "base": base, "ok": True, "failure": None,
            "operations": results, "summarised_operations": summarised,
            "record": record_json(url.record), "getters": url.getters()}


def _host_reporter(errors: list[ValidationError]) -> Report:
    def report(name: str, offset: int | None, detail: str,
               cite: tuple[str, str | None] | None = None) -> None:
        algorithm, step = cite if cite is not None else ("", None)
        errors.append(ValidationError(name, offset, "host parser", detail, algorithm, step))
    return report


def host_model(input: str, trace: bool = False,
               max_steps: int = DEFAULT_MAX_STEPS) -> HostAnswer:
    """The host parser on ``input``, as a special URL's host and as an opaque host."""
    input = to_usv(input)
    return {**header("host"), "input": input,
            "domain": _host_entry(input, False, trace, max_steps),
            "opaque": _host_entry(input, True, trace, max_steps)}


def _host_entry(input: str, is_opaque: bool, trace: bool, max_steps: int) -> HostEntry:
    errors: list[ValidationError] = []
    failed: ValidationError | None = None
    recorder = TraceRecorder(max_steps, DEFAULT_MAX_CHARS)
    entry: HostEntry = {"ok": False, "kind": None, "serialized": None, "unicode": None,
                        "value": None, "failure": None, "cause": None, "via": [],
                        "validation_errors": [], "trace": None}
    if input == "" and not is_opaque:
        entry["failure"] = ("the host parser's input must not be empty (special URLs fail "
                            "with host-missing before reaching it)")
    else:
        try:
            with recorder.citing():
                host = host_parse(input, is_opaque, _host_reporter(errors),
                                  recorder if trace else None)
        except HostFailure as e:
            cited = spec.cite(e.algorithm, e.step)
            cause: HostCause = {**cited, "index": e.offset, "note": e.note}
            entry["failure"] = f"{spec.label(e.algorithm, e.step)}: {cited['text']}"
            entry["cause"] = cause
            entry["via"] = [spec.cite(a, st) for a, st in e.via]
            failed = next((v for v in reversed(errors)
                           if (v.algorithm, v.step) == (e.algorithm, e.step)), None)
        else:
            kind = host_kind(host)
            entry["ok"] = True
            entry["kind"] = kind
            entry["serialized"] = host_serialize(host)
            if kind == "domain":
                assert isinstance(host, str)
                entry["unicode"] = domain_to_unicode(host)
            if isinstance(host, int):
                entry["value"] = host
            elif isinstance(host, tuple):
                entry["value"] = list(host)
    entry["validation_errors"] = _errors_json(errors, failed)
    entry["trace"] = recorder.to_json() if trace else None
    return entry


def urlencoded_model(input: str) -> UrlencodedAnswer:
    """application/x-www-form-urlencoded: parse, then serialize the pairs back."""
    input = to_usv(input)
    pairs = parse_urlencoded_string(input)
    return {**header("urlencoded"), "input": input, "pairs": [list(p) for p in pairs],
            "serialized": serialize_urlencoded(pairs)}


# url.bs: percent-encode after encoding, step 1 asserts that a non-UTF-8 encoding only comes with
# these sets (the query of a special URL, and form submission's serializer).
_NON_UTF8_SETS = ("special-query percent-encode set",
                  "application/x-www-form-urlencoded percent-encode set")


def percent_model(input: str, encode_set: str = "component percent-encode set",
                  encoding: str | None = None) -> PercentAnswer:
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
    decoded = percent_decode(input)
    note = None
    if output_encoding != enc:
        note = (f"{enc} has no encoder: its output encoding (Encoding Standard: get an "
                f"output encoding) is {output_encoding}, which encodes")
    return {
        **header("percent"),
        "input": input, "encode_set": encode_set, "encoding": enc,
        "output_encoding": output_encoding,
        "encoded": percent_encode_after_encoding(output_encoding, input,
                                                 ENCODE_SETS[encode_set]),
        "decoded_utf8": decoded.decode("utf-8", "replace"),
        "decoded_bytes": decoded.hex(" "),
        "encode_sets": list(ENCODE_SETS),
        "note": note,
    }


def validate_model(input: str, base: str | None = None) -> ValidateAnswer:
    """The valid-URL-string verdict beside the parser's validation errors."""
    parsed = parse_model(input, base)
    return {**header("validate"), "input": parsed["input"], "base": parsed["base"],
            "ok": parsed["ok"], "failure": parsed["failure"], "valid": parsed["valid"],
            "validation_errors": parsed["validation_errors"]}


def _source() -> SpecSource:
    s = spec.source()
    return {"document": s["document"], "url": s["url"], "sha256": s["sha256"],
            "latest_review_draft": s["latest_review_draft"], "licence": s["licence"]}


def _wpt() -> WptRevision:
    w = spec.wpt_revision()
    return {"what": str(w["what"]), "repository": str(w["repository"]),
            "directory": str(w["directory"]), "revision": str(w["revision"]),
            "licence": str(w["licence"]),
            "sha256": {str(k): str(v) for k, v in dict(w["sha256"]).items()}}


def version_model() -> VersionAnswer:
    return {**header("version"), "states": list(STATE_NAMES.values()),
            "operations": list(OPERATIONS), "getters": list(GETTERS), "spec": _source(),
            "wpt": _wpt()}


def spec_model() -> SpecAnswer:
    """The spec's words: every algorithm urlcalc cites, with its anchor, introduction and
    numbered steps (url.bs; UTS #46 as urlcalc's summaries), for the views that show the text
    of the steps they cite. The same data for every answer: a page asks once."""
    algorithms: dict[str, AlgorithmText] = {
        name: {"anchor": a.anchor, "intro": a.intro, "steps": a.steps, "document": a.document,
               "url": a.url}
        for name, a in spec.algorithms().items()}
    return {**header("spec"), "source": _source(), "algorithms": algorithms}
