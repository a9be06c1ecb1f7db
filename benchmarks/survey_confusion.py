"""What the confusion classes and the allowed-host check cost a survey, and what they find.

``python -m benchmarks.survey_confusion [N]``: surveys the first N inputs (default: all 10,000;
no base) of tests/data/bench/corpus-10k.txt with ``--compare implementations`` (urllib, rfc3986
and yarl: the in-process ones, so no node helper's round trips blur the ratio), once with the
implementations' comparer alone (the floor) and once with the confusion comparer after it
(urlcalc.survey.compare.confusion_comparer: the ``confusion:<id>`` and ``allowed-host``
families), best of three interleaved rounds in CPU time (time.process_time: the cores are
shared); prints URLs per CPU-second of both, their ratio, the machine's load average, and every
bucket of the two families with its first example.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from urlcalc.survey.observe import Options
from urlcalc.survey.reader import Reader
from urlcalc.survey.run import survey_lines
from urlcalc.survey.tally import Tally

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "bench" / "corpus-10k.txt"
OPTIONS = Options(compare=frozenset({"implementations"}),
                  implementations=("urllib", "rfc3986", "yarl"), coverage=False)


def _run(urls: list[str], confusion: bool) -> tuple[float, Tally]:
    reader = Reader(OPTIONS)
    if not confusion:  # the floor: the implementations' comparer alone
        reader._comparers = reader._comparers[:1]
    start = time.process_time()
    tally = survey_lines(urls, OPTIONS, reader)
    return time.process_time() - start, tally


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else None
    # the inputs (a line is "input" or "input<TAB>base"), with no base
    urls = [line.split("\t")[0] for line in CORPUS.read_text(encoding="utf-8").splitlines()[:n]]
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    best = {False: float("inf"), True: float("inf")}
    tally = Tally()
    for _ in range(3):
        for confusion in (False, True):
            seconds, tally = _run(urls, confusion)
            best[confusion] = min(best[confusion], seconds)
    floor, with_confusion = len(urls) / best[False], len(urls) / best[True]
    print(f"{len(urls)} URLs: implementations alone {floor:,.0f} URLs/CPU-s; with confusion and "
          f"allowed-host {with_confusion:,.0f} URLs/CPU-s; ratio {best[True] / best[False]:.2f}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    for family, keys in sorted(tally.buckets.items()):
        if family.startswith("confusion:") or family == "allowed-host":
            for key, bucket in sorted(keys.items(), key=lambda kv: (-kv[1].count, kv[0])):
                print(f"{family}\t{key}\t{bucket.count}\t{bucket.examples[0]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
