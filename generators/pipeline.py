"""The generation pipeline, written once for every puzzle type.

random valid solution -> clues -> ask the solver for a *different* solution -> repair the clues so
that solution is ruled out while the intended one stays valid -> repeat until the solver finds
none. A type supplies only its steps (``PuzzleSteps``); rounds and restarts are bounded, so the
loop always ends: with a puzzle proven unique, ``GenerationFailed``, or ``BudgetExceeded``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from solvers.common import Deadline
from solvers.techniques.human import Grade

P = TypeVar("P")  # the puzzle (clues)
S = TypeVar("S")  # the solution


class GenerationFailed(RuntimeError):
    """Every restart used up its repair rounds without reaching a unique puzzle."""


class PuzzleSteps(Protocol[P, S]):
    """What a puzzle type tells the pipeline; everything else is shared."""

    def random_solution(self, rng: random.Random) -> S: ...

    def clues(self, solution: S, rng: random.Random) -> P: ...

    def other_solution(self, puzzle: P, solution: S, deadline: Deadline) -> S | None:
        """A solution of ``puzzle`` different from ``solution``, or None once it is unique."""
        ...

    def repair(self, puzzle: P, solution: S, other: S, rng: random.Random) -> P | None:
        """Clues that still admit ``solution`` but not ``other``; None means restart."""
        ...


@dataclass
class GenerationStats:
    repair_rounds: int = 0  # over all attempts
    restarts: int = 0
    solver_calls: int = 0
    seconds: float = 0.0
    draws: int = 1  # puzzles made to find one of the asked difficulty
    adjustments: int = 0  # changes that moved a draw toward the asked difficulty


@dataclass
class Generated(Generic[P, S]):
    puzzle: P
    solution: S
    stats: GenerationStats = field(default_factory=GenerationStats)
    difficulty: Grade | None = None


def generate(
    steps: PuzzleSteps[P, S],
    seed: int,
    deadline: Deadline,
    max_rounds: int = 200,
    max_restarts: int = 20,
) -> Generated[P, S]:
    """Run the pipeline; deterministic for a given ``steps`` configuration and ``seed``."""
    started = time.perf_counter()
    rng = random.Random(seed)
    stats = GenerationStats()
    for attempt in range(max_restarts + 1):
        stats.restarts = attempt
        solution = steps.random_solution(rng)
        puzzle: P | None = steps.clues(solution, rng)
        for _ in range(max_rounds):
            deadline.check()
            stats.solver_calls += 1
            other = steps.other_solution(puzzle, solution, deadline)
            if other is None:
                if hasattr(steps, "polish"):
                    puzzle = steps.polish(puzzle, solution, rng, deadline)
                stats.seconds = time.perf_counter() - started
                return Generated(puzzle, solution, stats)
            stats.repair_rounds += 1
            puzzle = steps.repair(puzzle, solution, other, rng)
            if puzzle is None:
                break
    raise GenerationFailed(f"no unique puzzle after {max_restarts + 1} attempts of {max_rounds} repair rounds")


Adjust = Callable[[Generated[P, S], Grade, random.Random, Deadline], "Generated[P, S] | None"]


def generate_at_level(
    make: Callable[[int, Deadline], Generated[P, S]],
    grade: Callable[[P, Deadline], Grade],
    level: str,
    seed: int,
    deadline: Deadline,
    adjust: Adjust[P, S] | None = None,
    max_draws: int = 1_000,
    max_adjusts: int = 40,
) -> Generated[P, S]:
    """A puzzle of exactly ``level``: solvable with that level's techniques and not with the level below
    (Tatham's rule). Draws unique puzzles from seeds derived from ``seed``; a type's ``adjust`` may move
    a draw toward the level (e.g. a clue that opens it to simpler techniques, or one taken away) and
    returns another unique puzzle, or None to give up on that draw. A draw that finds no puzzle at all (its
    boards ran out) is followed by the next, as one that grades off the level is. Deterministic, and bounded by
    the draws, the adjustments per draw and the deadline."""
    started = time.perf_counter()
    rng = random.Random(seed)
    stats = GenerationStats(restarts=0)
    for draw in range(1, max_draws + 1):
        deadline.check()
        try:
            generated: Generated[P, S] | None = make(rng.getrandbits(63), deadline)
        except GenerationFailed:
            continue
        stats.repair_rounds += generated.stats.repair_rounds
        stats.restarts += generated.stats.restarts
        stats.solver_calls += generated.stats.solver_calls
        for _ in range(max_adjusts + 1):
            graded = grade(generated.puzzle, deadline)
            if graded.level == level:
                stats.draws, stats.seconds = draw, time.perf_counter() - started
                generated.stats, generated.difficulty = stats, graded
                return generated
            generated = adjust(generated, graded, rng, deadline) if adjust else None
            if generated is None:
                break
            stats.adjustments += 1
    raise GenerationFailed(f"no puzzle of level {level!r} in {max_draws} draws")
