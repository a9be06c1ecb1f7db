"""For every normative commit of url.bs since 2015-01-01, the steps it changed, with their text
before and after, for ``urlcalc/history/data/step_changes.json``.

    python spec/history/step_changes.py [--repo DIR | --bundle BUNDLE] [--out OUT] [--check]

The URL Standard's history comes from the bundle (cloned to a temporary directory; default
``../shared/spec/whatwg-url-history.bundle`` next to the checkout, else
``/work/shared/spec/whatwg-url-history.bundle``) or from an existing clone (``--repo``). The
commits are those of ``urlcalc/history/data/commits.json`` with class "normative" and an author
date on or after 2015-01-01. For each, url.bs at the commit and at its first parent are read with
spec/extract_steps.py's step extraction, made tolerant of the older markup:

* an algorithm of extract_steps.ALGORITHMS (and the origin and the urlencoded parser and
  serializer, which url_steps.json does not carry) is looked for by its current marker, then by
  the older markers of FALLBACKS; one found in neither version simply did not exist yet;
* the basic URL parser's states are every ``<dt><dfn ...>NAME</dfn>`` of its state machine's
  ``<dl class=switch>`` (nesting-aware: the 2015 states had ``<dl>`` switches of their own);
* a state or algorithm written as prose (no ``<ol>``, or a ``<dl>`` switch before its first
  ``<ol>``) is one pseudo-step "¶" holding its whole text; the sentence that introduces an
  algorithm is the pseudo-step "intro".

Steps are compared by their text (whitespace normalised, markup stripped: a change of markup or
links only is no change), aligned in order so that a step inserted before others does not make
every later step "changed": ``added`` and ``changed`` are keyed by the step's number after the
commit, ``removed`` by its number before, and ``was`` gives the number before of a changed step
that moved. An algorithm that disappears while one with similar steps appears (the same state
under a new name) is a rename (``renamed``). Definitions that are not numbered steps (the
percent-encode sets, forbidden host/domain code points, the special scheme table, path segments,
Windows drive letters) are compared as ``definitions``: {name: [before, after]} (null where one
side has none). ``unextractable`` lists the algorithms the commit is classified as touching
(commits.json) that neither version has as steps or a definition, each with why.

Standard library only. ``--check`` writes nothing and fails when the file would change. The
texts are excerpts of url.bs (CC BY 4.0, WHATWG): the licence note travels in the file's header.
"""

from __future__ import annotations

import argparse
import difflib
import importlib.util
import json
import re
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "urlcalc" / "history" / "data" / "step_changes.json"
COMMITS = ROOT / "urlcalc" / "history" / "data" / "commits.json"
BUNDLES = (ROOT.parent / "shared" / "spec" / "whatwg-url-history.bundle",
           Path("/work/shared/spec/whatwg-url-history.bundle"))
SINCE = "2015-01-01"
PROSE = "¶"
INTRO = "intro"
RENAME_SIMILARITY = 0.6   # joined step texts of a vanished and a new algorithm
PAIR_SIMILARITY = 0.5     # two steps in a replaced run are "the same step, changed"
LICENCE = ("url.bs is the source of the WHATWG URL Standard (https://url.spec.whatwg.org/), "
           "Copyright (c) WHATWG (Apple, Google, Mozilla, Microsoft), licensed under the "
           "Creative Commons Attribution 4.0 International License "
           "(https://creativecommons.org/licenses/by/4.0/). The step and definition texts "
           "below are excerpts of url.bs at the commits of its history "
           "(https://github.com/whatwg/url) named by their sha and at their first parents, "
           "with the markup stripped; the selection and alignment are urlcalc's.")


def _load_extractor() -> Any:
    spec = importlib.util.spec_from_file_location("extract_steps",
                                                  ROOT / "spec" / "extract_steps.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ex = _load_extractor()

# Algorithms urlcalc computes that url_steps.json does not number, found the same way.
EXTRA: tuple[tuple[str, str, str], ...] = (
    ("origin", r"id=concept-url-origin\b", "concept-url-origin"),
    # 2017-01-24 (30362553) to 2017-02-08 (cdbcce62): opaque hosts were parsed by this one
    ("URL-host parser", r"id=concept-url-host-parser\b", "concept-url-host-parser"),
    ("application/x-www-form-urlencoded parser", r"id=concept-urlencoded-parser\b",
     "concept-urlencoded-parser"),
    ("application/x-www-form-urlencoded serializer", r"id=concept-urlencoded-serializer\b",
     "concept-urlencoded-serializer"),
)

# Older markers of an algorithm, tried when its current one is not in a version.
FALLBACKS: dict[str, tuple[str, ...]] = {
    "URL parser": (r"<dfn[^>]*>URL parser</dfn>",),
    "basic URL parser": (r"<dfn[^>]*>basic URL parser</dfn>",),
    "API URL parser": (r"<dfn[^>]*>API URL parser</dfn>",),
    "host parser": (r"<dfn[^>]*>host parser</dfn>",),
    "IPv4 parser": (r"<dfn[^>]*>IPv4 parser</dfn>",),
    "IPv4 number parser": (r"<dfn[^>]*>IPv4 number parser</dfn>",),
    "IPv6 parser": (r"<dfn[^>]*>IPv6 parser</dfn>",),
    "opaque-host parser": (r"<dfn[^>]*>opaque-host parser</dfn>",),
    "domain parser ToASCII": (r"<dfn[^>]*>domain parser ToASCII</dfn>",),
    "domain to Unicode": (r"<dfn[^>]*>domain to Unicode</dfn>",),
    "shorten a url's path": (r"<dfn[^>]*>shorten a url's path</dfn>", r"<dfn local-lt=pop>",
                             r"<dfn[^>]*>pop a URL's path</dfn>",
                             r"<dfn[^>]*>pop a url's path</dfn>"),
    "percent-encode after encoding": (r"<dfn[^>]*>percent-encode after encoding</dfn>",),
    "URL path serializer": (r"<dfn[^>]*>URL path serializer</dfn>",),
    "set the username": (r"<dfn[^>]*>set the username</dfn>",),
    "set the password": (r"<dfn[^>]*>set the password</dfn>",),
    "URLSearchParams update": (r"<dfn[^>]*>update steps</dfn> are to",
                               r"<dfn[^>]*>update</dfn>"),
    "application/x-www-form-urlencoded parser": (r"<dfn[^>]*lt=['\"]?urlencoded parser",),
    "application/x-www-form-urlencoded serializer": (
        r"<dfn[^>]*lt=['\"]?urlencoded serializer",),
}

# Definitions compared as a whole: a <dfn> whose visible text matches, with its paragraph (and
# the list or table right after it).
DEFINITION = re.compile(r"encode set$|^forbidden (?:host|domain) code point$|^special scheme$"
                        r"|^relative scheme$|^local scheme$|path segment$"
                        r"|Windows drive letter$|^C0 control$|^c0 control$")


class _Text(HTMLParser):
    """The visible text of a fragment: comments, notes and examples left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip: list[str] = []
        self.skip_p = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        cls = set((dict(attrs).get("class") or "").split())
        if tag in ("p", "li", "ol", "ul", "div", "dl", "dt", "dd", "table", "pre", "tr"):
            self.skip_p = False
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.append(tag)
            return
        if tag == "p" and cls & {"note", "example"}:
            self.skip_p = True
            return
        if tag in ("div", "span", "pre") and cls & {"note", "example"}:
            self.skip.append(tag)
            return
        if self.skip_p:
            return
        if tag == "li" or tag == "tr":
            self.parts.append(" • ")
        elif tag in ("td", "th"):
            self.parts.append(" | ")
        elif tag == "sup":
            self.parts.append("^{")
        elif tag in ("p", "br", "dt", "dd", "ol", "ul"):
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.pop()
            return
        if tag == "sup" and not self.skip_p:
            self.parts.append("}")
        elif tag in ("ol", "ul", "dl"):
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.skip and not self.skip_p:
            self.parts.append(data)


class _TolerantSteps(ex._Steps):  # type: ignore[misc,name-defined]
    """extract_steps's step reader, with two tolerances for older url.bs versions: a left-out
    element (a note, the state machine's <dl>) that holds another of its kind is left out up to
    its own end, not the inner one's (the 2015-2017 states had <dl> switches of their own,
    which made the rest of the state machine leak into the basic URL parser's steps); and,
    when ``read_dl``, a <dl> switch inside a step is read as part of that step."""

    def __init__(self, read_dl: bool) -> None:
        super().__init__()
        self.read_dl = read_dl

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.append(tag)
            return
        if self.read_dl and tag in ("dl", "dt", "dd") and self.stack:
            self.skip_p = False
            target = self._target()
            if target is not None:
                target.append(" ")
            return
        super().handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if self.read_dl and tag == "dl" and self.stack and not self.done and not self.skip:
            return
        super().handle_endtag(tag)


def visible_text(fragment: str) -> str:
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    text: str = ex._clean(parser.parts)
    return text


def _matching_end(source: str, start: int, tag: str) -> int:
    """Where the element opened at ``start`` (a ``<tag``) closes, nesting counted."""
    pattern = re.compile(rf"<{tag}\b|</{tag}>")
    depth = 0
    for m in pattern.finditer(source, start):
        depth += 1 if not m.group().startswith("</") else -1
        if depth == 0:
            return m.start()
    return len(source)


def _region(source: str, name: str, marker: str) -> tuple[int, int] | None:
    """Where algorithm ``name``'s definition is in ``source`` (as extract_steps reads it)."""
    m = re.search(marker, source)
    if m is None:
        for old in FALLBACKS.get(name, ()):
            m = re.search(old, source)
            if m is not None:
                break
    if m is None and name.endswith(" setter"):
        # Before <div algorithm>: "The <dfn attribute ...><code>href</code></dfn> attribute's
        # getter ... and setter must run these steps" -- start at the setter.
        attr = name.removesuffix(" setter")
        g = re.search(rf"<dfn[^>]*attribute[^>]*><code>{re.escape(attr)}</code></dfn>", source)
        if g is None:
            return None
        s = re.search(r"setter must|setter are to|setter steps", source[g.end():])
        nxt = re.search(r"<dfn[^>]*attribute|<h[23]\b", source[g.end():])
        if s is None or (nxt is not None and nxt.start() < s.start()):
            return None
        start = g.end() + s.start()
        end_m = re.search(r"<dfn[^>]*attribute|<div algorithm|<h[23]\b|<hr>", source[start:])
        return start, start + end_m.start() if end_m else len(source)
    if m is None:
        return None
    start = source.rfind("<p", 0, m.start())
    if name.endswith(" setter"):
        start = m.end()
    end_m = ex._REGION_END.search(source, m.end())
    end = end_m.start() if end_m else len(source)
    return start, end


def _steps_of(source: str, start: int, end: int, anchor: str, state: bool) -> dict[str, str]:
    """The numbered steps of a region (with "intro"), or its whole text as "¶" when prose."""
    region = source[start:end]
    first_ol = region.find("<ol")
    first_dl = region.find("<dl")
    # a 2015-style state (or the origin): a <dl> switch before any numbered steps
    prose = first_ol < 0 or 0 <= first_dl < first_ol
    if not prose:
        # the basic URL parser's <dl> is its state machine: each state is read on its own
        parser = _TolerantSteps(read_dl=anchor != "concept-basic-url-parser")
        parser.feed(region)
        parser.close()
        steps: dict[str, str] = {k: t for k, v in parser.steps.items()
                                 if k and (t := ex._clean(v))}
        if steps:
            intro = "" if state else ex._clean(parser.intro)
            return {INTRO: intro, **steps} if intro else steps
    text = visible_text(region)
    return {PROSE: text} if text else {}


def extract_tolerant(source: str) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """Every algorithm url.bs at some version has, as {step: text}; and the problems met."""
    algorithms: dict[str, dict[str, str]] = {}
    problems: dict[str, str] = {}
    for name, marker, anchor in (*ex.ALGORITHMS, *EXTRA):
        try:
            where = _region(source, name, marker)
            if where is None:
                continue
            steps = _steps_of(source, *where, anchor, state=False)
        except Exception as err:  # an old markup must never stop the run
            problems[name] = f"extraction failed: {err!r}"
            continue
        if steps:
            algorithms[name] = steps
        else:
            problems[name] = "its definition was found but holds no text"
    basic = re.search(r"id=concept-basic-url-parser|<dfn[^>]*>basic URL parser</dfn>", source)
    dl_start = source.find("<dl class=switch>", basic.end()) if basic else -1
    if dl_start < 0:
        problems["basic URL parser states"] = "no state machine <dl class=switch> found"
        return algorithms, problems
    dl_end = _matching_end(source, dl_start, "dl")
    dts = [m for m in re.finditer(r"<dt><dfn\b[^>]*>([^<]+)</dfn>", source[:dl_end])
           if m.start() > dl_start]
    for i, m in enumerate(dts):
        name = re.sub(r"\s+", " ", m.group(1)).strip()
        try:
            dd = source.index("<dd>", m.end())
            nxt = next((d.start() for d in dts[i + 1:] if d.start() > dd), dl_end)
            steps = _steps_of(source, dd, nxt, "", state=True)
        except Exception as err:  # an old markup must never stop the run
            problems[name] = f"extraction failed: {err!r}"
            continue
        if steps:
            algorithms[name] = steps
        else:
            problems[name] = "state found but holds no text"
    return algorithms, problems


def definitions(source: str) -> dict[str, str]:
    """The definitions DEFINITION names, each the visible text of its paragraph (and table)."""
    found: dict[str, str] = {}
    for m in re.finditer(r"<dfn\b[^>]*>(.*?)</dfn>", source, re.S):
        name = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", m.group(1))).strip()
        if not DEFINITION.search(name) or name in found:
            continue
        start = source.rfind("\n\n", 0, m.start()) + 2
        end = source.find("\n\n", m.end())
        end = len(source) if end < 0 else end
        nxt = re.match(r"\s*<(table|ul|ol)\b", source[end:])
        if nxt is not None:
            close = _matching_end(source, end + nxt.start(1) - 1, nxt.group(1))
            end = source.find("\n\n", close)
            end = len(source) if end < 0 else end
        text = visible_text(source[start:end])
        if text:
            found[name] = text
    # the origin getter (API, but it is what the calculator's origin shows)
    getter = re.search(r"<dfn attribute[^>]*><code>origin</code></dfn>", source)
    if getter is not None:
        start = source.rfind("\n\n", 0, getter.start()) + 2
        end = source.find("\n\n", getter.end())
        found["origin getter"] = visible_text(source[start:end if end >= 0 else len(source)])
    return found


# Sections compared paragraph by paragraph (the valid-string rules are no numbered algorithm):
# name -> the <h3> that starts it (current or older id).
SECTIONS: dict[str, str] = {
    "URL writing": r"<h3 id=(?:url-writing|url-syntax)\b",
    "host writing": r"<h3 id=(?:host-writing|host-syntax)\b",
}


def _paragraphs(source: str, start_pattern: str) -> list[str]:
    m = re.search(start_pattern, source)
    if m is None:
        return []
    end_m = re.search(r"<h[23]\b", source[m.end():])
    body = source[m.start():m.end() + end_m.start() if end_m else len(source)]
    texts = (visible_text(chunk) for chunk in re.split(r"\n\s*\n", body))
    return [t for t in texts if t]


def section_changes(before_src: str, after_src: str) -> dict[str, list[str | None]]:
    """For each of SECTIONS: [the paragraphs that changed before, after], one a line."""
    out: dict[str, list[str | None]] = {}
    for name, pattern in SECTIONS.items():
        b, a = _paragraphs(before_src, pattern), _paragraphs(after_src, pattern)
        if b == a:
            continue
        olds: list[str] = []
        news: list[str] = []
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, b, a,
                                                          autojunk=False).get_opcodes():
            if op != "equal":
                olds += b[i1:i2]
                news += a[j1:j2]
        out[name] = ["\n".join(olds) or None, "\n".join(news) or None]
    return out


def _order(step: str) -> tuple[int, ...]:
    if step == INTRO:
        return (-1,)
    if step == PROSE:
        return (0,)
    return tuple(int(n) for n in step.split("."))


def diff_steps(before: dict[str, str], after: dict[str, str]) -> dict[str, Any]:
    """Steps added, removed and changed, aligned by text."""
    b = sorted(before, key=_order)
    a = sorted(after, key=_order)
    added: dict[str, str] = {}
    removed: dict[str, str] = {}
    changed: dict[str, list[str]] = {}
    was: dict[str, str] = {}
    matcher = difflib.SequenceMatcher(None, [before[k] for k in b], [after[k] for k in a],
                                      autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        olds, news = list(b[i1:i2]), list(a[j1:j2])
        # pair the steps of a replaced run that are the same step reworded, in order
        pairs: list[tuple[str, str]] = []
        j = 0
        for old in olds:
            best, best_k = 0.0, -1
            for k in range(j, len(news)):
                ratio = difflib.SequenceMatcher(None, before[old], after[news[k]]).ratio()
                same_number = old == news[k]
                if ratio > best or (same_number and ratio >= PAIR_SIMILARITY and ratio == best):
                    best, best_k = ratio, k
            if best_k >= 0 and (best >= PAIR_SIMILARITY or
                                (old == news[best_k] and len(olds) == len(news))):
                pairs.append((old, news[best_k]))
                j = best_k + 1
        paired_old = {p[0] for p in pairs}
        paired_new = {p[1] for p in pairs}
        for old, new in pairs:
            changed[new] = [before[old], after[new]]
            if old != new:
                was[new] = old
        for old in olds:
            if old not in paired_old:
                removed[old] = before[old]
        for new in news:
            if new not in paired_new:
                added[new] = after[new]
    out: dict[str, Any] = {"added": added, "removed": removed, "changed": changed}
    if was:
        out["was"] = was
    return out


def _joined(steps: dict[str, str]) -> str:
    return "\n".join(steps[k] for k in sorted(steps, key=_order) if k != INTRO)


def compare(before_src: str, after_src: str, touched: list[str]) -> dict[str, Any]:
    """One commit's entry: algorithms, renamed, definitions, unextractable."""
    before, b_problems = extract_tolerant(before_src)
    after, a_problems = extract_tolerant(after_src)
    gone = [n for n in before if n not in after]
    new = [n for n in after if n not in before]
    renamed: list[dict[str, Any]] = []
    for old in list(gone):
        scored = sorted(((difflib.SequenceMatcher(None, _joined(before[old]), _joined(after[n]),
                                                  autojunk=False).ratio(), n) for n in new),
                        reverse=True)
        if scored and scored[0][0] >= RENAME_SIMILARITY:
            ratio, name = scored[0]
            renamed.append({"from": old, "to": name, "similarity": round(ratio, 3),
                            "same_steps": before[old] == after[name]})
            gone.remove(old)
            new.remove(name)
    algorithms: dict[str, Any] = {}
    pairs = [(n, n) for n in after if n in before]
    pairs += [(r["from"], r["to"]) for r in renamed]
    for old, name in pairs:
        d = diff_steps(before[old], after[name])
        if d["added"] or d["removed"] or d["changed"]:
            algorithms[name] = d
    for name in new:
        algorithms[name] = {"added": dict(after[name]), "removed": {}, "changed": {},
                            "new": True}
    for name in gone:
        algorithms[name] = {"added": {}, "removed": dict(before[name]), "changed": {},
                            "gone": True}
    b_defs, a_defs = definitions(before_src), definitions(after_src)
    defs = {name: [b_defs.get(name), a_defs.get(name)]
            for name in sorted(set(b_defs) | set(a_defs))
            if b_defs.get(name) != a_defs.get(name)}
    defs.update(section_changes(before_src, after_src))
    unextractable: list[dict[str, str]] = []
    for name in touched:
        if (name in before or name in after or name in b_defs or name in a_defs
                or name in SECTIONS):
            continue
        why = a_problems.get(name) or b_problems.get(name) or (
            "neither version has an algorithm or definition of this name (commits.json uses "
            "today's names: see renamed and definitions for an older one)")
        unextractable.append({"name": name, "why": why})
    for side, problems in (("before", b_problems), ("after", a_problems)):
        for name, why in problems.items():
            if name not in touched:
                unextractable.append({"name": name, "why": f"{side}: {why}"})
    return {"algorithms": dict(sorted(algorithms.items())), "renamed": renamed,
            "definitions": defs, "unextractable": unextractable}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def url_bs(repo: Path, rev: str) -> str:
    return git(repo, "show", f"{rev}:url.bs")


def build(repo: Path) -> dict[str, Any]:
    listed = json.loads(COMMITS.read_text(encoding="utf-8"))
    chosen = [c for c in listed["commits"] if c["class"] == "normative" and c["date"] >= SINCE]
    entries: dict[str, Any] = {}
    for c in chosen:
        sha = c["commit"]
        parent = git(repo, "rev-parse", f"{sha}^1").strip()
        entry = compare(url_bs(repo, parent), url_bs(repo, sha), list(c["algorithms"]))
        entries[sha] = {"date": c["date"], "title": c["title"], "parent": parent, **entry}
    with_steps = [s for s, e in entries.items() if e["algorithms"]]
    defs_only = [s for s, e in entries.items() if not e["algorithms"] and e["definitions"]]
    neither = [s for s, e in entries.items() if not e["algorithms"] and not e["definitions"]]
    return {
        "source": {
            "repository": "https://github.com/whatwg/url",
            "bundle": "whatwg-url-history.bundle",
            "main": listed["source"]["main"],
            "file": "url.bs",
            "selection": f"commits.json entries of class normative with date >= {SINCE}, "
                         "each against its first parent",
            "generated_by": "spec/history/step_changes.py",
        },
        "licence": LICENCE,
        "method": (
            "spec/extract_steps.py's step extraction on url.bs at the commit and at its first "
            "parent, tolerant of older markup (older markers, prose states as one pseudo-step "
            f"'{PROSE}', the introducing sentence as '{INTRO}'); steps compared by visible text "
            "(whitespace and markup ignored) and aligned in order: 'added' and 'changed' keyed "
            "by the number after the commit, 'removed' by the number before, 'was' maps a "
            "changed step's number after to its number before when it moved; an algorithm "
            f"that vanished while a similar one (step text ratio >= {RENAME_SIMILARITY}) "
            "appeared is 'renamed'; 'definitions' compares the paragraphs defining the "
            "percent-encode sets, forbidden host/domain code points, special schemes, path "
            "segments and Windows drive letters: [before, after], null when absent; "
            "'unextractable' lists the commit's classified algorithms that neither version "
            "has as steps or a definition (sections such as URL writing), with why."),
        "counts": {"commits": len(entries), "with_steps": len(with_steps),
                   "definitions_only": len(defs_only), "neither": len(neither)},
        "neither": neither,
        "commits": entries,
    }


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, help="an existing clone of the URL Standard")
    ap.add_argument("--bundle", type=Path, help="the history bundle to clone")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="fail if the file would change")
    args = ap.parse_args(argv)
    if args.repo is not None:
        text = render(build(args.repo))
    else:
        bundle = args.bundle or next((b for b in BUNDLES if b.exists()), None)
        if bundle is None:
            print("no bundle: pass --repo or --bundle", file=sys.stderr)
            return 2
        with tempfile.TemporaryDirectory() as tmp:
            repo = Path(tmp) / "whatwg-url"
            subprocess.run(["git", "clone", "--quiet", str(bundle), str(repo)], check=True,
                           capture_output=True)
            text = render(build(repo))
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else ""
        if current != text:
            print(f"{args.out} is out of date: run spec/history/step_changes.py",
                  file=sys.stderr)
            return 1
        print(f"{args.out} is up to date")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text.encode('utf-8')):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
