"""CPU work (generating, solving, verifying) in worker processes, so it never blocks the event loop.

Every job carries an absolute deadline (CLOCK_MONOTONIC is shared by all processes on a machine),
which the solvers check themselves; the waiting side gives up a little after it regardless. At most
``pending_limit`` jobs are queued or running: beyond that a request fails at once with 503 rather
than joining a queue that only grows. Worker processes run each type's warm-up (JIT compilation)
when they start, never inside a request, and run at a lower CPU priority than the server process.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import select
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict
from multiprocessing import forkserver
from typing import Any

from pydantic import BaseModel

from generators.pipeline import GenerationFailed
from generators.registry import TYPES
from generators.spec import as_verdict
from solvers.common import BudgetExceeded, Deadline, InvalidInput
from solvers.techniques.human import Contradiction

log = logging.getLogger("puzzlegen.work")

GRACE_SECONDS = 2.0  # how long past its deadline we wait for a job that does not stop by itself
SERVER_CHECK_SECONDS = 1.0  # how often a worker checks that the server that started it still runs


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
    """Run every type's warm-up (JIT compilation) now, in this process."""
    for puzzle_type in TYPES.values():
        if puzzle_type.warm_up is not None:
            started = time.perf_counter()
            puzzle_type.warm_up()
            log.info("warmed up %s in %.1f s", puzzle_type.name, time.perf_counter() - started)


def envelope(fn: Any, *args: Any) -> dict[str, Any]:
    """Run a job and turn its expected failures into plain data (exceptions do not pickle reliably)."""
    try:
        return {"ok": fn(*args)}
    except BudgetExceeded as exc:
        return {"error": "budget", "message": str(exc)}
    except GenerationFailed as exc:
        return {"error": "generation-failed", "message": str(exc)}
    except InvalidInput as exc:
        return {"error": "invalid", "message": exc.message, "violations": [v.model_dump() for v in exc.violations]}


def unwrap(result: dict[str, Any]) -> Any:
    """The value of a job run through ``envelope``, or its failure raised as ``WorkFailed``."""
    if "error" in result:
        raise WorkFailed(result["error"], result["message"], result.get("violations"))
    return result["ok"]


# Jobs take validated models (pickled to the worker as they are, never validated again) and return
# plain JSON data: what crosses back is what the store keeps and the response sends.


def generate_job(type_name: str, params: BaseModel, seed: int, deadline_at: float) -> dict[str, Any]:
    puzzle_type = TYPES[type_name]
    deadline = Deadline(deadline_at)
    generated = puzzle_type.generate(params, seed, deadline)
    grade = generated.difficulty  # each generator grades what it can grade in time
    return {
        "puzzle": generated.puzzle.model_dump(mode="json"),
        "solution": generated.solution.model_dump(mode="json"),
        "stats": asdict(generated.stats),
        "difficulty": grade.as_json() if grade is not None else None,
    }


def grade_job(type_name: str, model: BaseModel, deadline_at: float) -> dict[str, Any]:
    """How hard a puzzle is for a person, and whether it has one solution (a grade means little otherwise)."""
    puzzle_type = TYPES[type_name]
    deadline = Deadline(deadline_at)
    status = puzzle_type.solve(model, 2, deadline, None).status
    if status == "none":
        return {"status": status, "level": None, "score": 0.0, "steps": 0, "hardest": None}
    try:
        grade = puzzle_type.difficulty.grade(model, deadline).as_json()  # type: ignore[union-attr]
    except Contradiction:  # only a puzzle with no solution breaks a rule; the solver said otherwise
        raise InvalidInput("the techniques found a broken rule in a puzzle the solver can solve") from None
    return {"status": status, **grade}


def hint_job(type_name: str, model: BaseModel, state: BaseModel, answer: BaseModel | None,
             deadline_at: float) -> dict[str, Any]:
    """The next step from the player's state; without a stored solution, the solver finds it (and hints
    need exactly one)."""
    puzzle_type = TYPES[type_name]
    difficulty = puzzle_type.difficulty
    assert difficulty is not None
    deadline = Deadline(deadline_at)
    if answer is None:
        outcome = puzzle_type.solve(model, 2, deadline, None)
        if outcome.status != "unique":
            raise InvalidInput(f"hints need a puzzle with exactly one solution; this one has "
                               f"{'none' if outcome.status == 'none' else 'several'}")
        answer = puzzle_type.answer_model.model_validate(outcome.solutions[0])
    return difficulty.hint(model, state, answer, deadline).as_json()


def solve_job(
    type_name: str, puzzle: BaseModel, max_solutions: int, count_limit: int, backend: str | None, deadline_at: float
) -> dict[str, Any]:
    """Count up to ``count_limit`` solutions (at least ``max_solutions``), return the first ``max_solutions``."""
    limit = max(count_limit, max_solutions)
    outcome = TYPES[type_name].solve(puzzle, limit, Deadline(deadline_at), backend, keep=max_solutions)
    return {
        "status": outcome.status,
        "solutions": outcome.solutions[:max_solutions],
        "count": outcome.count,
        "complete": outcome.complete,
        **outcome.extra,
    }


def verify_job(type_name: str, puzzle: BaseModel, answer: BaseModel, deadline_at: float) -> dict[str, Any]:
    puzzle_type = TYPES[type_name]
    if puzzle_type.check_in_process:
        verdict = as_verdict(puzzle_type.check(puzzle, answer))
    else:  # a search: it stops at the request's deadline
        verdict = as_verdict(puzzle_type.check(puzzle, answer, Deadline(deadline_at)))  # type: ignore[call-arg]
    return {
        "solved": not verdict.violations,
        "violations": [v.model_dump() for v in verdict.violations],
        **verdict.extra,
    }


def exit_with_server(server: int) -> None:
    """End this worker once the server that started it is gone. A worker holds both ends of its job queue, so it
    never sees the queue close, and the fork server it came from lives as long as any of its children does: without
    this, a server that was killed (or a test run that was interrupted) leaves its workers behind for good."""
    try:
        ended = os.pidfd_open(server)  # readable once the server has ended, whoever reaps it
    except ProcessLookupError:
        os._exit(0)
    except OSError:  # no pidfd (a kernel before 5.3): ask every second instead
        while _running(server):
            time.sleep(SERVER_CHECK_SECONDS)
        os._exit(0)
    select.select([ended], [], [])
    os._exit(0)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def init_worker(warm_up: bool, niceness: int, server: int) -> None:
    """Worker initializer. Lower this process's CPU priority, so that while generation runs flat out the
    server process (event loop: cached reads, checks, /healthz) still gets a core whenever it needs one.
    Then compile in a thread, so jobs of types with nothing to compile are served at once; a job that
    needs the compiled code waits on numba's own compile lock."""
    os.nice(niceness)
    threading.Thread(target=exit_with_server, args=(server,), name="exit-with-server", daemon=True).start()
    if warm_up:
        threading.Thread(target=warm_up_worker, name="warm-up", daemon=True).start()


# Workers are forked from a fork server that has imported this module, and through it the whole catalogue, once:
# a worker (a pool's first, a replacement, every app's in a test run) starts in milliseconds instead of importing
# everything again, and never forks the server's threads as a plain fork would.
WORKER_CONTEXT = multiprocessing.get_context("forkserver")
WORKER_CONTEXT.set_forkserver_preload([__name__])


def _process_pool(processes: int, warm_up: bool, niceness: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=WORKER_CONTEXT,
        initializer=init_worker,
        initargs=(warm_up, niceness, os.getpid()),
    )


async def _submitted(loop: asyncio.AbstractEventLoop, pool: ProcessPoolExecutor, *call: Any) -> asyncio.Future[Any]:
    """``envelope(*call)`` submitted to ``pool`` from a thread, as an asyncio future: a submit may start a worker, and
    until the fork server has imported the catalogue that waits seconds, which the event loop must not."""
    submitted: Future[Any] = await loop.run_in_executor(None, pool.submit, envelope, *call)
    return asyncio.wrap_future(submitted)


class WorkPool:
    """Two warmed-up process pools: one for generating and solving, one for verifying, so a check
    never queues behind a generation. Each has its own limit on jobs in flight."""

    def __init__(
        self, processes: int, pending_limit: int, verify_processes: int = 2, verify_pending_limit: int = 256,
        warm_up: bool = True, *, niceness: int,
    ):
        self._warm_up, self._niceness = warm_up, niceness
        self._sizes = {True: processes, False: verify_processes}
        self._pools = {heavy: _process_pool(size, warm_up, niceness) for heavy, size in self._sizes.items()}
        self._limits = {True: pending_limit, False: verify_pending_limit}
        self._in_flight = {True: 0, False: 0}

    @property
    def in_flight(self) -> int:
        return self._in_flight[True]

    @property
    def pending_limit(self) -> int:
        return self._limits[True]

    def start(self) -> None:
        """Start the fork server and, with warm-up, every worker, from a thread: the fork server imports the whole
        catalogue before its first worker (seconds), which neither the lifespan nor a first request waits for."""
        threading.Thread(target=self._start_in_background, name="start-workers", daemon=True).start()

    def _start_in_background(self) -> None:
        try:
            forkserver.ensure_running()
            for heavy in self._pools:
                self._start_workers(heavy)
        except RuntimeError:  # the pools were shut down meanwhile: nothing left to start
            log.info("work pools shut down before their workers started")

    def _start_workers(self, heavy: bool) -> None:
        """Without warm-up there is nothing to do ahead of traffic: a pool starts a worker when a job finds none idle,
        so an app that never needs one (a test of cached reads, a replica serving stored puzzles) starts none."""
        if not self._warm_up:
            return
        for _ in range(self._sizes[heavy]):
            self._pools[heavy].submit(time.sleep, 0)

    async def run(self, fn: Any, *args: Any, budget: float, heavy: bool = True) -> Any:
        """Run ``fn(*args, deadline_at)`` in a worker; the job functions above take the deadline last."""
        if self._in_flight[heavy] >= self._limits[heavy]:
            raise Overloaded(f"{self._in_flight[heavy]} jobs are already queued or running")
        deadline_at = time.monotonic() + budget
        loop = asyncio.get_running_loop()
        self._in_flight[heavy] += 1
        pool = self._pools[heavy]
        try:
            try:
                future = await _submitted(loop, pool, fn, *args, deadline_at)
            except BrokenProcessPool:  # broke earlier; this job has not started, so it can go to a new pool
                self._replace_broken(heavy, pool)
                pool = self._pools[heavy]
                future = await _submitted(loop, pool, fn, *args, deadline_at)
            try:
                result = await asyncio.wait_for(future, budget + GRACE_SECONDS)
            except TimeoutError:
                raise WorkFailed("budget", f"the work did not finish within {budget:g} s") from None
            except BrokenProcessPool:
                self._replace_broken(heavy, pool)
                raise WorkFailed("crashed", "a worker process died during this request; it has been replaced") from None
        finally:
            self._in_flight[heavy] -= 1
        return unwrap(result)

    def _replace_broken(self, heavy: bool, broken: ProcessPoolExecutor) -> None:
        """A dead worker breaks a ProcessPoolExecutor for good; swap in a fresh pool (once per breakage)."""
        if self._pools[heavy] is broken:
            ended = sorted(process.exitcode for process in list(broken._processes.values()) if process.exitcode is not None)
            log.error("a worker process died (exit codes %s: below 0, the signal that ended it); starting a new %s pool",
                      ended, "work" if heavy else "verify")
            broken.shutdown(wait=False, cancel_futures=True)
            self._pools[heavy] = _process_pool(self._sizes[heavy], self._warm_up, self._niceness)
            self._start_workers(heavy)

    def shutdown(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
