"""The wheel and sdist builds stage the page into the package (everything else is pyproject.toml).

- build_py (the wheel): after the Python files, writes the site (urlcalc.site.files.write_site: the
  page from web/, the Pyodide files the page loads from web/node_modules/pyodide, bundle.zip,
  the licences, and the boot snapshot when it was made from these sources) into urlcalc/web/ of
  the build folder, never into the source tree. Fails if the
  Pyodide files are missing (`make npm`), so that no wheel without them can be built. Editable
  installs (`pip install -e .`) skip it: a checkout serves web/ directly.
- sdist: adds the same sources (web/ and the five Pyodide files with the npm package's
  package.json, and web/boot/: the boot snapshot `make snapshot` made from these sources), so
  that a wheel built from the sdist needs no Node.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent


def _site_module():  # type: ignore[no-untyped-def]
    # The source tree's urlcalc, not an installed one (imports only the stdlib and idna).
    sys.path.insert(0, str(ROOT))
    try:
        from urlcalc.site import files as site
    finally:
        sys.path.remove(str(ROOT))
    return site


class BuildPyWithSite(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        site = _site_module()
        out = Path(self.build_lib) / "urlcalc" / "web"
        shutil.rmtree(out, ignore_errors=True)  # no stale file from an earlier build
        source = site.locate(web_dir=ROOT / "web")
        written = site.write_site(source, out)
        print(f"staged {len(written)} files of the page into {out}")


class SdistWithSite(sdist):
    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
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
