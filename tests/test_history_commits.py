"""urlcalc/history/data/commits.json: every url.bs commit since the rename, classified.

The count always; the shape of every entry; normative entries name real algorithms; the list
equals the bundle's history when the bundle is there; and hand-checked classes for the commits
issue 27 names plus API-only and editorial ones read from their diffs.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from urlcalc.history import commits as history
from urlcalc.standard import steps as spec

ROOT = Path(__file__).resolve().parent.parent
BUNDLES = (ROOT.parent / "shared" / "spec" / "whatwg-url-history.bundle",
           Path("/work/shared/spec/whatwg-url-history.bundle"))
MAIN_HEAD = "6ae84860d12800bcf563668e7cc821360dce6062"
RENAME = "0bfe056ae759b7952e3f2409f275d5dacf970001"


def test_the_count() -> None:
    # `git log main -- url.bs` from the rename (0bfe056, 2014-10-22) to main at 6ae8486
    assert len(history.commits()) == 411
    assert history.commits()[0]["commit"] == RENAME
    assert history.commits()[-1]["commit"] == MAIN_HEAD == history.main_head()
    counts = history.counts()
    assert counts["total"] == 411
    for name in history.CLASSES:
        assert counts[name] == len(history.of_class(name)), name
    assert sum(counts[name] for name in history.CLASSES) == 411
    assert counts["normative"] == len(history.normative()) > 60
    assert counts["proposals"] == len(history.proposals())


def test_every_entry_is_classified_with_a_reason() -> None:
    shas = set()
    for c in history.commits():
        assert len(c["commit"]) == 40 and c["commit"] not in shas
        shas.add(c["commit"])
        assert c["class"] in history.CLASSES, c["commit"]
        assert c["reason"].strip() and "\n" not in c["reason"], c["commit"]
        assert c["title"].strip() and "\n" not in c["title"], c["commit"]
        if c["class"] != "normative":
            assert c["algorithms"] == [], c["commit"]


def test_normative_commits_name_known_algorithms() -> None:
    # names from url_steps.json, or from the data's other_algorithms: the writing sections,
    # origin, the special scheme table, percent-encode sets and the urlencoded parser and
    # serializer (definitions and algorithms url_steps.json does not number)
    known = set(spec.algorithms()) | set(history.other_algorithms())
    used: set[str] = set()
    for c in history.normative():
        assert c["algorithms"], c["commit"]
        assert set(c["algorithms"]) <= known, (c["commit"], set(c["algorithms"]) - known)
        used.update(c["algorithms"])
    # every name listed as outside url_steps.json is really outside it, and used
    assert not set(history.other_algorithms()) & set(spec.algorithms())
    assert set(history.other_algorithms()) <= used


def test_dates_ascend() -> None:
    for c in history.commits():
        for date in (c["date"], c["committed"]):
            assert len(date) == 10 and date[4] == date[7] == "-", c["commit"]
    # the list is in git's order: the dates the commits landed on main ascend
    committed = [c["committed"] for c in history.commits()]
    assert committed == sorted(committed)
    assert committed[0] == "2014-10-22" and committed[-1] == "2026-07-02"
    # the author dates ascend except where a pull request was authored before the commit
    # it landed after (17 times, e.g. "Stop decoding all %2e's in paths", authored 2016-10-28,
    # landed 2017-01-03)
    dates = [c["date"] for c in history.commits()]
    assert sum(1 for a, b in itertools.pairwise(dates) if b < a) == 17
    assert (history.by_sha("fbff683")["date"], history.by_sha("fbff683")["committed"]) == (
        "2016-10-28", "2017-01-03")


def test_by_sha() -> None:
    assert history.by_sha("9bc33c3")["title"] == "Add U+005E (^) to the path percent-encode set"
    assert history.by_sha("9BC33C3")["commit"].startswith("9bc33c3")
    with pytest.raises(KeyError):
        history.by_sha("ffffffff")
    with pytest.raises(ValueError):
        history.by_sha("9b")
    with pytest.raises(ValueError):
        history.by_sha("not-hex")


def test_proposals() -> None:
    proposals = history.proposals()
    assert {p["branch"] for p in proposals} == {
        "annevk/urlhost", "annevk/3986-3987-appendix", "ipv4-non-ascii-input"}
    for p in proposals:
        assert p["proposal"] is True
        assert p["class"] in history.CLASSES and p["reason"].strip()
    assert {p["commit"][:7]: p["class"] for p in proposals} == {
        "7f77861": "api", "e7677bf": "api", "b7fe603": "editorial", "92b3e16": "normative"}


def test_licence_note() -> None:
    note = history.licence()
    assert "Creative Commons Attribution 4.0" in note and "url.bs" in note


# Read by hand from `git show SHA -- url.bs`.
ISSUE_27 = {
    "fbff683": ("2016", "Stop decoding all %2e's in paths", {"path state"}),
    "3036255": ("2017", "Add opaque hosts", {"host parser", "opaque-host parser"}),
    "d589670": ("2019", "Remove gopher from list of special schemes", {"special scheme"}),
    "302ba41": ("2020", "Forbid <, >, and ^ in hosts", {"host parser", "opaque-host parser"}),
    "ab0e820": ("2021", "Reject non-IPv4 domains that end in numbers",
                {"ends in a number checker", "IPv4 parser", "host parser"}),
    "cd8f1d6": ("2024", "Set IDNA's CheckHyphens to the value of beStrict",
                {"domain parser ToASCII"}),
    "9bc33c3": ("2025", "Add U+005E (^) to the path percent-encode set",
                {"path percent-encode set"}),
    "a8d5ca3": ("2026", "Add Unicode ToASCII fallback for ASCII domains",
                {"domain parser", "domain parser ToASCII"}),
}
API_ONLY = {
    "7dcfe5b": "Define URL's toJSON()",
    "960f607": "Add URLSearchParams.prototype.sort()",
    "12b6f0c": "Add a size getter to URLSearchParams",
    "ae3c28b": "Add URL.canParse()",
    "58acb06": "Add URL.parse()",
}
EDITORIAL = {
    # the file is renamed, its text unchanged
    "0bfe056": "rename url.src.html -> url.bs",
    # "parse error" renamed "syntax violation" at the same places
    "3651453": "Rename parse error to syntax violation. Remove XXX on halting on first syntax "
               "violation. Not needed. Fixes #60.",
    # the title promises a fix, but url.bs only gains a "then" (and an acknowledgement)
    "620fa90": "Parse IPv4 number \"0x0a\" correctly",
    # markup only: the text with tags stripped is identical before and after
    "1c3e6ed": "Editorial: adopt <div algorithm> throughout",
    # a Bikeshed serializer update: markup only
    "5bd2287": "update to the latest bikeshed",
}


@pytest.mark.parametrize("sha", sorted(ISSUE_27))
def test_the_issue_27_commits_are_normative(sha: str) -> None:
    year, title, algorithms = ISSUE_27[sha]
    c = history.by_sha(sha)
    assert (c["date"][:4], c["title"], c["class"]) == (year, title, "normative")
    assert algorithms <= set(c["algorithms"]), c["algorithms"]


@pytest.mark.parametrize("sha", sorted(API_ONLY))
def test_api_only_commits(sha: str) -> None:
    c = history.by_sha(sha)
    assert (c["title"], c["class"], c["algorithms"]) == (API_ONLY[sha], "api", [])


@pytest.mark.parametrize("sha", sorted(EDITORIAL))
def test_editorial_commits(sha: str) -> None:
    c = history.by_sha(sha)
    assert (c["title"], c["class"], c["algorithms"]) == (EDITORIAL[sha], "editorial", [])


def _bundle() -> Path | None:
    return next((b for b in BUNDLES if b.is_file()), None)


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def test_the_list_is_the_bundles_history(tmp_path: Path) -> None:
    bundle = _bundle()
    if bundle is None or shutil.which("git") is None:
        pytest.skip("the URL Standard's history bundle (../shared/spec/"
                    "whatwg-url-history.bundle) or git is not here: only the count is checked")
    repo = tmp_path / "whatwg-url"
    subprocess.run(["git", "clone", "--quiet", str(bundle), str(repo)], check=True,
                   capture_output=True)
    assert _git(repo, "rev-parse", "main").strip() == history.main_head()
    out = _git(repo, "log", "--reverse", "--date=short", "--format=%H%x00%ad%x00%cd%x00%B%x00",
               "main", "--", "url.bs").split("\x00")
    expected = [(out[i].strip(), out[i + 1], out[i + 2], out[i + 3].strip().split("\n")[0])
                for i in range(0, len(out) - 1, 4)]
    assert [(c["commit"], c["date"], c["committed"], c["title"])
            for c in history.commits()] == expected
    for p in history.proposals():
        assert _git(repo, "merge-base", "main", f"origin/{p['branch']}").strip() == p["base"]
        only = _git(repo, "log", "--format=%H", f"main..origin/{p['branch']}", "--", "url.bs")
        assert p["commit"] in only.split()


def test_the_data_file_is_shipped_and_regenerable() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert '"history/data/*.json"' in pyproject
    data = json.loads((ROOT / "urlcalc" / "history" / "data" / "commits.json").read_text("utf-8"))
    assert data["source"]["generated_by"] == "spec/history/list_commits.py"
    assert (ROOT / data["source"]["generated_by"]).is_file()
