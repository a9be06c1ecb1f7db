"""The shape of the package: layers you can see, each fact written once, and no import cycles.

* Each module sits in its layer's folder and imports from its own layer and the layers below it
  only (LAYERS, lowest first; the editions and the implementations are two peers of one layer and
  never import each other).

* No module imports itself through others (top-level or inside a function: a cycle hidden in a
  function is still one module needing the other to be done first).
* A spec step number is written by the function that implements the step's algorithm (a parser
  state, the host parser, a setter) and nowhere else: no other module cites a step by a number it
  wrote, and the algorithm modules keep no table of step numbers beside their functions. The
  step data (urlcalc/data/url_steps.json, urlcalc.standard.steps's UTS #46 summaries) is the other
  source.
* One table of request kinds: the server, dispatch and the OpenAPI document answer the same.
"""

from __future__ import annotations

import ast
import itertools
import json
import re
from pathlib import Path
from typing import Any, get_args, get_type_hints

from urlcalc.answers import kinds
from urlcalc.serving import app as server
from urlcalc.serving.openapi import openapi_document
from urlcalc.standard import steps as spec
from urlcalc.standard.observer import Fact, OutlineEntry, Step, StepDetails
from urlcalc.trace.recorder import TraceRecorder

PACKAGE = Path(__file__).resolve().parent.parent / "urlcalc"
STEP = re.compile(r"^[0-9]+(\.[0-9]+)*$")
# The modules whose functions are the algorithms of url.bs (and cite their own steps).
ALGORITHM_MODULES = {"standard.parser", "standard.host", "standard.url"}
# The step data itself: url.bs's is JSON; UTS #46's summaries (and which step each UTS #46 stage
# cites) are urlcalc.standard.steps's.
DATA_MODULES = {"standard.steps"}
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
    # the graph sees imports at all, and those inside functions
    assert "urlcalc.standard.parser" in graph["urlcalc.model.results"]
    assert "urlcalc.editions.view" in graph["urlcalc.answers.kinds"]
    assert _cycles(graph) == []


# The layers, lowest first: each a folder (or, for the front ends, modules) of the package.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the standard", ("urlcalc.standard",)),
    ("tracing and citations", ("urlcalc.trace",)),
    ("the result model", ("urlcalc.model",)),
    # Below the other readings: the Implementations view's whatwg-url is the page's own bundle.
    ("the site", ("urlcalc.site",)),
    ("other readings", ("urlcalc.editions", "urlcalc.implementations")),
    ("the standard through its history", ("urlcalc.history",)),
    ("surveys over corpora", ("urlcalc.survey",)),
    ("the request table", ("urlcalc.answers",)),
    ("serving", ("urlcalc.serving",)),
    ("front ends", ("urlcalc", "urlcalc.__main__", "urlcalc.cli", "urlcalc.notebook")),
)

# Layers whose folders are peers: neither imports the other.
PEERS = {"other readings"}


def _home(module: str) -> tuple[int, str]:
    """The layer (its rank) and the folder of ``module``."""
    for rank, (_, homes) in enumerate(LAYERS):
        for home in homes:
            if module == home or (home != "urlcalc" and module.startswith(home + ".")):
                return rank, home
    raise AssertionError(f"{module} is in no layer: put it in a layer's folder")


def _upward(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for module, imports in sorted(graph.items()):
        rank, home = _home(module)
        for target in sorted(imports):
            target_rank, target_home = _home(target)
            if target_rank > rank or (target_rank == rank and target_home != home
                                       and LAYERS[rank][0] in PEERS):
                bad.append(f"{module} ({LAYERS[rank][0]}) imports {target} "
                           f"({LAYERS[target_rank][0]})")
    return bad


def test_layers_import_downward_only() -> None:
    modules = _modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert _upward(graph) == []
    top = {p.name for p in PACKAGE.iterdir() if not p.name.startswith((".", "_"))}
    assert top == {"standard", "trace", "model", "editions", "implementations", "history", "survey",
                   "answers", "site", "serving", "cli.py", "notebook.py", "data", "py.typed"}
    for _, homes in LAYERS[:-1]:
        for home in homes:
            doc = ast.get_docstring(ast.parse(modules[home].read_text("utf-8")))
            assert doc and len(doc) > 200, f"{home} needs a paragraph saying what it holds"


def test_the_layer_check_sees_an_upward_import() -> None:
    assert _upward({"urlcalc.standard.parser": {"urlcalc.trace.recorder"},
                    "urlcalc.trace.recorder": set()}) == [
        "urlcalc.standard.parser (the standard) imports urlcalc.trace.recorder "
        "(tracing and citations)"]
    assert _upward({"urlcalc.editions.view": {"urlcalc.implementations.base"},
                    "urlcalc.implementations.base": set()}) != []
    assert _upward({"urlcalc.serving.app": {"urlcalc.standard.url"},
                    "urlcalc.standard.url": set()}) == []


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


def _trace_steps_built(tree: ast.AST) -> list[int]:
    """Lines that build a trace step: a dict with a "parser" or "note" key, or a call of an
    ``observer``."""
    def builds(node: ast.AST) -> bool:
        if isinstance(node, ast.Dict):
            return any(isinstance(k, ast.Constant) and k.value in ("parser", "note")
                       for k in node.keys)
        if isinstance(node, ast.Call):
            f = node.func
            return (isinstance(f, ast.Name) and f.id == "observer") or (
                isinstance(f, ast.Attribute) and f.attr == "observer")
        return False

    return [node.lineno for node in ast.walk(tree) if builds(node)]


def test_the_parsers_return_their_steps_and_build_no_trace_step() -> None:
    # The basic URL parser's states and the host parser's algorithms return (or raise with) the
    # step that applied; urlcalc/trace's drivers describe it (urlcalc.standard.observer).
    for name in ("parser", "host"):
        tree = ast.parse((PACKAGE / "standard" / f"{name}.py").read_text("utf-8"))
        assert _trace_steps_built(tree) == [], name
    assert sorted(_trace_steps_built(ast.parse(
        'observer({"parser": "url"})\nself.observer(s)\nx = {"note": n}'))) == [1, 1, 2, 3]


def test_test_files_have_unique_basenames() -> None:
    # tests/ is not a package: pytest imports each test file by its basename, so two files of one
    # name (tests/x.py and tests/browser/x.py) fail to collect ("import file mismatch").
    root = Path(__file__).resolve().parent
    seen: dict[str, Path] = {}
    clashes = []
    for path in sorted(root.rglob("test_*.py")):
        if "node_modules" in path.parts:
            continue
        if path.name in seen:
            clashes.append((str(seen[path.name]), str(path)))
        seen[path.name] = path
    assert clashes == []


def test_the_measured_durations_name_test_files_that_exist() -> None:
    # tests/durations.json orders the files for make test's two workers (tests/conftest.py): a
    # file renamed or removed since it was measured is stale (rerun tests/tools/durations.py)
    root = Path(__file__).resolve().parent
    measured = json.loads((root / "durations.json").read_text(encoding="utf-8"))
    assert measured["measured"] and measured["seconds"]
    stale = [name for name in measured["seconds"] if not (root.parent / name).is_file()]
    assert stale == []
    assert all(name.startswith("tests/") and Path(name).name.startswith("test_")
               for name in measured["seconds"])


def test_the_longest_files_go_first_and_keep_their_tests_in_order() -> None:
    from file_order import file_seconds, longest_files_first

    class Item:
        def __init__(self, nodeid: str) -> None:
            self.nodeid = nodeid

    measured = file_seconds()
    longest, shortest = sorted(measured, key=measured.__getitem__)[-1], min(measured,
                                                                          key=measured.__getitem__)
    items: list[Any] = [Item(f"{shortest}::a"), Item("tests/test_new_file.py::x"),
                        Item(f"{longest}::b"), Item(f"{shortest}::c"), Item(f"{longest}::a")]
    longest_files_first(items)
    assert [i.nodeid for i in items] == [f"{longest}::b", f"{longest}::a",
                                         "tests/test_new_file.py::x",
                                         f"{shortest}::a", f"{shortest}::c"]
