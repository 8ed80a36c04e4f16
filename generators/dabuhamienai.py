"""Dabuhamienai generation: the three pipeline steps and the type's registration.

Solution: a maximal random shading (no more cell can be shaded without breaking rules 1–2) over
a random Latin square, so every unshaded run is duplicate-free by construction. Clues: each shaded
cell gets a *forcing* number, one that sits close by in both a row run and a column run it touches,
so unshading it makes a duplicate even if a neighbour swaps shading with it (a number from one
direction only lets repairs oscillate between neighbour swaps). Repair: every cell shaded in the
intended solution but unshaded in the other gets a forcing number with respect to the other
solution's runs. Maximality guarantees such a cell exists: another valid shading is no superset.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, Field

from generators.pipeline import Generated, generate
from generators.spec import PuzzleType, Verdict
from solvers import dabuhamienai as rules
from solvers.common import Cell, Deadline
from solvers.sat import make_backend

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


def forcing_number(numbers: Grid, shaded: Grid, cell: Cell, rng: random.Random, avoid: int | None = None) -> int | None:
    """A number that would repeat in ``cell``'s runs if it were unshaded under ``shaded``.

    Prefer numbers seen both along the row and along the column (nearest first), which break
    more alternative shadings at once; fall back to the nearest seen in either direction.
    """
    n = len(numbers)
    nearest: list[dict[int, int]] = [{}, {}]  # per axis (row, column): number -> distance
    for axis, directions in enumerate((((0, -1), (0, 1)), ((-1, 0), (1, 0)))):
        for dr, dc in directions:
            r, c, distance = cell[0] + dr, cell[1] + dc, 1
            while 0 <= r < n and 0 <= c < n and not shaded[r][c]:
                number = numbers[r][c]
                if number != avoid and distance < nearest[axis].get(number, n + 1):
                    nearest[axis][number] = distance
                r, c, distance = r + dr, c + dc, distance + 1
    row, column = nearest
    scores = {v: row[v] + column[v] for v in row if v in column} or {**column, **row}
    if not scores:
        return None
    best = min(scores.values())
    return rng.choice(sorted(v for v, score in scores.items() if score == best))


class DabuhamienaiSteps:
    def __init__(self, size: int, backend: str | None = None):
        self.size = size
        self.backend = backend
        self._model: rules.RepairableModel | None = None  # one incremental solver per attempt
        self._model_for: Grid | None = None

    def random_solution(self, rng: random.Random) -> tuple[Grid, Grid]:
        """(shading, Latin square underneath): the square fixes every unshaded number."""
        return random_maximal_shading(self.size, rng), random_latin_square(self.size, rng)

    def clues(self, solution: tuple[Grid, Grid], rng: random.Random) -> Grid:
        shaded, latin = solution
        numbers = [row[:] for row in latin]
        for r in range(self.size):
            for c in range(self.size):
                if shaded[r][c]:
                    numbers[r][c] = forcing_number(latin, shaded, (r, c), rng) or latin[r][c]
        return numbers

    def other_solution(self, numbers: Grid, solution: tuple[Grid, Grid], deadline: Deadline) -> Grid | None:
        shaded = solution[0]
        model = self._model
        if model is None or self._model_for is not shaded:
            # Unshaded numbers are final (they are the solution's), so only shaded cells can change.
            changeable = {(r, c) for r in range(self.size) for c in range(self.size) if shaded[r][c]}
            model = self._model = rules.RepairableModel(make_backend(self.backend or rules.DEFAULT_BACKEND), numbers, changeable)
            model.exclude(shaded)
            self._model_for = shaded
        for cell in model.guard:
            if model.numbers[cell[0]][cell[1]] != numbers[cell[0]][cell[1]]:
                model.set_number(cell, numbers[cell[0]][cell[1]])
        return model.other_solution(deadline)

    def repair(self, numbers: Grid, solution: tuple[Grid, Grid], other: Grid, rng: random.Random) -> Grid | None:
        shaded = solution[0]
        repaired = [row[:] for row in numbers]
        changed = False
        for r in range(self.size):
            for c in range(self.size):
                if shaded[r][c] and not other[r][c]:
                    number = forcing_number(numbers, other, (r, c), rng, avoid=numbers[r][c])
                    if number is not None:
                        repaired[r][c], changed = number, True
        return repaired if changed else None


def generate_puzzle(params: DabuhamienaiParams, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    result = generate(DabuhamienaiSteps(params.size, backend), seed, deadline, max_rounds=4 * params.size, max_restarts=100)
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
