"""url.bs's own example tables, each under the variant set of the commits whose url.bs holds it
(issue 27: "for the versions that carry example tables, those tables pass under that date's
variant set").

tests/data/history/example_tables.json (written by ``python spec/history/example_tables.py``
from the url.bs history bundle; the rows are url.bs's, CC BY 4.0, WHATWG) holds every version of
each table and, for every normative commit since 2015, the versions its url.bs holds. A row is
run under the variant set *just after* each such commit: every undoable change that landed later
(in commits.json's order, so a change of the same day is placed right) is undone. The expected
values are the table's, never the code's.

A row that fails under some commit's set must be explained: by a change urlcalc cannot undo
(``urlcalc/history/data/not_undoable/*.json``, which stays applied under an older set: the row
fails only for commits before it), or by a slip in the table itself that a later commit of
url.bs corrected (the row fails only for commits before that correction). Such a row is an
expected failure (xfail, with the sha and the reason); a listed row that passes everywhere fails
the test (the list must shrink when a new variant makes it pass); any other failing row fails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from urlcalc.history.commits import commits
from urlcalc.model.results import parse_model
from urlcalc.standard.host import HostFailure, host_parse, host_serialize
from urlcalc.standard.parser import url_parse
from urlcalc.standard.percent import (
    ENCODE_SETS,
    percent_decode,
    percent_decode_bytes,
    percent_encode_after_encoding,
    percent_encode_byte,
    utf8_percent_encode,
)
from urlcalc.standard.record import URLRecord, host_kind, starts_with_windows_drive_letter
from urlcalc.standard.variants import VARIANTS, undoing

DATA = json.loads((Path(__file__).parent / "data" / "history" / "example_tables.json")
                  .read_text("utf-8"))
VERSIONS: dict[str, dict[str, Any]] = DATA["versions"]
ORDER = {c["commit"]: i for i, c in enumerate(commits())}


def _not_undoable() -> dict[str, str]:
    out: dict[str, str] = {}
    folder = resources.files("urlcalc.history").joinpath("data/not_undoable")
    for name in ("hosts.json", "states.json", "other.json"):
        out.update(json.loads(folder.joinpath(name).read_text("utf-8")))
    return out


NOT_UNDOABLE = _not_undoable()


def undone_after(sha: str) -> frozenset[str]:
    """The variant set just after commit ``sha``: every undoable change that landed later."""
    at = ORDER[sha]
    return frozenset(v.name for v in VARIANTS if ORDER[v.commit] > at)


#: url.bs's own slips, corrected by a later commit (the row fails only under the sets of the
#: commits before it): {sha: why}.
TABLE_FIXES: dict[str, str] = {
    "c9ff1d9": "the table gave 0x7F as the byte that "
    "percent-encodes to \"%23\" (0x23's); c9ff1d9 \"Correct percent-encode example and add one\" "
    "gave both rows",
    "dc66b3b": "the table ran ISO-2022-JP's 0x5C (\\) through the userinfo percent-encode set, "
    "which holds U+005C, yet wrote it unencoded; dc66b3b \"Document invariants of percent-encode "
    "sets better\" changed the row to the special-query percent-encode set",
    "334966e": "the table (2ce4938) wrote spaceAsPlus's spaces as \"+\" alone while the "
    "algorithm's text still went on to percent-encode the space too (\"+%20\"); 334966e "
    "\"Fix handling of spaceAsPlus in percent-encode after encoding\" made the text "
    "agree with the table",
    "b11d73b": "the table gave a file: URL's host as null; its parse gives the empty host "
    "(file host state); b11d73b \"Correct a couple minor issues\" wrote \"the empty string\"",
    "37afb50": "the table marked file://loc%61lhost/ valid, but \"valid domain\" (domain to ASCII "
    "with beStrict, UseSTD3ASCIIRules) never held \"%\"; 37afb50 \"Close gap between URL writing "
    "and parser sections\" marked it invalid and added file://localhost/ as the valid form",
    "1505976": "the table marked https://example.org// valid while a path-absolute-URL string was "
    "\"/\" and a path-relative-URL string, which cannot start with \"/\"; 1505976 \"Path "
    "segments can be empty\" made the writing section agree",
    "6d4734a": "the table's failure column said host-missing is no failure, while the parser "
    "returned failure where it is raised; 6d4734a \"host-missing validation error is fatal\" "
    "corrected the column",
}

#: Slips of url.bs standing in today's text (an example its algorithm does not give): {row: why}.
STANDING: dict[tuple[str, str], str] = {
    ("validation-errors", "file-invalid-Windows-drive-letter: /c:/path/to/file "
     "<file:///c:/>"): "the example reaches the file slash state, which raises no "
    "file-invalid-Windows-drive-letter (only the file state's relative branch does: "
    "\"c:/path\" against a file base); whatwg/url issue 612 notes the same",
}

#: Rows whose failure is explained by a sha of TABLE_FIXES or of not_undoable (a change urlcalc
#: cannot undo, which stays applied under older sets): (kind, row) -> sha. The row may fail
#: only under the sets of the commits before that sha.
EXPLAINED: dict[tuple[str, str], str] = {
    ("percent-encode", "Percent-encode input: 0x7F"): "c9ff1d9",
    ("percent-encode", "Percent-encode after encoding with ISO-2022-JP, input, and the userinfo "
     "percent-encode set: U+00A5 (¥)"): "dc66b3b",
    ("percent-encode", "Percent-encode after encoding with ISO-2022-JP, input, and the userinfo "
     "percent-encode set: \"¥\""): "dc66b3b",
    ("percent-encode", "Percent-encode after encoding with Shift_JIS, input, the userinfo "
     "percent-encode set, and true: \"1+1 ≡ 2%20‽\""): "334966e",
    ("url-components", "file:///ada/Analytical%20Engine/README.md"): "b11d73b",
    ("url-parsing", "file://loc%61lhost/"): "37afb50",
    ("url-parsing", "https://example.org//"): "1505976",
    ("validation-errors", "host-missing: https://#fragment"): "6d4734a",
    ("validation-errors", "host-missing: https://:443"): "6d4734a",
}


def _full(sha: str) -> str:
    return next(s for s in ORDER if s.startswith(sha))


def _why(sha: str) -> str:
    full = _full(sha)
    return NOT_UNDOABLE.get(full) or next(w for s, w in TABLE_FIXES.items() if full.startswith(s))


def _key(kind: str, row: dict[str, Any]) -> str:
    if kind == "percent-encode":
        return f"{row['operation']}: {row['input']}"
    if kind == "validation-errors":
        return f"{row['error']}: {row['input']}" + (f" <{row['base']}>" if row["base"] else "")
    if kind == "special-schemes":
        return str(row["scheme"])
    if kind == "url-parsing" and row["base"]:
        return f"{row['input']} <{row['base']}>"
    return str(row["input"])


# --- the checks: each returns the list of what differs from the table (empty: the row holds) ---

def _href(input: str, base: str | None = None) -> tuple[str | None, Any]:
    m = parse_model(input, base)
    return (m["getters"]["href"] if m["ok"] and m["getters"] else None), m


def check_special_schemes(row: dict[str, Any]) -> list[str]:
    s, port = row["scheme"], row["port"]
    out = []
    m = parse_model(f"{s}://example.com/a\\b")
    path = m["getters"]["pathname"] if m["getters"] else None
    if path != "/a/b":
        out.append(f"{s}: is not special (pathname of {s}://example.com/a\\b is {path!r})")
    if port is not None:
        m = parse_model(f"{s}://example.com:{port}/")
        got = m["getters"]["port"] if m["getters"] else None
        if got != "":
            out.append(f"{s}: {port} is not its default port (port getter {got!r})")
    return out


def check_port_leading_zeros(row: dict[str, Any]) -> list[str]:
    m = parse_model(f"ftp://example.com:{row['input']}/")
    got = m["getters"]["port"] if m["getters"] else None
    return [] if got == row["output"] else [f"port {got!r}, the table: {row['output']!r}"]


def check_dot_segments(row: dict[str, Any]) -> list[str]:
    want = {".": "/a/b/c", "..": "/a/c"}[row["output"]]
    m = parse_model(f"http://example.com/a/b/{row['input']}/c")
    got = m["getters"]["pathname"] if m["getters"] else None
    return [] if got == want else [f"pathname {got!r}, the table ({row['output']!r}): {want!r}"]


def check_url_parsing(row: dict[str, Any]) -> list[str]:
    href, m = _href(row["input"], row["base"])
    out = []
    if href != row["output"]:
        out.append(f"href {href!r}, the table: {row['output'] or 'failure'!r}")
    if row["valid"] is not None and m["valid"] is not None and m["valid"]["valid"] != row["valid"]:
        out.append(f"valid {m['valid']['valid']} ({m['valid']['reason']}), the table: "
                   f"{row['valid']}")
    return out


def check_url_components(row: dict[str, Any]) -> list[str]:
    rec = url_parse(row["input"])
    if not isinstance(rec, URLRecord):
        return ["failure"]
    got: dict[str, Any] = {
        "scheme": rec.scheme, "host": None if rec.host is None else host_serialize(rec.host),
        "port": rec.port, "query": rec.query, "fragment": rec.fragment,
        "path": rec.path if isinstance(rec.path, str) else list(rec.path),
    }
    want = {k: row[k] for k in got}
    if "cannot-be-a-base-URL" in row:
        # (the 2020 table: a list path with the cannot-be-a-base-URL flag set is today's opaque
        # path, a string)
        if row["cannot-be-a-base-URL"] != rec.has_opaque_path:
            return [f"opaque path {rec.has_opaque_path}, the table's flag: "
                    f"{row['cannot-be-a-base-URL']}"]
        if row["cannot-be-a-base-URL"] and len(row["path"]) == 1:
            want["path"] = row["path"][0]
    return [f"{k} {got[k]!r}, the table: {want[k]!r}" for k in got if got[k] != want[k]]


_KINDS = {"domain": "domain", "IPv4": "ipv4", "IPv6": "ipv6", "opaque host": "opaque"}


def check_host_parsing(row: dict[str, Any]) -> list[str]:
    out = []
    for column, opaque in (("special", False), ("opaque", True)):
        if column not in row:
            continue
        want = row[column]
        try:
            host = host_parse(row["input"], is_opaque=opaque)
            got: dict[str, str] | None = {"host": host_serialize(host),
                                          "kind": str(host_kind(host))}
        except HostFailure:
            got = None
        if want is not None:
            want = {"host": want["host"], "kind": _KINDS[want["kind"]]}
        if got != want:
            out.append(f"isOpaque={opaque}: {got or 'failure'}, the table: {want or 'failure'}")
    return out


def _string(cell: str) -> str:
    """A percent-encode table's input: "text" or U+XXXX (c)."""
    m = re.fullmatch(r"U\+([0-9A-F]{4,6})(?: \(.*\))?", cell)
    return chr(int(m.group(1), 16)) if m else cell[1:-1]


def _bytes_cell(cell: str) -> bytes:
    if cell.startswith("`"):
        return cell[1:-1].encode("latin-1")
    return bytes(int(b, 16) for b in cell.split())


def check_percent_encode(row: dict[str, Any]) -> list[str]:
    op, cell, want = row["operation"], row["input"], row["output"]
    got: str | bytes
    if op == "Percent-encode input":
        got, want = percent_encode_byte(int(cell, 16)), want[1:-1]
    elif op == "Percent-decode input" and cell.startswith("`"):
        got, want = percent_decode_bytes(_bytes_cell(cell)), _bytes_cell(want)
    elif op == "Percent-decode input":
        got, want = percent_decode(_string(cell)), _bytes_cell(want)
    elif m := re.fullmatch(r"Percent-encode after encoding with ([\w-]+), input,(?: and)? the "
                           r"(.+? percent-encode set)(, and true)?", op):
        got = percent_encode_after_encoding(m.group(1), _string(cell), ENCODE_SETS[m.group(2)],
                                            True if m.group(3) else None)
        want = want[1:-1]
    elif m := re.fullmatch(r"UTF-8 percent-encode input using the (.+? percent-encode set)", op):
        got, want = utf8_percent_encode(_string(cell), ENCODE_SETS[m.group(1)]), want[1:-1]
    else:
        return [f"an operation this test does not read: {op!r}"]
    return [] if got == want else [f"{got!r}, the table: {want!r}"]


def check_windows_drive_letter(row: dict[str, Any]) -> list[str]:
    got = starts_with_windows_drive_letter(row["input"])
    return [] if got == row["starts"] else [f"{got}, the table: {row['starts']}"]


def check_validation_errors(row: dict[str, Any]) -> list[str]:
    href, m = _href(row["input"], row["base"])
    names = [e["name"] for e in m["validation_errors"]]
    out = []
    if row["error"] not in names:
        out.append(f"errors {names}, the table: {row['error']}")
    if row["failure"] is not None and (href is None) != row["failure"]:
        out.append(f"{'failure' if href is None else href!r}, the table's failure column: "
                   f"{row['failure']}")
    return out


CHECKS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "special-schemes": check_special_schemes,
    "port-leading-zeros": check_port_leading_zeros,
    "dot-segments": check_dot_segments,
    "url-parsing": check_url_parsing,
    "url-components": check_url_components,
    "host-parsing": check_host_parsing,
    "percent-encode": check_percent_encode,
    "windows-drive-letter": check_windows_drive_letter,
    "validation-errors": check_validation_errors,
}


@cache
def commits_of(version: str) -> tuple[str, ...]:
    """The normative commits since 2015 whose url.bs holds this version of its table."""
    return tuple(c["commit"] for c in DATA["commits"] if version in c["tables"])


def _rows() -> Iterator[Any]:
    for name, v in VERSIONS.items():
        for i, row in enumerate(v["rows"]):
            yield pytest.param(name, i, id=f"{name}-{i}:{_key(v['kind'], row)[:60]}")


def run_row(version: str, index: int) -> dict[str, list[str]]:
    """{commit: what differs} for each commit (of those holding the version) where the row
    fails under the variant set just after it."""
    v = VERSIONS[version]
    row = v["rows"][index]
    by_set: dict[frozenset[str], list[str]] = {}
    for sha in commits_of(version):
        by_set.setdefault(undone_after(sha), []).append(sha)
    failed: dict[str, list[str]] = {}
    for names, shas in by_set.items():
        with undoing(names):
            problems = CHECKS[v["kind"]](row)
        if problems:
            for sha in shas:
                failed[sha] = problems
    return failed


SUMMARY: dict[str, int] = {"versions": len(VERSIONS), "rows": 0, "runs": 0, "passed": 0,
                           "explained": 0, "failed": 0, "differ_today": 0}


def _key_of(version: str, index: int) -> tuple[str, str]:
    v = VERSIONS[version]
    return v["kind"], _key(v["kind"], v["rows"][index])


@cache
def _failures(version: str, index: int) -> dict[str, list[str]]:
    return run_row(version, index)


@pytest.mark.parametrize(("version", "index"), list(_rows()))
def test_example_row(version: str, index: int) -> None:
    key = _key_of(version, index)
    failed = _failures(version, index)
    SUMMARY["rows"] += 1
    SUMMARY["runs"] += len(commits_of(version))
    if not failed:
        SUMMARY["passed"] += 1
        if CHECKS[VERSIONS[version]["kind"]](VERSIONS[version]["rows"][index]):
            SUMMARY["differ_today"] += 1  # holds only under its commits' variant sets
        return
    if key in STANDING:
        SUMMARY["explained"] += 1
        pytest.xfail(f"url.bs's example disagrees with its algorithm: {STANDING[key]}")
    if key not in EXPLAINED:
        SUMMARY["failed"] += 1
        groups: dict[str, list[str]] = {}
        for sha, problems in failed.items():
            groups.setdefault(", ".join(problems), []).append(sha[:7])
        detail = "; ".join(f"{p} (under {len(s)} commits' sets, {s[0]}..{s[-1]})"
                           for p, s in groups.items())
        pytest.fail(f"{version} row {key[1]!r} fails: {detail}")
    sha = _full(EXPLAINED[key])
    late = [s[:7] for s in failed if ORDER[s] >= ORDER[sha]]
    assert not late, f"{key} is explained by {sha[:7]}, but it fails after it too: {late}"
    SUMMARY["explained"] += 1
    pytest.xfail(f"{sha[:7]}: {_why(sha)} (fails under {len(failed)} commits' sets, all "
                 "before it)")


def test_every_explained_row_still_fails() -> None:
    """A listed row that holds under every set now must leave the list (a new variant may
    make it pass)."""
    keys = EXPLAINED.keys() | STANDING.keys()
    failing = {_key_of(name, i) for name, v in VERSIONS.items() for i in range(len(v["rows"]))
               if _key_of(name, i) in keys and _failures(name, i)}
    assert keys - failing == set(), "listed rows that no longer fail: remove them"


def test_explanations_name_a_change_or_a_table_fix() -> None:
    """Every explanation names a change urlcalc cannot undo or a url.bs commit of TABLE_FIXES,
    a commit of commits.json; every row it names exists."""
    keys = {(v["kind"], _key(v["kind"], r)) for v in VERSIONS.values() for r in v["rows"]}
    assert EXPLAINED.keys() | STANDING.keys() <= keys
    for sha in EXPLAINED.values():
        full = _full(sha)
        assert full in NOT_UNDOABLE or any(full.startswith(s) for s in TABLE_FIXES), sha
        assert _why(sha)
    for sha in TABLE_FIXES:
        assert sum(s.startswith(sha) for s in ORDER) == 1, sha
def test_every_normative_commit_with_a_table_is_listed() -> None:
    """Every normative commit since 2015 is in the data (each has url.bs tables), and each
    table version's rows are not empty."""
    normative = [c["commit"] for c in commits() if c["class"] == "normative"
                 and c["date"] >= "2015-01-01"]
    assert [c["commit"] for c in DATA["commits"]] == normative
    assert all(v["rows"] for v in VERSIONS.values())
    assert {v["kind"] for v in VERSIONS.values()} == set(CHECKS)


def test_some_rows_hold_only_under_their_variant_set() -> None:
    """The variant sets matter: rows of the older tables that today's standard reads otherwise
    (gopher's default port, the 2015 IPv4 and port rows, the old validation errors) hold under
    their commits' sets."""
    older = [(name, i) for name, v in VERSIONS.items() for i, row in enumerate(v["rows"])
             if not _failures(name, i) and CHECKS[v["kind"]](row)]
    names = {n.split("@")[0] for n, _ in older}
    assert {"special-schemes", "validation-errors"} <= names, older


def test_the_checks_can_fail() -> None:
    """A row with a wrong result is reported (the checks compare with the table)."""
    assert check_url_parsing({"input": "https://a/", "base": None, "valid": True,
                              "output": "https://b/"})
    assert check_host_parsing({"input": "0x", "special": None})
    assert check_validation_errors({"error": "port-invalid", "input": "https://a/",
                                    "base": None, "failure": None})
    assert check_special_schemes({"scheme": "gopher", "port": 70})
    with undoing(["gopher-not-special"]):
        assert not check_special_schemes({"scheme": "gopher", "port": 70})
