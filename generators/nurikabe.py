"""Nurikabe generation: a random answer grown from an all-sea grid, each island numbered at a random cell of it,
drawn again until the kit's SAT model finds no other answer and a person's levels grade it at the asked one.

An answer: cells turn island one at a time, those in a 2×2 block of sea first (then at random until about a
third of the grid is island), each only while the sea stays connected and the island it makes or grows keeps
to the size cap. Every island must show its number, so there is no clue to hide: a puzzle is its answer's
numbers, and uniqueness a property of the drawn answer and where its numbers sit: a second answer is ruled out
by moving an island's number to one of its cells that answer makes sea.
"""

from __future__ import annotations

import random

from generators.params import rectangle_params
from generators.pipeline import Generated, GenerationFailed, generate, generate_at_level
from generators.spec import PuzzleType
from solvers.common import Cell, Deadline
from solvers.grid import connected_regions, neighbours
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.nurikabe import picture, puzzlink
from solvers.nurikabe.rules import NurikabeAnswer, NurikabePuzzle, model

MIN_SIDE, MAX_SIDE = 5, 10
ISLAND_SHARE = 0.35  # of the cells, once no 2×2 sea is left
# The largest island drawn per level: small islands leave fewer ways to reshape them, so a draw is likelier
# unique and easier; larger ones make the hard level likelier (docs/genres/nurikabe.md has the shares).
LEVEL_CAP = {"easy": 3, "medium": 3, "hard": 5}
PEOPLE = kit_human.solver()
DIFFICULTY = kit_human.difficulty(PEOPLE, model, kit.Cells("shaded", 1, 1, "sea", "island"),
                                  "R×C of 1 (sea), 0 (island)")
Grid = list[list[int]]

NurikabeParams = rectangle_params("NurikabeParams", __name__, MIN_SIDE, MAX_SIDE, 7, DIFFICULTY)


def _sea_joined(sea: Grid, without: Cell) -> bool:
    rows, cols = len(sea), len(sea[0])
    regions = connected_regions(rows, cols, lambda cell: cell != without and sea[cell[0]][cell[1]] == 1)
    return len(list(regions)) <= 1


def _pools(sea: Grid) -> list[Cell]:
    rows, cols = len(sea), len(sea[0])
    return [(r + dr, c + dc) for r in range(rows - 1) for c in range(cols - 1)
            if sea[r][c] and sea[r][c + 1] and sea[r + 1][c] and sea[r + 1][c + 1] for dr in (0, 1) for dc in (0, 1)]


def _island_after(sea: Grid, cell: Cell) -> int:
    """The size of the island ``cell`` would join (or make)."""
    rows, cols = len(sea), len(sea[0])
    seen, stack = {cell}, [cell]
    while stack:
        for n in neighbours(stack.pop(), rows, cols):
            if n not in seen and not sea[n[0]][n[1]]:
                seen.add(n)
                stack.append(n)
    return len(seen)


def random_answer(rows: int, cols: int, rng: random.Random, cap: int | None = None) -> Grid | None:
    """A valid shading with no number yet, or None when a 2×2 sea could not be broken; no island is larger
    than ``cap`` (an eighth of the grid when None)."""
    sea = [[1] * cols for _ in range(rows)]
    cap = max(2, min(cap or rows * cols, (rows * cols) // 8))
    refused: set[Cell] = set()
    islands = 0
    while True:
        pools = [cell for cell in _pools(sea) if cell not in refused]
        if not pools and _pools(sea):
            return None
        if not pools and islands >= ISLAND_SHARE * rows * cols:
            return sea
        options = pools or [(r, c) for r in range(rows) for c in range(cols) if sea[r][c] and (r, c) not in refused]
        if not options:
            return sea if not _pools(sea) else None
        cell = rng.choice(options)
        if _island_after(sea, cell) <= cap and _sea_joined(sea, cell):
            sea[cell[0]][cell[1]] = 0
            islands += 1
        else:
            refused.add(cell)


def numbered(sea: Grid, rng: random.Random) -> list[list[int | None]]:
    rows, cols = len(sea), len(sea[0])
    numbers: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    for island in connected_regions(rows, cols, lambda cell: not sea[cell[0]][cell[1]]):
        r, c = rng.choice(sorted(island))
        numbers[r][c] = len(island)
    return numbers


class NurikabeSteps:
    """The pipeline's steps: a drawn answer and its numbers; a second answer means drawing again."""

    def __init__(self, rows: int, cols: int, cap: int | None = None):
        self.rows, self.cols, self.cap = rows, cols, cap

    def random_solution(self, rng: random.Random) -> Grid:
        for _ in range(100):
            sea = random_answer(self.rows, self.cols, rng, self.cap)
            if sea is not None:
                return sea
        raise GenerationFailed("no answer drawn without a 2×2 sea")

    def clues(self, solution: Grid, rng: random.Random) -> list[list[int | None]]:
        return numbered(solution, rng)

    def other_solution(self, numbers: list[list[int | None]], solution: Grid, deadline: Deadline) -> Grid | None:
        prover = kit.Prover(model(NurikabePuzzle(rows=self.rows, cols=self.cols, numbers=numbers)), {"shaded": solution})
        try:
            other = prover.other((), deadline)
        finally:
            prover.close()
        return None if other is None else other["shaded"]

    def repair(self, numbers: list[list[int | None]], solution: Grid, other: Grid,
               rng: random.Random) -> list[list[int | None]] | None:
        """An island cell of ours that is sea in ``other`` takes its island's number: ``other`` is then ruled out."""
        cells = [(r, c) for r in range(self.rows) for c in range(self.cols) if not solution[r][c] and other[r][c]]
        if not cells:
            return None
        r, c = rng.choice(cells)
        island = next(i for i in connected_regions(self.rows, self.cols, lambda x: not solution[x[0]][x[1]])
                      if (r, c) in i)
        moved = [row[:] for row in numbers]
        for x, y in island:
            moved[x][y] = None
        moved[r][c] = len(island)
        return moved


def generate_unique(rows: int, cols: int, seed: int, deadline: Deadline, cap: int | None = None) -> Generated:
    made = generate(NurikabeSteps(rows, cols, cap), seed, deadline, max_rounds=2 * max(rows, cols), max_restarts=200)
    made.puzzle = NurikabePuzzle(rows=rows, cols=cols, numbers=made.puzzle)
    made.solution = NurikabeAnswer(shaded=made.solution)
    return made


def generate_puzzle(params: NurikabeParams, seed: int, deadline: Deadline) -> Generated:  # type: ignore[valid-type]
    rows, cols = params.shape()  # type: ignore[attr-defined]
    cap = LEVEL_CAP[params.difficulty]  # type: ignore[attr-defined]
    return generate_at_level(lambda draw_seed, budget: generate_unique(rows, cols, draw_seed, budget, cap),
                             DIFFICULTY.grade, params.difficulty, seed, deadline)  # type: ignore[attr-defined]


PUZZLE_TYPE = PuzzleType(
    name="nurikabe",
    id_prefix="nur",
    summary="Shade the sea so each island holds one number equal to its size, the sea is connected, and no 2×2 "
            "block is all sea.",
    params_model=NurikabeParams,
    puzzle_model=NurikabePuzzle,
    answer_model=NurikabeAnswer,
    generate=generate_puzzle,
    check=kit.checker(model),
    solve=kit_solving.solver(model),
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to 30 to solve"},
    difficulty=DIFFICULTY,
    model=model,
)
