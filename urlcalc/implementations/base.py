"""What every implementation adapter gives the Implementations model: a ``Reading`` of one input
(against an optional base), mapped onto the URL API's eleven getters as well as the library's
API allows, and the ``Implementation`` description the view shows beside it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypedDict

from urlcalc.model.runtime import engine_info
from urlcalc.standard.url import GETTERS

#: In the page's Pyodide only urllib runs: the bundle holds urlcalc and idna alone, and there is
#: no node.
IN_PYODIDE = sys.platform == "emscripten"
SERVER_ONLY = "runs on the server only (the page's Python holds urlcalc and idna alone)"

@dataclass
class Reading:
    """One implementation's answer. ``ok`` False: the library rejected the input (``failure``
    is its own message). ``getters`` maps each of the eleven getters to a string, or to None
    where the library has no such notion (``getter_errors`` names a getter whose accessor
    raised). ``relative``: the library read the input as a relative reference (no scheme)
    where the URL Standard needs an absolute URL."""

    ok: bool
    getters: dict[str, str | None] = field(default_factory=dict)
    failure: str | None = None
    getter_errors: dict[str, str] = field(default_factory=dict)
    relative: bool = False

    @classmethod
    def failed(cls, failure: str) -> Reading:
        return cls(ok=False, failure=failure)

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "href": self.getters.get("href") if self.ok else None,
            "failure": None if self.ok else self.failure,
            "relative": self.relative,
            "getters": {g: self.getters.get(g) for g in GETTERS} if self.ok else None,
            "getter_errors": dict(self.getter_errors),
        }


class Unavailable(Exception):
    """Raised by ``read`` when the implementation cannot run after all (its node helper died):
    the message is the "not available" reason."""


@cache
def server_package(load: Callable[[], object], package: str) -> Callable[[], str | None]:
    """The ``unavailable`` of an adapter that reads an optional package on the server: why it
    cannot run here (in Pyodide, or the package is not installed), or None."""
    def unavailable() -> str | None:
        if IN_PYODIDE:
            return SERVER_ONLY
        try:
            load()
        except ImportError:
            return (f"the {package} package is not installed "
                    "(pip install 'urlcalc[implementations]')")
        return None
    return unavailable


@cache
def package_version(distribution: str) -> str | None:
    """The installed version of a PyPI distribution (read once: reading it parses its metadata,
    which took most of an Implementations answer, 7 of 11 ms, when it was read every time),
    or None when it is not installed."""
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def python_runtime() -> str:
    """The ``runtime`` of an adapter that runs in this process: "CPython 3.11.2", or
    "Pyodide 3.13.2" in the page."""
    info = engine_info()
    name = "Pyodide" if info["name"] == "pyodide" else "CPython"
    return f"{name} {info['python']}"


class PackageReading(TypedDict):
    """How an adapter of an optional PyPI package, run in this process, says whether it can run
    here, which version it reads and on what: ``Implementation(..., **python_package(...))``."""

    unavailable: Callable[[], str | None]
    version: Callable[[], str | None]
    runtime: Callable[[], str]


def python_package(load: Callable[[], object], package: str) -> PackageReading:
    """The availability, version and runtime of the adapter of ``package`` (imported by
    ``load``), on the server's Python."""
    return {"unavailable": server_package(load, package),
            "version": lambda: package_version(package), "runtime": python_runtime}


def exception_text(e: BaseException) -> str:
    """``ValueError: Port out of range 0-65535``: what a program calling the library sees."""
    text = str(e)
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


@dataclass(frozen=True)
class Implementation:
    """An implementation of URLs the model puts beside the standard.

    ``family``: "whatwg" for implementations of the URL Standard (their differences are bugs
    or lag), else the library's own model ("urllib", "rfc3986", "yarl"). ``mapping`` says, per
    getter, how the library's API is mapped onto it, or (for a getter in ``no_notion``) why it
    has no such notion."""

    id: str
    name: str
    family: str
    runtime_kind: str  # "python" (in this process) or "node" (the node helper)
    about: str
    call: str
    package: str  # the registry package: "pypi:rfc3986", "npm:whatwg-url", "stdlib", "node"
    mapping: dict[str, str]
    no_notion: dict[str, str]
    #: None when it can run here, else why not.
    unavailable: Callable[[], str | None]
    version: Callable[[], str | None]
    runtime: Callable[[], str]
    read: Callable[[str, str | None], Reading]
    #: The Punycode its host parsing goes through, when it has one (quadratic in a label's
    #: non-ASCII code points): it is not run on a host over the caps of
    #: urlcalc.implementations.idna_cap, and its column says why.
    idna: str | None = None
