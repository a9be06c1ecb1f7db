"""The page's pure JavaScript functions, unit-tested with Node's test runner: each
``tests/js/*.test.mjs`` file runs under ``node --test`` (see tests/js/README.md); a failing
``node:test`` case fails its pytest case, with node's report."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from required import missing

JS_TESTS = Path(__file__).resolve().parent / "js"
FILES = sorted(JS_TESTS.glob("*.test.mjs"))


def test_there_are_js_tests() -> None:
    assert {f.name for f in FILES} >= {"share.test.mjs", "diff.test.mjs", "anchors.test.mjs"}


@pytest.mark.parametrize("path", FILES, ids=[f.name for f in FILES])
def test_node_test_file(path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        missing("node is not on PATH: install Node >= 18 (the JS unit tests need it)")
    proc = subprocess.run([node, "--test", "--test-reporter=tap", str(path)], capture_output=True,
                          text=True, timeout=120, cwd=JS_TESTS)
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, report
    assert "# fail 0" in report and "# pass 0" not in report, report
