"""`make bench-load`: a bounded load test of `urlcalc serve` (waitress, 8 threads) on loopback.

Starts ``python -m urlcalc serve --port 0`` (a free port), then runs two phases and stops:

1. *mixed*: CLIENTS keep-alive clients (default 50) for DURATION seconds (default 20), each
   sending the next request as soon as the previous answer is read, drawn from a realistic mix:
   parse with and without trace, set, host, validate, percent, urlencoded, compare, and the
   page's static assets (index.html, app.css, app.js, config.json).
2. *heavy*: the same, but HEAVY clients (default 5) send maximal requests only (a traced parse of
   a 64 KiB input; a traced set at the 16 KiB setter-value budget) while the others keep sending
   the mix: the small requests' latency shows whether one request can starve the others.

Clients are asyncio coroutines speaking HTTP/1.1 on raw sockets (one thread: the client takes
little of the machine's CPU, which it shares with the server). Like browsers they send
``Accept-Encoding: gzip``. Every answer must be 200 (the mix is made of valid requests); any other
status, a broken connection or a timeout counts as an error. Reports, per phase and per request
kind: requests, errors, p50/p99/max latency, throughput. Exit status 1 when there is an error.

    python -m benchmarks.load [--clients 50] [--duration 20] [--heavy 5] [--heavy-duration 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from benchmarks.serve import urlcalc_serve

TIMEOUT = 30.0  # seconds for one answer before it counts as an error


@dataclass(frozen=True)
class Request:
    kind: str
    raw: bytes


def _get(kind: str, path: str, query: dict[str, str] | list[tuple[str, str]] | None = None
         ) -> Request:
    target = path + ("?" + urlencode(query) if query else "")
    raw = (f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n"
           "User-Agent: urlcalc-load\r\n\r\n").encode()
    return Request(kind, raw)


def _post(kind: str, path: str, body: object) -> Request:
    data = json.dumps(body).encode()
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
            "User-Agent: urlcalc-load\r\n\r\n").encode()
    return Request(kind, head + data)


URLS = [
    "https://EXAMPLE.com:443/a/./b/../c?q=1#f", "http://user:pass@[::1]:8080/p?x#y",
    "https://faß.example/ü?é", "file:///C:/Windows/../x", "mailto:someone@example.com",
    "../up/../x?y#z", "https://0x7f.1/", "http://a b/", "javascript:alert(1)",
    "https://xn--nxasmq6b.com/%zz", "  https://example.com/\t\n ", "blob:https://a/uuid",
]


def mix(rng: random.Random) -> list[tuple[Request, int]]:
    """(request, weight): what a classroom of pages asks for, by weight."""
    out: list[tuple[Request, int]] = []
    for u in URLS:
        out.append((_post("parse", "/api/parse", {"input": u, "base": "https://h.example/a/b"}),
                    4))
        out.append((_get("parse", "/api/parse", {"input": u}), 2))
        out.append((_post("parse+trace", "/api/parse", {"input": u, "trace": True}), 2))
        out.append((_post("validate", "/api/validate", {"input": u}), 1))
        out.append((_post("compare", "/api/compare", {"input": u}), 1))
    ops = [["host", "b.example"], ["port", "8080"], ["pathname", "/x/../y"],
           ["searchParams.append", "k=v"], ["hash", "h"], ["protocol", "http"]]
    for i in range(6):
        chosen = rng.sample(ops, rng.randrange(1, 5))
        out.append((_post("set", "/api/set", {"input": URLS[i], "ops": chosen}), 3))
    out.append((_post("set", "/api/set", {"input": URLS[0], "ops": ops, "trace": True}), 1))
    for host in ["EXAMPLE.com", "xn--nxasmq6b.com", "0x7f.1", "[::ffff:1.2.3.4]", "faß.de"]:
        out.append((_post("host", "/api/host", {"input": host, "trace": True}), 2))
    out.append((_post("percent", "/api/percent", {"input": "a b/ç%41"}), 1))
    out.append((_get("urlencoded", "/api/urlencoded", {"input": "a=b&c=%20d+e"}), 1))
    for path in ["/", "/css/app.css", "/js/app.js", "/js/engine.js", "/config.json"]:
        out.append((_get("static", path), 3))
    return out


def heavy() -> list[Request]:
    big = ("https://example.com/" + "a/b%zz/" * 10_000)[:65_536]
    query = ("https://example.com/?" + "q=%zz<>&" * 9_000)[:65_536]
    return [
        _post("MAX parse+trace", "/api/parse", {"input": big, "trace": True}),
        _post("MAX parse+trace", "/api/parse", {"input": query, "trace": True}),
        _post("MAX set+trace", "/api/set", {"input": big, "trace": True,
                                            "ops": [["pathname", "a/" * 128]] * 64}),
    ]


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    bytes_in: int = 0


_STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})")


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, int]:
    head = await reader.readuntil(b"\r\n\r\n")
    m = _STATUS.match(head)
    if not m:
        raise ValueError(f"bad status line {head[:40]!r}")
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        if b":" in line:
            k, v = line.split(b":", 1)
            headers[k.strip().lower()] = v.strip()
    if b"content-length" in headers:
        n = int(headers[b"content-length"])
        await reader.readexactly(n)
        return int(m.group(1)), n
    if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
        total = 0
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            total += size
            if size == 0:
                return int(m.group(1)), total
    if int(m.group(1)) in (204, 304):
        return int(m.group(1)), 0
    raise ValueError("response without a length")


async def client(port: int, requests: list[Request], weights: list[int] | None, deadline: float,
                 stats: Stats, seed: int) -> None:
    rng = random.Random(seed)
    reader = writer = None
    while time.monotonic() < deadline:
        req = rng.choices(requests, weights)[0] if weights else rng.choice(requests)
        t = time.perf_counter()
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**24)
            assert reader is not None
            writer.write(req.raw)
            await writer.drain()
            status, n = await asyncio.wait_for(_read_response(reader), TIMEOUT)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as e:
            stats.errors.append(f"{req.kind}: {type(e).__name__} {e} after "
                                f"{time.perf_counter() - t:.1f} s"[:200])
            if writer is not None:
                writer.close()
            reader = writer = None
            continue
        stats.latencies[req.kind].append(time.perf_counter() - t)
        stats.bytes_in += n
        if status != 200:
            stats.errors.append(f"{req.kind}: HTTP {status}")
    if writer is not None:
        writer.close()


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


async def phase(port: int, clients: int, heavy_clients: int, duration: float) -> Stats:
    rng = random.Random(1)
    weighted = mix(rng)
    small, weights = [r for r, _ in weighted], [w for _, w in weighted]
    stats = Stats()
    deadline = time.monotonic() + duration
    tasks = [client(port, small, weights, deadline, stats, i)
             for i in range(clients - heavy_clients)]
    tasks += [client(port, heavy(), None, deadline, stats, 1000 + i)
              for i in range(heavy_clients)]
    await asyncio.gather(*tasks)
    return stats


def report(title: str, stats: Stats, duration: float) -> dict[str, object]:
    all_small = [x for k, v in stats.latencies.items() if not k.startswith("MAX") for x in v]
    total = sum(len(v) for v in stats.latencies.values())
    print(f"\n{title}: {total:,} requests in {duration:.0f} s = {total / duration:,.0f} req/s, "
          f"errors {len(stats.errors)}, {stats.bytes_in / 1e6:,.0f} MB received")
    print(f"  {'kind':<18}{'requests':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    rows = sorted(stats.latencies.items())
    if all_small:
        rows.insert(0, ("(all small)", all_small))
    for kind, v in rows:
        print(f"  {kind:<18}{len(v):>9,}{pct(v, 50) * 1000:>9.1f}{pct(v, 99) * 1000:>9.1f}"
              f"{max(v) * 1000:>9.1f}")
    for e in stats.errors[:10]:
        print("  error:", e)
    return {"requests": total, "errors": len(stats.errors), "rps": total / duration,
            "small_p50_ms": pct(all_small, 50) * 1000, "small_p99_ms": pct(all_small, 99) * 1000}


def _peak_rss_mb(pid: int) -> float | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    m = re.search(r"VmHWM:\s+(\d+) kB", status)
    return round(int(m.group(1)) / 1024) if m else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--heavy", type=int, default=5, help="clients sending maximal requests")
    ap.add_argument("--heavy-duration", type=float, default=10.0)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    with urlcalc_serve() as served:
        port = served.port
        print(f"urlcalc serve (waitress, 16 threads) on 127.0.0.1:{port}; {os.cpu_count()} CPUs; "
              f"{args.clients} clients", flush=True)
        mixed = asyncio.run(phase(port, args.clients, 0, args.duration))
        figures: dict[str, object] = {
            "mixed": report(f"mixed ({args.clients} clients)", mixed, args.duration)}
        if args.heavy and args.heavy_duration > 0:
            loaded = asyncio.run(phase(port, args.clients, args.heavy, args.heavy_duration))
            figures["heavy"] = report(
                f"heavy ({args.clients - args.heavy} clients with the mix, {args.heavy} sending "
                "maximal traced requests)", loaded, args.heavy_duration)
        figures["server_peak_rss_mb"] = _peak_rss_mb(served.pid)  # type: ignore[assignment]
        print(f"\nserver peak RSS: {figures['server_peak_rss_mb']} MB")
        log = list(served.log)
        depth = [line for line in log if "Task queue depth" in line]
        other = [line for line in log if "Task queue depth" not in line]
        print(f"server log: {len(depth)} waitress 'task queue depth' warnings (requests "
              f"waiting for a thread), {len(other)} other lines")
        for line in other[:20]:
            print("  server:", line)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")
    errors = sum(int(f["errors"]) for f in figures.values()  # type: ignore[call-overload]
                 if isinstance(f, dict))
    print(f"\nload: {'no error' if errors == 0 else f'{errors} ERRORS'}")
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
