"""Which engine computed a result: CPython or Pyodide, with the Unicode data each uses."""

from __future__ import annotations

import sys
from functools import cache
from typing import TypedDict

#: urlcalc's version: the one place it is written (pyproject.toml reads it from here).
VERSION = "0.1.0"


class Engine(TypedDict):
    """Which Python, Unicode and IDNA tables computed the answer."""

    #: "cpython" or "pyodide"
    name: str
    python: str
    unicode: str
    idna_tables: str
    idna: str
    urlcalc: str


def engine_info() -> Engine:
    """Which engine answers (Python, Unicode, IDNA tables, versions): a fresh dict each time,
    since it goes into every answer and a caller may change its answer."""
    return Engine(**_engine_info())


@cache
def _engine_info() -> Engine:
    # Neither ``platform`` nor ``importlib.metadata``: importing them costs tens of ms in Pyodide,
    # whose boot this is on the way of (and idna comes from the bundle there, unregistered).
    import idna

    from urlcalc.standard import uts46

    idna_version = getattr(idna, "__version__", None)
    if idna_version is None:
        from importlib import metadata

        try:
            idna_version = metadata.version("idna")
        except metadata.PackageNotFoundError:
            idna_version = "unknown"
    return {
        "name": "pyodide" if sys.platform == "emscripten" else sys.implementation.name,
        "python": "{}.{}.{}".format(*sys.version_info[:3]),
        "unicode": uts46.UNICODE_VERSION,
        "idna_tables": uts46.IDNA_TABLES_VERSION,
        "idna": idna_version,
        "urlcalc": VERSION,
    }
