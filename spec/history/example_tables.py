"""The example tables of every version of url.bs, for ``tests/data/history/example_tables.json``.

    python spec/history/example_tables.py [--repo DIR | --bundle BUNDLE] [--check]

The URL Standard's history comes from the bundle (cloned to a temporary directory; default
``../shared/spec/whatwg-url-history.bundle`` next to the checkout, else
``/work/shared/spec/whatwg-url-history.bundle``) or from an existing clone (``--repo``). url.bs is
read at every commit of ``urlcalc/history/data/commits.json`` (main, oldest first); from each,
the tables that give an input and its result:

* ``special-schemes``: the special schemes and their default ports (URL miscellaneous; gopher
  until 2019);
* ``port-leading-zeros``: the port state's table of leading zeros removed (until 2015-08-14);
* ``dot-segments``: the path state's table of %2e buffers (until 2015-08-16);
* ``url-parsing``: the URL parsing examples (input, base, valid, output or failure; 2016 on);
* ``url-components``: how a URL string maps to a URL's components (2020 on);
* ``percent-encode``: the percent-encode and percent-decode operations (2020 on);
* ``host-parsing``: the host parser's examples (input, output for a special URL and for an
  opaque host; 2021 on);
* ``windows-drive-letter``: "starts with a Windows drive letter" (2017 on);
* ``validation-errors``: each validation error's examples (input, base) and its failure column
  (2023 on).

Tables without an input and a result urlcalc computes are left out: the scheme/host combinations
note, and the public suffix and registrable domain examples (urlcalc has no Public Suffix List).

A table's *version* is its rows; versions are named ``KIND@SHA7`` after the first commit whose
url.bs holds them. For every normative commit of url.bs since 2015-01-01 the file lists the
versions its url.bs holds (``commits``), so a test can run each under the variant set just after
that commit.

Standard library only. ``--check`` writes nothing and fails when the file would change. The
rows are excerpts of url.bs (CC BY 4.0, WHATWG): the licence note travels in the file.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "tests" / "data" / "history" / "example_tables.json"
COMMITS = ROOT / "urlcalc" / "history" / "data" / "commits.json"
BUNDLES = (ROOT.parent / "shared" / "spec" / "whatwg-url-history.bundle",
           Path("/work/shared/spec/whatwg-url-history.bundle"))
SINCE = "2015-01-01"
LICENCE = ("url.bs is the source of the WHATWG URL Standard (https://url.spec.whatwg.org/), "
           "Copyright (c) WHATWG (Apple, Google, Mozilla, Microsoft), licensed under the "
           "Creative Commons Attribution 4.0 International License "
           "(https://creativecommons.org/licenses/by/4.0/). The table rows below are excerpts "
           "of url.bs at the commits of its history (https://github.com/whatwg/url) named by "
           "their sha, with the markup stripped; the selection and the field names are "
           "urlcalc's.")

Row = dict[str, Any]


class _Grid(HTMLParser):
    """A table's cells as text, row by row (rowspan and colspan not yet spread)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, int, int]]] = []
        self._cell: list[str] | None = None
        self._span = (1, 1)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "tr":
            self.close_cell()
            self.rows.append([])
        elif tag in ("td", "th"):
            self.close_cell()
            self._cell = []
            self._span = (int(a.get("rowspan") or 1), int(a.get("colspan") or 1))
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th", "tr", "table"):
            self.close_cell()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def close_cell(self) -> None:
        if self._cell is not None and self.rows:
            self.rows[-1].append(("".join(self._cell), *self._span))
        self._cell = None


def grid(table: str) -> list[list[str]]:
    """The table's rows, each a list of its cells' texts, with rowspan and colspan spread."""
    g = _Grid()
    g.feed(table)
    g.close_cell()
    out: list[list[str]] = []
    pending: dict[int, tuple[str, int]] = {}
    for cells in g.rows:
        row: list[str] = []
        col = 0
        todo = list(cells)
        while todo or any(c >= col for c in pending):
            if col in pending:
                text, left = pending.pop(col)
                if left > 1:
                    pending[col] = (text, left - 1)
                row.append(text)
                col += 1
                continue
            if not todo:
                break
            text, rowspan, colspan = todo.pop(0)
            for _ in range(colspan):
                row.append(text)
                if rowspan > 1:
                    pending[col] = (text, rowspan - 1)
                col += 1
        out.append([clean(c) for c in row])
    return out


def clean(text: str) -> str:
    """A cell's text: whitespace runs of the markup collapsed, Bikeshed's ``\\[`` unescaped."""
    return re.sub(r"\s+", " ", text).strip().replace("\\[", "[")


def unquote(text: str) -> str:
    """``"x"`` -> ``x`` (url.bs quotes strings in tables)."""
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    return text


def _value(text: str) -> Any:
    """A URL component cell: null, the empty string, a number, a string or a « list »."""
    if text == "null":
        return None
    if text == "the empty string":
        return ""
    if text.isdigit():
        return int(text)
    if text.startswith("«") and text.endswith("»"):
        inner = text[1:-1].strip()
        if inner == "the empty string":
            return [""]
        return [_value(item.strip()) for item in re.findall(r'"[^"]*"|the empty string', inner)]
    return unquote(text)


def _host_cell(text: str) -> dict[str, str] | None:
    if text == "Failure":
        return None
    m = re.fullmatch(r"(.*) \((domain|opaque host|IPv4|IPv6)\)", text)
    if not m:
        raise ValueError(f"a host parsing cell of no known form: {text!r}")
    return {"host": m.group(1), "kind": m.group(2)}


def special_schemes(rows: list[list[str]]) -> list[Row]:
    return [{"scheme": unquote(r[0]),
             "port": int(unquote(r[1])) if unquote(r[1]).isdigit() else None}
            for r in rows[1:]]


def port_leading_zeros(rows: list[list[str]]) -> list[Row]:
    return [{"input": unquote(r[0]), "output": unquote(r[1])} for r in rows[1:]]


def dot_segments(rows: list[list[str]]) -> list[Row]:
    return [{"input": unquote(r[0]), "output": unquote(r[1])} for r in rows]


def url_parsing(rows: list[list[str]]) -> list[Row]:
    head = rows[0]
    out: list[Row] = []
    for r in rows[1:]:
        cell = dict(zip(head, r, strict=True))
        valid = cell.get("Valid")
        out.append({"input": cell["Input"], "base": cell["Base"] or None,
                    "valid": None if valid is None else valid.startswith("✅"),
                    "output": None if cell["Output"] == "Failure" else cell["Output"]})
    return out


def url_components(rows: list[list[str]]) -> list[Row]:
    head = [h.split(" ")[0].lower() for h in rows[0]]
    out: list[Row] = []
    for r in rows[1:]:
        cell = dict(zip(head, r, strict=True))
        row: Row = {"input": cell["input"]}
        for name in ("scheme", "host", "port", "path", "query", "fragment"):
            row[name] = _value(cell[name])
        if "cannot-be-a-base-url" in cell:
            row["cannot-be-a-base-URL"] = cell["cannot-be-a-base-url"] in ("set", "true")
        out.append(row)
    return out


def percent_encode(rows: list[list[str]]) -> list[Row]:
    return [{"operation": r[0], "input": r[1], "output": r[2]} for r in rows[1:]]


def host_parsing(rows: list[list[str]]) -> list[Row]:
    head = rows[0]
    out: list[Row] = []
    for r in rows[1:]:
        row: Row = {"input": r[0]}
        for h, c in zip(head[1:], r[1:], strict=True):
            opaque = h.endswith("= true)")
            row["opaque" if opaque else "special"] = _host_cell(c)
        out.append(row)
    return out


def windows_drive_letter(rows: list[list[str]]) -> list[Row]:
    return [{"input": unquote(r[0]), "starts": r[1] == "✅"} for r in rows[1:]]


_CODE_EXAMPLE = re.compile(r'"<code>(.*?)</code>"', re.S)
_JS_EXAMPLE = re.compile(r'new URL\("((?:[^"\\]|\\.)*)"(?:, "((?:[^"\\]|\\.)*)")?\)')


def _code_text(fragment: str) -> str:
    return html.unescape(re.sub(r"<br>", "\n", fragment)).replace("\\[", "[")


def validation_errors(table: str) -> list[Row]:
    """Each example of each validation error: the error, the input, the base, and whether the
    table says the error is a failure (true, false, or null for "only if ...")."""
    out: list[Row] = []
    for tr in re.split(r"<tr>", table)[1:]:
        name = re.search(r"<dfn[^>]*>(.*?)</dfn>", tr, re.S)
        if not name:
            continue
        cells = re.split(r"<td\b", tr)
        last = cells[-1]
        text = clean(re.sub(r"<[^>]+>", " ", last.split(">", 1)[1]))
        failure: bool | None = {"Yes": True, "·": False}.get(text)
        for desc in cells[2:-1]:
            # "<code>x</code>" in the description (not the quoted names of the prose) and the
            # JavaScript examples' new URL(input[, base])
            for m in _CODE_EXAMPLE.finditer(desc):
                value = _code_text(m.group(1))
                if "://" in value or value.startswith(("file:", "https:")):
                    out.append({"error": clean(name.group(1)), "input": value, "base": None,
                                "failure": failure})
            for m in _JS_EXAMPLE.finditer(desc):
                out.append({"error": clean(name.group(1)), "input": _code_text(m.group(1)),
                            "base": _code_text(m.group(2)) if m.group(2) else None,
                            "failure": failure})
    return out


def tables(source: str) -> dict[str, list[Row]]:
    """The example tables of one version of url.bs, by kind."""
    found: dict[str, list[Row]] = {}
    for m in re.finditer(r"<table\b.*?</table>", source, re.S):
        table = m.group(0)
        before = source[max(0, m.start() - 600):m.start()]
        rows = grid(table)
        if not rows or not rows[0]:
            continue
        head = " | ".join(rows[0])
        kind: str | None = None
        parsed: list[Row] = []
        if head in ("scheme | port", "Special scheme | Default port"):
            kind, parsed = "special-schemes", special_schemes(rows)
        elif head == "Input | Output" and "Remove leading U+0030" in before:
            kind, parsed = "port-leading-zeros", port_leading_zeros(rows)
        elif unquote(rows[0][0]) == "%2e":
            kind, parsed = "dot-segments", dot_segments(rows)
        elif head.startswith("Input | Base"):
            kind, parsed = "url-parsing", url_parsing(rows)
        elif head.startswith("Input | Scheme | Host"):
            kind, parsed = "url-components", url_components(rows)
        elif head.startswith("Operation | "):
            kind, parsed = "percent-encode", percent_encode(rows)
        elif head.startswith("Input | Output") and "example-host-parsing" in before:
            kind, parsed = "host-parsing", host_parsing(rows)
        elif head.startswith("String | Starts with a Windows drive letter"):
            kind, parsed = "windows-drive-letter", windows_drive_letter(rows)
        elif head.startswith("Error type | "):
            kind, parsed = "validation-errors", validation_errors(table)
        if kind is not None:
            if kind in found:
                raise ValueError(f"two {kind} tables in one url.bs")
            found[kind] = parsed
    return found


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout


def build(repo: Path) -> dict[str, Any]:
    commits = json.loads(COMMITS.read_text("utf-8"))["commits"]
    versions: dict[str, dict[str, Any]] = {}
    by_rows: dict[tuple[str, str], str] = {}
    listed: list[dict[str, Any]] = []
    for c in commits:
        found = tables(git(repo, "show", f"{c['commit']}:url.bs"))
        names: list[str] = []
        for kind, rows in found.items():
            key = (kind, json.dumps(rows, ensure_ascii=False, sort_keys=True))
            if key not in by_rows:
                name = f"{kind}@{c['commit'][:7]}"
                by_rows[key] = name
                versions[name] = {"kind": kind, "first": c["commit"],
                                  "committed": c["committed"], "rows": rows}
            names.append(by_rows[key])
        if c["class"] == "normative" and c["date"] >= SINCE and names:
            listed.append({"commit": c["commit"], "committed": c["committed"],
                           "title": c["title"], "tables": sorted(names)})
    used = {n for c in listed for n in c["tables"]}
    return {
        "licence": LICENCE,
        "source": "python spec/history/example_tables.py (from the url.bs history bundle)",
        "versions": {n: v for n, v in versions.items() if n in used},
        "commits": listed,
    }


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", type=Path, help="an existing clone of the URL Standard")
    ap.add_argument("--bundle", type=Path, help="the history bundle to clone")
    ap.add_argument("--check", action="store_true", help="fail when the file would change")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        repo = args.repo
        if repo is None:
            bundle = args.bundle or next((b for b in BUNDLES if b.exists()), None)
            if bundle is None:
                print("no history bundle: pass --bundle or --repo", file=sys.stderr)
                return 2
            repo = Path(tmp) / "url"
            subprocess.run(["git", "clone", "--quiet", str(bundle), str(repo)], check=True)
        text = render(build(repo))
    if args.check:
        if OUT.read_text("utf-8") != text:
            print(f"{OUT} is stale: run python spec/history/example_tables.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, "utf-8")
    data = json.loads(text)
    rows = sum(len(v["rows"]) for v in data["versions"].values())
    print(f"wrote {OUT}: {len(data['versions'])} table versions, {rows} rows, "
          f"{len(data['commits'])} normative commits since {SINCE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
