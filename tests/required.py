"""Tools the suite needs beyond the Python packages: what happens when one is missing.

`make test` (and so CI) installs every one of them (node and npm packages, whatwg-url for the
differential test, Debian's Chromium, Pyodide) and sets ``URLCALC_REQUIRE_ALL=1``: then a missing
tool fails the tests that need it, so a broken setup cannot pass as a shorter green run. A
developer running bare ``pytest`` without them gets skips instead, each with its reason (listed at
the end of the run: ``-rs`` is in pytest's options). tests/conftest.py also turns any other skip
into a failure under ``URLCALC_REQUIRE_ALL=1``.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest

ENV = "URLCALC_REQUIRE_ALL"


def require_all() -> bool:
    return os.environ.get(ENV, "") not in ("", "0")


def missing(what: str, *, module_level: bool = False) -> NoReturn:
    """``what`` (a tool the test needs, and how to get it) is missing: fail under
    URLCALC_REQUIRE_ALL, else skip with that reason."""
    if require_all():
        pytest.fail(f"{what} ({ENV}=1: `make test` installs it, so its absence is a failure)",
                    pytrace=False)
    pytest.skip(what, allow_module_level=module_level)


def import_or_missing(name: str, how: str) -> ModuleType:
    """Import a module the tests need (at module level), or ``missing`` it."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        missing(f"{name} cannot be imported ({e}): {how}", module_level=True)
