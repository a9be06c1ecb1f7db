"""The benchmarks' own measuring helpers (the benchmarks themselves run apart: `make bench-web`)."""

from __future__ import annotations

import os
import sys
import time

import pytest

from benchmarks.web_profile import _process_label, _threads_cpu


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux only)")
def test_cpu_per_thread_counts_this_threads_work() -> None:
    me = str(os.getpid())
    before = _threads_cpu()
    mine = [k for k in before if k[0] == me]
    assert mine, "this process's threads are listed"
    start = time.thread_time()
    while time.thread_time() - start < 0.3:  # 0.3 s of CPU in this thread
        pass
    after = _threads_cpu()
    spent = sum(after[k][2] - before[k][2] for k in mine if k in after)
    assert spent >= 0.2 * os.sysconf("SC_CLK_TCK"), spent
    assert all(after[k][2] >= before[k][2] for k in mine if k in after)


@pytest.mark.parametrize(("cmd", "label"), [
    ("/usr/bin/chromium --user-data-dir=/tmp/playwright_chromiumdev_profile-x --headless",
     "browser process"),
    ("/usr/lib/chromium/chromium --type=renderer --enable-features=x", "browser renderer"),
    ("/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService",
     "browser utility (network.mojom.NetworkService)"),
    ("/usr/bin/node /work/urlcalc/implementations/node_helper.mjs", "urlcalc server's node helper"),
    ("/work/.venv/bin/python -m urlcalc serve --port 0", "urlcalc server"),
    ("/work/.venv/lib/python3.11/site-packages/playwright/driver/node "
     "/work/.venv/lib/python3.11/site-packages/playwright/driver/package/cli.js run-driver",
     "playwright driver"),
    ("/work/.venv/bin/python -m benchmarks.web_profile --cpu", "this benchmark"),
    ("/usr/sbin/sshd -D", "sshd"),
])
def test_processes_are_named_by_their_part(cmd: str, label: str) -> None:
    assert _process_label(cmd) == label
