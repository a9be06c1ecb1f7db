"""`make interop`: the web-platform-tests URL data through every implementation of the
Implementations view, and the passing cases per file.

    .venv/bin/python -m benchmarks.interop [--no-browser]

Implementations: urlcalc (the URL Standard), whatwg-url and Node's URL (the node helper),
ada-url, urllib.parse, rfc3986, yarl (urlcalc.implementations, each read exactly as the view
reads it: the same adapters and getter mappings) and Debian's Chromium (`new URL()` through
Playwright). Writes docs/interop.md and urlcalc/implementations/scores.py (what the view and the
API show beside each implementation), and prints the table.

How a case passes (the same rules for every implementation):
- urltestdata.json, urltestdata-javascript-only.json: a case expecting failure passes when the
  implementation rejects the input; otherwise every getter the case gives must be equal, except
  those the implementation has no notion of (urllib has no origin), which are not compared.
- setters_tests.json: the getters the case expects after the setter (implementations with the
  URL API's setters: urlcalc, whatwg-url, Node, ada-url, Chromium).
- toascii.json, IdnaTestV2.json: `https://{input}/x` through the URL parser: its host must be
  the case's output, or the parse must fail when the output is null (WPT also runs the host and
  hostname setters; those are left out here so every implementation is measured the same way).
  IdnaTestV2's empty input is not run (WPT skips it too).
- urlencoded-parser-data.json: the name-value pairs of each implementation's form parser
  (URLSearchParams; urllib's parse_qsl with keep_blank_values; yarl's query; ada's
  URLSearchParams); rfc3986 has none.
- percent-encoding.json is not run: it needs a document encoding, which only urlcalc (and a
  browser, through a document) exposes.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from urlcalc import URL, URLParseError
from urlcalc.implementations import IMPLEMENTATIONS
from urlcalc.implementations.base import Implementation, Reading
from urlcalc.implementations.node_adapter import helper
from urlcalc.model.runtime import engine_info
from urlcalc.standard.url import GETTERS
from urlcalc.standard.urlencoded import parse_urlencoded_string

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "wpt"
DOC = REPO / "docs" / "interop.md"
SCORES_PY = REPO / "urlcalc" / "implementations" / "scores.py"

FILES = ("urltestdata.json", "urltestdata-javascript-only.json", "setters_tests.json",
         "toascii.json", "IdnaTestV2.json", "urlencoded-parser-data.json")

Answer = dict[str, Any]  # {"ok", "getters"} | {"ok": False}


def _load(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _cases(name: str) -> list[dict[str, Any]]:
    return [c for c in _load(name) if not isinstance(c, str)]


# --- the implementations, each as three batch functions ------------------------------------------


class Runner:
    """parse / set / form over batches; set or form None: the implementation has no such API."""

    def __init__(self, id: str, name: str, version: str,
                 parse: Callable[[list[tuple[str, str | None]]], list[Answer]],
                 set: Callable[[list[tuple[str, str, str]]], list[Answer]] | None = None,
                 form: Callable[[list[str]], list[list[list[str]]]] | None = None) -> None:
        self.id, self.name, self.version = id, name, version
        self.parse, self.set, self.form = parse, set, form


def _reading_answer(reading: Reading) -> Answer:
    if not reading.ok:
        return {"ok": False}
    getters = {g: v for g, v in reading.getters.items() if g not in reading.getter_errors}
    return {"ok": True, "getters": getters, "relative": reading.relative}


def _urlcalc_runner() -> Runner:
    def parse(batch: list[tuple[str, str | None]]) -> list[Answer]:
        out: list[Answer] = []
        for input, base in batch:
            try:
                out.append({"ok": True, "getters": URL(input, base).getters()})
            except URLParseError:
                out.append({"ok": False})
        return out

    def set_(batch: list[tuple[str, str, str]]) -> list[Answer]:
        out: list[Answer] = []
        for href, setter, value in batch:
            url = URL(href)
            with contextlib.suppress(URLParseError):  # the href setter throws
                url.set(setter, value)
            out.append({"ok": True, "getters": url.getters()})
        return out

    def form(batch: list[str]) -> list[list[list[str]]]:
        return [[list(p) for p in parse_urlencoded_string(s)] for s in batch]

    return Runner("urlcalc", "urlcalc (the URL Standard)", engine_info()["urlcalc"], parse,
                  set_, form)


def _pairs(parse: Callable[[str], Any], s: str) -> list[list[str]]:
    """A form parser's pairs; a library that raises (ada-url on some bytes) fails the case."""
    try:
        return [list(p) for p in parse(s)]
    except Exception as e:
        return [["<raised>", repr(e)]]


def _python_runner(impl: Implementation) -> Runner:
    def parse(batch: list[tuple[str, str | None]]) -> list[Answer]:
        out = []
        for input, base in batch:
            try:
                out.append(_reading_answer(impl.read(input, base)))
            except Exception:  # a library bug fails the case
                out.append({"ok": False})
        return out

    set_ = form = None
    if impl.id == "ada":
        import ada_url

        def set_(batch: list[tuple[str, str, str]]) -> list[Answer]:
            out: list[Answer] = []
            for href, setter, value in batch:
                url = ada_url.URL(href)
                with contextlib.suppress(ValueError, TypeError):
                    setattr(url, setter, value)
                try:
                    out.append({"ok": True,
                                "getters": {g: str(getattr(url, g)) for g in GETTERS}})
                except Exception:  # a library bug fails the case
                    out.append({"ok": False})
            return out

        def form(batch: list[str]) -> list[list[list[str]]]:
            return [_pairs(lambda s: ada_url.URLSearchParams(s).items(), s) for s in batch]
    elif impl.id == "urllib":
        from urllib.parse import parse_qsl

        def form(batch: list[str]) -> list[list[list[str]]]:
            return [_pairs(lambda s: parse_qsl(s, keep_blank_values=True), s) for s in batch]
    elif impl.id == "yarl":
        import yarl

        def form(batch: list[str]) -> list[list[list[str]]]:
            return [_pairs(lambda s: yarl.URL.build(query_string=s).query.items(), s)
                    for s in batch]
    return Runner(impl.id, impl.name, impl.version() or "?", parse, set_, form)


def _node_runner(impl: Implementation) -> Runner:
    name = impl.id
    h = helper()

    def parse(batch: list[tuple[str, str | None]]) -> list[Answer]:
        return [h.ask({"op": "parse", "input": i, "base": b})[name] for i, b in batch]

    def set_(batch: list[tuple[str, str, str]]) -> list[Answer]:
        return [h.ask({"op": "set", "href": href, "setter": s, "value": v})[name]
                for href, s, v in batch]

    def form(batch: list[str]) -> list[list[list[str]]]:
        return [h.ask({"op": "form", "input": s})[name]["pairs"] for s in batch]

    return Runner(impl.id, impl.name, impl.version() or "?", parse, set_, form)


_BROWSER_JS = """([op, batch]) => {
  const G = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port",
    "pathname", "search", "hash"];
  const getters = (u) => Object.fromEntries(G.map((g) => [g, u[g]]));
  return batch.map((r) => {
    if (op === "form") return [...new URLSearchParams(r[0])];
    if (op === "set") {
      const u = new URL(r[0]);
      try { u[r[1]] = r[2]; } catch {}
      return { ok: true, getters: getters(u) };
    }
    try {
      return { ok: true, getters: getters(r[1] === null ? new URL(r[0]) : new URL(r[0], r[1])) };
    } catch { return { ok: false }; }
  });
}"""


def _browser_runner(page: Any, version: str) -> Runner:
    def run(op: str, batch: list[Any]) -> list[Any]:
        return list(page.evaluate(_BROWSER_JS, [op, [list(x) if isinstance(x, tuple) else [x]
                                                     for x in batch]]))

    return Runner("chromium", "Chromium (new URL)", version,
                  lambda b: run("parse", b), lambda b: run("set", b), lambda b: run("form", b))


# --- the files -----------------------------------------------------------------------------------


def _getters_match(expected: dict[str, Any], answer: Answer, keys: tuple[str, ...]) -> bool:
    if not answer.get("ok"):
        return False
    got = answer["getters"]
    return all(got.get(k) is None or got[k] == expected[k] for k in keys if k in expected)


def score_urltestdata(r: Runner, name: str) -> tuple[int, int]:
    cases = _cases(name)
    answers = r.parse([(c["input"], c.get("base")) for c in cases])
    passed = 0
    for case, answer in zip(cases, answers, strict=True):
        if case.get("failure"):
            passed += not answer.get("ok")
        else:
            passed += _getters_match(case, answer, tuple(GETTERS))
    return passed, len(cases)


def score_setters(r: Runner) -> tuple[int, int] | None:
    if r.set is None:
        return None
    batch, expected = [], []
    for setter, cases in _load("setters_tests.json").items():
        if setter == "comment":
            continue
        for case in cases:
            batch.append((case["href"], setter, case["new_value"]))
            expected.append(case["expected"])
    answers = r.set(batch)
    passed = sum(_getters_match(e, a, tuple(GETTERS)) for e, a in zip(expected, answers,
                                                                    strict=True))
    return passed, len(batch)


def score_hosts(r: Runner, name: str) -> tuple[int, int]:
    cases = [c for c in _cases(name) if c["input"] != ""]
    answers = r.parse([(f"https://{c['input']}/x", None) for c in cases])
    passed = 0
    for case, answer in zip(cases, answers, strict=True):
        if case["output"] is None:
            passed += not answer.get("ok")
        else:
            passed += bool(answer.get("ok")) and answer["getters"].get("host") == case["output"]
    return passed, len(cases)


def score_form(r: Runner) -> tuple[int, int] | None:
    if r.form is None:
        return None
    cases = _cases("urlencoded-parser-data.json")
    answers = r.form([c["input"] for c in cases])
    passed = sum([list(p) for p in a] == c["output"] for c, a in zip(cases, answers,
                                                                     strict=True))
    return passed, len(cases)


def score(r: Runner) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int] | None] = {
        "urltestdata.json": score_urltestdata(r, "urltestdata.json"),
        "urltestdata-javascript-only.json": score_urltestdata(
            r, "urltestdata-javascript-only.json"),
        "setters_tests.json": score_setters(r),
        "toascii.json": score_hosts(r, "toascii.json"),
        "IdnaTestV2.json": score_hosts(r, "IdnaTestV2.json"),
        "urlencoded-parser-data.json": score_form(r),
    }
    return {k: v for k, v in out.items() if v is not None}


# --- output --------------------------------------------------------------------------------------


def markdown_table(files: tuple[str, ...], scores: dict[str, dict[str, Any]]) -> str:
    """The table docs/interop.md and docs/implementations.md show (and
    tests/test_implementations.py checks against urlcalc.implementations.scores)."""
    lines = ["| implementation | " + " | ".join(f"`{f}`" for f in files) + " |",
             "|---|" + "---:|" * len(files)]
    for row in scores.values():
        cells = []
        for f in files:
            s = row["scores"].get(f)
            cells.append(f"{s[0]} / {s[1]}" if s else "—")
        lines.append(f"| {row['name']} {row['version']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _chunks(text: str, width: int = 80) -> list[str]:
    import textwrap

    lines = textwrap.wrap(text, width, drop_whitespace=False)
    return lines or [""]


def _write_scores(files: tuple[str, ...], measured: str,
                  scores: dict[str, dict[str, Any]]) -> None:
    body = json.dumps(scores, indent=4, ensure_ascii=False)
    SCORES_PY.write_text(
        '"""WPT scores per implementation: passing cases per file. Written by `make interop`\n'
        '(benchmarks/interop.py), together with docs/interop.md; do not edit by hand."""\n\n'
        "from __future__ import annotations\n\nfrom typing import Any\n\n"
        "FILES: tuple[str, ...] = (\n" + "".join(f"    {f!r},\n" for f in files) + ")\n"
        "MEASURED = (\n" + "".join(f"    {line!r}\n" for line in _chunks(measured)) + ")\n"
        f"SCORES: dict[str, dict[str, Any]] = {body}\n", encoding="utf-8")


def _write_doc(files: tuple[str, ...], measured: str, scores: dict[str, dict[str, Any]]) -> None:
    rules = __doc__.split("How a case passes", 1)[1].split("\n", 1)[1].strip()
    DOC.write_text(
        "# WPT URL data through each implementation\n\n"
        "Written by `make interop` (`benchmarks/interop.py`); the Implementations view and "
        "`/api/implementations` show the same scores beside each implementation.\n\n"
        f"{markdown_table(files, scores)}\n\n{measured}\n\n"
        "## How a case passes\n\n"
        f"{rules}\n\n"
        "urlcalc is the URL Standard as this project implements it (its own conformance run, "
        "with the setters and the percent-encoding data, is in docs/testing.md's Conformance "
        "section). whatwg-url's failures are the reference implementation's divergences from "
        "the url.bs urlcalc implements (tests/differential/known.py lists them); Node's URL and "
        "ada-url are Ada, whose differences are those of its version. urllib.parse, rfc3986 and "
        "yarl do not implement the URL Standard: their scores say how far a Python program "
        "using them is from what browsers do, not how well they do their own job.\n",
        encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-browser", action="store_true", help="leave Chromium out")
    args = ap.parse_args(argv)
    runners = [_urlcalc_runner()]
    for impl in IMPLEMENTATIONS:
        reason = impl.unavailable()
        if reason is not None:
            print(f"{impl.name}: not available ({reason}): left out", file=sys.stderr)
            continue
        runners.append(_node_runner(impl) if impl.runtime_kind == "node"
                       else _python_runner(impl))
    pw = browser = None
    if not args.no_browser:
        from playwright.sync_api import sync_playwright

        sys.path.insert(0, str(REPO / "tests" / "browser"))
        from liveserver import launch

        pw = sync_playwright().start()
        browser = launch(pw)
        page = browser.new_page()
        runners.append(_browser_runner(page, browser.version))
    scores: dict[str, dict[str, Any]] = {}
    try:
        for r in runners:
            scores[r.id] = {"name": r.name, "version": r.version, "scores": score(r)}
            print(f"{r.name} {r.version}: done", file=sys.stderr)
    finally:
        if browser is not None:
            browser.close()
        if pw is not None:
            pw.stop()
    info = engine_info()
    hello = helper().hello or {}
    measured = (f"Measured {datetime.date.today().isoformat()} on CPython {info['python']}, "
                f"node {hello.get('node', '?')}"
                + (f", Debian Chromium {browser.version}" if browser is not None else "") + ".")
    _write_scores(FILES, measured, scores)
    _write_doc(FILES, measured, scores)
    print(markdown_table(FILES, scores))
    print(measured)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
