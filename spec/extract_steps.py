"""Extract the numbered steps of the algorithms urlcalc cites from url.bs.

    python spec/extract_steps.py [URL_BS] [OUT_JSON]

Writes ``urlcalc/data/url_steps.json``: for each algorithm (keyed by the name urlcalc's trace
uses, e.g. "scheme start state", "host parser", "port setter"), its anchor in the spec, its
introduction (the sentence that defines it) and its steps, numbered as url.bs numbers them:
``<ol>`` nesting gives "2.1.3"; ``<ul>`` items are not steps (their text belongs to the step that
holds them); notes, examples, comments and the state machine's ``<dl>`` (each state is an
algorithm of its own) are left out. Text is the spec's own words with the markup stripped:
``<var>x</var>`` reads ``x``, ``{{URL/href}}`` reads ``href``, ``[[UTS46]]`` reads ``[UTS46]``.

Standard library only: run it again whenever url.bs is updated (tests/test_spec_steps.py fails
when the shipped data and url.bs disagree).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
URL_BS = ROOT / "spec" / "url.bs"
OUT = ROOT / "urlcalc" / "data" / "url_steps.json"

# The algorithms urlcalc cites besides the basic URL parser's states (found by their <dt>):
# (name, a regular expression for where the definition starts, anchor).
ALGORITHMS: tuple[tuple[str, str, str], ...] = (
    ("basic URL parser", r"id=concept-basic-url-parser", "concept-basic-url-parser"),
    ("URL parser", r"id=concept-url-parser\b", "concept-url-parser"),
    ("API URL parser", r"<dfn>API URL parser</dfn>", "api-url-parser"),
    ("host parser", r"id=concept-host-parser\b", "concept-host-parser"),
    ("ends in a number checker", r"<dfn>ends in a number checker</dfn>",
     "ends-in-a-number-checker"),
    ("IPv4 parser", r"id=concept-ipv4-parser\b", "concept-ipv4-parser"),
    ("IPv4 number parser", r"<dfn>IPv4 number parser</dfn>", "ipv4-number-parser"),
    ("IPv6 parser", r"id=concept-ipv6-parser\b", "concept-ipv6-parser"),
    ("opaque-host parser", r"id=concept-opaque-host-parser\b", "concept-opaque-host-parser"),
    ("domain parser", r"id=concept-domain-to-ascii\b", "concept-domain-to-ascii"),
    ("domain parser ToASCII", r"<dfn>domain parser ToASCII</dfn>", "domain-parser-toascii"),
    ("domain to Unicode", r"id=concept-domain-to-unicode\b", "concept-domain-to-unicode"),
    ("host serializer", r"id=concept-host-serializer\b", "concept-host-serializer"),
    ("IPv4 serializer", r"id=concept-ipv4-serializer\b", "concept-ipv4-serializer"),
    ("IPv6 serializer", r"id=concept-ipv6-serializer\b", "concept-ipv6-serializer"),
    ("shorten a url's path", r"<dfn local-lt=shorten>", "shorten-a-urls-path"),
    ("percent-encode after encoding", r"<dfn for=string>percent-encode after encoding</dfn>",
     "string-percent-encode-after-encoding"),
    ("URL serializer", r"id=concept-url-serializer\b", "concept-url-serializer"),
    ("URL path serializer", r"lt=\"URL path serializer", "url-path-serializer"),
    ("set the username", r"id=set-the-username\b", "set-the-username"),
    ("set the password", r"id=set-the-password\b", "set-the-password"),
    *((f"{name} setter", f'<div algorithm="{name} setter">', f"dom-url-{name}")
      for name in ("href", "protocol", "username", "password", "host", "hostname", "port",
                   "pathname", "search", "hash")),
    ("URLSearchParams update", r"id=concept-urlsearchparams-update\b",
     "concept-urlsearchparams-update"),
    *((f"searchParams.{name}", rf"<code>{name}\(", f"dom-urlsearchparams-{name}")
      for name in ("append", "delete", "set", "sort")),
)

# Where a definition's region ends (the next algorithm, section or rule).
_REGION_END = re.compile(r"<div algorithm|<h[23]\b|<hr>")


class _Steps(HTMLParser):
    """Collects the introduction and the numbered steps of one algorithm's region."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.intro: list[str] = []
        self.steps: dict[str, list[str]] = {}
        self.stack: list[list[int]] = []   # open lists: [counter] for <ol>, [] for <ul>
        self.path: list[int] = []          # the current step's number
        self.skip: list[str] = []          # tags whose content is left out (notes, the <dl>)
        self.skip_p = False                # inside a <p class=note>, which closes implicitly
        self.done = False                  # the algorithm's top-level <ol> has closed

    def _target(self) -> list[str] | None:
        if self.done or self.skip or self.skip_p:
            return None
        if not self.stack:
            return self.intro
        return self.steps.setdefault(".".join(map(str, self.path)), [])

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        cls = dict(attrs).get("class") or ""
        if tag in ("p", "li", "ol", "ul", "div", "dl", "dt", "dd", "table", "pre"):
            self.skip_p = False
        if self.skip:
            if tag == self.skip[-1][0] and tag in ("div", "dl", "span", "pre", "table"):
                self.skip.append(tag)
            return
        if tag == "p" and "note" in cls.split():
            self.skip_p = True
            return
        if (tag in ("div", "span") and {"note", "example"} & set(cls.split())) or \
                (tag == "dl" and self.stack) or tag in ("pre", "table"):
            self.skip.append(tag)
            return
        target = self._target()
        if tag == "ol":
            self.stack.append([0])
        elif tag == "ul":
            self.stack.append([])
            if target is not None:
                target.append(" ")
        elif tag == "li" and self.stack:
            top = self.stack[-1]
            if top:  # a step
                top[0] += 1
                depth = sum(1 for s in self.stack if s)
                self.path = [*self.path[:depth - 1], top[0]]
            elif target is not None:  # an item of a <ul>: part of the step's text
                target.append(" • ")
        elif tag == "sup" and target is not None:
            target.append("^{")
        elif tag in ("p", "br") and target is not None:
            target.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.done:
            return
        if self.skip:
            if tag == self.skip[-1]:
                self.skip.pop()
            return
        if tag == "sup":
            target = self._target()
            if target is not None:
                target.append("}")
        if tag in ("ol", "ul") and self.stack:
            closed = self.stack.pop()
            if closed:
                depth = sum(1 for s in self.stack if s)
                self.path = self.path[:depth]
                if not self.stack:
                    self.done = True
            target = self._target()
            if target is not None:
                target.append(" ")

    def handle_data(self, data: str) -> None:
        target = self._target()
        if target is not None:
            target.append(data)


def _clean(parts: list[str]) -> str:
    text = "".join(parts)
    text = re.sub(r"\{\{(?:[^}/]*/)?([^}]*)\}\}", r"\1", text)   # {{URL/href}} -> href
    text = re.sub(r"\[\[!?([^\]]*)\]\]", r"[\1]", text)          # [[!UTS46]] -> [UTS46]
    text = re.sub(r"\|(\w+)\|", r"\1", text)                     # |a| -> a
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\^\{\s*\((.*?)\)\s*\}", r"^(\1)", text)
    text = re.sub(r"\^\{\s*(.*?)\s*\}", r"^(\1)", text)
    return re.sub(r" ([.,;:)])", r"\1", text).replace("( ", "(")


def _algorithm(source: str, start: int, end: int, anchor: str) -> dict[str, object]:
    parser = _Steps()
    parser.feed(source[start:end])
    parser.close()
    intro = _clean(parser.intro)
    return {"anchor": anchor, "intro": intro,
            "steps": {k: t for k, v in parser.steps.items() if k and (t := _clean(v))}}


def extract(source: str) -> dict[str, object]:
    algorithms: dict[str, object] = {}
    for name, marker, anchor in ALGORITHMS:
        m = re.search(marker, source)
        if m is None:
            raise SystemExit(f"url.bs: no definition of the {name} ({marker!r})")
        # The region starts at the paragraph holding the definition.
        start = source.rfind("<p", 0, m.start())
        if name.endswith(" setter"):
            start = m.end()
        end_m = _REGION_END.search(source, m.end())
        end = end_m.start() if end_m else len(source)
        algorithms[name] = _algorithm(source, start, end, anchor)
    # The states of the basic URL parser: each <dt><dfn ... id=ANCHOR>NAME</dfn> up to the next
    # <dd>'s end (the next <dt> that follows a <dd>, or the </dl>).
    dl_start = source.index('<dl class=switch>', source.index("id=concept-basic-url-parser"))
    dl_end = source.index("</dl>", dl_start)
    dts = list(re.finditer(r'<dt><dfn export for="basic URL parser" id=([a-z-]+)>([^<]+)</dfn>',
                           source[:dl_end]))
    dts = [m for m in dts if m.start() > dl_start]
    for i, m in enumerate(dts):
        dd = source.index("<dd>", m.end())
        nxt = next((d.start() for d in dts[i + 1:] if d.start() > dd), dl_end)
        state = _algorithm(source, dd, nxt, m.group(1))
        state["intro"] = ""
        algorithms[m.group(2)] = state
    return {
        "source": {
            "document": "URL Standard (url.bs)",
            "url": "https://url.spec.whatwg.org/",
            "sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
            "latest_review_draft": (re.search(r"Text Macro: LATESTRD (\S+)", source)
                                    or re.search("()", "")).group(1),
            "licence": "CC BY 4.0; Copyright WHATWG (Apple, Google, Mozilla, Microsoft)",
        },
        "algorithms": algorithms,
    }


def render(source: str) -> str:
    return json.dumps(extract(source), ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> None:
    src = Path(argv[1]) if len(argv) > 1 else URL_BS
    out = Path(argv[2]) if len(argv) > 2 else OUT
    out.write_text(render(src.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
