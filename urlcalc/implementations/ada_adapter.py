"""``ada-url`` (PyPI): Python bindings to Ada, the C++ URL parser that implements the URL
Standard (the one inside Node.js). Server only; an optional dependency
(``pip install urlcalc[implementations]``)."""

from __future__ import annotations

from typing import Any

from urlcalc.implementations.base import Implementation, Reading, exception_text, python_package
from urlcalc.standard.url import GETTERS


def _module() -> Any:
    import ada_url

    return ada_url


def read(input: str, base: str | None) -> Reading:
    ada_url = _module()
    try:
        url = ada_url.URL(input, base) if base is not None else ada_url.URL(input)
    except ValueError as e:
        return Reading.failed(exception_text(e))
    return Reading(ok=True, getters={g: str(getattr(url, g)) for g in GETTERS})


ADA = Implementation(
    id="ada",
    name="ada-url",
    family="whatwg",
    runtime_kind="python",
    about="Python bindings to Ada, a fast C++ implementation of the URL Standard (the parser "
    "inside Node.js since version 18); a difference from the standard is a bug in Ada or a "
    "change of the standard since this version.",
    call="ada_url.URL(input, base)",
    package="pypi:ada-url",
    mapping={g: f".{g}" for g in GETTERS},
    no_notion={},
    **python_package(_module, "ada-url"),
    read=read,
    idna="Ada's C++ Punycode",
)
