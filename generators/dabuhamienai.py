"""Dabuhamienai generation: the three pipeline steps and the type's registration.

Solution: a maximal random shading (no more cell can be shaded without breaking rules 1–2) over
a random Latin square, so every unshaded run is duplicate-free by construction. Clues: each
shaded cell repeats a number from an unshaded run it touches. Repair: a cell shaded in the intended
solution but unshaded in the other gets a number that repeats inside the other solution's run
through it. Maximality guarantees such a cell exists: another valid shading cannot be a superset.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, Field

from generators.pipeline import Generated, generate
from generators.spec import PuzzleType, Verdict
from solvers import dabuhamienai as rules
from solvers.common import Cell, Deadline

Grid = list[list[int]]


class DabuhamienaiParams(BaseModel):
    size: int = Field(8, ge=4, le=rules.MAX_SIZE, description="Grid size N (N×N).")


def random_latin_square(n: int, rng: random.Random) -> Grid:
    rows, cols, symbols = list(range(n)), list(range(n)), list(range(1, n + 1))
    for seq in (rows, cols, symbols):
        rng.shuffle(seq)
    return [[symbols[(rows[r] + cols[c]) % n] for c in range(n)] for r in range(n)]


def _shading_keeps_whites_connected(shaded: Grid, r: int, c: int) -> bool:
    """Whether shading (r, c) leaves the unshaded cells connected.

    Its orthogonal neighbours are all white (rule 1); if each consecutive pair of them is joined
    through a white diagonal cell, they stay connected around it and no search is needed.
    """
    n = len(shaded)
    around = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]
    ring = [
        0 <= r + dr < n and 0 <= c + dc < n and not shaded[r + dr][c + dc] for dr, dc in around
    ]
    arcs = sum(1 for i in range(8) if ring[i] and not ring[i - 1])
    if arcs <= 1:
        return True
    shaded[r][c] = 1
    whole = len(rules.white_regions(shaded)) == 1
    shaded[r][c] = 0
    return whole


def random_maximal_shading(n: int, rng: random.Random) -> Grid:
    shaded = [[0] * n for _ in range(n)]
    order = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(order)
    for r, c in order:
        if any(shaded[rr][cc] for rr, cc in rules.neighbours(r, c, n)):
            continue
        if _shading_keeps_whites_connected(shaded, r, c):
            shaded[r][c] = 1
    return shaded


def _run_numbers_through(numbers: Grid, shaded: Grid, cell: Cell) -> list[int]:
    """Numbers of the unshaded cells that would share a run with ``cell`` if it were unshaded."""
    n = len(numbers)
    r0, c0 = cell
    found = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = r0 + dr, c0 + dc
        while 0 <= r < n and 0 <= c < n and not shaded[r][c]:
            found.append(numbers[r][c])
            r, c = r + dr, c + dc
    return found


class DabuhamienaiSteps:
    def __init__(self, size: int, backend: str | None = None):
        self.size = size
        self.backend = backend
        self.cuts: list[rules.CellCut] = []  # connectivity cuts carry over between rounds

    def random_solution(self, rng: random.Random) -> tuple[Grid, Grid]:
        """(shading, Latin square underneath): the square fixes every unshaded number."""
        return random_maximal_shading(self.size, rng), random_latin_square(self.size, rng)

    def clues(self, solution: tuple[Grid, Grid], rng: random.Random) -> Grid:
        shaded, latin = solution
        numbers = [row[:] for row in latin]
        for r in range(self.size):
            for c in range(self.size):
                if shaded[r][c]:
                    numbers[r][c] = rng.choice(_run_numbers_through(latin, shaded, (r, c)))
        return numbers

    def other_solution(self, numbers: Grid, solution: tuple[Grid, Grid], deadline: Deadline) -> Grid | None:
        return rules.other_solution(numbers, solution[0], deadline, self.backend, self.cuts)

    def repair(self, numbers: Grid, solution: tuple[Grid, Grid], other: Grid, rng: random.Random) -> Grid | None:
        shaded = solution[0]
        n = self.size
        candidates = [(r, c) for r in range(n) for c in range(n) if shaded[r][c] and not other[r][c]]
        rng.shuffle(candidates)
        for r, c in candidates:
            repeats = sorted(set(_run_numbers_through(numbers, other, (r, c))) - {numbers[r][c]})
            if repeats:
                repaired = [row[:] for row in numbers]
                repaired[r][c] = rng.choice(repeats)
                return repaired
        return None


def generate_puzzle(params: DabuhamienaiParams, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    result = generate(DabuhamienaiSteps(params.size, backend), seed, deadline, max_rounds=40 * params.size)
    shaded, _ = result.solution
    result.puzzle = rules.DabuhamienaiPuzzle(size=params.size, numbers=result.puzzle)
    result.solution = rules.DabuhamienaiAnswer(shaded=shaded)
    return result


def check(puzzle: rules.DabuhamienaiPuzzle, answer: rules.DabuhamienaiAnswer) -> Verdict:
    return Verdict(rules.check(puzzle, answer))


PUZZLE_TYPE = PuzzleType(
    name="dabuhamienai",
    id_prefix="dab",
    summary="Shade cells so no two shaded touch, unshaded cells stay connected, and no number repeats in an unshaded run.",
    params_model=DabuhamienaiParams,
    puzzle_model=rules.DabuhamienaiPuzzle,
    answer_model=rules.DabuhamienaiAnswer,
    generate=generate_puzzle,
    check=check,
    solve=rules.solve,
)
