"""A deterministic zip of urlcalc's source and its pure-Python dependency ``idna``.

The browser (and the Pyodide conformance harness) unpacks it straight into site-packages::

    pyodide.unpackArchive(bytes, "zip", {extractDir: site_packages})

after which ``import urlcalc`` and ``import idna`` work.  The archive is byte-for-byte
reproducible: entries are sorted, every timestamp is fixed and every mode is 0644, so its
sha256 (``bundle_digest()``) can serve as a cache key / ETag.

Usage: ``python -m urlcalc.site.bundle OUT.zip``.

This module deliberately imports no other urlcalc module.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import io
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

__all__ = ["build_bundle", "bundle_digest", "main"]

# 1980-01-01 00:00:00 is the earliest date a zip entry can hold.
_FIXED_DATE = (1980, 1, 1, 0, 0, 0)
_FILE_MODE = 0o644
_SKIP_DIRS = frozenset({"__pycache__"})
# Sources, PEP 561 markers (py.typed) and data (the URL Standard's steps, urlcalc/data); nothing
# else (no caches).
_SUFFIXES = frozenset({".py", ".typed", ".json"})
# Every layer of urlcalc but serving (urlcalc.serving: the HTTP server, the socket, the worker
# pool): the browser answers through the request table (urlcalc.answers) and serves nothing.
_SKIP_LAYERS = frozenset({("urlcalc", "serving")})


def _package_dir(name: str) -> Path:
    """Directory of an importable package, found without importing it."""
    if name == "urlcalc":
        return Path(__file__).resolve().parent.parent
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"cannot bundle {name!r}: package not found")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    """Yield ``(archive name, path)`` for the package at ``root``, named ``root.name/...``."""
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if any(part in _SKIP_DIRS or part.startswith(".") for part in rel.parts) \
                or (root.name, *rel.parts[:1]) in _SKIP_LAYERS:
            continue
        if path.is_file() and path.suffix in _SUFFIXES:
            yield "/".join((root.name, *rel.parts)), path


def _entries() -> list[tuple[str, Path]]:
    entries = [
        *_files(_package_dir("urlcalc")),
        *_files(_package_dir("idna")),
    ]
    entries.sort(key=lambda item: item[0])
    return entries


def build_bundle() -> bytes:
    """Return the zip archive's bytes (identical for identical sources)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, path in _entries():
            info = zipfile.ZipInfo(name, date_time=_FIXED_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so that external_attr below means a Unix mode
            info.external_attr = (0o100000 | _FILE_MODE) << 16  # regular file, rw-r--r--
            zf.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


@functools.cache
def _cached_bundle() -> bytes:
    return build_bundle()


def bundle_bytes() -> bytes:
    """The bundle built once per process (what a server should send)."""
    return _cached_bundle()


def bundle_digest() -> str:
    """sha256 hex digest of the bundle, computed once per process."""
    return _cached_digest()


@functools.cache
def _cached_digest() -> str:
    return hashlib.sha256(_cached_bundle()).hexdigest()


def main(argv: list[str] | None = None) -> int:
    """``python -m urlcalc.site.bundle OUT.zip``: write the bundle, print its digest and size."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] in {"-h", "--help"}:
        print("usage: python -m urlcalc.site.bundle OUT.zip", file=sys.stderr)
        return 2
    data = build_bundle()
    Path(args[0]).write_bytes(data)
    print(f"{hashlib.sha256(data).hexdigest()}  {args[0]} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
