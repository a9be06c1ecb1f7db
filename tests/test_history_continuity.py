"""Continuity with the seeds (issue 27, item 5): the earliest variant set (every undoable change
after 2015-01-01 undone) against the 2014 grammar edition (seed 001) on the editions' test
inputs, every difference explained.

``spec/history/continuity.py`` reads each input both ways and gives each difference the first
explanation whose predicate holds: a rule (how the seed's grammar, or the point where its copy
is cut off, reads it) or a change by sha (one the earliest set cannot undo). Its output,
``urlcalc/history/data/continuity.json``, is what this test recomputes: a difference nothing
explains fails, and so does a listed difference that no longer differs (or differs otherwise).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from urlcalc.editions import whatwg_2014
from urlcalc.history.commits import commits
from urlcalc.model.results import parse_model
from urlcalc.standard.url import URL
from urlcalc.standard.variants import undoing

ROOT = Path(__file__).resolve().parent.parent
COMMAND = "python spec/history/continuity.py"
#: What tests/conftest.py prints at the end of the run.
SUMMARY: list[str] = []


@cache
def generator() -> ModuleType:
    path = ROOT / "spec" / "history" / "continuity.py"
    spec = importlib.util.spec_from_file_location("history_continuity", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


@cache
def recomputed() -> tuple[tuple[Any, ...], ...]:
    rows = generator().differences()
    return tuple((r["input"], r["base"], r["getter"], r["edition"], r["variant"], r["explained"])
                 for r in rows)


def listed() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (ROOT / "urlcalc" / "history" / "data" / "continuity.json").read_text("utf-8"))
    return data


def _key(row: tuple[Any, ...]) -> tuple[Any, ...]:
    return row[:3]


def test_every_difference_is_explained() -> None:
    rows = recomputed()
    unexplained = [row[:5] for row in rows if row[5] is None]
    assert unexplained == [], (
        f"{len(unexplained)} differences between the earliest variant set and seed 001 fit no "
        f"rule and no change of spec/history/continuity.py's EXPLAINERS: {unexplained[:10]}")
    tally = Counter(row[5] for row in recomputed())
    kinds = generator().EXPLANATIONS
    by_kind: Counter[str] = Counter()
    for name, n in tally.items():
        by_kind["cut off" if name.endswith("-cut-off") else kinds[name][0]] += n
    SUMMARY.append(
        f"{listed()['inputs']['distinct (input, base)']:,} inputs read both ways, {len(rows)} "
        f"differences: {by_kind['cut off']} where the seed is cut off, {by_kind['rule']} by its "
        f"grammar ({len([k for k in tally if kinds[k][0] == 'rule' and '-cut-off' not in k])} "
        f"rules), "
        f"{by_kind['change']} by a change urlcalc cannot undo; unexplained 0")


def test_the_listed_differences_are_the_differences() -> None:
    """A listed difference that no longer differs (or differs otherwise, or is explained
    otherwise) fails, and so does a new one not listed: the file is regenerated, not edited."""
    now = {_key(row): row for row in recomputed()}
    then = {(r["input"], r["base"], r["getter"]):
            (r["input"], r["base"], r["getter"], r["edition"], r["variant"], r["explained"])
            for r in listed()["differences"]}
    gone = sorted((k for k in then if k not in now), key=repr)
    assert gone == [], f"listed but no longer differing (run {COMMAND}): {gone[:10]}"
    new = sorted((k for k in now if k not in then), key=repr)
    assert new == [], f"differing but not listed (run {COMMAND}): {new[:10]}"
    changed = sorted((k for k in now if now[k] != then[k]), key=repr)
    assert changed == [], f"listed otherwise (run {COMMAND}): {[now[k] for k in changed[:10]]}"


def test_the_file_is_what_the_generator_writes() -> None:
    assert generator().main(["--check"]) == 0, f"continuity.json is stale: run {COMMAND}"


def test_every_explanation_explains_something() -> None:
    used = Counter(row[5] for row in recomputed())
    unused = [name for name in generator().EXPLANATIONS if not used[name]]
    assert unused == [], f"explanations no difference needs: {unused}"
    assert [name for name, _ in generator().EXPLAINERS] == list(generator().EXPLANATIONS)


def test_the_changes_named_are_ones_the_earliest_set_cannot_undo() -> None:
    """A change named by sha is a not-undoable one, or a normative commit between the seed's
    date and 2015-01-01; commits.json lists no such commit (the seed holds 05cbe06, the last
    normative commit of 2014)."""
    g = generator()
    between = [c["commit"][:7] for c in commits() if c["class"] == "normative"
               and g.SEED_DATE < c["committed"] <= g.AS_OF]
    assert between == []
    last_2014 = [c for c in commits() if c["class"] == "normative" and c["committed"] <= g.AS_OF]
    assert last_2014[-1]["commit"].startswith(g.SEED_COMMIT)
    assert last_2014[-1]["committed"] == g.SEED_DATE
    not_undoable = g.not_undoable()
    for name, (kind, line) in g.EXPLANATIONS.items():
        if kind == "change":
            assert any(sha.startswith(name) for sha in not_undoable), name
            assert line.startswith(name)


def test_the_cut_off_rules_are_checked_not_assumed() -> None:
    """A cut-off rule holds only when completing the missing step gives the variant's value: the
    same seed reading against another variant value is not explained by it."""
    g = generator()
    edition = whatwg_2014.parse("http://EXAMPLE.COM:080/?é#\x00x", None, errata=True)
    with undoing(g.earliest()):
        variant: dict[str, Any] = dict(parse_model("http://EXAMPLE.COM:080/?é#\x00x"))

    def read(getter: str, variant_value: str) -> Any:
        return g.Read("http://EXAMPLE.COM:080/?é#\x00x", None, getter, edition, variant,
                      edition.getters[getter], variant_value)

    assert variant["getters"] is not None
    for getter, rule in (("hostname", g.host_cut_off), ("port", g.port_cut_off),
                         ("search", g.query_cut_off), ("hash", g.fragment_cut_off)):
        right = read(getter, variant["getters"][getter])
        assert right.seed_value != right.variant_value and rule(right), getter
        assert not rule(read(getter, variant["getters"][getter] + "1")), getter
    wrong_host = dict(variant, getters={**variant["getters"], "hostname": "example.org"})
    assert not g.host_cut_off(g.Read("http://EXAMPLE.COM:080/?é#\x00x", None, "hostname",
                                     edition, wrong_host, "EXAMPLE.COM", "example.org"))


def test_the_untraced_parser_reads_as_the_model_under_the_earliest_set() -> None:
    """The parser's untraced path (the URL API, ``urlcalc parse --as-of``) and the model give
    the same href for every input here under the earliest set (the domain parser's shortcut once
    reused the nontransitional result while Transitional_Processing was undone: faß.example)."""
    g = generator()
    pairs, _ = g.inputs()
    differ = []
    with undoing(g.earliest()):
        for input, base in pairs:
            answer = parse_model(input, base)
            try:
                href: str | None = URL(input, base).href
            except (TypeError, ValueError):
                href = None
            model = answer["getters"]["href"] if answer["getters"] else None
            if href != model:
                differ.append((input, base, href, model))
    assert differ == []
    with undoing(g.earliest()):
        assert URL("https://faß.ExAmPlE/").hostname == "fass.example"
