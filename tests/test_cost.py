"""The cost model (urlcalc.answers.cost) against the clock: no request costs much more than its
estimate says (a heavy request estimated light would run in the server's own threads). Ratios to
a small parse timed in the same run; benchmarks/cost.py prints the table."""

from __future__ import annotations

import pytest

from benchmarks import cost as bench
from urlcalc.answers.cost import SMALL_COST_MS, estimate

# A sample may cost at most this many times its estimate (both as multiples of a small parse).
MAX_OVER_ESTIMATE = 3.0


@pytest.fixture(scope="module")
def small_ms() -> float:
    return bench.small_ms()


@pytest.mark.parametrize(("label", "kind", "params"), bench.samples(),
                         ids=[s[0] for s in bench.samples()])
def test_no_request_costs_much_more_than_its_estimate(small_ms: float, label: str, kind: str,
                                                       params: dict[str, object]) -> None:
    measured = bench.cpu_ms(kind, params, runs=2) / small_ms
    estimated = estimate(kind, params).ms / SMALL_COST_MS
    assert measured <= MAX_OVER_ESTIMATE * estimated, \
        f"{label}: {measured:.1f}x a small parse, estimated {estimated:.1f}x"


def test_malformed_requests_are_estimated_small() -> None:
    for kind, params in (("parse", None), ("nope", {}), ("parse", {"input": 5}),
                         ("set", {"input": "a:", "ops": "x"}), ("set", {"ops": [1, [2]]})):
        assert estimate(kind, params).ms <= 2 * SMALL_COST_MS
