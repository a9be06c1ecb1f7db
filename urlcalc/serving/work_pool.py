"""Heavy API requests: computed a few at a time, away from the threads that serve everyone else.

A request is *heavy* when its body (or query string) is over ``LARGE_REQUEST_BYTES``: the largest
ones cost seconds of CPU (64 ``searchParams.sort`` over a 64 KiB input: about 2 s) where a
keystroke's request costs a millisecond. ``HeavyGate`` admits at most ``workers`` of them at a time
and ``queue`` more waiting for their turn; any other heavy request is refused at once with 503 and
``Retry-After`` (``Busy``), so heavy work never holds more than ``workers + queue`` of the server's
threads, whatever the number of clients sending it.

``urlcalc serve`` computes them in worker processes (``processes=True``) at a lower CPU priority
(``WORKER_NICENESS``): the server's interpreter, which serves the page and the small requests,
never runs them (it only waits, without the GIL, for their bytes), and a worker is replaced
after ``MAX_TASKS_PER_WORKER`` requests, which gives the memory of the largest answers back to
the system. Without processes (the app in tests, the
development server) the same gate computes them in the request's own thread.

A worker answers with the finished bytes: the status and the JSON of urlcalc.answers.answer
(gzip-compressed when the client accepts it), so that the server copies a few megabytes instead
of building a large model itself.
"""

from __future__ import annotations

import contextlib
import gzip
import multiprocessing
import os
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from urlcalc.answers.answer import answer, to_json
from urlcalc.model.limits import LARGE_REQUEST_BYTES

__all__ = ["LARGE_REQUEST_BYTES", "Answer", "Busy", "HeavyGate", "compress", "compute",
           "encode_json"]

# API answers (a traced parse can be hundreds of KB) are compressed above this size.
MIN_GZIP_API_BYTES = 8 * 1024
# A worker process is replaced after this many requests (the memory of a maximal answer is not
# given back to the system by the allocator of the process that built it).
MAX_TASKS_PER_WORKER = 20
# Seconds a refused client is told to wait (about one maximal request's time).
RETRY_AFTER_S = 2


@dataclass(frozen=True)
class Answer:
    """A finished API answer: its status (urlcalc.answers.answer), its JSON bytes and whether
    they are gzip-compressed."""

    status: int
    body: bytes
    gzipped: bool


class Busy(Exception):
    """Every slot for heavy requests is taken: answer 503 with Retry-After."""

    def __init__(self, message: str, retry_after: int = RETRY_AFTER_S) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


def compress(body: bytes, gzip_ok: bool) -> tuple[bytes, bool]:
    """``body`` gzip-compressed when ``gzip_ok`` and worth it. Returns (bytes, gzipped)."""
    if gzip_ok and len(body) >= MIN_GZIP_API_BYTES:
        return gzip.compress(body, compresslevel=1, mtime=0), True
    return body, False


def encode_json(obj: Any, gzip_ok: bool) -> tuple[bytes, bool]:
    """The JSON bytes of ``obj`` as every answer has them (urlcalc.answers.answer.to_json),
    compressed when ``gzip_ok`` and worth it. Returns (bytes, gzipped)."""
    return compress(to_json(obj), gzip_ok)


def compute(kind: str, params: dict[str, Any], gzip_ok: bool) -> Answer:
    """The answer to one API request (in a worker process, or in the request's thread): the
    status and body of urlcalc.answers.answer.answer, as bytes."""
    status, body = answer(kind, params)
    data, gzipped = encode_json(body, gzip_ok)
    return Answer(status, data, gzipped)


# Worker processes run this much nicer than the server (Linux: about a tenth of its CPU share
# while both want the CPU), so that the small requests of everyone keep the processor they
# need and heavy work gets what is left.
WORKER_NICENESS = 10


def _worker_init(server_pid: int) -> None:
    """Run in each new worker: lower its CPU priority, and exit when the server process is gone
    (killed without a chance to shut its pool down, a worker would otherwise wait for work
    forever)."""
    # no nice() on this system: the same priority as the server
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(server_pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass  # alive, under another user (a reused pid): keep watching

    threading.Thread(target=watch, name="urlcalc-watch-server", daemon=True).start()


def _warm() -> int:
    """Run in each new worker: import the model and its tables before the first request."""
    answer("parse", {"input": "https://xn--nxasmq6b.example/"})
    return os.getpid()


def default_workers() -> int:
    """One worker process per two CPUs, at least one: the other half serves everything else."""
    return max(1, (os.cpu_count() or 2) // 2)


class HeavyGate:
    """At most ``workers`` heavy requests computing and ``queue`` waiting; the rest: ``Busy``.

    ``processes``: compute in a pool of ``workers`` processes (started on first use, or by
    ``start()``); otherwise in the calling thread."""

    def __init__(self, workers: int, queue: int, processes: bool) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("a heavy gate needs at least one worker and a queue >= 0")
        self.workers = workers
        self.queue = queue
        self.processes = processes
        self._slots = threading.BoundedSemaphore(workers + queue)
        self._running = threading.BoundedSemaphore(workers)
        self._lock = threading.Lock()
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        with self._lock:
            if self._pool is None:
                # forkserver: the workers are forked from a clean process (not from this one and
                # its threads), with the model already imported there.
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(["urlcalc.model.results"])
                self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                                 max_tasks_per_child=MAX_TASKS_PER_WORKER,
                                                 initializer=_worker_init,
                                                 initargs=(os.getpid(),))
            return self._pool

    def start(self) -> None:
        """Start the worker processes now (``urlcalc serve``), not on the first heavy request."""
        if self.processes:
            pool = self._executor()
            for future in [pool.submit(_warm) for _ in range(self.workers)]:
                future.result()

    def submit(self, kind: str, params: dict[str, Any], gzip_ok: bool) -> Answer:
        """Compute one heavy request; raises ``Busy`` at once when every slot is taken."""
        if not self._slots.acquire(blocking=False):
            raise Busy(f"the server is busy with large requests ({self.workers} computing, "
                       f"{self.queue} waiting): try again in {RETRY_AFTER_S} s")
        try:
            if not self.processes:
                with self._running:
                    return compute(kind, params, gzip_ok)
            try:
                return self._executor().submit(compute, kind, params, gzip_ok).result()
            except BrokenProcessPool:
                # A worker died (killed for its memory, say): a new pool for the next request.
                with self._lock:
                    self._pool = None
                raise Busy("the worker computing large requests stopped: try again") from None
        finally:
            self._slots.release()

    def close(self) -> None:
        """Stop the worker processes (running requests are finished first)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
