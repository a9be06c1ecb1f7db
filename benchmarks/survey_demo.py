"""`make survey-demo`: the URLs in this machine's /usr/share/doc as a corpus (copyright files,
changelogs, READMEs and NEWS, gzipped or not), one URL a line, in a fixed order (files sorted,
URLs in the order they appear, every occurrence kept: a survey counts how often).

What counts as a URL here is kept simple and deterministic: ``http(s)://``, ``ftp://``,
``file:/`` or ``mailto:`` followed by bytes that are neither whitespace nor one of ``<>"'`()[]{}``,
with trailing ``.,;:!?`` dropped (the sentence's, not the URL's). Bytes are kept as they are, so
a file in another encoding gives lines the survey counts as not UTF-8.

    python -m benchmarks.survey_demo OUT.txt [ROOT]
"""

from __future__ import annotations

import gzip
import re
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path("/usr/share/doc")
NAMES = re.compile(r"(copyright|changelog.*|README.*|NEWS.*)", re.IGNORECASE)
URL = re.compile(rb"(?:(?:https?|ftp)://|file:/|mailto:)[^\s<>\"'`()\[\]{}]+", re.IGNORECASE)
TRAILING = b".,;:!?"
#: Larger files are read up to this many bytes (a few changelogs are tens of MB).
MAX_FILE_BYTES = 8 << 20


def documents(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink() and NAMES.fullmatch(path.name):
            yield path


def urls_in(path: Path) -> Iterator[bytes]:
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as f:
                data = f.read(MAX_FILE_BYTES)
        else:
            with path.open("rb") as f:
                data = f.read(MAX_FILE_BYTES)
    except (OSError, EOFError):
        return
    for m in URL.finditer(data):
        url = m.group().rstrip(TRAILING)
        if url.lower() not in (b"http://", b"https://", b"ftp://", b"file:/", b"mailto:"):
            yield url


def main() -> None:
    out = Path(sys.argv[1])
    root = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT
    out.parent.mkdir(parents=True, exist_ok=True)
    files = urls = 0
    with out.open("wb") as f:
        for doc in documents(root):
            files += 1
            for url in urls_in(doc):
                f.write(url + b"\n")
                urls += 1
    print(f"{urls:,} URLs from {files:,} files under {root} -> {out}")


if __name__ == "__main__":
    main()
