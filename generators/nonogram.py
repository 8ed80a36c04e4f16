"""Nonogram generation: the pipeline steps, the level search and the type's registration.

Pictures: a smoothed random field thresholded, as Simon Tatham's Pattern does, but on two scales so a
30×30 picture is neither noise nor one blob: white noise box-blurred over 3×3 (texture) plus noise
blurred twice over a window of a sixth of the grid (shapes), weighted 1 : 1.5, then thresholded at
the quantile that fills 45–55 % of the cells. The result is a few connected blobs with ragged edges
and some holes. Clues: the run lengths the picture gives. The "puzzle" the pipeline carries is the
picture itself (the clues are a function of it). Repair: where the solver's second solution differs
from the picture, one such cell is flipped in the picture (the one whose new value agrees with most
of its 8 neighbours, so the look survives), which changes that cell's row and column clues so the
other solution no longer fits them.

Levels: a unique draw is graded by the compiled path of the person-like techniques, capped at the target
level; if it is off its level, ``TowardLevel`` walks a harder draw down: it flips picture cells the
target level leaves undecided (the compiled closures say which), a few candidates at a time, keeping the
flip that leaves the fewest (whatever that level solves is unique, so no search is needed) and never one
that lets the level below solve it. A draw that is too easy is dropped.
"""

from __future__ import annotations

import random
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from generators.params import normalise_shape
from generators.pipeline import Generated, generate, generate_at_level
from generators.spec import PuzzleType
from solvers.common import Deadline
from solvers.nonogram import picture, puzzlink, rules
from solvers.nonogram import techniques as human
from solvers.techniques.human import Grade

Grid = list[list[int]]
MIN_SIDE, MAX_SIDE = 5, 30
FILL = (0.45, 0.55)
# Share of cells redrawn at random per level: unique smooth pictures are nearly all easy, so harder
# levels draw rougher ones (bench/bench_nonogram.py --levels shows the levels each setting yields).
SPECKLE = {"easy": 0.0, "medium": 0.35, "hard": 0.5}
# From this many cells on, smooth pictures give each level often enough (and speckled ones cost long
# repairs): the speckle fades out between 15×15 and this size.
SMOOTH_FROM = 400
# Below these sizes the level is too rare to draw on request within a generation budget
# (bench/bench_nonogram.py --levels measures how often each size yields each level).
MIN_CELLS = {"easy": 0, "medium": 25, "hard": 64}


class NonogramParams(BaseModel):
    size: int | None = Field(15, ge=MIN_SIDE, le=MAX_SIDE, description="Grid side (`rows` and `cols` override it).")
    rows: int | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE, description="Number of rows; defaults to `size`.")
    cols: int | None = Field(None, ge=MIN_SIDE, le=MAX_SIDE, description="Number of columns; defaults to `size`.")
    difficulty: Literal["easy", "medium", "hard"] = Field(
        human.DIFFICULTY.default,
        description="What a person needs (see the type's `difficulties`): `easy` is solvable line by line.")

    @model_validator(mode="after")
    def _normalised(self) -> NonogramParams:
        normalise_shape(self)
        rows, cols = self.shape()
        if rows * cols < MIN_CELLS[self.difficulty]:
            raise ValueError(f"difficulty {self.difficulty} needs at least {MIN_CELLS[self.difficulty]} cells (got "
                             f"{rows}×{cols}): smaller grids leave no room for its reasoning; "
                             + ", ".join(f"{level} needs {cells}" for level, cells in MIN_CELLS.items() if cells))
        return self

    def shape(self) -> tuple[int, int]:
        return self.rows or self.size or 0, self.cols or self.size or 0


def _blur(field: np.ndarray, radius: int) -> np.ndarray:
    """Mean over a (2r+1)² window, the edges mirrored."""
    padded = np.pad(field, radius, mode="reflect")
    sums = np.pad(padded.cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    k = 2 * radius + 1
    return (sums[k:, k:] - sums[:-k, k:] - sums[k:, :-k] + sums[:-k, :-k]) / (k * k)


def _standard(field: np.ndarray) -> np.ndarray:
    return (field - field.mean()) / (field.std() or 1.0)


def random_picture(rows: int, cols: int, rng: random.Random, speckle: float = 0.0) -> Grid:
    """A smoothed random field thresholded; then a ``speckle`` share of the cells redrawn at random
    (harder levels: smooth shapes give puzzles a person solves line by line)."""
    noise = np.random.default_rng(rng.getrandbits(64))
    fine = _blur(noise.random((rows, cols)), 1)
    wide = max(1, min(rows, cols) // 6)
    coarse = _blur(_blur(noise.random((rows, cols)), wide), wide)
    field = _standard(fine) + 1.5 * _standard(coarse)
    fill = rng.uniform(*FILL)
    picture = field > np.quantile(field, 1 - fill)
    if speckle:
        picture = np.where(noise.random((rows, cols)) < speckle, noise.random((rows, cols)) < fill, picture)
    return picture.astype(int).tolist()


def puzzle_of(filled: Grid) -> rules.NonogramPuzzle:
    row_clues, col_clues = rules.clues_of(filled)
    return rules.NonogramPuzzle(rows=len(filled), cols=len(filled[0]), row_clues=row_clues, col_clues=col_clues)


def agreeing_neighbours(filled: Grid, r: int, c: int, value: int) -> int:
    rows, cols = len(filled), len(filled[0])
    return sum(filled[rr][cc] == value for rr in range(max(0, r - 1), min(rows, r + 2))
               for cc in range(max(0, c - 1), min(cols, c + 2)) if (rr, cc) != (r, c))


def smooth_flips(filled: Grid, cells: list[tuple[int, int]], rng: random.Random, count: int) -> list[tuple[int, int]]:
    """Up to ``count`` of ``cells``, those whose flipped value agrees with most neighbours first."""
    shuffled = cells[:]
    rng.shuffle(shuffled)
    shuffled.sort(key=lambda cell: -agreeing_neighbours(filled, *cell, 1 - filled[cell[0]][cell[1]]))
    return shuffled[:count]


class NonogramSteps:
    """Pipeline steps; the "puzzle" is the picture the clues are read from."""

    def __init__(self, rows: int, cols: int, speckle: float = 0.0):
        self.rows, self.cols, self.speckle = rows, cols, speckle

    def random_solution(self, rng: random.Random) -> Grid:
        return random_picture(self.rows, self.cols, rng, self.speckle)

    def clues(self, solution: Grid, rng: random.Random) -> Grid:
        return [row[:] for row in solution]

    def other_solution(self, puzzle: Grid, solution: Grid, deadline: Deadline) -> Grid | None:
        return rules.other_solution(puzzle_of(puzzle), puzzle, deadline)

    def repair(self, puzzle: Grid, solution: Grid, other: Grid, rng: random.Random) -> Grid | None:
        """The smoothest disputed cell flipped: its row then fills one cell more or fewer, so its clue, and
        with it the other solution, changes."""
        differ = [(r, c) for r in range(self.rows) for c in range(self.cols) if puzzle[r][c] != other[r][c]]
        (r, c), = smooth_flips(puzzle, differ, rng, 1)
        changed = [row[:] for row in puzzle]
        changed[r][c] ^= 1
        return changed


def generate_unique(rows: int, cols: int, seed: int, deadline: Deadline, speckle: float = 0.0) -> Generated:
    """A unique puzzle of any level."""
    result = generate(NonogramSteps(rows, cols, speckle), seed, deadline, max_rounds=rows * cols, max_restarts=20)
    result.solution = rules.NonogramAnswer(filled=result.puzzle)
    result.puzzle = puzzle_of(result.puzzle)
    return result


def generate_puzzle(params: NonogramParams, seed: int, deadline: Deadline) -> Generated:
    """A unique puzzle of the asked level (Tatham's rule: solved at that level, not at the one below)."""
    rows, cols = params.shape()
    toward = TowardLevel(params.difficulty)
    speckle = SPECKLE[params.difficulty] * min(1.0, max(0.0, (SMOOTH_FROM - rows * cols) / (SMOOTH_FROM - 225)))
    return generate_at_level(lambda draw, limit: generate_unique(rows, cols, draw, limit, speckle), toward.grade,
                             params.difficulty, seed, deadline, adjust=toward, max_adjusts=1)


class TowardLevel:
    """Flip picture cells until the target level solves the puzzle and the level below does not.

    A draw the level below already solves is dropped (draws are cheap, and making a picture harder by
    random flips wrecks its look). A harder draw walks down: each round tries a few cells the target
    level leaves undecided (smoothest flips first) and keeps the flip that leaves the fewest, never one
    after which the level below solves it too. Whatever the target level solves is unique."""

    def __init__(self, level: str, tries: int = 6, max_flips: int | None = None):
        self.names = human.SOLVER.level_names
        self.target = self.names.index(level)
        self.tries, self.max_flips = tries, max_flips

    def grade(self, puzzle: rules.NonogramPuzzle, deadline: Deadline) -> Grade:
        """The path's grade where the path with the target's techniques finishes the puzzle (it is then the
        whole path: harder techniques are only tried where easier ones find nothing), else a level-less
        grade: the draw is harder than the target, and the walk down needs no more."""
        found = human.outline(human.board_of(puzzle), upto=self.target, deadline=deadline)
        if found is None or not found.solved:
            return Grade(None, 0.0, 0, None)
        return found.grade()

    def left(self, filled: Grid) -> tuple[int, int, np.ndarray | None]:
        """(undecided after the level below, undecided after the target level, the target's grid); the
        grid is None where the clues have no solution."""
        grids = human.closed(puzzle_of(filled), self.target)
        if grids[-1] is None:
            return -1, -1, None
        below = int(np.sum(grids[-2] == -1)) if self.target else -1
        return below, int(np.sum(grids[-1] == -1)), grids[-1]

    def __call__(self, generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        if graded.level is not None and self.names.index(graded.level) < self.target:
            return None
        filled = [row[:] for row in generated.solution.filled]
        rows, cols = len(filled), len(filled[0])
        below, left, grid = self.left(filled)
        for _ in range(self.max_flips or rows * cols):
            deadline.check()
            if grid is None:
                return None
            if left == 0:
                generated.puzzle, generated.solution = puzzle_of(filled), rules.NonogramAnswer(filled=filled)
                return generated
            stuck = [(r, c) for r in range(rows) for c in range(cols) if grid[r * cols + c] == -1]
            best = None
            for r, c in smooth_flips(filled, stuck, rng, self.tries):
                filled[r][c] ^= 1
                trial = self.left(filled)
                filled[r][c] ^= 1
                if trial[2] is None or trial[0] == 0:
                    continue  # no solution, or the level below would solve it
                if best is None or trial[1] < best[0][1]:
                    best = (trial, (r, c))
            if best is None:
                return None
            (below, left, grid), (r, c) = best
            filled[r][c] ^= 1
        return None


def warm_up() -> None:
    rules.warm_up()
    human.warm_up()
    generate_puzzle(NonogramParams(size=MIN_SIDE), 0, Deadline.never())


PUZZLE_TYPE = PuzzleType(
    name="nonogram",
    id_prefix="non",
    summary="Fill cells so each row's and column's filled runs have the lengths of its clue, in order.",
    params_model=NonogramParams,
    puzzle_model=rules.NonogramPuzzle,
    answer_model=rules.NonogramAnswer,
    generate=generate_puzzle,
    check=rules.check,
    solve=rules.solve,
    render=picture.render,
    parse_url=puzzlink.parse_nonogram_url,
    to_url=puzzlink.nonogram_url,
    backends=rules.BACKENDS,
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to {rules.MAX_SIDE} to solve",
               "pictures": "smoothed random fields, 45–55 % filled"},
    warm_up=warm_up,
    difficulty=human.DIFFICULTY,
    play_script="solvers/nonogram/play.js",  # clues grey out as their lines match
)
