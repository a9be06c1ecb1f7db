"""`make fuzz`: the property tests with the "deep" hypothesis profile, then the differential run
against the reference implementation at 100,000 generated cases.

* Properties: every test of tests/test_properties.py, run directly (not through pytest) with
  the "deep" profile of tests/conftest.py (FUZZ_EXAMPLES examples each, default 10,000; random,
  so each run searches new ground; failures are saved in .hypothesis/ and replayed first next
  time). Prints the examples each property ran.
* Differential: generate.cases(FUZZ_CASES, FUZZ_SEED) (default 100,000 cases, seed 1) plus the
  fixed WPT-derived cases, through urlcalc and whatwg-url (tests/differential/reference.mjs);
  prints the counts, the known reference divergences (tests/differential/known.py) and the first
  disagreements.
* API: tests/test_api_fuzz.py through pytest with API_FUZZ_EXAMPLES (default 300 Schemathesis
  examples per operation, random) and API_FUZZ_MALFORMED (default 3,000 malformed bodies);
  prints the requests sent and the 5xx seen.

Exit status 1 when a property fails or a disagreement is found.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"


def run_properties() -> bool:
    os.environ.setdefault("HYPOTHESIS_PROFILE", "deep")
    sys.path.insert(0, str(TESTS))
    import conftest  # noqa: F401 - registers and loads the hypothesis profile
    import test_properties
    from hypothesis import settings

    print(f"properties: hypothesis profile {os.environ['HYPOTHESIS_PROFILE']!r}, "
          f"max_examples {getattr(settings.default, 'max_examples', '?')}", flush=True)
    ok = True
    tests: list[tuple[str, Callable[[], Any]]] = [
        (name, fn) for name, fn in vars(test_properties).items()
        if name.startswith("test_") and callable(fn)]
    for name, fn in tests:
        t = time.perf_counter()
        try:
            fn()
        except Exception:
            ok = False
            print(f"  FAILED {name} ({time.perf_counter() - t:.0f} s)")
            traceback.print_exc()
        else:
            print(f"  passed {name} ({time.perf_counter() - t:.0f} s)", flush=True)
    print("property examples run:")
    for key, n in sorted(test_properties.COUNTS.items()):
        print(f"  {n:>9,}  {key}")
    return ok


def run_differential() -> bool:
    sys.path.insert(0, str(TESTS))
    from differential import generate
    from differential.runner import Reference, compare, describe, reference_available

    why = reference_available()
    if why is not None:
        print(f"differential: cannot run ({why})")
        return False
    n = int(os.environ.get("FUZZ_CASES", "100000"))
    seed = int(os.environ.get("FUZZ_SEED", "1"))
    requests = generate.fixed_cases() + generate.cases(n, seed)
    for req in requests:
        if req["op"] == "parse":
            req["errors"] = True
    t = time.perf_counter()
    with Reference() as ref:
        theirs = ref.run(requests)
    t_ref = time.perf_counter() - t
    outcome = compare(requests, theirs)
    print(f"differential (seed {seed}, {n:,} generated + {len(requests) - n:,} fixed): "
          f"{outcome.summary()} [reference {t_ref:.0f} s, urlcalc and compare "
          f"{time.perf_counter() - t - t_ref:.0f} s]")
    for d in outcome.disagreements[:40]:
        print(describe(*d))
    return not outcome.disagreements


def run_api_fuzz() -> bool:
    import subprocess

    env = dict(os.environ)
    env.setdefault("API_FUZZ_EXAMPLES", "300")
    env.setdefault("API_FUZZ_MALFORMED", "3000")
    env.pop("HYPOTHESIS_PROFILE", None)
    print(f"API fuzz: {env['API_FUZZ_EXAMPLES']} Schemathesis examples per operation, "
          f"{env['API_FUZZ_MALFORMED']} malformed bodies", flush=True)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(TESTS / "test_api_fuzz.py")], cwd=ROOT, env=env, check=False)
    print(f"API fuzz: {'passed' if done.returncode == 0 else 'FAILED'} "
          f"({time.perf_counter() - t:.0f} s)")
    return done.returncode == 0


def main() -> int:
    ok = run_properties()
    ok = run_differential() and ok
    ok = run_api_fuzz() and ok
    print("fuzz: " + ("no failure" if ok else "FAILURES (see above)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
