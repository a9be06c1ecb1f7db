"""The conformance suite gives the same answers in Pyodide (under node) as in CPython.

Builds the browser bundle (urlcalc + idna), runs ``tests/conformance.py:run_all_json`` inside
Pyodide through ``tests/pyodide/run.mjs``, runs the same function here, and compares the two JSON
documents, all but their ``engine`` field.

Needs node >= 18 and ``web/node_modules/pyodide`` (``make test`` installs both: ``make npm``);
their absence is a failure, not a skip, so that CI cannot go green without the Pyodide run.

``URLCALC_CONFORMANCE_MODULE=/path/to/file.py`` runs another module with the same interface instead
(for developing the harness itself).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from urlcalc.site.bundle import build_bundle

REPO = Path(__file__).resolve().parent.parent
RUNNER = REPO / "tests" / "pyodide" / "run.mjs"
PYODIDE_DIR = REPO / "web" / "node_modules" / "pyodide"
CONFORMANCE = Path(
    os.environ.get("URLCALC_CONFORMANCE_MODULE", REPO / "tests" / "conformance.py")
).resolve()
FUNCTION = "run_all_json"
TIMEOUT_S = 600
MAX_REPORTED_DIFFERENCES = 20


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: install Node >= 18 (the Pyodide run needs it)")
    version = subprocess.run(
        [node, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    major = int(version.lstrip("v").split(".")[0])
    if major < 18:
        pytest.fail(f"node {version} is too old: Pyodide needs node >= 18")
    return node


def _run_in_cpython(module_path: Path) -> str:
    name = f"_urlcalc_conformance_{module_path.stem}"
    spec = importlib.util.spec_from_file_location(name, module_path)
    assert spec is not None and spec.loader is not None, f"cannot import {module_path}"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and friends look the module up by name
    try:
        spec.loader.exec_module(module)
        result = getattr(module, FUNCTION)()
    finally:
        del sys.modules[name]
    assert isinstance(result, str), f"{FUNCTION}() returned {type(result).__name__}, not str"
    return result


def _differences(a: Any, b: Any, where: str = "") -> list[str]:
    """Paths at which two JSON values differ, with both values (first few only)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(a.keys() | b.keys()):
            sub = f"{where}/{key}"
            if key not in a:
                out.append(f"{sub}: only in Pyodide: {json.dumps(b[key])[:200]}")
            elif key not in b:
                out.append(f"{sub}: only in CPython: {json.dumps(a[key])[:200]}")
            else:
                out.extend(_differences(a[key], b[key], sub))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for d in _differences(x, y, f"{where}[{i}]")
        ]
    if a == b and type(a) is type(b):
        return []
    return [f"{where or '/'}: CPython {json.dumps(a)[:200]} != Pyodide {json.dumps(b)[:200]}"]


def test_conformance_same_in_pyodide_as_in_cpython(tmp_path: Path) -> None:
    node = _node()
    if not (PYODIDE_DIR / "pyodide.mjs").is_file():
        pytest.fail(f"{PYODIDE_DIR} is missing: run `make npm` (npm ci in web/)")
    if not CONFORMANCE.is_file():
        pytest.fail(f"conformance module not found: {CONFORMANCE}")

    bundle = tmp_path / "bundle.zip"
    bundle.write_bytes(build_bundle())

    started = time.perf_counter()
    try:
        proc = subprocess.run(
            [node, str(RUNNER), str(bundle), str(CONFORMANCE), FUNCTION],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            cwd=REPO,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the Pyodide run took over {TIMEOUT_S} s")
    elapsed = time.perf_counter() - started
    assert proc.returncode == 0, (
        f"the Pyodide run failed (exit {proc.returncode}) after {elapsed:.1f} s:\n{proc.stderr}"
    )
    sys.stderr.write(proc.stderr)  # the runner's timings, shown with -s or on failure

    pyodide_doc = json.loads(proc.stdout)
    cpython_doc = json.loads(_run_in_cpython(CONFORMANCE))

    pyodide_engine = pyodide_doc.pop("engine", None)
    cpython_engine = cpython_doc.pop("engine", None)
    assert isinstance(pyodide_engine, dict), (
        f"Pyodide side has no engine object: {pyodide_engine!r}"
    )
    assert pyodide_engine.get("name") == "pyodide", pyodide_engine
    assert isinstance(cpython_engine, dict), (
        f"CPython side has no engine object: {cpython_engine!r}"
    )
    assert cpython_engine.get("name") != "pyodide", cpython_engine
    assert "results" in cpython_doc, "the conformance document has no results"

    differences = _differences(cpython_doc, pyodide_doc)
    shown = "\n".join(differences[:MAX_REPORTED_DIFFERENCES])
    more = len(differences) - MAX_REPORTED_DIFFERENCES
    assert not differences, (
        f"{len(differences)} differences between CPython ({cpython_engine}) and Pyodide "
        f"({pyodide_engine}):\n{shown}" + (f"\n... and {more} more" if more > 0 else "")
    )
