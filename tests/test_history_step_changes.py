"""urlcalc/history/data/step_changes.json: for every normative commit of url.bs since 2015, the
steps (and definitions) it changed, with their text before and after.

The data tests always run: every normative commit since 2015-01-01 has an entry, the counts add
up, and the commits issue 27 names changed the algorithm, step or definition that their diff of
url.bs changes (the expected texts were read from ``git show SHA -- url.bs`` and the two url.bs
versions, not from the script). With the history bundle, the texts are found in the two url.bs
versions themselves and the whole file is regenerated and compared.
"""

from __future__ import annotations

import html
import importlib.util
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from urlcalc.history import commits as history
from urlcalc.history import step_changes as sc

ROOT = Path(__file__).resolve().parent.parent
BUNDLES = (ROOT.parent / "shared" / "spec" / "whatwg-url-history.bundle",
           Path("/work/shared/spec/whatwg-url-history.bundle"))
BUNDLE = next((b for b in BUNDLES if b.exists()), None)
needs_bundle = pytest.mark.skipif(
    BUNDLE is None or shutil.which("git") is None,
    reason="the URL Standard's history bundle (../shared/spec/whatwg-url-history.bundle) "
           "or git is not here: a user's clone; the data tests still run")

GOPHER = "d5896704"
CARET_PATH = "9bc33c39"
DOTS = "fbff6834"
FORBID = "302ba419"
ENDS_IN_NUMBER = "ab0e820b"
OPAQUE_HOSTS = "30362553"
CHECK_HYPHENS = "cd8f1d6c"
TOASCII_FALLBACK = "a8d5ca37"


def _normative_since_2015() -> list[str]:
    return [c["commit"] for c in history.normative() if c["date"] >= "2015-01-01"]


def test_every_normative_commit_since_2015_has_an_entry() -> None:
    wanted = _normative_since_2015()
    assert sc.shas() == wanted
    assert len(wanted) == 106
    for sha in wanted:
        entry = sc.step_changes(sha)
        listed = history.by_sha(sha)
        assert (entry.commit, entry.date, entry.title) == (sha, listed["date"], listed["title"])
        assert len(entry.parent) == 40


def test_counts_and_licence() -> None:
    counts = sc.counts()
    entries = [sc.step_changes(s) for s in sc.shas()]
    assert counts["commits"] == len(entries) == 106
    assert counts["with_steps"] == sum(1 for e in entries if e.algorithms)
    assert counts["definitions_only"] == sum(1 for e in entries
                                             if not e.algorithms and e.definitions)
    assert counts["neither"] == sum(1 for e in entries if e.empty) == 0
    assert sum(counts[k] for k in ("with_steps", "definitions_only", "neither")) == 106
    assert "CC BY 4.0" in sc.licence() or "Creative Commons Attribution 4.0" in sc.licence()
    assert "WHATWG" in sc.licence()
    assert "first parent" in sc.method()


def test_entries_are_well_formed() -> None:
    for sha in sc.shas():
        entry = sc.step_changes(sha)
        for name, change in entry.algorithms.items():
            assert change.name == name
            assert change.added or change.removed or change.changed, (sha, name)
            for before, after in change.changed.values():
                assert before != after and before.strip() and after.strip()
            for after_no, before_no in change.was.items():
                assert after_no in change.changed and before_no != after_no
            assert not (change.new and change.gone)
            if change.new:
                assert not change.removed and not change.changed
        for old, new in entry.definitions.values():
            assert old != new and (old or new)


def test_prefixes() -> None:
    assert sc.step_changes(GOPHER).commit.startswith(GOPHER)
    assert sc.step_changes(GOPHER.upper()) is sc.step_changes(GOPHER)
    with pytest.raises(KeyError):
        sc.step_changes("0bfe056a")     # the rename of 2014: not normative since 2015
    with pytest.raises(ValueError):
        sc.step_changes("d58")


def test_add_caret_to_the_path_percent_encode_set() -> None:
    # The path percent-encode set is a definition, not a numbered step: it is recorded under
    # definitions; the same commit moved ^ out of the userinfo set's own range (it now comes
    # from the path set), and no step text changed.
    entry = sc.step_changes(CARET_PATH)
    assert entry.title == "Add U+005E (^) to the path percent-encode set"
    assert entry.algorithms == {}
    before, after = entry.definitions["path percent-encode set"]
    assert before == ("The path percent-encode set is the query percent-encode set and "
                      "U+003F (?), U+0060 (`), U+007B ({), and U+007D (}).")
    assert after == ("The path percent-encode set is the query percent-encode set and "
                     "U+003F (?), U+005E (^), U+0060 (`), U+007B ({), and U+007D (}).")
    before, after = entry.definitions["userinfo percent-encode set"]
    assert before is not None and after is not None
    assert "U+005B ([) to U+005E (^), inclusive" in before
    assert "U+005B ([) to U+005D (]), inclusive" in after


def test_remove_gopher_from_the_special_schemes() -> None:
    entry = sc.step_changes(GOPHER)
    assert entry.title == "Remove gopher from list of special schemes"
    before, after = entry.definitions["special scheme"]
    assert before is not None and after is not None
    # the table is read row by row: "• | scheme | port"
    assert '• | "gopher" | 70' in before and "gopher" not in after
    for row in ('• | "ftp" | 21', '• | "file" |', '• | "http" | 80', '• | "https" | 443',
                '• | "ws" | 80', '• | "wss" | 443'):
        assert row in before and row in after
    assert set(entry.definitions) == {"special scheme"}


def test_stop_decoding_all_2e_in_paths() -> None:
    entry = sc.step_changes(DOTS)
    assert entry.title == "Stop decoding all %2e's in paths"
    assert list(entry.algorithms) == ["path state"]
    path = entry.algorithms["path state"]
    # before: 2.3 decoded "%2e" to "." and 2.4 percent-encoded otherwise; after: 2.3 encodes
    assert path.removed == {"2.3": 'If c is "%" and remaining, ASCII lowercased starts with '
                                   '"2e", append "." to buffer and increase pointer by two.'}
    assert path.changed == {"2.3": (
        "Otherwise, UTF-8 percent encode c using the default encode set, and append the "
        "result to buffer.",
        "UTF-8 percent encode c using the default encode set, and append the result to "
        "buffer.")}
    assert path.was == {"2.3": "2.4"}
    assert path.added == {}
    assert entry.step("path state", "2.3")[1] == path.changed["2.3"][1]


def test_forbid_lt_gt_caret_in_hosts() -> None:
    entry = sc.step_changes(FORBID)
    assert entry.title == "Forbid <, >, and ^ in hosts"
    assert entry.algorithms == {}    # the host parsers cite the definition, unchanged
    before, after = entry.definitions["forbidden host code point"]
    assert before is not None and after is not None
    assert before.endswith("U+005B ([), U+005C (\\), or U+005D (]).")
    assert "U+003C (<), U+003E (>)" in after and after.endswith("U+005D (]), or U+005E (^).")
    assert "<" not in before and "^" not in before


def test_reject_non_ipv4_domains_that_end_in_numbers() -> None:
    entry = sc.step_changes(ENDS_IN_NUMBER)
    assert entry.title == "Reject non-IPv4 domains that end in numbers"
    host = entry.algorithms["host parser"]
    assert host.changed == {"8": ("Let ipv4Host be the result of IPv4 parsing asciiDomain.",
                                  "If asciiDomain ends in a number, then return the result of "
                                  "IPv4 parsing asciiDomain.")}
    assert host.removed == {"9": "If ipv4Host is an IPv4 address or failure, return ipv4Host."}
    checker = entry.algorithms["ends in a number checker"]
    assert checker.new and checker.removed == {} and checker.changed == {}
    assert checker.added["1"] == ("Let parts be the result of strictly splitting input on "
                                  "U+002E (.).")
    assert checker.added["6"] == "Return false."
    assert list(checker.added) == ["intro", "1", "2", "2.1", "2.2", "3", "4", "5", "6"]
    ipv4 = entry.algorithms["IPv4 parser"]
    assert ipv4.changed["4"] == ("If parts's size is greater than 4, then return input.",
                                 "If parts's size is greater than 4, validation error, "
                                 "return failure.")
    assert entry.algorithms["IPv4 number parser"].added == {
        "1": "If input is the empty string, then return failure."}


def test_add_opaque_hosts() -> None:
    entry = sc.step_changes(OPAQUE_HOSTS)
    # The commit added the URL-host parser (opaque hosts for non-special URLs); the
    # opaque-host parser commits.json names came later (cdbcce62): recorded as unextractable.
    urlhost = entry.algorithms["URL-host parser"]
    assert urlhost.new and urlhost.added
    assert entry.step("host serializer", "3") == (
        "Otherwise, host is a domain, return host.",
        "Otherwise, host is a domain or opaque host, return host.")
    assert "forbidden host code point" in entry.definitions
    assert [u.name for u in entry.unextractable] == ["opaque-host parser"]


def test_idna_check_hyphens_and_the_toascii_fallback() -> None:
    entry = sc.step_changes(CHECK_HYPHENS)
    before, after = entry.step("domain parser", "1")
    assert before is not None and after is not None
    assert "CheckHyphens set to false" in before and "CheckHyphens set to beStrict" in after
    before, after = entry.step("domain to Unicode", "1")
    assert before is not None and "CheckHyphens set to false" in before
    assert after is not None and "CheckHyphens set to beStrict" in after
    fallback = sc.step_changes(TOASCII_FALLBACK).algorithms["domain parser"]
    assert fallback.added["3"] == "If domain is an ASCII string:"
    assert fallback.added["3.2"] == "Set result to domain, lowercased."
    assert fallback.removed["3"] == "If beStrict is false:"


def test_renamed_states_of_2015() -> None:
    # b266a43f "Support relative URLs for unknown schemes" renamed the states: same steps,
    # new names (one exactly the same steps)
    entry = sc.step_changes("b266a43f")
    renames = {r.old: r for r in entry.renamed}
    assert renames["relative path state"].new == "path state"
    assert renames["authority ignore slashes state"].new == \
        "special authority ignore slashes state"
    assert renames["authority ignore slashes state"].same_steps
    assert "relative path state" not in entry.algorithms


# -- with the bundle: the texts are in the two url.bs versions, and the file regenerates ----

def _script() -> Any:
    loader = importlib.util.spec_from_file_location(
        "step_changes_script", ROOT / "spec" / "history" / "step_changes.py")
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    assert BUNDLE is not None
    path = tmp_path_factory.mktemp("history") / "whatwg-url"
    subprocess.run(["git", "clone", "--quiet", str(BUNDLE), str(path)], check=True,
                   capture_output=True)
    yield path


def _visible(repo: Path, rev: str) -> str:
    """url.bs at rev with tags and comments stripped and whitespace collapsed."""
    text = subprocess.run(["git", "-C", str(repo), "show", f"{rev}:url.bs"], check=True,
                          capture_output=True, text=True).stdout
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", "", text))
    return re.sub(r"\s+", " ", text)


@needs_bundle
@pytest.mark.parametrize("prefix", [CARET_PATH, GOPHER, DOTS, FORBID, ENDS_IN_NUMBER,
                                    OPAQUE_HOSTS, CHECK_HYPHENS, TOASCII_FALLBACK])
def test_named_texts_are_in_the_two_versions(repo: Path, prefix: str) -> None:
    entry = sc.step_changes(prefix)
    before_src, after_src = _visible(repo, entry.parent), _visible(repo, entry.commit)
    texts: list[tuple[str | None, str | None]] = []
    for change in entry.algorithms.values():
        texts += [(b, a) for b, a in change.changed.values()]
        texts += [(t, None) for t in change.removed.values()]
        texts += [(None, t) for t in change.added.values()]
    for name, (b, a) in entry.definitions.items():
        if name not in ("special scheme", "URL writing", "host writing"):  # tables, sections
            texts.append((b, a))
    for before, after in texts:
        for text, source, rev in ((before, before_src, "parent"), (after, after_src, "commit")):
            if text is None or "•" in text or "^(" in text:   # lists and superscripts
                continue
            # the extraction drops notes, so compare the sentences one by one
            for sentence in re.split(r"(?<=[.:])\s+", text):
                assert sentence in source, (prefix, rev, sentence)


@needs_bundle
def test_the_file_regenerates_from_the_bundle(repo: Path) -> None:
    script = _script()
    shipped = (ROOT / "urlcalc" / "history" / "data" / "step_changes.json").read_text("utf-8")
    assert script.render(script.build(repo)) == shipped, \
        "run `python spec/history/step_changes.py` and commit the data"


def test_tolerant_extraction_reads_today_as_extract_steps_does() -> None:
    # On today's url.bs the tolerant reading gives url_steps.json's steps and intros (the
    # four algorithms without numbered steps read as one pseudo-step "¶" holding the intro).
    script = _script()
    source = (ROOT / "spec" / "url.bs").read_text(encoding="utf-8")
    strict = script.ex.extract(source)["algorithms"]
    tolerant, problems = script.extract_tolerant(source)
    assert problems == {}
    for name, algorithm in strict.items():
        if algorithm["steps"]:
            expected = dict(algorithm["steps"])
            if algorithm["intro"]:
                expected = {"intro": algorithm["intro"], **expected}
        else:
            expected = {"¶": algorithm["intro"]}
        assert tolerant[name] == expected, name
