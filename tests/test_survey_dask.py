"""urlcalc.survey.distributed: the counts equal a brute-force loop (every bucket), the local
default and a real `dask scheduler` + two `dask worker` processes give the same tally, resume
after a killed run, and a 1 GB sparse file keeps the workers' memory flat."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.required import import_or_missing
from urlcalc.survey import sources as S
from urlcalc.survey.distributed import SurveyError, survey
from urlcalc.survey.observe import Options
from urlcalc.survey.reader import Reader
from urlcalc.survey.report import tally_from_report
from urlcalc.survey.tally import EXAMPLES, clip_example, example_order

distributed = import_or_missing("distributed", "the survey extra: pip install -e '.[survey]'")

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CORPUS = ROOT / "tests" / "data" / "bench" / "corpus-10k.txt"
OPTIONS = Options(base="https://example.org/dir/page?q#f")
# Known contents: realistic URLs, the quirks of the standard's own families, and hostile lines.
QUIRKS = ["http://example.com:0x50/", "https://ex%61mple.com/", "http:\\\\a\\b\\..\\c",
          "HTTP://[::ffff:1.2.3.4]/", "https://0x7f.1/", "javascript:alert(1)", "//no-scheme/x",
          "https://xn--nxasmq6b.example/", "https://ÉXAMPLE.com/", "http://a b/", "a:\t/\n",
          "file:c:/windows", "http://[1:2::3:4:5:6:7]/", "http://999999999999/"]


def make_corpus(path: Path, n: int = 1500) -> list[S.Line]:
    urls = [u.split("\t")[0] for u in CORPUS.read_text("utf-8").splitlines()[:n]]
    rows = [u.encode() for u in urls[: n // 2]] + [q.replace("\n", "").encode() for q in QUIRKS]
    rows += [b"http://bad\xff/", b"nul\x00", b"", b"x" * (70 << 10)]
    rows += [u.encode() for u in urls[n // 2:]]
    path.write_bytes(b"\n".join(rows) + b"\n")
    return [line for p in S.partitions([str(path)]) for line in S.read_partition(p)]


def brute_force(lines: list[S.Line], options: Options) -> dict[str, Any]:
    """Every bucket's count and examples, by a loop over Reader.keys, with no Tally."""
    reader = Reader(options)
    members: dict[tuple[str, str], list[str]] = defaultdict(list)
    urls = unreadable = 0
    for line in lines:
        if isinstance(line, tuple):
            unreadable += 1
            members[("unreadable", line[0])].append(line[1])
            continue
        urls += 1
        for key in set(reader.keys(line)):
            members[key].append(clip_example(line))
    buckets: dict[str, dict[str, Any]] = defaultdict(dict)
    for (family, key), xs in members.items():
        buckets[family][key] = {"count": len(xs),
                                "examples": sorted(set(xs), key=example_order)[:EXAMPLES]}
    return {"urls": urls, "unreadable": unreadable,
            "buckets": {f: dict(sorted(b.items())) for f, b in sorted(buckets.items())}}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    path = tmp_path_factory.mktemp("survey") / "corpus.txt"
    return path, brute_force(make_corpus(path), OPTIONS)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[str]:
    """A real `dask scheduler` and two `dask worker` processes on localhost."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    procs = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--no-dashboard"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        for _ in range(2):
            procs.append(subprocess.Popen(
                [str(BIN / "dask"), "worker", address, "--nthreads", "1", "--no-dashboard",
                 "--no-nanny", "--memory-limit", "0"], env=env, cwd=ROOT,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=120)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()


def test_one_process_equals_the_brute_force_loop(corpus: tuple[Path, dict[str, Any]]) -> None:
    path, expected = corpus
    got = survey([str(path)], OPTIONS, workers=1, partition_bytes=4096)
    assert got.partitions > 10 and got.workers == 0
    assert got.tally.to_json() == expected
    # it has something to compare: the standard's families and every hostile reason
    assert {"outcome", "failure", "validation-error", "step", "host", "unreadable"} <= \
        set(expected["buckets"])
    assert set(expected["buckets"]["unreadable"]) == {S.NOT_UTF8, S.NUL, S.EMPTY, S.TOO_LONG}


def test_local_default_and_a_dask_cluster_give_the_same_tally(
        corpus: tuple[Path, dict[str, Any]], dask_cluster: str) -> None:
    path, expected = corpus
    local = survey([str(path)], OPTIONS, workers=2, partition_bytes=8192)
    assert local.workers == 2
    remote = survey([str(path)], OPTIONS, cluster=dask_cluster, partition_bytes=8192)
    assert remote.workers == 2
    assert local.tally.to_json() == expected
    assert json.dumps(remote.tally.to_json()) == json.dumps(local.tally.to_json())


def _survey_cli(path: Path, folder: Path, out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(BIN / "urlcalc"), "survey", str(path), "--base", OPTIONS.base or "",
         "--workers", "1", "--resume", str(folder), "--partition-size", "2048",
         "--out", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


def _tally_of(report: Path) -> dict[str, Any]:
    return tally_from_report(json.loads(report.read_text("utf-8"))).to_json()


def test_resume_after_a_killed_run(corpus: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    path, expected = corpus
    n = len(S.partitions([str(path)], partition_bytes=2048))
    folder = tmp_path / "resume"
    run = _survey_cli(path, folder, tmp_path / "killed.json")
    kept: dict[str, int] = {}
    while run.poll() is None:
        kept = {p.name: p.stat().st_ino for p in folder.glob("0*.json")}
        if len(kept) >= 3:
            run.send_signal(signal.SIGKILL)
            break
        time.sleep(0.005)
    run.wait(timeout=60)
    assert run.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    kept = {p.name: p.stat().st_ino for p in folder.glob("0*.json")}
    assert 3 <= len(kept) < n
    again = _survey_cli(path, folder, tmp_path / "resumed.json")
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    assert f"{n} partitions: {len(kept)} resumed, {n - len(kept)} computed" in err
    # the finished partitions were not written again (same files), and the counts are the
    # uninterrupted survey's (the brute-force loop's)
    assert {p.name: p.stat().st_ino for p in folder.glob("0*.json") if p.name in kept} == kept
    assert _tally_of(tmp_path / "resumed.json") == expected


def test_a_resume_folder_of_another_survey_is_refused(corpus: tuple[Path, dict[str, Any]],
                                                      tmp_path: Path) -> None:
    path, _ = corpus
    survey([str(path)], OPTIONS, workers=1, resume=tmp_path, partition_bytes=1 << 20)
    with pytest.raises(SurveyError, match="another survey"):
        survey([str(path)], Options(), workers=1, resume=tmp_path)


def _max_rss(client: Any) -> dict[str, int]:
    def peak() -> int:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    got: dict[str, int] = client.run(peak)
    return got


def test_a_1_gb_sparse_file_keeps_worker_memory_flat(tmp_path: Path, dask_cluster: str) -> None:
    """A 1 GiB file (a hole: NUL bytes, one line of them between URLs) surveyed on the workers:
    their peak RSS after it is within 10% of their peak after a small corpus."""
    small = tmp_path / "small.txt"
    small.write_text("".join(f"http://h{i}.example/a?b#c\n" for i in range(2000)))
    big = tmp_path / "sparse.txt"
    with big.open("wb") as f:
        f.write(b"http://first.example/\n")
        f.seek(1 << 29)
        f.write(b"\nhttp://middle.example/\n")
        f.truncate(1 << 30)
    with distributed.Client(dask_cluster) as client:
        survey([str(small)], OPTIONS, cluster=dask_cluster, partition_bytes=8192)
        before = _max_rss(client)
        got = survey([str(big)], OPTIONS, cluster=dask_cluster)
        after = _max_rss(client)
    assert got.tally.urls == 2  # the two URLs; the NUL runs are two lines over the limit
    assert got.tally.count("unreadable", S.TOO_LONG) == 2
    assert got.partitions >= 2
    for worker, peak in after.items():
        assert peak <= 1.10 * before[worker], (worker, before[worker], peak)


def test_implementations_are_bounded_as_in_the_server() -> None:
    """What the server would not run an implementation on (a URL over
    MAX_IMPLEMENTATIONS_CHARS, a host over the IDNA caps) is counted "not run", not sent."""
    from urlcalc.implementations import IMPLEMENTATIONS
    from urlcalc.model.limits import MAX_IMPLEMENTATIONS_CHARS
    from urlcalc.survey.compare import NOT_RUN_IDNA, NOT_RUN_LONG

    reader = Reader(Options(compare=frozenset({"implementations"})))
    at = "http://a/" + "b" * (MAX_IMPLEMENTATIONS_CHARS - 9)
    assert not {k for k in reader.keys(at) if k[1] == NOT_RUN_LONG}
    over = dict(reader.keys(at + "c"))
    assert all(over[f"implementation:{i.id}"] in (NOT_RUN_LONG, "not available")
               for i in IMPLEMENTATIONS)
    wide = "http://" + "日" * 100 + ".example/"
    idna = {i.id for i in IMPLEMENTATIONS if i.idna is not None}
    assert idna
    keys = set(reader.keys(wide))
    assert {i for i in idna if (f"implementation:{i}", NOT_RUN_IDNA) in keys or
            (f"implementation:{i}", "not available") in keys} == idna
