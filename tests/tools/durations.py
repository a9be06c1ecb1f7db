"""Write tests/durations.json from the output of a pytest run with ``--durations=0``: each test
file's measured seconds (its tests' setup, call and teardown added up), which tests/conftest.py
reads to send the longest files out first under ``make test``'s two workers.

    .venv/bin/pytest -q -n 2 --dist loadgroup --durations=0 > /tmp/run.txt
    .venv/bin/python tests/tools/durations.py /tmp/run.txt "how and where it was measured"
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "durations.json"
LINE = re.compile(r"^(?P<s>\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(?P<file>tests/[^:\s]+\.py)")


def seconds_per_file(text: str) -> dict[str, float]:
    """Seconds per test file in a ``--durations=0`` report (files with only hidden, tiny
    durations are missing: tests/conftest.py counts them as 0)."""
    files: dict[str, float] = defaultdict(float)
    for line in text.splitlines():
        match = LINE.match(line)
        if match:
            files[match["file"]] += float(match["s"])
    return dict(files)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    files = seconds_per_file(Path(argv[1]).read_text(encoding="utf-8"))
    if not files:
        print(f"{argv[1]}: no durations (was pytest run with --durations=0?)", file=sys.stderr)
        return 1
    ordered = dict(sorted(((k, round(v, 1)) for k, v in files.items()), key=lambda kv: -kv[1]))
    OUT.write_text(json.dumps({"measured": argv[2], "seconds": ordered}, indent=1) + "\n",
                   encoding="utf-8")
    print(f"{OUT}: {len(ordered)} files, {sum(ordered.values()):,.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
