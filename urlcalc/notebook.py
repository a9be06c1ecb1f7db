"""The result model in Jupyter: rich HTML and JSON without any JavaScript in the notebook.

    >>> from urlcalc import notebook
    >>> notebook.parse("HTTP://EXAMPLE.com:80/a/../b", trace=True)   # the last line of a cell
    >>> notebook.set("https://a.com/x", [("username", "bob"), ("protocol", "mailto")])
    >>> notebook.compare("http:\\\\example.com\\a\\..\\b")

Each returns a ``Result``: the model dict of ``urlcalc.model.results`` (or
``urlcalc.editions.view``) as the API and the page receive it (``result.model``;
``result["getters"]`` reads it too), with

- ``_repr_html_``: the href coloured by component (the page's colours, from its stylesheet),
  the components table (getters and the URL record), the valid-URL-string verdict, the
  validation errors linked to the standard, and the trace as a collapsible ``<details>`` list;
  for set, each operation's changes; for compare, the editions side by side. Every string from
  a URL is HTML-escaped, and invisible or bidi-control code points are shown as ⟨U+XXXX⟩, as on
  the page;
- ``_repr_json_``: the model itself, for JSON-aware front ends.

``Result(model)`` wraps any model dict (e.g. one read back from the JSON API).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any

from urlcalc.model import results as _model

__all__ = ["Result", "compare", "host", "parse", "set", "validate"]

# Strings longer than this (in code points) are shown in part in a notebook (a 64 KiB input
# would make a page-long cell); the model keeps them whole.
MAX_SHOWN = 2000

# Code points that must not be displayed raw, as web/js/render/dom.js's INVISIBLE (a test reads
# that file and checks that both say the same): controls, format characters (bidi controls,
# zero-width joiners, BOM...), separators other than U+0020, surrogates, private use,
# unassigned, and a few blank-looking letters and variation selectors.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Zs", "Cs", "Co", "Cn"})
INVISIBLE_RANGES = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
                    (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0),
                    (0xE0100, 0xE01EF))

try:  # the same Unicode tables as the parser (urlcalc.standard.uts46)
    import unicodedata2 as _ucd
except ImportError:  # pragma: no cover - Pyodide
    import unicodedata as _ucd


def _invisible(ch: str) -> bool:
    if ch == " ":
        return False
    cp = ord(ch)
    if any(lo <= cp <= hi for lo, hi in INVISIBLE_RANGES):
        return True
    return bool(_ucd.category(ch) in INVISIBLE_CATEGORIES)


def text(value: object, limit: int = MAX_SHOWN) -> str:
    """A value as escaped HTML text: strings with invisible code points as ⟨U+XXXX⟩ badges,
    cut after ``limit`` code points; None as "null" (in italics)."""
    if value is None:
        return "<i>null</i>"
    s = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    out: list[str] = []
    run: list[str] = []
    for n, ch in enumerate(s):
        if n == limit:
            run.append(f"… ({len(s) - limit:,} more code points not shown)")
            break
        if _invisible(ch):
            out.append(html.escape("".join(run)))
            run = []
            out.append(f'<span title="shown escaped" style="{_BADGE}">⟨U+{ord(ch):04X}⟩</span>')
        else:
            run.append(ch)
    out.append(html.escape("".join(run)))
    return "".join(out)


def _code(value: object) -> str:
    """A string as a code span; "" shown as (empty), None as null."""
    if value == "":
        return '<i style="opacity:.7">(empty)</i>'
    return f"<code>{text(value)}</code>"


# --- colours: the page's own (web/css/app.css), so that a notebook and the page agree ---------

_BADGE = "border:1px solid currentColor;border-radius:3px;padding:0 2px;font-size:85%"
_COLOUR_VAR = re.compile(r"--k-([a-z]+):\s*(#[0-9a-fA-F]{3,8})\s*;")


@cache
def palette() -> dict[str, str]:
    """Component -> text colour, read from the page's stylesheet (its first, light-theme
    definitions); empty when the stylesheet cannot be found (then the href is not coloured,
    and each piece still names its component in its title)."""
    try:
        from urlcalc.site.files import locate

        css = (locate().web / "css" / "app.css").read_text(encoding="utf-8")
    except (OSError, ImportError):
        return {}
    colours: dict[str, str] = {}
    for name, value in _COLOUR_VAR.findall(css):
        colours.setdefault(name, value)
    return colours


def _href(pieces: Sequence[dict[str, Any]]) -> str:
    colours = palette()
    out = []
    for piece in pieces:
        component = str(piece.get("component", ""))
        colour = colours.get(component)
        style = f' style="color:{colour}"' if colour and component != "delimiter" else ""
        out.append(f'<span title="{html.escape(component)}"{style}>{text(piece.get("text"))}'
                   "</span>")
    return f'<code style="font-size:115%">{"".join(out)}</code>'


# --- pieces ----------------------------------------------------------------------------------

def _table(rows: Sequence[tuple[str, str]], head: tuple[str, str] | None = None) -> str:
    th = f"<thead><tr><th>{head[0]}</th><th>{head[1]}</th></tr></thead>" if head else ""
    body = "".join(f'<tr><th style="text-align:left">{k}</th>'
                   f'<td style="text-align:left">{v}</td></tr>' for k, v in rows)
    return f"<table>{th}<tbody>{body}</tbody></table>"


def _spec_link(url: object, label: str) -> str:
    if isinstance(url, str) and url.startswith("https://url.spec.whatwg.org/#"):
        return f'<a href="{html.escape(url)}" target="_blank" rel="noopener">{label}</a>'
    return label


def _errors(errors: Sequence[dict[str, Any]], total: int | None = None) -> str:
    if not errors:
        return "<p>Validation errors: none</p>"
    items = []
    for e in errors:
        name = _spec_link(e.get("url"), text(e.get("name")))
        where = "" if e.get("index") is None else f" at index {text(e['index'])}"
        cited = e.get("algorithm") or e.get("state")
        step = f", step {text(e['step'])}" if e.get("step") else ""
        state = f" ({text(cited)}{step})" if cited else ""
        detail = f" [{text(e['detail'])}]" if e.get("detail") else ""
        items.append(f"<li><b>{name}</b>{where}{state}{detail}: {text(e.get('description'))}"
                     "</li>")
    more = ""
    if total is not None and total > len(errors):
        more = f"<li>… {total - len(errors):,} more</li>"
    return f"<p>Validation errors ({total or len(errors)}):</p><ul>{''.join(items)}{more}</ul>"


def _trace(trace: dict[str, Any] | None, title: str = "Trace") -> str:
    if not trace:
        return ""
    steps = trace.get("steps") or []
    items = []
    for s in steps:
        indent = f' style="margin-left:{1.5 * int(s.get("depth", 0) or 0)}em"' \
            if s.get("depth") else ""
        label = f"<b>{_spec_link(_anchor(s.get('anchor')), text(s.get('state')))}</b>" \
            f" step {text(s.get('step'))}"
        parts = [label]
        if s.get("parser") == "url":
            c = "EOF" if s.get("c") is None else _code(s.get("c"))
            parts.append(f"pointer {text(s.get('pointer'))}, c {c}, "
                         f"buffer {_code(s.get('buffer'))}")
            changes = s.get("changes") or {}
            if changes:
                parts.append(", ".join(f"{text(k)} = {_code(v)}" for k, v in changes.items()))
            if s.get("errors"):
                parts.append("errors: " + ", ".join(text(e) for e in s["errors"]))
        if s.get("note"):
            parts.append(text(s["note"]))
        items.append(f"<li{indent}>{' · '.join(parts)}</li>")
    dropped = ""
    if trace.get("truncated"):
        dropped = f"<p>… {text(trace.get('dropped'))} more steps not recorded</p>"
    return (f"<details><summary>{title}: {len(steps):,} steps</summary>"
            f'<ol start="0">{"".join(items)}</ol>{dropped}</details>')


def _anchor(anchor: object) -> str | None:
    if isinstance(anchor, str) and re.fullmatch(r"[A-Za-z0-9-]+", anchor):
        return "https://url.spec.whatwg.org/#" + anchor
    return None


def _record_rows(record: dict[str, Any]) -> list[tuple[str, str]]:
    host = record.get("host")
    path = record.get("path")
    return [
        ("scheme", _code(record.get("scheme"))),
        ("username", _code(record.get("username"))),
        ("password", _code(record.get("password"))),
        ("host", "<i>null</i>" if host is None
         else f"{_code(host.get('serialized'))} ({text(host.get('kind'))})"),
        ("port", "<i>null</i>" if record.get("port") is None else text(record.get("port"))),
        ("path", f"{_code(path)} (opaque)" if record.get("opaque_path")
         else "[" + ", ".join(_code(p) for p in (path or [])) + "] (list)"),
        ("query", _code(record.get("query"))),
        ("fragment", _code(record.get("fragment"))),
    ]


def _getter_rows(getters: dict[str, Any]) -> list[tuple[str, str]]:
    return [(text(k), _code(v)) for k, v in getters.items()]


def _wrap(title: str, body: str) -> str:
    return (f'<div class="urlcalc-result"><p><b>urlcalc</b> · {title}</p>{body}</div>')


def _inputs(m: dict[str, Any]) -> str:
    base = f" against base {_code(m.get('base'))}" if m.get("base") is not None else ""
    return f"input {_code(m.get('input'))}{base}"


def _failure(failure: dict[str, Any] | str | None) -> str:
    if not failure:
        return "<p><b>Failure</b></p>"
    if not isinstance(failure, dict):  # compare's current_failure: a sentence
        return f"<p><b>Failure</b>: {text(failure)}</p>"
    error = failure.get("error")
    where = " (in the base)" if failure.get("in") == "base" else ""
    if error:
        name = _spec_link(error.get("url"), text(error.get("name")))
        return (f"<p><b>Failure{where}</b>: {name} at index {text(error.get('index'))} in the "
                f"{text(error.get('state'))}: {text(error.get('description'))}</p>")
    return f"<p><b>Failure{where}</b>: {text(failure.get('reason'))}</p>"


# --- one renderer per kind ----------------------------------------------------------------------

def _render_parse(m: dict[str, Any]) -> str:
    parts = []
    if m.get("ok"):
        parts.append(f"<p>href {_href(m.get('href_spans') or [])}</p>")
        valid = m.get("valid")
        if valid:
            verdict = "yes" if valid.get("valid") else (
                f"no ({text(valid.get('production'))} at index {text(valid.get('index'))}: "
                f"{text(valid.get('reason'))})")
            parts.append(f"<p>Valid URL string: {verdict}</p>")
        if m.get("getters"):
            parts.append(_table(_getter_rows(m["getters"]), ("getter", "value")))
        if m.get("record"):
            parts.append("<details><summary>URL record</summary>"
                         f"{_table(_record_rows(m['record']))}</details>")
    else:
        parts.append(_failure(m.get("failure")))
    if "validation_errors" in m:
        parts.append(_errors(m.get("validation_errors") or [], m.get("validation_errors_total")))
    parts.append(_trace(m.get("trace")))
    return _wrap(f"{text(m.get('kind'))}: {_inputs(m)}", "".join(parts))


def _render_set(m: dict[str, Any]) -> str:
    if not m.get("ok"):
        return _wrap(f"set: {_inputs(m)}", _failure(m.get("failure")))
    ops = []
    for op in m.get("operations") or []:
        changed = op.get("changed") or []
        rows = [(text(f), f"{_code((op.get('before') or {}).get(f))} → "
                          f"{_code((op.get('after') or {}).get(f))}") for f in changed]
        body = _table(rows, ("field", "before → after")) if rows else ""
        reason = f"<p>{'unchanged: ' if not changed else ''}{text(op.get('reason'))}</p>" \
            if op.get("reason") else ""
        threw = f"<p><b>throws</b> {text(op.get('threw'))}</p>" if op.get("threw") else ""
        errors = _errors(op.get("validation_errors") or []) if op.get("validation_errors") \
            else ""
        ops.append(f"<li><b>{text(op.get('op'))}</b> = {_code(op.get('value'))}{threw}{body}"
                   f"{reason}{errors}{_trace(op.get('trace'))}</li>")
    result = _table(_getter_rows(m.get("getters") or {}), ("getter", "result"))
    return _wrap(f"set: {_inputs(m)}", f"<ol>{''.join(ops)}</ol>{result}")


def _render_compare(m: dict[str, Any]) -> str:
    editions = m.get("editions") or []
    head = "".join(f'<th title="{html.escape(str(e.get("source", "")))}">'
                   f"{text(e.get('name') or e.get('id'))}</th>" for e in editions)
    rows = []
    for row in m.get("rows") or []:
        values = row.get("values") or {}
        differs = row.get("differs") or {}
        status = row.get("status") or {}
        cells = [f"<td>{_code(values.get('current'))}</td>"]
        for e in editions:
            key = e.get("id") or e.get("edition")
            mark = ' style="background:#fff1b8"' if differs.get(key) else ""
            value = "<i>failure</i>" if status.get(key) == "failure" else _code(values.get(key))
            cells.append(f"<td{mark}>{value}</td>")
        rows.append(f"<tr><th>{text(row.get('getter'))}</th>{''.join(cells)}</tr>")
    table = (f"<table><thead><tr><th></th><th>URL Standard (now)</th>{head}</tr></thead>"
             f"<tbody>{''.join(rows)}</tbody></table>")
    differences = "".join(
        f"<li><b>{text(d.get('edition'))}</b> {text(d.get('getter'))}: {text(d.get('rule'))} "
        f"({text(d.get('section'))}): {text(d.get('text'))}</li>"
        for d in m.get("differences") or [])
    notes = f"<details><summary>Why they differ</summary><ul>{differences}</ul></details>" \
        if differences else ""
    current = _failure(m["current_failure"]) if m.get("current_failure") else ""
    return _wrap(f"compare: {_inputs(m)}", f"{current}{table}{notes}")


def _render_host(m: dict[str, Any]) -> str:
    parts = []
    for key, title in (("domain", "as a special URL's host"), ("opaque", "as an opaque host")):
        entry = m.get(key) or {}
        if entry.get("ok"):
            rows = [("kind", text(entry.get("kind"))),
                    ("serialized", _code(entry.get("serialized")))]
            if entry.get("unicode") is not None:
                rows.append(("unicode", _code(entry.get("unicode"))))
            body = _table(rows)
        else:
            body = f"<p><b>Failure</b>: {text(entry.get('failure'))}</p>"
        parts.append(f"<h4>{title}</h4>{body}{_errors(entry.get('validation_errors') or [])}"
                     f"{_trace(entry.get('trace'))}")
    return _wrap(f"host: input {_code(m.get('input'))}", "".join(parts))


def _render_other(m: dict[str, Any]) -> str:
    return _wrap(text(m.get("kind")),
                 f"<pre>{text(json.dumps(m, ensure_ascii=False, indent=1), 20_000)}</pre>")


_RENDERERS = {"parse": _render_parse, "validate": _render_parse, "set": _render_set,
              "compare": _render_compare, "host": _render_host}


class Result:
    """A result model with Jupyter reprs. ``model``: the dict the API and the page receive."""

    def __init__(self, model: Mapping[str, object]) -> None:
        if not isinstance(model, dict) or model.get("model") != "urlcalc":
            raise TypeError("Result wraps a urlcalc result model (a dict with model: 'urlcalc')")
        self.model: dict[str, Any] = model

    @property
    def kind(self) -> str:
        return str(self.model.get("kind"))

    def __getitem__(self, key: str) -> Any:
        return self.model[key]

    def __contains__(self, key: object) -> bool:
        return key in self.model

    def __iter__(self) -> Iterator[str]:
        return iter(self.model)

    def get(self, key: str, default: Any = None) -> Any:
        return self.model.get(key, default)

    def __repr__(self) -> str:
        m = self.model
        if self.kind in ("parse", "validate"):
            outcome = (m.get("getters") or {}).get("href") if m.get("ok") else "failure"
            return f"<urlcalc {self.kind} {m.get('input')!r} -> {outcome!r}>"
        return f"<urlcalc {self.kind} {m.get('input')!r}>"

    def _repr_html_(self) -> str:
        return _RENDERERS.get(self.kind, _render_other)(self.model)

    def _repr_json_(self) -> dict[str, Any]:
        return self.model


def parse(input: str, base: str | None = None, encoding: str | None = None,
          trace: bool = False) -> Result:
    """``urlcalc.model.results.parse_model`` as a Result."""
    return Result(_model.parse_model(input, base, encoding, trace=trace))


def set(input: str, ops: Sequence[tuple[str, str]], base: str | None = None,
        trace: bool = False) -> Result:
    """``urlcalc.model.results.set_model``: parse, then apply setters (``[(setter, value),
    ...]``)."""
    return Result(_model.set_model(input, [(op, value) for op, value in ops], base,
                                   trace=trace))


def validate(input: str, base: str | None = None) -> Result:
    """``urlcalc.model.results.validate_model`` as a Result."""
    return Result(_model.validate_model(input, base))


def host(input: str, trace: bool = False) -> Result:
    """``urlcalc.model.results.host_model`` as a Result."""
    return Result(_model.host_model(input, trace=trace))


def compare(input: str, base: str | None = None, errata: bool = False) -> Result:
    """``urlcalc.editions.view.compare_model``: the input read by six older specifications."""
    from urlcalc.editions.view import compare_model

    return Result(compare_model(input, base, errata=errata))
