"""What the Pyodide boot snapshot holds: every module a request can import, imported, and a few
requests of every kind answered once.

``web/tools/make-snapshot.mjs`` (run by make) boots Pyodide under node, unpacks bundle.zip,
calls ``warm_up()`` and writes the interpreter's memory as the page's boot snapshot. A worker
booted from it has no standard library zip and no bundle.zip in its file system (that is what
makes the snapshot boot small), so nothing may be imported later: ``warm_up`` runs every kind
(``REQUESTS`` covers each one of ``urlcalc.kinds.KINDS``; tests/test_warmup.py checks it), every
edition's grammar, and looks up every Python codec the WHATWG encoders read
(``urlcalc.encoding.PYTHON_CODECS``). ``tests/browser/test_snapshot.py`` answers these requests
after a snapshot boot and compares them with a normal boot's.

Only strings cross in and out (JSON), as in the worker.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["REQUESTS", "warm_up"]

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
    ("random", {"seed": 1}),
    ("implementations", {"input": "http://a.com/./b"}),
    ("implementations", {"input": "x", "base": "http://a.com/"}),
    ("version", {}),
    ("spec", {}),
)


def warm_up() -> int:
    """Answer REQUESTS, a random input of every edition and a percent-encoding in every
    encoding; look up every codec the encoders read; return the number of requests answered."""
    from urlcalc.editions import EDITIONS
    from urlcalc.encoding import ENCODING_NAMES, PYTHON_CODECS
    from urlcalc.kinds import dispatch_json

    requests: list[tuple[str, dict[str, Any]]] = list(REQUESTS)
    requests += [("random", {"edition": name, "seed": 7}) for name in EDITIONS]
    requests += [("percent", {"input": "a\u00e9", "encoding": name}) for name in ENCODING_NAMES]
    for kind, params in requests:
        dispatch_json(kind, json.dumps(params))
    import codecs

    for codec in PYTHON_CODECS:
        codecs.lookup(codec)
    import urlcalc.engine
    import urlcalc.model

    urlcalc.engine.engine_info()
    return len(requests)
