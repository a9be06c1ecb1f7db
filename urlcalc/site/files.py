"""The page's files: which ones a browser loads, where they come from, and how they are staged.

One list of files, two places it comes from::

    a source checkout                    an installed wheel (or a static export)
    web/index.html, web/css|js|img/      urlcalc/web/index.html, css|js|img/
    web/isolation-worker.js              urlcalc/web/isolation-worker.js
    web/node_modules/pyodide/<boot>      urlcalc/web/pyodide/<boot>
    bundle.zip built from the sources    urlcalc/web/bundle.zip
    web/boot/ (make: the boot snapshot,  urlcalc/web/boot/ (only when made from that bundle.zip)
      brotli copies, snapshot.json)
    web/licenses/ + idna's own licence   urlcalc/web/licenses/
      + LICENSE, index written here

``locate()`` finds the files (``$URLCALC_WEB_DIR``, else the checkout's web/, else the copy
inside the installed package); ``Site.files()`` lists every file of the site under its URL path;
``write_site()`` copies them into a folder in the staged layout. The wheel build (setup.py)
stages the checkout into ``urlcalc/web/`` with it, and ``urlcalc.site.export`` writes a static site
with it, so the wheel, the export and ``urlcalc serve`` from a checkout serve the same files.

Only the standard library and ``urlcalc.site.bundle`` are imported here: the wheel build runs this
module with nothing but setuptools and idna installed.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import shutil
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from urlcalc.site import bundle

__all__ = [
    "BOOT_DIR",
    "LICENSES_DIR",
    "PACKAGED_WEB",
    "PAGE_FOLDERS",
    "PYODIDE_FILES",
    "ROOT_FILES",
    "SOURCE_WEB",
    "PublicURLError",
    "Site",
    "SiteError",
    "check_public_url",
    "locate",
    "public_url_host",
    "write_site",
]

PACKAGE_DIR = Path(__file__).resolve().parent.parent
REPO = PACKAGE_DIR.parent
# The page's source in a checkout (the project's top-level web/).
SOURCE_WEB = REPO / "web"
# The staged copy inside an installed package (written by the wheel build).
PACKAGED_WEB = PACKAGE_DIR / "web"
# Where `make npm` (npm ci in web/) puts the pinned Pyodide package.
NPM_PYODIDE = Path("node_modules") / "pyodide"

# Exactly what `loadPyodide` fetches in a module worker (checked in Chromium: the page, the worker,
# these five files and bundle.zip are every request of a cold boot; the npm package holds no
# wheels, and no package is loaded). Only these are served, staged and exported.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# The boot snapshot and the brotli copies of the big boot files (web/tools/make-snapshot.mjs,
# run by make into web/boot/): snapshot.bin, <name>.br, and snapshot.json (its manifest: the
# Pyodide version, the sha256 of its pyodide.asm.wasm and of the bundle.zip the snapshot was
# made from, and the sha256 of the source of each .br and .gz). Served as /boot/snapshot.bin;
# /boot.json tells the worker whether to use it.
BOOT_DIR = "boot"
SNAPSHOT = "snapshot.bin"
BOOT_MANIFEST = "snapshot.json"
BOOT_JSON = "boot.json"
# Folders of the page, served as /<folder>/... and copied whole (hidden files excepted).
PAGE_FOLDERS = ("css", "js", "img")
# Files of the page at the site's root beside index.html, served as /<name> and copied when
# present: the service worker that makes a static export cross-origin isolated (its scope is
# the folder it is in, so it must be at the root; see web/js/engine/isolation.js).
ROOT_FILES = ("isolation-worker.js",)
# The licences of what the site ships, served as /licenses/<name>.
LICENSES_DIR = "licenses"
LICENSE_INDEX = "README.txt"
# The licence files kept in web/licenses/ (texts that the npm package does not carry).
PYODIDE_LICENSE = "Pyodide-MPL-2.0.txt"
CPYTHON_LICENSE = "CPython-PSF-LICENSE.txt"
URLCALC_LICENSE = "urlcalc-LICENSE.txt"
IDNA_LICENSE = "idna-LICENSE.md"


class SiteError(FileNotFoundError):
    """A file the site needs is missing (the message says which, and how to get it)."""


class PublicURLError(ValueError):
    """A public URL the calculator cannot be published at (the message says why)."""


def _visible_files(src: Path) -> Iterator[tuple[str, Path]]:
    """(relative path with "/", path) of every regular file under ``src``, hidden ones skipped."""
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if any(part.startswith(".") for part in rel.parts) or not path.is_file():
            continue
        yield "/".join(rel.parts), path


@dataclass(frozen=True)
class Site:
    """Where the page's files are. ``staged``: a copy in the staged layout (an installed
    package, an export), whose bundle.zip and licences are files; otherwise a source checkout,
    whose bundle is built from the sources and whose licence index is written here."""

    web: Path
    pyodide: Path
    staged: bool
    _memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # --- what the server asks for ------------------------------------------------------------

    def page_file(self, folder: str, name: str) -> Path:
        return self.web / folder / name

    def pyodide_file(self, name: str) -> Path:
        return self.pyodide / name

    def missing_pyodide(self) -> list[str]:
        return [name for name in PYODIDE_FILES if not (self.pyodide / name).is_file()]

    def pyodide_hint(self) -> str:
        """How to get the Pyodide files where they are missing."""
        if self.staged:
            return "this copy of urlcalc was built without them: rebuild it after `make npm`"
        return "run `make npm`"

    def bundle_bytes(self) -> bytes:
        """urlcalc + idna for Pyodide: the staged file, or built from the sources."""
        if not self.staged:
            return bundle.bundle_bytes()
        data = self._memo.get("bundle")
        if data is None:
            try:
                data = self._memo["bundle"] = (self.web / "bundle.zip").read_bytes()
            except OSError as e:
                raise SiteError(f"bundle.zip is missing from this copy of urlcalc ({e.strerror})"
                                ) from None
        assert isinstance(data, bytes)
        return data

    def bundle_digest(self) -> str:
        """sha256 hex of bundle_bytes(), computed once."""
        if not self.staged:
            return bundle.bundle_digest()
        digest = self._memo.get("bundle_digest")
        if digest is None:
            digest = self._memo["bundle_digest"] = hashlib.sha256(self.bundle_bytes()).hexdigest()
        assert isinstance(digest, str)
        return digest

    def licenses(self) -> dict[str, bytes]:
        """Every licence file of the site by name, with the index (README.txt) first."""
        if not self.staged:
            return _source_licenses(self)
        cached = self._memo.get("licenses")
        if cached is None:
            folder = self.web / LICENSES_DIR
            names = sorted(p.name for p in folder.iterdir() if p.is_file()) \
                if folder.is_dir() else []
            cached = self._memo["licenses"] = {n: (folder / n).read_bytes() for n in names}
        return dict(cached)

    def pyodide_version(self) -> str | None:
        """The npm package's version (a checkout) or what the staged index says."""
        if self.staged:
            return None
        try:
            data = json.loads((self.pyodide / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        version = data.get("version") if isinstance(data, dict) else None
        return version if isinstance(version, str) else None

    # --- the boot snapshot -----------------------------------------------------------------------

    @property
    def boot(self) -> Path:
        return self.web / BOOT_DIR

    def boot_manifest(self) -> dict[str, Any] | None:
        """web/boot/snapshot.json, or None when missing or unreadable."""
        try:
            data = json.loads((self.boot / BOOT_MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def wasm_digest(self) -> str | None:
        """sha256 hex of pyodide.asm.wasm (computed again when the file changes), or None."""
        path = self.pyodide / "pyodide.asm.wasm"
        try:
            st = path.stat()
            key = (st.st_mtime_ns, st.st_size)
            cached = self._memo.get("wasm_digest")
            if cached is not None and cached[0] == key:
                return str(cached[1])
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return None
        self._memo["wasm_digest"] = (key, digest)
        return digest

    def snapshot_path(self) -> Path | None:
        """boot/snapshot.bin when it was made from the bundle.zip and the Pyodide served here;
        None otherwise (missing, or stale: never served, staged or exported)."""
        manifest = self.boot_manifest()
        path = self.boot / SNAPSHOT
        if manifest is None or not path.is_file():
            return None
        try:
            digest = self.bundle_digest()
        except SiteError:
            return None
        if manifest.get("bundle") != digest or manifest.get("wasm") != self.wasm_digest():
            return None
        return path

    def boot_json(self, static: bool = False) -> dict[str, Any]:
        """What /boot.json says to the worker (see web/js/workers/pyodide-worker.js, bootPlan).
        ``static``: the file written into a static site, which names the gzip file (``"gzip":
        true``: the worker decompresses it), as a static host may send the snapshot uncompressed (42
        MB)."""
        try:
            digest: str | None = self.bundle_digest()
        except SiteError:
            digest = None
        manifest = self.boot_manifest() if self.snapshot_path() else None
        plan = {"pyodide": manifest.get("pyodide") if manifest else None, "bundle": digest,
                "snapshot": f"{BOOT_DIR}/{SNAPSHOT}" if manifest else None,
                "size": manifest.get("size") if manifest else None}
        if static and manifest and self.precompressed(SNAPSHOT, "gz") is not None:
            plan.update(snapshot=f"{BOOT_DIR}/{SNAPSHOT}.gz", gzip=True)
        return plan

    def precompressed(self, name: str, coding: str = "br") -> tuple[Path, str] | None:
        """(the file, the sha256 of the bytes it encodes) of a boot file compressed by make
        (``coding``: "br" or "gz"), if there is one."""
        manifest = self.boot_manifest()
        entry = (manifest or {}).get(coding, {}).get(name)
        path = self.boot / f"{name}.{coding}"
        if not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str) \
                or not path.is_file():
            return None
        return path, entry["sha256"]

    # --- every file -----------------------------------------------------------------------------

    def files(self) -> Iterator[tuple[str, Path | bytes]]:
        """Every file of the site (URL path relative to the root, and where its bytes are).
        Raises SiteError if the page or a Pyodide boot file is missing."""
        index = self.web / "index.html"
        if not index.is_file():
            raise SiteError("the page is missing: index.html is not in "
                            + ("this copy of urlcalc" if self.staged else "web/"))
        missing = self.missing_pyodide()
        if missing:
            raise SiteError(f"Pyodide files missing ({', '.join(missing)}): "
                            f"{self.pyodide_hint()}")
        yield "index.html", index
        for name in ROOT_FILES:
            if (self.web / name).is_file():
                yield name, self.web / name
        for folder in PAGE_FOLDERS:
            if (self.web / folder).is_dir():
                for rel, path in _visible_files(self.web / folder):
                    yield f"{folder}/{rel}", path
        for name in PYODIDE_FILES:
            yield f"pyodide/{name}", self.pyodide / name
        yield "bundle.zip", self.bundle_bytes()
        snapshot = self.snapshot_path()
        # (urlcalc's server answers /boot.json itself: this file is a static site's)
        yield BOOT_JSON, (json.dumps(self.boot_json(static=True)) + "\n").encode("utf-8")
        if snapshot is not None:
            yield f"{BOOT_DIR}/{SNAPSHOT}", snapshot
            yield f"{BOOT_DIR}/{BOOT_MANIFEST}", self.boot / BOOT_MANIFEST
            for name in (SNAPSHOT, *PYODIDE_FILES):
                for coding in ("br", "gz"):
                    packed = self.precompressed(name, coding)
                    if packed is not None:
                        yield f"{BOOT_DIR}/{name}.{coding}", packed[0]
        for name, data in self.licenses().items():
            yield f"{LICENSES_DIR}/{name}", data


def _source_licenses(site: Site) -> dict[str, bytes]:
    """The licence files of a checkout: web/licenses/, urlcalc's LICENSE, idna's licence from
    its installed distribution (the idna that goes into bundle.zip), and an index."""
    cached = site._memo.get("licenses")
    if cached is not None:
        return dict(cached)
    files: dict[str, bytes] = {}
    folder = site.web / LICENSES_DIR
    if folder.is_dir():
        for rel, path in _visible_files(folder):
            files[rel] = path.read_bytes()
    own = REPO / "LICENSE"
    if own.is_file():
        files[URLCALC_LICENSE] = own.read_bytes()
    idna_version, idna_license = _idna_license()
    if idna_license is not None:
        files[IDNA_LICENSE] = idna_license
    index = _license_index(site, idna_version, sorted(files)).encode("utf-8")
    licenses = site._memo["licenses"] = {LICENSE_INDEX: index, **dict(sorted(files.items()))}
    return dict(licenses)


def _idna_license() -> tuple[str | None, bytes | None]:
    try:
        dist = importlib.metadata.distribution("idna")
    except importlib.metadata.PackageNotFoundError:
        return None, None
    for entry in dist.files or ():
        if Path(str(entry)).name.upper().startswith("LICENSE"):
            try:
                return dist.version, Path(str(dist.locate_file(entry))).read_bytes()
            except OSError:
                break
    return dist.version, None


def _pyodide_python(site: Site) -> str:
    try:
        lock = json.loads((site.pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
        return str(lock["info"]["python"])
    except (OSError, ValueError, KeyError, TypeError):
        return "3"


def _license_index(site: Site, idna_version: str | None, names: list[str]) -> str:
    from urlcalc.model.runtime import VERSION

    pyodide_version = site.pyodide_version() or "(unknown version)"
    python = _pyodide_python(site)
    boot = ", ".join(f"pyodide/{n}" for n in PYODIDE_FILES)
    lines = [
        "Licences of what this copy of urlcalc ships",
        "=" * 44,
        "",
        f"urlcalc {VERSION}: BSD-3-Clause ({URLCALC_LICENSE})",
        "  the page (index.html, css/, js/) and the urlcalc/ folder of bundle.zip",
        "",
        f"Pyodide {pyodide_version}: MPL-2.0 ({PYODIDE_LICENSE})",
        *textwrap.wrap(boot, 76, initial_indent="  ", subsequent_indent="  "),
        "  unmodified files of the npm package \"pyodide\"; its source code is at",
        f"  https://github.com/pyodide/pyodide (tag {pyodide_version}), where the",
        "  licences of further components compiled into pyodide.asm.wasm are listed",
        "",
        f"CPython {python}: PSF License Agreement ({CPYTHON_LICENSE})",
        "  the interpreter in pyodide/pyodide.asm.wasm and the standard library in",
        "  pyodide/python_stdlib.zip; the file is CPython's LICENSE as distributed with",
        "  CPython 3.11.7 (the PSF License Agreement, version 2, is that of every",
        "  Python 3 release)",
        "",
        f"idna {idna_version or '(not installed)'}: BSD-3-Clause ({IDNA_LICENSE})",
        "  the idna/ folder of bundle.zip (https://github.com/kjd/idna)",
        "",
    ]
    # Packages bundled into a page script at build time (`make npm`: js/vendor/) carry their
    # licences next to the bundle, as <bundle>.LICENSES.txt.
    for folder in PAGE_FOLDERS:
        for rel, _ in _visible_files(site.web / folder) if (site.web / folder).is_dir() else ():
            if rel.endswith(".LICENSES.txt"):
                bundled = rel.removesuffix(".LICENSES.txt")
                lines += [f"{Path(bundled).name} and the packages bundled into it: "
                          f"{folder}/{rel}",
                          f"  {folder}/{bundled}.mjs (built from web/node_modules by `make npm`)",
                          ""]
    listed = {URLCALC_LICENSE, PYODIDE_LICENSE, CPYTHON_LICENSE, IDNA_LICENSE}
    missing = sorted(listed - set(names))
    if missing:
        lines += [f"Missing from this copy: {', '.join(missing)}", ""]
    return "\n".join(lines)


def locate(web_dir: str | os.PathLike[str] | None = None,
           pyodide_dir: str | os.PathLike[str] | None = None) -> Site:
    """The site to serve or export: ``web_dir``, else $URLCALC_WEB_DIR, else the checkout's
    web/ (when running from a source checkout), else the copy inside the installed package.
    A folder with a pyodide/ subfolder is a staged copy; otherwise Pyodide is expected in its
    node_modules/pyodide (``pyodide_dir`` overrides both)."""
    chosen = web_dir or os.environ.get("URLCALC_WEB_DIR")
    if chosen:
        web = Path(chosen).resolve()
    elif (SOURCE_WEB / "index.html").is_file() and (REPO / "pyproject.toml").is_file():
        web = SOURCE_WEB
    else:
        web = PACKAGED_WEB
    staged = (web / "pyodide").is_dir() or web == PACKAGED_WEB
    if pyodide_dir:
        pyodide = Path(pyodide_dir).resolve()
    else:
        pyodide = web / "pyodide" if staged else web / NPM_PYODIDE
    return Site(web=web, pyodide=pyodide, staged=staged)


def write_site(site: Site, out: Path) -> list[str]:
    """Copy every file of ``site`` into ``out`` (created; its old contents are the caller's
    business) in the staged layout; return the relative paths written."""
    written = []
    for rel, source in site.files():
        target = out.joinpath(*rel.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, bytes):
            target.write_bytes(source)
        else:
            shutil.copyfile(source, target)
        written.append(rel)
    return written


def check_public_url(url: str) -> str:
    """``url`` as the calculator's public address (where its index.html is published), parsed
    by urlcalc's own URL parser: an absolute http(s) URL without credentials, query or fragment;
    the path gets a trailing "/" (it names the site's folder). Raises PublicURLError otherwise."""
    from urlcalc.standard.url import URL, URLParseError

    try:
        parsed = URL(url.strip())
    except URLParseError:
        raise PublicURLError(f"the public URL {url!r} is not a URL (it must be absolute, e.g. "
                         "https://example.github.io/urlcalc/)") from None
    if parsed.protocol not in ("http:", "https:"):
        raise PublicURLError(f"the public URL must be http: or https:, not {parsed.protocol!r}")
    if parsed.username or parsed.password:
        raise PublicURLError("the public URL must not carry a username or password")
    if parsed.search or parsed.hash or parsed.href.endswith(("?", "#")):
        raise PublicURLError("the public URL must have no query and no fragment (the page's state "
                         "goes into the fragment)")
    if not parsed.pathname.endswith("/"):
        parsed.pathname = parsed.pathname + "/"
    return parsed.href


def public_url_host(url: str) -> str:
    """The host name of a public URL (checked as by check_public_url): a server published there
    must answer to it in the Host header."""
    from urlcalc.standard.url import URL

    return URL(check_public_url(url)).hostname
