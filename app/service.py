"""The service object behind every route (store, worker pool, settings) and its use cases.

Routes stay thin: they parse, call one of these, and shape the response.
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import date
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from app.settings import Settings
from app.store import PuzzleRow, PuzzleStore, canonical, derive_id, derive_seed
from app.work import WorkPool, generate_job, solve_job, verify_job
from generators.spec import PuzzleType


class PuzzleService:
    def __init__(self, settings: Settings, store: PuzzleStore, pool: WorkPool):
        self.settings = settings
        self.store = store
        self.pool = pool
        self._daily_locks: dict[str, asyncio.Lock] = {}

    async def _generate_and_store(
        self, puzzle_type: PuzzleType, params: dict[str, Any], seed: int, puzzle_id: str, daily_key: str | None = None
    ) -> PuzzleRow:
        result = await self.pool.run(
            generate_job, puzzle_type.name, params, seed, budget=self.settings.generate_budget_seconds
        )
        row = PuzzleRow(
            id=puzzle_id,
            type=puzzle_type.name,
            params={**params, "seed": seed},
            puzzle=result["puzzle"],
            solution=result["solution"],
            stats=result["stats"],
            daily_key=daily_key,
        )
        return await run_in_threadpool(self.store.add, row)

    async def generate(self, puzzle_type: PuzzleType, params: dict[str, Any], seed: int | None) -> PuzzleRow:
        """Same type, parameters and seed give the same puzzle, so they also give the same stored record."""
        if seed is None:
            seed = secrets.randbelow(2**48)
        puzzle_id = derive_id(puzzle_type.id_prefix, puzzle_type.name, params, seed)
        row = await run_in_threadpool(self.store.get, puzzle_id)
        return row or await self._generate_and_store(puzzle_type, params, seed, puzzle_id)

    async def daily(self, puzzle_type: PuzzleType, params: dict[str, Any], day: date) -> PuzzleRow:
        key = f"{puzzle_type.name}|{day.isoformat()}|{canonical(params)}"
        row = await run_in_threadpool(self.store.get_daily, key)
        if row is not None:
            return row
        # One generation per key in this process; other replicas derive the same id and seed, so a
        # concurrent insert from them is the same puzzle and the store keeps the first.
        lock = self._daily_locks.setdefault(key, asyncio.Lock())
        async with lock:
            row = await run_in_threadpool(self.store.get_daily, key)
            if row is None:
                seed = derive_seed("daily", puzzle_type.name, day.isoformat(), params)
                puzzle_id = derive_id(puzzle_type.id_prefix, "daily", puzzle_type.name, day.isoformat(), params)
                row = await self._generate_and_store(puzzle_type, {**params, "date": day.isoformat()}, seed, puzzle_id, key)
        self._daily_locks.pop(key, None)
        return row

    async def verify(self, puzzle_type: PuzzleType, puzzle: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        return await self.pool.run(
            verify_job, puzzle_type.name, puzzle, answer, budget=self.settings.verify_budget_seconds, heavy=False
        )

    async def solve(
        self, puzzle_type: PuzzleType, puzzle: dict[str, Any], max_solutions: int, backend: str | None
    ) -> dict[str, Any]:
        return await self.pool.run(
            solve_job, puzzle_type.name, puzzle, max_solutions, backend, budget=self.settings.solve_budget_seconds
        )

    async def stored(self, puzzle_id: str) -> PuzzleRow | None:
        return await run_in_threadpool(self.store.get, puzzle_id)


def get_service(request: Request) -> PuzzleService:
    return request.app.state.service


ServiceDep = Annotated[PuzzleService, Depends(get_service)]
