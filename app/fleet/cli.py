"""`puzzlegen worker`, `puzzlegen refill` and `puzzlegen pregenerate --queue`: the fleet's commands.

Kept out of ``app.cli.main`` (both import ``app.cli.plan``) so the local commands never import the task engine.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from app.settings import get_settings
from app.store import PuzzleStore
from generators.registry import TYPES


def add_fleet_commands(commands: Any, pregenerate: argparse.ArgumentParser) -> None:
    """Add the fleet's subcommands, and `--queue` to `pregenerate` (which keeps working locally without it)."""
    pregenerate.add_argument("--queue", action="store_true",
                             help="enqueue chunks for the worker fleet (BROKER_URL) instead of generating here")
    pregenerate.add_argument("--chunk", type=int, default=None, help="seeds per queued task (default FLEET_CHUNK_SIZE)")
    local = pregenerate.get_default("run")
    pregenerate.set_defaults(run=_queued_or(local))
    worker = commands.add_parser("worker", help="run a fleet worker: generate what the broker hands out (BROKER_URL)")
    worker.add_argument("--concurrency", type=int, default=None, help="child processes (default: every core)")
    worker.add_argument("--hostname", default=None, help="worker name (default: celery@<host>)")
    worker.add_argument("--loglevel", default="INFO")
    worker.add_argument("--metrics-port", type=int, default=0, help="serve Prometheus metrics on this port (0: none)")
    worker.set_defaults(run=_worker)
    refill = commands.add_parser("refill", help="keep the pools in FLEET_POOLS at their target sizes via the fleet")
    refill.add_argument("--once", action="store_true", help="look once, enqueue what is missing, and exit")
    refill.set_defaults(run=_refill)


def _broker_or_exit() -> Any:
    from app.fleet.broker import fleet_settings

    settings = fleet_settings()
    if not settings.broker_url:
        print("no broker: set BROKER_URL (redis://127.0.0.1:6379/0 or amqp://guest:guest@127.0.0.1:5672//)",
              file=sys.stderr)
        raise SystemExit(2)
    return settings


def _queued_or(local: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        return _enqueue_pregenerate(args) if args.queue else local(args)
    return run


def _enqueue_pregenerate(args: argparse.Namespace) -> int:
    from app.cli.plan import plan_tasks, tally
    from app.fleet.broker import make_celery
    from app.fleet.tasks import TIME_LIMIT_MARGIN_SECONDS, chunks, enqueue

    settings = _broker_or_exit()
    types = list(TYPES.values()) if args.type == "all" else [TYPES[args.type]]
    store = PuzzleStore(args.database_url or get_settings().database_url)
    tasks = plan_tasks(types, args.start, args.days, args.pool, args.difficulty)
    todo = [task for task in tasks if store.get(task.puzzle_id) is None]
    store.dispose()
    for line in tally(tasks, todo, "to enqueue"):
        print(line, file=sys.stderr)
    size = args.chunk or settings.fleet_chunk_size
    limit = args.budget * size + TIME_LIMIT_MARGIN_SECONDS
    if settings.broker_url.startswith("redis") and limit > settings.fleet_visibility_timeout:
        print(f"warning: a chunk may run {limit:g} s, longer than FLEET_VISIBILITY_TIMEOUT "
              f"({settings.fleet_visibility_timeout} s): Redis would hand it to a second worker meanwhile "
              "(nothing is stored twice, but the work is done twice)", file=sys.stderr)
    sent = enqueue(chunks(todo, size), args.budget, make_celery(settings))
    print(f"{len(tasks)} puzzles planned, {len(tasks) - len(todo)} already stored, {len(todo)} enqueued "
          f"in {sent} tasks", file=sys.stderr)
    return 0


def _worker(args: argparse.Namespace) -> int:
    import os

    _broker_or_exit()
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    PuzzleStore(args.database_url or get_settings().database_url).dispose()  # migrate once, before the children
    from app.fleet.tasks import run_worker

    run_worker(args.concurrency or os.cpu_count() or 1, args.loglevel, args.hostname, args.metrics_port)
    return 0


def _refill(args: argparse.Namespace) -> int:
    from app.fleet.broker import make_celery
    from app.fleet.pools import parse_pools, refill_forever, refill_once

    settings = _broker_or_exit()
    try:
        targets = parse_pools(settings.fleet_pools)
    except ValueError as exc:
        print(f"FLEET_POOLS: {exc}", file=sys.stderr)
        return 2
    if not targets:
        print("FLEET_POOLS lists no pool (e.g. FLEET_POOLS='dabuhamienai:hard=500,battleship=100')", file=sys.stderr)
        return 2
    store = PuzzleStore(args.database_url or get_settings().database_url)
    if args.once:
        print(f"{refill_once(store, targets, settings, make_celery(settings))} tasks enqueued", file=sys.stderr)
        return 0
    refill_forever(store, targets, settings)
    return 0
