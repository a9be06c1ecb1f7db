"""make mutate's mutant ids (tests/mutation/mutants.py): the ids tests/mutation/equivalent.py
lists must keep naming the same edit when the code around moves, and must still exist."""

from __future__ import annotations

import dataclasses
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from mutation.equivalent import EQUIVALENT  # noqa: E402
from mutation.mutants import Mutant, sites  # noqa: E402
from mutation.run import MODULES  # noqa: E402

SOURCE = textwrap.dedent('''\
    def f(x):
        if x == 1:
            return "one"
        if x == 1:
            return "one"
        return None


    class C:
        def g(self, x):
            if x == 1:
                return "one"
            return x + 1
    ''')


def _ids(tmp_path: Path, source: str) -> dict[str, Mutant]:
    (tmp_path / "m.py").write_text(source, encoding="utf-8")
    return {m.id: m for m in sites(tmp_path, "m.py")}


def test_ids_name_the_module_the_function_and_the_operator(tmp_path: Path) -> None:
    ids = _ids(tmp_path, SOURCE)
    assert len(ids) == len(sites(tmp_path, "m.py"))  # unique
    assert {i.split(":")[1] for i in ids} == {"f", "C.g"}
    assert all(i.startswith("m:") for i in ids)
    # the two identical lines of f are told apart by their occurrence, in source order
    first, second = (m for m in ids.values() if m.scope == "f" and m.operator == "compare"
                     and m.replacement == "x != 1")
    assert (first.line, second.line) == (2, 4)
    assert second.id == first.id + "~2"
    # the same line in C.g is another mutant
    assert sum(1 for m in ids.values() if m.replacement == "x != 1") == 3


def test_ids_survive_lines_moving_and_the_code_around_changing(tmp_path: Path) -> None:
    before = _ids(tmp_path, SOURCE)
    # lines inserted above, a function added between, the class re-indented under an `if`
    moved = "import os\n\n\n" + SOURCE.replace("class C:", "def h():\n    return 2\n\n\nclass C:")
    after = _ids(tmp_path, moved)
    assert set(before) <= set(after)
    for i, m in before.items():
        assert after[i].line > m.line and after[i].describe() == m.describe()
    nested = SOURCE.replace("class C:\n", "if True:\n  class C:\n").replace(
        "\n    def g", "\n      def g").replace("\n        ", "\n          ")
    assert {i for i in before if ":C.g:" in i} <= set(_ids(tmp_path, nested))


def test_an_edited_line_gets_a_new_id(tmp_path: Path) -> None:
    before = _ids(tmp_path, SOURCE)
    after = _ids(tmp_path, SOURCE.replace("return x + 1", "return x + 2"))
    changed = {i for i in before if ":C.g:" in i} - set(after)
    assert changed and all(before[i].line == 13 for i in changed)


@pytest.mark.parametrize("module", MODULES)
def test_mutants_edit_exactly_their_span(module: str) -> None:
    source = (REPO / module).read_text(encoding="utf-8")
    for m in sites(REPO, module, check=False):
        assert dataclasses.replace(m, replacement=m.original).apply(source) == source, m.id
        assert m.original in m.context or "\n" in m.original, m.id


def test_every_equivalent_mutant_still_exists() -> None:
    # an id that no mutant has any more: its line or function was edited, renamed or moved; the
    # claim that it is equivalent must be looked at again (and the id updated)
    ids = {m.id for module in MODULES for m in sites(REPO, module, check=False)}
    assert sorted(set(EQUIVALENT) - ids) == []
