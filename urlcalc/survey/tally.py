"""Mergeable survey counts: a count and a few deterministic examples per bucket.

A bucket is a (family, key) pair: ``("validation-error", "invalid-credentials")``,
``("step", "scheme state, step 2.2")``, ``("implementation:yarl", "differs: host")``. Each keeps
how many URLs fell into it and up to ``EXAMPLES`` of them, the shortest first, then in code-point
order. Counts add and examples merge by that order, so ``merge`` is associative and commutative:
a corpus split into partitions in any way, surveyed in any order, gives the same tally.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

#: Examples kept per bucket.
EXAMPLES = 5
#: Longest example kept (code points): a longer one is kept cut, marked with its full length, so
#: a hostile corpus cannot make a report (or a worker's memory) grow with its lines.
MAX_EXAMPLE_CHARS = 2048


def example_order(url: str) -> tuple[int, str]:
    """The order examples are kept in: shortest first, then code-point order."""
    return (len(url), url)


class BucketJSON(TypedDict):
    """A bucket in a report: how many URLs fell into it, and its first examples."""

    count: int
    examples: list[str]


@dataclass
class Bucket:
    """How many URLs fell into a bucket, and the first ``EXAMPLES`` of them (``example_order``)."""

    count: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, url: str) -> None:
        self.count += 1
        ex = self.examples
        if len(ex) == EXAMPLES:
            last = ex[-1]
            if len(url) > len(last) or (len(url) == len(last) and url >= last):
                return  # the common case in a big bucket: not among the first examples
        if len(ex) < EXAMPLES:
            if url not in ex:
                ex.append(url)
                ex.sort(key=example_order)
        elif example_order(url) < example_order(ex[-1]) and url not in ex:
            ex[-1] = url
            ex.sort(key=example_order)

    def merge(self, other: Bucket) -> None:
        self.count += other.count
        merged: list[str] = []
        for url in heapq.merge(self.examples, other.examples, key=example_order):
            if not merged or merged[-1] != url:
                merged.append(url)
            if len(merged) == EXAMPLES:
                break
        self.examples = merged


def clip_example(url: str) -> str:
    """``url`` as an example: cut to ``MAX_EXAMPLE_CHARS`` code points (said so) when longer."""
    if len(url) <= MAX_EXAMPLE_CHARS:
        return url
    return f"{url[:MAX_EXAMPLE_CHARS]}… ({len(url)} code points)"


class Tally:
    """A survey's counts: ``urls`` read (readable lines), ``unreadable`` lines (counted in the
    ``unreadable`` family too), and the buckets by family and key.

    A family whose keys come as a set per URL (the steps taken: ``add``'s ``grouped``) is kept
    by set first, one bucket per distinct set, and spread into one bucket per key when
    ``buckets`` is read: a URL adds to one bucket, not to the forty-odd of its steps, and the
    spread buckets are the same (each key's examples are the first of the union of its sets'
    first examples, which hold them)."""

    __slots__ = ("_buckets", "_grouped", "unreadable", "urls")

    def __init__(self, urls: int = 0, unreadable: int = 0,
                 buckets: dict[str, dict[str, Bucket]] | None = None) -> None:
        self.urls = urls
        self.unreadable = unreadable
        self._buckets: dict[str, dict[str, Bucket]] = buckets if buckets is not None else {}
        self._grouped: dict[str, dict[frozenset[str], Bucket]] = {}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tally):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"Tally(urls={self.urls}, unreadable={self.unreadable})"

    @property
    def buckets(self) -> dict[str, dict[str, Bucket]]:
        """The buckets by family and key (the grouped families spread first)."""
        if self._grouped:
            for family, groups in self._grouped.items():
                keyed = self._buckets.setdefault(family, {})
                for keys, group in groups.items():
                    for key in keys:
                        if key in keyed:
                            keyed[key].merge(group)
                        else:
                            keyed[key] = Bucket(group.count, list(group.examples))
            self._grouped = {}
        return self._buckets

    def add(self, url: str, keys: Iterable[tuple[str, str]],
            grouped: Mapping[str, frozenset[str]] | None = None) -> None:
        """Count one URL read, falling into the buckets ``keys`` ((family, key) pairs; each
        counted once per URL) and, for each family in ``grouped``, into each of its keys."""
        self.urls += 1
        example = clip_example(url)
        buckets = self._buckets
        for family, key in set(keys):
            keyed = buckets.get(family)
            if keyed is None:
                keyed = buckets[family] = {}
            bucket = keyed.get(key)
            if bucket is None:
                bucket = keyed[key] = Bucket()
            bucket.add(example)
        if grouped:
            for family, key_set in grouped.items():
                if not key_set:
                    continue
                groups = self._grouped.get(family)
                if groups is None:
                    groups = self._grouped[family] = {}
                group = groups.get(key_set)
                if group is None:
                    group = groups[key_set] = Bucket()
                group.add(example)

    def add_unreadable(self, reason: str, where: str) -> None:
        """Count one line that could not be read (``reason``), with ``where`` (source and line)
        as its example."""
        self.unreadable += 1
        self._buckets.setdefault("unreadable", {}).setdefault(reason, Bucket()).add(where)

    def merge(self, other: Tally) -> Tally:
        """Add ``other``'s counts to this tally (and return it)."""
        self.urls += other.urls
        self.unreadable += other.unreadable
        for family, keys in other.buckets.items():
            mine = self.buckets.setdefault(family, {})
            for key, bucket in keys.items():
                if key in mine:
                    mine[key].merge(bucket)
                else:
                    mine[key] = Bucket(bucket.count, list(bucket.examples))
        return self

    def count(self, family: str, key: str) -> int:
        b = self.buckets.get(family, {}).get(key)
        return b.count if b is not None else 0

    def to_json(self) -> dict[str, Any]:
        """The tally as JSON (families and keys sorted, so equal tallies give equal JSON)."""
        return {
            "urls": self.urls,
            "unreadable": self.unreadable,
            "buckets": {
                family: {key: BucketJSON(count=b.count, examples=list(b.examples))
                         for key, b in sorted(keys.items())}
                for family, keys in sorted(self.buckets.items())
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tally:
        t = cls(int(data["urls"]), int(data["unreadable"]))
        for family, keys in data["buckets"].items():
            t._buckets[family] = {key: Bucket(int(b["count"]), [str(x) for x in b["examples"]])
                                 for key, b in keys.items()}
        return t


def merge_all(tallies: Iterable[Tally]) -> Tally:
    """One tally of all ``tallies`` (in any order: the result is the same)."""
    out = Tally()
    for t in tallies:
        out.merge(t)
    return out
