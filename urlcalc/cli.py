"""The ``urlcalc`` command: the result model as a readable table, or as JSON (``--json``)."""

from __future__ import annotations

import argparse
import codecs
import ipaddress
import json
import socket
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from urlcalc.model import results as model
from urlcalc.model.limits import ModelError
from urlcalc.site.files import PublicURLError
from urlcalc.standard import steps as spec
from urlcalc.survey.sources import FORMATS as SOURCE_FORMATS
from urlcalc.survey.sources import PARTITION_BYTES as SURVEY_PARTITION_BYTES


def _show(value: object) -> str:
    """A value as the table shows it: strings quoted (so "" and null differ), null as null."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def _table(rows: Sequence[tuple[str, object]], out: TextIO) -> None:
    width = max((len(k) for k, _ in rows), default=0)
    for key, value in rows:
        out.write(f"  {key.ljust(width)}  {_show(value)}\n")


def _errors(result: Mapping[str, Any], out: TextIO) -> None:
    errors = result.get("validation_errors") or []
    if errors:
        out.write("validation errors:\n")
        for e in errors:
            where = "" if e["index"] is None else f" at index {e['index']}"
            detail = f" [{e['detail']}]" if e.get("detail") else ""
            # the step that raised it (url.bs numbering), else the state it fired in
            at = spec.label(e["algorithm"], e.get("step")) if e.get("algorithm") else e["state"]
            out.write(f"  {e['name']}{where} ({at}){detail}: {e['description']}\n")


_FLAGS = (("at_sign_seen", "atSignSeen"), ("inside_brackets", "insideBrackets"),
          ("password_token_seen", "passwordTokenSeen"))


def _trace_line(s: dict[str, Any]) -> str:
    """One trace step as a line: algorithm and step (or why no step applies), then what the
    step saw and did. Any step kind prints: every key but ``state`` and ``step`` is optional."""
    algorithm = s.get("algorithm") or s.get("state") or s.get("parser", "?")
    step = s.get("step")
    ran = [r["step"] for r in s.get("ran") or []]
    head = f"{s.get('i', 0):>4} {algorithm}" + (
        f", steps {', '.join(ran)}" if len(ran) > 1 else
        f", step {step}" if step is not None else "")
    parts: list[str] = []
    if "c" in s:  # a state of the basic URL parser
        c = "EOF" if s["c"] is None else _show(s["c"])
        parts.append(f"pointer={s.get('pointer')} c={c} buffer={_show(s.get('buffer', ''))}")
        flags = s.get("flags") or {}
        if any(flags.values()):
            parts.append(" ".join(f"{name}={'true' if flags.get(key) else 'false'}"
                                  for key, name in _FLAGS))
    elif "input" in s:
        parts.append(f"input={_show(s['input'])}")
    changes = s.get("changes") or {}
    if changes:
        parts.append(", ".join(f"{k}={_show(v)}" for k, v in changes.items()))
    if s.get("errors"):
        parts.append("errors=" + ",".join(s["errors"]))
    if s.get("outcome"):
        parts.append(f"-> {s['outcome']}")
    line = head + (": " + " ".join(parts) if parts else "")
    if s.get("note"):
        line += f" ({s['note']})"
    return line


def _trace(trace: dict[str, Any] | None, out: TextIO, explain: bool = False) -> None:
    if not trace:
        return
    out.write("trace:\n")
    for s in trace["steps"]:
        indent = "  " * (1 + (s.get("depth") or 0))
        out.write(f"{indent}{_trace_line(s)}\n")
        if explain:
            algorithm = s.get("algorithm")
            if not algorithm:
                continue
            label = "UTS #46 (summary)" if algorithm.startswith("UTS #46") else \
                "url.bs today" if s.get("variants") else "url.bs"
            ran = s.get("ran") or ([{"step": s["step"]}] if s.get("step") else [])
            for r in ran:  # each step that ran, in the spec's words, with what it did
                words = spec.step_text(algorithm, r["step"])
                if not words:
                    continue
                did = [f"{k}={_show(v)}" for k, v in (r.get("changes") or {}).items()]
                did += [f"error {e}" for e in r.get("errors") or []]
                did += [f"calls the {r['calls']}"] if r.get("calls") else []
                did += [f"-> {r['outcome']}"] if r.get("outcome") else []
                tail = f" [{'; '.join(did)}]" if did else ""
                out.write(f"{indent}       {label} {r['step']}: {words}{tail}\n")
            for line in _variant_lines(s):
                out.write(f"{indent}       {line}\n")
    if trace["truncated"]:
        out.write(f"  ... {trace['dropped']} more steps not recorded\n")


def _variant_lines(s: Mapping[str, Any]) -> list[str]:
    """A step that ran with changes undone: per change, "as before <commit> (<date>, <title>)"
    and the words each touched step had then (urlcalc.history.cite), marked as not today's."""
    lines: list[str] = []
    for v in s.get("variants") or ():
        when = ", ".join(x for x in (v.get("date"), v.get("title")) if x)
        lines.append(f"as before {v['commit']}" + (f" ({when})" if when else "")
                     + f", undone here ({v['variant']}):")
        olds = v.get("before")
        if olds is None:
            lines += [f"  {w}" for w in v.get("where") or ()]
            continue
        for old in olds:
            if old["text"] is None:
                words = f"(no such step before this change: {v.get('summary', '')})"
            elif old["source"] == "variant":
                words = f"{old['text']} (urlcalc's summary)"
            else:
                words = old["text"]
            lines.append(f"  {old['where']}, then: {words}")
    return lines


def _cited(result: Any) -> Any:
    """``result`` with the citations of its steps under changes undone completed (the
    commit's date and title, the steps' words before it): urlcalc.history.cite."""
    from urlcalc.standard.variants import any_undone

    if any_undone():
        from urlcalc.history.cite import cite_answer

        cite_answer(result)
    return result


def _failure(result: Mapping[str, Any]) -> str:
    failure = result["failure"]
    error = failure.get("error")
    where = f" ({failure['in']})" if failure.get("in") == "base" else ""
    cause = failure.get("cause")
    at = f" at index {failure['index']}" if failure.get("index") is not None else ""
    if cause:
        line = f"failure{where}{at}: {failure['reason']}"
        if error:
            line += f" ({error['name']}: {error['description']})"
        raised = [name for name in failure.get("raised") or []
                  if not error or name != error["name"]]
        if raised:
            line += " Validation errors raised on the way: " + ", ".join(raised)
        return line
    if error:
        return (f"failure{where}: {error['name']} at index {error['index']} in the "
                f"{error['state']}: {error['description']}")
    return f"failure{where}: {failure.get('reason', '')}"


def _print_parse(result: Mapping[str, Any], out: TextIO, err: TextIO, explain: bool = False) -> int:
    _table([("input", result["input"]), ("base", result["base"])], out)
    if not result["ok"]:
        _errors(result, out)
        _trace(result.get("trace"), out, explain)
        err.write(_failure(result) + "\n")
        return 1
    out.write("getters:\n")
    _table(list(result["getters"].items()), out)
    rec = result["record"]
    host = rec["host"]
    out.write("record:\n")
    _table([("scheme", rec["scheme"]), ("username", rec["username"]),
            ("password", rec["password"]),
            ("host", None if host is None else f"{host['serialized']} ({host['kind']})"),
            ("port", rec["port"]),
            ("path", rec["path"]),
            ("path kind", "opaque" if rec["opaque_path"] else "list"),
            ("query", rec["query"]), ("fragment", rec["fragment"])], out)
    valid = result["valid"]
    out.write("valid URL string: " + ("yes" if valid["valid"] else
                                     f"no ({valid['production']} at index {valid['index']}: "
                                     f"{valid['reason']})") + "\n")
    _errors(result, out)
    _trace(result.get("trace"), out, explain)
    return 0


def _parse_ops(items: list[str]) -> list[tuple[str, str]]:
    if len(items) % 2:
        raise ModelError("setter operations come in pairs: SETTER VALUE [SETTER VALUE ...]")
    return [(items[i], items[i + 1]) for i in range(0, len(items), 2)]


def _print_set(result: Mapping[str, Any], out: TextIO, err: TextIO, explain: bool = False) -> int:
    if not result["ok"]:
        err.write(_failure(result) + "\n")
        return 1
    for op in result["operations"]:
        out.write(f"{op['op']} = {_show(op['value'])}\n")
        if op.get("summarised"):
            out.write("  (summarised: the answer reached its size budget; changed: "
                      + (", ".join(op["changed"]) or "nothing") + ")\n")
        elif op["changed"]:
            for field in op["changed"]:
                out.write(f"  {field}: {_show(op['before'][field])} -> "
                          f"{_show(op['after'][field])}\n")
        if op["reason"]:
            out.write(f"  unchanged: {op['reason']}\n" if not op["changed"]
                      else f"  ({op['reason']})\n")
        _errors(op, out)
        _trace(op.get("trace"), out, explain)
    out.write("result:\n")
    _table(list(result["getters"].items()), out)
    return 0


def _print_host(result: Mapping[str, Any], out: TextIO, err: TextIO, explain: bool = False) -> int:
    status = 0
    for key, title in (("domain", "as a special URL's host"), ("opaque", "as an opaque host")):
        entry = result[key]
        out.write(f"{title}:\n")
        if entry["ok"]:
            rows: list[tuple[str, object]] = [("kind", entry["kind"]),
                                              ("serialized", entry["serialized"])]
            if entry["unicode"] is not None:
                rows.append(("unicode", entry["unicode"]))
            _table(rows, out)
        else:
            out.write(f"  failure: {entry['failure']}\n")
            if key == "domain":
                status = 1
        _errors(entry, out)
        _trace(entry.get("trace"), out, explain)
    return status


def _json_escape(error: UnicodeError) -> tuple[str, int]:
    """A codec error handler: what the output encoding cannot write becomes a JSON escape
    (``\\u00fc``; a pair of them beyond U+FFFF), which reads the same in the table (whose values
    are JSON strings) and keeps ``--json`` output valid JSON."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    out = []
    for ch in error.object[error.start:error.end]:
        cp = ord(ch)
        if cp > 0xFFFF:
            cp -= 0x10000
            out.append(f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}")
        else:
            out.append(f"\\u{cp:04x}")
    return "".join(out), error.end


codecs.register_error("urlcalc-json-escape", _json_escape)


class _Escaping:
    """A text stream whose encoding cannot write every code point (``PYTHONIOENCODING=ascii``, a
    Latin-1 terminal): what it cannot write is written as JSON escapes instead of dying with
    UnicodeEncodeError; ``note`` says so once on the error stream."""

    def __init__(self, stream: TextIO, encoding: str, note: TextIO | None) -> None:
        self.stream = stream
        self.encoding = encoding
        self.note = note

    def write(self, text: str) -> int:
        try:
            text.encode(self.encoding)
        except UnicodeEncodeError:
            text = text.encode(self.encoding, "urlcalc-json-escape").decode(self.encoding)
            if self.note is not None:
                self.note.write(f"urlcalc: note: the output encoding ({self.encoding}) cannot "
                                "write every character: those are written as \\uXXXX "
                                "escapes\n")
                self.note = None
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def _escaping(stream: TextIO, note: TextIO | None) -> TextIO:
    """``stream`` itself when its encoding writes every code point (UTF-8, UTF-16, a StringIO),
    else an ``_Escaping`` wrapper around it."""
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return stream
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        return stream
    if name.startswith(("utf-", "utf_")):
        return stream
    return _Escaping(stream, name, note)  # type: ignore[return-value]


def _port(text: str) -> int:
    """argparse type of --port: an integer from 0 (any free port) to 65535."""
    try:
        port = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{port} is out of range: a port is 0 (any free port) to 65535")
    return port


def _listen_address(text: str) -> str:
    """argparse type of --host: an IP address, or a name this machine resolves."""
    host = text.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host:
        raise argparse.ArgumentTypeError("an empty host: give an address such as 127.0.0.1")
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    if all(part.isdigit() for part in host.split(".")):
        # looks like dotted decimal, but is not an IPv4 address (e.g. 256.1.1.1)
        raise argparse.ArgumentTypeError(f"{host!r} is not an IP address")
    try:
        socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise argparse.ArgumentTypeError(f"cannot resolve {host!r}: {e}") from None
    return host


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="urlcalc", description="A URL desk calculator: the URL "
                                 "Standard, step by step.")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("parse", help="parse a URL (against an optional base)")
    p.add_argument("input")
    p.add_argument("--base")
    p.add_argument("--encoding", help="encoding override for the query (a WHATWG label)")
    p.add_argument("--trace", action="store_true", help="show every step of the parser")
    p.add_argument("--explain", action="store_true",
                   help="with the trace, print the spec's words for each step (implies --trace)")
    p.add_argument("--json", action="store_true", help="print the result model as JSON")
    _standard_options(p)

    s = sub.add_parser("set", help="parse a URL, then apply setters in order")
    s.add_argument("input")
    s.add_argument("ops", nargs="+", metavar="SETTER VALUE",
                   help=f"pairs; setters: {', '.join(model.OPERATIONS)}")
    s.add_argument("--base")
    s.add_argument("--trace", action="store_true")
    s.add_argument("--explain", action="store_true", help="the spec's words for each step")
    s.add_argument("--json", action="store_true")
    _standard_options(s)

    h = sub.add_parser("host", help="run the host parser (domain, IPv4, IPv6, opaque)")
    h.add_argument("input")
    h.add_argument("--trace", action="store_true")
    h.add_argument("--explain", action="store_true", help="the spec's words for each step")
    h.add_argument("--json", action="store_true")
    _standard_options(h)

    v = sub.add_parser("validate", help="the valid-URL-string verdict and validation errors")
    v.add_argument("input")
    v.add_argument("--base")
    v.add_argument("--json", action="store_true")
    _standard_options(v)

    c = sub.add_parser("compare", help="the input read by six older URL specifications")
    c.add_argument("input")
    c.add_argument("--base")
    c.add_argument("--errata", action="store_true", help="read the seeds with their slips fixed")
    # (their own dests: the commands' --as-of/--without undo changes for the whole command)
    c.add_argument("--as-of", dest="columns_as_of", action="append", default=[],
                   metavar="YYYY-MM-DD", help="a column of the URL Standard on that day beside "
                   "the editions (repeatable, at most 3)")
    c.add_argument("--without", dest="columns_without", metavar="CHANGE",
                   help="a column of today's standard without one change (a variant's name or "
                   "its commit, 7+ hex digits)")
    c.add_argument("--json", action="store_true")

    im = sub.add_parser("implementations",
                        help="the input read by other URL implementations beside the standard")
    im.add_argument("input")
    im.add_argument("--base")
    im.add_argument("--json", action="store_true")

    hi = sub.add_parser("history", help="since when does the input mean what it means: the "
                        "changes of the URL Standard whose undoing alters its result")
    hi.add_argument("input")
    hi.add_argument("--base")
    hi.add_argument("--json", action="store_true")

    su = sub.add_parser("survey", help="the standard (and what it is compared with) over a "
                        "corpus of URLs: counts per bucket, with examples",
                        description="Survey a corpus: text (one URL a line), CSV/TSV, JSON "
                        "Lines or Parquet, gzip/zstd compressed, local or any fsspec URL; on a "
                        "local Dask cluster (one process per core) by default. See "
                        "docs/survey.md.")
    su.add_argument("source", nargs="+", help="a file, folder, glob or fsspec URL")
    su.add_argument("--base")
    su.add_argument("--column", help="CSV/TSV header, JSON Lines key or Parquet column of "
                    "the URLs (default: the first column; \"url\")")
    su.add_argument("--format", dest="source_format", choices=SOURCE_FORMATS,
                    help="the sources' format (default: by extension; text)")
    su.add_argument("--compare", default="", help="comma-separated: implementations, "
                    "editions, history")
    su.add_argument("--no-coverage", action="store_true",
                    help="do not count the state-machine steps taken (faster)")
    su.add_argument("--sample", type=int, default=1, metavar="N",
                    help="survey about one line in N (the same lines on every run)")
    su.add_argument("--out", metavar="REPORT", help="report.json, report.md or report.html "
                    "(default: Markdown on stdout)")
    su.add_argument("--cluster", metavar="ADDR", help="an existing Dask scheduler, "
                    "tcp://HOST:8786 (default: a local cluster)")
    su.add_argument("--workers", "--jobs", dest="workers", type=int, metavar="N",
                    help="local worker processes (default: one per core; 1: in this process)")
    su.add_argument("--resume", metavar="DIR", help="keep each finished partition's counts "
                    "in DIR; a re-run skips them")
    su.add_argument("--partition-size", type=int, default=SURVEY_PARTITION_BYTES,
                    metavar="BYTES", help="bytes per partition of an uncompressed line file")
    su.add_argument("--quiet", action="store_true", help="no progress line on stderr")

    sv = sub.add_parser("serve", help="serve the calculator page and the JSON API")
    sv.add_argument("--host", default="127.0.0.1", type=_listen_address,
                    help="the address to listen on (default 127.0.0.1; 0.0.0.0: every IPv4 "
                    "interface, for a classroom)")
    sv.add_argument("--port", type=_port, default=8000, help="0 to 65535 (0: any free port)")
    sv.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                    help="a name clients may use in the Host header, besides the address "
                    "listened on, localhost and IP addresses (repeatable; '*' allows any)")
    sv.add_argument("--dev", action="store_true", help="Flask's development server (reloads)")
    sv.add_argument("--public-url", metavar="URL",
                    help="where this server is reached by others (e.g. behind a proxy): "
                    "permalinks and copies link there; without it they carry no link")
    sv.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                    type=_trusted_proxy,
                    help="a reverse proxy's address or network (repeatable): on its connections "
                    "the client is the one its Forwarded or X-Forwarded-For header names (fair "
                    "shares of heavy work per student behind one proxy), and the per-address "
                    "connection cap does not apply to it",)

    ex = sub.add_parser("export-static", help="write the page as a static site (Pyodide only)",
                        description="Write the calculator as a static site for any static file "
                        "host (GitHub Pages, Netlify, an S3 bucket): the page, the Pyodide files, "
                        "the bundle, the licences, config.json and a _headers file.")
    ex.add_argument("dir")
    ex.add_argument("--public-url", metavar="URL",
                    help="where DIR will be published, e.g. https://example.github.io/urlcalc/: "
                    "permalinks, Copy as Markdown and Copy as WPT entry link there")
    return ap


def _trusted_proxy(text: str) -> str:
    """A --trusted-proxy value, checked (an IP address or network)."""
    from urlcalc.serving.clients import parse_proxy

    parse_proxy(text)  # (a ValueError: argparse's "invalid value" and exit status 2)
    return text


def _reading(r: Mapping[str, Any]) -> str:
    """A reading of the history answer in one line."""
    what = f"href {_show(r['getters']['href'])}" if r["ok"] else f"failure: {r['failure']}"
    errors = r["validation_errors"]
    return what + (f" [{', '.join(errors)}]" if errors else " [no validation error]")


def _print_history(h: Mapping[str, Any], out: TextIO) -> None:
    out.write(f"  input  {_show(h['input'])}\n  base   "
              f"{'null' if h['base'] is None else _show(h['base'])}\n")
    out.write(f"today: {_reading(h['today'])}\n")
    found = h["changes"]
    out.write(f"changes whose undoing alters this result: {len(found)} of the "
              f"{h['undoable']} urlcalc can undo (of {h['normative_since_2015']} normative "
              "changes since 2015)\n")
    for c in found:
        out.write(f"\n{c['date']} {c['commit'][:7]} {c['title']!r}\n")
        out.write(f"  without it: {_reading(c['without'])}\n")
        out.write(f"  differs:    {', '.join(c['differs'])}\n")
        for t in c["text"]:
            where = f"{t['algorithm']}, step {t['step']}" if t["algorithm"] else t["step"]
            out.write(f"  {where}\n")
            out.write(f"    before: {t['before'] if t['before'] is not None else '(none)'}\n")
            out.write(f"    after:  {t['after'] if t['after'] is not None else '(none)'}\n")
    unchanged = h.get("unchanged", [])
    if unchanged:
        out.write(f"\n{len(unchanged)} other changes urlcalc can undo do not change this "
                  f"input (--json lists them)\n")
    proposals = h.get("proposals", [])
    if proposals:
        out.write("\nproposals (unmerged branches, after today; not applied: urlcalc reads "
                  "today's standard):\n")
        for pr in proposals:
            out.write(f"  {pr['date']} {pr['commit'][:7]} [{pr['branch']}] {pr['title']!r}\n")


def _standard_options(p: argparse.ArgumentParser) -> None:
    """--as-of and --without: read the input with changes of the standard undone."""
    p.add_argument("--as-of", metavar="YYYY-MM-DD",
                   help="the standard as of that day: undo the changes urlcalc can undo that "
                        "landed after it")
    p.add_argument("--without", action="append", default=[], metavar="CHANGE",
                   help="undo one change (a variant's name or its commit, 7+ hex digits); "
                        "repeatable")


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    err = _escaping(err or sys.stderr, None)
    out = _escaping(out or sys.stdout, err)
    args = build_parser().parse_args(argv)
    undo: list[str] = []
    if getattr(args, "as_of", None) or getattr(args, "without", None):
        from urlcalc.history import as_of

        try:
            changes = as_of.undone_as_of(args.as_of) if args.as_of else []
            changes += [as_of.change(name) for name in args.without]
        except ValueError as e:
            err.write(f"urlcalc: {e}\n")
            return 2
        changes.sort(key=lambda c: c.commit["committed"])  # oldest first
        undo = list(dict.fromkeys(c.variant.name for c in changes))
        told = {c.variant.name: c.label for c in changes}
        rest = ""
        if args.as_of:  # say what is not undone: only the listed changes are
            from urlcalc.history.commits import normative

            later = [c for c in normative() if c["committed"] > args.as_of]
            rest = (f" ({len(later) - len(as_of.undone_as_of(args.as_of))} other normative "
                    "changes since then are not undoable yet)") if later else ""
        (err if args.json else out).write(
            "standard: today's url.bs" + (f" as of {args.as_of}" if args.as_of else "")
            + (", without " + "; ".join(told[n] for n in undo) if undo else
               ": no change that urlcalc can undo landed after that day") + rest + "\n")
    from urlcalc.standard.variants import undoing

    with undoing(undo):
        return _main(args, out, err)


def _survey(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``urlcalc survey``: urlcalc.survey.distributed, then the report (urlcalc.survey.report)."""
    from datetime import UTC, datetime
    from pathlib import Path

    from urlcalc.survey.distributed import SurveyError, survey
    from urlcalc.survey.observe import Options
    from urlcalc.survey.report import make_meta, report_json, report_markdown, write_report
    from urlcalc.survey.sources import SourceError

    started = datetime.now(UTC).isoformat(timespec="seconds")
    try:
        compare = frozenset(c.strip() for c in args.compare.split(",") if c.strip())
        options = Options(base=args.base, compare=compare, coverage=not args.no_coverage)
        outcome = survey(args.source, options, fmt=args.source_format, column=args.column,
                         sample=args.sample, cluster=args.cluster, workers=args.workers,
                         resume=Path(args.resume) if args.resume else None,
                         partition_bytes=args.partition_size,
                         progress=None if args.quiet else err)
    except (SurveyError, SourceError, ValueError) as e:
        err.write(f"urlcalc: error: {e}\n")
        return 2
    where = f"{outcome.workers} Dask workers" if outcome.workers else "this process"
    err.write(f"survey: {outcome.partitions} partitions: {outcome.resumed} resumed, "
              f"{outcome.computed} computed on {where}\n")
    meta = make_meta(options, sources=args.source, started=started,
                     finished=datetime.now(UTC).isoformat(timespec="seconds"),
                     partitions=outcome.partitions)
    if args.out:
        write_report(outcome.tally, meta, args.out)
        err.write(f"wrote {args.out}\n")
    else:
        out.write(report_markdown(report_json(outcome.tally, meta)))
    return 0


def _main(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    explain = bool(getattr(args, "explain", False))
    if explain:
        args.trace = True
    result: Mapping[str, Any]
    try:
        if args.command == "parse":
            result = _cited(model.parse_model(args.input, args.base, args.encoding,
                                              trace=args.trace))
            if args.json:
                out.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
                if not result["ok"]:
                    err.write(_failure(result) + "\n")
                return 0 if result["ok"] else 1
            return _print_parse(result, out, err, explain)
        if args.command == "set":
            result = _cited(model.set_model(args.input, _parse_ops(args.ops), args.base,
                                            trace=args.trace))
            if args.json:
                out.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
                return 0 if result["ok"] else 1
            return _print_set(result, out, err, explain)
        if args.command == "host":
            result = _cited(model.host_model(args.input, trace=args.trace))
            if args.json:
                out.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
                return 0 if result["domain"]["ok"] else 1
            return _print_host(result, out, err, explain)
        if args.command == "validate":
            result = model.validate_model(args.input, args.base)
            if args.json:
                out.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
            else:
                valid = result["valid"]
                if valid is not None:
                    out.write("valid URL string: " + (
                        "yes" if valid["valid"] else
                        f"no ({valid['production']} at index {valid['index']}: "
                        f"{valid['reason']})") + "\n")
                _errors(result, out)
            if not result["ok"]:
                err.write(_failure(result) + "\n")
            verdict = result["valid"]
            return 0 if result["ok"] and verdict is not None and verdict["valid"] else 1
        if args.command == "compare":
            from urlcalc.editions.view import format_compare
            from urlcalc.history.columns import compare_with_columns

            result = compare_with_columns(args.input, args.base, errata=args.errata,
                                          as_of=",".join(args.columns_as_of) or None,
                                          without=args.columns_without)
            out.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n" if args.json
                      else format_compare(result))
            return 0
        if args.command == "implementations":
            from urlcalc.implementations import format_implementations, implementations_model

            result = implementations_model(args.input, args.base)
            out.write(json.dumps(result, ensure_ascii=False, indent=1) + "\n" if args.json
                      else format_implementations(result))
            return 0
        if args.command == "history":
            from urlcalc.history.view import history_model

            history = history_model(args.input, args.base)
            if args.json:
                out.write(json.dumps(history, ensure_ascii=False, indent=1) + "\n")
            else:
                _print_history(history, out)
            return 0
        if args.command == "survey":
            return _survey(args, out, err)
        if args.command == "serve":
            from urlcalc.serving.app import serve

            public_url = None
            if args.public_url is not None:
                from urlcalc.site.files import check_public_url

                public_url = check_public_url(args.public_url)
            try:
                serve(host=args.host, port=args.port, dev=args.dev,
                      allowed_hosts=args.allowed_host, public_url=public_url,
                      trusted_proxies=args.trusted_proxy)
            except (OSError, ValueError) as e:  # the address is taken, or not this machine's
                err.write(f"urlcalc: error: cannot listen on {args.host} port {args.port}: "
                          f"{e.strerror if isinstance(e, OSError) and e.strerror else e}\n")
                return 2
            return 0
        if args.command == "export-static":
            from urlcalc.site.export import export_static

            export_static(args.dir, public_url=args.public_url)
            where = f" for {args.public_url}" if args.public_url else \
                " (no public URL: its copies carry no link; see --public-url)"
            out.write(f"wrote the static calculator to {args.dir}{where}\n")
            return 0
    except ModelError as e:
        err.write(f"urlcalc: error: {e}\n")
        return 2
    except PublicURLError as e:  # a --public-url that is not an absolute http(s) URL
        err.write(f"urlcalc: error: {e}\n")
        return 2
    except OSError as e:  # e.g. export-static into a folder that is not a previous export
        err.write(f"urlcalc: error: {e}\n")
        return 2
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
