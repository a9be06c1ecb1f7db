"""The standard without one change (issue 27, item 2, first variants): each undoable change,
an input whose result differs with and without it, the results written from the text of url.bs
before and after the change (urlcalc/history/data/step_changes.json holds both), not from the
code.

- 302ba41 "Forbid <, >, and ^ in hosts" (2020): the forbidden host code point gained U+003C (<),
  U+003E (>) and U+005E (^). Before, the opaque-host parser's step 1 did not fail on them, and
  the domain parser's forbidden check neither (both read the forbidden host code points).
- cd8f1d6 "Set IDNA's CheckHyphens to the value of beStrict" (2024): before, CheckHyphens was
  false in the strict ToASCII too, so "ab--c" and "-x" raised no domain-to-ASCII error.
- 9bc33c3 "Add U+005E (^) to the path percent-encode set" (2025): before, the path state's step
  2.3 appended ^ as it is.
"""

from __future__ import annotations

import threading

import pytest
from test_cli import run

from urlcalc.history import as_of
from urlcalc.history.commits import by_sha
from urlcalc.model.results import parse_model
from urlcalc.standard import variants
from urlcalc.standard.variants import VARIANTS, any_undone, undoing


def _read(input: str) -> tuple[str, list[str]]:
    m = parse_model(input, None)
    href = m["getters"]["href"] if m["ok"] and m["getters"] else "failure"
    return href, [e["name"] for e in m["validation_errors"]]


CASES = [
    # (variant, input, today, without the change)
    (variants.PATH_PERCENT_ENCODE_CARET, "http://h/a^b",
     ("http://h/a%5Eb", ["invalid-URL-unit"]), ("http://h/a^b", ["invalid-URL-unit"])),
    (variants.HOSTS_FORBID_LT_GT_CARET, "sc://a<b/",
     ("failure", ["host-invalid-code-point"]), ("sc://a<b/", ["invalid-URL-unit"])),
    (variants.HOSTS_FORBID_LT_GT_CARET, "http://x^y.com/",
     ("failure", ["domain-to-ASCII"]), ("http://x^y.com/", ["domain-to-ASCII"])),
    (variants.CHECK_HYPHENS_BE_STRICT, "https://ab--c.com/",
     ("https://ab--c.com/", ["domain-to-ASCII"]), ("https://ab--c.com/", [])),
    (variants.CHECK_HYPHENS_BE_STRICT, "https://-x.com/",
     ("https://-x.com/", ["domain-to-ASCII"]), ("https://-x.com/", [])),
]


@pytest.mark.parametrize(("name", "input", "today", "before"), CASES,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_each_change_undone_reads_as_the_text_before_it(
        name: str, input: str, today: tuple[str, list[str]],
        before: tuple[str, list[str]]) -> None:
    assert _read(input) == today
    with undoing([name]):
        assert any_undone()
        assert _read(input) == before
    assert not any_undone() and _read(input) == today


def test_every_variant_is_a_normative_commit_and_has_a_case() -> None:
    # a case: a row naming the variant in a tests/test_variants*.py file
    from pathlib import Path

    tests = "".join(p.read_text("utf-8") for p in Path(__file__).parent.glob("test_variants*.py"))
    names = {v.name for v in VARIANTS}
    assert len(names) == len(VARIANTS)
    for v in VARIANTS:
        c = by_sha(v.commit)
        assert c["class"] == "normative", v.name
        constant = next(k for k, val in vars(variants).items() if val == v.name and k.isupper())
        assert f"variants.{constant}" in tests, f"{v.name}: no test case"


def test_as_of_a_date_undoes_the_changes_that_landed_after_it() -> None:
    # exactly the changes that landed after the day, oldest first
    for day in ("2015-01-01", "2019-06-01", "2024-12-01", "2026-07-02"):
        undone = as_of.undone_as_of(day)
        assert [c.variant.name for c in undone] == [
            c.variant.name for c in as_of.changes() if c.commit["committed"] > day]
        assert [c.commit["committed"] for c in undone] == sorted(
            c.commit["committed"] for c in undone)
    names = [c.variant.name for c in as_of.undone_as_of("2019-06-01")]
    assert {variants.HOSTS_FORBID_LT_GT_CARET, variants.CHECK_HYPHENS_BE_STRICT,
            variants.PATH_PERCENT_ENCODE_CARET} <= set(names)
    assert variants.PATH_PERCENT_ENCODE_CARET in [
        c.variant.name for c in as_of.undone_as_of("2024-12-01")]
    assert variants.CHECK_HYPHENS_BE_STRICT not in [
        c.variant.name for c in as_of.undone_as_of("2024-12-01")]
    assert as_of.change("302ba41").variant.name == variants.HOSTS_FORBID_LT_GT_CARET
    with pytest.raises(ValueError, match="no change urlcalc can undo"):
        as_of.change("not-a-change")
    with pytest.raises(ValueError, match="not a date"):
        as_of.undone_as_of("June 2019")
    with pytest.raises(KeyError, match="no such variant"), undoing(["nope"]):
        pass


def test_what_one_thread_undoes_another_does_not_see() -> None:
    seen: list[str] = []
    go, done = threading.Event(), threading.Event()

    def other() -> None:
        go.wait(5)
        seen.append(_read("http://h/a^b")[0])
        done.set()

    t = threading.Thread(target=other)
    t.start()
    with undoing([variants.PATH_PERCENT_ENCODE_CARET]):
        go.set()
        done.wait(5)
        assert _read("http://h/a^b")[0] == "http://h/a^b"
    t.join()
    assert seen == ["http://h/a%5Eb"]


def test_the_cli_reads_as_of_a_date_and_without_a_change() -> None:
    code, out, _ = run("parse", "http://h/a^b", "--as-of", "2024-12-01")
    assert code == 0
    assert out.startswith("standard: today's url.bs as of 2024-12-01, without "
                          "path-percent-encode-caret (9bc33c3 2025-03-05 ")
    assert 'href      "http://h/a^b"' in out
    code, out, _ = run("parse", "sc://a<b/", "--without", "302ba41")
    assert code == 0 and 'href      "sc://a<b/"' in out
    code, _, err = run("parse", "sc://a<b/", "--without", "nope")
    assert code == 2 and "no change urlcalc can undo" in err
    code, out, _ = run("parse", "sc://a<b/")
    assert code == 1 and "standard:" not in out


def test_every_normative_change_since_2015_is_undoable_or_says_why_not() -> None:
    """Each normative change of url.bs since 2015 is a variant or is listed, with its reason,
    in urlcalc/history/data/not_undoable/*.json (never both, never neither)."""
    import json
    from importlib import resources

    from urlcalc.history.commits import normative
    from urlcalc.history.view import SINCE

    listed: dict[str, str] = {}
    folder = resources.files("urlcalc").joinpath("history/data/not_undoable")
    for entry in folder.iterdir():
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text("utf-8"))
            listed.update({k: v for k, v in data.items() if not k.startswith("_")})
    since = {c["commit"] for c in normative() if c["committed"] >= SINCE}
    undoable = {v.commit for v in VARIANTS}
    assert undoable & listed.keys() == set()
    assert undoable | listed.keys() == since
    assert all(isinstance(why, str) and why.strip() for why in listed.values())
    print(f"\nnormative changes since 2015: {len(since)}; undoable: {len(undoable)}; "
          f"not undoable (with the reason): {len(listed)}")


def test_docs_history_md_is_the_current_catalogue() -> None:
    from pathlib import Path

    from urlcalc.history.catalogue import markdown

    docs = Path(__file__).resolve().parent.parent / "docs" / "history.md"
    assert docs.read_text("utf-8") == markdown(), \
        "docs/history.md is out of date: run `python -m urlcalc.history.catalogue`"
