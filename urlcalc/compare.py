"""The Compare view's model: one input read by six older URL specifications and the current
URL Standard (urlcalc.editions holds the editions)."""

from __future__ import annotations

from typing import Any

from urlcalc.api import URL, URLParseError
from urlcalc.editions.compare import compare, format_table
from urlcalc.engine import engine_info
from urlcalc.infra import to_usv


def compare_model(input: str, base: str | None = None, errata: bool = False) -> dict[str, Any]:
    input = to_usv(input)
    base = to_usv(base) if base is not None else None
    try:
        current: dict[str, str] | None = URL(input, base).getters()
    except URLParseError:
        current = None
    out: dict[str, Any] = {"model": "urlcalc", "version": 1, "kind": "compare",
                           "engine": engine_info(), "errata": errata}
    out.update(compare(input, base, current, errata=errata))
    return out


def format_compare(result: dict[str, Any]) -> str:
    return format_table(result)
