"""`make bench-load`: a bounded load test of `urlcalc serve` (waitress, 16 threads) on loopback.

Starts ``python -m urlcalc serve --port 0`` (a free port), then runs the phases asked for
(``--phases``, all by default, in this order) and stops. First, always, *unloaded*: one client
alone sends small requests one after another for BASELINE_DURATION seconds (default 5): their
p50 is the unloaded floor of phases 5 and 6. Then:

1. *mixed*: CLIENTS keep-alive clients (default 50) for DURATION seconds (default 20), each
   sending the next request as soon as the previous answer is read, drawn from a realistic mix:
   parse with and without trace, set, host, validate, percent, urlencoded, compare, and the
   page's static assets (index.html, app.css, app.js, config.json). This is the floor.
2. *heavy*: the same CLIENTS with the mix, and HEAVY more clients (default 20) sending maximal
   requests only: traced parses of 64 KiB inputs, a traced set at the 16 KiB setter-value
   budget, and the setter chain of 64 ``searchParams.sort`` over a 64 KiB query. The server
   computes those in worker processes, a few at a time, and refuses the others with 503 and
   Retry-After; a heavy client then waits as told (counted as "refused", not as an error). The
   small requests' p99 against the floor's shows whether heavy clients starve the others.
3. *repeat*: the heavy phase again (HEAVY_DURATION), to show that memory does not keep growing.
4. *half-open*: HALF_OPEN connections (default 520, over the server's limit of 500) from other
   addresses that send their headers and part of a body and then nothing, re-opened as soon as
   the server closes them, from 1 s in, while the CLIENTS keep sending the mix; and every half
   second a newcomer (a new connection from a new address, one request) measures how long
   someone arriving during the attack waits for an answer.
5. *one-address*: 16 connections from ONE address (127.0.5.1) each sending costly requests
   one after another for BURST_DURATION seconds (default 20): /api/implementations with a host
   of 4,000 distinct CJK code points (12 KB of UTF-8), /api/compare with 2,040 of them, and
   traced parses of 15.9 KB bodies (just under the 16 KiB at which the server used to send a
   request to its worker processes). A 503 is waited out as told (Retry-After), as in phase 2.
6. *sockets*: 8 WebSockets (from 8 addresses) each writing 70 requests (traced parses of
   16 KB inputs, permessage-deflate: the 70 fit one write of ~7.5 KB) in one write, reading
   the 70 answers, and again, for BURST_DURATION seconds.

During phases 5 and 6 a *probe* (one more client, from its own address) sends small requests
one after another, like the unloaded client: its p95 against the unloaded p50 is the figure
(target: within 3x).

Each client connects from its own loopback address (127.0.1.x for the mix, 127.0.2.x for heavy
clients, 127.0.3.x for half-open ones: all of 127.0.0.0/8 is loopback on Linux), as the machines
of a classroom would; the server caps connections per address.

Clients are asyncio coroutines speaking HTTP/1.1 on raw sockets (one thread: the client takes
little of the machine's CPU, which it shares with the server). Like browsers they send
``Accept-Encoding: gzip``. Every answer to the mix must be 200; any other status, a broken
connection or a timeout counts as an error. Reports, per phase and per request kind: requests,
errors, p50/p99/max latency, throughput; the small requests' p99 as a ratio to the floor's; the
resident memory (RSS) of the server and of its worker processes, sampled twice a second (peak
per phase, and at the end). Exit status 1 when a small request failed.

    python -m benchmarks.load [--phases mixed,heavy,repeat,half-open,one-address,sockets]
                              [--clients 50] [--duration 20] [--heavy 20] [--heavy-duration 20]
                              [--half-open 520] [--half-open-duration 15]
                              [--baseline-duration 5] [--burst-duration 20] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import os
import random
import re
import sys
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from benchmarks.serve import urlcalc_serve

PHASES = ("mixed", "heavy", "repeat", "half-open", "one-address", "sockets")

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
    data = json.dumps(body, ensure_ascii=False).encode()
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
    for path in ["/", "/css/app.css", "/js/app.js", "/js/engine/engine.js", "/config.json"]:
        out.append((_get("static", path), 3))
    return out


def heavy() -> list[Request]:
    big = ("https://example.com/" + "a/b%zz/" * 10_000)[:65_536]
    query = ("https://example.com/?" + "q=%zz<>&" * 9_000)[:65_536]
    pairs = ("https://example.com/?" + "b=1&a=2&" * 9_000)[:65_536]
    return [
        _post("MAX parse+trace", "/api/parse", {"input": big, "trace": True}),
        _post("MAX parse+trace", "/api/parse", {"input": query, "trace": True}),
        _post("MAX set+trace", "/api/set", {"input": big, "trace": True,
                                            "ops": [["pathname", "a/" * 128]] * 64}),
        _post("MAX set sort x64", "/api/set", {"input": pairs,
                                               "ops": [["searchParams.sort", ""]] * 64}),
    ]


# 4,000 distinct CJK code points (3 bytes each in UTF-8): a host label that costly IDNA and
# punycode code (CPython's encodings.punycode is quadratic in the distinct code points) is slow on
CJK = "".join(chr(0x4E00 + i) for i in range(4000))


def costly() -> list[Request]:
    """The requests of the one-address phase: each just under a limit, and costly."""
    return [
        _post("COSTLY implementations CJK host", "/api/implementations",
              {"input": f"http://{CJK}/"}),
        _post("COSTLY compare CJK host", "/api/compare", {"input": f"http://{CJK[:2040]}/"}),
        _post("COSTLY parse+trace 15.9 KB", "/api/parse",
              {"input": "https://example.com/" + "a/b%zz/" * 2_270, "trace": True}),
    ]


def small_probe() -> list[Request]:
    """What the probe asks, one request after another: small requests of the mix."""
    return [_post("probe", "/api/parse", {"input": u, "base": "https://h.example/a/b"})
            for u in URLS] + [_get("probe", "/api/parse", {"input": u}) for u in URLS[:4]]


@dataclass
class Stats:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    heavy_errors: list[str] = field(default_factory=list)
    refused: int = 0  # heavy requests answered 503 + Retry-After
    bytes_in: int = 0
    half_open_opened: int = 0
    half_open_closed: int = 0
    newcomers: list[float] = field(default_factory=list)
    elapsed: float = 0.0
    statuses: Counter[str] = field(default_factory=Counter)  # of the costly requests
    socket_answers: int = 0
    socket_bursts: list[float] = field(default_factory=list)  # seconds for 70 answers
    socket_errors: list[str] = field(default_factory=list)
    cut_at_deadline: int = 0  # load clients still waiting for an answer at the end


_STATUS = re.compile(rb"HTTP/1\.[01] (\d{3})")


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, int, dict[bytes, bytes]]:
    head = await reader.readuntil(b"\r\n\r\n")
    m = _STATUS.match(head)
    if not m:
        raise ValueError(f"bad status line {head[:40]!r}")
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        if b":" in line:
            k, v = line.split(b":", 1)
            headers[k.strip().lower()] = v.strip()
    status = int(m.group(1))
    if b"content-length" in headers:
        n = int(headers[b"content-length"])
        await reader.readexactly(n)
        return status, n, headers
    if headers.get(b"transfer-encoding", b"").lower() == b"chunked":
        total = 0
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            total += size
            if size == 0:
                return status, total, headers
    if status in (204, 304):
        return status, 0, headers
    raise ValueError("response without a length")


def _source(group: int, i: int) -> str:
    """The loopback address of client ``i`` of a group (1: the mix, 2: heavy, 3: half-open)."""
    return f"127.0.{group}.{1 + i % 254}"


async def client(port: int, requests: list[Request], weights: list[int] | None, deadline: float,
                 stats: Stats, seed: int, source: str) -> None:
    rng = random.Random(seed)
    reader = writer = None
    is_heavy = weights is None
    while time.monotonic() < deadline:
        req = rng.choices(requests, weights)[0] if weights else rng.choice(requests)
        t = time.perf_counter()
        try:
            if writer is None:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, limit=2**24, local_addr=(source, 0))
            assert reader is not None
            writer.write(req.raw)
            await writer.drain()
            status, n, headers = await asyncio.wait_for(_read_response(reader), TIMEOUT)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as e:
            message = (f"{req.kind}: {type(e).__name__} {e} after "
                       f"{time.perf_counter() - t:.1f} s"[:200])
            (stats.heavy_errors if is_heavy else stats.errors).append(message)
            if writer is not None:
                writer.close()
            reader = writer = None
            continue
        if is_heavy:
            stats.statuses[f"{req.kind}: {status}"] += 1
        if is_heavy and status == 503:
            # refused at once: wait as told, like the page (or any polite client) would
            stats.refused += 1
            wait = float(headers.get(b"retry-after", b"1"))
            await asyncio.sleep(min(wait, max(0.0, deadline - time.monotonic())))
            continue
        stats.latencies[req.kind].append(time.perf_counter() - t)
        stats.bytes_in += n
        if status != 200:
            (stats.heavy_errors if is_heavy else stats.errors).append(
                f"{req.kind}: HTTP {status}")
    if writer is not None:
        writer.close()


HALF_OPEN_HEAD = (b"POST /api/parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                  b"\r\nContent-Length: 65536\r\n\r\n{\"input\": \"")


async def half_open(port: int, deadline: float, stats: Stats, source: str,
                    delay: float = 0.0) -> None:
    """One connection at a time from ``source`` that sends its headers and the start of a body,
    then nothing; when the server closes it, another one. Starts after ``delay`` seconds."""
    await asyncio.sleep(delay)
    while time.monotonic() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                           local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(0.1)
            continue
        stats.half_open_opened += 1
        try:
            writer.write(HALF_OPEN_HEAD)
            await writer.drain()
            left = deadline - time.monotonic()
            if left > 0:
                await asyncio.wait_for(reader.read(), left)  # until the server closes it
                stats.half_open_closed += 1
        except (TimeoutError, OSError):
            pass
        finally:
            writer.close()


async def newcomer(port: int, deadline: float, stats: Stats, delay: float) -> None:
    """A new client every half second (a fresh connection from a fresh address, one request):
    how long someone who arrives during the attack waits for an answer."""
    await asyncio.sleep(delay)
    raw = _get("newcomer", "/api/version").raw
    i = 0
    while time.monotonic() < deadline:
        t = time.perf_counter()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                "127.0.0.1", port, local_addr=(_source(4, i), 0)), TIMEOUT)
            writer.write(raw)
            await writer.drain()
            status, _, _ = await asyncio.wait_for(_read_response(reader), TIMEOUT)
            writer.close()
            stats.newcomers.append(time.perf_counter() - t)
            if status != 200:
                stats.errors.append(f"newcomer: HTTP {status}")
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as e:
            stats.errors.append(f"newcomer: {type(e).__name__} {e}"[:200])
        i += 1
        await asyncio.sleep(0.5)


SOCKET_BURST = 70
_SOCKET_STATUS = re.compile(rb'"status":(\d+)')
SOCKET_MESSAGE = {"kind": "parse", "params": {"input": "http://h/" + "a" * 16_000, "trace": True}}


async def socket_burster(port: int, deadline: float, stats: Stats, source: str) -> None:
    """A WebSocket (permessage-deflate) that writes SOCKET_BURST requests in one write, reads
    their answers, and again until ``deadline``."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**24,
                                                       local_addr=(source, 0))
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET /api/socket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                      "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                      f"Sec-WebSocket-Key: {key}\r\n"
                      "Sec-WebSocket-Extensions: permessage-deflate\r\n\r\n").encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
        if not head.startswith(b"HTTP/1.1 101") or b"permessage-deflate" not in head:
            stats.socket_errors.append(f"handshake: {head[:60]!r}")
            writer.close()
            return
    except (TimeoutError, OSError, asyncio.IncompleteReadError) as e:
        stats.socket_errors.append(f"handshake: {type(e).__name__} {e}"[:200])
        return
    protocol = ClientProtocol(parse_uri("ws://127.0.0.1/api/socket"), state=State.OPEN,
                              max_size=None)
    protocol.extensions = [PerMessageDeflate(True, True, 15, 15)]
    try:
        while time.monotonic() < deadline:
            t = time.perf_counter()
            for i in range(SOCKET_BURST):
                protocol.send_text(json.dumps({"id": i, **SOCKET_MESSAGE}).encode())
            writer.write(b"".join(protocol.data_to_send()))  # one write
            await writer.drain()
            answered = 0
            while answered < SOCKET_BURST:
                data = await asyncio.wait_for(reader.read(65536), TIMEOUT)
                if not data:
                    raise EOFError("closed by the server")
                protocol.receive_data(data)
                for event in protocol.events_received():
                    if isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                        answered += 1
                        stats.socket_answers += 1
                        m = _SOCKET_STATUS.search(bytes(event.data[:80]))
                        stats.statuses[f"socket answer: {m.group(1).decode() if m else '?'}"] += 1
                out = protocol.data_to_send()  # (pongs)
                if out:
                    writer.write(b"".join(out))
            stats.socket_bursts.append(time.perf_counter() - t)
    except (TimeoutError, OSError, EOFError, asyncio.IncompleteReadError) as e:
        stats.socket_errors.append(f"{type(e).__name__} {e}"[:200])
    finally:
        writer.close()


def probe(port: int, duration: float, source: str) -> tuple[list[float], list[str]]:
    """One client sending small requests one after another for ``duration`` seconds: their
    latencies and errors. Run in a process of its own, so that the load's clients (inflating
    the sockets' answers takes CPU) do not delay it in their event loop."""
    stats = Stats()
    requests = small_probe()
    asyncio.run(client(port, requests, [1] * len(requests), time.monotonic() + duration, stats,
                       7, source))
    return stats.latencies.get("probe", []), stats.errors


def burst_phase(port: int, duration: float, which: str) -> Stats:
    """Phase 5 (``one-address``) or 6 (``sockets``), with the probe (in its own process); or,
    with ``which`` empty, the probe alone (the unloaded floor)."""
    stats = Stats()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        pool.submit(time.sleep, 0).result()  # (the process started before the clock does)
        probed = pool.submit(probe, port, duration, "127.0.8.1")
        deadline = time.monotonic() + duration
        tasks: list[Any] = []
        if which == "one-address":
            tasks += [client(port, costly(), None, deadline, stats, 2000 + i, "127.0.5.1")
                      for i in range(16)]
        elif which == "sockets":
            tasks += [socket_burster(port, deadline, stats, f"127.0.7.{1 + i}")
                      for i in range(8)]

        async def load() -> None:
            # at the deadline, what is still running (a burst being answered, a costly request)
            # is dropped: the probe measured this window
            running = [asyncio.ensure_future(t) for t in tasks]
            _, late = await asyncio.wait(running, timeout=max(0.0, deadline - time.monotonic()))
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
            stats.cut_at_deadline = len(late)

        if tasks:
            asyncio.run(load())
        latencies, errors = probed.result()
    stats.latencies["probe"] = latencies
    stats.errors += errors
    stats.elapsed = time.monotonic() - deadline + duration
    return stats


def report_burst(title: str, stats: Stats, duration: float, floor_p50_ms: float
                 ) -> dict[str, object]:
    """The probe's latencies against the unloaded p50, and what the load got done."""
    v = stats.latencies.get("probe", [])
    p50, p95 = pct(v, 50) * 1000, pct(v, 95) * 1000
    worst = max(v) * 1000 if v else float("nan")
    figures: dict[str, object] = {
        "probe_requests": len(v), "errors": len(stats.errors), "probe_p50_ms": p50,
        "probe_p95_ms": p95, "probe_max_ms": worst, "unloaded_p50_ms": floor_p50_ms,
        "probe_p95_vs_unloaded_p50": p95 / floor_p50_ms}
    print(f"\n{title}, {max(duration, stats.elapsed):.1f} s:")
    print(f"  small requests (the probe): {len(v):,}, p50 {p50:.1f} ms, p95 {p95:.1f} ms, max "
          f"{worst:.1f} ms; p95 = {p95 / floor_p50_ms:.1f}x the unloaded p50 of "
          f"{floor_p50_ms:.1f} ms (target: 3x); errors {len(stats.errors)}")
    costly_done = {k: v for k, v in stats.latencies.items() if k.startswith("COSTLY")}
    if costly_done or stats.statuses:
        figures["costly_statuses"] = dict(sorted(stats.statuses.items()))
        figures["costly_heavy_errors"] = len(stats.heavy_errors)
        for kind, lat in sorted(costly_done.items()):
            print(f"  {kind}: {len(lat)} answered, p50 {pct(lat, 50) * 1000:,.0f} ms, max "
                  f"{max(lat) * 1000:,.0f} ms")
        print(f"  load clients still waiting at the end (dropped): {stats.cut_at_deadline}")
        print("  costly requests by status: " + ", ".join(
            f"{k} x{n}" for k, n in sorted(stats.statuses.items())))
    if stats.socket_answers or stats.socket_errors:
        b = stats.socket_bursts
        figures.update({"socket_answers": stats.socket_answers, "socket_bursts": len(b),
                        "socket_burst_p50_s": pct(b, 50),
                        "socket_errors": len(stats.socket_errors)})
        print(f"  sockets: {stats.socket_answers:,} answers, {len(b)} bursts of {SOCKET_BURST} "
              f"answered (p50 {pct(b, 50):.1f} s each), {len(stats.socket_errors)} errors")
    for e in [*stats.errors[:10], *stats.socket_errors[:5], *stats.heavy_errors[:5]]:
        print("  error:", e)
    return figures


async def phase(port: int, clients: int, heavy_clients: int, duration: float,
                half_open_connections: int = 0) -> Stats:
    rng = random.Random(1)
    weighted = mix(rng)
    small, weights = [r for r, _ in weighted], [w for _, w in weighted]
    stats = Stats()
    deadline = time.monotonic() + duration
    tasks = []
    if half_open_connections:
        # The classroom is connected when the attack starts (1 s in); newcomers arrive during it.
        tasks += [half_open(port, deadline, stats, _source(3, i), delay=1.0)
                  for i in range(half_open_connections)]
        tasks.append(newcomer(port, deadline, stats, delay=2.0))
    tasks += [client(port, small, weights, deadline, stats, i, _source(1, i))
              for i in range(clients)]
    tasks += [client(port, heavy(), None, deadline, stats, 1000 + i, _source(2, i))
              for i in range(heavy_clients)]
    await asyncio.gather(*tasks)
    stats.elapsed = time.monotonic() - deadline + duration  # heavy answers may end late
    return stats


def report(title: str, stats: Stats, duration: float, floor_p99_ms: float | None = None
           ) -> dict[str, object]:
    all_small = [x for k, v in stats.latencies.items() if not k.startswith("MAX") for x in v]
    total = sum(len(v) for v in stats.latencies.values())
    duration = max(duration, stats.elapsed)
    print(f"\n{title}: {total:,} requests answered in {duration:.1f} s = {total / duration:,.0f} "
          f"req/s, small-request errors {len(stats.errors)}, {stats.bytes_in / 1e6:,.0f} MB "
          "received")
    print(f"  {'kind':<18}{'requests':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    rows = sorted(stats.latencies.items())
    if all_small:
        rows.insert(0, ("(all small)", all_small))
    for kind, v in rows:
        print(f"  {kind:<18}{len(v):>9,}{pct(v, 50) * 1000:>9.1f}{pct(v, 99) * 1000:>9.1f}"
              f"{max(v) * 1000:>9.1f}")
    small_p99 = pct(all_small, 99) * 1000
    figures: dict[str, object] = {
        "requests": total, "errors": len(stats.errors), "rps": total / duration,
        "small_p50_ms": pct(all_small, 50) * 1000, "small_p99_ms": small_p99,
        "small_max_ms": max(all_small) * 1000 if all_small else None}
    if floor_p99_ms:
        figures["small_p99_vs_floor"] = small_p99 / floor_p99_ms
        print(f"  small requests p99 {small_p99:.1f} ms = {small_p99 / floor_p99_ms:.2f}x the "
              f"floor's {floor_p99_ms:.1f} ms (the mixed phase, same run)")
    heavy_answered = sum(len(v) for k, v in stats.latencies.items() if k.startswith("MAX"))
    if heavy_answered or stats.refused or stats.heavy_errors:
        figures.update({"heavy_answered": heavy_answered, "heavy_refused_503": stats.refused,
                        "heavy_errors": len(stats.heavy_errors)})
        print(f"  heavy requests: {heavy_answered} answered, {stats.refused} refused with 503 + "
              f"Retry-After, {len(stats.heavy_errors)} errors")
    if stats.half_open_opened:
        figures.update({"half_open_opened": stats.half_open_opened,
                        "half_open_closed_by_server": stats.half_open_closed})
        print(f"  half-open connections: {stats.half_open_opened:,} opened, "
              f"{stats.half_open_closed:,} closed by the server")
    if stats.newcomers:
        new = stats.newcomers
        figures.update({"newcomers": len(new), "newcomer_p50_ms": pct(new, 50) * 1000,
                        "newcomer_max_ms": max(new) * 1000})
        print(f"  newcomers (a new connection and one request, every 0.5 s): {len(new)}, "
              f"p50 {pct(new, 50) * 1000:.1f} ms, max {max(new) * 1000:.1f} ms")
    for e in stats.errors[:10]:
        print("  error:", e)
    for e in stats.heavy_errors[:5]:
        print("  heavy error:", e)
    return figures


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))] if s else float("nan")


def _status_kb(pid: int, field: str) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    m = re.search(rf"{field}:\s+(\d+) kB", status)
    return int(m.group(1)) if m else None


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by ``pid`` and the processes it started and are
    still running (the worker processes)."""
    total = 0.0
    for each in [pid, *_descendants(pid)]:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _descendants(pid: int) -> list[int]:
    """The processes started by ``pid``, and theirs (the forkserver and its workers)."""
    out: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                children = Path(f"/proc/{parent}/task/{tid}/children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                out.append(child)
                todo.append(child)
    return out


class Memory:
    """RSS of the server and of its worker processes, sampled twice a second in a thread."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.server_peak = 0
        self.workers_peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def sample(self) -> tuple[int, int]:
        server = _status_kb(self.pid, "VmRSS") or 0
        workers = sum(_status_kb(child, "VmRSS") or 0 for child in _descendants(self.pid))
        return server, workers

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            server, workers = self.sample()
            self.server_peak = max(self.server_peak, server)
            self.workers_peak = max(self.workers_peak, workers)

    def phase_start(self) -> None:
        self.server_peak, self.workers_peak = self.sample()
        if not self._thread.is_alive():
            self._thread.start()

    def phase_figures(self) -> dict[str, object]:
        server, workers = self.sample()
        figures = {"server_rss_peak_mb": round(self.server_peak / 1024),
                   "server_rss_end_mb": round(server / 1024),
                   "workers_rss_peak_mb": round(self.workers_peak / 1024),
                   "workers_rss_end_mb": round(workers / 1024)}
        print(f"  RSS: server peak {figures['server_rss_peak_mb']} MB (end of phase "
              f"{figures['server_rss_end_mb']} MB); worker processes together peak "
              f"{figures['workers_rss_peak_mb']} MB (end {figures['workers_rss_end_mb']} MB)")
        return figures

    def stop(self) -> None:
        self._stop.set()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--phases", default=",".join(PHASES),
                    help=f"comma-separated, among {', '.join(PHASES)} (default: all)")
    ap.add_argument("--baseline-duration", type=float, default=5.0)
    ap.add_argument("--burst-duration", type=float, default=20.0,
                    help="seconds of each of the one-address and sockets phases")
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--duration", type=float, default=20.0)
    ap.add_argument("--heavy", type=int, default=20, help="clients sending maximal requests")
    ap.add_argument("--heavy-duration", type=float, default=20.0)
    ap.add_argument("--half-open", type=int, default=520,
                    help="half-open connections (over the server's limit of 500)")
    ap.add_argument("--half-open-duration", type=float, default=15.0)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    unknown = set(phases) - set(PHASES)
    if unknown:
        ap.error(f"unknown phases {', '.join(sorted(unknown))}: choose among {', '.join(PHASES)}")
    figures: dict[str, object] = {"cpus": os.cpu_count(), "phases": phases,
                                  "load_average_at_start": os.getloadavg()[0]}
    with urlcalc_serve() as served:
        port = served.port
        print(f"urlcalc serve (waitress, 16 threads) on 127.0.0.1:{port}; {os.cpu_count()} CPUs; "
              f"{args.clients} clients", flush=True)
        memory = Memory(served.pid)
        memory.phase_start()
        print(f"server RSS at start: {memory.server_peak // 1024} MB, worker processes "
              f"{memory.workers_peak // 1024} MB")
        unloaded = burst_phase(port, args.baseline_duration, "")
        alone = unloaded.latencies.get("probe", [])
        unloaded_p50 = pct(alone, 50) * 1000
        figures["unloaded"] = {"requests": len(alone), "errors": len(unloaded.errors),
                               "p50_ms": unloaded_p50, "p95_ms": pct(alone, 95) * 1000}
        print(f"\nunloaded (one client, small requests one after another): {len(alone):,} "
              f"requests, p50 {unloaded_p50:.1f} ms, p95 {pct(alone, 95) * 1000:.1f} ms")
        floor_p99: float | None = None
        if "mixed" in phases:
            mixed = asyncio.run(phase(port, args.clients, 0, args.duration))
            floor = report(f"mixed ({args.clients} clients): the floor", mixed, args.duration)
            floor.update(memory.phase_figures())
            figures["mixed"] = floor
            floor_p99 = float(floor["small_p99_ms"])  # type: ignore[arg-type]
        if args.heavy and args.heavy_duration > 0:
            for name in [p for p in ("heavy", "repeat") if p in phases]:
                memory.phase_start()
                loaded = asyncio.run(phase(port, args.clients, args.heavy, args.heavy_duration))
                figures[name] = report(
                    f"{name} ({args.clients} clients with the mix + {args.heavy} sending maximal "
                    "requests)", loaded, args.heavy_duration, floor_p99)
                figures[name].update(memory.phase_figures())  # type: ignore[attr-defined]
        if args.half_open and args.half_open_duration > 0 and "half-open" in phases:
            memory.phase_start()
            opened = asyncio.run(phase(port, args.clients, 0, args.half_open_duration,
                                       args.half_open))
            figures["half_open"] = report(
                f"half-open ({args.clients} clients with the mix + {args.half_open} half-open "
                "connections)", opened, args.half_open_duration, floor_p99)
            figures["half_open"].update(memory.phase_figures())  # type: ignore[attr-defined]
        for name, title in (("one-address", "one-address (16 costly requests at a time from "
                                            "one address)"),
                            ("sockets", f"sockets (8 WebSockets writing {SOCKET_BURST} deflated "
                                        "16 KB requests in one write, again and again)")):
            if name in phases and args.burst_duration > 0:
                memory.phase_start()
                server_cpu, own_cpu = cpu_seconds(served.pid), time.process_time()
                loaded = burst_phase(port, args.burst_duration, name)
                server_cpu = cpu_seconds(served.pid) - server_cpu
                own_cpu = time.process_time() - own_cpu
                figures[name] = report_burst(title, loaded, args.burst_duration, unloaded_p50)
                figures[name].update(memory.phase_figures())  # type: ignore[attr-defined]
                figures[name].update({  # type: ignore[attr-defined]
                    "server_cpu_s": server_cpu, "load_clients_cpu_s": own_cpu})
                print(f"  CPU: server and its worker processes {server_cpu:.1f} s, the load's "
                      f"clients {own_cpu:.1f} s (over {loaded.elapsed:.1f} s on "
                      f"{os.cpu_count()} CPUs)")
        figures["load_average_at_end"] = os.getloadavg()[0]
        memory.stop()
        figures["server_peak_rss_mb"] = (_status_kb(served.pid, "VmHWM") or 0) // 1024
        print(f"\nserver peak RSS over the run (VmHWM): {figures['server_peak_rss_mb']} MB")
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
    print(f"\nload: {'no error' if errors == 0 else f'{errors} ERRORS'} among small requests")
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
