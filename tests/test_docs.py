"""The README and docs/*.md hold together: every relative link and image points to a file of the
checkout, and every ``#anchor`` to a heading of the file it names, by GitHub's rules for heading
ids (lower case; punctuation other than ``-`` and ``_`` dropped; each space a ``-``; a repeated
heading gets ``-1``, ``-2``...). Links in code spans and fenced blocks are text, not links."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets or code
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]*)\"", re.I)
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def _prose(text: str, blank_code: bool = True) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1, with code spans blanked."""
    out, fence = [], ""
    for number, line in enumerate(text.splitlines(), 1):
        found = FENCE.match(line)
        if fence:
            if found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence):
                fence = ""
            continue
        if found:
            fence = found.group(1)
            continue
        out.append((number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
                     if blank_code else line))
    return out


def slug(heading: str) -> str:
    """GitHub's id for a heading's text (before de-duplication)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading id of a Markdown text, repeated headings numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    out = set()
    for _, line in _prose(text, blank_code=False):  # a heading's code span is part of its id
        found = HEADING.match(line)
        if not found:
            continue
        base = slug(found.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


@functools.cache
def _anchors_of(file: Path) -> set[str]:
    return anchors(file.read_text(encoding="utf-8"))


def links(text: str) -> list[tuple[int, str]]:
    """(line, target) of every link and image of a Markdown text."""
    out = []
    for number, line in _prose(text):
        out += [(number, m.group(1)) for m in INLINE.finditer(line)]
        out += [(number, m.group(1)) for m in HTML.finditer(line)]
    return out


def broken(page: Path, root: Path = REPO) -> list[str]:
    """What is wrong with the relative links of ``page``: a missing file, or an anchor that no
    heading of its Markdown target has."""
    bad = []
    for number, target in links(page.read_text(encoding="utf-8")):
        if not target or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("//"):
            continue  # an absolute URL (https:, mailto:): not ours to check
        path_part, _, fragment = target.partition("#")
        file = (page.parent / unquote(path_part)).resolve() if path_part else page
        where = f"{page.relative_to(root)}:{number}: {target}"
        if not file.exists():
            bad.append(f"{where}: no such file")
        elif fragment and file.suffix == ".md" and unquote(fragment) not in _anchors_of(file):
            bad.append(f"{where}: no heading #{fragment} in {file.relative_to(root)}")
        elif path_part and not file.is_relative_to(root):
            bad.append(f"{where}: outside the repository")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    assert broken(page) == []


def test_every_docs_page_is_reachable_from_the_readme() -> None:
    readme = {(REPO / t.partition("#")[0]).resolve()
              for _, t in links((REPO / "README.md").read_text(encoding="utf-8"))}
    assert [p.name for p in PAGES[1:] if p.resolve() not in readme] == []


def test_every_image_in_docs_img_is_shown() -> None:
    shown = {(page.parent / t).resolve() for page in PAGES
             for _, t in links(page.read_text(encoding="utf-8"))}
    assert [p.name for p in sorted((REPO / "docs" / "img").iterdir())
            if p.resolve() not in shown] == []


def test_slugs_follow_githubs_rules() -> None:
    assert slug("Server, JSON API, static export") == "server-json-api-static-export"
    assert slug("RFC 3986 (strict) — `rfc3986`") == "rfc-3986-strict--rfc3986"
    assert slug("The result model (version 1)") == "the-result-model-version-1"
    assert slug("Fourth round: the server's answer over a WebSocket") == (
        "fourth-round-the-servers-answer-over-a-websocket")
    assert slug("Getter_mapping [docs](x.md)") == "getter_mapping-docs"
    assert anchors("# A\n## A\n```\n# B\n```\n### A\n") == {"a", "a-1", "a-2"}


def test_the_checker_sees_what_is_broken(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Title\n\n## Some part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[ok](other.md#some-part) [self](#page) [web](https://example.com/x)\n"
        "`[in code](gone.md)`\n```\n[in a block](gone.md)\n```\n"
        "[missing](gone.md) ![img](img/none.png) [bad anchor](other.md#nope) [own](#nothing)\n"
        '<img src="nowhere.png" alt="">\n', encoding="utf-8")
    assert broken(page, root=tmp_path) == [
        "page.md:8: gone.md: no such file",
        "page.md:8: img/none.png: no such file",
        "page.md:8: other.md#nope: no heading #nope in other.md",
        "page.md:8: #nothing: no heading #nothing in page.md",
        "page.md:9: nowhere.png: no such file",
    ]
