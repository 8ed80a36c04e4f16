"""GET /next and a rated check at scale: `python -m bench.bench_ratings_next [--puzzles 100000]`.

Fills a fresh PostgreSQL database (127.0.0.1:5432, dropped and made again) with N puzzles over the five
types (ratings spread as priors and play spread them, 2% waiting in generate pools) and players who have
played 50 puzzles each, then serves it with one uvicorn process and times, over HTTP from one client:
``GET /next/{type}?player=`` for players of every rating, and ``POST /puzzles/{id}/verify`` without a
player beside the same check as a rated game (fetched first), whose difference is what rating costs.
Prints median and p95 of each and the work done (rows, games, requests), and the plan PostgreSQL
chooses for /next's candidates. Loopback only; bounded by the request counts.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime

import httpx
from sqlalchemy import insert, text

from app.store import GAMES, PERFS, PUZZLES, PuzzleStore
from bench.bench_ratings_concurrency import NUMBERS, SOLUTION, WRONG, fresh_database, start_replica, wait_until_up
from bench.stats import percentile
from generators.registry import TYPES

BATCH = 5000


def fill(store: PuzzleStore, puzzles: int, players: int, played: int, seed: int = 3) -> list[str]:
    rng = random.Random(seed)
    now = datetime.now(UTC)
    types = list(TYPES)
    ids = []
    with store.engine.begin() as connection:
        for start in range(0, puzzles, BATCH):
            rows = []
            for n in range(start, min(start + BATCH, puzzles)):
                kind = types[n % len(types)]
                pooled = rng.random() < 0.02
                ids.append(puzzle_id := f"bench-{n:07d}")
                rows.append({
                    "id": puzzle_id, "type": kind, "params": {"size": 4, "seed": n}, "stats": {},
                    "puzzle": {"size": 4, "numbers": NUMBERS}, "solution": SOLUTION,
                    "difficulty": {"level": "medium", "score": 10.0, "steps": 5, "hardest": "x"},
                    "created_at": now, "pool_key": f"{kind}|{{}}" if pooled else None,
                    "rating": rng.gauss(1500, 300), "rd": rng.uniform(50, 200), "volatility": 0.06, "games": 0,
                })
            connection.execute(insert(PUZZLES), rows)
        by_type = {kind: [i for n, i in enumerate(ids) if n % len(types) == types.index(kind)] for kind in types}
        for p in range(players):
            token = f"bench-next-{p:05d}"
            connection.execute(insert(PERFS), [{"player": token, "type": kind, "rating": rng.gauss(1500, 350), "rd": 80.0,
                                                "volatility": 0.06, "games": played, "updated_at": now} for kind in types])
            games = [{"player": token, "puzzle_id": puzzle_id, "type": kind, "fetched_at": now, "settled_at": now,
                      "solved": True, "seconds": 60.0, "score": 1.0}
                     for kind in types for puzzle_id in rng.sample(by_type[kind], played // len(types))]
            connection.execute(insert(GAMES), games)
    with store.engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").execute(text("ANALYZE"))
    return ids


def timed(client: httpx.Client, method: str, url: str, **kwargs) -> tuple[float, httpx.Response]:
    started = time.perf_counter()
    response = client.request(method, url, **kwargs)
    return time.perf_counter() - started, response


def line(label: str, seconds: list[float], work: str) -> str:
    ms = [s * 1000 for s in seconds]
    return f"{label:<28} n={len(ms):<5} median {statistics.median(ms):6.2f} ms  p95 {percentile(ms, 95):6.2f} ms  {work}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--puzzles", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args(argv)
    url = fresh_database("puzzlegen_bench_next")
    store = PuzzleStore(url)
    started = time.perf_counter()
    ids = fill(store, args.puzzles, args.players, played=50)
    print(f"stored {len(ids)} puzzles, {args.players} players x 50 games in {time.perf_counter() - started:.0f} s")
    with store.engine.connect() as connection:
        plan = connection.execute(text(
            "EXPLAIN ANALYZE SELECT id, rating FROM puzzles WHERE type = 'ubongo' "
            "AND (pool_key IS NULL OR served_at IS NOT NULL) "
            "AND NOT EXISTS (SELECT 1 FROM games WHERE games.player = 'bench-next-00001' AND games.puzzle_id = puzzles.id) "
            "AND rating >= 1500 ORDER BY rating LIMIT 10")).scalars().all()
    print("plan of one side of /next's candidates (run once):\n  " + "\n  ".join(plan))
    process, base = start_replica(url)
    rng = random.Random(5)
    try:
        wait_until_up(process, base)
        with httpx.Client(base_url=base, timeout=30) as client:
            for _ in range(50):  # warm the connection pool and the code paths
                client.get(f"/next/{rng.choice(list(TYPES))}", params={"player": f"bench-next-{rng.randrange(args.players):05d}"})
            nexts, statuses = [], set()
            for n in range(args.requests):
                player = f"bench-next-{rng.randrange(args.players):05d}"
                took, response = timed(client, "GET", f"/next/{list(TYPES)[n % len(TYPES)]}", params={"player": player})
                nexts.append(took)
                statuses.add(response.status_code)
            plain, rated = [], []
            dab = [i for n, i in enumerate(ids) if n % len(TYPES) == 0]
            for n in range(args.requests):
                puzzle_id = dab[n]
                answer = SOLUTION if n % 2 else WRONG
                took, _ = timed(client, "POST", f"/puzzles/{puzzle_id}/verify", json={"answer": answer})
                plain.append(took)
                player = f"bench-rated-{n:05d}"
                client.get(f"/puzzles/{puzzle_id}", params={"player": player})
                took, response = timed(client, "POST", f"/puzzles/{puzzle_id}/verify",
                                       json={"answer": answer, "player": player, "seconds": 40})
                assert response.json()["game"]["rated"], response.text
                rated.append(took)
    finally:
        process.terminate()
        process.wait(30)
    store.dispose()
    print(line("GET /next/{type}", nexts, f"statuses {sorted(statuses)}, {len(ids)} puzzles stored"))
    print(line("verify, no player", plain, "checks counted"))
    print(line("verify, rated game", rated, "games settled (both ratings, audit row)"))
    overhead = statistics.median(rated) - statistics.median(plain)
    print(f"a rated check adds {overhead * 1000:.2f} ms at the median "
          f"(p95 {(percentile(rated, 95) - percentile(plain, 95)) * 1000:.2f} ms)")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
