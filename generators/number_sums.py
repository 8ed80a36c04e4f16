"""Number Sums generation: the three pipeline steps and the type's registration.

Solution: a random selection (about half the cells, a fifth on large plain grids) in which every
row and column has at least one selected cell.
Clues: random digits (and, in the region variant, a random partition into small connected
regions), with every target computed from the selection. Repair: a cell on which the intended
and the other solution disagree gets a different digit and the targets are recomputed from the
intended selection. The other solution then breaks: if only it selects the cell, its row sum
moved while the target did not; if only the intended one does, the target moved while its sum did not.

Region puzzles must need their regions: their digits are drawn until rows and columns alone leave
several solutions, and repairs move a disputed cell into a neighbouring region (the region sums
then part the two solutions just as a digit change parts row sums), never touching a digit.

Difficulty: draws at a level-dependent density, not repaired but moved toward the level until its
techniques finish them (``TowardLevel``), which proves them unique without an exact solver.
"""

from __future__ import annotations

import math
import random
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from generators.params import normalise_shape
from generators.pipeline import Generated, generate, generate_at_level
from generators.spec import PuzzleType
from solvers import grid
from solvers.common import Cell, Deadline, compile_lock
from solvers.number_sums import csv_format as number_sums_csv
from solvers.number_sums import picture, rules
from solvers.number_sums import techniques as human
from solvers.techniques.human import Grade, GridState

Grid = list[list[int]]
MIN_SIDE, MAX_SIDE = 3, 12
CELLS_PER_REGION = 4  # about the region size of the game's harder levels
# Region size per level: every region is one more line for the line rule, so fewer, larger regions
# leave more to combine (bench/bench_number_sums.py --levels).
LEVEL_REGION_SIZE = {"easy": CELLS_PER_REGION, "medium": 12, "hard": 18, "expert": 18}


# Below these sizes unique puzzles that need the level's techniques are too rare to draw
# (bench/bench_number_sums.py --levels: 6×6 found no medium in 1000 draws, 7×7 no expert, and
# 7×7 with regions a hard one only after hundreds of draws, sometimes none in 1000).
MIN_CELLS = {"easy": 0, "medium": 49, "hard": 49, "expert": 64}
MIN_CELLS_WITH_REGIONS = MIN_CELLS | {"hard": 64}


class NumberSumsParams(BaseModel):
    size: int | None = Field(7, ge=MIN_SIDE, le=MAX_SIDE, description="Grid side (`rows` and `cols` override it).")
    rows: int | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE, description="Number of rows; defaults to `size`.")
    cols: int | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE, description="Number of columns; defaults to `size`.")
    regions: bool = Field(False, description="Also partition the grid into coloured regions, each with a target sum.")
    difficulty: Literal["easy", "medium", "hard", "expert"] = Field(
        human.DIFFICULTY.default, description="Which techniques a person needs (see the type's `difficulties`).")

    @model_validator(mode="after")
    def _normalised(self) -> NumberSumsParams:
        normalise_shape(self)
        return self

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows or self.size or 0, self.cols or self.size or 0

    @model_validator(mode="after")
    def _big_enough_for_level(self) -> NumberSumsParams:
        rows, cols = self.shape
        needed = (MIN_CELLS_WITH_REGIONS if self.regions else MIN_CELLS)[self.difficulty]
        if rows * cols < needed:
            with_regions = " with regions" if self.regions else ""
            raise ValueError(f"difficulty {self.difficulty!r}{with_regions} needs a grid of at least {needed} cells (e.g. "
                             f"{math.isqrt(needed - 1) + 1}×{math.isqrt(needed - 1) + 1}); {rows}×{cols} has "
                             f"{rows * cols}: smaller grids almost never need this level's techniques")
        return self


# Selected share of the cells per level: lines whose target is far from half their digits have few
# ways to reach it (the line rule decides them), lines near half have many; so the easier levels
# draw sparser selections. Large plain grids stay sparse at every level: there a target near half
# its line has so many subsets that random repair does not converge (12×12 at 0.5 did not become
# unique within 60 s). Figures: bench/bench_number_sums.py --levels.
LEVEL_DENSITY = {"easy": 0.3, "medium": 0.3, "hard": 0.35, "expert": 0.35}
LARGE_PLAIN_DENSITY = {"easy": 0.2, "medium": 0.2, "hard": 0.2, "expert": 0.2}


def selection_density(rows: int, cols: int, regions: bool, level: str = "easy") -> float:
    return LEVEL_DENSITY[level] if regions or rows * cols <= 81 else LARGE_PLAIN_DENSITY[level]


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


def random_regions(rows: int, cols: int, rng: random.Random,
                   cells_per_region: float = CELLS_PER_REGION) -> list[list[int | None]]:
    """A partition into about rows*cols/cells_per_region connected regions grown from random seeds."""
    count = max(2, round(rows * cols / cells_per_region))
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
        options = [(rr, cc) for rr, cc in grid.neighbours((r, c), rows, cols) if region[rr][cc] is None]
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


def neighbours(r: int, c: int, rows: int, cols: int) -> list[Cell]:
    return [(rr, cc) for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < rows and 0 <= cc < cols]


def connected(cells: set[Cell]) -> bool:
    if not cells:
        return False
    seen, stack = set(), [min(cells)]
    while stack:
        cell = stack.pop()
        if cell not in seen:
            seen.add(cell)
            r, c = cell
            stack += [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in cells]
    return seen == cells


def moved_to_neighbour_region(regions: list[list[int | None]], cell: Cell,
                              rng: random.Random) -> list[list[int | None]] | None:
    """The partition with ``cell`` moved into a neighbouring region, if its own region stays
    connected and not empty; else None."""
    rows, cols = len(regions), len(regions[0])
    r, c = cell
    own = regions[r][c]
    others = sorted({regions[rr][cc] for rr, cc in neighbours(r, c, rows, cols)} - {own, None})
    rest = {(rr, cc) for rr in range(rows) for cc in range(cols) if regions[rr][cc] == own} - {cell}
    if not others or not connected(rest):
        return None
    moved = [row[:] for row in regions]
    moved[r][c] = rng.choice(others)
    return moved


def unique(puzzle: rules.NumberSumsPuzzle, deadline: Deadline, backend: str | None) -> bool:
    found, _, _ = rules.find_solutions(puzzle, 2, deadline, backend)
    return len(found) == 1


def without_regions(puzzle: rules.NumberSumsPuzzle) -> rules.NumberSumsPuzzle:
    return puzzle.model_copy(update={"regions": None, "region_sums": None})


class NumberSumsSteps:
    """The pipeline's steps; a region puzzle is repaired by its regions only (see the module's docstring)."""

    MAX_DIGIT_DRAWS = 30  # for digits whose rows and columns alone leave several solutions

    def __init__(self, rows: int, cols: int, regions: bool, density: float, deadline: Deadline,
                 backend: str | None = None, region_size: float = CELLS_PER_REGION):
        self.rows, self.cols, self.regions, self.region_size = rows, cols, regions, region_size
        self.density, self.deadline, self.backend = density, deadline, backend

    def random_solution(self, rng: random.Random) -> Grid:
        return random_selection(self.rows, self.cols, self.density, rng)

    def random_digits(self, rng: random.Random) -> Grid:
        return [[rng.randint(1, 9) for _ in range(self.cols)] for _ in range(self.rows)]

    def clues(self, selected: Grid, rng: random.Random) -> rules.NumberSumsPuzzle:
        numbers = self.random_digits(rng)
        if not self.regions:
            return with_targets(numbers, selected, None)
        for _ in range(self.MAX_DIGIT_DRAWS):
            if not unique(with_targets(numbers, selected, None), self.deadline, self.backend):
                break
            numbers = self.random_digits(rng)
        return with_targets(numbers, selected, random_regions(self.rows, self.cols, rng, self.region_size))

    def other_solution(self, puzzle: rules.NumberSumsPuzzle, selected: Grid, deadline: Deadline) -> Grid | None:
        found, _, _ = rules.find_solutions(puzzle, 2, deadline, self.backend)
        return next((grid for grid in found if grid != selected), None)

    def repair(
        self, puzzle: rules.NumberSumsPuzzle, selected: Grid, other: Grid, rng: random.Random
    ) -> rules.NumberSumsPuzzle | None:
        differing = [(r, c) for r in range(self.rows) for c in range(self.cols) if selected[r][c] != other[r][c]]
        rng.shuffle(differing)
        if puzzle.regions is not None:
            for cell in differing:
                moved = moved_to_neighbour_region(puzzle.regions, cell, rng)
                if moved is not None:
                    return with_targets(puzzle.numbers, selected, moved)
            return None  # no disputed cell can move: start again
        r, c = differing[0]
        numbers = [row[:] for row in puzzle.numbers]
        numbers[r][c] = rng.choice([d for d in range(1, 10) if d != numbers[r][c]])
        return with_targets(numbers, selected, None)


def generate_unique(params: NumberSumsParams, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    """A unique puzzle of any difficulty, drawn at the density of ``params.difficulty``."""
    rows, cols = params.shape
    density = selection_density(rows, cols, params.regions, params.difficulty)
    steps = NumberSumsSteps(rows, cols, params.regions, density, deadline, backend,
                            LEVEL_REGION_SIZE[params.difficulty])
    result = generate(steps, seed, deadline, max_rounds=20 * rows * cols)
    result.solution = rules.NumberSumsAnswer(selected=result.solution)
    return result


def generate_puzzle(params: NumberSumsParams, seed: int, deadline: Deadline, backend: str | None = None) -> Generated:
    """A unique puzzle of the asked level (Tatham's rule: solved by its level's techniques, not by the
    easier levels'), made by ``TowardLevel``: draws that need not be unique, each moved toward the level
    until the level's techniques solve it (which proves it unique) or a draw is too easy."""
    rows, cols = params.shape
    toward = TowardLevel(params, backend)
    return generate_at_level(toward.draw, toward.grade, params.difficulty, seed, deadline, adjust=toward,
                             max_adjusts=MAX_ADJUSTS_PER_CELL * rows * cols)


MAX_ADJUSTS_PER_CELL = 1  # digit changes per draw, at most one per cell; the deadline bounds the rest


class TowardLevel:
    """Draws and digit changes for one level request, moving each draw toward the level.

    A draw is a random selection, digits and (region variant) regions, with targets from the selection:
    not necessarily unique. Where the target level's techniques get stuck, a digit the selection
    crosses out becomes larger than what its row, column or region still needs, so the line rule
    crosses it out at once and its line has fewer ways to reach its target. The selection stays a
    solution, and once the level's techniques finish the puzzle it is unique (every step holds in every
    solution), so no exact solver is needed on the way. A draw the level below already finishes is left
    for a new draw. A region puzzle must need its regions: its digits are drawn so that rows and columns
    alone leave another solution, and only digits that other solution crosses out are changed, so it
    stays a solution of the rows and columns alone."""

    def __init__(self, params: NumberSumsParams, backend: str | None):
        self.params, self.backend = params, backend
        self.target = human.SOLVER.level_names.index(params.difficulty)
        self.plain_other: Grid | None = None  # the draw's other solution of its rows and columns alone
        self.stuck: tuple[rules.NumberSumsPuzzle | None, human.Board | None, GridState | None] = (None, None, None)

    def draw(self, seed: int, deadline: Deadline) -> Generated:
        params, rng = self.params, random.Random(seed)
        rows, cols = params.shape
        density = selection_density(rows, cols, params.regions, params.difficulty)
        steps = NumberSumsSteps(rows, cols, params.regions, density, deadline, self.backend,
                                LEVEL_REGION_SIZE[params.difficulty])
        selected = steps.random_solution(rng)
        numbers = steps.random_digits(rng)
        regions = None
        self.plain_other = None
        if params.regions:
            for _ in range(steps.MAX_DIGIT_DRAWS):
                found, _, _ = rules.find_solutions(with_targets(numbers, selected, None), 2, deadline, self.backend)
                self.plain_other = next((grid for grid in found if grid != selected), None)
                if self.plain_other is not None:
                    break
                numbers = steps.random_digits(rng)
            regions = random_regions(rows, cols, rng, steps.region_size)
        return Generated(with_targets(numbers, selected, regions), rules.NumberSumsAnswer(selected=selected))

    def grade(self, puzzle: rules.NumberSumsPuzzle, deadline: Deadline) -> Grade:
        """The puzzle's grade if the target level's techniques finish it (the full path is the same: the
        solver tries harder techniques only where easier ones find nothing); else the next level's name
        (None above the top), remembering where they got stuck for ``__call__``."""
        board = human.board_of(puzzle)
        if self.target == 0:
            easy = human.easy_grade(board)
            if easy is not None:
                return easy
        path = human.SOLVER.run(board, upto=self.target, deadline=deadline)
        if path.state.solved:
            return human.SOLVER.grade_path(path)
        self.stuck = (puzzle, board, path.state)
        names = human.SOLVER.level_names
        harder = names[self.target + 1] if self.target + 1 < len(names) else None
        return Grade(harder, 0.0, 0, None)

    def __call__(self, generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        names = human.SOLVER.level_names
        if graded.level is not None and names.index(graded.level) <= self.target:
            return None  # too easy: a new draw
        if self.params.regions and self.plain_other is None:
            return None
        puzzle, selected = generated.puzzle, generated.solution.selected
        stuck_puzzle, board, stuck = self.stuck
        if stuck_puzzle is not puzzle or board is None or stuck is None:
            board = human.board_of(puzzle)
            stuck = human.SOLVER.run(board, upto=self.target, deadline=deadline).state
        options = []
        for i, value in enumerate(stuck.values):
            r, c = board.cell(i)
            if value is None and not selected[r][c] and (self.plain_other is None or not self.plain_other[r][c]):
                need = min(human.open_part(board, stuck.values, board.rules[k])[0] for k in board.rules_of[i])
                if need < 9:
                    options.append((r, c, need))
        if not options:
            return None
        r, c, need = rng.choice(options)
        numbers = [row[:] for row in puzzle.numbers]
        numbers[r][c] = rng.randint(max(need + 1, 1), 9)
        generated.puzzle = with_targets(numbers, selected, puzzle.regions)
        return generated


def warm_up() -> None:
    """Load the compiled techniques and the compiled search (compiling them into numba's on-disk cache the
    first time on this machine), then make one small puzzle of each kind, so that no request waits."""
    human.warm_up()
    with compile_lock(__name__):
        generate_puzzle(NumberSumsParams(size=4, difficulty="easy"), 0, Deadline.never())
        generate_puzzle(NumberSumsParams(size=4, difficulty="easy", regions=True), 0, Deadline.never())


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
    render=picture.render,
    backends=rules.BACKENDS,
    catalogue={
        "solve_max_side": rules.MAX_SIDE,
        "digits": [1, 9],
        "solve_formats": ["json", "csv"],
    },
    parse_text=number_sums_csv.parse_csv,
    text_format="csv",
    difficulty=human.DIFFICULTY,
    warm_up=warm_up,
)
