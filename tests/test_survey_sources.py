"""urlcalc.survey.sources: every format and compression, hostile lines counted with their reason,
long lines read in pieces, stable partitions at line boundaries, the deterministic sample."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from pathlib import Path

import pytest

from tests.required import import_or_missing
from urlcalc.model.limits import MAX_SURVEY_LINE_BYTES
from urlcalc.survey import sources as S
from urlcalc.survey.observe import Options
from urlcalc.survey.run import survey_lines

zstandard = import_or_missing("zstandard", "the survey extra: pip install -e '.[survey]'")
pq = import_or_missing("pyarrow.parquet", "the survey extra: pip install -e '.[survey]'")
pa = import_or_missing("pyarrow", "the survey extra: pip install -e '.[survey]'")

URLS = ["https://example.com/a", "http://user:pw@EXAMPLE.org:80/b c", "mailto:someone@example.net",
        "file:///C:/x", "https://[::1]/", "http://ünïcode.example/ß?q=1#f"]


def lines_of(paths: list[Path] | list[str], **kw: object) -> list[S.Line]:
    parts = S.partitions([str(p) for p in paths], **kw)  # type: ignore[arg-type]
    return [line for p in parts for line in S.read_partition(p)]


def _write(path: Path, data: bytes, compression: str | None) -> Path:
    if compression == "gz":
        path = path.with_name(path.name + ".gz")
        path.write_bytes(gzip.compress(data))
    elif compression == "zst":
        path = path.with_name(path.name + ".zst")
        path.write_bytes(zstandard.ZstdCompressor().compress(data))
    else:
        path.write_bytes(data)
    return path


def _csv(rows: list[str], sep: str) -> str:
    def q(v: str) -> str:
        return '"' + v.replace('"', '""') + '"' if any(c in v for c in f'{sep}" ') else v
    return "".join(f"{i}{sep}{q(u)}\n" for i, u in enumerate(rows))


@pytest.mark.parametrize("compression", [None, "gz", "zst"])
@pytest.mark.parametrize("fmt", ["txt", "csv", "tsv", "jsonl"])
def test_every_line_format_and_compression(tmp_path: Path, fmt: str, compression: str | None
                                           ) -> None:
    if fmt == "txt":
        text = "".join(u + "\n" for u in URLS)
        column = None
    elif fmt in ("csv", "tsv"):
        sep = "," if fmt == "csv" else "\t"
        text = f"id{sep}url\n" + _csv(URLS, sep)
        column = "url"
    else:
        text = "".join(json.dumps({"id": i, "url": u}) + "\n" for i, u in enumerate(URLS))
        column = None  # "url" by default
    path = _write(tmp_path / f"corpus.{fmt}", text.encode(), compression)
    assert lines_of([path], column=column) == URLS
    # small partitions give the same lines (uncompressed: cut at line boundaries)
    parts = S.partitions([str(path)], column=column, partition_bytes=40)
    if compression:
        assert len(parts) == 1  # a compressed file cannot be entered in the middle
    else:
        assert len(parts) > 2
    assert [x for p in parts for x in S.read_partition(p)] == URLS


def test_parquet_by_row_group(tmp_path: Path) -> None:
    path = tmp_path / "index.parquet"
    table = pa.table({"host": [u[:5] for u in URLS], "url": URLS})
    pq.write_table(table, path, row_group_size=2)
    parts = S.partitions([str(path)])
    assert [(p.start, p.end, p.first_line, p.column) for p in parts] == \
        [(0, 1, 1, "url"), (1, 2, 3, "url"), (2, 3, 5, "url")]
    assert lines_of([path]) == URLS
    assert lines_of([path], column="host") == [u[:5] for u in URLS]
    with pytest.raises(S.SourceError, match="no column 'nope'"):
        S.partitions([str(path)], column="nope")
    # a null is counted, with its row
    pq.write_table(pa.table({"url": ["http://a/", None, "http://b/"]}), tmp_path / "n.parquet")
    assert lines_of([tmp_path / "n.parquet"]) == \
        ["http://a/", (S.NULL, f"{tmp_path / 'n.parquet'}:row 2"), "http://b/"]


def test_folders_and_globs_in_order(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("http://b/\n")
    (tmp_path / "a.txt").write_text("http://a/\n")
    assert lines_of([tmp_path]) == ["http://a/", "http://b/"]
    assert lines_of([str(tmp_path / "*.txt")]) == ["http://a/", "http://b/"]
    with pytest.raises(S.SourceError, match="no such file"):
        S.partitions([str(tmp_path / "missing.txt")])


HOSTILE = [
    (b"http://ok.example/1", None),
    (b"http://bad\xff.example/", S.NOT_UTF8),
    ("http://x/\udcff".encode("utf-8", "surrogateescape"), S.NOT_UTF8),
    ("http://x/\ud800".encode("utf-8", "surrogatepass"), S.LONE_SURROGATE),
    (b"http://nul\x00.example/", S.NUL),
    (b"http://long.example/" + b"a" * (1 << 20), S.TOO_LONG),
    (b"", S.EMPTY),
    (b"http://ok.example/2\r", None),
]


def test_hostile_lines_each_counted_with_its_reason_and_place(tmp_path: Path) -> None:
    path = tmp_path / "hostile.txt"
    path.write_bytes(b"\n".join(raw for raw, _ in HOSTILE) + b"\n")
    got = lines_of([path], partition_bytes=64)
    expected = [raw.decode().removesuffix("\r") if reason is None else (reason, f"{path}:{i}")
                for i, (raw, reason) in enumerate(HOSTILE, 1)]
    assert got == expected
    tally = survey_lines(got, Options(coverage=False))
    assert (tally.urls, tally.unreadable) == (2, 6)
    assert tally.count("unreadable", S.NOT_UTF8) == 2
    assert {k for k in tally.buckets["unreadable"]} == {r for _, r in HOSTILE if r}


def test_hostile_rows_of_csv_and_json_lines(tmp_path: Path) -> None:
    csv_path = tmp_path / "c.csv"
    csv_path.write_text("id,url\n1,http://a/\n2\n3,\"http://b/\n")
    assert lines_of([csv_path], column="url") == [
        "http://a/", (S.NO_COLUMN, f"{csv_path}:3"), (S.BAD_CSV, f"{csv_path}:4")]
    with pytest.raises(S.SourceError, match="no column 'link'"):
        S.partitions([str(csv_path)], column="link")
    j = tmp_path / "j.jsonl"
    j.write_text('"http://a/"\n[1]\n{"url": 3}\n{"link": "x"}\n{"url": "\\ud800"}\nnope\n'
                 '{"url": null}\n')
    assert lines_of([j]) == ["http://a/", (S.NOT_OBJECT, f"{j}:2"), (S.NOT_STRING, f"{j}:3"),
                             (S.NO_COLUMN, f"{j}:4"), (S.LONE_SURROGATE, f"{j}:5"),
                             (S.BAD_JSON, f"{j}:6"), (S.NULL, f"{j}:7")]


def test_csv_header_detection(tmp_path: Path) -> None:
    with_header = tmp_path / "h.csv"
    with_header.write_text("url,n\nhttp://a/,1\n")
    without = tmp_path / "n.csv"
    without.write_text("http://a/,1\nhttp://b/,2\n")
    assert lines_of([with_header]) == ["http://a/"]
    assert lines_of([without]) == ["http://a/", "http://b/"]


def test_a_huge_line_is_never_held_whole(tmp_path: Path) -> None:
    """A 32 MB line: read in blocks and skipped; the reader's peak memory is a fraction of it."""
    path = tmp_path / "huge.txt"
    size = 32 << 20
    with path.open("wb") as f:
        f.write(b"http://a/\n")
        f.write(b"x" * size)
        f.write(b"\nhttp://b/\n")
    tracemalloc.start()
    try:
        got = lines_of([path])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got == ["http://a/", (S.TOO_LONG, f"{path}:2"), "http://b/"]
    # a block and at most one line's worth of pending bytes, not the line
    assert peak < size / 8
    assert peak < 2 * S.BLOCK_BYTES + 2 * MAX_SURVEY_LINE_BYTES + (1 << 20)


def test_a_line_at_the_limit_is_read(tmp_path: Path) -> None:
    at = "http://a/" + "b" * (MAX_SURVEY_LINE_BYTES - 9)
    over = at + "c"
    path = tmp_path / "limit.txt"
    path.write_text(at + "\n" + over + "\n")
    assert lines_of([path]) == [at, (S.TOO_LONG, f"{path}:2")]


def test_partitions_are_stable_and_cover_every_line_once(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    urls = [f"http://h{i}.example/{'p' * (i % 37)}" for i in range(2000)]
    path.write_text("\n".join(urls) + "\n")
    parts = S.partitions([str(path)], partition_bytes=1000)
    assert len(parts) > 20
    assert [p.id for p in parts] == [p.id for p in S.partitions([str(path)],
                                                                partition_bytes=1000)]
    assert len({p.id for p in parts}) == len(parts)
    # each partition starts at a line boundary, and knows its first line's number
    data = path.read_bytes()
    for p in parts:
        assert p.start == 0 or data[p.start - 1:p.start] == b"\n"
        assert p.first_line == data[:p.start].count(b"\n") + 1
    assert [x for p in parts for x in S.read_partition(p)] == urls
    # another file (another size): other ids
    path.write_text("\n".join(urls[:-1]) + "\n")
    assert {p.id for p in S.partitions([str(path)], partition_bytes=1000)} != {p.id for p in parts}


def test_sample_is_deterministic_whatever_the_split(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    urls = [f"http://h{i}.example/" for i in range(5000)]
    path.write_text("\n".join(urls) + "\n")
    one = [x for x in lines_of([path]) if S.sampled(x, 10)]
    many = [x for p in S.partitions([str(path)], partition_bytes=500)
            for x in S.read_partition(p) if S.sampled(x, 10)]
    assert one == many
    assert 350 < len(one) < 650  # about one in ten
    assert all(S.sampled(x, 1) for x in urls)


def test_the_survey_command(tmp_path: Path) -> None:
    """`urlcalc survey` in this process: format and column, the sample, the report, errors."""
    import io

    from urlcalc.cli import main

    data = tmp_path / "urls.data"
    data.write_text("".join(f"{i}\thttp://h{i}.example/\n" for i in range(400)) + "7\n")
    out, err = io.StringIO(), io.StringIO()
    report = tmp_path / "r.json"
    argv = ["survey", str(data), "--format", "tsv", "--workers", "1", "--no-coverage",
            "--quiet", "--out", str(report)]
    assert main([*argv, "--column", "1"], out, err) == 2  # no header row holds "1"
    assert "no column '1'" in err.getvalue()
    # without --column: no header (the first row has a "/"), the first column
    assert main([*argv, "--sample", "4"], out, err) == 0, err.getvalue()
    got = json.loads(report.read_text("utf-8"))
    sampled = [f"{i}" for i in range(400) if S.sampled(str(i), 4)]
    assert got["denominators"]["urls"] == len(sampled) + S.sampled("7", 4)
    assert "1 partitions: 0 resumed, 1 computed on this process" in err.getvalue()
    assert main(["survey", str(tmp_path / "missing.txt"), "--workers", "1"], out, err) == 2


def test_an_fsspec_url(tmp_path: Path) -> None:
    """Any fsspec filesystem: here fsspec's in-memory one (a glob, a gzipped file)."""
    fsspec = import_or_missing("fsspec", "the survey extra: pip install -e '.[survey]'")
    with fsspec.open("memory://survey-test/a.txt.gz", "wb", compression="gzip") as f:
        f.write(b"http://a/\nhttp://b\xff/\n")
    with fsspec.open("memory://survey-test/b.jsonl", "wb") as f:
        f.write(b'{"url": "http://c/"}\n')
    try:
        got = lines_of(["memory://survey-test/*"])
        assert got == ["http://a/", (S.NOT_UTF8, "memory:///survey-test/a.txt.gz:2"),
                       "http://c/"]
    finally:
        fsspec.filesystem("memory").rm("/survey-test", recursive=True)
