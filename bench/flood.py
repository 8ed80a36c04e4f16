"""Flood benchmark: `python -m bench.flood` (loopback only, bounded in time).

One client (127.0.0.1) floods `POST /generate/dabuhamienai` over 4 connections for 30 s, from a
process of its own, against a service with the default budgets. Meanwhile other clients, each from
its own loopback address, keep working: 127.0.0.2 generates a puzzle every 2 s, 127.0.0.3 and the
flooder's own address read stored puzzles and a daily, 127.0.0.4 probes `/healthz` every 20 ms.
Prints what each got, and the `/healthz` latency percentiles.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

from bench.load.__main__ import REPO, free_port
from bench.stats import percentile


def start_server(db: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "WORK_PROCESSES": "2", "WARM_UP_WORKERS": "false"}
    for name in ("RATE_LIMITS", "REDIS_URL", "API_KEYS", "TRUSTED_PROXIES"):  # the defaults are what is measured
        env.pop(name, None)
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port), "--no-access-log",
         "--no-proxy-headers", "--log-level", "warning"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def client(address: str, timeout: float = 30) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=timeout)


async def flood(url: str, seconds: float, connections: int) -> dict:
    """The flooder: `connections` requests in flight at all times, for `seconds`."""
    statuses: collections.Counter[str] = collections.Counter()
    deadline = time.monotonic() + seconds
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.1", limits=httpx.Limits(max_connections=connections))
    async with httpx.AsyncClient(transport=transport, timeout=30) as session:
        async def one_connection() -> None:
            while time.monotonic() < deadline:
                try:
                    statuses[str((await session.post(url + "/generate/dabuhamienai", params={"size": 8})).status_code)] += 1
                except httpx.HTTPError as exc:
                    statuses[type(exc).__name__] += 1

        await asyncio.gather(*(one_connection() for _ in range(connections)))
    return {"statuses": dict(statuses), "requests": sum(statuses.values()), "seconds": seconds}


def run(seconds: float, connections: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="puzzlegen-flood-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_server(tmp / "flood.db", port)
    try:
        reader = client("127.0.0.3")
        for _ in range(240):
            try:
                if reader.get(url + "/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        stored = [reader.post(url + "/generate/dabuhamienai", params={"size": 6, "seed": s}).json()["id"] for s in range(3)]
        reader.get(url + "/daily/dabuhamienai", params={"date": "2026-11-22"})
        reads = [f"/puzzles/{i}" for i in stored] + [f"/puzzles/{stored[0]}/solution", "/daily/dabuhamienai?date=2026-11-22"]

        flooder = subprocess.Popen([sys.executable, "-m", "bench.flood", "--flooder", url, "--seconds", str(seconds),
                                    "--connections", str(connections)], cwd=REPO, stdout=subprocess.PIPE, text=True)
        results: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        health_ms: list[float] = []
        other_generate_ms: list[float] = []
        stop = threading.Event()

        def probe_health() -> None:
            with client("127.0.0.4", timeout=5) as http:
                while not stop.is_set():
                    started = time.perf_counter()
                    status = http.get(url + "/healthz").status_code
                    health_ms.append((time.perf_counter() - started) * 1000)
                    results["healthz (127.0.0.4)"][status] += 1
                    time.sleep(0.02)

        def other_generates() -> None:
            with client("127.0.0.2", timeout=60) as http:
                while not stop.is_set():
                    started = time.perf_counter()
                    status = http.post(url + "/generate/dabuhamienai", params={"size": 8}).status_code
                    other_generate_ms.append((time.perf_counter() - started) * 1000)
                    results["generate (127.0.0.2)"][status] += 1
                    stop.wait(2)

        def read_stored(address: str) -> None:
            with client(address) as http:
                while not stop.is_set():
                    for path in reads:
                        results[f"stored reads ({address})"][http.get(url + path).status_code] += 1
                    stop.wait(0.5)

        threads = [threading.Thread(target=target, args=args) for target, args in (
            (probe_health, ()), (other_generates, ()), (read_stored, ("127.0.0.3",)), (read_stored, ("127.0.0.1",)))]
        time.sleep(1)  # the flood is under way
        for thread in threads:
            thread.start()
        flood_result = json.loads(flooder.communicate(timeout=seconds + 60)[0].strip().splitlines()[-1])
        stop.set()
        for thread in threads:
            thread.join()

        print(f"--- flood: {connections} connections from 127.0.0.1 for {seconds:g} s, POST /generate/dabuhamienai?size=8,"
              f" default budgets")
        print(f"flooder (127.0.0.1): {flood_result['requests']} requests "
              f"({flood_result['requests'] / seconds:.0f}/s), statuses {flood_result['statuses']}")
        for name, counts in sorted(results.items()):
            ok = sum(n for status, n in counts.items() if status < 400)
            print(f"{name:<28} {ok}/{sum(counts.values())} succeeded  statuses {dict(counts)}")
        print(f"generate (127.0.0.2) latency: median {percentile(other_generate_ms, 50):.0f} ms, "
              f"max {max(other_generate_ms):.0f} ms")
        print(f"/healthz latency over {len(health_ms)} probes: p50 {percentile(health_ms, 50):.1f} ms  "
              f"p95 {percentile(health_ms, 95):.1f} ms  p99 {percentile(health_ms, 99):.1f} ms  max {max(health_ms):.1f} ms")
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--flooder", metavar="URL", help=argparse.SUPPRESS)  # the flooding process itself
    args = parser.parse_args()
    if args.flooder:
        print(json.dumps(asyncio.run(flood(args.flooder, args.seconds, args.connections))))
        return
    run(args.seconds, args.connections)


if __name__ == "__main__":
    main()
