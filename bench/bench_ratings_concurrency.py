"""Rated checks racing on two replicas: `python -m bench.bench_ratings_concurrency [--players 100 --puzzles 100]`.

Two service processes (uvicorn) share one PostgreSQL database (a fresh one on the local server,
127.0.0.1:5432, dropped and made again). Every player fetches every puzzle with their token (half the
fetches through each replica), a few ask a hint, then every player checks every puzzle: each check sent
twice, once to each replica, from 16 threads, so a check and its replay are in flight together. Prints
the games, the checks' median and p95 time and throughput, and what the store holds afterwards: games
rated (each exactly once: lost or doubled updates are counted through ``app.ratings_audit``, which
replays every puzzle's and player's rating chain). Loopback only; bounded by the number of games.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import httpx
from sqlalchemy import create_engine, func, select, text

from app.ratings_audit import audit
from app.store import GAMES, PERFS, PUZZLES, PuzzleRow, PuzzleStore
from bench.load.__main__ import REPO, free_port
from bench.stats import percentile

ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
NUMBERS = [[1, 1, 2, 3], [2, 3, 4, 1], [3, 4, 1, 2], [4, 2, 3, 3]]  # a small grid: the checks, not the rules, are measured
SOLUTION = {"shaded": [[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]]}
WRONG = {"shaded": [[0] * 4 for _ in range(4)]}
LEVELS = ("easy", "medium", "hard")


def fresh_database(name: str) -> str:
    admin = create_engine(ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


def start_replica(database_url: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "WORK_PROCESSES": "1", "VERIFY_PROCESSES": "1",
           "WARM_UP_WORKERS": "false", "RATE_LIMITS": "false",  # every player comes from this one address
           "MAX_PENDING_JOBS": "1000"}  # hints queue for the one worker instead of a 503: the checks are measured
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port), "--no-access-log",
         "--no-proxy-headers", "--log-level", "warning"], cwd=REPO, env=env, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)  # access lines: one per request
    return process, f"http://127.0.0.1:{port}"


def wait_until_up(process: subprocess.Popen, url: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the replica at {url} exited with {process.returncode}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not come up")


@dataclass
class Run:
    games: int
    checks: int = 0
    rated_answers: int = 0
    failures: list[str] = field(default_factory=list)
    check_seconds: list[float] = field(default_factory=list)
    wall_seconds: float = 0.0
    stored: dict[str, int] = field(default_factory=dict)
    audit_games: int = 0
    audit_problems: list[str] = field(default_factory=list)


def run(database_url: str, players: int, puzzles: int, threads: int = 16, hint_share: float = 0.05, seed: int = 1) -> Run:
    """Store ``puzzles`` puzzles, start two replicas on ``database_url``, and play players x puzzles games."""
    store = PuzzleStore(database_url)
    ids = [store.add(PuzzleRow(id=f"dab-race-{n:05d}", type="dabuhamienai", params={"size": 4, "seed": n},
                               puzzle={"size": 4, "numbers": NUMBERS}, solution=SOLUTION, stats={},
                               difficulty={"level": LEVELS[n % 3], "score": 10.0 + n % 7, "steps": 5, "hardest": "x"})).id
           for n in range(puzzles)]
    tokens = [f"bench-player-{n:05d}" for n in range(players)]
    replicas = [start_replica(database_url) for _ in range(2)]
    result = Run(games=players * puzzles)
    local = threading.local()
    lock = threading.Lock()

    def http() -> httpx.Client:
        if not hasattr(local, "client"):
            local.client = httpx.Client(timeout=60)
        return local.client

    def fetch(job: tuple[int, str, str]) -> None:
        n, token, puzzle_id = job
        url = replicas[n % 2][1]
        response = http().get(f"{url}/puzzles/{puzzle_id}", params={"player": token})
        if response.status_code != 200:
            with lock:
                result.failures.append(f"fetch {response.status_code}")
        if rng_hint[n]:
            state = {"shaded": [[None] * 4 for _ in range(4)]}
            answered = http().post(f"{url}/puzzles/{puzzle_id}/hint", json={"state": state, "player": token})
            if answered.status_code != 200:
                with lock:
                    result.failures.append(f"hint {answered.status_code}")

    def check(job: tuple[int, str, str, bool]) -> None:
        replica, token, puzzle_id, solved = job
        body = {"answer": SOLUTION if solved else WRONG, "player": token, "seconds": 30.0}
        started = time.perf_counter()
        response = http().post(f"{replicas[replica][1]}/puzzles/{puzzle_id}/verify", json=body)
        took = time.perf_counter() - started
        with lock:
            result.checks += 1
            result.check_seconds.append(took)
            if response.status_code != 200:
                result.failures.append(f"verify {response.status_code}: {response.text[:120]}")
            else:
                result.rated_answers += response.json()["game"]["rated"]

    rng = random.Random(seed)
    pairs = [(token, puzzle_id) for token in tokens for puzzle_id in ids]
    rng_hint = [rng.random() < hint_share for _ in pairs]
    checks = []
    for token, puzzle_id in pairs:
        solved = rng.random() < 0.5
        first = rng.randrange(2)
        checks += [(first, token, puzzle_id, solved), (1 - first, token, puzzle_id, solved)]  # the check and its replay
    try:
        for process, url in replicas:
            wait_until_up(process, url)
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(fetch, [(n, token, puzzle_id) for n, (token, puzzle_id) in enumerate(pairs)]))
            started = time.perf_counter()
            list(pool.map(check, checks))
            result.wall_seconds = time.perf_counter() - started
    finally:
        for process, _ in replicas:
            process.terminate()
            process.wait(30)
    with store.engine.connect() as connection:
        result.stored = {
            "games settled": connection.scalar(select(func.count()).where(GAMES.c.settled_at.is_not(None))),
            "games rated": connection.scalar(select(func.count()).where(GAMES.c.score.is_not(None))),
            "puzzle games": int(connection.scalar(select(func.sum(PUZZLES.c.games))) or 0),
            "player games": int(connection.scalar(select(func.sum(PERFS.c.games))) or 0),
        }
    report = audit(store.engine)
    result.audit_games, result.audit_problems = report.games, report.problems
    store.dispose()
    return result


def describe(result: Run) -> str:
    ms = [s * 1000 for s in result.check_seconds]
    lines = [
        f"{result.games} games (players x puzzles), {result.checks} checks on 2 replicas (each sent to both)",
        f"checks: median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
        f"{result.checks / result.wall_seconds:.0f} checks/s over {result.wall_seconds:.1f} s",
        f"answered rated: {result.rated_answers} (expected {result.games}); failures: {len(result.failures)} "
        f"{result.failures[:3]}",
        "stored: " + ", ".join(f"{key} {value}" for key, value in result.stored.items()),
        f"audit: {result.audit_games} rated games replayed, {len(result.audit_problems)} broken chains "
        f"(lost or doubled updates) {result.audit_problems[:3]}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--puzzles", type=int, default=100)
    parser.add_argument("--threads", type=int, default=16)
    args = parser.parse_args(argv)
    result = run(fresh_database("puzzlegen_bench_ratings"), args.players, args.puzzles, args.threads)
    print(describe(result))
    exact = (result.rated_answers == result.games and not result.audit_problems and not result.failures
             and set(result.stored.values()) == {result.games})
    return 0 if exact else 1


if __name__ == "__main__":
    sys.exit(main())
