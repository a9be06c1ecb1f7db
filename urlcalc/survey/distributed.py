"""Surveying corpora partition by partition: in this process, on a local Dask cluster sized to the
machine (the default), or on an existing one (``cluster``: "tcp://HOST:8786"), resumably.

Each partition (urlcalc.survey.sources) is surveyed where it runs into a tally (as JSON: what
crosses processes and what a resume folder keeps), and the tallies are merged here as they
finish; merging is associative and commutative, so the report does not depend on the cluster,
the order or the split. A worker holds one partition's tally (bounded by its buckets, each with
at most five clipped examples) and one block of the file at a time.

Dask (the ``urlcalc[survey]`` extra) is imported here only, when a cluster is used; without it,
or with ``workers=1``, the same partitions are surveyed in this process. The implementations that
run in another process (the node helper) are started once per worker process, on first use, and
bounded there as in the server: each answer within the helper's timeout, each line within its
limit, a dead helper "not available" (urlcalc.implementations.node_adapter).

``resume`` (a folder): each finished partition's tally is written there (to a temporary name,
then renamed, so a killed run leaves no half-written tally), with ``survey.json`` saying what the
survey is; a re-run of the same survey skips the partitions already there.
"""

from __future__ import annotations

import functools
import importlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from urlcalc.survey.observe import Options
from urlcalc.survey.reader import Reader
from urlcalc.survey.run import survey_lines
from urlcalc.survey.sources import PARTITION_BYTES, Partition, partitions, read_partition, sampled
from urlcalc.survey.tally import Tally

#: The file of a resume folder that says which survey it holds.
RESUME_META = "survey.json"


class SurveyError(ValueError):
    """A survey that cannot run as asked (a resume folder of another survey, a cluster without
    Dask installed)."""


@dataclass
class Outcome:
    """A survey's tally and how it was made: ``partitions`` in all, ``resumed`` of them read from
    the resume folder, ``computed`` surveyed now; ``workers`` (0: in this process)."""

    tally: Tally
    partitions: int
    resumed: int
    computed: int
    workers: int
    meta: dict[str, Any] = field(default_factory=dict)


@functools.lru_cache(maxsize=4)
def _reader(options: Options) -> Reader:
    """One reader per process and options (a worker keeps it between partitions: the base parsed
    once, the coverage shapes and the node helper kept)."""
    return Reader(options)


def survey_partition(p: Partition, options: Options, sample: int = 1) -> dict[str, Any]:
    """Survey one partition (where it runs: a worker, or this process): its tally as JSON."""
    lines: Iterable[str | tuple[str, str]] = read_partition(p)
    if sample > 1:
        lines = (line for line in lines if sampled(line, sample))
    return survey_lines(lines, options, _reader(options)).to_json()


def cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def describe(options: Options, sources: Sequence[str], sample: int, fmt: str | None,
             column: str | None) -> dict[str, Any]:
    """What a survey is (a report's ``survey`` and a resume folder's identity)."""
    opts = asdict(options)
    opts["compare"] = sorted(options.compare)
    opts["implementations"] = list(options.implementations)
    opts["editions"] = list(options.editions)
    return {"sources": list(sources), "format": fmt, "column": column, "sample": sample,
            "options": opts}


class _Resume:
    """A resume folder: finished partitions' tallies, by partition id."""

    def __init__(self, folder: Path, identity: dict[str, Any]) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        meta = folder / RESUME_META
        if meta.exists():
            held = json.loads(meta.read_text("utf-8"))
            if held != identity:
                raise SurveyError(f"{folder} holds another survey ({held}); use another folder "
                                  f"or empty it")
        else:
            _write_atomically(meta, identity)

    def path(self, p: Partition) -> Path:
        return self.folder / f"{p.id}.json"

    def done(self, p: Partition) -> dict[str, Any] | None:
        path = self.path(p)
        if not path.exists():
            return None
        data: dict[str, Any] = json.loads(path.read_text("utf-8"))
        return data

    def keep(self, p: Partition, tally: dict[str, Any]) -> None:
        _write_atomically(self.path(p), tally)


def _write_atomically(path: Path, data: object) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), "utf-8", errors="surrogatepass")
    os.replace(tmp, path)


class Progress:
    """A progress line on ``out``: URLs read, URLs/s and the ETA (by the partitions' bytes); on a
    terminal redrawn in place at most once a second, else a line at most every ``every`` s."""

    def __init__(self, out: TextIO | None, total_weight: int, every: float = 10.0) -> None:
        self.out = out
        self.total = max(total_weight, 1)
        self.done = 0
        self.urls = 0
        self.start = time.monotonic()
        self.last = 0.0
        self.tty = bool(out is not None and out.isatty())
        self.every = 1.0 if self.tty else every

    def update(self, weight: int, urls: int, final: bool = False) -> None:
        self.done += weight
        self.urls += urls
        now = time.monotonic()
        if self.out is None or (not final and now - self.last < self.every):
            return
        self.last = now
        elapsed = max(now - self.start, 1e-9)
        rate = self.urls / elapsed
        frac = self.done / self.total
        eta = elapsed * (1 - frac) / frac if frac > 0 else float("inf")
        eta_s = "done" if final else ("?" if eta == float("inf") else f"ETA {eta:,.0f} s")
        line = f"survey: {self.urls:,} URLs, {rate:,.0f} URLs/s, {frac:.0%} ({eta_s})"
        self.out.write(("\r" + line + ("\n" if final else "")) if self.tty else line + "\n")
        self.out.flush()


def survey(sources: Sequence[str], options: Options, *, fmt: str | None = None,
           column: str | None = None, sample: int = 1, cluster: str | None = None,
           workers: int | None = None, resume: Path | None = None,
           partition_bytes: int = PARTITION_BYTES, progress: TextIO | None = None) -> Outcome:
    """Survey ``sources``: on ``cluster`` (an address) if given, else on a local cluster of
    ``workers`` processes (by default one per core), or in this process when ``workers`` is 1
    or Dask is not installed."""
    if sample < 1:
        raise SurveyError("--sample must be at least 1")
    Reader(options)  # a bad base or implementation: said here, before any worker starts
    parts = partitions(sources, fmt, column, partition_bytes)
    identity = describe(options, sources, sample, fmt, column)
    store = _Resume(resume, identity) if resume is not None else None
    total = Tally()
    todo: list[Partition] = []
    resumed = 0
    for p in parts:
        held = store.done(p) if store is not None else None
        if held is None:
            todo.append(p)
        else:
            total.merge(Tally.from_json(held))
            resumed += 1
    bar = Progress(progress, sum(p.weight for p in todo))

    def finished(p: Partition, data: dict[str, Any]) -> None:
        if store is not None:
            store.keep(p, data)
        t = Tally.from_json(data)
        total.merge(t)
        bar.update(p.weight, t.urls + t.unreadable)

    n = workers if workers is not None else cores()
    used = 0
    if todo and (cluster is not None or n > 1):
        used = _on_dask(todo, options, sample, cluster, n, finished, progress)
    if used == 0:
        for p in todo:
            finished(p, survey_partition(p, options, sample))
    if todo:
        bar.update(0, 0, final=True)
    return Outcome(total, len(parts), resumed, len(todo), used,
                   {**identity, "partitions": len(parts)})


def _on_dask(todo: list[Partition], options: Options, sample: int, cluster: str | None,
             n: int, finished: Callable[[Partition, dict[str, Any]], None],
             err: TextIO | None) -> int:
    """Survey ``todo`` on Dask; the number of workers used (0: Dask is not installed and no
    cluster was asked for, so the caller surveys in this process)."""
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        if cluster is not None:
            raise SurveyError("--cluster needs Dask: pip install 'urlcalc[survey]'") from None
        if err is not None:
            err.write("survey: Dask is not installed (pip install 'urlcalc[survey]'): "
                      "surveying in this process\n")
        return 0
    local = None
    if cluster is not None:
        client = distributed.Client(cluster)
    else:
        local = distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                         dashboard_address=":0",
                                         silence_logs=logging.ERROR)
        client = distributed.Client(local)
    try:
        used = len(client.scheduler_info().get("workers", {})) or n
        futures = client.map(survey_partition, todo, options=options, sample=sample,
                             pure=False)
        by_future = dict(zip(futures, todo, strict=True))
        for future, data in distributed.as_completed(futures, with_results=True):
            finished(by_future.pop(future), data)
            future.release()
        return int(used)
    finally:
        client.close()
        if local is not None:
            local.close()
