"""The setters' own steps in the trace: which steps each setter reports, in order, and that each
step's note says what url.bs's step does.

Expected values by hand from url.bs (the URL class, setter steps), not from urlcalc: the step
numbers are the spec's; the words each note must contain are url.bs's own terms for what that
step does (e.g. hash setter, step 2: "Let input be the given value with a single leading U+0023
(#) removed, if any."; step 4: "Basic URL parse input with this's URL as url and fragment state
as state override."). A step that only applies "if any" is reported only when it did something
(no leading "#", no step 2). The state-override steps name the input they parse, which is the
value less the removed "#" or "?".
"""

from __future__ import annotations

import pytest

from urlcalc import URL, URLParseError
from urlcalc.trace.recorder import TraceRecorder

CASES: list[tuple[str, str, str, list[tuple[str | None, tuple[str, ...]]]]] = [
    # (href, setter, value, [(setter's step, words its note contains)])
    ("https://a/", "hash", "#x", [("2", ("leading", "#")), ("3", ("empty string",)),
                                  ("4", ("'x'", "fragment state", "state override"))]),
    ("https://a/", "hash", "x", [("3", ("empty string",)),
                                 ("4", ("'x'", "fragment state", "state override"))]),
    ("https://a/#y", "hash", "", [("1", ("empty string", "null"))]),
    ("https://a/?q", "search", "", [("2", ("empty string", "null", "list"))]),
    ("https://a/", "search", "?a=b", [("3", ("leading", "?")), ("4", ("empty string",)),
                                      ("5", ("'a=b'", "query state", "state override")),
                                      ("6", ("list", "pars", "input"))]),
    ("https://a/", "search", "a=b", [("4", ("empty string",)),
                                     ("5", ("'a=b'", "query state", "state override")),
                                     ("6", ("list", "pars", "input"))]),
    ("https://a/x", "pathname", "/p", [("2", ("empty", "path")),
                                       ("3", ("'/p'", "path start state", "state override"))]),
    ("https://a:1/", "port", "", [("2", ("empty string", "null"))]),
    ("https://a/", "port", "8080", [("3", ("'8080'", "port state", "state override"))]),
    ("https://a/", "username", "u", [("2", ("username",))]),
    ("https://u@a/", "password", "p", [("2", ("password",))]),
    ("https://a/", "host", "b:2", [("2", ("'b:2'", "host state", "state override"))]),
    ("https://a/", "hostname", "b", [("2", ("'b'", "hostname state", "state override"))]),
    ("https://a/", "href", "https://b/", [("1", ("basic URL parser",)), ("3", ("parsedURL",))]),
    ("https://a/", "href", "nope", [("1", ("basic URL parser",)),
                                    ("2", ("failure", "TypeError"))]),
    # the protocol setter has no numbered steps; it parses the value followed by ":"
    ("https://a/", "protocol", "http", [(None, ("'http:'", "scheme start state",
                                               "state override"))]),
]


@pytest.mark.parametrize(("href", "setter", "value", "steps"), CASES)
def test_setter_steps_and_their_notes(href: str, setter: str, value: str,
                                      steps: list[tuple[str | None, tuple[str, ...]]]) -> None:
    rec = TraceRecorder()
    url = URL(href)
    try:
        url.set(setter, value, rec)
    except URLParseError:
        assert setter == "href"  # href setter, step 2: throw a TypeError
    own = [s for s in rec.steps if s.get("parser") == "setter"]
    assert [(s["state"], s["step"]) for s in own] == [(f"{setter} setter", n) for n, _ in steps]
    for s, (_, words) in zip(own, steps, strict=True):
        for w in words:
            assert w in s["note"], (s, w)
