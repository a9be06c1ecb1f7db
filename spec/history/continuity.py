"""Continuity with the seeds: the earliest variant set against the 2014 grammar edition.

    python spec/history/continuity.py [--check]

Issue 27, item 5. Every input the editions' tests use is read twice:

* by the 2014 grammar edition (``urlcalc.editions.whatwg_2014.parse``, seed 001, with its one
  erratum applied: non-relative-url step 2 read as its own example reads it), and
* by today's parser with every undoable change since 2015 undone (``undone_as_of("2015-01-01")``
  under ``urlcalc.standard.variants.undoing``): the earliest variant set.

The inputs: the URL-like string literals of ``tests/test_editions_*.py`` (a ":" in them, no
space, no newline, under 200 code points), every input and base of the WPT
``tests/data/wpt/urltestdata.json`` (read through ``tests/cases.py``), and the seed's own example
inputs (its ``class=example`` code, with the base an example names).

Failure and each getter the edition gives (href, origin and pathname are cut off in the seed) are
compared. Each difference gets one explanation, by the first predicate in ``EXPLAINERS`` that
holds for it: either a *change* (a url.bs commit, by sha, that the earliest set cannot undo:
``urlcalc/history/data/not_undoable/*.json``, or a normative commit between the seed's date and
2015-01-01, of which there is none) or a *rule* (a way the seed's grammar, or the point where
its copy is cut off, reads the input). The ``*-cut-off`` rules are checked, not assumed: the
step the seed is missing is completed with urlcalc's own step under the same variant set, and
the rule holds only when that gives the variant's value. A difference no predicate explains is
written with ``null`` and fails tests/test_history_continuity.py.

Writes ``urlcalc/history/data/continuity.json``; ``--check`` writes nothing and fails when the
file would change.
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import cases  # noqa: E402  (tests/cases.py: the WPT data, read in one place)

from urlcalc.editions import whatwg_2014  # noqa: E402
from urlcalc.editions.edition import EditionResult  # noqa: E402
from urlcalc.history.as_of import undone_as_of  # noqa: E402
from urlcalc.model.results import parse_model  # noqa: E402
from urlcalc.standard.host import HostFailure, host_parse, host_serialize  # noqa: E402
from urlcalc.standard.percent import percent_decode  # noqa: E402
from urlcalc.standard.variants import undoing  # noqa: E402

OUT = ROOT / "urlcalc" / "history" / "data" / "continuity.json"
SEED = ROOT / "tests" / "data" / "seeds" / "001_e7633538c285917c.txt"
AS_OF = "2015-01-01"
#: The seed's date, found by comparing its text with url.bs at each commit of the history
#: bundle: it holds 05cbe06 (2014-12-15, "No longer escape code points in fragments") and not
#: 760ab65 (2015-01-28, "Add definition of local scheme"). commits.json lists no normative commit
#: between 2014-12-15 and 2015-01-01, so every change the earliest set keeps and the seed lacks
#: is a not-undoable one.
SEED_DATE = "2014-12-15"
SEED_COMMIT = "05cbe06"

#: Every explanation: id -> (kind, one line). A "change" id is a commit's sha (7 digits).
EXPLANATIONS: dict[str, tuple[str, str]] = {
    "host-cut-off": (
        "rule", "the seed's text stops inside host(input), before host parsing: its host is the "
        "matched text; urlcalc's host parser (same variant set) on that text gives the "
        "variant's host, or fails where the variant fails"),
    "port-cut-off": (
        "rule", "the port production's value is cut off: its port is the matched digits; as an "
        "integer, and empty when it is the scheme's default port, it is the variant's"),
    "userinfo-cut-off": (
        "rule", "'cleanse' with the 'default encode set' is cut off: username and password are "
        "the matched text; percent-decoded, the variant's are the same"),
    "query-cut-off": (
        "rule", "the value of query is cut off: the matched text; percent-decoded, the "
        "variant's query is the same"),
    "fragment-cut-off": (
        "rule", "the value of fragment is cut off: the matched text; without U+0000, tab and "
        "newlines (ignored by the fragment state since 05cbe06, which the seed holds) it is the "
        "variant's"),
    "empty-host": (
        "rule", "the host railroad matches the empty string, and the seed is cut off before "
        "anything checks it; the parser fails on an empty host of a relative scheme"),
    "scheme-no-digits": (
        "rule", "the scheme railroad takes ASCII alpha, '+', '-' and '.' after the first "
        "letter, no digits: the input is not read with its scheme"),
    "no-base": (
        "rule", "the URL API, and so a missing base, is cut off: a relative-url row reads its "
        "scheme and host from a base of scheme 'about' where the parser fails for want of a "
        "base"),
    "non-relative-base": (
        "rule", "relative-url rows copy scheme and host from any base; the parser reads a "
        "relative reference only against a base with a relative scheme"),
    "first-at": (
        "rule", "the authority is split at the first '@' (user may not hold '@'; the host's "
        "later '@'s go back to the userinfo, step 6.1); the parser splits at the last"),
    "two-slashes": (
        "rule", "relative-url row 1 takes exactly two slashes before the authority (an empty "
        "host, the rest a path); the parser skips every slash before the host"),
    "authority-backtracks": (
        "rule", "the authority does not match (a port that is not digits, a second ':'), so "
        "backtracking reads the input as 'scheme:' + path (relative-url row 3, the base's "
        "host); the parser reads the authority and fails on it or reads it otherwise"),
    "rows-copy-host-only": (
        "rule", "relative-url rows 3 and 4 copy base.scheme and base.host only, file-url rows "
        "nothing; the relative state copies the base's port, and for an input with no path "
        "its query too"),
    "drive-letter-rows": (
        "rule", "file-url rows 1 and 2 read a letter and ':' or '|' as a drive letter needing "
        "neither a scheme nor a base ('/C|\\foo\\bar' is a file URL by itself), never keeping "
        "the base's host; the parser does so only in a file URL, and drops the base's host only "
        "when '/', '\\', '?' or '#' follows"),
    "drive-letter-host": (
        "rule", "a drive letter where the host goes ('file://c|/', '//C:/' against a file "
        "base): the host railroad takes it as the host (stopping at ':'); the file host state "
        "(2014 and since) reads it as the path's first segment"),
    "file-base-host": (
        "rule", "relative-url row 4 copies base.host for any base; against a file base, the "
        "relative slash state (2014 and since) copies no host for a path-absolute input"),
    "file-slashes": (
        "rule", "file-url row 3 takes '//' (solidus only) before the host; the parser takes "
        "'\\' as '/' there"),
    "file-host-colon": (
        "rule", "file-url row 3 has no port: its host stops at ':' and the rest is path; the "
        "file host state reads to the first '/' and fails on the ':'"),
    "09cd673": (
        "change", "09cd673 (2015-08-14, \"Attempt to address various file URL issues.\"): "
        "the earliest set reads file URLs with the file states as that commit wrote them "
        "(not undoable: not_undoable/states.json): a drive letter after a host drops the "
        "host, and 'file:' with no base skips a '?' or '#'; the 2014 text (and the seed) kept "
        "the host, and gave no base no meaning"),
}


@dataclass(frozen=True)
class Read:
    """One input read both ways, and one of its differences."""

    input: str
    base: str | None
    getter: str
    edition: EditionResult
    variant: dict[str, Any]  # the model's parse answer
    seed_value: str
    variant_value: str

    @property
    def production(self) -> str:
        return str(self.edition.components.get("production") or "")

    @property
    def seed_result(self) -> dict[str, Any]:
        result: dict[str, Any] = self.edition.components.get("result") or {}
        return result

    @property
    def base_result(self) -> dict[str, Any] | None:
        base: dict[str, Any] | None = self.edition.components.get("base")
        return base

    @property
    def stripped(self) -> str:
        return self.input.strip(whatwg_2014.ASCII_WHITESPACE)

    def failure_cause(self) -> tuple[str, str]:
        """(algorithm, the step's text) of the variant's failure."""
        failure: dict[str, Any] = self.variant.get("failure") or {}
        cause = failure.get("cause") or {}
        return str(cause.get("algorithm") or ""), str(cause.get("text") or "")


@cache
def earliest() -> tuple[str, ...]:
    """The earliest variant set: every undoable change that landed after 2015-01-01."""
    return tuple(c.variant.name for c in undone_as_of(AS_OF))


# --- completing the steps the seed is missing (under the earliest set) ---------------------

#: The algorithms a host fails in (a variant's failure cause).
HOST_ALGORITHMS = frozenset({"host parser", "domain parser", "IPv4 parser", "IPv4 number parser",
                             "IPv6 parser", "opaque-host parser"})


def _host(text: str) -> str | None:
    """urlcalc's host parser on ``text`` (a special URL's host), serialized; None on failure."""
    with undoing(earliest()):
        try:
            return host_serialize(host_parse(text))
        except HostFailure:
            return None


def _port(scheme: str, digits: str) -> str:
    if digits == "":
        return ""
    value = str(int(digits))
    return "" if whatwg_2014.RELATIVE_SCHEMES.get(scheme) == value else value


def _decoded(s: str) -> bytes:
    return percent_decode(s)


# --- the predicates ------------------------------------------------------------------------

def _authority(s: str) -> str | None:
    """What follows 'scheme://' (or '//') up to '/', '\\', '?' or '#'."""
    m = re.match(r"(?:[A-Za-z][A-Za-z0-9+\-.]*:)?[/\\]{2}([^/\\?#]*)", s)
    return m.group(1) if m else None


def host_cut_off(r: Read) -> bool:
    if r.getter == "failure":
        if r.variant_value.startswith("failure") and r.seed_result.get("host"):
            algorithm, _ = r.failure_cause()
            return algorithm in HOST_ALGORITHMS and _host(r.seed_result["host"]) is None
        return False
    if r.getter not in ("hostname", "host"):
        return False
    hostname = _host(r.edition.getters["hostname"] or "")
    if hostname is None or hostname == r.edition.getters["hostname"]:
        return False
    if r.getter == "hostname":
        return hostname == r.variant_value
    port = _port(str(r.seed_result.get("scheme")), r.edition.getters["port"] or "")
    return hostname + (":" + port if port else "") == r.variant_value


def port_cut_off(r: Read) -> bool:
    if r.getter not in ("port", "host"):
        return False
    g: dict[str, str] = r.variant["getters"] or {}
    port = _port(str(r.seed_result.get("scheme")), r.edition.getters["port"] or "")
    if r.getter == "port":
        return r.variant_value == port
    return r.edition.getters["hostname"] == g["hostname"] and \
        r.variant_value == g["hostname"] + (":" + port if port else "")


def userinfo_cut_off(r: Read) -> bool:
    return r.getter in ("username", "password") and \
        _decoded(r.seed_value) == _decoded(r.variant_value)


def query_cut_off(r: Read) -> bool:
    return r.getter == "search" and _decoded(r.seed_value) == _decoded(r.variant_value)


def fragment_cut_off(r: Read) -> bool:
    return r.getter == "hash" and \
        re.sub("[\x00\t\n\r]", "", r.seed_value) == r.variant_value


def empty_host(r: Read) -> bool:
    return r.getter == "failure" and r.seed_result.get("host") == "" and \
        "buffer is the empty string" in r.failure_cause()[1]


def scheme_no_digits(r: Read) -> bool:
    m = re.match(r"([A-Za-z][A-Za-z0-9+\-.]*):", r.stripped)
    return m is not None and re.search("[0-9]", m.group(1)) is not None \
        and r.seed_result.get("scheme") != m.group(1).lower()


def _uses_base(r: Read) -> bool:
    """The seed's production took its scheme or host from the base."""
    p = r.production
    if p in ("relative-url row3", "relative-url row4"):
        return True
    return p == "relative-url row1" and re.match(r"[/\\]", r.stripped) is not None


def no_base(r: Read) -> bool:
    return r.base is None and _uses_base(r)


def non_relative_base(r: Read) -> bool:
    base = r.base_result
    return base is not None and "schemeData" in base and _uses_base(r)


def first_at(r: Read) -> bool:
    authority = _authority(r.stripped)
    return r.getter in ("username", "password", "host", "hostname") and \
        authority is not None and authority.count("@") >= 2


def two_slashes(r: Read) -> bool:
    return r.production == "relative-url row1" and r.seed_result.get("host") == "" and \
        re.match(r"(?:[A-Za-z][A-Za-z+\-.]*:)?[/\\]{3}", r.stripped) is not None


def authority_backtracks(r: Read) -> bool:
    return r.production == "relative-url row3" and \
        re.match(r"[A-Za-z]+:[/\\]{2}", r.stripped) is not None


def rows_copy_host_only(r: Read) -> bool:
    base = r.base_result or {}
    g: dict[str, str] = r.variant["getters"] or {}
    if not (r.production in ("relative-url row3", "relative-url row4")
            or r.production.startswith("file-url")):
        return False
    if r.getter in ("port", "host"):
        return "port" in base and g["port"] == base["port"]
    return r.getter == "search" and bool(base.get("query")) and g["search"] == "?" + base["query"]


def _is_file(r: Read) -> bool:
    g: dict[str, str] = r.variant["getters"] or {}
    return r.seed_result.get("scheme") == "file" or g.get("protocol") == "file:"


def _host_dropped(r: Read) -> bool:
    g: dict[str, str] = r.variant["getters"] or {}
    return r.getter in ("host", "hostname") and g["hostname"] == "" and _is_file(r)


def drive_letter_rows(r: Read) -> bool:
    return r.production in ("file-url row1", "file-url row2") and \
        r.getter in ("host", "hostname", "failure")


def drive_letter_host(r: Read) -> bool:
    return _host_dropped(r) and re.fullmatch("[A-Za-z][:|]", _authority(r.stripped) or "") \
        is not None


def file_base_host(r: Read) -> bool:
    return _host_dropped(r) and r.base is not None and r.base.lower().startswith("file:") \
        and re.match(r"[/\\](?![/\\])", r.stripped) is not None


def file_slashes(r: Read) -> bool:
    return r.production == "file-url row3" and r.getter in ("host", "hostname") and \
        re.match(r"file:(//|[/\\]{2})", r.stripped, re.I) is not None and \
        "\\" in r.stripped[5:7]


def file_host_colon(r: Read) -> bool:
    return r.production == "file-url row3" and r.getter == "failure" and \
        ":" in (_authority(r.stripped) or "")


#: A drive letter as a path segment: "/C:/", "/c|", at the end or before '?' or '#'.
DRIVE_SEGMENT = re.compile(r"[/\\][A-Za-z][:|](?:[/\\?#]|$)")


def file_states_2015(r: Read) -> bool:
    if not _is_file(r):
        return False
    if r.base is None and re.match(r"file:[?#]", r.stripped, re.I):
        return r.getter in ("search", "hash")
    return _host_dropped(r) and r.edition.getters["hostname"] != "" and any(
        DRIVE_SEGMENT.search(s or "") for s in (r.stripped, r.base))


EXPLAINERS: tuple[tuple[str, Callable[[Read], bool]], ...] = (
    ("host-cut-off", host_cut_off),
    ("port-cut-off", port_cut_off),
    ("userinfo-cut-off", userinfo_cut_off),
    ("query-cut-off", query_cut_off),
    ("fragment-cut-off", fragment_cut_off),
    ("empty-host", empty_host),
    ("scheme-no-digits", scheme_no_digits),
    ("no-base", no_base),
    ("non-relative-base", non_relative_base),
    ("first-at", first_at),
    ("two-slashes", two_slashes),
    ("authority-backtracks", authority_backtracks),
    ("rows-copy-host-only", rows_copy_host_only),
    ("drive-letter-rows", drive_letter_rows),
    ("drive-letter-host", drive_letter_host),
    ("file-base-host", file_base_host),
    ("file-slashes", file_slashes),
    ("file-host-colon", file_host_colon),
    ("09cd673", file_states_2015),
)


def explain(r: Read) -> str | None:
    """The first explanation whose predicate holds for ``r``, or None."""
    return next((name for name, holds in EXPLAINERS if holds(r)), None)


# --- the inputs ----------------------------------------------------------------------------

def editions_literals() -> list[str]:
    """The URL-like string literals of tests/test_editions_*.py, in file order."""
    out: list[str] = []
    for path in sorted((ROOT / "tests").glob("test_editions_*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                s = node.value
                if ":" in s and len(s) < 200 and "\n" not in s and " " not in s.strip():
                    out.append(s)
    return out


def seed_examples() -> tuple[list[tuple[str, str | None]], int]:
    """The seed's example inputs (with the base an example names), and how many were left out
    because the copy replaced an address by "[email protected]"."""
    text = SEED.read_text("utf-8")
    out: list[tuple[str, str | None]] = []
    lost = 0
    for m in re.finditer(r'class="?example"?>\s*<code>(.*?)</code>(?:</div>)?'
                         r'(?:\s*parsed using a base of\s*<code>(.*?)</code>)?', text, re.S):
        input = html.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
        base = html.unescape(m.group(2)) if m.group(2) else None
        if "email" in input and "protected" in input:
            lost += 1
            continue
        out.append((input, base))
    return out, lost


def inputs() -> tuple[list[tuple[str, str | None]], dict[str, int]]:
    """Every (input, base) once, in a stable order, and how many each source gave."""
    seen: dict[tuple[str, str | None], None] = {}
    counts: dict[str, int] = {}
    literals = [(s, None) for s in editions_literals()]
    examples, lost = seed_examples()
    for name, pairs in (("tests/test_editions_*.py literals", literals),
                        ("tests/data/wpt/urltestdata.json", cases.url_inputs()),
                        ("seed 001 examples", examples)):
        distinct = dict.fromkeys(pairs)
        counts[name] = len(distinct)
        seen.update(distinct)
    counts["seed 001 examples lost in the copy"] = lost
    counts["distinct (input, base)"] = len(seen)
    return list(seen), counts


# --- the comparison ------------------------------------------------------------------------

def _failure_text(answer: dict[str, Any]) -> str:
    failure: dict[str, Any] = answer.get("failure") or {}
    cause = failure.get("cause") or {}
    where = "base" if failure.get("in") == "base" else "input"
    return f"failure ({where}: {cause.get('algorithm')}, step {cause.get('step')})"


def reads(input: str, base: str | None) -> Iterator[Read]:
    """The differences between the two readings of (input, base)."""
    edition = whatwg_2014.parse(input, base, errata=True)
    with undoing(earliest()):
        variant: dict[str, Any] = dict(parse_model(input, base))
    if not edition.ok or not variant["ok"]:
        if edition.ok != variant["ok"]:
            yield Read(input, base, "failure", edition, variant,
                       "accepted" if edition.ok else f"failure ({edition.error})",
                       "accepted" if variant["ok"] else _failure_text(variant))
        return
    getters: dict[str, str] = variant["getters"] or {}
    for getter, value in edition.getters.items():
        if value is not None and getters[getter] != value:
            yield Read(input, base, getter, edition, variant, value, getters[getter])


def differences() -> list[dict[str, Any]]:
    """Every difference, explained (``explained`` None when nothing explains it)."""
    pairs, _ = inputs()
    return [{"input": r.input, "base": r.base, "getter": r.getter, "edition": r.seed_value,
             "variant": r.variant_value, "explained": explain(r)}
            for input, base in pairs for r in reads(input, base)]


def not_undoable() -> dict[str, str]:
    out: dict[str, str] = {}
    folder = resources.files("urlcalc.history").joinpath("data/not_undoable")
    for name in ("hosts.json", "states.json", "other.json"):
        out.update(json.loads(folder.joinpath(name).read_text("utf-8")))
    return out


def document() -> str:
    _, counts = inputs()
    rows = differences()
    tally = Counter(str(row["explained"]) for row in rows)
    data = {
        "about": "Issue 27 item 5: the earliest variant set (every undoable change after "
                 f"{AS_OF} undone) against the 2014 grammar edition (seed 001, errata) on the "
                 "editions' test inputs; each difference explained by a rule or a change "
                 "(by sha). Written by python spec/history/continuity.py.",
        "seed": {"file": SEED.name, "date": SEED_DATE, "holds": SEED_COMMIT},
        "as_of": AS_OF,
        "undone": len(earliest()),
        "inputs": counts,
        "explanations": {k: {"kind": kind, "line": line, "differences": tally.get(k, 0)}
                         for k, (kind, line) in EXPLANATIONS.items()},
        "unexplained": tally.get("None", 0),
        "differences": rows,
    }
    head = json.dumps({k: v for k, v in data.items() if k != "differences"},
                      ensure_ascii=False, indent=1)
    lines = ",\n".join(json.dumps(row, ensure_ascii=False) for row in rows)
    return head[:-2] + ',\n "differences": [\n' + lines + "\n ]\n}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail when the file is stale")
    args = parser.parse_args(argv)
    text = document()
    if args.check:
        current = OUT.read_text("utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT.relative_to(ROOT)} is stale: run python spec/history/continuity.py")
            return 1
        return 0
    OUT.write_text(text, "utf-8")
    data = json.loads(text)
    print(f"wrote {OUT.relative_to(ROOT)}: {len(data['differences'])} differences, "
          f"{data['unexplained']} unexplained")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
