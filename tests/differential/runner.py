"""Run requests through urlcalc and through the reference (reference.mjs), and compare.

``Reference`` is the long-running node process; ``ours(request)`` is urlcalc's answer in the
same shape; ``differences(requests, theirs)`` lists the requests whose answers differ and that
``known.py`` does not explain.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from urlcalc.standard.errors import ValidationError
from urlcalc.standard.infra import to_usv
from urlcalc.standard.parser import ParseFailure, api_url_parse
from urlcalc.standard.url import URL, URLParseError

HERE = Path(__file__).resolve().parent
NODE_MODULES = HERE / "node_modules" / "whatwg-url"

Request = dict[str, Any]
Answer = dict[str, Any]


def reference_available() -> str | None:
    """None when the reference can run, else why not."""
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not NODE_MODULES.is_dir():
        return "whatwg-url is not installed: run `make differential-deps`"
    return None


class Reference:
    """whatwg-url in a node process: ``run(requests)`` sends a batch, returns the answers."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            ["node", str(HERE / "reference.mjs")], cwd=HERE, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1 << 16)

    def run(self, requests: list[Request]) -> list[Answer]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        stdin = self.proc.stdin
        failure: list[BaseException] = []

        def write() -> None:
            try:
                for req in requests:
                    # ensure_ascii: lone surrogates become \udXXX escapes, and no raw U+2028 or
                    # newline can split a line.
                    stdin.write(json.dumps(req, ensure_ascii=True) + "\n")
                stdin.flush()
            except BaseException as e:  # pragma: no cover - reported by the reader below
                failure.append(e)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        out: list[Answer] = []
        for _ in requests:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"reference.mjs ended early (exit {self.proc.poll()}); "
                                   f"{failure or ''}")
            out.append(json.loads(line))
        writer.join()
        return out

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> Reference:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _answer(url: URL) -> Answer:
    return {"ok": True, "getters": url.getters(), "searchParams": str(url.search_params)}


def ours(req: Request) -> Answer:
    """urlcalc's answer to a request, in reference.mjs's shape."""
    if req["op"] == "parse":
        base = req.get("base")
        try:
            url = URL(req["input"], base)
        except URLParseError:
            return {"ok": False}
        out = _answer(url)
        if req.get("errors"):
            out["errors"] = validation_errors(req["input"], base)
        return out
    try:
        url = URL(req["href"])
    except URLParseError:
        return {"ok": False}
    threw = False
    try:
        url.set(req["setter"], req["value"])
    except URLParseError:
        threw = True
    return {"threw": threw, **_answer(url)}


def validation_errors(input: str, base: str | None) -> list[str] | None:
    errors: list[ValidationError] = []
    result = api_url_parse(to_usv(input), to_usv(base) if base is not None else None,
                           errors=errors)
    if isinstance(result, ParseFailure) and base is not None and not errors:
        # the base itself failed (the reference answers null then)
        from urlcalc.standard.parser import basic_url_parse

        if isinstance(basic_url_parse(to_usv(base)), ParseFailure):
            return None
    return [e.name for e in errors]


@dataclass
class Outcome:
    """The result of a differential run."""

    cases: int = 0
    parse_cases: int = 0
    set_cases: int = 0
    agreed: int = 0
    known: dict[str, int] = field(default_factory=dict)
    disagreements: list[tuple[Request, Answer, Answer]] = field(default_factory=list)

    def summary(self) -> str:
        known = sum(self.known.values())
        text = (f"{self.cases} cases ({self.parse_cases} parse, {self.set_cases} setter): "
                f"{self.agreed} agree, {known} known reference divergences, "
                f"{len(self.disagreements)} disagreements")
        if self.known:
            text += "\n  known: " + ", ".join(f"{k} x{v}" for k, v in sorted(self.known.items()))
        return text


def compare(requests: Iterable[Request], theirs: Iterable[Answer]) -> Outcome:
    from differential.known import classify

    out = Outcome()
    for req, ref in zip(requests, theirs, strict=True):
        out.cases += 1
        if req["op"] == "parse":
            out.parse_cases += 1
        else:
            out.set_cases += 1
        if "error" in ref:
            out.disagreements.append((req, {"reference error": ref["error"]}, ref))
            continue
        try:
            mine = ours(req)
        except Exception as e:  # urlcalc raised: always a disagreement
            out.disagreements.append((req, {"urlcalc raised": repr(e)}, ref))
            continue
        if mine == ref:
            out.agreed += 1
            continue
        reason = classify(req, mine, ref)
        if reason is not None:
            out.known[reason] = out.known.get(reason, 0) + 1
        else:
            out.disagreements.append((req, mine, ref))
    return out


def describe(req: Request, mine: Answer, ref: Answer) -> str:
    """A readable account of one disagreement."""
    lines = [json.dumps(req, ensure_ascii=True)]
    if mine.get("ok") and ref.get("ok") and "getters" in mine and "getters" in ref:
        for k, v in mine["getters"].items():
            if ref["getters"].get(k) != v:
                lines.append(f"  {k}: urlcalc {v!r} / reference {ref['getters'].get(k)!r}")
        for k in ("searchParams", "threw", "errors"):
            if mine.get(k) != ref.get(k):
                lines.append(f"  {k}: urlcalc {mine.get(k)!r} / reference {ref.get(k)!r}")
    else:
        lines.append(f"  urlcalc:   {json.dumps(mine, ensure_ascii=True)[:400]}")
        lines.append(f"  reference: {json.dumps(ref, ensure_ascii=True)[:400]}")
    return "\n".join(lines)
