"""What pre-generation makes: the coming days' dailies and the ready pools, per type and level, each with
the id and seed derived from what it makes. Shared by local pre-generation and the fleet's queue."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from pydantic import BaseModel, ValidationError

from app.service import daily_plan, identity, pool_key
from app.store import derive_id, derive_seed
from generators.spec import PuzzleType


@dataclass(frozen=True)
class Task:
    puzzle_type: PuzzleType
    params: BaseModel  # what generates the puzzle
    stored_params: dict[str, Any]  # what the record shows (a daily's adds its date)
    seed: int
    puzzle_id: str
    daily_key: str | None = None
    pool: str | None = None


def params_per_level(puzzle_type: PuzzleType, difficulty: str) -> list[BaseModel]:
    """The default parameters at each asked level (``all``: every level the default size allows)."""
    if puzzle_type.difficulty is None:
        return [puzzle_type.params_model()]
    levels = puzzle_type.difficulty.names if difficulty == "all" else [difficulty]
    fitting = []
    for level in (name for name in levels if name in puzzle_type.difficulty.names):
        try:
            fitting.append(puzzle_type.params_model(difficulty=level))
        except ValidationError:
            if difficulty != "all":
                raise
            # e.g. a level the default size is too small for
    return fitting


def plan_tasks(types: list[PuzzleType], start: date, days: int, pool_size: int, difficulty: str = "all") -> list[Task]:
    tasks = []
    for puzzle_type, params in ((t, p) for t in types for p in params_per_level(t, difficulty)):
        shown = identity(params)
        for offset in range(days):
            plan = daily_plan(puzzle_type, shown, start + timedelta(days=offset))
            tasks.append(Task(puzzle_type, params, plan.params, plan.seed, plan.puzzle_id, daily_key=plan.key))
        key = pool_key(puzzle_type, shown)
        for slot in range(pool_size):
            seed = derive_seed("pool", puzzle_type.name, shown, slot)
            puzzle_id = derive_id(puzzle_type.id_prefix, "pool", key, slot)
            tasks.append(Task(puzzle_type, params, shown, seed, puzzle_id, pool=key))
    return tasks


def tally(tasks: list[Task], todo: list[Task], doing: str = "to generate") -> list[str]:
    """What a run is about to make, one line per type and level, then the total: `--pool` and `--days`
    count per level, so `--difficulty all` multiplies them by the number of levels."""
    def group(task: Task) -> tuple[str, str]:
        return task.puzzle_type.name, getattr(task.params, "difficulty", None) or "default parameters"

    dailies = Counter(group(task) for task in tasks if task.daily_key is not None)
    pooled = Counter(group(task) for task in tasks if task.pool is not None)
    left = Counter(group(task) for task in todo)
    lines = [f"{name} {level}: {dailies[name, level]} {'daily' if dailies[name, level] == 1 else 'dailies'} + "
             f"{pooled[name, level]} pooled, {left[name, level]} {doing}" for name, level in dict.fromkeys(map(group, tasks))]
    lines.append(f"{len(tasks)} puzzles planned ({len(lines)} type and level pairs), {len(tasks) - len(todo)} already stored, "
                 f"{len(todo)} {doing}")
    return lines
