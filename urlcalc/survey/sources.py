"""Reading a survey's corpora: local paths or any fsspec URL, split into partitions, each read as
a stream of lines (a URL, or an unreadable line's (reason, where) pair: urlcalc.survey.run).

Formats, by extension or by name (``FORMATS``): ``text`` (one URL per line), ``csv`` and ``tsv``
(a column: ``column``, by default the first; the first row is a header when a ``column`` is
named, or when none of its fields has a ":", "/" or "."), ``jsonl`` (each line a JSON string, or
an object with the URL under ``column``, by default "url") and ``parquet`` (a column, by default
"url" when there is one, else the first; read in batches). A ``.gz`` or ``.zst`` suffix is
decompressed as it is read (fsspec's ``compression="infer"``).

Nothing is dropped silently: a line that cannot be read is yielded as ``(reason, where)`` with a
reason of ``REASONS`` and ``where`` "<source>:<line>" (Parquet: the row). Lines are read in
blocks of ``BLOCK_BYTES``: a line over ``MAX_SURVEY_LINE_BYTES`` (urlcalc.model.limits) is never
held whole, only skipped to its end and counted.

Partitions (``Partition``, made by ``partitions``) are stable: the same files give the same
partitions and ids. An uncompressed text, CSV, TSV or JSON Lines file is cut at line boundaries
about every ``partition_bytes`` (one read of the file finds them, counting lines on the way so
that each partition knows its first line's number); a Parquet file by row groups; a compressed
file is one partition (it cannot be entered in the middle).
"""

from __future__ import annotations

import csv
import glob as globmod
import hashlib
import importlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any, Protocol

from urlcalc.model.limits import MAX_SURVEY_LINE_BYTES
from urlcalc.survey.reasons import (
    BAD_CSV,
    BAD_JSON,
    EMPTY,
    LONE_SURROGATE,
    NO_COLUMN,
    NOT_OBJECT,
    NOT_STRING,
    NOT_UTF8,
    NUL,
    NULL,
    TOO_LONG,
)

#: A line from a source: a URL, or an unreadable line as (reason, where).
Line = str | tuple[str, str]

FORMATS = ("text", "csv", "tsv", "jsonl", "parquet")
_BY_EXTENSION = {"txt": "text", "text": "text", "urls": "text", "lst": "text", "list": "text",
                 "csv": "csv", "tsv": "tsv", "tab": "tsv", "jsonl": "jsonl", "ndjson": "jsonl",
                 "json": "jsonl", "parquet": "parquet", "pq": "parquet"}
_COMPRESSED = {"gz": "gzip", "gzip": "gzip", "zst": "zstd", "zstd": "zstd"}

#: Bytes read at a time: the most a line reader holds besides one line (at most
#: MAX_SURVEY_LINE_BYTES).
BLOCK_BYTES = 1 << 20
#: A partition of an uncompressed line file is about this many bytes (cut at the next line
#: boundary): the unit of work, of progress and of resume.
PARTITION_BYTES = 32 << 20
#: Rows a Parquet batch holds.
PARQUET_BATCH = 8192



def _module(name: str) -> Any:
    """An optional package (the ``survey`` extra: fsspec, pyarrow), imported when used."""
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise SourceError(f"reading corpora needs {name.split('.')[0]}: pip install "
                          f"'urlcalc[survey]' ({e})") from None


def _url_to_fs(url: str) -> tuple[Any, str]:
    """fsspec's filesystem and path for ``url``; without fsspec, local files still read."""
    try:
        fsspec = importlib.import_module("fsspec")
    except ImportError:
        if "://" in url and not url.startswith("file://"):
            raise SourceError(f"{url}: reading it needs fsspec: pip install 'urlcalc[survey]'"
                              ) from None
        return _LocalFS(), os.path.abspath(url.removeprefix("file://"))
    return fsspec.core.url_to_fs(url)  # type: ignore[no-any-return]


class _LocalFS:
    """What sources use of an fsspec filesystem, for local files when fsspec is missing."""

    def glob(self, path: str) -> list[str]:
        return globmod.glob(path)

    def isfile(self, path: str) -> bool:
        return os.path.isfile(path)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def find(self, path: str) -> list[str]:
        return [os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs]

    def size(self, path: str) -> int:
        return os.path.getsize(path)

    def unstrip_protocol(self, path: str) -> str:
        return "file://" + path

    def open(self, path: str, mode: str, compression: str | None = None) -> Any:
        if compression == "gzip":
            import gzip

            return gzip.open(path, "rb")
        if compression is not None:
            raise SourceError(f"{path}: reading {compression} needs the survey extra: "
                              f"pip install 'urlcalc[survey]'")
        return open(path, "rb")


class _Readable(Protocol):
    def read(self, n: int, /) -> bytes: ...


class SourceError(ValueError):
    """A source that cannot be surveyed at all (missing, unknown format, no such column)."""


@dataclass(frozen=True)
class Partition:
    """One unit of a survey: lines ``[start, end)`` (bytes; Parquet: row groups) of ``path``.

    ``first_line`` is the number of the first line (row) in it, counted from 1; ``column_index``
    is the CSV/TSV column, found in the header once; ``header`` says the partition begins with
    the header row (skipped)."""

    source: str
    url: str
    format: str
    compression: str | None
    start: int
    end: int
    first_line: int
    column: str | None = None
    column_index: int = 0
    header: bool = False
    size: int = 0

    @property
    def id(self) -> str:
        """Stable: the same file (path and size), format, column and range give the same id."""
        key = json.dumps([self.url, self.size, self.format, self.compression, self.column,
                          self.column_index, self.start, self.end])
        digest = hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=10)
        return f"{self.start:012d}-{digest.hexdigest()}"

    @property
    def weight(self) -> int:
        """How much work this partition is, for progress: its bytes (the file's, compressed)."""
        return self.end - self.start if self.format != "parquet" else max(self.size, 1)


def _fs_and_paths(source: str) -> tuple[Any, list[str]]:
    """The fsspec filesystem of ``source`` and its files (a glob or a folder: every file in it,
    sorted)."""
    fs, path = _url_to_fs(source)
    if any(c in path for c in "*?["):
        paths = sorted(p for p in fs.glob(path) if fs.isfile(p))
    elif fs.isdir(path):
        paths = sorted(p for p in fs.find(path) if fs.isfile(p))
    elif fs.exists(path):
        paths = [path]
    else:
        raise SourceError(f"{source}: no such file")
    if not paths:
        raise SourceError(f"{source}: no files")
    return fs, paths


def format_of(path: str, fmt: str | None) -> tuple[str, str | None]:
    """``path``'s format and compression (by its extensions; ``fmt`` forces the format)."""
    name = path.rsplit("/", 1)[-1].lower()
    parts = name.split(".")
    compression = _COMPRESSED.get(parts[-1]) if len(parts) > 1 else None
    if compression is not None:
        parts = parts[:-1]
    if fmt is not None:
        if fmt not in FORMATS:
            raise SourceError(f"no such format: {fmt}; the formats are {', '.join(FORMATS)}")
        return fmt, compression
    ext = parts[-1] if len(parts) > 1 else ""
    return _BY_EXTENSION.get(ext, "text"), compression


def partitions(sources: Sequence[str], fmt: str | None = None, column: str | None = None,
               partition_bytes: int = PARTITION_BYTES) -> list[Partition]:
    """The partitions of ``sources`` (paths or fsspec URLs, globs, folders), in order."""
    out: list[Partition] = []
    for source in sources:
        fs, paths = _fs_and_paths(source)
        for path in paths:
            f, compression = format_of(path, fmt)
            url = fs.unstrip_protocol(path)
            name = source if len(paths) == 1 else (
                path if url.startswith("file://") else url)
            out.extend(_file_partitions(fs, name, url, path, f, compression, column,
                                        partition_bytes))
    return out


def _file_partitions(fs: Any, name: str, url: str, path: str, fmt: str,
                     compression: str | None, column: str | None, partition_bytes: int
                     ) -> Iterator[Partition]:
    size = int(fs.size(path) or 0)
    if fmt == "parquet":
        pq = _module("pyarrow.parquet")
        with fs.open(path, "rb", compression=compression) as f:
            meta = pq.ParquetFile(f).metadata
            names = [meta.schema.column(i).name for i in range(meta.num_columns)]
            col = _parquet_column(names, column, name)
            row = 1
            for g in range(meta.num_row_groups):
                rows = meta.row_group(g).num_rows
                yield Partition(name, url, fmt, compression, g, g + 1, row, col, size=rows)
                row += rows
        return
    index, header = 0, False
    if fmt in ("csv", "tsv"):
        with fs.open(path, "rb", compression=compression) as f:
            first = _first_line(f)
        index, header = _csv_column(first, fmt, column, name)
    if compression is not None:
        yield Partition(name, url, fmt, compression, 0, size, 1, column, index, header, size)
        return
    start, line = 0, 1
    for end, lines_before in _boundaries(fs, path, partition_bytes):
        yield Partition(name, url, fmt, None, start, end, line, column, index,
                        header and start == 0, size)
        start, line = end, lines_before + 1
    if start < size or size == 0:
        yield Partition(name, url, fmt, None, start, size, line, column, index,
                        header and start == 0, size)


def _boundaries(fs: Any, path: str, partition_bytes: int) -> Iterator[tuple[int, int]]:
    """Where ``path``'s partitions end: the first line start at or after each ``partition_bytes``
    since the last one, with the number of lines before it (one read of the file, in blocks)."""
    target = partition_bytes
    newlines = 0  # before the current block
    pos = 0
    with fs.open(path, "rb") as f:
        while True:
            block = f.read(BLOCK_BYTES)
            if not block:
                return
            at = 0
            while target - 1 < pos + len(block):
                i = block.find(b"\n", max(target - 1 - pos, at))
                if i < 0:
                    break
                boundary = pos + i + 1
                newlines_upto = newlines + block.count(b"\n", 0, i + 1)
                yield boundary, newlines_upto
                at = i + 1
                target = boundary + partition_bytes
            newlines += block.count(b"\n")
            pos += len(block)


def _first_line(f: _Readable) -> bytes:
    for piece, complete in _raw_lines(f):
        if complete is not None:
            return piece if complete else b""
    return b""


def _parquet_column(names: list[str], column: str | None, where: str) -> str:
    if column is None:
        if not names:
            raise SourceError(f"{where}: no columns")
        return "url" if "url" in names else names[0]
    if column not in names:
        raise SourceError(f"{where}: no column {column!r} (the columns are {', '.join(names)})")
    return column


def _csv_column(first: bytes, fmt: str, column: str | None, where: str) -> tuple[int, bool]:
    """The column's index in a CSV/TSV file, and whether its first row is a header."""
    try:
        row = next(csv.reader([first.decode("utf-8-sig")], delimiter="\t" if fmt == "tsv" else ","))
    except (UnicodeDecodeError, StopIteration, csv.Error):
        row = []
    if column is not None:
        if column not in row:
            raise SourceError(f"{where}: no column {column!r} in the header row")
        return row.index(column), True
    header = bool(row) and not any(c in field for field in row for c in ":/.")
    return 0, header


def _raw_lines(f: _Readable, limit: int = MAX_SURVEY_LINE_BYTES
               ) -> Iterator[tuple[bytes, bool | None]]:
    """The lines of ``f`` (without their ``\\n``), read in blocks: (line, True), or (b"", False)
    for a line over ``limit`` bytes (read past, never held whole)."""
    pending = bytearray()
    too_long = False
    while True:
        block = f.read(BLOCK_BYTES)
        if not block:
            break
        at = 0
        while True:
            i = block.find(b"\n", at)
            if i < 0:
                if not too_long:
                    pending += block[at:]
                    if len(pending) > limit:
                        too_long = True
                        pending.clear()
                break
            if too_long:
                yield b"", False
                too_long = False
            else:
                if pending:
                    pending += block[at:i]
                    line = bytes(pending)
                    pending.clear()
                else:
                    line = block[at:i]
                yield (line, True) if len(line) <= limit else (b"", False)
            at = i + 1
    if too_long:
        yield b"", False
    elif pending:
        yield bytes(pending), True


def decode(raw: bytes) -> str:
    """``raw`` as text; raises ``_Unreadable`` with the reason when it is not (strict) UTF-8."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        try:
            raw.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            raise _Unreadable(NOT_UTF8) from None
        raise _Unreadable(LONE_SURROGATE) from None


class _Unreadable(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _checked(text: str) -> str:
    """``text`` as a URL to survey, or ``_Unreadable``."""
    if "\x00" in text:
        raise _Unreadable(NUL)
    if not text.strip():
        raise _Unreadable(EMPTY)
    if any("\ud800" <= c <= "\udfff" for c in text) and _has_surrogate(text):
        raise _Unreadable(LONE_SURROGATE)
    return text


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _from_json(text: str, column: str | None) -> str:
    try:
        value = json.loads(text)
    except ValueError:
        raise _Unreadable(BAD_JSON) from None
    if isinstance(value, dict):
        key = column if column is not None else "url"
        if key not in value:
            raise _Unreadable(NO_COLUMN)
        value = value[key]
        if value is None:
            raise _Unreadable(NULL)
        if not isinstance(value, str):
            raise _Unreadable(NOT_STRING)
    elif not isinstance(value, str):
        raise _Unreadable(NOT_OBJECT)
    return value


def read_partition(p: Partition) -> Iterator[Line]:
    """The lines of partition ``p``: each a URL, or (reason, "<source>:<line>")."""
    fs, path = _url_to_fs(p.url)
    if p.format == "parquet":
        yield from _parquet_lines(fs, path, p)
        return
    delimiter = "\t" if p.format == "tsv" else ","
    with fs.open(path, "rb", compression=p.compression) as f:
        if p.compression is None and p.start:
            f.seek(p.start)
        bounded = _Bounded(f, p.end - p.start) if p.compression is None else f
        number = p.first_line - 1
        for raw, complete in _raw_lines(bounded):
            number += 1
            if p.header and number == 1:
                continue
            where = f"{p.source}:{number}"
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]  # a byte order mark
            if not complete:
                yield (TOO_LONG, where)
                continue
            try:
                text = decode(raw)
                if p.format in ("csv", "tsv"):
                    text = _csv_field(text, delimiter, p.column_index)
                elif p.format == "jsonl":
                    text = _from_json(text, p.column)
                yield _checked(text)
            except _Unreadable as e:
                yield (e.reason, where)


def _csv_field(text: str, delimiter: str, index: int) -> str:
    if not text.strip():
        raise _Unreadable(EMPTY)
    try:
        row = next(csv.reader([text], delimiter=delimiter, strict=True))
    except (csv.Error, StopIteration):
        raise _Unreadable(BAD_CSV) from None
    if index >= len(row):
        raise _Unreadable(NO_COLUMN)
    return row[index]


def _parquet_lines(fs: Any, path: str, p: Partition) -> Iterator[Line]:
    pq = _module("pyarrow.parquet")
    with fs.open(path, "rb", compression=p.compression) as f:
        pf = pq.ParquetFile(f)
        row = p.first_line - 1
        for batch in pf.iter_batches(batch_size=PARQUET_BATCH, row_groups=[p.start],
                                     columns=[p.column]):
            for value in batch.column(0).to_pylist():
                row += 1
                where = f"{p.source}:row {row}"
                try:
                    if value is None:
                        raise _Unreadable(NULL)
                    if isinstance(value, bytes):
                        value = decode(value)
                    if not isinstance(value, str):
                        raise _Unreadable(NOT_STRING)
                    if len(value) * 4 > MAX_SURVEY_LINE_BYTES and \
                            len(value.encode("utf-8", "surrogatepass")) > MAX_SURVEY_LINE_BYTES:
                        raise _Unreadable(TOO_LONG)
                    yield _checked(value)
                except _Unreadable as e:
                    yield (e.reason, where)


class _Bounded:
    """A file read up to ``limit`` bytes, then to the end of the line it is in (a partition's
    last line may end past its range: the next partition starts after it)."""

    def __init__(self, f: IO[bytes], limit: int) -> None:
        self.f = f
        self.left = limit
        self.done = False

    def read(self, n: int) -> bytes:
        if self.done:
            return b""
        if self.left > 0:
            block = self.f.read(min(n, self.left))
            self.left -= len(block)
            if not block:
                self.done = True
            return block
        # Past the range: the boundaries are line starts, so the range ends at a line's end.
        self.done = True
        return b""


def sampled(line: Line, every: int) -> bool:
    """Whether ``line`` is in a 1-in-``every`` sample: by a hash of its text (an unreadable line:
    of its place), so the same lines are chosen on every run and every split of the corpus."""
    if every <= 1:
        return True
    text = line if isinstance(line, str) else line[1]
    digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % every == 0
