"""Every data file of the package ships: each file under urlcalc/ that is not Python source
matches a [tool.setuptools.package-data] pattern of pyproject.toml (a missed pattern once left
urlcalc/history/data/not_undoable/ out of the wheel and the sdist, and so the page's boot
snapshot, made from the checkout's files, out of the wheel)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_data_file_matches_a_package_data_pattern() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["urlcalc"]
    package = ROOT / "urlcalc"
    missed = []
    for path in package.rglob("*"):
        rel = path.relative_to(package)
        if not path.is_file() or path.suffix in (".py", ".pyc") or "__pycache__" in rel.parts \
                or rel.parts[0] == "web":  # (urlcalc/web/ is written into the wheel by setup.py)
            continue
        # a pattern's "*" matches within one folder, as setuptools' globs do
        if not any(fnmatch(str(rel), p) and str(rel).count("/") == p.count("/")
                   for p in patterns):
            missed.append(str(rel))
    assert missed == [], f"not in package-data: {missed}"
