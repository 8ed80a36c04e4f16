"""Number Sums generation: the three pipeline steps and the type's registration.

Solution: a random selection (about half the cells, a fifth on large plain grids) in which every
row and column has at least one selected cell.
Clues: random digits (and, in the region variant, a random partition into small connected
regions), with every target computed from the selection. Repair: a cell on which the intended
and the other solution disagree gets a different digit and the targets are recomputed from the
intended selection. The other solution then breaks: if only it selects the cell, its row sum
moved while the target did not; if only the intended one does, the target moved while its sum did not.
"""

from __future__ import annotations

import random

from pydantic import BaseModel, Field

from generators.pipeline import Generated, generate
from generators.spec import PuzzleType
from solvers import number_sums as rules
from solvers.common import Cell, Deadline

Grid = list[list[int]]
MIN_SIDE, MAX_SIDE = 3, 12
CELLS_PER_REGION = 4  # about the region size of the game's harder levels


class NumberSumsParams(BaseModel):
    size: int = Field(7, ge=MIN_SIDE, le=MAX_SIDE, description="Grid side (`rows` and `cols` override it).")
    rows: int | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE, description="Number of rows; defaults to `size`.")
    cols: int | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE, description="Number of columns; defaults to `size`.")
    regions: bool = Field(False, description="Also partition the grid into coloured regions, each with a target sum.")

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows or self.size, self.cols or self.size


def selection_density(rows: int, cols: int, regions: bool) -> float:
    """Half the cells, except on large plain grids: there a line's target near half its digits has
    so many subsets that random repair does not converge, while a target near a fifth has few
    (bench/bench_number_sums.py; 12×12 at 0.5 did not become unique within 60 s)."""
    return 0.5 if regions or rows * cols <= 81 else 0.2


def random_selection(rows: int, cols: int, density: float, rng: random.Random) -> Grid:
    """Each cell selected with probability ``density``, then a random cell added to any empty row or column."""
    selected = [[int(rng.random() < density) for _ in range(cols)] for _ in range(rows)]
    for r in range(rows):
        if not any(selected[r]):
            selected[r][rng.randrange(cols)] = 1
    for c in range(cols):
        if not any(selected[r][c] for r in range(rows)):
            selected[rng.randrange(rows)][c] = 1
    return selected


def random_regions(rows: int, cols: int, rng: random.Random) -> list[list[int | None]]:
    """A partition into about rows*cols/CELLS_PER_REGION connected regions grown from random seeds."""
    count = max(2, round(rows * cols / CELLS_PER_REGION))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    region: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    grown: list[list[Cell]] = []
    for k, (r, c) in enumerate(rng.sample(cells, count)):
        region[r][c] = k
        grown.append([(r, c)])
    unassigned = rows * cols - count
    while unassigned:
        k = rng.randrange(count)
        r, c = rng.choice(grown[k])
        options = [(rr, cc) for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                   if 0 <= rr < rows and 0 <= cc < cols and region[rr][cc] is None]
        if options:
            rr, cc = rng.choice(options)
            region[rr][cc] = k
            grown[k].append((rr, cc))
            unassigned -= 1
    return region


def with_targets(numbers: Grid, selected: Grid, regions: list[list[int | None]] | None) -> rules.NumberSumsPuzzle:
    """The puzzle whose every target is the sum of ``selected``'s digits."""
    rows, cols = len(numbers), len(numbers[0])
    chosen = [[numbers[r][c] * selected[r][c] for c in range(cols)] for r in range(rows)]
    region_sums = None
    if regions is not None:
        region_sums = [0] * (1 + max(k for row in regions for k in row if k is not None))
        for r in range(rows):
            for c in range(cols):
                if regions[r][c] is not None:
                    region_sums[regions[r][c]] += chosen[r][c]
    return rules.NumberSumsPuzzle(
        numbers=numbers,
        row_sums=[sum(row) for row in chosen],
        col_sums=[sum(chosen[r][c] for r in range(rows)) for c in range(cols)],
        regions=regions,
        region_sums=region_sums,
    )


class NumberSumsSteps:
    def __init__(self, rows: int, cols: int, regions: bool, backend: str | None = None):
        self.rows, self.cols, self.regions = rows, cols, regions
        self.backend = backend

    def random_solution(self, rng: random.Random) -> Grid:
        return random_selection(self.rows, self.cols, selection_density(self.rows, self.cols, self.regions), rng)

    def clues(self, selected: Grid, rng: random.Random) -> rules.NumberSumsPuzzle:
        numbers = [[rng.randint(1, 9) for _ in range(self.cols)] for _ in range(self.rows)]
        regions = random_regions(self.rows, self.cols, rng) if self.regions else None
        return with_targets(numbers, selected, regions)

    def other_solution(self, puzzle: rules.NumberSumsPuzzle, selected: Grid, deadline: Deadline) -> Grid | None:
        found, _ = rules.find_solutions(puzzle, 2, deadline, self.backend)
        return next((grid for grid in found if grid != selected), None)

    def repair(
        self, puzzle: rules.NumberSumsPuzzle, selected: Grid, other: Grid, rng: random.Random
    ) -> rules.NumberSumsPuzzle:
        differing = [(r, c) for r in range(self.rows) for c in range(self.cols) if selected[r][c] != other[r][c]]
        r, c = rng.choice(differing)
        numbers = [row[:] for row in puzzle.numbers]
        numbers[r][c] = rng.choice([d for d in range(1, 10) if d != numbers[r][c]])
        return with_targets(numbers, selected, puzzle.regions)


def generate_puzzle(params: NumberSumsParams, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    rows, cols = params.shape
    result = generate(NumberSumsSteps(rows, cols, params.regions, backend), seed, deadline, max_rounds=20 * rows * cols)
    result.solution = rules.NumberSumsAnswer(selected=result.solution)
    return result



def warm_up() -> None:
    """Import-time work and the first search are slow in a fresh worker; do them before any request."""
    generate_puzzle(NumberSumsParams(size=4), 0, Deadline.after(10))


PUZZLE_TYPE = PuzzleType(
    name="number-sums",
    id_prefix="nsum",
    summary="Select digits so each row, column (and coloured region) adds up to its target.",
    params_model=NumberSumsParams,
    puzzle_model=rules.NumberSumsPuzzle,
    answer_model=rules.NumberSumsAnswer,
    generate=generate_puzzle,
    check=rules.check,
    solve=rules.solve,
    catalogue={
        "solve_max_side": rules.MAX_SIDE,
        "digits": [1, 9],
        "solve_formats": ["json", "csv"],
        "backends": list(rules.BACKENDS),
        "default_backend": rules.DEFAULT_BACKEND,
    },
    parse_text=rules.parse_csv,
)
