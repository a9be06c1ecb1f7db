"""What the Pyodide boot snapshot holds: every module a request can import, imported, and a few
requests of every kind answered once.

``web/tools/make-snapshot.mjs`` (run by make) boots Pyodide under node, unpacks bundle.zip,
calls ``warm_up()`` and writes the interpreter's memory as the page's boot snapshot. A worker
booted from it has no standard library zip and no bundle.zip in its file system (that is what
makes the snapshot boot small), so nothing may be imported later: ``warm_up`` runs every kind
(``REQUESTS`` covers each one of ``urlcalc.answers.kinds.KINDS``; tests/test_boot_snapshot.py checks
it), every edition's grammar, and looks up every Python codec the WHATWG encoders read
(``urlcalc.standard.encoding.PYTHON_CODECS``). ``tests/browser/test_snapshot.py`` answers these
requests after a snapshot boot and compares them with a normal boot's.

Only strings cross in and out (JSON), as in the worker.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["REQUESTS", "TYPING_URLS", "WARM_BUDGET_MS", "typing_plan", "typing_requests", "warm_up"]

# (kind, params): a few requests of every kind, through every layer (the traced parser and
# setters, the host parser and IDNA, the encoders, the editions, the implementations, the spec).
REQUESTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("parse", {"input": "https://u:p@\u00e9x.com:8/a/../b?q#f", "trace": True}),
    ("parse", {"input": "HTTP://EXAMPLE.com:80/%7e?q=\u00e9#f", "encoding": "shift_jis"}),
    ("parse", {"input": "../x y?\u4e00", "base": "file:///C:/a/b", "max_errors": 1}),
    ("parse", {"input": "http://[::1]:8/x", "trace": True}),
    ("parse", {"input": "http://0x7f.1/", "trace": True}),
    ("parse", {"input": "non-spec:/.//p"}),
    ("parse", {"input": "http://a b/"}),
    ("set", {"input": "https://a.com/x?y", "trace": True,
             "ops": [["username", "bob"], ["protocol", "mailto"], ["hostname", "\u00e9.com"],
                     ["port", "99"], ["pathname", "/a/../b"], ["search", "q=1"],
                     ["hash", "h"], ["searchParams.append", "a=b"]]}),
    ("set", {"input": "http://a.com/", "ops": [["host", "xn--nxasmq6b.com:1"]]}),
    ("host", {"input": "EXAMPLE.\u00e9.com", "trace": True}),
    ("host", {"input": "[1:0::]", "trace": True}),
    ("host", {"input": "xn--a.com"}),
    ("urlencoded", {"input": "a=b&c=%zz&d+e=\u00e9"}),
    ("percent", {"input": "\u00e9 x/?", "encoding": "windows-1252"}),
    ("percent", {"input": "a b", "encode_set": "userinfo percent-encode set"}),
    ("validate", {"input": "http://a b"}),
    ("validate", {"input": "https://a.com/", "base": "http://b.com"}),
    ("compare", {"input": "http:\\\\a.com\\b"}),
    ("compare", {"input": "HTTP://a.com:80/./b/%7e?q#f", "errata": True}),
    ("compare", {"input": "x", "base": "file:///C:/a"}),
    # (a non-ASCII host: the editions' own ToASCII reads Python's punycode codec)
    ("compare", {"input": "http://\u00e9x.com/"}),
    # (the history's modules; its data is read on demand and not kept: below)
    ("history", {"input": "http://example.com/"}),
    ("survey", {"urls": "http://a.com/\nhttp://a b/\n\u00e9:x\r\nhttp://[::1]/\\x",
                "base": "http://b.com/"}),
    # (the WPT lookup: its index is built, then dropped below; the data stays compressed)
    ("wpt", {"input": "http://a b/"}),
    ("random", {"seed": 1}),
    ("implementations", {"input": "http://a.com/./b"}),
    ("implementations", {"input": "x", "base": "http://a.com/"}),
    ("version", {}),
    ("spec", {}),
)


def warm_up() -> int:
    """Answer REQUESTS, a random input of every edition and a percent-encoding in every
    encoding; look up every codec the encoders read; return the number of requests answered."""
    from urlcalc.answers.answer import dispatch_json
    from urlcalc.editions import EDITIONS
    from urlcalc.standard.encoding import ENCODING_NAMES, PYTHON_CODECS

    requests: list[tuple[str, dict[str, Any]]] = list(REQUESTS)
    requests += [("random", {"edition": name, "seed": 7}) for name in EDITIONS]
    requests += [("percent", {"input": "a\u00e9", "encoding": name}) for name in ENCODING_NAMES]
    for kind, params in requests:
        dispatch_json(kind, json.dumps(params))
    import codecs

    for codec in (*PYTHON_CODECS, "punycode"):
        codecs.lookup(codec)
    # The history's data (370 KB of JSON) is read when a history is asked for, not kept in the
    # snapshot the page downloads.
    from urlcalc.history import commits, step_changes

    for cached in (commits._data, commits.commits, step_changes._data, step_changes._entry):
        cached.cache_clear()
    # The WPT entries (urlcalc.site.wpt): a snapshot boot has no data files, so their text is
    # kept, compressed (about 50 KB), and the index is built again on the first lookup.
    from urlcalc.site import wpt

    wpt._index.cache_clear()
    import urlcalc.model.results
    import urlcalc.model.runtime

    urlcalc.model.runtime.engine_info()
    return len(requests)


# The page's second warm-up, in the browser, once its worker is ready
# (web/js/workers/pyodide-worker.js). A browser runs Pyodide's WebAssembly first as compiled by its
# baseline compiler and recompiles a function with its optimizing compiler only once that function
# has run for a while: measured in Chromium 156 here, a traced parse of a 60-100 code point URL took
# 8-15 ms in the first 0.2 s of Python after boot, 5-6 ms after 0.5 s and 2.8-3 ms after 1.1 s (as
# under node, where it had run longer). So the keystrokes typed first after boot were the slowest of
# all. The worker spends WARM_BUDGET_MS of Python on these requests (round after round) while the
# page asks for nothing (a request from the page goes first, and the warm-up waits until the page is
# idle again).
#: URLs typed one code point at a time (each prefix a request), through the parser's states and
#: the host parser: credentials, an internationalized and a punycode domain, IPv4 and IPv6, a
#: port, dot segments, percent-encoding, query and fragment, a file URL against a base, an
#: opaque path, a failure.
TYPING_URLS: tuple[tuple[str, str | None], ...] = (
    ("HTTPS://user:pa%20ss@b\u00fccher.example:443/x/./y/../%7Ez?a=1&b=\u00e9#top", None),
    ("http://0x7F.0.0.1:8080/a//b/..;/c?%zz#f g", None),
    ("ws://[::ffff:192.168.0.1]/chat?room=1", None),
    ("../up/./file name.txt?v=2#end", "file:///C:/docs/index.html"),
    ("https://xn--nxasmq6b.xn--j6w193g/\u4e00?q=\u4e8c", None),
    ("mailto:someone@example.org?subject=Hi%20there", None),
    ("http://exa mple.com/", None),
)
#: How much Python (ms) the worker spends on typing_requests(): one round took 0.65 s in Chromium
#: here, and the traced parse above was as fast as it gets after about 1.1 s.
WARM_BUDGET_MS = 1200


def typing_requests() -> list[tuple[str, str]]:
    """(kind, params as JSON): the requests of a person typing TYPING_URLS, in the order the
    worker answers them: each prefix parsed with and without a trace and compared with the
    editions; a few validated and set."""
    out: list[tuple[str, str]] = []
    for url, base in TYPING_URLS:
        for n in range(4, len(url) + 1, 3):
            params: dict[str, Any] = {"input": url[:n]}
            if base is not None:
                params["base"] = base
            out.append(("parse", json.dumps({**params, "trace": True})))
            out.append(("parse", json.dumps(params)))
            out.append(("compare", json.dumps(params)))
            if n % 4 == 0:
                out.append(("validate", json.dumps(params)))
                out.append(("set", json.dumps({**params, "ops": [["hostname", "h\u00e9.example"],
                                                                 ["pathname", "/a/../b"]]})))
    return out


def typing_plan() -> str:
    """What the worker's second warm-up does, as JSON: {"requests": typing_requests(),
    "budget_ms": WARM_BUDGET_MS}."""
    return json.dumps({"requests": typing_requests(), "budget_ms": WARM_BUDGET_MS})
