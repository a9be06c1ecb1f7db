"""`make bench`: URL parsing throughput, urlcalc beside its peers, in one run.

Prints URLs/s (best of several rounds) on the 10k corpus (tests/data/bench/corpus-10k.txt) and
on the WPT inputs for:

* urlcalc: ``URL(input, base).href`` (the untraced path: fast path, then the state machine);
* urlcalc, state machine only (fast path off), without and with a trace observer;
* urlcalc's state machine with the trace hooks compiled out (an AST-stripped copy of the parser
  and host modules), to show what the hooks cost when no observer is attached;
* pywhatwgurl and ada-url (``URL(input, base).href``), urllib.parse (``urlsplit``, with
  ``urljoin`` for relative references; not a URL Standard parser, for scale only).

The targets: urlcalc untraced >= 60,000 URLs/s on the corpus and >= 2.5x pywhatwgurl; trace hooks
with no observer <= 5% over the hook-free copy.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import json
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
ROUNDS = 5

Case = tuple[str, str | None]


def corpus() -> list[Case]:
    out: list[Case] = []
    for line in (DATA / "bench" / "corpus-10k.txt").read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        out.append((parts[0], parts[1] if len(parts) == 2 else None))
    return out


def wpt_inputs() -> list[Case]:
    data = json.loads((DATA / "wpt" / "urltestdata.json").read_text(encoding="utf-8"))
    return [(c["input"], c.get("base")) for c in data if isinstance(c, dict)]


def rates(cases: list[Case], contenders: list[tuple[str, Callable[[str, str | None], object]]]
          ) -> dict[str, float]:
    """Best of ROUNDS for each contender, in URLs/s. The rounds are interleaved (one round of
    each contender, then the next round), so that a slow spell of the machine hurts all of them
    alike instead of the one that happened to run then. Failures count as parsed (they are
    results)."""
    best = {name: float("inf") for name, _ in contenders}
    for _ in range(ROUNDS):
        for name, fn in contenders:
            gc.collect()
            t = time.perf_counter()
            for input, base in cases:
                # peers raise on failure; that is a result too
                with contextlib.suppress(Exception):
                    fn(input, base)
            best[name] = min(best[name], time.perf_counter() - t)
    return {name: len(cases) / seconds for name, seconds in best.items()}


class _StripTrace(ast.NodeTransformer):
    """Remove the trace hooks: ``_emit(...)`` and ``p.fact(...)`` calls (the outline's facts),
    ``if observer is not None:``, ``if p.facts is not None ...:`` and ``if p.live ...:`` (the
    steps that ran) blocks."""

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        call = node.value
        if isinstance(call, ast.Call) and (
                (isinstance(call.func, ast.Name) and call.func.id == "_emit")
                or (isinstance(call.func, ast.Attribute) and call.func.attr == "fact")):
            return ast.Pass()
        return self.generic_visit(node)

    def visit_If(self, node: ast.If) -> Any:
        t = node.test.values[0] if isinstance(node.test, ast.BoolOp) else node.test
        if isinstance(t, ast.Attribute) and t.attr == "live":  # ``if p.live:`` (steps that ran)
            return node.orelse or ast.Pass()
        if isinstance(t, ast.Compare) and isinstance(t.ops[0], ast.IsNot) and (
                (isinstance(t.left, ast.Name) and t.left.id == "observer")
                or (isinstance(t.left, ast.Attribute) and t.left.attr in ("facts", "shortenings"))):
            return node.orelse or ast.Pass()
        return self.generic_visit(node)


def hook_free_parser() -> types.ModuleType:
    """A copy of urlcalc.standard.host and urlcalc.standard.parser with the trace hooks removed."""
    import urlcalc.standard.host

    modules = {}
    for name in ("host", "parser"):
        src = (ROOT / "urlcalc" / "standard" / f"{name}.py").read_text(encoding="utf-8")
        tree = ast.fix_missing_locations(_StripTrace().visit(ast.parse(src)))
        mod = types.ModuleType(f"_hookfree_{name}")
        mod.__dict__["__builtins__"] = __builtins__
        if name == "parser":
            sys.modules["_hookfree_host"] = modules["host"]
            tree = ast.parse(ast.unparse(tree).replace(
                "from urlcalc.standard import host as hostmod", "import _hookfree_host as hostmod"))
        exec(compile(tree, f"<hook-free {name}>", "exec"), mod.__dict__)
        modules[name] = mod
    assert modules["host"].__dict__["host_parse"] is not urlcalc.standard.host.host_parse
    return modules["parser"]


def package_at(ref: str) -> types.ModuleType:
    """urlcalc as it was at git ``ref``, importable beside the checkout's as ``urlcalc_at_ref``
    (its own imports renamed), for a same-run comparison."""
    import importlib
    import io
    import subprocess
    import tarfile
    import tempfile

    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "urlcalc"], check=True,
                             capture_output=True).stdout
    where = Path(tempfile.mkdtemp(prefix="urlcalc-at-ref-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    (where / "urlcalc").rename(where / "urlcalc_at_ref")
    for path in (where / "urlcalc_at_ref").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("from urlcalc.", "from urlcalc_at_ref.")
                        .replace("from urlcalc import", "from urlcalc_at_ref import")
                        .replace("import urlcalc.", "import urlcalc_at_ref.")
                        .replace('files("urlcalc")', 'files("urlcalc_at_ref")'),
                        encoding="utf-8")
    sys.path.insert(0, str(where))
    return importlib.import_module("urlcalc_at_ref")


def main() -> int:
    import argparse

    import ada_url
    import pywhatwgurl

    import urlcalc
    from urlcalc.standard.parser import basic_url_parse
    from urlcalc.standard.serializer import serialize_url
    from urlcalc.trace.recorder import TraceRecorder

    def ours(i: str, b: str | None) -> str:
        return urlcalc.URL(i, b).href

    def machine(parse: Callable[..., Any], observe: bool = False,
                record: type = urlcalc.URLRecord,
                recorder: type = TraceRecorder) -> Callable[[str, str | None], object]:
        def run(i: str, b: str | None) -> object:
            base = None
            if b is not None:
                base = parse(b, _fast=False)
                if not isinstance(base, record):
                    return None
            obs = recorder() if observe else None
            r = parse(i, base, observer=obs, _fast=False)
            return serialize_url(r) if isinstance(r, record) else None
        return run

    free = hook_free_parser()

    def free_machine(i: str, b: str | None) -> object:
        base = None
        if b is not None:
            base = free.basic_url_parse(b, _fast=False)
            if not isinstance(base, free.URLRecord):
                return None
        r = free.basic_url_parse(i, base, _fast=False)
        return serialize_url(r) if isinstance(r, free.URLRecord) else None

    def pw(i: str, b: str | None) -> str:
        return str(pywhatwgurl.URL(i, b).href if b is not None else pywhatwgurl.URL(i).href)

    def ada(i: str, b: str | None) -> str:
        return str(ada_url.URL(i, b).href if b is not None else ada_url.URL(i).href)

    from urllib.parse import urljoin, urlsplit

    def urllib_(i: str, b: str | None) -> object:
        return urlsplit(urljoin(b, i) if b is not None else i)

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--against", metavar="REF", help="also time urlcalc as it was at this "
                        "git ref (its untraced parser and state machine), in the same rounds")
    args = parser.parse_args()
    contenders: list[tuple[str, Callable[[str, str | None], object]]] = [
        ("urlcalc (untraced)", ours),
        ("urlcalc state machine", machine(basic_url_parse)),
        ("  same, hooks compiled out", free_machine),
        ("urlcalc state machine traced", machine(basic_url_parse, observe=True)),
        ("pywhatwgurl", pw),
        ("ada-url (C++)", ada),
        ("urllib.parse (not WHATWG)", urllib_),
    ]
    if args.against:
        import importlib

        old = package_at(args.against)
        old_parser = importlib.import_module("urlcalc_at_ref.standard.parser")
        old_recorder = importlib.import_module("urlcalc_at_ref.trace.recorder").TraceRecorder

        def old_ours(i: str, b: str | None) -> str:
            return str(old.URL(i, b).href)

        contenders[2:2] = [(f"urlcalc (untraced) at {args.against}", old_ours),
                           (f"urlcalc state machine at {args.against}",
                            machine(old_parser.basic_url_parse, record=old.URLRecord)),
                           (f"urlcalc traced at {args.against}",
                            machine(old_parser.basic_url_parse, True, old.URLRecord,
                                    old_recorder))]
    print(f"Python {sys.version.split()[0]}, best of {ROUNDS} rounds")
    figures: dict[str, dict[str, float]] = {}
    for set_name, cases in (("corpus-10k", corpus()), ("WPT urltestdata inputs", wpt_inputs())):
        print(f"\n{set_name} ({len(cases)} URLs)")
        figures[set_name] = rates(cases, contenders)
        for name, r in figures[set_name].items():
            print(f"  {name:32} {r:>12,.0f} URLs/s")
        f = figures[set_name]
        print(f"  urlcalc / pywhatwgurl: {f['urlcalc (untraced)'] / f['pywhatwgurl']:.2f}x;"
              f" trace hooks with no observer: "
              f"{(f['  same, hooks compiled out'] / f['urlcalc state machine'] - 1) * 100:+.1f}%"
              f" time; traced / untraced state machine: "
              f"{f['urlcalc state machine'] / f['urlcalc state machine traced']:.1f}x slower")
        if args.against:
            then = args.against
            untraced = f[f"urlcalc (untraced) at {then}"] / f["urlcalc (untraced)"]
            state_machine = f[f"urlcalc state machine at {then}"] / f["urlcalc state machine"]
            traced = f[f"urlcalc traced at {then}"] / f["urlcalc state machine traced"]
            print(f"  time now / time at {then} (< 1: faster now): untraced {untraced:.3f}x, "
                  f"state machine {state_machine:.3f}x, traced {traced:.3f}x")
    c = figures["corpus-10k"]
    ok = c["urlcalc (untraced)"] >= 60_000 and \
        c["urlcalc (untraced)"] >= 2.5 * c["pywhatwgurl"]
    print(f"\ntarget (corpus): >= 60,000 URLs/s and >= 2.5x pywhatwgurl: "
          f"{'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
