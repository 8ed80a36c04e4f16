"""Generation on a worker fleet: Celery over a real broker (Redis or RabbitMQ).

Without ``BROKER_URL`` nothing here runs and every process generates in its own local pool. With it,
`puzzlegen pregenerate --queue` and `puzzlegen refill` enqueue chunks of seeds for one (type,
parameters incl. difficulty), and `puzzlegen worker` processes on any number of machines generate them
into the shared database.

Why the guarantees hold:
- A message is acknowledged only after its chunk is stored (``acks_late``). A worker child killed
  mid-task makes its parent requeue the message at once (``reject_on_worker_lost``); a whole worker
  that vanishes leaves its message unacknowledged: RabbitMQ requeues it when the connection drops,
  Redis after ``FLEET_VISIBILITY_TIMEOUT`` seconds.
- Every puzzle is stored under its derived id, insert-if-absent, and a chunk skips ids already stored,
  so a redelivered or repeated chunk stores nothing twice.
- Each chunk has a hard time limit (its items' budgets plus a margin): the prefork pool kills a child
  that is still running past it, even inside a solver's C code, and the chunk is not run again.
- Messages are persistent and queues durable: on RabbitMQ they survive a broker restart. Redis as
  configured here keeps nothing on disk, so a Redis restart loses what was queued (a refiller or a
  rerun of `pregenerate --queue` enqueues it again: ids are derived, nothing is made twice).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from itertools import groupby
from typing import Any

from celery import Celery, signals
from celery.exceptions import SoftTimeLimitExceeded

from app.fleet import metrics as fleet_metrics
from app.fleet.broker import celery_app
from app.service import build_row, identity, pool_key
from app.settings import get_settings
from app.store import PuzzleStore
from app.work import envelope, generate_job, warm_up_worker
from generators.registry import TYPES

log = logging.getLogger("puzzlegen.fleet")

TIME_LIMIT_MARGIN_SECONDS = 10.0  # past the items' own budgets, for storing and start-up
MAX_RETRIES = 1  # a chunk whose puzzles ran out of budget runs once more (stored ones are skipped)
RETRY_SECONDS = 5.0


@dataclass(frozen=True)
class Item:
    """One puzzle of a chunk: everything that makes it the same wherever it runs."""

    puzzle_id: str
    params: dict[str, Any]  # what generates it (the type's params model, as JSON)
    stored_params: dict[str, Any]  # what its record shows (a daily's adds its date)
    seed: int
    daily_key: str | None = None
    pool: str | None = None


def chunks(tasks: Iterable[Any], size: int) -> list[tuple[str, list[Item]]]:
    """Planned tasks (``app.cli.plan.Task``) as chunks of at most ``size`` seeds of one type and parameter set."""
    def level(task: Any) -> tuple[str, str]:
        return task.puzzle_type.name, pool_key(task.puzzle_type, identity(task.params))

    out = []
    for (type_name, _), group in groupby(tasks, key=level):
        items = [Item(t.puzzle_id, identity(t.params), t.stored_params, t.seed, t.daily_key, t.pool) for t in group]
        out.extend((type_name, items[i:i + size]) for i in range(0, len(items), size))
    return out


def enqueue(planned: list[tuple[str, list[Item]]], budget: float, engine: Celery | None = None) -> int:
    """Send chunks to the broker; each gets a hard time limit from its items' budgets."""
    engine = engine or celery_app
    for type_name, items in planned:
        limit = budget * len(items) + TIME_LIMIT_MARGIN_SECONDS
        engine.send_task(
            "puzzlegen.generate_chunk", (type_name, [asdict(item) for item in items], budget),
            time_limit=limit, soft_time_limit=limit - TIME_LIMIT_MARGIN_SECONDS / 2,
        )
    return len(planned)


_store: PuzzleStore | None = None


def worker_store() -> PuzzleStore:
    """One store per worker process, opened after the fork (a database connection must not cross one)."""
    global _store
    if _store is None:
        _store = PuzzleStore(os.environ.get("DATABASE_URL") or get_settings().database_url)
    return _store


class ChunkIncomplete(Exception):
    """Some puzzles of a chunk could not be made within their budget (the rest are stored)."""


@celery_app.task(name="puzzlegen.generate_chunk", bind=True)
def generate_chunk(self: Any, type_name: str, items: list[dict[str, Any]], budget: float) -> dict[str, int]:
    """Generate and store each puzzle of the chunk that is not stored yet."""
    puzzle_type = TYPES[type_name]
    store = worker_store()
    stored = skipped = 0
    failures = []
    out_of_time = False
    try:
        for raw in items:
            item = Item(**raw)
            if store.get(item.puzzle_id) is not None:
                skipped += 1
                continue
            params = puzzle_type.params_model.model_validate(item.params)
            result = envelope(generate_job, type_name, params, item.seed, time.monotonic() + budget)
            if "ok" not in result:
                failures.append(f"{item.puzzle_id}: {result['message']}")
                out_of_time = out_of_time or result["error"] == "budget"
                continue
            row = build_row(puzzle_type, item.stored_params, item.seed, item.puzzle_id, result["ok"],
                            daily_key=item.daily_key, pool=item.pool)
            stored += store.add(row) is row
    except SoftTimeLimitExceeded:
        failures.append("the chunk ran past its time limit")
    log.info("chunk of %d %s: %d stored, %d already there, %d failed", len(items), type_name, stored, skipped,
             len(failures))
    if out_of_time and self.request.retries < MAX_RETRIES:  # a busy machine, perhaps: once more, later
        raise self.retry(exc=ChunkIncomplete("; ".join(failures)), countdown=RETRY_SECONDS, max_retries=MAX_RETRIES)
    if failures:  # a seed that cannot make a puzzle fails the same way every time: no retry
        raise ChunkIncomplete("; ".join(failures))
    return {"stored": stored, "skipped": skipped}


@signals.worker_process_init.connect
def _warm_up_child(**_: Any) -> None:
    global _store
    _store = None  # never reuse a connection pool inherited from the parent
    warm_up_worker()
    worker_store()  # open (and migrate) now, not inside the first task's time limit


def run_worker(concurrency: int, loglevel: str = "INFO", hostname: str | None = None, metrics_port: int = 0) -> None:
    """A prefork worker: ``concurrency`` child processes, each running one chunk at a time."""
    if metrics_port:
        fleet_metrics.serve(metrics_port)
    queue = celery_app.conf.task_default_queue
    argv = ["worker", "--pool=prefork", f"--concurrency={concurrency}", f"--loglevel={loglevel}", f"--queues={queue}",
            "--without-gossip", "--without-mingle", "--prefetch-multiplier=1"]
    if hostname:
        argv.append(f"--hostname={hostname}")
    celery_app.worker_main(argv)
