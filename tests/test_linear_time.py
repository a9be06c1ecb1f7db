"""The bounded part of the linear-time benchmark (benchmarks/linear.py) that `make test` runs.

For the shapes listed here, the best CPU time at 10n must stay within MAX_RATIO of the time at n
(a linear shape measures 9-11x; the quadratic Punycode decoder of issue 10 measured 50-70x on its
own, 22x through ``URL.parse`` and 43x traced). A ratio, never an absolute time: machines differ
twofold, a ratio within one run does not. The sizes are a fraction of `make bench`'s (``SCALE``)
so that the whole module takes a few seconds; `make bench` runs every shape at full size with
the 12x target and the memory ratios.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import linear

# linear.TARGET is 12x at full size; small sizes carry relatively more fixed cost (which lowers
# the ratio) and more noise from a shared machine (which can raise it): 20x is far from both a
# linear 10x and the quadratic 22-70x.
MAX_RATIO = 20.0

# (shape name, mode, scale of the benchmark's n)
CASES = [
    ("Punycode overflow xn--999", "untraced", 1.0),
    ("Punycode overflow xn--999", "traced", 0.2),
    ("Punycode overflow after basic", "untraced", 1.0),
    ("Punycode overflow after basic", "traced", 0.1),
    ("Punycode overflow, relaxed run", "untraced", 1.0),
    ("Punycode overflow, relaxed run", "traced", 0.2),
    ("Punycode labels xn--99999999.", "untraced", 0.5),
    ("Punycode overflow, host setter", "untraced", 1.0),
    ("Punycode overflow, host setter", "traced", 0.5),
    ("Punycode label, decode", "untraced", 0.1),
    ("Punycode decode, relaxed run", "untraced", 0.1),
]

SHAPES = {shape.name: shape for shape in linear.SHAPES}


@pytest.mark.parametrize(("name", "mode", "scale"), CASES,
                         ids=[f"{name} ({mode})" for name, mode, _ in CASES])
def test_punycode_shapes_take_linear_time(name: str, mode: str, scale: float) -> None:
    small, large = linear.time_ratio(SHAPES[name], mode, scale, budget=0.2)
    ratio = large / max(small, 1e-9)
    assert ratio <= MAX_RATIO, (
        f"{name} ({mode}): t(10n) / t(n) = {ratio:.1f}x ({small * 1e3:.1f} ms -> "
        f"{large * 1e3:.1f} ms), over {MAX_RATIO:g}x")
