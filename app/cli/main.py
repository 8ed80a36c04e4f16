"""`puzzlegen`: fill the store ahead of time, and move stored puzzles in and out as JSON lines.

    puzzlegen pregenerate --type all --days 30 --pool 20      # coming days' dailies + ready pools
    puzzlegen export puzzles.jsonl                            # every stored puzzle, one per line
    puzzlegen import puzzles.jsonl
    puzzlegen prune --days 30                                 # drop on-demand puzzles nobody fetched
    puzzlegen book --type battleship --size 8 --count 12 --out book.pdf   # printable, solutions at the back

Pre-generation uses every core and is resumable: each task's id is derived from what it makes
(type, parameters, date or pool slot), so a rerun skips what is stored and does the rest.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TextIO

from pydantic import BaseModel, ValidationError
from sqlalchemy.engine import make_url
from tqdm import tqdm

from app import book, upkeep
from app.cli.plan import Task, plan_tasks, tally
from app.fleet.cli import add_fleet_commands
from app.service import build_row
from app.settings import get_settings
from app.store import PuzzleRow, PuzzleStore
from app.work import envelope, generate_job, grade_job, warm_up_worker
from generators.registry import TYPES

PLAY_COUNTS = ("attempts", "solves", "first_tries", "first_try_solves")


def pregenerate(args: argparse.Namespace) -> int:
    types = list(TYPES.values()) if args.type == "all" else [TYPES[args.type]]
    store = PuzzleStore(store_url(args))
    if args.difficulty != "all" and not any(t.difficulty and args.difficulty in t.difficulty.names for t in types):
        known = sorted({name for t in types if t.difficulty for name in t.difficulty.names})
        print(f"no chosen type has the difficulty {args.difficulty!r}; known: all, {', '.join(known)}", file=sys.stderr)
        return USAGE_ERROR
    try:
        tasks = plan_tasks(types, args.start, args.days, args.pool, args.difficulty)
    except ValidationError as exc:
        print(f"--difficulty {args.difficulty} does not fit a type's default parameters: "
              f"{exc.errors()[0]['msg']}", file=sys.stderr)
        return 2
    todo = [task for task in tasks if store.get(task.puzzle_id) is None]
    for line in tally(tasks, todo):  # before the first puzzle: a --pool meant per type alone shows here
        print(line, file=sys.stderr)
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
                    row = build_row(task.puzzle_type, task.stored_params, task.seed, task.puzzle_id, result["ok"],
                                    daily_key=task.daily_key, pool=task.pool)
                    store.add(row)
                else:
                    failures += 1
                    bar.write(f"{task.puzzle_id}: {result['message']}")
                bar.update(1)
    store.dispose()
    return 1 if failures else 0


def _generate(type_name: str, params: BaseModel, seed: int, budget: float) -> dict[str, Any]:
    return envelope(generate_job, type_name, params, seed, time.monotonic() + budget)


USAGE_ERROR = 2  # the exit code for a request that cannot be carried out as given


def store_url(args: argparse.Namespace) -> str:
    return args.database_url or get_settings().database_url


def describe_store(url: str) -> str:
    """The store as a person finds it: a SQLite file's absolute path, any other URL without its password."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return f"SQLite file {Path(parsed.database).resolve()}"
    return parsed.render_as_string(hide_password=True)


def missing_sqlite_file(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    path = Path(parsed.database)
    return None if path.exists() else path.resolve()


def grade(args: argparse.Namespace) -> int:
    """Grade stored puzzles that have no difficulty yet (stored before grading existed)."""
    store = PuzzleStore(store_url(args))
    graded = failures = 0
    with ProcessPoolExecutor(args.jobs, initializer=warm_up_worker) as pool:
        types = [t.name for t in TYPES.values() if t.difficulty and args.type in ("all", t.name)]
        while True:
            rows = store.ungraded(types, args.batch)
            if not rows:
                break
            results = pool.map(_grade, [(r.type, r.puzzle, args.budget) for r in rows])
            for row, result in tqdm(zip(rows, results, strict=True), total=len(rows), unit="puzzle"):
                if "ok" in result:
                    store.set_difficulty(row.id, {k: result["ok"][k] for k in ("level", "score", "steps", "hardest")})
                    graded += 1
                else:
                    failures += 1
                    store.set_difficulty(row.id, {"level": None, "score": 0, "steps": 0, "hardest": None,
                                                  "error": result["message"]})
    print(f"graded {graded} puzzles, {failures} failed", file=sys.stderr)
    store.dispose()
    return 1 if failures else 0


def _grade(job: tuple[str, dict[str, Any], float]) -> dict[str, Any]:
    type_name, puzzle, budget = job
    model = TYPES[type_name].puzzle_model.model_validate(puzzle)  # from the store: validated here, once
    return envelope(grade_job, type_name, model, time.monotonic() + budget)


def export(args: argparse.Namespace) -> int:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    url = store_url(args)
    missing = missing_sqlite_file(url)
    if missing is not None:  # opening it would create an empty store and export nothing
        print(f"no store at {missing}: run from the service's directory, or give --database-url or DATABASE_URL",
              file=sys.stderr)
        return USAGE_ERROR
    print(f"reading {describe_store(url)}", file=sys.stderr)
    store = PuzzleStore(url)
    count = 0
    with Session(store.engine) as session, _output(args.file) as out:
        for row in session.scalars(select(PuzzleRow).order_by(PuzzleRow.created_at, PuzzleRow.id)):
            record = row.record(include_solution=True)
            record.update(daily_key=row.daily_key, pool_key=row.pool_key,
                          served_at=row.served_at.isoformat() if row.served_at else None,
                          plays={name: getattr(row, name) for name in PLAY_COUNTS})
            out.write(json.dumps(record, sort_keys=True) + "\n")
            count += 1
    store.dispose()
    print(f"exported {count} puzzles to {'standard output' if args.file == '-' else args.file}", file=sys.stderr)
    return 0


@contextmanager
def _output(name: str) -> Iterator[TextIO]:
    """`-` is standard output, as for most command-line tools."""
    if name == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    with open(name, "w") as out:
        yield out


def import_(args: argparse.Namespace) -> int:
    if not Path(args.file).is_file():
        print(f"cannot import {args.file}: no such file", file=sys.stderr)
        return USAGE_ERROR
    url = store_url(args)
    print(f"adding to {describe_store(url)}", file=sys.stderr)
    store = PuzzleStore(url)
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
                    difficulty=record.get("difficulty"),
                    **{name: int(record.get("plays", {}).get(name, 0)) for name in PLAY_COUNTS},
                )
            except (ValueError, KeyError, TypeError) as exc:
                print(f"{args.file}:{number}: not a stored puzzle record ({exc})", file=sys.stderr)
                return USAGE_ERROR
            if row.type not in TYPES:
                print(f"{args.file}:{number}: unknown type {row.type!r}", file=sys.stderr)
                return USAGE_ERROR
            added += store.add(row) is row
    print(f"imported {added} new puzzles from {args.file}", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="puzzlegen", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", help="default: DATABASE_URL or the service's default")
    commands = parser.add_subparsers(dest="command", required=True)
    pre = commands.add_parser("pregenerate", help="generate the coming days' daily puzzles and ready pools")
    pre.add_argument("--type", default="all", choices=["all", *TYPES])
    pre.add_argument("--days", type=int, default=30,
                     help="daily puzzles for this many days from --start, per type and level")
    pre.add_argument("--start", type=date.fromisoformat, default=datetime.now(UTC).date(), help="first day (UTC)")
    pre.add_argument("--pool", type=int, default=0,
                     help="ready puzzles per type and level (default parameters): with --difficulty all, the "
                          "default, that many for each level; the run prints the totals before it starts")
    pre.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    pre.add_argument("--budget", type=float, default=120.0, help="seconds allowed per puzzle")
    pre.add_argument("--difficulty", default="all",
                     help="a difficulty level, or all (default): dailies and pools for every level")
    pre.set_defaults(run=pregenerate)
    grader = commands.add_parser("grade", help="grade stored puzzles that have no difficulty yet")
    grader.add_argument("--type", default="all", choices=["all", *TYPES])
    grader.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    grader.add_argument("--batch", type=int, default=200, help="puzzles read from the store at a time")
    grader.add_argument("--budget", type=float, default=60.0, help="seconds allowed per puzzle")
    grader.set_defaults(run=grade)
    out = commands.add_parser("export", help="write every stored puzzle as JSON lines")
    out.add_argument("file", help="where to write them; `-` for standard output")
    out.set_defaults(run=export)
    into = commands.add_parser("import", help="add puzzles from a JSON-lines export (existing ids are kept)")
    into.add_argument("file")
    into.set_defaults(run=import_)
    add_fleet_commands(commands, pre)
    upkeep.add_prune_command(commands)
    book.register(commands)
    args = parser.parse_args(argv)
    if getattr(args, "jobs", 0) is None:
        import os

        args.jobs = os.cpu_count() or 1
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
