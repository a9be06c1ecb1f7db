"""Heavy API requests: computed a few at a time, fairly between clients, away from the threads that
serve everyone else.

A request is *heavy* when its estimated cost is (urlcalc.answers.cost, never its body's size): the
largest cost seconds of CPU (64 ``searchParams.sort`` over a 64 KiB input: about 1.5 s) where a
keystroke's request costs a millisecond. ``HeavyGate`` computes at most ``workers`` of them at a
time and lets ``queue`` more wait for their turn, so heavy work never holds more than
``workers + queue`` of the server's threads, whatever the number of clients sending it.

**Fair shares.** Each client (an address, or the client a trusted proxy forwards for:
urlcalc.serving.app) has its own line. The waiting requests are served in the order of their
*tags* (start-time fair queuing): a client's request gets the tag of the request started last when
the client has nothing else in the gate, else one more than its own previous request's. So a
client's first heavy request goes before the second, third ... of a client that sent a burst: it
waits at most for the requests already computing (one heavy request's time, with one worker).
When every place is taken, a newcomer whose tag is lower than the latest waiting request's takes
that request's place, and that request is refused (503, ``Busy``); otherwise the newcomer is
refused. A refused client is told to retry after ``Retry-After`` seconds.

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
import itertools
import multiprocessing
import os
import threading
import time
from collections import Counter
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from urlcalc.answers.answer import CUT, answer, cut_answer, to_json
from urlcalc.model import budget
from urlcalc.model.limits import CPU_BUDGET_S

__all__ = ["Answer", "Busy", "HeavyGate", "compress", "compute", "encode_json"]

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


def compute(kind: str, params: dict[str, Any], gzip_ok: bool, hard: bool = False) -> Answer:
    """The answer to one API request (in a worker process, or in the request's thread): the
    status and body of urlcalc.answers.answer.answer, as bytes, computed within the kind's CPU
    budget (``hard``: stopped inside a part too, by a CPU-time timer: in a worker process)."""
    seconds = CPU_BUDGET_S.get(kind, min(CPU_BUDGET_S.values()))
    try:
        with budget.running(budget.Budget(kind, seconds), hard=hard):
            status, body = answer(kind, params)
            data, gzipped = encode_json(body, gzip_ok)
    except budget.BudgetSpent as e:  # (spent while encoding the answer)
        status = CUT
        data, gzipped = encode_json(cut_answer(e), gzip_ok)
    return Answer(status, data, gzipped)


def compute_in_worker(kind: str, params: dict[str, Any], gzip_ok: bool) -> Answer:
    """``compute`` in a worker process: stopped by the CPU-time timer at its budget."""
    return compute(kind, params, gzip_ok, hard=True)


# Worker processes run at the lowest priority there is, so that the small requests of everyone
# keep the processor they need and heavy work gets what is left: on Linux the SCHED_IDLE policy
# (a waking server thread takes the CPU from a worker at once; at nice 19 alone it waited for the
# worker's time slice, up to a few milliseconds: the sockets phase of benchmarks/load.py measured
# small requests' p95 at 3.0-4.4x the unloaded p50 at nice 19, a median of 1.9x over five runs
# with SCHED_IDLE), and niceness WORKER_NICENESS everywhere (what is left where SCHED_IDLE is not).
WORKER_NICENESS = 19


def _worker_init(server_pid: int) -> None:
    """Run in each new worker: lower its CPU priority, and exit when the server process is gone
    (killed without a chance to shut its pool down, a worker would otherwise wait for work
    forever)."""
    # no nice() on this system: the same priority as the server
    with contextlib.suppress(AttributeError, OSError):
        os.nice(WORKER_NICENESS)
    # (not Linux: niceness only)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))

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


@dataclass(eq=False)
class _Ticket:
    """A heavy request in the gate: its client, its tag (the order of service) and arrival."""

    client: str
    tag: int
    seq: int
    refused: bool = False


# A request waits at most this long for its turn (then: Busy).
MAX_WAIT_S = 30.0


class HeavyGate:
    """At most ``workers`` heavy requests computing and ``queue`` waiting, served fairly between
    clients (the module's docstring); the rest: ``Busy``.

    ``processes``: compute in a pool of ``workers`` processes (started on first use, or by
    ``start()``); otherwise in the calling thread."""

    def __init__(self, workers: int, queue: int, processes: bool) -> None:
        if workers < 1 or queue < 0:
            raise ValueError("a heavy gate needs at least one worker and a queue >= 0")
        self.workers = workers
        self.queue = queue
        self.processes = processes
        self._cond = threading.Condition()
        self._waiting: list[_Ticket] = []
        self._computing = 0
        self._in_gate: Counter[str] = Counter()  # per client: waiting or computing
        self._last_tag: dict[str, int] = {}  # per client in the gate: its latest tag
        self._virtual = 0  # the tag of the request started last
        self._seq = itertools.count()
        self._lock = threading.Lock()
        self._pool: Executor | None = None
        self.refused = 0  # requests refused, newcomers and displaced ones

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

    def waiting(self) -> list[str]:
        """The clients of the waiting requests, in the order they will be served."""
        with self._cond:
            return [t.client for t in sorted(self._waiting, key=_order)]

    def _busy(self) -> Busy:
        self.refused += 1
        return Busy(f"the server is busy with heavy requests ({self.workers} computing, "
                    f"{self.queue} waiting): try again in {RETRY_AFTER_S} s")

    def _admit(self, client: str) -> _Ticket:
        """(holding the condition) A place in the gate for ``client``'s request, or Busy."""
        tag = self._last_tag[client] + 1 if client in self._last_tag else self._virtual
        ticket = _Ticket(client, tag, next(self._seq))
        if self._computing + len(self._waiting) >= self.workers + self.queue:
            latest = max(self._waiting, key=_order, default=None)
            if latest is None or latest.tag <= tag:
                raise self._busy()
            # the newcomer goes first: the latest waiting request gives up its place
            self._waiting.remove(latest)
            latest.refused = True
            self._leave(latest.client)
            self._cond.notify_all()
        self._waiting.append(ticket)
        self._in_gate[client] += 1
        self._last_tag[client] = tag
        return ticket

    def _leave(self, client: str) -> None:
        self._in_gate[client] -= 1
        if self._in_gate[client] <= 0:
            del self._in_gate[client]
            self._last_tag.pop(client, None)

    def _turn(self, ticket: _Ticket) -> None:
        """(holding the condition) Wait until ``ticket`` is first and a worker is free."""
        deadline = time.monotonic() + MAX_WAIT_S
        while True:
            if ticket.refused:
                raise self._busy()
            if self._computing < self.workers and min(self._waiting, key=_order) is ticket:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                self._waiting.remove(ticket)
                self._leave(ticket.client)
                self._cond.notify_all()
                raise self._busy()
            self._cond.wait(left)
        self._waiting.remove(ticket)
        self._computing += 1
        self._virtual = max(self._virtual, ticket.tag)
        self._cond.notify_all()  # (the next in line may have a free worker too)

    def submit(self, client: str, kind: str, params: dict[str, Any], gzip_ok: bool) -> Answer:
        """Compute one heavy request of ``client``'s, in its turn; raises ``Busy`` when it is
        refused (at once, or displaced by another client's while waiting)."""
        with self._cond:
            ticket = self._admit(client)
            self._turn(ticket)
        try:
            if not self.processes:
                return compute(kind, params, gzip_ok)
            try:
                return self._executor().submit(compute_in_worker, kind, params,
                                               gzip_ok).result()
            except BrokenProcessPool:
                # A worker died (killed for its memory, say): a new pool for the next request.
                with self._lock:
                    self._pool = None
                raise Busy("the worker computing heavy requests stopped: try again") from None
        finally:
            with self._cond:
                self._computing -= 1
                self._leave(client)
                self._cond.notify_all()

    def close(self) -> None:
        """Stop the worker processes (running requests are finished first)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _order(ticket: _Ticket) -> tuple[int, int]:
    return (ticket.tag, ticket.seq)
