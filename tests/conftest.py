from __future__ import annotations

import sys
from pathlib import Path

# tests/conformance.py is shared with the Pyodide harness; make it importable as a module.
sys.path.insert(0, str(Path(__file__).parent))

# Hypothesis profiles: "ci" (the default: the normal suite, a few seconds per property,
# deterministic) and "deep" (`make fuzz`, benchmarks/fuzz.py: many more examples, random).
# HYPOTHESIS_PROFILE=deep pytest ... selects the deep one for a pytest run.
import os

from hypothesis import HealthCheck, settings

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile("ci", max_examples=300, deadline=None, derandomize=True,
                          suppress_health_check=_SLOW_OK, print_blob=True)
settings.register_profile("deep", max_examples=int(os.environ.get("FUZZ_EXAMPLES", "10000")),
                          deadline=None,
                          suppress_health_check=_SLOW_OK, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_terminal_summary(terminalreporter: object) -> None:
    """Print how many examples each property of tests/test_properties.py ran."""
    module = sys.modules.get("test_properties")
    counts = getattr(module, "COUNTS", None)
    if not counts:
        return
    write = getattr(terminalreporter, "write_line")  # noqa: B009
    write("property examples run (tests/test_properties.py):")
    for name, n in sorted(counts.items()):
        write(f"  {n:>7,}  {name}")
