"""`urlcalc serve` in a subprocess, for the benchmarks that need a real server (web, load)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Served:
    url: str
    port: int
    pid: int
    log: list[str] = field(default_factory=list)


@contextmanager
def urlcalc_serve(env: dict[str, str] | None = None, timeout_s: float = 120) -> Iterator[Served]:
    """``urlcalc serve --port 0`` (waitress, a free loopback port); yields its URL, port, pid and
    its output lines so far. The output goes on being read (into ``log``): a full pipe would
    block the server's logging (waitress warns "Task queue depth is N" under load) and with it
    every worker thread. Stops the server on exit."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "urlcalc", "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )
    try:
        assert proc.stdout is not None
        seen: list[str] = []
        deadline = time.monotonic() + timeout_s
        match = None
        while match is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            match = re.search(r"urlcalc at (http://127\.0\.0\.1:(\d+)/)", line)
        if match is None:
            raise SystemExit("urlcalc serve did not start:\n" + "".join(seen[-20:]))
        served = Served(match.group(1), int(match.group(2)), proc.pid)
        stream = proc.stdout

        def drain() -> None:
            for line in stream:
                served.log.append(line.rstrip("\n"))

        threading.Thread(target=drain, daemon=True).start()
        yield served
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextmanager
def static_server(folder: Path) -> Iterator[str]:
    """``python -m http.server`` on a free loopback port serving ``folder``; yields its URL."""
    proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind",
                             "127.0.0.1", "--directory", str(folder)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 30
        port = None
        while port is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            match = re.search(r"port (\d+)", line)
            port = match.group(1) if match else None
        if port is None:
            raise SystemExit("python -m http.server printed no port")
        # its access log is not read: keep the pipe from filling
        proc.stdout.close()
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
