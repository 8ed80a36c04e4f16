"""Real service processes (uvicorn) sharing one database: they agree on the daily puzzle, and a
burst of simultaneous first requests across them stores exactly one record."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.service.test_service import count_daily_rows

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_replica(database_url: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "WORK_PROCESSES": "1", "VERIFY_PROCESSES": "1", "WARM_UP_WORKERS": "false"}
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return process, f"http://127.0.0.1:{port}"


def wait_until_up(process: subprocess.Popen, url: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the replica at {url} exited with {process.returncode}"
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.3)
    raise AssertionError(f"{url} did not come up")


def test_two_replicas_store_one_daily_puzzle(database_url: str) -> None:
    replicas = [start_replica(database_url) for _ in range(2)]
    try:
        for process, url in replicas:
            wait_until_up(process, url)
        barrier = threading.Barrier(12)
        responses: list[httpx.Response] = []

        def first_request(url: str) -> None:
            barrier.wait()
            responses.append(httpx.get(url + "/daily/dabuhamienai", params={"date": "2026-07-01", "size": 12}, timeout=60))

        threads = [threading.Thread(target=first_request, args=(replicas[i % 2][1],)) for i in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert [r.status_code for r in responses] == [200] * 12
        assert len({r.text for r in responses}) == 1  # identical records from both processes
        assert count_daily_rows(database_url) == 1
    finally:
        for process, _ in replicas:
            process.terminate()
            process.wait(15)
