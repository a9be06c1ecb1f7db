"""Citations under a variant: a trace read with a change undone says, on the event of the step
that took the change's old branch, which change (its commit, date and title) and what the step
said before it (urlcalc.trace.undone, urlcalc.history.cite). Cases from tests/test_variants*.py.
"""

from __future__ import annotations

import io
from typing import Any

import pytest

from urlcalc import cli
from urlcalc.history.cite import cite_answer, old_text
from urlcalc.history.commits import by_sha
from urlcalc.history.step_changes import step_changes
from urlcalc.model.results import host_model, parse_model, set_model
from urlcalc.standard import variants as v
from urlcalc.standard.observer import Step, VariantCited
from urlcalc.standard.variants import BY_NAME, undoing

# (variant, kind, input (or input, setter, value), the algorithm of the event that cites it,
#  a touched step or definition the citation names, words of its text before the change
#  (url.bs's when source is "url.bs", else the variant's summary, or None: the step is new))
CASES: list[tuple[str, str, Any, str, str, str, str | None]] = [
    # hosts
    (v.HOSTS_FORBID_PIPE, "parse", "sc://a|b/", "opaque-host parser",
     "forbidden host code point", "url.bs", "U+0040 (@), U+005B ([), U+005C (\\), U+005D (])"),
    (v.IDNA_NONTRANSITIONAL, "parse", "http://fa\u00df.de/", "domain parser",
     "domain parser ToASCII", "variant", "Transitional_Processing"),
    (v.IPV4_NUMBER_ZERO, "parse", "http://0/", "IPv4 number parser",
     "IPv4 number parser, step 5", "variant", "starting with 0 was octal"),
    (v.IDNA_NONTRANSITIONAL, "host", "fa\u00df.de", "domain parser",
     "domain parser ToASCII", "variant", "Transitional_Processing"),
    # the basic URL parser's states
    (v.CREDENTIALS_NO_HOST_HOST_MISSING, "parse", "https://user:pass@", "authority state",
     "authority state, step 2.1", "url.bs", "invalid-credentials"),
    (v.FILE_LOCALHOST_EMPTY, "parse", "file://LOCALHOST/x", "file host state",
     "file host state, step 1.3.3", "url.bs", None),
    (v.PORT_16_BIT, "parse", "http://h:65536/", "port state", "port state, step 2.1.2",
     "variant", "no upper bound"),
    (v.TRIM_C0_CONTROL_OR_SPACE, "parse", " http://h/ ", "basic URL parser",
     "basic URL parser, step 1.3", "variant", "ASCII whitespace"),
    (v.SPECIAL_QUERY_APOSTROPHE, "parse", "http://h/?a'b", "query state",
     "query state, step 2.1", "variant", "kept ' (0x27)"),
    # setters
    (v.HASH_SETTER_JAVASCRIPT, "set", ("javascript:alert(1)", "hash", "x"), "hash setter",
     "hash setter, step 1", "url.bs", "scheme is \"javascript\", then return."),
    (v.SEARCH_SETTER_EMPTY_RETURNS, "set", ("http://example.com/?q", "search", ""),
     "search setter", "search setter, step 2", "url.bs",
     "If the given value is the empty string, set url's query to null"),
    (v.PORT_SETTER_EMPTY_STRING, "set", ("http://example.com:8080/", "port", ""),
     "port setter", "port setter, step 2", "url.bs", None),
]


def _steps(kind: str, input: Any, names: tuple[str, ...] = ()) -> list[Step]:
    with undoing(names):
        if kind == "parse":
            answer: Any = parse_model(input, trace=True)
        elif kind == "set":
            answer = set_model(input[0], [(input[1], input[2])], trace=True)
        else:
            answer = host_model(input, trace=True)
    cite_answer(answer)
    if kind == "parse":
        return list(answer["trace"]["steps"])
    if kind == "set":
        return list(answer["operations"][0]["trace"]["steps"])
    return list(answer["domain"]["trace"]["steps"])


def _cited(steps: list[Step]) -> list[tuple[Step, VariantCited]]:
    return [(s, c) for s in steps for c in s.get("variants") or ()]


@pytest.mark.parametrize(("name", "kind", "input", "algorithm", "where", "source", "words"),
                         CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_the_step_that_took_the_old_branch_cites_the_change(
        name: str, kind: str, input: Any, algorithm: str, where: str, source: str,
        words: str | None) -> None:
    assert not _cited(_steps(kind, input)), "nothing undone: no event cites a change"
    cited = _cited(_steps(kind, input, (name,)))
    assert [c["variant"] for _, c in cited] == [name] * len(cited) and cited
    step, cite = cited[0]
    assert step["algorithm"] == algorithm
    variant = BY_NAME[name]
    commit = by_sha(variant.commit)
    assert cite["commit"] == variant.commit[:7]
    assert (cite["date"], cite["title"]) == (commit["committed"], commit["title"])
    assert cite["summary"] == variant.before
    olds = {o["where"]: o for o in cite["before"]}
    assert where in olds, olds
    old = olds[where]
    assert old["source"] == source
    if words is None:
        assert old["text"] is None  # the change added the step
    else:
        assert old["text"] is not None and words in old["text"]


def _every_citation() -> list[tuple[Step, VariantCited]]:
    out = []
    for name, kind, input, *_ in CASES:
        out += _cited(_steps(kind, input, (name,)))
    # two changes undone at once: each on its own step
    out += _cited(_steps("parse", "sc://a|b^c/", (v.HOSTS_FORBID_PIPE,
                                                  v.HOSTS_FORBID_LT_GT_CARET)))
    return out


def test_every_citation_names_a_real_change_and_quotes_step_changes() -> None:
    """The test_citations.py of the variants: each citation names a variant of the table, its
    commit, and its old text is step_changes.json's "before" for that step (or definition), or
    the variant's summary where step_changes.json has none for it."""
    seen = set()
    for _step, cite in _every_citation():
        variant = BY_NAME[cite["variant"]]
        assert variant.commit.startswith(cite["commit"]) and len(cite["commit"]) == 7
        assert set(cite["where"]) <= set(variant.touched)
        changes = step_changes(variant.commit)
        for old in cite["before"]:
            assert old["where"] in variant.touched
            if old["source"] == "variant":
                assert old["text"] == variant.before
                continue
            assert old["source"] == "url.bs"
            algorithm, sep, number = old["where"].partition(", step ")
            if sep:
                before, after = changes.step(algorithm, number)
                assert old["text"] == before or (
                    old["text"] is None and after is not None)  # the step is new
            else:
                assert old["text"] == changes.definitions[old["where"]][0]
            assert old == old_text(variant, old["where"])
        seen.add(cite["variant"])
    assert {v.HOSTS_FORBID_PIPE, v.HOSTS_FORBID_LT_GT_CARET} <= seen
    assert len(seen) >= 8


def test_a_citation_sits_on_the_algorithm_it_touched() -> None:
    """Two changes of the host parser undone while the URL parser runs: each on the event of
    the algorithm whose step it touched (not on the host state that called it)."""
    for step, cite in _cited(_steps("parse", "sc://a|b^c/", (v.HOSTS_FORBID_PIPE,
                                                            v.HOSTS_FORBID_LT_GT_CARET))):
        assert step["algorithm"] == "opaque-host parser", (step["algorithm"], cite)


def test_an_untraced_or_plain_run_records_nothing() -> None:
    """The list of changes fired lives only while a trace is recorded."""
    with undoing((v.HASH_SETTER_JAVASCRIPT, v.PORT_16_BIT)):
        assert v._fired.get() is None
        answer = parse_model("http://h:65536/", trace=False)
        assert answer["trace"] is None and v._fired.get() is None
        with v.firing() as fired:
            assert fired == [] and v.undone(v.PORT_16_BIT) and fired == [v.PORT_16_BIT]
            assert not v.undone(v.IPV4_PARSER) and fired == [v.PORT_16_BIT]
        assert v._fired.get() is None
    with v.firing() as fired:
        assert fired is None  # nothing undone: nothing to note


def test_explain_prints_the_old_text() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = cli.main(["set", "javascript:x", "hash", "y", "--without", "4bf85a0", "--explain"],
                    out, err)
    assert code == 0
    text = out.getvalue()
    commit = by_sha(BY_NAME[v.HASH_SETTER_JAVASCRIPT].commit)
    assert (f"as before 4bf85a0 ({commit['committed']}, {commit['title']}), undone here "
            f"(hash-setter-javascript):") in text
    assert ("hash setter, step 1, then: If context object's url's scheme is \"javascript\", "
            "then return.") in text
    assert "url.bs today 1: If the given value is the empty string" in text
    # today's standard: no such lines
    out = io.StringIO()
    cli.main(["set", "javascript:x", "hash", "y", "--explain"], out, err)
    assert "as before" not in out.getvalue() and "url.bs today" not in out.getvalue()
