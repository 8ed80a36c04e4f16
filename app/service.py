"""The service object behind every route (store, worker pool, settings) and its use cases.

Routes stay thin: they parse, call one of these, and shape the response.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any

from cachetools import LRUCache
from fastapi import Depends, Request
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from app.middleware.observability import Metrics
from app.ratings import RECORD_MAX_AGE_SECONDS
from app.settings import Settings
from app.store import PuzzleRow, PuzzleStore, canonical, derive_id, derive_seed
from app.work import WorkPool, envelope, generate_job, grade_job, hint_job, solve_job, unwrap, verify_job
from generators.spec import PuzzleType


class RecordCache:
    """A stored puzzle never changes; only its rating does, as people play it. So a bounded in-memory copy
    is kept for ``max_age`` seconds (the rating's allowed age), keyed by id and daily key; the rendered
    JSON is kept too, so a hot daily puzzle costs no database or JSON work."""

    def __init__(self, capacity: int = 4096, max_age: float = RECORD_MAX_AGE_SECONDS):
        self.capacity = capacity
        self.max_age = max_age
        self._rows: LRUCache[str, tuple[PuzzleRow, float]] = LRUCache(capacity)
        self._bodies: LRUCache[tuple[str, bool, int, float | None], bytes] = LRUCache(capacity)

    def get(self, key: str) -> PuzzleRow | None:
        kept = self._rows.get(key)
        if kept is None or time.monotonic() - kept[1] > self.max_age:
            return None
        return kept[0]

    def put(self, row: PuzzleRow) -> PuzzleRow:
        now = time.monotonic()
        for key in (row.id, row.daily_key):
            if key:
                self._rows[key] = (row, now)
        return row

    def forget(self, row: PuzzleRow) -> None:
        for key in (row.id, row.daily_key):
            if key:
                self._rows.pop(key, None)

    def body(self, row: PuzzleRow, include_solution: bool) -> bytes:
        key = (row.id, include_solution, row.games, row.rating)
        rendered = self._bodies.get(key)
        if rendered is None:
            rendered = self._bodies[key] = json.dumps(row.record(include_solution), separators=(",", ":")).encode()
        return rendered


@dataclass(frozen=True)
class DailyPlan:
    """Everything that makes a daily puzzle the same on every replica and in every batch run."""

    key: str
    seed: int
    puzzle_id: str
    params: dict[str, Any]  # the generation parameters plus the date


def identity(params: BaseModel) -> dict[str, Any]:
    """The parameters that determine a puzzle, as ids, seeds and stored records use them (the params
    models normalise themselves, e.g. drop a `size` that `rows` and `cols` override)."""
    return params.model_dump(mode="json", exclude_none=True)


def daily_plan(puzzle_type: PuzzleType, params: dict[str, Any], day: date) -> DailyPlan:
    when = day.isoformat()
    return DailyPlan(
        key=f"{puzzle_type.name}|{when}|{canonical(params)}",
        seed=derive_seed("daily", puzzle_type.name, when, params),
        puzzle_id=derive_id(puzzle_type.id_prefix, "daily", puzzle_type.name, when, params),
        params={**params, "date": when},
    )


def pool_key(puzzle_type: PuzzleType, params: dict[str, Any]) -> str:
    return f"{puzzle_type.name}|{canonical(params)}"


def build_row(
    puzzle_type: PuzzleType,
    params: dict[str, Any],
    seed: int,
    puzzle_id: str,
    generated: dict[str, Any],
    daily_key: str | None = None,
    pool: str | None = None,
) -> PuzzleRow:
    """A store row from what ``generate_job`` returned."""
    return PuzzleRow(
        id=puzzle_id,
        type=puzzle_type.name,
        params={**params, "seed": seed},
        puzzle=generated["puzzle"],
        solution=generated["solution"],
        stats=generated["stats"],
        difficulty=generated.get("difficulty"),
        daily_key=daily_key,
        pool_key=pool,
    )


class PuzzleService:
    def __init__(self, settings: Settings, store: PuzzleStore, pool: WorkPool, metrics: Metrics | None = None):
        self.settings = settings
        self.metrics = metrics
        self.store = store
        self.pool = pool
        self._daily_locks: dict[str, asyncio.Lock] = {}
        self.cache = RecordCache()

    async def _load(self, key: str, lookup: Any) -> PuzzleRow | None:
        row = self.cache.get(key)
        if row is None:
            row = await run_in_threadpool(lookup, key)
            if row is not None:
                self.cache.put(row)
        return row

    async def _generate_and_store(
        self, puzzle_type: PuzzleType, params: BaseModel, seed: int, puzzle_id: str, plan: DailyPlan | None = None
    ) -> PuzzleRow:
        result = await self.pool.run(
            generate_job, puzzle_type.name, params, seed, budget=self.settings.generate_budget_seconds
        )
        if self.metrics is not None:
            self.metrics.observe_generation(puzzle_type.name, result["stats"])
        stored_params = plan.params if plan else identity(params)
        row = build_row(puzzle_type, stored_params, seed, puzzle_id, result, daily_key=plan and plan.key)
        return self.cache.put(await run_in_threadpool(self.store.add, row))

    async def generate(self, puzzle_type: PuzzleType, params: BaseModel, seed: int | None) -> tuple[PuzzleRow, bool]:
        """Same type, parameters and seed give the same puzzle, so they also give the same stored record;
        the flag says whether this call made it (else it was stored already, or came from the ready pool).
        Without a seed, a ready pre-generated puzzle is handed out if the pool has one."""
        if seed is None:
            pooled = await run_in_threadpool(self.store.claim_from_pool, pool_key(puzzle_type, identity(params)))
            if pooled is not None:
                return pooled, False
            seed = secrets.randbelow(2**48)
        puzzle_id = derive_id(puzzle_type.id_prefix, puzzle_type.name, identity(params), seed)
        row = await self._load(puzzle_id, self.store.get)
        if row is not None:
            return row, False
        return await self._generate_and_store(puzzle_type, params, seed, puzzle_id), True

    async def daily(self, puzzle_type: PuzzleType, params: BaseModel, day: date) -> PuzzleRow:
        plan = daily_plan(puzzle_type, identity(params), day)
        key = plan.key
        row = await self._load(key, self.store.get_daily)
        if row is not None:
            return row
        # One generation per key in this process; other replicas derive the same id and seed, so a
        # concurrent insert from them is the same puzzle and the store keeps the first.
        lock = self._daily_locks.setdefault(key, asyncio.Lock())
        async with lock:
            row = await self._load(key, self.store.get_daily)
            if row is None:
                row = await self._generate_and_store(puzzle_type, params, plan.seed, plan.puzzle_id, plan)
        self._daily_locks.pop(key, None)
        return row

    async def verify(self, puzzle_type: PuzzleType, puzzle: BaseModel, answer: BaseModel) -> dict[str, Any]:
        """A cheap check runs right here (a worker round trip would cost more); an expensive one in a
        verify worker. Both report an invalid answer the same way (``WorkFailed``, a 422)."""
        budget = self.settings.verify_budget_seconds
        if puzzle_type.check_in_process:
            return unwrap(envelope(verify_job, puzzle_type.name, puzzle, answer, time.monotonic() + budget))
        return await self.pool.run(verify_job, puzzle_type.name, puzzle, answer, budget=budget, heavy=False)

    async def solve(
        self, puzzle_type: PuzzleType, puzzle: BaseModel, max_solutions: int, count_limit: int, backend: str | None
    ) -> dict[str, Any]:
        return await self.pool.run(
            solve_job, puzzle_type.name, puzzle, max_solutions, count_limit, backend,
            budget=self.settings.solve_budget_seconds,
        )

    async def stored(self, puzzle_id: str) -> PuzzleRow | None:
        return await self._load(puzzle_id, self.store.get)

    async def grade(self, puzzle_type: PuzzleType, puzzle: BaseModel) -> dict[str, Any]:
        return await self.pool.run(grade_job, puzzle_type.name, puzzle, budget=self.settings.solve_budget_seconds)

    async def hint(self, puzzle_type: PuzzleType, puzzle: BaseModel, state: BaseModel,
                   solution: BaseModel | None = None) -> dict[str, Any]:
        return await self.pool.run(hint_job, puzzle_type.name, puzzle, state, solution,
                                   budget=self.settings.solve_budget_seconds)

    async def record_attempt(self, puzzle_id: str, solved: bool, first_try: bool) -> None:
        """Count a player's check of an answer (no identity kept): operators see which puzzles and
        levels players find hard."""
        await run_in_threadpool(self.store.record_attempt, puzzle_id, solved, first_try)

    async def play(self, row: PuzzleRow, solved: bool, player: str, seconds: float | None) -> dict[str, Any]:
        """A check from a player: their first one of a puzzle they fetched is a rated game."""
        outcome = await run_in_threadpool(self.store.play, row.id, row.type, solved, player, seconds)
        if outcome["rated"]:
            self.cache.forget(row)  # this process shows the new rating at once; others within the cache's max age
        return outcome

    async def fetched(self, player: str, row: PuzzleRow) -> None:
        await run_in_threadpool(self.store.record_fetch, player, row.id, row.type)

    async def hinted(self, player: str, row: PuzzleRow) -> None:
        await run_in_threadpool(self.store.record_hint, player, row.id)

    async def next_for(self, player: str, puzzle_type: PuzzleType) -> PuzzleRow | None:
        row = await run_in_threadpool(self.store.next_for, player, puzzle_type.name)
        return None if row is None else self.cache.put(row)

    async def perfs(self, player: str) -> dict[str, dict[str, Any]]:
        return await run_in_threadpool(self.store.perfs, player)


async def get_service(request: Request) -> PuzzleService:
    """Async on purpose: FastAPI runs a plain ``def`` dependency in the thread pool, a hop per request."""
    return request.app.state.service


ServiceDep = Annotated[PuzzleService, Depends(get_service)]
