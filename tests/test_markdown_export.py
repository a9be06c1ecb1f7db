"""Copy as Markdown (web/js/render/share.js) rendered by a real CommonMark + GFM renderer.

A hostile corpus (runs of backticks that would close a code span, links and images in the URL,
raw HTML, table pipes, parentheses that would cut the permalink short, bare URLs that GitHub
would autolink, newlines, invisible characters) goes through the result model, then through the
page's own toMarkdown in node, and is rendered by markdown-it with raw HTML and linkify on
(tests/markdown/render.mjs). For every entry: the only links are the permalink and the spec's,
no image, no HTML element beyond the table's and the export's own, the table keeps its shape,
each value reads back exactly from its code span, and the permalink opens the same state.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from urlcalc.model import results as model

REPO = Path(__file__).resolve().parent.parent
RENDER = REPO / "tests" / "markdown" / "render.mjs"
MARKDOWN_IT = REPO / "tests" / "differential" / "node_modules" / "markdown-it"

SPEC = "https://url.spec.whatwg.org/#"
# What the export itself may produce: the table, bold/italic labels, code spans, links, a
# paragraph for the footer.
ALLOWED_TAGS = {"table", "thead", "tbody", "tr", "th", "td", "strong", "em", "code", "a", "p"}

HOSTILE = [
    "http://a/?x``[click](https://evil.example)`` ",
    "http://a/?x`[click](https://evil.example)`",
    "http://a/?x```[click](https://evil.example)``` ``` ``",
    "http://a/#`````",
    "`http://a/`",
    "``",
    "`",
    " `x` ",
    "http://a/)[x](https://evil.example)",
    "http://a/?(a)(b))))",
    "http://a/?[x](javascript:alert(1))",
    "http://a/?![img](https://evil.example/x.png)",
    "http://a/?<script>alert(1)</script>",
    "http://a/?<img src=x onerror=alert(1)>",
    "http://a/#</code></td></tr></table><a href=https://evil.example>x</a>",
    "http://a/?a|b||c\\|d\\",
    "http://a/?x\\",
    "http://a/?<https://evil.example>",
    "http://a/?www.evil.example and https://evil.example/x and evil@evil.example",
    "https://evil.example/",
    "javascript:alert(1)//https://evil.example",
    "http://a/?*em* _em_ ~~del~~ **b** # h",
    "http://a/?&lt;script&gt; &#x3C;b&#x3E; &amp;",
    "http://a/?x\n[click](https://evil.example)\n| a | b |",
    "http://a/?x\r\n<script>x</script>",
    "http://a/\u202eevil\u200b?\u2066x\u2069",
    "http://a/?x ` [y](https://evil.example) `",
    "http://a b/``[click](https://evil.example)``",  # a failure
    "",
    "   ",
    "http://user:p`a``ss@h/`[x](https://evil.example)`",
]
BASES = [None, "http://b/``[click](https://evil.example)``/", "https://e.example/(x)/"]
PAGES = ["http://127.0.0.1:8000/", "https://calc.example/a(b)/c)d/"]
ENGINE = "urlcalc 0.1.0 via the server: Python 3.11.7, Unicode 18.0.0, idna 3.20"


def _cases() -> list[dict[str, Any]]:
    cases = []
    for i, input in enumerate(HOSTILE):
        for j, base in enumerate(BASES):
            if j and i % 3:
                continue  # every third input with the hostile bases too
            result = model.parse_model(input, base)
            state = {"input": input, "base": base or ""}
            cases.append({"state": state, "result": json.loads(json.dumps(result)),
                          "engine": ENGINE if i % 2 else ENGINE + " `x` [y](https://evil.example)",
                          "page": PAGES[i % len(PAGES)]})
    # an encoding label and a failure in the base
    cases.append({"state": {"input": "?`x`", "base": "", "enc": "``[e](https://evil.example)"},
                  "result": None, "engine": ENGINE, "page": PAGES[0]})
    failing_base = model.parse_model("x", "``[b](https://evil.example)``")
    cases.append({"state": {"input": "x", "base": "``[b](https://evil.example)``"},
                  "result": failing_base, "engine": ENGINE, "page": PAGES[1]})
    return cases


@pytest.fixture(scope="module")
def rendered() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    node = shutil.which("node")
    assert node is not None, "node is needed (make test installs it)"
    assert MARKDOWN_IT.is_dir(), "markdown-it is missing: run `make differential-deps`"
    cases = _cases()
    p = subprocess.run([node, str(RENDER)], input=json.dumps(cases), capture_output=True,
                       text=True, check=False, timeout=120)
    assert p.returncode == 0, p.stderr[-2000:]
    answers = json.loads(p.stdout)
    assert len(answers) == len(cases)
    return list(zip(cases, answers, strict=True))


def _shown(value: str) -> str:
    """What a code span must hold for ``value``: controls as \\u{...} escapes, as the page
    shows invisible characters (the corpus has other invisible ones only where that is checked
    separately)."""
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\u{{{ord(m.group()):X}}}", value)


def test_only_the_permalink_and_the_spec_are_links(
        rendered: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    for case, out in rendered:
        result = case["result"] or {}
        errors = result.get("validation_errors") or []
        spec_links = [href for href in out["links"] if href.startswith(SPEC)]
        others = [href for href in out["links"] if not href.startswith(SPEC)]
        assert len(spec_links) == len(errors), (case["state"], out["links"])
        assert len(others) == 1, (case["state"], out["markdown"], out["links"])
        assert others[0].startswith(case["page"].replace("(", "%28").replace(")", "%29")), \
            others
        for href in spec_links:
            assert re.fullmatch(r"https://url\.spec\.whatwg\.org/#[a-z0-9-]+", href), href
        assert out["images"] == [], out["markdown"]


def test_no_html_element_but_the_table(
        rendered: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    for case, out in rendered:
        assert out["html_tokens"] == [], (case["state"], out["markdown"])
        tags = set(re.findall(r"</?([a-zA-Z][a-zA-Z0-9]*)", out["html"]))
        assert tags <= ALLOWED_TAGS, (case["state"], tags - ALLOWED_TAGS, out["html"])
        assert "<script" not in out["html"] and "onerror=" not in out["html"].replace(
            "onerror=alert", "")  # only inside <code>, as text
        assert out["html"].count("<table>") == 1


def test_the_table_keeps_its_shape_and_values_read_back(
        rendered: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    for case, out in rendered:
        state, result = case["state"], case["result"]
        rows = out["rows"]
        assert all(len(row) == 2 for row in rows), (state, rows)
        labels = [row[0] for row in rows]
        assert labels[:3] == ["component", "**input**", "**base**"], labels
        invisible = any(c in state["input"] for c in "\u202e\u200b\u2066\u2069")
        code = out["code"]
        if state["input"].strip(" ") and not invisible:
            assert code[0] == _shown(state["input"]), (state, out["markdown"])
        if state.get("base"):
            assert _shown(state["base"]) in code, (state, code)
        if result and result["ok"]:
            for name, value in result["getters"].items():
                assert labels.count(name) == 1, (name, labels)
                if value and not invisible:
                    assert _shown(value) in code, (name, value, code)


def test_the_permalink_opens_the_same_state(
        rendered: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    for case, out in rendered:
        state = out["permalink_state"]
        assert state is not None, out["markdown"]
        expected = {k: v.replace("\ud800", "\ufffd") for k, v in case["state"].items()}
        for key, value in expected.items():
            assert state[key] == value, (key, state[key], value)


def test_invisible_characters_are_written_as_escapes(
        rendered: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    seen = 0
    for case, out in rendered:
        if "\u202e" in case["state"]["input"]:
            assert "\u202e" not in out["markdown"] and "\\u{202E}" in out["markdown"]
            seen += 1
    assert seen
