"""Which engine computed a result: CPython or Pyodide, with the Unicode data each uses."""

from __future__ import annotations

import platform
import sys
from functools import cache
from importlib import metadata


@cache
def engine_info() -> dict[str, str]:
    from urlcalc import __version__, uts46

    try:
        idna_version = metadata.version("idna")
    except metadata.PackageNotFoundError:  # Pyodide: idna comes from the bundle, unregistered
        import idna

        idna_version = getattr(idna, "__version__", "unknown")
    return {
        "name": "pyodide" if sys.platform == "emscripten" else platform.python_implementation()
        .lower(),
        "python": platform.python_version(),
        "unicode": uts46.UNICODE_VERSION,
        "idna_tables": uts46.IDNA_TABLES_VERSION,
        "idna": idna_version,
        "urlcalc": __version__,
    }
