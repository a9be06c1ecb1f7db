"""The wheel and sdist builds stage the page into the package (everything else is pyproject.toml).

- Both first prepare what a clean checkout (a `git clone`, `pip install .`, `pipx install git+URL`)
  lacks: `npm ci` in web/ when web/node_modules is missing or lacks the Pyodide files (needs Node
  >= 18 with npm on PATH), then the whatwg-url bundle (web/js/vendor/whatwg-url.mjs, as `make npm`
  builds it) when it is missing. An sdist carries both, so a wheel built from one needs no Node.
- build_py (the wheel): after the Python files, writes the site (urlcalc.site.files.write_site: the
  page from web/, the Pyodide files the page loads from web/node_modules/pyodide, bundle.zip,
  the licences, and the boot snapshot when it was made from these sources) into urlcalc/web/ of
  the build folder, never into the source tree. Editable installs (`pip install -e .`) skip it:
  a checkout serves web/ directly (`make npm` prepares it).
- sdist: adds the same sources (web/ and the five Pyodide files with the npm package's
  package.json, and web/boot/: the boot snapshot `make snapshot` made from these sources), so
  that a wheel built from the sdist needs no Node.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
# Built from web/node_modules by web/tools/bundle-whatwg-url.mjs (the Makefile's
# $(WHATWG_URL_BUNDLE)); git-ignored, so a clone has none.
WHATWG_URL_BUNDLE = WEB / "js" / "vendor" / "whatwg-url.mjs"
# ... and lit-html (the views' renderer) by web/tools/bundle-lit-html.mjs ($(LIT_HTML_BUNDLE)).
LIT_HTML_BUNDLE = WEB / "js" / "vendor" / "lit-html.mjs"
NODE_NEEDED = ("building urlcalc from a checkout needs Node >= 18 with npm on PATH (to fetch the "
               "Pyodide runtime and whatwg-url into web/node_modules and bundle whatwg-url)")


def _site_module():  # type: ignore[no-untyped-def]
    # The source tree's urlcalc, not an installed one (imports only the stdlib and idna).
    sys.path.insert(0, str(ROOT))
    try:
        from urlcalc.site import files as site
    finally:
        sys.path.remove(str(ROOT))
    return site


def _node_tool(name: str) -> str:
    """The path of node or npm, checking Node's version once; a clear error when either is
    missing or Node is older than 18."""
    found = shutil.which(name)
    if found is None:
        raise RuntimeError(f"{NODE_NEEDED}: {name} was not found")
    node = shutil.which("node")
    if node is None:
        raise RuntimeError(f"{NODE_NEEDED}: node was not found")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    try:
        major = int(version.lstrip("v").split(".")[0])
    except ValueError:
        major = 0
    if major < 18:
        raise RuntimeError(f"{NODE_NEEDED}: node is {version or 'unknown'}")
    return found


def _check_call(cmd: list[str], cwd: Path) -> None:
    print(f"running {' '.join(cmd)} in {cwd}", flush=True)
    subprocess.run(cmd, cwd=cwd, check=True)


def prepare_web() -> None:
    """What `make npm` makes and a clean checkout lacks, made here (idempotently): the build of
    the page needs the Pyodide files and the whatwg-url bundle."""
    site = _site_module()
    modules = WEB / "node_modules"
    if (not modules.is_dir() or site.locate(web_dir=WEB).missing_pyodide()) \
            and (WEB / "package-lock.json").is_file():
        _check_call([_node_tool("npm"), "ci", "--no-audit", "--no-fund"], cwd=WEB)
    if not WHATWG_URL_BUNDLE.is_file() and (modules / "whatwg-url").is_dir():
        _check_call([_node_tool("node"), str(WEB / "tools" / "bundle-whatwg-url.mjs")], cwd=ROOT)
    if not WHATWG_URL_BUNDLE.is_file():
        raise site.SiteError(f"{WHATWG_URL_BUNDLE.relative_to(ROOT)} is missing and "
                             "web/node_modules has no whatwg-url to build it from: run `make npm`")
    if not LIT_HTML_BUNDLE.is_file() and (modules / "lit-html").is_dir():
        _check_call([_node_tool("node"), str(WEB / "tools" / "bundle-lit-html.mjs")], cwd=ROOT)
    if not LIT_HTML_BUNDLE.is_file():
        raise site.SiteError(f"{LIT_HTML_BUNDLE.relative_to(ROOT)} is missing and "
                             "web/node_modules has no lit-html to build it from: run `make npm`")


class BuildPyWithSite(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        prepare_web()
        site = _site_module()
        out = Path(self.build_lib) / "urlcalc" / "web"
        shutil.rmtree(out, ignore_errors=True)  # no stale file from an earlier build
        source = site.locate(web_dir=ROOT / "web")
        written = site.write_site(source, out)
        print(f"staged {len(written)} files of the page into {out}")


class SdistWithSite(sdist):
    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        prepare_web()
        site = _site_module()
        source = site.locate(web_dir=ROOT / "web")
        missing = source.missing_pyodide()
        if missing:
            raise site.SiteError(f"Pyodide files missing ({', '.join(missing)}): run `make npm`")
        extra = [ROOT / "LICENSE", ROOT / "web" / "index.html",
                 *(p for name in site.ROOT_FILES if (p := ROOT / "web" / name).is_file()),
                 ROOT / "web" / "package.json", ROOT / "web" / "package-lock.json",
                 source.pyodide / "package.json",
                 *(source.pyodide / name for name in site.PYODIDE_FILES)]
        # The boot snapshot and its compressed copies (`make snapshot`), when made from these
        # sources: a wheel built from the sdist carries them as one built from the checkout.
        extra += [p for rel, p in source.files()
                  if rel.startswith(f"{site.BOOT_DIR}/") and isinstance(p, Path)]
        for folder in (*site.PAGE_FOLDERS, site.LICENSES_DIR):
            if (ROOT / "web" / folder).is_dir():
                extra += [p for _, p in site._visible_files(ROOT / "web" / folder)]
        for path in extra:
            target = Path(base_dir) / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


setup(cmdclass={"build_py": BuildPyWithSite, "sdist": SdistWithSite})
