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
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.fleet import metrics as fleet_metrics
from app.service import build_row, identity, pool_key
from app.settings import get_settings
from app.store import PuzzleStore, derive_id, derive_seed
from app.work import envelope, generate_job, warm_up_worker
from generators.registry import TYPES

log = logging.getLogger("puzzlegen.fleet")

TIME_LIMIT_MARGIN_SECONDS = 10.0  # past the items' own budgets, for storing and start-up
MAX_RETRIES = 1  # a chunk whose puzzles ran out of budget runs once more (stored ones are skipped)
RETRY_SECONDS = 5.0


class FleetSettings(BaseSettings):
    """Kept apart from the service's settings: only fleet processes (and /metrics) read them."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    broker_url: str | None = Field(
        None, description="Celery broker (redis://host:6379/0 or amqp://user:pass@host:5672//); unset: local pools only."
    )
    fleet_queue: str = Field("puzzlegen", description="Queue the fleet's tasks go through.")
    fleet_chunk_size: int = Field(5, ge=1, description="Seeds per task.")
    fleet_budget_seconds: float = Field(120.0, gt=0, description="Time budget of one puzzle in a task.")
    fleet_visibility_timeout: int = Field(
        3600, ge=10, description="Redis only: seconds before a dead worker's unacknowledged task is handed out again."
    )
    fleet_pools: str = Field(
        "", description="Pools the refiller keeps full: 'type[:difficulty]=target' separated by commas."
    )
    fleet_refill_seconds: float = Field(30.0, gt=0, description="How often the refiller looks at the pools.")


def fleet_settings() -> FleetSettings:
    return FleetSettings()


def redis_redelivery(visibility_timeout: int) -> dict[str, int]:
    """Kombu sweeps Redis for a dead worker's tasks only every 10 × 10 s by default, which adds up to
    100 s to any visibility timeout; sweep every tenth of it instead (1-10 s, one cheap range query).
    A worker killed mid-sweep leaves the sweep's lock behind; 30 s, not kombu's 300, frees it
    (sweeps restore each task in a watched transaction, so two at once repeat nothing)."""
    return {"visibility_timeout": visibility_timeout, "unacked_restore_interval": max(1, min(10, visibility_timeout // 10)),
            "unacked_restore_throttle": 1, "unacked_mutex_expire": 30}


def make_celery(settings: FleetSettings) -> Celery:
    engine = Celery("puzzlegen", broker=settings.broker_url or "memory://", set_as_current=False)
    engine.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,  # a chunk that failed or overran is not run again and again
        worker_prefetch_multiplier=1,  # a worker holds only what it runs: the rest stays in the queue for others
        task_ignore_result=True,  # results live in the database
        task_default_queue=settings.fleet_queue,
        task_default_delivery_mode="persistent",
        broker_transport_options=redis_redelivery(settings.fleet_visibility_timeout),
        broker_connection_retry_on_startup=True,
        worker_send_task_events=False,
        worker_hijack_root_logger=False,
    )
    return engine


celery_app = make_celery(fleet_settings())


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
    """Planned tasks (``app.cli.Task``) as chunks of at most ``size`` seeds of one type and parameter set."""
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


def queue_depth(engine: Celery | None = None) -> int:
    """Messages waiting in the queue (not those a worker is running)."""
    engine = engine or celery_app
    with engine.connection_for_write() as connection:
        queue = engine.conf.task_default_queue
        return connection.default_channel.queue_declare(queue, durable=True, auto_delete=False).message_count


@dataclass(frozen=True)
class PoolTarget:
    type_name: str
    params: dict[str, Any]
    target: int

    @classmethod
    def of(cls, type_name: str, target: int, **params: Any) -> PoolTarget:
        """A pool of ``type_name`` with these parameters (the rest default), as requests name it."""
        return cls(type_name, identity(TYPES[type_name].params_model(**params)), target)

    @property
    def key(self) -> str:
        return pool_key(TYPES[self.type_name], self.params)


def parse_pools(spec: str) -> list[PoolTarget]:
    """``dabuhamienai:hard=500,battleship=100``: a type's default parameters at a level, and a target size."""
    targets = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        name, _, count = part.partition("=")
        type_name, _, level = name.partition(":")
        if type_name not in TYPES or not count.isdigit():
            raise ValueError(f"{part!r}: expected type[:difficulty]=target with a type among {', '.join(TYPES)}")
        difficulty = TYPES[type_name].difficulty
        if level and (difficulty is None or level not in difficulty.names):
            raise ValueError(f"{part!r}: {type_name} has no difficulty {level!r}")
        targets.append(PoolTarget.of(type_name, int(count), **({"difficulty": level} if level else {})))
    return targets


def pool_slots(target: PoolTarget, first: int, count: int) -> list[Item]:
    """Pool slots ``first .. first+count-1``: seed and id derived as `pregenerate` derives them."""
    puzzle_type = TYPES[target.type_name]
    return [Item(derive_id(puzzle_type.id_prefix, "pool", target.key, slot), target.params, target.params,
                 derive_seed("pool", puzzle_type.name, target.params, slot), pool=target.key)
            for slot in range(first, first + count)]


def pool_totals(store: PuzzleStore) -> dict[str, int]:
    """Puzzles ever stored per pool, served or not: the next free slot of each."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from app.store import PuzzleRow

    with Session(store.engine) as session:
        rows = session.execute(select(PuzzleRow.pool_key, func.count()).where(PuzzleRow.pool_key.is_not(None))
                               .group_by(PuzzleRow.pool_key))
        return {key: count for key, count in rows}


def refill_once(store: PuzzleStore, targets: list[PoolTarget], settings: FleetSettings, engine: Celery | None = None) -> int:
    """Enqueue what each pool lacks, unless earlier work still waits in the queue (it would be the same
    slots: enqueuing them again costs generation time, though it stores nothing twice)."""
    if queue_depth(engine) > 0:
        return 0
    ready = store.pool_sizes()
    made = pool_totals(store)
    sent = 0
    for target in targets:
        missing = target.target - ready.get(target.key, 0)
        if missing > 0:
            items = pool_slots(target, made.get(target.key, 0), missing)
            size = settings.fleet_chunk_size
            sent += enqueue([(target.type_name, items[i:i + size]) for i in range(0, len(items), size)],
                            settings.fleet_budget_seconds, engine)
    return sent


def refill_forever(store: PuzzleStore, targets: list[PoolTarget], settings: FleetSettings) -> None:
    while True:
        sent = refill_once(store, targets, settings)
        if sent:
            log.info("refill: %d chunks enqueued", sent)
        time.sleep(settings.fleet_refill_seconds)
