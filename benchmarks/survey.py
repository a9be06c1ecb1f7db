"""`make bench-survey`: the survey's speed and memory, as ratios to floors measured in the same run.

1. Overhead: URLs/s of ``survey_lines`` on tests/data/bench/corpus-10k.txt (the inputs, against
   one base) against the bare ``urlcalc.URL(input, base)`` loop, best of ``--rounds``
   interleaved rounds, standard alone without and with coverage (target: <= 1.5x without).
2. Scaling: the same survey of a generated corpus (``--scale-urls``) on a local Dask cluster of
   1 and of 2 worker processes (clusters started before the clock, the best of 3 surveys each;
   target: 2 workers >= 1.7x).
3. Memory: the workers' peak RSS (getrusage, through the scheduler) surveying 100k and 1M
   generated URLs, each on a fresh 2-worker cluster (target: 1M within 10% of 100k).

The machine's load average is printed before and after: on shared cores the ratios are what they
are at that load. ``--profile`` adds where the survey's time goes (cProfile, top functions).
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import os
import pstats
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from urlcalc import URL
from urlcalc.survey.distributed import survey
from urlcalc.survey.observe import Options
from urlcalc.survey.reader import Reader
from urlcalc.survey.run import survey_lines

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "bench" / "corpus-10k.txt"
BASE = "https://example.org/dir/page?q#f"


def inputs() -> list[str]:
    return [line.split("\t")[0] for line in CORPUS.read_text("utf-8").splitlines()]


def best(fns: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Best time of each function over ``rounds`` interleaved rounds."""
    times = {k: float("inf") for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            t = time.perf_counter()
            fn()
            times[k] = min(times[k], time.perf_counter() - t)
    return times


def overhead(rounds: int, profile: bool) -> None:
    urls = inputs()
    plain = Reader(Options(base=BASE, coverage=False))
    covered = Reader(Options(base=BASE, coverage=True))
    for r in (plain, covered):  # warm: the coverage shapes, the base
        survey_lines(urls, r.options, r)

    def bare() -> None:
        for u in urls:
            URL(u, BASE)

    with tempfile.TemporaryDirectory(prefix="urlcalc-bench-survey-") as tmp:
        path = Path(tmp) / "corpus.txt"
        path.write_text("".join(u + "\n" for u in urls), "utf-8")
        times = best({"bare": bare,
                      "survey": lambda: survey_lines(urls, plain.options, plain),
                      "survey+coverage": lambda: survey_lines(urls, covered.options, covered),
                      "file": lambda: survey([str(path)], plain.options, workers=1)},
                     rounds)
    n = len(urls)
    print(f"\n### Overhead (corpus-10k, {n:,} inputs against one base, best of {rounds})\n")
    print("| loop | URLs/s (one core) | ratio to the bare parse |\n|---|---|---|")
    for k, label in (("bare", "`URL(input, base)` (the floor)"),
                     ("survey", "survey, standard alone, `--no-coverage`"),
                     ("survey+coverage", "survey, standard alone, with coverage"),
                     ("file", "`survey()` of the corpus file in this process (reading, "
                      "decoding, merging), `--no-coverage`")):
        print(f"| {label} | {n / times[k]:,.0f} | {times[k] / times['bare']:.2f}x |")
    if profile:
        prof = cProfile.Profile()
        prof.runcall(survey_lines, urls, plain.options, plain)
        print("\nwhere the survey's time goes (--no-coverage, by own time):\n```")
        pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(12)
        print("```")


def write_corpus(path: Path, n: int) -> None:
    """``n`` URLs: corpus-10k's inputs, each copy's path told apart by a query, so every line
    differs."""
    urls = inputs()
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            u = urls[i % len(urls)]
            f.write(f"{u}{'&' if '?' in u else '?'}n={i // len(urls)}\n")


def _cluster(workers: int) -> Any:
    import distributed

    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                    dashboard_address=":0", silence_logs=logging.ERROR)


def _peak_rss(address: str) -> list[int]:
    import distributed

    def peak() -> int:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    with distributed.Client(address) as client:
        got: dict[str, int] = client.run(peak)
    return sorted(got.values())


def scaling(folder: Path, n: int, rounds: int = 3) -> None:
    """The best of ``rounds`` surveys of ``n`` URLs on 1 and on 2 workers (one survey each was
    noisy: the one-worker time alone varied from 7.0 s to 9.3 s between two runs here)."""
    path = folder / "scale.txt"
    write_corpus(path, n)
    options = Options(base=BASE, coverage=False)
    rows = []
    for workers in (1, 2):
        with _cluster(workers) as cluster:
            survey([str(path)], options, cluster=cluster.scheduler_address,
                   partition_bytes=256 << 10)  # warm the workers (imports, reader)
            best = float("inf")
            for _ in range(rounds):
                t = time.perf_counter()
                got = survey([str(path)], options, cluster=cluster.scheduler_address,
                             partition_bytes=256 << 10)
                best = min(best, time.perf_counter() - t)
            rows.append((workers, best, got.partitions))
    t1 = rows[0][1]
    print(f"\n### Scaling ({n:,} generated URLs, --no-coverage, {rows[0][2]} partitions, "
          f"best of {rounds})\n")
    print("| workers | URLs/s | URLs/s per worker | speed-up over 1 |\n|---|---|---|---|")
    for workers, t, _ in rows:
        print(f"| {workers} | {n / t:,.0f} | {n / t / workers:,.0f} | {t1 / t:.2f}x |")


def memory(folder: Path, sizes: list[int]) -> None:
    options = Options(base=BASE, coverage=False)
    print("\n### Worker peak RSS (2 workers, fresh cluster per size, --no-coverage)\n")
    print("| URLs | seconds | peak RSS per worker (MB) | ratio to the first |\n|---|---|---|---|")
    first: list[int] | None = None
    for n in sizes:
        path = folder / f"rss-{n}.txt"
        write_corpus(path, n)
        with _cluster(2) as cluster:
            t = time.perf_counter()
            survey([str(path)], options, cluster=cluster.scheduler_address)
            took = time.perf_counter() - t
            peaks = _peak_rss(cluster.scheduler_address)
        path.unlink()
        first = first or peaks
        ratio = max(peaks) / max(first)
        print(f"| {n:,} | {took:.1f} | {', '.join(f'{p / 1e6:.0f}' for p in peaks)} "
              f"| {ratio:.3f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scale-urls", type=int, default=200_000)
    ap.add_argument("--rss-urls", default="100000,1000000")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--skip", default="", help="comma-separated: overhead, scaling, memory")
    args = ap.parse_args()
    skip = set(args.skip.split(","))
    print(f"# urlcalc survey benchmark: Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average before: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if "overhead" not in skip:
        overhead(args.rounds, args.profile)
    with tempfile.TemporaryDirectory(prefix="urlcalc-bench-survey-") as tmp:
        if "scaling" not in skip:
            scaling(Path(tmp), args.scale_urls)
        if "memory" not in skip:
            memory(Path(tmp), [int(x) for x in args.rss_urls.split(",")])
    print(f"\nload average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
