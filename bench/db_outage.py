"""Database outage benchmark: `python -m bench.db_outage` (loopback only, bounded in time).

Starts a PostgreSQL server of its own (tests/postgres_instance.py) and the service (uvicorn) on it,
drives 4 clients (new puzzles by seed, and reads of stored ones) and kills the database mid-traffic
(`pg_ctl stop -m immediate`), then starts it again; once per round. Prints, per round: requests
while it was down and the share answered within 2 s (503 with Retry-After, 200 from memory, or a
success in the moments around the kill and the return), the
time from the database's return to the first stored puzzle, and records lost (answered 201 but not
in the database) or half-written (stored, but its solution does not solve its puzzle).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import httpx
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from app.store import PuzzleRow
from bench.load.__main__ import REPO, free_port
from bench.stats import percentile
from tests.postgres_instance import PrivatePostgres


@dataclass
class Answer:
    at: float  # monotonic time it was sent
    seconds: float
    status: int
    retry_after: bool


def serve(database_url: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": database_url, "WORK_PROCESSES": "2", "WARM_UP_WORKERS": "false",
           "RATE_LIMITS": "false"}  # four clients from one address: the outage is measured, not the budgets
    return subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port), "--no-access-log",
         "--no-proxy-headers", "--log-level", "warning"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def round_trip(url: str, down: float, up_after: float, seed_base: int, server: PrivatePostgres) -> dict:
    answers: list[Answer] = []
    created: dict[str, dict] = {}
    stop = threading.Event()
    lock = threading.Lock()
    with httpx.Client(timeout=30) as http:
        stored = [http.post(url + "/generate/dabuhamienai", params={"size": 6, "seed": seed_base + s}).json()["id"]
                  for s in range(3)]

    def traffic(lane: int) -> None:
        seed = seed_base + 100 + lane
        with httpx.Client(timeout=30) as http:
            while not stop.is_set():
                started = time.monotonic()
                if lane % 2:
                    response = http.get(f"{url}/puzzles/{stored[seed % 3]}")
                else:
                    response = http.post(url + "/generate/dabuhamienai", params={"size": 4, "seed": seed})
                answer = Answer(started, time.monotonic() - started, response.status_code, "retry-after" in response.headers)
                with lock:
                    answers.append(answer)
                    if response.status_code == 201:
                        created[response.json()["id"]] = response.json()
                seed += 4

    ready_again: list[float] = []

    def probe_readiness() -> None:
        with httpx.Client(timeout=30) as http:
            while not stop.is_set():
                if http.get(url + "/readyz").status_code == 200 and server_back.is_set() and not ready_again:
                    ready_again.append(time.monotonic())
                stop.wait(0.05)

    server_back = threading.Event()
    threads = [threading.Thread(target=traffic, args=(lane,)) for lane in range(4)] + [threading.Thread(target=probe_readiness)]
    for thread in threads:
        thread.start()
    time.sleep(2)
    killed = time.monotonic()
    server.kill()
    time.sleep(down)
    server.start()
    back = time.monotonic()
    server_back.set()
    time.sleep(up_after)
    stop.set()
    for thread in threads:
        thread.join()

    during = [a for a in answers if killed <= a.at < back]
    # a success counts too: the database dies some 100 ms after `pg_ctl stop` is called, and is back just before it returns
    answered = [a for a in during if a.seconds <= 2 and (a.status in (200, 201) or (a.status == 503 and a.retry_after))]
    first_success = min((a.at + a.seconds for a in answers if a.at >= back and a.status == 201), default=None)
    engine = create_engine(server.url)
    with Session(engine) as session:
        rows = {row.id: row for row in session.scalars(select(PuzzleRow))}
    engine.dispose()
    with httpx.Client(timeout=30) as http:
        whole = sum(http.post(url + "/verify/dabuhamienai", json={"puzzle": r.puzzle, "answer": r.solution}).json()["solved"]
                    for r in rows.values())
    return {
        "during": len(during), "answered": len(answered),
        "late": sorted((a.status, round(a.seconds, 1)) for a in during if a not in answered),
        "statuses": sorted({a.status for a in during}),
        "p99_ms": percentile([a.seconds * 1000 for a in during], 99) if during else 0.0,
        "first_success_s": None if first_success is None else first_success - back,
        "ready_s": ready_again[0] - back if ready_again else None,
        "created": len(created), "lost": len(set(created) - set(rows)), "rows": len(rows), "half_written": len(rows) - whole,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--down", type=float, default=5.0, help="seconds the database stays down")
    args = parser.parse_args()
    database = PrivatePostgres()
    database.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    service = serve(database.url, port)
    try:
        for _ in range(240):
            try:
                if httpx.get(url + "/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        print(f"--- PostgreSQL killed for {args.down:g} s under 4 clients (2 generating, 2 reading), {args.rounds} rounds")
        for number in range(args.rounds):
            result = round_trip(url, args.down, 8.0, 10_000 * (number + 1), database)
            share = 100 * result["answered"] / max(1, result["during"])
            first = "never" if result["first_success_s"] is None else f"{result['first_success_s']:.2f} s"
            ready = "never" if result["ready_s"] is None else f"{result['ready_s']:.2f} s"
            print(f"round {number + 1}: while down {result['during']} requests, {share:.1f}% answered within 2 s "
                  f"(503 + Retry-After, 200 from memory, or a success at the edges; "
                  f"statuses {result['statuses']}, p99 {result['p99_ms']:.0f} ms, others (status, s): {result['late']}); "
                  f"/readyz 200 again {ready} and first stored puzzle {first} after the database returned (pg_ctl -w); "
                  f"{result['created']} puzzles answered 201, "
                  f"{result['lost']} lost, {result['half_written']} of {result['rows']} rows half-written")
    finally:
        service.terminate()
        try:
            service.wait(15)
        except subprocess.TimeoutExpired:
            service.kill()
        database.remove()


if __name__ == "__main__":
    main()
