"""A fresh server's first requests: `python -m bench.first_request --starts 5`. Starts uvicorn on a fresh SQLite
store, waits for its start-up to complete, and times its first requests (`/healthz`, then `/types`, then
`/healthz` again); median and 95th percentile over the starts, in milliseconds."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.load.__main__ import REPO, free_port
from bench.stats import percentile

PATHS = ("/healthz", "/types", "/healthz")


def first_requests(folder: Path) -> list[float]:
    port, log = free_port(), folder / "server.log"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{folder / 'puzzles.db'}", "RATE_LIMITS": "false"}
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(port), "--no-access-log"],
                              cwd=REPO, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    try:
        while "Application startup complete" not in log.read_text():
            assert server.poll() is None, log.read_text()[-2000:]
            time.sleep(0.1)
        times = []
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for path in PATHS:
                started = time.perf_counter()
                assert client.get(path).status_code == 200, path
                times.append(1000 * (time.perf_counter() - started))
        return times
    finally:
        server.terminate()
        server.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.first_request", description=__doc__)
    parser.add_argument("--starts", type=int, default=5)
    starts = parser.parse_args().starts
    runs = []
    for _ in range(starts):
        with tempfile.TemporaryDirectory() as folder:
            runs.append(first_requests(Path(folder)))
    for i, path in enumerate(PATHS):
        values = sorted(run[i] for run in runs)
        print(f"request {i + 1} ({path}): median {percentile(values, 50):.1f} ms, p95 {percentile(values, 95):.1f} ms "
              f"over {starts} starts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
