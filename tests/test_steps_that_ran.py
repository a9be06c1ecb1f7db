"""Every change attributed to the step that made it: the cases the attribution issue found, each
as the spec's words say it (url.bs, read by hand), not as the parser happens to do it.

A row: the input (and base, or a setter), the state whose run is checked (its n-th run when a
state runs more than once), and the steps that ran, each with the record fields it changed, the
errors it raised and its outcome.
"""

from __future__ import annotations

from typing import Any

import pytest

from urlcalc.standard.observer import Step
from urlcalc.standard.parser import ParseFailure, basic_url_parse
from urlcalc.standard.url import URL
from urlcalc.trace.recorder import TraceRecorder

Ran = list[tuple[str, dict[str, Any], list[str], str | None]]


def _parse(input: str, base: str | None = None) -> list[Step]:
    b = None
    if base is not None:
        parsed = basic_url_parse(base)
        assert not isinstance(parsed, ParseFailure)
        b = parsed
    rec = TraceRecorder()
    basic_url_parse(input, b, observer=rec)
    return rec.steps


def _set(href: str, setter: str, value: str) -> list[Step]:
    rec = TraceRecorder()
    URL(href).set(setter, value, rec)
    return rec.steps


def _ran(steps: list[Step], state: str, c: str | bool | None = False) -> Ran:
    """The steps that ran in ``state``'s run at code point ``c`` (False: its last run)."""
    runs = [s for s in steps if s.get("state") == state and (c is False or s.get("c") == c)]
    assert runs, (state, c)
    return [(r["step"], r.get("changes", {}), r.get("errors", []), r.get("outcome"))
            for r in runs[-1]["ran"]]


CASES: list[tuple[str, list[Step], str, str | bool | None, Ran]] = [
    # Preamble and sibling steps. Scheme state 2.2 "Set url's scheme to buffer", then 2.7
    # "Otherwise, if url is special, set state to special authority slashes state".
    ("http://example.com/ at ':'", _parse("http://example.com/"), "scheme state", ":",
     [("2.2", {"scheme": "http"}, [], None), ("2.7", {}, [], None)]),
    # File state 1 "Set url's scheme to "file"", 2 "Set url's host to the empty string", 3.2
    # "Set state to file slash state" (the scheme was already "file": 1 changes nothing).
    ("file:///x at the first '/'", _parse("file:///x"), "file state", "/",
     [("1", {}, [], None), ("2", {"host": ""}, [], None), ("3.2", {}, [], None)]),
    # Relative state 2 sets the scheme, 5.1 copies the base's username ... query, 5.4.1 sets
    # the query to null, 5.4.2 shortens the path, 5.4.3 sets the state.
    ("x against http://h/a/b", _parse("x", "http://h/a/b"), "relative state", "x",
     [("2", {"scheme": "http"}, [], None), ("5.1", {"host": "h", "path": ["a", "b"]}, [], None),
      ("5.4.1", {}, [], None), ("5.4.2", {"path": ["a"]}, [], None), ("5.4.3", {}, [], None)]),
    # Path state 1.4.2 "Append buffer to url's path", 1.6 "If c is U+003F (?), then set url's
    # query to the empty string and state to query state".
    ("http://h/a?q at '?'", _parse("http://h/a?q"), "path state", "?",
     [("1.4.2", {"path": ["a"]}, [], None), ("1.6", {"query": ""}, [], None)]),
    # A return step cited for an earlier step's change: port state 2.1.3 sets the port, 2.1.5
    # "If state override is given, then return".
    ("port setter 8080", _set("http://h/", "port", "8080"), "port state", None,
     [("2.1.3", {"port": 8080}, [], None), ("2.1.5", {}, [], "return")]),
    # host state 3.3 calls the host parser, 3.5 sets the host, 3.6 returns.
    ("host setter x.y", _set("http://h/", "host", "x.y"), "host state", None,
     [("3.3", {}, [], None), ("3.5", {"host": "x.y"}, [], None), ("3.6", {}, [], "return")]),
    ("hostname setter x.y", _set("http://h/", "hostname", "x.y"), "hostname state", None,
     [("3.3", {}, [], None), ("3.5", {"host": "x.y"}, [], None), ("3.6", {}, [], "return")]),
    # scheme state 2.2 sets the scheme, 2.3.1 drops the new scheme's default port, 2.3.2
    # returns.
    ("protocol setter https on http://h:443/", _set("http://h:443/", "protocol", "https"),
     "scheme state", ":",
     [("2.2", {"scheme": "https"}, [], None), ("2.3.1", {"port": None}, [], None),
      ("2.3.2", {}, [], "return")]),
    # Errors on the wrong step: path state 1.1 raises invalid-reverse-solidus; 1.4.2 appends.
    ("http://h/a\\b at '\\'", _parse("http://h/a\\b"), "path state", "\\",
     [("1.1", {}, ["invalid-reverse-solidus"], None), ("1.4.2", {"path": ["a"]}, [], None),
      ("1.5", {}, [], None)]),
    # Opaque path state 3.1 (error), then 3.2 (append "%20": ? or # follows) or 3.3 (a space).
    ("mailto:a ?c at ' '", _parse("mailto:a ?c"), "opaque path state", " ",
     [("3.1", {}, ["invalid-URL-unit"], None), ("3.2", {"path": "a%20"}, [], None)]),
    ("sc:a b at ' '", _parse("sc:a b"), "opaque path state", " ",
     [("3.1", {}, ["invalid-URL-unit"], None), ("3.3", {"path": "a "}, [], None)]),
]


@pytest.mark.parametrize(("name", "steps", "state", "c", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_each_change_error_and_outcome_sits_on_its_step(
        name: str, steps: list[Step], state: str, c: str | bool | None, expected: Ran) -> None:
    assert _ran(steps, state, c) == expected, name
