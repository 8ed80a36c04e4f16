"""`puzzlegen`: fill the store ahead of time, and move stored puzzles in and out as JSON lines.

    puzzlegen pregenerate --type all --days 30 --pool 20      # coming days' dailies + ready pools
    puzzlegen export puzzles.jsonl                            # every stored puzzle, one per line
    puzzlegen import puzzles.jsonl

Pre-generation uses every core and is resumable: each task's id is derived from what it makes
(type, parameters, date or pool slot), so a rerun skips what is stored and does the rest.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from tqdm import tqdm

from app.service import build_row, daily_plan, pool_key
from app.settings import get_settings
from app.store import PuzzleRow, PuzzleStore, derive_id, derive_seed
from app.work import envelope, generate_job, warm_up_worker
from generators.registry import TYPES
from generators.spec import PuzzleType


@dataclass(frozen=True)
class Task:
    puzzle_type: PuzzleType
    params: dict[str, Any]
    seed: int
    puzzle_id: str
    daily_key: str | None = None
    pool: str | None = None


def default_params(puzzle_type: PuzzleType) -> dict[str, Any]:
    return puzzle_type.params_model().model_dump(mode="json", exclude_none=True)


def plan_tasks(types: list[PuzzleType], start: date, days: int, pool_size: int) -> list[Task]:
    tasks = []
    for puzzle_type in types:
        params = default_params(puzzle_type)
        for offset in range(days):
            plan = daily_plan(puzzle_type, params, start + timedelta(days=offset))
            tasks.append(Task(puzzle_type, plan.params, plan.seed, plan.puzzle_id, daily_key=plan.key))
        key = pool_key(puzzle_type, params)
        for slot in range(pool_size):
            seed = derive_seed("pool", puzzle_type.name, params, slot)
            tasks.append(Task(puzzle_type, params, seed, derive_id(puzzle_type.id_prefix, "pool", key, slot), pool=key))
    return tasks


def pregenerate(args: argparse.Namespace) -> int:
    types = list(TYPES.values()) if args.type == "all" else [TYPES[args.type]]
    store = PuzzleStore(args.database_url or get_settings().database_url)
    tasks = plan_tasks(types, args.start, args.days, args.pool)
    todo = [task for task in tasks if store.get(task.puzzle_id) is None]
    print(f"{len(tasks)} puzzles planned, {len(tasks) - len(todo)} already stored, {len(todo)} to generate", file=sys.stderr)
    failures = 0
    with ProcessPoolExecutor(args.jobs, initializer=warm_up_worker) as pool, tqdm(total=len(todo), unit="puzzle") as bar:
        running: dict[Future, Task] = {}
        queue = list(reversed(todo))
        deadline_seconds = args.budget
        while queue or running:
            while queue and len(running) < 2 * args.jobs:  # a short queue: stopping loses little
                task = queue.pop()
                future = pool.submit(_generate, task.puzzle_type.name, task.params, task.seed, deadline_seconds)
                running[future] = task
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                task = running.pop(future)
                result = future.result()
                if "ok" in result:
                    row = build_row(task.puzzle_type, task.params, task.seed, task.puzzle_id, result["ok"],
                                    daily_key=task.daily_key, pool=task.pool)
                    store.add(row)
                else:
                    failures += 1
                    bar.write(f"{task.puzzle_id}: {result['message']}")
                bar.update(1)
    store.dispose()
    return 1 if failures else 0


def _generate(type_name: str, params: dict[str, Any], seed: int, budget: float) -> dict[str, Any]:
    return envelope(generate_job, type_name, params, seed, time.monotonic() + budget)


def export(args: argparse.Namespace) -> int:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    store = PuzzleStore(args.database_url or get_settings().database_url)
    count = 0
    with Session(store.engine) as session, open(args.file, "w") as out:
        for row in session.scalars(select(PuzzleRow).order_by(PuzzleRow.created_at, PuzzleRow.id)):
            record = row.record(include_solution=True)
            record.update(daily_key=row.daily_key, pool_key=row.pool_key,
                          served_at=row.served_at.isoformat() if row.served_at else None)
            out.write(json.dumps(record, sort_keys=True) + "\n")
            count += 1
    print(f"exported {count} puzzles to {args.file}", file=sys.stderr)
    return 0


def import_(args: argparse.Namespace) -> int:
    store = PuzzleStore(args.database_url or get_settings().database_url)
    added = 0
    with open(args.file) as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                row = PuzzleRow(
                    id=record["id"], type=record["type"], params=record["params"], puzzle=record["puzzle"],
                    solution=record["solution"], stats=record.get("stats", {}), daily_key=record.get("daily_key"),
                    pool_key=record.get("pool_key"),
                    created_at=datetime.fromisoformat(record["created_at"].replace("Z", "+00:00")),
                    served_at=datetime.fromisoformat(record["served_at"]) if record.get("served_at") else None,
                )
            except (ValueError, KeyError, TypeError) as exc:
                print(f"{args.file}:{number}: not a stored puzzle record ({exc})", file=sys.stderr)
                return 2
            if row.type not in TYPES:
                print(f"{args.file}:{number}: unknown type {row.type!r}", file=sys.stderr)
                return 2
            added += store.add(row) is row
    print(f"imported {added} new puzzles from {args.file}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="puzzlegen", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", help="default: DATABASE_URL or the service's default")
    commands = parser.add_subparsers(dest="command", required=True)
    pre = commands.add_parser("pregenerate", help="generate the coming days' daily puzzles and ready pools")
    pre.add_argument("--type", default="all", choices=["all", *TYPES])
    pre.add_argument("--days", type=int, default=30, help="daily puzzles for this many days from --start")
    pre.add_argument("--start", type=date.fromisoformat, default=datetime.now(UTC).date(), help="first day (UTC)")
    pre.add_argument("--pool", type=int, default=0, help="ready puzzles per type (default parameters)")
    pre.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    pre.add_argument("--budget", type=float, default=120.0, help="seconds allowed per puzzle")
    pre.set_defaults(run=pregenerate)
    out = commands.add_parser("export", help="write every stored puzzle as JSON lines")
    out.add_argument("file")
    out.set_defaults(run=export)
    into = commands.add_parser("import", help="add puzzles from a JSON-lines export (existing ids are kept)")
    into.add_argument("file")
    into.set_defaults(run=import_)
    args = parser.parse_args(argv)
    if getattr(args, "jobs", 0) is None:
        import os

        args.jobs = os.cpu_count() or 1
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
