"""One answer to one request, whichever way the request came: the HTTP API (``/api/<kind>``, in
the request's thread or in a heavy-work process), the WebSocket (``/api/socket``) and the Pyodide
worker (web/js/workers/pyodide-worker.js) all ask ``answer(kind, params)`` and send what it returns.

``answer`` returns (status, body): the status is the HTTP status the answer has everywhere, the
body its JSON-ready object:

=====  ========================================================================================
200    the kind's result model (``urlcalc.answers.kinds.dispatch``)
422    a request stopped when it had spent its CPU budget (urlcalc.model.budget: only where the
       server gives one): ``{"error": message, "cut": PART, "cpu_budget_s": SECONDS}``
400    a bad request (parameters of the wrong type, over a limit, an unknown encoding label ...):
       ``{"error": message}``
404    an unknown kind: ``{"error": message}`` naming the kinds there are
500    a bug (any other exception): ``{"error": message}`` with the exception's type only, never
       its text (logged with its traceback on the ``urlcalc.answers`` logger)
=====  ========================================================================================

Its JSON form (``to_json``) is the same bytes on every transport: compact (no spaces), UTF-8,
non-ASCII characters as they are (``\\u``-escaped throughout when the body holds a lone surrogate,
which UTF-8 cannot carry). The socket and the worker wrap it in one envelope (``envelope``):
``{"id":ID,"status":STATUS,"body":BODY}``, members in that order, so that a reader may take the id
and the status from the first bytes without parsing the body. Compression and headers are the
transports' (urlcalc.serving).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from urlcalc.answers.kinds import KINDS, dispatch
from urlcalc.model.budget import BudgetSpent
from urlcalc.model.limits import ModelError
from urlcalc.model.shapes import CutAnswer

__all__ = [
    "BAD_REQUEST",
    "CUT",
    "INTERNAL_ERROR",
    "NOT_FOUND",
    "OK",
    "answer",
    "answer_envelope",
    "cut_answer",
    "dispatch_json",
    "envelope",
    "envelope_json",
    "status_of",
    "to_json",
    "to_text",
]

OK = 200
BAD_REQUEST = 400
NOT_FOUND = 404
CUT = 422
INTERNAL_ERROR = 500

log = logging.getLogger("urlcalc.answers")

# compact: a traced answer is about a tenth smaller, and parses faster
_SEPARATORS = (",", ":")


def json_type(value: object) -> str:
    """How a request's JSON value is named in a refusal ("a number", "an array" ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object" if isinstance(value, dict) else type(value).__name__


def answer(kind: str, params: object,
           compute: Callable[[str, dict[str, Any]], Any] = dispatch) -> tuple[int, Any]:
    """(status, body) of the request ``kind`` with ``params`` (its JSON object), as above.
    ``compute``: the function that answers a well-formed request (``dispatch``; tests put a
    broken one here)."""
    if kind not in KINDS:
        shown = kind[:100] if isinstance(kind, str) else kind
        return NOT_FOUND, {"error": f"unknown kind {shown!r}; expected one of "
                                    f"{', '.join(KINDS)}"}
    if not isinstance(params, dict):
        return BAD_REQUEST, {"error": "the request's parameters must be a JSON object, not "
                                      f"{json_type(params)}"}
    try:
        return OK, compute(kind, params)
    except ModelError as e:
        return BAD_REQUEST, {"error": str(e)}
    except BudgetSpent as e:
        return CUT, cut_answer(e)
    except Exception as e:  # a bug: an answer too, with nothing of the exception's text
        log.exception("unhandled error answering a %r request", kind)
        return INTERNAL_ERROR, {"error": f"internal error ({type(e).__name__}) answering "
                                         f"{kind!r}: a bug in urlcalc, logged where it runs"}


def cut_answer(spent: BudgetSpent) -> CutAnswer:
    """The body of a request stopped by its CPU budget."""
    return {"error": f"{spent} (a request costs at most {spent.seconds:g} s of CPU here; "
                     "ask for less: a shorter input, fewer operations, no trace)",
            "cut": spent.part, "cpu_budget_s": spent.seconds}


def to_text(body: Any) -> str:
    """The JSON text of ``body``: compact, non-ASCII as it is (a lone surrogate included)."""
    return json.dumps(body, ensure_ascii=False, separators=_SEPARATORS)


def to_json(body: Any) -> bytes:
    """The JSON bytes of ``body`` (UTF-8; \\u-escaped throughout if it holds a lone surrogate)."""
    try:
        return to_text(body).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(body, separators=_SEPARATORS).encode("ascii")


def _head(id_: int | str | None, status: int) -> str:
    # (the id \u-escaped: it may be any string a client sent)
    return f'{{"id":{json.dumps(id_)},"status":{int(status)},"body":'


def envelope(id_: int | str | None, status: int, body: Any) -> bytes:
    """One answer in its envelope, as the socket sends it: ``{"id":ID,"status":STATUS,
    "body":BODY}`` (UTF-8 JSON, in that order)."""
    return envelope_json(id_, status, to_json(body))


def status_of(message: bytes) -> int | None:
    """The status of an envelope (``envelope``'s bytes), read from its head without parsing the
    body; None for anything else. (Inside a JSON string every quote is escaped, so the first
    ``,"status":`` is the member.)"""
    mark = message.find(b',"status":', 0, 120)
    if not message.startswith(b'{"id":') or mark < 0:
        return None
    digits = message[mark + 10:mark + 13]
    return int(digits) if digits.isdigit() else None


def envelope_json(id_: int | str | None, status: int, body: bytes) -> bytes:
    """``envelope`` around a body already in JSON bytes (a worker process's answer)."""
    return _head(id_, status).encode("ascii") + body + b"}"


def _answer_json(kind: str, params_json: str) -> tuple[int, Any]:
    try:
        params = json.loads(params_json)
    except (ValueError, RecursionError) as e:
        return BAD_REQUEST, {"error": f"the request's parameters are not JSON: {e}"}
    return answer(kind, params)


def answer_envelope(id_: int | str | None, kind: str, params_json: str) -> str:
    """The Pyodide worker's form: the envelope (as text) of the answer to ``kind`` with the JSON
    text ``params_json``; JSON that does not parse is a bad request."""
    status, body = _answer_json(kind, params_json)
    return _head(id_, status) + to_text(body) + "}"


def dispatch_json(kind: str, params_json: str) -> str:
    """The body alone of ``answer_envelope`` (JSON text in and out): the result, or
    ``{"error": ...}``. For the boot snapshot's warm-up (urlcalc.answers.warmup,
    web/tools/make-snapshot.mjs), the benchmarks and the tests."""
    return to_text(_answer_json(kind, params_json)[1])
