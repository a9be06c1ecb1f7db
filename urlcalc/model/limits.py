"""Every bound on a request, written once, and the error for a request the model cannot
answer: the request kinds' validation (urlcalc.answers.kinds), the result model, the HTTP server,
the OpenAPI document and the page (through web/js/facts.js) read them from here.

Work per request is bounded by its strings, the setter operations and the trace; what an answer
may spend on what can repeat is bounded by MAX_ANSWER_CHARS; the server bounds bodies and sends
large requests to its worker processes."""

from __future__ import annotations

#: An input, a base, an encoding label or a setter value: at most this many bytes once UTF-8
#: encoded (a longer one is a bad request).
MAX_INPUT_BYTES = 64 * 1024
#: Longest line a survey reads from a corpus (urlcalc.survey.sources), in bytes: a longer line is
#: counted as unreadable ("line too long"), read in pieces and never held whole. The same as
#: an input's limit, so every URL a survey reads the calculator can open.
MAX_SURVEY_LINE_BYTES = MAX_INPUT_BYTES
#: Setter operations per request.
MAX_OPS = 64
#: The setter values of one request together (a set request's cost is the sum over its
#: operations), and with trace (a traced setter's steps grow with its value: 64 traced 1 KiB
#: values made a 63 MB answer in 1.4 s, where a traced 64 KiB parse makes 18 MB in 0.3 s;
#: benchmarks/load.py measures it).
MAX_SET_VALUES_BYTES = 64 * 1024
MAX_TRACED_SET_VALUES_BYTES = 16 * 1024
#: The answer budget: about how many characters of JSON one answer may spend on what can repeat
#: (validation errors, traces, each setter operation's records and getters before and after).
#: Without it 64 searchParams.sort operations over a 64 KiB input answered 28 MB. Past it,
#: validation-error lists are cut (``validation_errors_total`` keeps the count), traces keep fewer
#: steps (``truncated``) and setter operations are summarised (``summarised``: their records,
#: getters and trace are null; what changed, why and the errors are kept).
MAX_ANSWER_CHARS = 4 * 1024 * 1024
#: The largest legal request body: a 64 KiB input plus a few setter values, JSON-escaped. The
#: server refuses anything bigger with 413 before parsing it.
MAX_BODY_BYTES = 1024 * 1024
#: A request message on the API's WebSocket (UTF-8 bytes; after permessage-deflate): larger
#: requests go by HTTP POST (the page's relay sends them so).
MAX_SOCKET_MESSAGE_BYTES = 16 * 1024
#: Longest input (and base) the editions compare ("compare"), in code points. Some editions are
#: quadratic as written (the 2012 state machine re-reads its buffer, RFC 3986 5.2.4 copies its
#: two buffers per pass): 2048 code points take about 0.1 s in CPython; 40,000 took 25 s. 2048 is
#: also about the longest URL the browsers of those editions' time accepted (Internet
#: Explorer: 2083).
MAX_COMPARE_CHARS = 2048
#: Longest input (and base) the other implementations compare ("implementations"), in code
#: points: far beyond any URL in use (browsers and servers cap URLs at 2-8 K), and every
#: implementation answers it in well under a millisecond; the node helper's lines stay small.
MAX_IMPLEMENTATIONS_CHARS = 4096
#: Longest input (and base) the history reads ("history"), in code points: it reads them once
#: for each change urlcalc can undo (75 and more) with the fast path off, so 1024 code points of
#: CJK in a host (the costliest) stay well within the request's CPU budget.
MAX_HISTORY_CHARS = 1024
#: Most columns of the URL Standard on a day ("compare" with ``as_of``) beside the editions:
#: each is a parse with the fast path off, and the Editions view's table stays readable.
MAX_AS_OF_COLUMNS = 3
#: Most URLs one "survey" request reads (one a line; the page surveys a pasted text or a file of
#: at most this many in its Pyodide worker, or asks the server): a larger corpus is
#: ``urlcalc survey``'s, on as many processes as it likes.
MAX_SURVEY_URLS = 10_000
#: Non-ASCII code points in one label of a host, and in the whole host, past which the other
#: implementations that IDNA-encode hosts (yarl, ada-url, whatwg-url, Node's URL) are not run on
#: it ("implementations" says so in their column). Punycode is quadratic in a label's non-ASCII
#: code points, and CPython's codec (yarl's fallback) slowly so: 4,000 distinct CJK code points
#: in one label took yarl 2.9 s, ada 27 ms, the node helper's whatwg-url 118 ms, where a small
#: request takes 0.4 ms. No host in use comes near either cap: an A-label is at most 63 octets
#: and a name 253, and each non-ASCII code point takes at least one of them. Within the caps the
#: worst host (labels of 40 code points up to 253 in all) costs yarl about 7 ms; uncapped, labels
#: under the label cap filling a 4 KiB host cost it 58 ms (benchmarks: docs/hardening.md).
MAX_IDNA_LABEL_NON_ASCII = 63
MAX_IDNA_HOST_NON_ASCII = 253
#: CPU time a request may spend, in seconds, by kind (urlcalc.model.budget): about four times
#: what the costliest legal request of the kind takes on a 2-vCPU server of 2026 (benchmarks/cost.py
#: measures them), so that a machine twice as slow still answers every legal request. Past it the
#: request is stopped and answered 422 with the part that was cut.
CPU_BUDGET_S: dict[str, float] = {
    "parse": 2.0, "set": 8.0, "host": 1.0, "urlencoded": 1.0, "percent": 1.0, "validate": 2.0,
    "compare": 2.0, "random": 1.0, "implementations": 1.0, "version": 1.0, "spec": 1.0,
    "history": 4.0, "survey": 10.0, "wpt": 2.0,
}
#: How many code points of one string the page shows (the input's coloured cells, the href, a
#: getter, a tape entry, a handout's line): the rest is counted in a note ("… (N more code points
#: not shown)"); the whole string is still what is parsed, copied and linked. Laying out tens of
#: thousands of code points (a cell or a badge each) froze the page for seconds.
MAX_SHOWN_CODE_POINTS = 2000
#: Seeds of the random-URL generator are JSON numbers: exact in JavaScript too.
MAX_SEED = 2**53 - 1


class ModelError(ValueError):
    """A request the model cannot answer: over a limit above, a missing or mistyped field, an
    unknown kind, encoding label, operation or edition (not a URL failure: those are results)."""
