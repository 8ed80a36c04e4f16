"""CPU work (generating, solving) in worker processes, so it never blocks the event loop.

Every job carries an absolute deadline (CLOCK_MONOTONIC is shared by all processes on a machine),
which the solvers check themselves; the waiting side gives up a little after it regardless. At most
``pending_limit`` jobs are queued or running: beyond that a request fails at once with 503 rather
than joining a queue that only grows. Worker processes run each type's warm-up (JIT compilation)
when they start, never inside a request.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import asdict
from typing import Any

from generators.pipeline import GenerationFailed
from generators.registry import TYPES
from solvers.common import BudgetExceeded, Deadline, InvalidInput

log = logging.getLogger("puzzlegen.work")

GRACE_SECONDS = 2.0  # how long past its deadline we wait for a job that does not stop by itself


class Overloaded(Exception):
    """Too much work in flight already."""


class WorkFailed(Exception):
    """A job ended with an error the HTTP layer reports; ``kind`` picks the status code."""

    def __init__(self, kind: str, message: str, violations: list[dict[str, Any]] | None = None):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.violations = violations or []


def warm_up_worker() -> None:
    for puzzle_type in TYPES.values():
        if puzzle_type.warm_up is not None:
            started = time.perf_counter()
            puzzle_type.warm_up()
            log.info("warmed up %s in %.1f s", puzzle_type.name, time.perf_counter() - started)


def _envelope(fn: Any, *args: Any) -> dict[str, Any]:
    """Run a job and turn its expected failures into plain data (exceptions do not pickle reliably)."""
    try:
        return {"ok": fn(*args)}
    except BudgetExceeded as exc:
        return {"error": "budget", "message": str(exc)}
    except GenerationFailed as exc:
        return {"error": "generation-failed", "message": str(exc)}
    except InvalidInput as exc:
        return {"error": "invalid", "message": exc.message, "violations": [v.model_dump() for v in exc.violations]}


def generate_job(type_name: str, params: dict[str, Any], seed: int, deadline_at: float) -> dict[str, Any]:
    puzzle_type = TYPES[type_name]
    generated = puzzle_type.generate(puzzle_type.params_model.model_validate(params), seed, Deadline(deadline_at))
    return {
        "puzzle": generated.puzzle.model_dump(mode="json"),
        "solution": generated.solution.model_dump(mode="json"),
        "stats": asdict(generated.stats),
    }


def solve_job(
    type_name: str, puzzle: dict[str, Any], limit: int, backend: str | None, deadline_at: float
) -> dict[str, Any]:
    puzzle_type = TYPES[type_name]
    outcome = puzzle_type.solve(puzzle_type.puzzle_model.model_validate(puzzle), limit, Deadline(deadline_at), backend)
    return {
        "status": outcome.status,
        "solutions": outcome.solutions[:limit],
        "count": len(outcome.solutions),
        "complete": outcome.complete,
        **outcome.extra,
    }


def verify_job(type_name: str, puzzle: dict[str, Any], answer: dict[str, Any], deadline_at: float) -> dict[str, Any]:
    puzzle_type = TYPES[type_name]
    verdict = puzzle_type.check(
        puzzle_type.puzzle_model.model_validate(puzzle), puzzle_type.answer_model.model_validate(answer)
    )
    return {
        "solved": not verdict.violations,
        "violations": [v.model_dump() for v in verdict.violations],
        **verdict.extra,
    }


class WorkPool:
    """Process pool for heavy jobs, thread pool for light ones, both behind one in-flight limit."""

    def __init__(self, processes: int, pending_limit: int, use_processes: bool = True):
        self.pending_limit = pending_limit
        self.in_flight = 0
        if use_processes:
            self._heavy: Executor = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=warm_up_worker,
            )
        else:
            self._heavy = ThreadPoolExecutor(max_workers=processes)
        self._light = ThreadPoolExecutor(max_workers=4, thread_name_prefix="verify")
        self._processes = processes

    def start(self) -> None:
        """Start every worker now (in the background), so warm-up happens before traffic does."""
        for _ in range(self._processes):
            self._heavy.submit(time.sleep, 0)

    async def run(self, fn: Any, *args: Any, budget: float, heavy: bool = True) -> Any:
        """Run ``fn(*args, deadline_at)`` in a worker; the job functions above take the deadline last."""
        if heavy and self.in_flight >= self.pending_limit:
            raise Overloaded(f"{self.in_flight} jobs are already queued or running")
        deadline_at = time.monotonic() + budget
        loop = asyncio.get_running_loop()
        if heavy:
            self.in_flight += 1
        try:
            future = loop.run_in_executor(self._heavy if heavy else self._light, _envelope, fn, *args, deadline_at)
            try:
                result = await asyncio.wait_for(future, budget + GRACE_SECONDS)
            except TimeoutError:
                raise WorkFailed("budget", f"the work did not finish within {budget:g} s") from None
        finally:
            if heavy:
                self.in_flight -= 1
        if "error" in result:
            raise WorkFailed(result["error"], result["message"], result.get("violations"))
        return result["ok"]

    def shutdown(self) -> None:
        self._heavy.shutdown(wait=False, cancel_futures=True)
        self._light.shutdown(wait=False, cancel_futures=True)
