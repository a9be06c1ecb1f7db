"""URLCALC_REQUIRE_ALL=1 (set by `make test`) turns skips into failures; without it a missing tool
is a skip with its reason. Checked on a small pytest run of its own, with this suite's conftest."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SAMPLE = '''
import pytest
from required import missing


def test_needs_a_tool():
    missing("frobnicator is not on PATH (make frob)")


def test_plain_skip():
    pytest.skip("some other reason")


@pytest.mark.xfail(reason="known", strict=True)
def test_expected_failure():
    assert False


def test_passes():
    pass
'''


def _run(tmp_path: Path, require: str | None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(SAMPLE)
    env = {k: v for k, v in os.environ.items() if k != "URLCALC_REQUIRE_ALL"}
    env["PYTHONPATH"] = str(TESTS)
    if require is not None:
        env["URLCALC_REQUIRE_ALL"] = require
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p", "conftest",
         "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)


def test_without_require_all_a_missing_tool_skips_with_its_reason(tmp_path: Path) -> None:
    run = _run(tmp_path, None)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed, 2 skipped, 1 xfailed" in run.stdout, run.stdout
    assert "frobnicator is not on PATH (make frob)" in run.stdout  # the reason, listed


def test_under_require_all_every_skip_fails(tmp_path: Path) -> None:
    run = _run(tmp_path, "1")
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed, 1 passed, 1 xfailed" in run.stdout, run.stdout
    assert "frobnicator is not on PATH (make frob) (URLCALC_REQUIRE_ALL=1" in run.stdout
    assert "allows no skip: some other reason" in run.stdout
