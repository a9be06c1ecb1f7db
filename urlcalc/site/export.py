"""``urlcalc export-static``: the calculator as a static site, for any static file host.

The folder holds the site's files (``urlcalc.site.files``: index.html, isolation-worker.js, css/,
js/, pyodide/, bundle.zip, licenses/, boot.json and, when made from this bundle.zip, boot/: the boot
snapshot with its brotli and gzip copies, for servers that send precompressed files) and:

- ``config.json``: ``{"api": null, "public_url": ..., "socket": null}``: the page never calls an
  API (Pyodide answers everything) and links its permalinks and copies to the public URL (or
  says it has none);
- ``_headers``: the headers ``urlcalc serve`` sends (CSP, nosniff, no-referrer, and the types of
  the .wasm and .mjs files), for hosts that read such a file (Netlify, Cloudflare Pages);
- in index.html, the same Content-Security-Policy as a ``<meta>`` element, for hosts that send no
  header of ours (GitHub Pages, an S3 bucket, ``python -m http.server``); without
  ``frame-ancestors``, which only a header can carry;
- ``.nojekyll``, so that GitHub Pages publishes the folder as it is.

On a host that sends no header of ours, the page makes itself cross-origin isolated (what a
keystroke needs to be answered in its own frame) with the site's service worker,
``isolation-worker.js``: js/engine/isolation.js registers it and reloads the page once (see
docs/page-speed.md, "On a static host").
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
from pathlib import Path

from urlcalc.site import files as page_site
from urlcalc.site.files import SiteError
from urlcalc.site.headers import CSP, MIME_TYPES, SECURITY_HEADERS

__all__ = ["HEADERS_FILE", "export_static", "headers_file", "meta_csp", "with_meta_csp"]

# The file that marks a folder as an export (only those are overwritten).
_EXPORT_MARKER = "config.json"
HEADERS_FILE = "_headers"
# CSP directives that a <meta> element cannot carry (the browser ignores them, with a console
# message): https://w3c.github.io/webappsec-csp/#meta-element
_HEADER_ONLY_DIRECTIVES = frozenset({"frame-ancestors", "report-uri", "sandbox"})
# File types that hosts commonly send wrong: a .wasm as application/octet-stream makes
# loadPyodide hang, an .mjs as text/plain kills the module worker.
_TYPED_SUFFIXES = (".wasm", ".mjs")


def meta_csp() -> str:
    """The page's CSP without the directives a <meta> element cannot carry."""
    kept = [d for d in CSP.split("; ") if d.split(" ", 1)[0] not in _HEADER_ONLY_DIRECTIVES]
    return "; ".join(kept)


def with_meta_csp(page: str) -> str:
    """index.html with the CSP as a <meta> element, after its charset declaration (or first in
    its head), before any script or style."""
    anchor = re.search(r"<meta\s+charset=[^>]*>", page, re.IGNORECASE) \
        or re.search(r"<head(\s[^>]*)?>", page, re.IGNORECASE)
    if anchor is None:
        raise SiteError("cannot export: index.html has no <head> to put the CSP in")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{html.escape(meta_csp())}">'
    return f"{page[:anchor.end()]}\n{meta}{page[anchor.end():]}"


def headers_file(paths: list[str]) -> str:
    """A ``_headers`` file (Netlify / Cloudflare Pages syntax): the security headers on every
    path, the Content-Type of each .wasm and .mjs file among ``paths``."""
    lines = [
        "# Headers for static hosts that read this file (Netlify, Cloudflare Pages); written by",
        "# `urlcalc export-static` from what `urlcalc serve` sends. Other hosts: see",
        "# docs/publishing.md.",
        "/*",
        *(f"  {name}: {value}" for name, value in SECURITY_HEADERS.items()),
    ]
    for rel in sorted(paths):
        suffix = Path(rel).suffix.lower()
        if suffix in _TYPED_SUFFIXES:
            lines += [f"/{rel}", f"  Content-Type: {MIME_TYPES[suffix]}"]
    return "\n".join(lines) + "\n"


def export_static(dir: str | os.PathLike[str], web_dir: str | os.PathLike[str] | None = None,
                  pyodide_dir: str | os.PathLike[str] | None = None,
                  public_url: str | None = None) -> Path:
    """Write the calculator as a static site (Pyodide only, no API) into ``dir``; return its
    path. ``public_url``: where the folder will be published (e.g.
    https://example.github.io/urlcalc/): permalinks and copies link there; checked by
    ``urlcalc.site.files.check_public_url``. A non-empty folder is only overwritten if it is a
    previous export. Raises PublicURLError (a ValueError) for a bad public URL, OSError
    (FileNotFoundError, FileExistsError) for a missing file or a folder that is not an export."""
    checked = page_site.check_public_url(public_url) if public_url is not None else None
    site = page_site.locate(web_dir, pyodide_dir)
    out = Path(dir)
    files = dict(site.files())  # raises SiteError (a FileNotFoundError) before anything is written
    page = site.web / "index.html"
    assert isinstance(files["index.html"], Path)
    index = with_meta_csp(page.read_text(encoding="utf-8"))
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"cannot export: {out} is not a directory")
    if out.is_dir() and any(out.iterdir()):
        if not (out / _EXPORT_MARKER).is_file():
            raise FileExistsError(f"cannot export: {out} is not empty and not a previous export")
        for name in (*page_site.PAGE_FOLDERS, "pyodide", page_site.LICENSES_DIR,
                     page_site.BOOT_DIR):
            shutil.rmtree(out / name, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    for rel, source in files.items():
        target = out.joinpath(*rel.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel == "index.html":
            target.write_text(index, encoding="utf-8")
        elif isinstance(source, bytes):
            target.write_bytes(source)
        else:
            shutil.copyfile(source, target)
    (out / HEADERS_FILE).write_text(headers_file(list(files)), encoding="utf-8")
    (out / ".nojekyll").write_bytes(b"")
    config = {"api": None, "public_url": checked, "socket": None}
    (out / _EXPORT_MARKER).write_text(json.dumps(config) + "\n", encoding="utf-8")
    return out
