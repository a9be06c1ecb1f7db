"""The request kinds: one table of what urlcalc answers (``parse``, ``set``, ``host`` ...), each
with its summary, its parameters and the function that computes it. ``dispatch`` (called by
urlcalc.answers.answer, the one answer of the JSON API, the socket and the Pyodide worker), the
HTTP server (which kinds exist, how a GET's query parameters read) and the OpenAPI document
(urlcalc.serving.openapi) all read it; the limits are urlcalc.model.limits'.

A parameter's ``type`` says how it is checked and described:

``text``        a string of at most MAX_INPUT_BYTES (UTF-8)
``flag``        a boolean (false when absent); in a GET, 1/0, true/false, yes/no or on/off
``count``       a non-negative integer (in a GET, decimal digits)
``seed``        an integer from 0 to MAX_SEED (in a GET, decimal digits)
``ops``         setter operations: [operation, value] pairs (in a GET, op=...&value=... pairs)
``choice``      one of ``choices`` (a string)

Members a kind does not use are ignored. The model functions' own checks (an unknown encoding
label, operation or edition, a seed out of range) raise ModelError too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_type_hints

from urlcalc.model.limits import (
    MAX_BODY_BYTES,
    MAX_INPUT_BYTES,
    MAX_SET_VALUES_BYTES,
    MAX_TRACED_SET_VALUES_BYTES,
    ModelError,
)

ParamType = Literal["text", "flag", "count", "seed", "ops", "choice"]
#: An answer of any kind: each kind's own type (a TypedDict of urlcalc.model.shapes, or of the
#: editions' or the implementations' package) is its function's return annotation
#: (``Kind.answer_type``).
Answer = Mapping[str, object]


@dataclass(frozen=True)
class Param:
    """A parameter of a request kind: how it is checked and described (``type``, above)."""

    name: str
    type: ParamType
    description: str
    required: bool = False
    #: the value when absent or null
    default: Any = None
    #: the values a ``choice`` takes (a function: some lists live in modules loaded on demand)
    choices: Callable[[], tuple[str, ...]] | None = None
    #: a ``text``'s limit (UTF-8 bytes), when not MAX_INPUT_BYTES
    max_bytes: int = MAX_INPUT_BYTES


@dataclass(frozen=True)
class Kind:
    name: str
    summary: str
    #: the model function, imported when first asked for (the editions and the other
    #: implementations load only when a request needs them)
    function: Callable[[], Callable[..., Answer]]
    params: tuple[Param, ...] = field(default=())

    def answer_type(self) -> type:
        """The type of this kind's answer: its function's return annotation."""
        answer: type = get_type_hints(self.function())["return"]
        return answer


# --- the model functions, loaded on demand -----------------------------------------------------

def _model(name: str) -> Callable[[], Callable[..., Answer]]:
    def load() -> Callable[..., Answer]:
        from urlcalc.model import results as model

        function: Callable[..., Answer] = getattr(model, name)
        return function
    return load


def _compare() -> Callable[..., Answer]:
    # (the editions' compare_model, with the history's columns of the standard on a day)
    from urlcalc.history.columns import compare_with_columns

    return compare_with_columns


def _random() -> Callable[..., Answer]:
    from urlcalc.editions.view import random_model

    return random_model


def _implementations() -> Callable[..., Answer]:
    from urlcalc.implementations import implementations_model

    return implementations_model


def _history() -> Callable[..., Answer]:
    from urlcalc.history.view import history_model

    return history_model


def _survey() -> Callable[..., Answer]:
    from urlcalc.survey.report import survey_model

    return survey_model


def _wpt() -> Callable[..., Answer]:
    from urlcalc.site.wpt import wpt_model

    return wpt_model


def _operations() -> tuple[str, ...]:
    from urlcalc.model.results import OPERATIONS

    return OPERATIONS


def _encode_sets() -> tuple[str, ...]:
    from urlcalc.standard.percent import ENCODE_SETS

    return tuple(ENCODE_SETS)


def _editions() -> tuple[str, ...]:
    from urlcalc.editions import EDITIONS

    return tuple(EDITIONS)


# --- the parameters ------------------------------------------------------------------------------

INPUT = Param("input", "text", "the input string", required=True)
BASE = Param("base", "text", "a base URL string (absent or null: no base)")
ENCODING = Param("encoding", "text", "a WHATWG Encoding label (case-insensitive, e.g. utf-8, "
                 "windows-1252, shift_jis; absent, null or empty: UTF-8); an unknown label is a "
                 "bad request")
TRACE = Param("trace", "flag", "record the algorithm's steps", default=False)

KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("parse",
         "The basic URL parser on input (against base): record, getters, validation errors, the "
         "valid-URL-string verdict, spans, provenance and (trace) the steps.",
         _model("parse_model"),
         (INPUT, BASE, ENCODING, TRACE,
          Param("max_errors", "count", "return at most this many validation errors (the first "
                "ones); validation_errors_total counts them all"))),
    Kind("set",
         "Parse input (against base), then apply setter operations in order; each operation's "
         "record and getters before and after, what changed, and why a setter did nothing.",
         _model("set_model"),
         (INPUT, Param("ops", "ops", "the setter operations, in order", required=True,
                       choices=_operations), BASE, TRACE)),
    Kind("host",
         "The host parser on input, as a special URL's host (domain) and as an opaque host.",
         _model("host_model"), (INPUT, TRACE)),
    Kind("urlencoded",
         "application/x-www-form-urlencoded: the parsed name-value pairs and their "
         "serialization.",
         _model("urlencoded_model"), (INPUT,)),
    Kind("percent",
         "Percent-encode after encoding (with an encode set and an encoding) and percent-decode.",
         _model("percent_model"),
         (INPUT, Param("encode_set", "choice", "the percent-encode set",
                       default="component percent-encode set", choices=_encode_sets),
          ENCODING)),
    Kind("validate",
         "The valid-URL-string verdict beside the parser's validation errors.",
         _model("validate_model"), (INPUT, BASE)),
    Kind("compare",
         "One input read by the older URL specifications beside the current URL Standard.",
         _compare,
         (INPUT, BASE, Param("errata", "flag", "apply the editions' published errata",
                             default=False),
          Param("traces", "flag", "each edition's trace (false: every trace is null, and the "
                "answer is a fifth smaller)", default=True),
          Param("as_of", "text", "days (yyyy-mm-dd, comma-separated, at most 3): a column of "
                "the URL Standard on each day beside the editions (today's parser with every "
                "change urlcalc can undo that landed after it, undone)"),
          Param("without", "text", "a change of the URL Standard (a variant's name or its "
                "commit, 7+ hex digits): a column of today's standard without it"))),
    Kind("random",
         "A random input shaped by an edition's grammar, repeatable from its seed.",
         _random,
         (Param("edition", "choice", "an edition's grammar (absent: a random edition)",
                choices=_editions),
          Param("seed", "seed", "the draw's seed (absent: a fresh one, returned)"))),
    Kind("implementations",
         "The input read by other implementations (whatwg-url, Node's URL, ada-url, "
         "urllib.parse, rfc3986, yarl) beside the URL Standard: each one's getters, its "
         "differences from the standard with their explanations, or why it is not available.",
         _implementations, (INPUT, BASE)),
    Kind("history",
         "Since when does input mean what it means: every change of the URL Standard urlcalc can "
         "undo whose undoing alters the result (href, failure, a getter, the validation "
         "errors), oldest first, with the result without it and the changed steps' text before "
         "and after.",
         _history, (INPUT, BASE,
                    Param("as_of", "text", "a day (yyyy-mm-dd): also read the input as the "
                          "standard was then (every change urlcalc can undo that landed "
                          "after it, undone)"))),
    Kind("survey",
         "A small corpus surveyed: how many of the URLs (one a line, at most MAX_SURVEY_URLS) "
         "parse or fail and where, each validation error and the step that raised it, the "
         "schemes, the host parser's paths and the parser's steps taken; the report (urlcalc "
         "survey's JSON report, docs/survey-report.schema.json).",
         _survey,
         (Param("urls", "text", "the URLs, one a line (LF or CRLF; blank lines skipped), in "
                "at most the body's limit", required=True, max_bytes=MAX_BODY_BYTES), BASE)),
    Kind("wpt",
         "Is this in WPT? The web-platform-tests URL entries (urltestdata.json, "
         "setters_tests.json, toascii.json, IdnaTestV2.json) that test input (against base), "
         "exactly or modulo ASCII case and percent-encoding, else the nearest ones (the same "
         "failure step, host kind, validation errors), each with why it is near.",
         _wpt, (INPUT, BASE)),
    Kind("version",
         "The model version, the engine (Python, Unicode and IDNA table versions), the parser "
         "states, the setter operations, the getters and the url.bs the step data comes from.",
         _model("version_model")),
    Kind("spec",
         "The spec's words: every algorithm urlcalc cites (url.bs; UTS #46 as summaries) with "
         "its anchor, introduction and numbered steps.",
         _model("spec_model")),
)}


# --- checking a request --------------------------------------------------------------------------

def _type_name(value: object) -> str:
    return "bool" if isinstance(value, bool) else type(value).__name__


def _check_text(name: str, value: str, limit: int = MAX_INPUT_BYTES) -> str:
    if len(value.encode("utf-8", "surrogatepass")) > limit:
        raise ModelError(f"{name} is over the {limit // 1024} KiB limit")
    return value


def _read(param: Param, params: dict[str, Any]) -> Any:
    """The value of ``param`` in ``params``, checked by its type (its default when absent)."""
    name = param.name
    value = params.get(name)
    if value is None:
        if param.required:
            raise ModelError(f"missing field {name!r}")
        return param.default
    expected = _JSON_TYPES[param.type]
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        raise ModelError(f"field {name!r} must be {expected.__name__}, not {_type_name(value)}")
    if isinstance(value, str):
        return _check_text(f"field {name!r}", value, param.max_bytes)
    if param.type == "count" and isinstance(value, int) and value < 0:
        raise ModelError(f"field {name!r} must not be negative")
    if param.type == "ops" and isinstance(value, list):
        return _read_ops(value, params.get("trace") is True)
    return value


_JSON_TYPES: dict[ParamType, type] = {"text": str, "choice": str, "flag": bool, "count": int,
                                      "seed": int, "ops": list}


def _read_ops(ops: list[Any], traced: bool) -> list[tuple[str, str]]:
    """[operation, value] pairs of strings, each value and all of them within their limits (the
    operations' names and number are set_model's to check)."""
    out: list[tuple[str, str]] = []
    total = 0
    for i, op in enumerate(ops):
        if not (isinstance(op, list | tuple) and len(op) == 2
                and all(isinstance(x, str) for x in op)):
            raise ModelError(f"ops[{i}] must be a [setter, value] pair of strings")
        total += len(_check_text(f"ops[{i}] value", op[1]).encode("utf-8", "surrogatepass"))
        out.append((op[0], op[1]))
    limit = MAX_TRACED_SET_VALUES_BYTES if traced else MAX_SET_VALUES_BYTES
    if total > limit:
        raise ModelError(f"the setter values total {total} bytes: over the {limit // 1024} KiB "
                         f"limit per request{' with trace' if traced else ''}")
    return out


def dispatch(kind: str, params: dict[str, Any]) -> Answer:
    """The result of a request: ``kind`` names the model function, ``params`` its JSON
    arguments. Raises ModelError for a bad request (urlcalc.answers.answer turns that, an
    unknown kind and a bug into statuses)."""
    if not isinstance(params, dict):
        raise ModelError("the request body must be a JSON object")
    spec = KINDS.get(kind)
    if spec is None:
        raise ModelError(f"unknown kind {kind!r}")
    args = {p.name: _read(p, params) for p in spec.params}
    return spec.function()(**args)

