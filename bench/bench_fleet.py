"""Worker fleet: pool-fill throughput with 1 and 2 worker processes, and the broker round trip per task.

    python -m bench.bench_fleet [--broker redis://127.0.0.1:6379/0] [--puzzles 60] [--tasks 100]

Throughput: a pool of dabuhamienai (size 5, easy) filled by one, then two `puzzlegen worker
--concurrency 1` processes, timed from the first enqueue to the last stored puzzle (workers started
and warmed up before). Round trip: one-puzzle tasks of a type that takes milliseconds (number-sums,
size 8), run one after another by one worker; the gap between consecutive stored puzzles, less the
same work done in-process (generate + store), is what the broker, the worker's bookkeeping and
the acknowledgement cost per task.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.fleet.broker import FleetSettings, make_celery
from app.fleet.pools import PoolTarget, pool_slots
from app.fleet.tasks import enqueue
from app.service import build_row
from app.store import PuzzleRow, PuzzleStore
from app.work import generate_job
from bench.stats import percentile, summary
from generators.registry import TYPES

PUZZLEGEN = str(Path(sys.executable).parent / "puzzlegen")
FILL = PoolTarget.of("dabuhamienai", 0, difficulty="easy", size=5)
TINY = PoolTarget.of("number-sums", 0, size=8)


def start_workers(count: int, env: dict[str, str], logs: Path) -> list[subprocess.Popen]:
    workers = [subprocess.Popen([PUZZLEGEN, "worker", "--concurrency", "1", "--hostname", f"w{i}@%h"], env=env,
                                stdout=(logs / f"w{i}.log").open("w"), stderr=subprocess.STDOUT, start_new_session=True)
               for i in range(count)]
    for i in range(count):  # ready = connected and the child warmed up
        while "ready." not in (logs / f"w{i}.log").read_text() or "warmed up othello" not in (logs / f"w{i}.log").read_text():
            time.sleep(0.2)
    return workers


def stop_workers(workers: list[subprocess.Popen]) -> None:
    for worker in workers:
        os.killpg(worker.pid, signal.SIGTERM)
    for worker in workers:
        worker.wait(30)


def stored_rows(store: PuzzleStore) -> list[PuzzleRow]:
    with Session(store.engine) as session:
        return list(session.scalars(select(PuzzleRow).order_by(PuzzleRow.created_at)))


def run(target: PoolTarget, count: int, chunk: int, processes: int, broker: str, workdir: Path) -> list[PuzzleRow]:
    """Fill a fresh store with ``count`` puzzles through ``processes`` workers; rows in storing order."""
    run_id = uuid.uuid4().hex[:8]
    url = f"sqlite:///{workdir / f'{run_id}.db'}"
    store = PuzzleStore(url)
    env = {**os.environ, "BROKER_URL": broker, "FLEET_QUEUE": f"bench-{run_id}", "DATABASE_URL": url}
    engine = make_celery(FleetSettings(broker_url=broker, fleet_queue=env["FLEET_QUEUE"]))
    workers = start_workers(processes, env, workdir)
    try:
        items = pool_slots(target, 0, count)
        started = time.perf_counter()
        enqueue([(target.type_name, items[i:i + chunk]) for i in range(0, count, chunk)], 60.0, engine)
        while True:
            with Session(store.engine) as session:
                if session.scalar(select(func.count()).select_from(PuzzleRow)) >= count:
                    break
            time.sleep(0.05)
        elapsed = time.perf_counter() - started
    finally:
        stop_workers(workers)
        with engine.connection_for_write() as connection:
            connection.default_channel.queue_delete(env["FLEET_QUEUE"])
    rows = stored_rows(store)
    seconds = [row.stats.get("seconds", 0.0) for row in rows]
    print(f"{processes} worker(s): {count} puzzles in {elapsed:.1f} s = {count / elapsed:.2f} puzzles/s  "
          f"(generation per puzzle: median {statistics.median(seconds) * 1000:.0f} ms, "
          f"p95 {percentile(seconds, 95) * 1000:.0f} ms)")
    return rows


def in_process_ms(target: PoolTarget, count: int, workdir: Path) -> list[float]:
    """Generate and store the same kind of puzzle here, without the broker: the work a task does."""
    store = PuzzleStore(f"sqlite:///{workdir / 'local.db'}")
    puzzle_type = TYPES[target.type_name]
    times = []
    for item in pool_slots(target, 10_000, count):
        started = time.perf_counter()
        params = puzzle_type.params_model.model_validate(item.params)
        result = generate_job(target.type_name, params, item.seed, time.monotonic() + 60)
        store.add(build_row(puzzle_type, item.params, item.seed, item.puzzle_id, result, pool=item.pool))
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--puzzles", type=int, default=60, help="pool-fill size")
    parser.add_argument("--chunk", type=int, default=2, help="seeds per task in the pool fill")
    parser.add_argument("--tasks", type=int, default=100, help="one-puzzle tasks for the round trip")
    args = parser.parse_args()
    print(f"broker {args.broker.split('@')[-1]}; {os.cpu_count()} cores (shared with other work: figures vary)")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        for processes in (1, 2):
            run(FILL, args.puzzles, args.chunk, processes, args.broker, workdir)
        rows = run(TINY, args.tasks, 1, 1, args.broker, workdir)
        gaps = [(b.created_at - a.created_at).total_seconds() for a, b in zip(rows, rows[1:], strict=False)]
        local = in_process_ms(TINY, args.tasks, workdir)
        print(summary("task via fleet", gaps))
        print(summary("same, in-proc", local))
        print(f"broker round trip per task ≈ {(statistics.median(gaps) - statistics.median(local)) * 1000:.1f} ms "
              f"(median gap minus median in-process work)")


if __name__ == "__main__":
    main()
