"""WPT scores per implementation: passing cases per file. Written by `make interop`
(benchmarks/interop.py), together with docs/interop.md; do not edit by hand."""

from __future__ import annotations

from typing import Any

FILES: tuple[str, ...] = ()
MEASURED = ""
SCORES: dict[str, dict[str, Any]] = {}
