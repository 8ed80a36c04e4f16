"""Load benchmark: `python -m bench.load` (needs `wrk`: apt-get install wrk).

Starts the service with uvicorn (1, then 2 workers) on a free loopback port and a fresh SQLite
file, then drives it from a second process (wrk) for each scenario and prints throughput and
latency percentiles. Every request goes to 127.0.0.1 only; every run is bounded in time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """uvicorn in a subprocess, waited for until its workers are warm."""

    def __init__(self, workers: int, db: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Steady state is what is measured: JIT warm-up (Othello, ~13 s of CPU per worker process at
        # start-up) is off, as these scenarios never use it.
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "WORK_PROCESSES": "2", "GENERATE_BUDGET_SECONDS": "30",
               "WARM_UP_WORKERS": "false",
               "RATE_LIMITS": "false"}  # one client drives it: capacity is measured, not the per-client budgets
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(self.port),
             "--workers", str(workers), "--no-access-log", "--log-level", "warning"],
            cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )

    def wait_ready(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    # generate once per worker process pool, so JIT warm-up is behind us
                    for seed in range(4):
                        httpx.post(self.url + "/generate/dabuhamienai", params={"size": 6, "seed": seed}, timeout=60)
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        raise RuntimeError("the server did not come up")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def wrk(url: str, seconds: int, connections: int, body: str | None = None) -> dict:
    env = dict(os.environ)
    if body is not None:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            handle.write(body)
        env["WRK_BODY_FILE"] = handle.name
    out = subprocess.run(
        ["wrk", "-t", "1", "-c", str(connections), "-d", f"{seconds}s", "--timeout", "5s", "-s", str(HERE / "report.lua"), url],
        capture_output=True, text=True, env=env, timeout=seconds + 30,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def row(label: str, result: dict) -> str:
    return (f"{label:<44} {result['rps']:9.1f} req/s  p50 {result['p50_ms']:7.2f} ms  p95 {result['p95_ms']:7.2f} ms  "
            f"p99 {result['p99_ms']:7.2f} ms  errors {result['errors']}  ({result['requests']} requests)")


def run(workers: int, seconds: int, connections: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="puzzlegen-load-"))
    server = Server(workers, tmp / "load.db")
    try:
        server.wait_ready()
        daily = httpx.get(server.url + "/daily/dabuhamienai", params={"date": "2026-11-22"}, timeout=60).json()
        solution = httpx.get(f"{server.url}/puzzles/{daily['id']}/solution", timeout=10).json()
        verify_body = json.dumps({"puzzle": daily["puzzle"], "answer": solution})
        print(f"--- {workers} worker(s), {connections} connections, {seconds} s per scenario")
        base = server.url
        dated = f"{base}/daily/dabuhamienai?date=2026-11-22"
        print(row("GET /daily/dabuhamienai?date= (stored)", wrk(dated, seconds, connections)))
        httpx.get(base + "/daily/dabuhamienai", timeout=60)  # today's, stored before it is measured
        print(row("GET /daily/dabuhamienai (today, stored)", wrk(f"{base}/daily/dabuhamienai", seconds, connections)))
        print(row("GET /puzzles/{id}", wrk(f"{base}/puzzles/{daily['id']}", seconds, connections)))
        print(row("POST /verify/dabuhamienai (8x8)", wrk(f"{base}/verify/dabuhamienai", seconds, connections, verify_body)))
        print(row("POST /generate/dabuhamienai?size=15 (random)", wrk(f"{base}/generate/dabuhamienai?size=15", seconds, 8, "")))
        # /healthz while generation runs flat out: a generation load in the background
        stop = threading.Event()

        def saturate() -> None:
            with httpx.Client(timeout=60) as client:
                while not stop.is_set():
                    client.post(server.url + "/generate/dabuhamienai", params={"size": 30})

        loaders = [threading.Thread(target=saturate) for _ in range(6)]
        for thread in loaders:
            thread.start()
        time.sleep(1)
        print(row("GET /healthz while generation saturates", wrk(f"{server.url}/healthz", seconds, 4)))
        stop.set()
        for thread in loaders:
            thread.join()
    finally:
        server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install wrk")
    for workers in args.workers:
        run(workers, args.seconds, args.connections)


if __name__ == "__main__":
    main()
