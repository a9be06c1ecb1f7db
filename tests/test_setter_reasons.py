"""Why a setter changed nothing: each early return names its setter and the step that returns.

Expected values derived by hand from url.bs (the URL class, setter steps), not from urlcalc:

* username, password and port setters, step 1: "If this's URL cannot have a
  username/password/port, then return." (a URL cannot have one when its host is null or the empty
  host, or its scheme is "file");
* host, hostname and pathname setters, step 1: "If this's URL has an opaque path, then return.";
* port setter, step 2: the empty string sets the port to null (a change, so no reason);
  step 3: otherwise basic URL parse with port state as state override.
"""

from __future__ import annotations

import pytest

from urlcalc import URL
from urlcalc.model.results import set_model
from urlcalc.trace.recorder import TraceRecorder

# url.bs's words for the two early returns (copied by hand)
NO_CREDENTIALS = "If this's URL cannot have a username/password/port, then return."
OPAQUE = "If this's URL has an opaque path, then return."

EARLY_RETURNS = [
    # (href, setter, value, setter's step that returns, the step's words)
    ("file:///x", "port", "8080", "1", NO_CREDENTIALS),           # scheme is "file"
    ("mailto:x@y", "port", "1", "1", NO_CREDENTIALS),             # host is null
    ("sc:///x", "port", "2", "1", NO_CREDENTIALS),                # host is the empty host
    ("file://h/x", "password", "secret", "1", NO_CREDENTIALS),    # scheme is "file"
    ("sc:/x", "password", "p", "1", NO_CREDENTIALS),              # host is null
    ("file:///x", "username", "u", "1", NO_CREDENTIALS),
    ("mailto:x@y", "host", "example.com", "1", OPAQUE),
    ("data:text/plain,x", "hostname", "example.com", "1", OPAQUE),
    ("mailto:x@y", "pathname", "/p", "1", OPAQUE),
]


@pytest.mark.parametrize(("href", "setter", "value", "step", "why"), EARLY_RETURNS)
def test_early_return_reason_names_the_setter_and_step(href: str, setter: str, value: str,
                                                       step: str, why: str) -> None:
    url = URL(href)
    rec = TraceRecorder()
    reason = url.set(setter, value, rec)
    assert reason == f"{setter} setter, step {step}: {why}"
    assert url.href == URL(href).href  # nothing changed
    # the trace shows the same step of the same setter
    assert [(s["state"], s["step"]) for s in rec.steps] == [(f"{setter} setter", step)]
    # and the result model (setters lab, API) carries the reason with no change
    op = set_model(href, [[setter, value]])["operations"][0]
    assert op["reason"] == reason and op["changed"] == []


def test_port_setter_steps_that_change_the_url_give_no_reason() -> None:
    url = URL("https://a.com:81/")
    assert url.set("port", "") is None  # step 2: port becomes null
    assert url.port == ""
    assert url.set("port", "8080") is None  # step 3: port state with state override
    assert url.port == "8080"
    url = URL("https://u@a.com/")
    assert url.set("password", "p") is None and url.href == "https://u:p@a.com/"


def test_port_setter_failure_is_the_parsers_not_an_early_return() -> None:
    # step 3's basic URL parse returns failure for a port over 65535: port state, step 2.1.2 ("If
    # port is not a 16-bit unsigned integer, port-out-of-range validation error, return failure.")
    url = URL("https://a.com/")
    reason = url.set("port", "65536")
    assert reason is not None
    assert reason.startswith("port setter, step 3: the basic URL parser returned failure at "
                             "port state, step 2.1.2: ")
    assert "port-out-of-range" in reason
    assert url.port == ""


# url.bs's terms for the two conditions (by hand: the <dfn> "cannot have a username/password/port"
# and "has an opaque path"): the trace's note on the early-return step names the condition, so
# that `urlcalc --trace` and the notebook say why, not only which step.
@pytest.mark.parametrize(("href", "setter", "value", "why"), [
    (href, setter, value, "cannot have a username/password/port" if why == NO_CREDENTIALS
     else "has an opaque path")
    for href, setter, value, _, why in EARLY_RETURNS])
def test_early_return_trace_note_names_the_condition(href: str, setter: str, value: str,
                                                     why: str) -> None:
    rec = TraceRecorder()
    URL(href).set(setter, value, rec)
    [step] = rec.steps
    assert why in step["note"] and step["note"].endswith(": return")
    assert step["outcome"] == "return"  # url.bs: "..., then return."
