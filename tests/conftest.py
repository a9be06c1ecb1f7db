from __future__ import annotations

import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

# tests/conformance.py is shared with the Pyodide harness; make it importable as a module.
sys.path.insert(0, str(Path(__file__).parent))

# Hypothesis profiles: "ci" (the default: the normal suite, a few seconds per property,
# deterministic) and "deep" (`make fuzz`, benchmarks/fuzz.py: many more examples, random).
# HYPOTHESIS_PROFILE=deep pytest ... selects the deep one for a pytest run.
import collections
import json
import os

import pytest
from file_order import longest_files_first
from hypothesis import HealthCheck, settings
from required import ENV as REQUIRE_ALL_ENV
from required import require_all

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=300, deadline=None, derandomize=True,
                          suppress_health_check=_SLOW_OK, print_blob=True)
# "mutate" (tests/mutation/run.py): fewer examples, so that each mutant's run stays short.
settings.register_profile("mutate", max_examples=60, deadline=None, derandomize=True,
                          suppress_health_check=_SLOW_OK, print_blob=True)
settings.register_profile("deep", max_examples=int(os.environ.get("FUZZ_EXAMPLES", "10000")),
                          deadline=None,
                          suppress_health_check=_SLOW_OK, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# What each module keeps for the end-of-run summary: (key, module, attribute). The modules fill
# them as their tests run, in whichever process runs them: under pytest-xdist (`make test` runs
# `pytest -n 2`) each worker sends its own at the end (config.workeroutput) and the controller
# adds them up, so the summary prints the same totals as a serial run.
_SUMMARY_SOURCES = (
    ("fuzz", "test_api_fuzz", "COUNTS"),
    ("grid", "test_editions_grid", "SUMMARY"),
    ("shares", "test_editions_causes", "SUMMARY"),
    ("cells", "test_editions_cells", "SUMMARY"),
    ("oracle", "test_oracle", "SUMMARY"),
    ("tables", "test_history_examples", "SUMMARY"),
    ("continuity", "test_history_continuity", "SUMMARY"),
    ("differential", "test_differential", "SUMMARY"),
    ("hostile", "test_hostile", "COUNTS"),
    ("citations", "test_citations", "COUNTS"),
    ("installed", "test_installed", "FIGURES"),
    ("properties", "test_properties", "COUNTS"),
)
_WORKER_OUTPUT_KEY = "urlcalc_summaries"
# What the workers sent (filled on the controller by pytest_testnodedown).
_FROM_WORKERS: list[dict[str, Any]] = []


# The test modules whose tests ran in this process. A worker sends only their values: both
# workers import every test module, and a module may count at import (test_api_fuzz loads the
# API's description with one request).
_RAN_MODULES: set[str] = set()


def pytest_runtest_setup(item: pytest.Item) -> None:
    module = getattr(item, "module", None)
    if module is not None:
        _RAN_MODULES.add(module.__name__)


def _local_summaries(only_ran: bool = False) -> dict[str, Any]:
    """This process's summary values, as JSON-able lists and dicts (empty ones left out)."""
    found: dict[str, Any] = {}
    for key, module, name in _SUMMARY_SOURCES:
        if only_ran and module not in _RAN_MODULES:
            continue
        value = getattr(sys.modules.get(module), name, None)
        if value:
            found[key] = dict(value) if isinstance(value, dict) else list(value)
    return found


def _merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The processes' values together: lists one after the other, dicts added up key by key
    (counts add; a figure only one process measured stays as it was)."""
    merged: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            if isinstance(value, dict):
                into = merged.setdefault(key, {})
                for k, v in value.items():
                    into[k] = into[k] + v if k in into else v
            else:
                merged.setdefault(key, []).extend(value)
    return merged


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: hand this worker's values over
        workeroutput[_WORKER_OUTPUT_KEY] = json.dumps(_local_summaries(only_ran=True))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist, on the controller: a worker finished; keep what it sent."""
    sent = getattr(node, "workeroutput", {}).get(_WORKER_OUTPUT_KEY)
    if sent:
        _FROM_WORKERS.append(json.loads(sent))


# Under pytest-xdist with --dist loadgroup (`make test`: -n 2) a work unit is a whole test file,
# as in a serial run (module fixtures made once; a module's counts and its closing checks, such
# as test_api_fuzz's test_no_5xx_seen, in the process that ran its tests). The files go out the
# longest first (tests/file_order.py, from tests/durations.json: `tests/tools/durations.py`
# rewrites it from a measured run), each to
# whichever worker is nearly done with its last, so that the two workers end together. Each
# worker that runs browser tests starts its own live server and Chromium (tests/browser/
# conftest.py: session fixtures), once.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """One id per test: Schemathesis gives its items (one per API operation, tests/
    test_api_fuzz.py) one shared nodeid; pytest-xdist finds a test by its id and would run the
    first of them only. Such items get their own name as id (`...::test[GET /api/parse]`)."""
    seen = collections.Counter(item.nodeid for item in items)
    for item in items:
        if seen[item.nodeid] > 1 and item.parent is not None:
            nodeid = f"{item.parent.nodeid}::{item.name}"
            if isinstance(getattr(item, "_id", None), str | type(None)):
                item._nodeid = nodeid  # pytest < 9.2
            else:  # pytest >= 9.2: a structured NodeId
                item._id = type(item._id).parse(nodeid)
            assert item.nodeid == nodeid, "pytest keeps node ids elsewhere now: see this hook"
    if config.getvalue("dist") == "loadgroup":
        longest_files_first(items)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return nodeid.split("::", 1)[0]  # a whole file

    config.option.loadscopereorder = False  # the order above, not the most tests first
    return FileScheduling(config, log)


def pytest_terminal_summary(terminalreporter: object) -> None:
    """Print how many examples each property of tests/test_properties.py ran, how many
    requests tests/test_api_fuzz.py sent to the API (and how many 5xx came back), the
    differential batch's and the hostile page corpus's counts, and the installed wheel's sizes."""
    write = getattr(terminalreporter, "write_line")  # noqa: B009
    found = _merged([_local_summaries(), *_FROM_WORKERS])
    fuzz = found.get("fuzz")
    if fuzz:
        total = sum(fuzz.values())
        by_class = ", ".join(f"{k} {v:,}" for k, v in sorted(fuzz.items()))
        write(f"API fuzz (tests/test_api_fuzz.py): {total:,} requests ({by_class}); "
              f"5xx seen: {fuzz.get('5xx', 0)}")
    grid = found.get("grid")
    if grid:
        write(f"compare grid (tests/test_editions_grid.py): {grid[0]}")
    shares = found.get("shares")
    if shares:
        write(f"compare difference lines (tests/test_editions_causes.py): {shares[0]}")
    cells = found.get("cells")
    if cells:
        write(f"edition cells derived by hand (tests/test_editions_cells.py): {cells[0]}")
    oracle = found.get("oracle")
    if oracle:
        write(f"trace vs the spec-literal oracle (tests/test_oracle.py): {oracle[0]}")
    tables = found.get("tables")
    if tables and tables.get("rows"):
        write(f"url.bs example tables under their commits' variant sets "
              f"(tests/test_history_examples.py): {tables['versions']} table versions, "
              f"{tables['rows']} rows ({tables['runs']:,} row x commit runs): "
              f"{tables['passed']} hold, {tables['explained']} explained, "
              f"{tables['failed']} failing; {tables['differ_today']} hold only under their set")
    continuity = found.get("continuity")
    if continuity:
        write(f"earliest variant set vs seed 001 (tests/test_history_continuity.py): "
              f"{continuity[0]}")
    differential = found.get("differential")
    if differential:
        write(f"differential vs whatwg-url (tests/test_differential.py): {differential[0]}")
    hostile = found.get("hostile")
    if hostile:
        write(f"hostile page inputs (tests/browser/test_hostile.py): {hostile.get('tried', 0)} "
              f"tried, {hostile.get('audited', 0)} view audits, executions seen: "
              f"{hostile.get('executions', 0)}")
    citations = found.get("citations")
    if citations:
        write("citations checked against url.bs (tests/test_citations.py): "
              + ", ".join(f"{n:,} {k}" for k, n in sorted(citations.items()))
              + "; unresolvable: 0 unless a test above failed")
    installed = found.get("installed")
    if installed and "wheel_bytes" in installed:
        line = (f"installed wheel (tests/browser/test_installed.py): wheel "
                f"{installed['wheel_bytes'] / 1e6:.2f} MB, sdist "
                f"{installed.get('sdist_bytes', 0) / 1e6:.2f} MB, built in "
                f"{installed.get('build_s', 0):.0f} s")
        if "transfer_bytes" in installed:
            line += (f"; its page's cold boot: {installed['transfer_bytes'] / 1e6:.2f} MB in "
                     f"{installed['requests']} requests")
        write(line)
    counts = found.get("properties")
    if not counts:
        return
    write("property examples run (tests/test_properties.py):")
    for name, n in sorted(counts.items()):
        write(f"  {n:>7,}  {name}")


# Under URLCALC_REQUIRE_ALL=1 (make test, CI) no test may skip: whatever skips (a tool that went
# missing through a path tests/required.py does not cover, a pytest.skip added later) fails,
# with the skip's reason. Expected failures (xfail) are not skips and stay as they are.
def _as_failure(report: pytest.CollectReport | pytest.TestReport) -> None:
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    reason = reason.removeprefix("Skipped: ")
    report.outcome = "failed"
    report.longrepr = f"skipped under {REQUIRE_ALL_ENV}=1, which allows no skip: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item,
                               call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if require_all() and report.skipped and not hasattr(report, "wasxfail"):
        _as_failure(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if require_all() and report.skipped:
        _as_failure(report)
