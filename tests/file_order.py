"""The order in which `make test`'s workers get the test files (tests/conftest.py): the longest
first, by the seconds measured in tests/durations.json (`tests/tools/durations.py` rewrites it
from a run with ``--durations=0``), so that the two workers end together."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DURATIONS = Path(__file__).parent / "durations.json"


def file_seconds() -> dict[str, float]:
    """Each measured test file (``tests/...py``) and its seconds."""
    seconds: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))["seconds"]
    return seconds


def longest_files_first(items: list[Any]) -> None:
    """Reorder pytest's ``items`` in place: whole files, the longest first (a file not measured
    yet counts as the median), the tests of a file in their own order."""
    seconds = file_seconds()
    typical = sorted(seconds.values())[len(seconds) // 2] if seconds else 0.0
    first_seen: dict[str, int] = {}
    for item in items:
        first_seen.setdefault(item.nodeid.split("::", 1)[0], len(first_seen))

    def key(item: Any) -> tuple[float, int]:
        path = item.nodeid.split("::", 1)[0]
        return (-seconds.get(path, typical), first_seen[path])

    items.sort(key=key)  # (stable: a file's tests keep their order)
