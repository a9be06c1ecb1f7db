"""Since when does this input mean what it means: the history answer (urlcalc history, /api/history,
kind "history"): every change urlcalc can undo whose undoing alters the result, oldest first, with
the result without it and the changed text before and after, and the counts that keep an empty
list honest."""

from __future__ import annotations

from test_cli import run

from urlcalc.answers.answer import answer
from urlcalc.history.view import history_model
from urlcalc.standard import variants
from urlcalc.standard.variants import VARIANTS


def test_a_change_that_alters_the_input_is_listed_with_its_text() -> None:
    h = history_model("sc://a<b/")
    assert h["today"]["ok"] is False and h["today"]["validation_errors"] == [
        "host-invalid-code-point"]
    [change] = [c for c in h["changes"] if c["name"] == variants.HOSTS_FORBID_LT_GT_CARET]
    assert change["commit"].startswith("302ba41") and change["date"] == "2020-05-14"
    assert change["title"] == "Forbid <, >, and ^ in hosts"
    assert change["without"]["ok"] is True
    assert change["without"]["getters"] is not None
    assert change["without"]["getters"]["href"] == "sc://a<b/"
    assert "failure" in change["differs"]
    # the definition it changed, before and after (url.bs at 302ba41^ and 302ba41)
    [text] = [t for t in change["text"] if t["step"] == "forbidden host code point"]
    assert text["before"] is not None and "U+003C (<)" not in text["before"]
    assert text["after"] is not None and "U+003C (<)" in text["after"]


def test_the_changes_come_oldest_first_and_only_when_they_alter_the_result() -> None:
    h = history_model("http://example.com/")
    assert h["changes"] == [] and h["today"]["getters"] is not None
    assert h["undoable"] == len(VARIANTS) and h["normative_since_2015"] >= h["undoable"]
    h = history_model("https://ab--c.com/a^b")
    dates = [c["date"] for c in h["changes"]]
    assert dates == sorted(dates)
    names = {c["name"] for c in h["changes"]}
    assert {variants.CHECK_HYPHENS_BE_STRICT, variants.PATH_PERCENT_ENCODE_CARET} <= names


def test_the_api_and_the_cli_answer_it() -> None:
    status, body = answer("history", {"input": "http://h/a^b"})
    assert status == 200 and body["kind"] == "history"
    status, body = answer("history", {})
    assert status == 400
    code, out, _ = run("history", "http://h/a^b")
    assert code == 0
    assert "9bc33c3 'Add U+005E (^) to the path percent-encode set'" in out
    assert 'without it: href "http://h/a^b"' in out
    # the changes that do not matter are counted, and the unmerged branches come last, as
    # proposals not applied
    h = history_model("http://h/a^b")
    assert f"{len(h['unchanged'])} other changes urlcalc can undo do not change this input" in out
    tail = out[out.index("proposals (unmerged branches"):]
    assert "[annevk/urlhost] 'Expose a URLHost class to JavaScript'" in tail
    assert "not applied" in tail


def test_as_of_a_date_reads_the_input_as_the_standard_was_then() -> None:
    # 9bc33c3 landed on 2025-03-05: on 2025-01-01 a path kept ^ as it is
    h = history_model("http://h/a^b", as_of="2025-01-01")
    assert h["as_of"] is not None and h["as_of"]["date"] == "2025-01-01"
    assert variants.PATH_PERCENT_ENCODE_CARET in h["as_of"]["undone"]
    assert h["as_of"]["reading"]["getters"] is not None
    assert h["as_of"]["reading"]["getters"]["href"] == "http://h/a^b"
    assert history_model("http://h/a^b")["as_of"] is None
    assert history_model("http://h/a^b", as_of="2026-07-03")["as_of"] == {
        "date": "2026-07-03", "undone": [], "reading": history_model("http://h/a^b")["today"]}
    status, body = answer("history", {"input": "x", "as_of": "2019"})
    assert status == 400 and "not a date" in body["error"]


def test_an_input_longer_than_the_history_reads_is_a_400() -> None:
    from urlcalc.model.limits import MAX_HISTORY_CHARS

    status, body = answer("history", {"input": "a" * (MAX_HISTORY_CHARS + 1)})
    assert status == 400 and "too long to compare" in body["error"]
    status, body = answer("history", {"input": "x", "base": "b" * (MAX_HISTORY_CHARS + 1)})
    assert status == 400 and "'base'" in body["error"]
    status, _ = answer("history", {"input": "http://" + "\u4e2d" * (MAX_HISTORY_CHARS - 8) + "/"})
    assert status == 200


def test_the_changes_that_leave_the_input_as_it_is_are_listed_apart() -> None:
    # the timeline folds them with their count: every undoable change is in one list or the other
    h = history_model("sc://a<b/")
    altering = {c["name"] for c in h["changes"]}
    quiet = [c["name"] for c in h["unchanged"]]
    assert variants.HOSTS_FORBID_LT_GT_CARET in altering
    assert variants.HOSTS_FORBID_LT_GT_CARET not in quiet
    assert not altering & set(quiet)
    assert len(altering) + len(quiet) == h["undoable"] == len(VARIANTS)
    dates = [c["date"] for c in h["unchanged"]]
    assert dates == sorted(dates)
    [caret] = [c for c in history_model("http://example.com/")["unchanged"]
               if c["name"] == variants.PATH_PERCENT_ENCODE_CARET]
    assert caret["commit"].startswith("9bc33c3") and caret["date"] == "2025-03-05"
    assert caret["title"] == "Add U+005E (^) to the path percent-encode set"


def test_the_unmerged_branches_are_proposals_none_applied() -> None:
    h = history_model("http://1.2.3.4/")
    props = h["proposals"]
    assert {p["branch"] for p in props} == {"annevk/urlhost", "annevk/3986-3987-appendix",
                                            "ipv4-non-ascii-input"}
    assert all(p["applied"] is False for p in props)
    assert all(p["note"] == "proposal, not applied: urlcalc reads today's standard"
               for p in props)
    [ipv4] = [p for p in props if p["branch"] == "ipv4-non-ascii-input"]
    assert ipv4["commit"].startswith("92b3e16") and ipv4["change_class"] == "normative"
    assert ipv4["title"] == "Report a validation error for IPv4 addresses from non-ASCII input"
    # nothing about the input is invented: the same proposals whatever it is
    assert history_model("sc://a<b/")["proposals"] == props
