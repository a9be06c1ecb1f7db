"""The example lessons shipped with the page (web/js/lessons/*.json): well-formed lesson files
(docs/lessons.md) whose every claim holds in urlcalc: the href each step records, the trace step
a Steps step points at, and what each setter in the setters lesson does.

The page's own reader (web/js/state/lesson-format.js) is exercised in the browser tests
(tests/browser/test_classroom.py: import, export, links, malformed files)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from urlcalc.answers.kinds import dispatch
from urlcalc.model import results as model

REPO = Path(__file__).resolve().parent.parent
LESSONS = REPO / "web" / "js" / "lessons"
STEP_KEYS = {"input", "base", "view", "step", "note", "ops", "enc", "href"}


def js_list(path: Path, name: str) -> list[str]:
    """A `const NAME = ["a", "b", ...]` list of strings from a page module (one source)."""
    text = path.read_text(encoding="utf-8")
    m = re.search(rf"(?:const|let) {name} = (?:Object\.freeze\()?\[(.*?)\]\)?;", text, re.S)
    assert m, f"{name} not found in {path}"
    return re.findall(r'"([^"]+)"', m.group(1))


VIEWS = [v for v in js_list(REPO / "web/js/state/view-names.js", "VIEWS") if v != "lessons"]
OPERATIONS = list(model.OPERATIONS)  # what the page offers too (web/js/facts.js, from it)
EXAMPLES = js_list(REPO / "web/js/views/lessons.js", "EXAMPLE_LESSONS")


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((LESSONS / name).read_text(encoding="utf-8"))
    return data


def answer(step: dict[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {"input": step["input"]}
    if step.get("base"):
        params["base"] = step["base"]
    if step.get("enc"):
        params["encoding"] = step["enc"]
    if step.get("ops"):
        params["ops"] = step["ops"]
        return dispatch("set", params)
    params["trace"] = True
    return dispatch("parse", params)


def test_the_page_lists_every_example_lesson_file() -> None:
    assert sorted(EXAMPLES) == sorted(p.name for p in LESSONS.glob("*.json"))
    assert len(EXAMPLES) == 3


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_lesson_is_a_well_formed_lesson_file(name: str) -> None:
    data = load(name)
    assert set(data) <= {"format", "version", "title", "description", "steps"}
    assert data["format"] == "urlcalc-lesson" and data["version"] == 1
    assert data["title"].strip() and len(data["title"]) <= 200
    assert 1 <= len(data["steps"]) <= 500
    for step in data["steps"]:
        assert set(step) <= STEP_KEYS and isinstance(step["input"], str), step
        assert step.get("view", "components") in VIEWS, step
        assert step["note"].strip() and len(step["note"]) <= 1000, step
        assert "href" in step, "every example step records what urlcalc gives"
        if "step" in step:
            assert step.get("view") == "steps" and isinstance(step["step"], int)
        for op in step.get("ops", []):
            assert op[0] in OPERATIONS and isinstance(op[1], str), op


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_lesson_hrefs_are_what_urlcalc_gives(name: str) -> None:
    for k, step in enumerate(load(name)["steps"], 1):
        r = answer(step)
        got = r["getters"]["href"] if r["ok"] else None
        assert got == step["href"], (name, k, step["input"], got)


# The trace step each Steps step points at: (parser, spec step, a word of the trace's note).
TRACE_POINTS = {
    ("relative-resolution.json", 3): ("shorten", "4", "remove the last path segment"),
    ("relative-resolution.json", 4): ("shorten", "4", "the path is empty"),
    ("relative-resolution.json", 13): ("shorten", "3", "drive letter"),
    ("hosts.json", 1): ("ipv4", "14", "return ipv4"),
    ("hosts.json", 5): ("ipv4", "8", "a number before the last exceeds 255: failure"),
}


def test_steps_steps_point_at_the_trace_step_their_note_is_about() -> None:
    seen = set()
    for name in EXAMPLES:
        for k, step in enumerate(load(name)["steps"], 1):
            if step.get("view") != "steps":
                continue
            seen.add((name, k))
            trace = answer(step)["trace"]["steps"]
            assert 0 <= step["step"] < len(trace)
            s = trace[step["step"]]
            parser, spec_step, words = TRACE_POINTS[(name, k)]
            assert (s["parser"], s["step"]) == (parser, spec_step), (name, k, s)
            assert words in (s.get("note") or ""), (name, k, s)
    assert seen == set(TRACE_POINTS)


# What each operation of the setters lesson does: "=" nothing changes (and the spec's step says
# why), "changed", or "threw".
SETTER_OUTCOMES = [["="], ["="], ["="], ["="], ["=", "="], ["=", "="], ["="], ["changed"],
                   ["changed"], ["changed", "="], ["="], ["changed", "changed"], ["threw"],
                   ["changed", "changed"]]


def test_setters_lesson_notes_say_what_the_setters_do() -> None:
    steps = load("setters.json")["steps"]
    assert len(steps) == len(SETTER_OUTCOMES)
    for step, expected in zip(steps, SETTER_OUTCOMES, strict=True):
        r = answer(step)
        outcomes = []
        for o in r["operations"]:
            if o.get("threw"):
                outcomes.append("threw")
            elif o["changed"]:
                outcomes.append("changed")
            else:
                assert o["reason"] and o["cited"]["step"], o  # the step that returned
                outcomes.append("=")
        assert outcomes == expected, (step["input"], step["ops"], outcomes)
