"""Is this in WPT? The web-platform-tests URL data beside an input: the entries of
``urltestdata.json``, ``setters_tests.json``, ``toascii.json`` and ``IdnaTestV2.json`` that test
this very case, or else the nearest ones, each with why it is near.

The data is ``urlcalc/data/wpt_cases.json``, written from ``tests/data/wpt`` (the copy the
conformance tests run; urlcalc/data/wpt_revision.json names it) by ``python -m urlcalc.site.wpt``:
each entry's input, base and expectation as WPT gives them, and what urlcalc's parser makes of
it (the host kind, the step that returned failure, the validation errors' names: urlcalc passes
every one of these entries, so that is what the standard makes of it). tests/test_wpt_lookup.py
fails when the committed file is not what the command writes now.

The index is built once, on the first lookup, from the file (about 4,000 entries: bounded); the
text is kept compressed until then (the Pyodide boot snapshot holds the compressed text only:
urlcalc.answers.warmup). A lookup parses the input once and reads a few dictionaries; its
answer holds at most ``MAX_EXACT`` exact entries, ``MAX_NEAREST`` near ones of urltestdata.json,
``MAX_SETTERS`` setter entries and ``MAX_IDNA`` IDNA entries.

Entry numbers (``index``) are positions in the file's top-level array (``data[index]`` in
JavaScript or Python; comment strings count), and in setters_tests.json the position in the
setter's own list (``data[setter][index]``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import sys
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypedDict

from urlcalc.model.results import parse_model
from urlcalc.model.shapes import Header, header

__all__ = ["MAX_EXACT", "MAX_IDNA", "MAX_NEAREST", "MAX_SETTERS", "WPT_FILES", "WptAnswer",
           "WptEntry", "build_cases", "normalize", "wpt_model"]

#: The WPT files looked in (the others test encodings, forms and lone surrogates).
WPT_FILES = ("urltestdata.json", "setters_tests.json", "toascii.json", "IdnaTestV2.json")
#: The most entries of each list of an answer.
MAX_EXACT = 8
MAX_NEAREST = 6
MAX_SETTERS = 24
MAX_IDNA = 6

COMMAND = "python -m urlcalc.site.wpt"
#: The data file (package data) and the WPT copy it is written from (in a checkout).
DATA = "data/wpt_cases.json"
SOURCE = Path(__file__).resolve().parents[2] / "tests" / "data" / "wpt"

Match = Literal["exact", "variant", "near"]


class WptEntry(TypedDict):
    """One entry of a WPT file, and why it is this case or near it."""

    file: str
    #: its position: in the file's top-level array, or in the setter's list (setters_tests.json)
    index: int
    #: the setter (setters_tests.json), else null
    setter: str | None
    #: the entry's input (urltestdata.json, the IDNA files) or href (setters_tests.json)
    input: str
    base: str | None
    #: the setter's new value (setters_tests.json), else null
    new_value: str | None
    #: what WPT expects: the href (urltestdata.json), the getters after the setter as
    #: "getter: value" lines (setters_tests.json), the ASCII host (the IDNA files); null: failure
    expected: str | None
    match: Match
    #: why it is this case or near it, in words, most telling first
    why: list[str]


class WptAnswer(Header):
    """The WPT entries that test this input (and base), or the nearest ones."""

    #: "exact": urltestdata.json has this input with this base; "variant": only modulo ASCII
    #: case and percent-encoding; "none": neither
    verdict: Literal["exact", "variant", "none"]
    #: the entries with this input and base, then those equal modulo case and percent-encoding
    exact: list[WptEntry]
    #: the nearest other entries of urltestdata.json (same failure step, host kind, validation
    #: errors, input with another base, scheme), nearest first
    nearest: list[WptEntry]
    #: setters_tests.json's entries that start from this URL's href (exact) or from an href equal
    #: to it modulo case and percent-encoding (variant)
    setters: list[WptEntry]
    #: toascii.json's and IdnaTestV2.json's entries for this input's host, as typed (exact) or
    #: modulo case and percent-encoding (variant), then near ones (the same ASCII host, the same
    #: failure step)
    idna: list[WptEntry]
    #: the entries looked in, per file
    entries: dict[str, int]


# --- normalising ---------------------------------------------------------------------------------

_PERCENT_ASCII = re.compile(r"%([0-7][0-9A-Fa-f])")
_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def normalize(text: str | None) -> str | None:
    """``text`` modulo percent-encoding of ASCII and ASCII case: every %XX of an ASCII byte
    decoded, then ASCII upper case lowered (null stays null)."""
    if text is None:
        return None
    return _PERCENT_ASCII.sub(lambda m: chr(int(m.group(1), 16)), text).translate(_ASCII_LOWER)


def _step(answer: Any) -> str | None:
    """The standard's failure cause of a parse answer: "algorithm, step N" (null: it parses)."""
    f = answer["failure"]
    if f is None:
        return None
    cause = f.get("cause")
    if not cause:
        return str(f["reason"])
    return f"{cause['algorithm']}, step {cause['step']}" if cause.get("step") \
        else str(cause["algorithm"])


def _host_kind(answer: Any) -> str | None:
    record = answer["record"]
    if record is None:
        return None
    host = record["host"]
    return None if host is None else str(host["kind"])


def _errors(answer: Any) -> list[str]:
    return sorted({e["name"] for e in answer["validation_errors"] or ()})


_HOST_END = re.compile(r"[/\\?#]")


def _typed_host(input: str, answer: Any) -> str | None:
    """The input's host as typed (its host span, up to a delimiter), or null."""
    for span in answer["spans"] or ():
        if span["component"] == "host":
            text = input[span["start"]:span["end"]]
            return _HOST_END.split(text, 1)[0] or None
    return None


# --- the data file -------------------------------------------------------------------------------

def _idna_step(host: str) -> str | None:
    return _step(parse_model(f"https://{host}/x"))


def build_cases(source: Path = SOURCE) -> dict[str, Any]:
    """The data file's content, from the WPT copy at ``source``."""
    sha = {name: hashlib.sha256((source / name).read_bytes()).hexdigest() for name in WPT_FILES}
    urltestdata: list[list[Any]] = []
    for i, e in enumerate(json.loads((source / "urltestdata.json").read_text("utf-8"))):
        if isinstance(e, str):
            continue
        a = parse_model(e["input"], e.get("base"))
        urltestdata.append([i, e["input"], e.get("base"), None if e.get("failure") else e["href"],
                            _host_kind(a), _step(a), _errors(a)])
    setters: list[list[Any]] = []
    for setter, cases in json.loads((source / "setters_tests.json").read_text("utf-8")).items():
        if setter == "comment":
            continue
        for i, e in enumerate(cases):
            expected = "\n".join(f"{k}: {v}" for k, v in e["expected"].items())
            setters.append([setter, i, e["href"], e["new_value"], expected])
    idna: list[list[Any]] = []
    for name in ("toascii.json", "IdnaTestV2.json"):
        for i, e in enumerate(json.loads((source / name).read_text("utf-8"))):
            if isinstance(e, str):
                continue
            output = e.get("output")
            idna.append([name, i, e["input"], output, None if output is not None
                         else _idna_step(e["input"])])
    return {
        "what": "The WPT URL entries urlcalc's 'wpt' request looks in, with what urlcalc's "
                f"parser makes of each (written by {COMMAND} from tests/data/wpt)",
        "licence": "BSD 3-Clause (web-platform-tests)",
        "sha256": sha,
        "urltestdata": urltestdata,
        "setters": setters,
        "idna": idna,
    }


def render(cases: dict[str, Any]) -> str:
    return json.dumps(cases, separators=(",", ":")) + "\n"


# --- the index -----------------------------------------------------------------------------------

@functools.cache
def _packed() -> bytes:
    """The data file's text, compressed (what the boot snapshot keeps)."""
    return zlib.compress(resources.files("urlcalc").joinpath(DATA).read_bytes(), 9)


@dataclass(frozen=True)
class _Url:
    index: int
    input: str
    base: str | None
    href: str | None
    host_kind: str | None
    step: str | None
    errors: tuple[str, ...]
    key: tuple[str | None, str | None]
    scheme: str


@dataclass(frozen=True)
class _Index:
    urls: tuple[_Url, ...]
    by_input: dict[str, list[_Url]]
    by_key: dict[tuple[str | None, str | None], list[_Url]]
    by_step: dict[str, list[_Url]]
    by_host_kind: dict[str | None, list[_Url]]
    setters_by_href: dict[str, list[list[Any]]]
    setters_by_key: dict[str | None, list[list[Any]]]
    idna_by_input: dict[str, list[list[Any]]]
    idna_by_key: dict[str | None, list[list[Any]]]
    idna_by_output: dict[str, list[list[Any]]]
    idna_by_step: dict[str, list[list[Any]]]
    counts: dict[str, int]


def _group(items: Iterable[Any], key: Any) -> dict[Any, list[Any]]:
    out: dict[Any, list[Any]] = {}
    for item in items:
        out.setdefault(key(item), []).append(item)
    return out


_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.\-]*):")


def _scheme(text: str) -> str:
    m = _SCHEME.match(text)
    return m.group(1).lower() if m else ""


@functools.cache
def _index() -> _Index:
    data = json.loads(zlib.decompress(_packed()))
    urls = tuple(_Url(i, inp, base, href, kind, step, tuple(errors),
                      (normalize(inp), normalize(base)), _scheme(inp))
                 for i, inp, base, href, kind, step, errors in data["urltestdata"])
    setters = data["setters"]
    idna = data["idna"]
    files = [row[0] for row in idna]
    return _Index(
        urls=urls,
        by_input=_group(urls, lambda u: u.input),
        by_key=_group(urls, lambda u: u.key),
        by_step=_group((u for u in urls if u.step), lambda u: u.step),
        by_host_kind=_group((u for u in urls if u.href is not None), lambda u: u.host_kind),
        setters_by_href=_group(setters, lambda s: s[2]),
        setters_by_key=_group(setters, lambda s: normalize(s[2])),
        idna_by_input=_group(idna, lambda d: d[2]),
        idna_by_key=_group(idna, lambda d: normalize(d[2])),
        idna_by_output=_group((d for d in idna if d[3] is not None), lambda d: d[3]),
        idna_by_step=_group((d for d in idna if d[4] is not None), lambda d: d[4]),
        counts={"urltestdata.json": len(urls), "setters_tests.json": len(setters),
                "toascii.json": files.count("toascii.json"),
                "IdnaTestV2.json": files.count("IdnaTestV2.json")},
    )


# --- a lookup ------------------------------------------------------------------------------------

def _quote(text: str | None) -> str:
    return "no base" if text is None else json.dumps(text, ensure_ascii=False)


def _url_entry(u: _Url, match: Match, why: list[str]) -> WptEntry:
    return {"file": "urltestdata.json", "index": u.index, "setter": None, "input": u.input,
            "base": u.base, "new_value": None, "expected": u.href, "match": match, "why": why}


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _nearest(ix: _Index, input: str, base: str | None, answer: Any,
             taken: set[int]) -> list[WptEntry]:
    """The nearest urltestdata.json entries that are not this case: each candidate scored by
    what it shares with the input, ties broken by the longer common start (modulo case and
    percent-encoding), then the closer length."""
    step = _step(answer)
    kind = _host_kind(answer)
    errors = tuple(_errors(answer))
    scheme = _scheme(input)
    candidates: dict[int, _Url] = {}
    for u in ix.by_input.get(input, ()):
        candidates[u.index] = u
    if step is not None:
        for u in ix.by_step.get(step, ()):
            candidates[u.index] = u
    else:
        for u in ix.by_host_kind.get(kind, ()):
            candidates[u.index] = u
    key = normalize(input) or ""
    scored: list[tuple[tuple[int, int, int, int], _Url, list[str]]] = []
    for u in candidates.values():
        if u.index in taken:
            continue
        why: list[str] = []
        score = 0
        if u.input == input:
            why.append(f"the same input, with {_quote(u.base)} as its base")
            score += 20
        if step is not None and u.step == step:
            why.append(f"the same failure: {step}")
            score += 10
        if u.href is not None and step is None and u.host_kind == kind:
            why.append(f"the same host kind: {kind or 'no host'}")
            score += 2
        if errors and u.errors == errors:
            why.append("the same validation errors: " + ", ".join(errors))
            score += 4
        elif not errors and not u.errors:
            why.append("no validation errors either")
        if scheme and u.scheme == scheme:
            why.append(f"the same scheme: {scheme}")
            score += 1
        u_key = u.key[0] or ""
        scored.append(((-score, -_common_prefix(key, u_key), abs(len(u_key) - len(key)),
                        u.index), u, why))
    scored.sort(key=lambda t: t[0])
    return [_url_entry(u, "near", why) for _, u, why in scored[:MAX_NEAREST]]


def _setter_entry(s: list[Any], match: Match, why: str) -> WptEntry:
    setter, index, href, new_value, expected = s
    return {"file": "setters_tests.json", "index": index, "setter": setter, "input": href,
            "base": None, "new_value": new_value, "expected": expected, "match": match,
            "why": [why]}


def _idna_entry(d: list[Any], match: Match, why: list[str]) -> WptEntry:
    name, index, inp, output, _ = d
    return {"file": name, "index": index, "setter": None, "input": inp, "base": None,
            "new_value": None, "expected": output, "match": match, "why": why}


def _idna(ix: _Index, input: str, answer: Any) -> list[WptEntry]:
    host = _typed_host(input, answer)
    if host is None:
        return []
    out: list[WptEntry] = []
    seen: set[tuple[str, int]] = set()

    def add(rows: Iterable[list[Any]], match: Match, why: list[str]) -> None:
        for d in rows:
            if len(out) >= MAX_IDNA:
                return
            if (d[0], d[1]) not in seen:
                seen.add((d[0], d[1]))
                out.append(_idna_entry(d, match, why))

    add(ix.idna_by_input.get(host, ()), "exact", [f"the same host, as typed: {_quote(host)}"])
    add(ix.idna_by_key.get(normalize(host), ()), "variant",
        ["the same host modulo ASCII case and percent-encoding"])
    record = answer["record"]
    ascii_host = record["host"]["serialized"] if record and record["host"] \
        and record["host"]["kind"] == "domain" else None
    if ascii_host is not None:
        add(ix.idna_by_output.get(ascii_host, ()), "near",
            [f"the same host after domain to ASCII: {ascii_host}"])
    step = _step(answer)
    if step is not None:
        add(ix.idna_by_step.get(step, ()), "near", [f"the same failure: {step}"])
    return out


def wpt_model(input: str, base: str | None = None) -> WptAnswer:
    """The WPT entries that test ``input`` (against ``base``), or the nearest ones."""
    ix = _index()
    answer = parse_model(input, base)
    exact: list[WptEntry] = []
    taken: set[int] = set()
    for u in ix.by_input.get(input, ()):
        if u.base == base and len(exact) < MAX_EXACT:
            exact.append(_url_entry(u, "exact", ["the same input and base"]))
            taken.add(u.index)
    verdict: Literal["exact", "variant", "none"] = "exact" if exact else "none"
    for u in ix.by_key.get((normalize(input), normalize(base)), ()):
        if u.index not in taken and len(exact) < MAX_EXACT:
            exact.append(_url_entry(u, "variant", [
                "the same input and base modulo ASCII case and percent-encoding"]))
            taken.add(u.index)
            if verdict == "none":
                verdict = "variant"
    setters: list[WptEntry] = []
    href = answer["getters"]["href"] if answer["getters"] else None
    if href is not None:
        for s in ix.setters_by_href.get(href, ()):
            if len(setters) < MAX_SETTERS:
                setters.append(_setter_entry(s, "exact", "starts from this href"))
        for s in ix.setters_by_key.get(normalize(href), ()):
            if s[2] != href and len(setters) < MAX_SETTERS:
                setters.append(_setter_entry(
                    s, "variant", "starts from this href modulo ASCII case and percent-encoding"))
    out: WptAnswer = {
        **header("wpt"), "verdict": verdict, "exact": exact,
        "nearest": _nearest(ix, input, base, answer, taken),
        "setters": setters, "idna": _idna(ix, input, answer), "entries": dict(ix.counts),
    }
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse  # (here: the page's boot snapshot holds what the lookup imports)

    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="say whether the data file is current, without writing it")
    args = parser.parse_args(argv)
    target = Path(__file__).resolve().parents[1] / DATA
    text = render(build_cases())
    if args.check:
        current = target.exists() and target.read_text("utf-8") == text
        print(f"{target}: {'current' if current else 'stale: run ' + COMMAND}")
        return 0 if current else 1
    target.write_text(text, "utf-8")
    print(f"wrote {target} ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
