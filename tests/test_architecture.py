"""The shape of the package: each fact written once, and no import cycles.

* No module imports itself through others (top-level or inside a function: a cycle hidden in a
  function is still one module needing the other to be done first).
* A spec step number is written by the function that implements the step's algorithm (a parser
  state, the host parser, a setter) and nowhere else: no other module cites a step by a number it
  wrote, and the algorithm modules keep no table of step numbers beside their functions. The
  step data (urlcalc/data/url_steps.json, urlcalc.spec's UTS #46 summaries) is the other source.
* One table of request kinds: the server, dispatch and the OpenAPI document answer the same.
"""

from __future__ import annotations

import ast
import itertools
import re
from pathlib import Path
from typing import Any, get_args, get_type_hints

from urlcalc import kinds, server, spec
from urlcalc.openapi import openapi_document
from urlcalc.outline import Fact, OutlineEntry
from urlcalc.trace import Step, StepDetails, TraceRecorder

PACKAGE = Path(__file__).resolve().parent.parent / "urlcalc"
STEP = re.compile(r"^[0-9]+(\.[0-9]+)*$")
# The modules whose functions are the algorithms of url.bs (and cite their own steps).
ALGORITHM_MODULES = {"parser", "host", "api"}
# The step data itself: url.bs's is JSON; UTS #46's summaries (and which step each UTS #46 stage
# cites) are urlcalc.spec's.
DATA_MODULES = {"spec"}
# Modules citing other documents' sections by their own numbers (the older specs, the other
# implementations' explanations): not url.bs steps.
OTHER_DOCUMENTS = ("editions", "implementations")


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # "from package import module" needs the module; other names need the package
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
            found.update(subs)
            if target in modules and len(subs) < len(node.names):
                found.add(target)
    found.discard(name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert "urlcalc.parser" in graph["urlcalc.model"]  # the graph sees imports at all
    assert "urlcalc.editions_view" in graph["urlcalc.kinds"]  # ... and those inside functions
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


ALGORITHMS = set(spec.algorithms())


def _is_step(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) \
        and STEP.match(node.value) is not None


def _citations(tree: ast.AST) -> list[tuple[int, str]]:
    """Step numbers written where a step is cited: (algorithm, "N") pairs, step="N" arguments,
    {"step": "N"} members, and the calls that cite (spec.cite, spec.label, spec.step_text)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple):
            items = node.elts
            for a, b in itertools.pairwise(items):
                if isinstance(a, ast.Constant) and a.value in ALGORITHMS and _is_step(b):
                    found.append((b.lineno, f"({a.value!r}, {b.value!r})"))
        if isinstance(node, ast.Call):
            args = node.args
            for a, b in itertools.pairwise(args):
                if isinstance(a, ast.Constant) and a.value in ALGORITHMS and _is_step(b):
                    found.append((b.lineno, f"{a.value!r}, {b.value!r}"))
            found.extend((k.value.lineno, f"{k.arg}={k.value.value!r}")
                         for k in node.keywords
                         if k.arg in ("step", "step_id") and _is_step(k.value))
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values, strict=True):
                if isinstance(k, ast.Constant) and k.value in ("step", "step_id") \
                        and v is not None and _is_step(v):
                    found.append((v.lineno, f"{k.value!r}: {v.value!r}"))
    return found


def _module_level(tree: ast.Module) -> ast.Module:
    """The module without its functions' bodies: its tables and constants."""
    body = [n for n in tree.body if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef
                                                    | ast.ClassDef)]
    return ast.Module(body=body, type_ignores=[])


def test_step_numbers_are_written_by_their_algorithms_only() -> None:
    bad = []
    for name, path in _modules().items():
        short = name.removeprefix("urlcalc.")
        if short.startswith(OTHER_DOCUMENTS) or short in DATA_MODULES:
            continue
        tree = ast.parse(path.read_text("utf-8"))
        if short in ALGORITHM_MODULES:
            tree = _module_level(tree)  # in functions only, not in a table beside them
        bad += [f"{path.name}:{line}: {text}" for line, text in _citations(tree)]
    assert bad == []


def test_the_step_finder_finds_steps() -> None:
    tree = ast.parse('cite("port state", "2.1"); f(step="3"); x = {"step": "1.4"}; '
                     't = ("path state", "1.5")\nok = ("v", "0.1.0"); port = "8000"')
    assert [text for _, text in _citations(tree)] == [
        "'port state', '2.1'", "step='3'", "'step': '1.4'", "('path state', '1.5')"]


def test_one_table_of_request_kinds() -> None:
    assert tuple(kinds.KINDS) == server.API_KINDS
    documented = {path.removeprefix("/api/") for path in openapi_document()["paths"]}
    assert documented == {*kinds.KINDS, "openapi.json", "socket"}
    for kind in kinds.KINDS.values():
        body = openapi_document()["paths"][f"/api/{kind.name}"]["post"]["requestBody"]
        schema = body["content"]["application/json"]["schema"]
        assert set(schema.get("properties", {})) == {p.name for p in kind.params}
        assert set(schema.get("required", [])) == {p.name for p in kind.params if p.required}


def _mentions_any(hint: object) -> bool:
    if hint is Any:
        return True
    return any(_mentions_any(arg) for arg in get_args(hint))


def test_trace_and_outline_types_have_no_any() -> None:
    for cls in (Step, StepDetails, OutlineEntry, Fact):
        hints = get_type_hints(cls)
        assert hints, cls
        assert [name for name, hint in hints.items() if _mentions_any(hint)] == [], cls
    assert get_type_hints(TraceRecorder.__call__)["step"] is Step
    assert _mentions_any(dict[str, list[Any]])  # the check sees an Any inside
