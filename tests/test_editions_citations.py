"""Every section an edition cites exists in its seed, and says what the edition quotes.

Each edition module has ``SECTIONS``: section -> the seed's own words there. The seeds live in
tests/data/seeds/ (copied with their notices, see its README). Checked here:

* every quote is found in the edition's seed (whitespace collapsed; for the 2014 seed, which is
  url.bs source, markup removed);
* every numbered section (``3.2.2``, ``4.2``, ...) is a heading of its seed;
* every section a note, a failure or a difference line can cite is a key of ``SECTIONS``: the
  literal section arguments of the modules' ``note(...)``, ``Note(...)`` and failure
  constructors (read from their source), and the slips' sections of the 2012 edition (the
  differences over a large grid are checked in tests/test_editions_grid.py).
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from urlcalc.editions import EDITIONS, w3c_2012

SEEDS = Path(__file__).parent / "data" / "seeds"
SEED_OF = {
    "rfc3986": "rfc3986-excerpts.txt",
    "html5_2009": "002_f3440f6941f3f8ef.txt",
    "abarth_2010": "000_abad3b91c4f322b0.txt",
    "w3c_2012": "003_251f3c0b459c8b78.txt",
    "whatwg_2014": "001_e7633538c285917c.txt",
    "formal_model": "004_2bd83c95cfeb75ec.txt",
}
#: Calls whose second positional argument is a section: res.note(rule, section, ...),
#: Note(rule, section, ...), and the editions' failures (rule, section, message).
SECTION_CALLS = {"note", "Note", "WebAddressError", "ModelFailure", "_Invalid"}


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def seed_text(eid: str) -> str:
    text = (SEEDS / SEED_OF[eid]).read_text(encoding="utf-8")
    if eid == "whatwg_2014":
        text = re.sub(r"<[^>]*>", "", text)
    return _squash(text)


def test_every_edition_has_a_seed_and_sections() -> None:
    assert set(SEED_OF) == set(EDITIONS)
    for eid, mod in EDITIONS.items():
        assert (SEEDS / SEED_OF[eid]).is_file()
        assert mod.SECTIONS and all(mod.SECTIONS.values()), eid
    assert (SEEDS / "README.md").is_file()


@pytest.mark.parametrize("eid", list(EDITIONS))
def test_every_quote_is_in_the_seed(eid: str) -> None:
    text = seed_text(eid)
    missing = {s: q for s, q in EDITIONS[eid].SECTIONS.items() if _squash(q) not in text}
    assert not missing


@pytest.mark.parametrize("eid", ["rfc3986", "abarth_2010", "w3c_2012"])
def test_every_numbered_section_is_a_heading(eid: str) -> None:
    raw = (SEEDS / SEED_OF[eid]).read_text(encoding="utf-8")
    for section in EDITIONS[eid].SECTIONS:
        number = section.split(" ", 1)[0]
        if not re.fullmatch(r"\d+(\.\d+)*", number):
            continue
        # "3.2.2.  Host" (RFC), "4.2.\n" (the draft's table of contents), "4.2 Parsing" (2012)
        assert re.search(rf"(?m)^\s*{re.escape(number)}\.?(\s|$)", raw), (eid, number)


def _literal_sections(mod: object) -> set[str]:
    tree = ast.parse(inspect.getsource(mod))  # type: ignore[arg-type]
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        name = fn.attr if isinstance(fn, ast.Attribute) else getattr(fn, "id", "")
        if name not in SECTION_CALLS or len(node.args) < 2:
            continue
        arg = node.args[1]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.add(arg.value)
    return found


@pytest.mark.parametrize("eid", list(EDITIONS))
def test_every_literal_citation_is_a_section(eid: str) -> None:
    mod = EDITIONS[eid]
    cited = _literal_sections(mod)
    assert len(cited) >= 4, cited  # the scan sees the module's notes
    assert cited <= set(mod.SECTIONS), sorted(cited - set(mod.SECTIONS))


def test_the_2012_slips_cite_sections() -> None:
    assert set(w3c_2012._FIRED_SECTION.values()) <= set(w3c_2012.SECTIONS)
    assert set(w3c_2012._FIRED_SECTION) == set(w3c_2012._FIRED_TEXT)


def test_the_2010_draft_lost_its_formulas() -> None:
    # the reason 4.2-4.5 are unspecified: each keeps its first and last sentence only
    raw = (SEEDS / SEED_OF["abarth_2010"]).read_text(encoding="utf-8")
    lost = "Given a string /spec/ and a ParsedURL /base-url/, let resolved-url be\n"
    lost += "The resolved URL is resolved-url parsed as an absolute URL."
    assert raw.count(lost) == 4
