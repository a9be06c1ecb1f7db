"""`make mutate`: sampled, time-bounded mutation testing of the parser, the host parser, the
setters (urlcalc/standard/url.py), the result model (with its provenance and request kinds) and the
server.

A fixed-seed sample of the mutants of each module (tests/mutation/mutants.py) is run against the
suite without the browser and Pyodide runs, in stages from the fastest tests to the slowest,
stopping at the first failing test (``-x``): a mutant is *killed* when a test fails, *survives*
when every stage passes. A stage that runs out of time (four times its unmutated duration, at
least a minute) is run again once with three times that; a second timeout is reported as a
*timeout*, apart: on a loaded machine a slow run is not a failing test, so a timeout never counts
as killed (it counts against the score, like a survivor, until a re-run settles it).

The copy under test is a scratch copy of ``urlcalc/`` that each mutant edits (the checkout is
never touched); each stage runs in a process forked from one that has already imported pytest
and the third-party packages, so a mutant costs the tests it runs, not interpreter start-ups.
Survivors that cannot be killed are listed, with why, in tests/mutation/equivalent.py; the score
leaves them out:

    score = killed / (run - equivalent)        (timeouts are in the run, not in killed)

The report (docs/mutation.md) lists the score, every survivor and every equivalent mutant.
``--min-score`` fails the run below a floor (make mutate passes the figure docs/testing.md quotes).

    python tests/mutation/run.py [--per-module N] [--seed S] [--budget SECONDS]
                                 [--only MODULE] [--report PATH] [--min-score PCT] [--resume]
                                 [--ids ID... [--append]]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import platform
import random
import shutil
import signal
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

from mutation.equivalent import EQUIVALENT  # noqa: E402
from mutation.mutants import Mutant, sites  # noqa: E402

MODULES = ["urlcalc/standard/parser.py", "urlcalc/standard/host.py", "urlcalc/standard/url.py",
           "urlcalc/model/results.py", "urlcalc/model/provenance.py", "urlcalc/answers/kinds.py",
           "urlcalc/serving/app.py"]

# The tests that run against each module's mutants, in stages, fastest first (most mutants die
# in the first stage): the suite without the browser and Pyodide runs, less the files that never
# reach the module (the server's mutants do not go through the WPT files, for instance).
_PARSING: list[list[str]] = [
    ["tests/test_api.py", "tests/test_host.py", "tests/test_setter_reasons.py",
     "tests/test_setter_steps.py",
     "tests/test_validation_errors.py", "tests/test_writing.py", "tests/test_model.py"],
    ["tests/test_citations.py"],
    ["tests/test_wpt.py", "tests/test_trace.py", "tests/test_fastpath.py"],
    ["tests/test_urlencoded.py", "tests/test_percent.py", "tests/test_hardening.py",
     "tests/test_properties.py", "tests/test_differential.py"],
]
_MODEL: list[list[str]] = [
    ["tests/test_model.py", "tests/test_cli.py", "tests/test_api.py",
     "tests/test_setter_reasons.py"],
    ["tests/test_server.py", "tests/test_trace.py"],
    ["tests/test_citations.py", "tests/test_properties.py", "tests/test_openapi.py",
     "tests/test_hardening.py", "tests/test_notebook.py", "tests/test_server_hardening.py"],
]
STAGES: dict[str, list[list[str]]] = {
    "urlcalc/standard/parser.py": _PARSING,
    "urlcalc/standard/host.py": _PARSING,
    "urlcalc/standard/url.py": _PARSING,
    "urlcalc/model/results.py": _MODEL,
    # where each part came from (read by the model), the request kinds (read by the model's
    # dispatch, the server and the OpenAPI document): the model's tests reach them
    "urlcalc/model/provenance.py": _MODEL,
    "urlcalc/answers/kinds.py": _MODEL,
    "urlcalc/serving/app.py": [
        ["tests/test_server.py"],
        ["tests/test_server_hardening.py", "tests/test_openapi.py", "tests/test_api_fuzz.py",
         "tests/test_cli.py", "tests/test_publish.py", "tests/test_implementations.py"],
    ],
}


# Imported once by the parent, so that each forked stage starts warm.
WARM = ["pytest", "hypothesis", "flask", "werkzeug", "waitress", "idna", "unicodedata2",
        "schemathesis", "_pytest.pytester"]


@dataclass
class Outcome:
    mutant: Mutant
    status: str  # killed, survived, timeout, equivalent (survived, and listed)
    stage: int | None = None
    seconds: float = 0.0
    note: str = ""


@dataclass
class Run:
    outcomes: list[Outcome] = field(default_factory=list)
    baseline: dict[str, float] = field(default_factory=dict)
    not_run: int = 0
    merge: bool = False  # save into the results of the run before (--ids), not over them


def _run_stage(scratch: Path, files: list[str], timeout: float, log: Path) -> tuple[str, float]:
    """One pytest run of ``files`` in a forked child, on the scratch copy; killed/passed/timeout."""
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.setsid()
            os.chdir(scratch)
            os.environ["PYTHONPATH"] = str(scratch)  # subprocesses the tests start, too
            os.environ.pop("URLCALC_REQUIRE_ALL", None)
            os.environ["HYPOTHESIS_PROFILE"] = "mutate"  # 60 examples per property
            sys.path.insert(0, str(scratch))
            import pytest

            code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                                "--no-header", "-W", "ignore", *files])
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(int(code))
        except BaseException:  # pragma: no cover - reported through the exit status
            import traceback

            traceback.print_exc()
            os._exit(3)
    deadline = started + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            return ("passed" if code == 0 else "killed"), time.monotonic() - started
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout", time.monotonic() - started
        time.sleep(0.05)


def _scratch_copy() -> Path:
    """urlcalc/ and tests/ copied (the run is not disturbed by edits in the checkout meanwhile),
    the rest of the checkout and the differential test's node_modules linked."""
    scratch = Path(tempfile.mkdtemp(prefix="urlcalc-mutate-"))
    skip = shutil.ignore_patterns("__pycache__", "node_modules", ".hypothesis")
    shutil.copytree(REPO / "urlcalc", scratch / "urlcalc", ignore=skip)
    shutil.copytree(REPO / "tests", scratch / "tests", ignore=skip)
    shutil.copy2(REPO / "pyproject.toml", scratch / "pyproject.toml")
    # the rest linked: web/ (the server serves it), spec/ (url.bs and its extractor), docs/
    # (the notebook test runs docs/library.md's example), LICENSE (a site's licence folder)...
    for entry in REPO.iterdir():
        if entry.name not in ("urlcalc", "tests", "pyproject.toml", ".git", ".venv", ".cache"):
            (scratch / entry.name).symlink_to(entry)
    modules = REPO / "tests" / "differential" / "node_modules"
    if modules.is_dir():
        (scratch / "tests" / "differential" / "node_modules").symlink_to(modules)
    return scratch


def _sample(per_module: int, seed: int, only: str | None,
            ids: list[str] | None = None) -> list[Mutant]:
    """``per_module`` mutants of each module, drawn with ``seed``; in turns (one of each module,
    then the next of each...), so that a run cut short by its budget still covers every module.
    With ``ids``: those mutants, in that order, instead."""
    if ids:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            found = {m.id: m for module in MODULES for m in sites(REPO, module)
                     if not only or only in module}
        missing = [i for i in ids if i not in found]
        if missing:
            raise SystemExit(f"no such mutant: {', '.join(missing)}")
        return [found[i] for i in ids]
    rng = random.Random(seed)
    drawn: list[list[Mutant]] = []
    for module in MODULES:
        if only and only not in module:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            every = sites(REPO, module)
        drawn.append(rng.sample(every, min(per_module, len(every))))
    return [m for turn in zip(*drawn, strict=False) for m in turn] + [
        m for d in drawn for m in d[min(len(x) for x in drawn):]]


def run(per_module: int, seed: int, budget: float, only: str | None, log_dir: Path,
        earlier: dict[str, dict[str, object]], ids: list[str] | None = None) -> Run:
    for name in WARM:
        with contextlib.suppress(ImportError):
            __import__(name)
    sys.dont_write_bytecode = True
    scratch = _scratch_copy()
    result = Run(merge=bool(ids))
    try:
        print("baseline (no mutant):", flush=True)
        mutants = _sample(per_module, seed, only, ids)
        stage_sets = sorted({tuple(files) for m in mutants for files in STAGES[m.module]})
        for i, files in enumerate(stage_sets):
            status, seconds = _run_stage(scratch, list(files), 1800,
                                         log_dir / f"baseline-{i}.log")
            print(f"  {' '.join(Path(f).stem for f in files)}: {status} in {seconds:.1f} s",
                  flush=True)
            if status != "passed":
                raise SystemExit(f"the suite fails without a mutant: {log_dir}/baseline-{i}.log")
            result.baseline[" ".join(files)] = seconds
        deadline = time.monotonic() + budget
        for n, mutant in enumerate(mutants, 1):
            if time.monotonic() > deadline:
                result.not_run = len(mutants) - n + 1
                print(f"time budget of {budget:.0f} s spent: {result.not_run} mutants not run")
                break
            before = earlier.get(mutant.id)
            if before is not None and before["status"] == "killed":
                # killed by the same tests or fewer in an earlier run (--resume): tests are only
                # ever added, so it stays killed
                outcome = Outcome(mutant, str(before["status"]), before["stage"],  # type: ignore[arg-type]
                                  0.0, "earlier run")
                result.outcomes.append(outcome)
                continue
            target = scratch / mutant.module
            log = log_dir / f"{_file_name(mutant.id)}.log"
            original = target.read_text(encoding="utf-8")
            target.write_text(mutant.apply(original), encoding="utf-8")
            outcome = Outcome(mutant, "survived")
            try:
                for i, files in enumerate(STAGES[mutant.module]):
                    timeout = max(60.0, 4 * result.baseline[" ".join(files)])
                    status, seconds = _run_stage(scratch, files, timeout, log)
                    outcome.seconds += seconds
                    if status == "timeout":  # slow or stuck: once more, with more time
                        status, seconds = _run_stage(scratch, files, 3 * timeout, log)
                        outcome.seconds += seconds
                    if status != "passed":
                        outcome.status, outcome.stage = status, i + 1
                        break
            finally:
                target.write_text(original, encoding="utf-8")
            if outcome.status == "survived" and mutant.id in EQUIVALENT:
                outcome.status, outcome.note = "equivalent", EQUIVALENT[mutant.id]
            if outcome.status in ("killed", "equivalent"):
                log.unlink(missing_ok=True)
            result.outcomes.append(outcome)
            _save(result, log_dir / "results.json")  # after each mutant: --resume goes on
            print(f"[{n}/{len(mutants)}] {outcome.status:<10} {mutant.id} (line {mutant.line}) "
                  f"{mutant.describe()[:80]} ({outcome.seconds:.1f} s)", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return result


def _file_name(mutant_id: str) -> str:
    return "".join(c if c.isalnum() or c in "-_.~" else "_" for c in mutant_id)


def stale_equivalents() -> list[str]:
    """Ids in tests/mutation/equivalent.py that no mutant of MODULES has any more (the line or
    its function was edited, renamed or moved): each needs a fresh look."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        ids = {m.id for module in MODULES for m in sites(REPO, module, check=False)}
    return sorted(set(EQUIVALENT) - ids)


def _save(result: Run, path: Path) -> None:
    saved = json.loads(path.read_text()) if result.merge and path.is_file() else {}
    saved.update({o.mutant.id: {"status": o.status, "stage": o.stage} for o in result.outcomes})
    path.write_text(json.dumps(saved, indent=1))


def score(result: Run) -> tuple[int, int, float]:
    killed = sum(1 for o in result.outcomes if o.status == "killed")
    counted = sum(1 for o in result.outcomes if o.status != "equivalent")
    return killed, counted, (100.0 * killed / counted if counted else 100.0)


def report(result: Run, args: argparse.Namespace, seconds: float) -> str:
    killed, counted, pct = score(result)
    by_module: dict[str, list[Outcome]] = {}
    for o in result.outcomes:
        by_module.setdefault(o.mutant.module, []).append(o)
    lines = [
        "# Mutation testing",
        "",
        "Written by `make mutate` (`python tests/mutation/run.py`, see its docstring): a sample",
        "of deliberate one-edit bugs in the parser, the host parser, the setters, the result",
        "model and the server, each run against the suite without the browser and Pyodide runs.",
        "A mutant is killed when a test fails. A run out of time is run again with three times",
        "the time; a second timeout is listed apart and counts as not killed. Survivors are either",
        "killed by new tests or listed with why they are equivalent",
        "(tests/mutation/equivalent.py): the score leaves those out.",
        "",
        (f"- command: `python tests/mutation/run.py --ids {' '.join(args.ids)}"
         + (" --append" if args.append else "") if args.ids else
         f"- command: `python tests/mutation/run.py --per-module {args.per_module} --seed "
         f"{args.seed} --budget {args.budget:.0f}")
        + (f" --only {args.only}" if args.only else "")
        + (" --resume" if args.resume else "") + "`",
        f"- date: {datetime.date.today().isoformat()}; machine: {platform.machine()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
        f"- time: {seconds / 60:.1f} min (budget {args.budget / 60:.0f} min; the unmutated stages "
        f"took {sum(result.baseline.values()) / 60:.1f} min in all)",
        f"- mutants run: {len(result.outcomes)}"
        + (f" ({result.not_run} of the sample not run: budget spent)" if result.not_run else ""),
        f"- **score: {killed} killed of {counted} = {pct:.1f}%** "
        f"({sum(1 for o in result.outcomes if o.status == 'equivalent')} equivalent left out; "
        f"{sum(1 for o in result.outcomes if o.status == 'timeout')} timeouts counted as not "
        "killed)",
        "",
        "| module | run | killed | survived | timeout | equivalent |",
        "|---|---|---|---|---|---|",
    ]
    for module, outs in by_module.items():
        lines.append(f"| `{module}` | {len(outs)} | "
                     + " | ".join(str(sum(1 for o in outs if o.status == s))
                                  for s in ("killed", "survived", "timeout", "equivalent"))
                     + " |")
    most = max(len(stages) for stages in STAGES.values())
    stages = [sum(1 for o in result.outcomes if o.stage == i + 1 and o.status == "killed")
              for i in range(most)]
    lines += ["", "Killed in stage " + ", ".join(f"{i + 1}: {n}" for i, n in enumerate(stages))
              + ".", ""]

    def table(title: str, outs: list[Outcome], note: bool) -> None:
        lines.extend([f"## {title}", ""])
        if not outs:
            lines.extend(["None.", ""])
            return
        lines.append("| id | where | operator | edit |" + (" why equivalent |" if note else ""))
        lines.append("|---|---|---|---|" + ("---|" if note else ""))
        for o in outs:
            m = o.mutant
            edit = m.describe().replace("|", "\\|").replace("`", "'")
            if len(edit) > 120:
                edit = edit[:117] + "..."
            lines.append(f"| `{m.id}` | `{m.module}:{m.line}` | {m.operator} | `{edit}` |"
                         + (f" {o.note} |" if note else ""))
        lines.append("")

    table("Survivors", [o for o in result.outcomes if o.status == "survived"], False)
    table("Timeouts", [o for o in result.outcomes if o.status == "timeout"], False)
    table("Equivalent mutants", [o for o in result.outcomes if o.status == "equivalent"], True)
    listed = {o.mutant.id for o in result.outcomes if o.status == "equivalent"}
    lines += ["## Equivalent mutants this run did not draw", "",
              "The rest of tests/mutation/equivalent.py, with why:", ""]
    lines += [f"- `{k}`: {v}" for k, v in EQUIVALENT.items() if k not in listed] or ["None."]
    stale = stale_equivalents()
    if stale:
        lines += ["", "Listed as equivalent but no longer a mutant of the modules (the line or "
                  "its function changed: look again): " + ", ".join(f"`{k}`" for k in stale)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-module", type=int,
                        default=int(os.environ.get("MUTATE_PER_MODULE", 12)))
    parser.add_argument("--seed", type=int, default=int(os.environ.get("MUTATE_SEED", 16)))
    parser.add_argument("--budget", type=float,
                        default=float(os.environ.get("MUTATE_BUDGET", 2400)),
                        help="seconds; mutants left when it is spent are not run (and reported)")
    parser.add_argument("--only", help="only the modules whose path contains this")
    parser.add_argument("--report", type=Path,
                        help="default: docs/mutation.md; with --ids, ids.md beside the logs")
    parser.add_argument("--min-score", type=float, default=None,
                        help="exit 1 when the score (percent) is below this")
    parser.add_argument("--logs", type=Path, default=REPO / ".cache" / "mutation")
    parser.add_argument("--resume", action="store_true",
                        help="do not run again the mutants the last run killed (run the others)")
    parser.add_argument("--ids", nargs="+", metavar="ID",
                        help="run these mutants (ids as the report gives them), not a sample; "
                        "their results join the last run's (for --resume)")
    parser.add_argument("--append", action="store_true",
                        help="add this run's report at the end of --report (e.g. a --ids re-run "
                        "of the survivors below the run that found them)")
    args = parser.parse_args(argv)
    if args.report is None:
        args.report = args.logs / "ids.md" if args.ids else REPO / "docs" / "mutation.md"
    args.logs.mkdir(parents=True, exist_ok=True)
    saved = args.logs / "results.json"
    earlier = json.loads(saved.read_text()) if args.resume and saved.is_file() else {}
    started = time.monotonic()
    result = run(args.per_module, args.seed, args.budget, args.only, args.logs, earlier,
                 args.ids)
    seconds = time.monotonic() - started
    _save(result, saved)
    text = report(result, args, seconds)
    if args.append and args.report.is_file():
        text = "\n".join("#" + line if line.startswith("#") else line
                         for line in text.replace("# Mutation testing", "# Re-run", 1).splitlines())
        with args.report.open("a", encoding="utf-8") as out:
            out.write("\n" + text + "\n")
    else:
        args.report.write_text(text + "\n", encoding="utf-8")
    killed, counted, pct = score(result)
    print(f"\nscore: {killed} killed of {counted} = {pct:.1f}% in {seconds / 60:.1f} min; "
          f"report: {args.report}; logs of survivors: {args.logs}")
    if args.min_score is not None and pct < args.min_score:
        print(f"the score fell below {args.min_score}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
