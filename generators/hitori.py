"""Hitori generation, as Tatham's Singles does it: a random Latin square, a random maximal shading (no shaded
cells touch, the unshaded cells stay connected), and each shaded cell given a number an unshaded cell of its row
or column holds, so it must be shaded. The kit's SAT model then looks for another shading; each one found is
ruled out by giving a cell shaded in ours but not in it a number that the other leaves twice in a line. A level
is asked of the shading techniques Hitori shares with Dabuhamienai (their compiled path, ``outline``).

Sizes 4 to 12 (Tatham's presets are 5 to 12); his Easy is our easy, his Tricky our medium (see docs).
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from generators.params import refuse_unmade
from generators.pipeline import Generated, generate, generate_at_level
from generators.shading import random_maximal_shading
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Cell, Deadline
from solvers.hitori import picture, puzzlink, tatham
from solvers.hitori.rules import HitoriAnswer, HitoriPuzzle, model
from solvers.hitori.techniques import DIFFICULTY, board_of, warm_up
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.latin import latin_square
from solvers.shading.techniques import SOLVER, outline
from solvers.techniques.human import Grade

MIN_SIZE, MAX_SIZE = 4, 12
MAX_ADJUSTS = 40  # per draw
Grid = list[list[int]]


class HitoriParams(BaseModel):
    size: int = Field(8, ge=MIN_SIZE, le=MAX_SIZE, description="Grid size N (N×N).")
    difficulty: Literal["easy", "medium", "hard"] = Field(
        DIFFICULTY.default, description="How far ahead a person must look (see the type's `difficulties`); "
                                        "`hard` is graded, not made.")

    @model_validator(mode="after")
    def _made(self) -> HitoriParams:
        refuse_unmade(self.difficulty, ("easy", "medium"), "the hard puzzles drawn so far take a plain search no "
                      "more effort than medium ones")
        return self


def seen_from(numbers: Grid, unshaded: Grid, cell: Cell, fixed: Grid) -> tuple[set[int], set[int]]:
    """The numbers of ``cell``'s row and of its column on cells unshaded in ``unshaded`` and ``fixed`` (cells
    whose number no repair changes)."""
    r, c = cell
    n = len(numbers)
    row = {numbers[r][j] for j in range(n) if j != c and not unshaded[r][j] and fixed[r][j]}
    column = {numbers[i][c] for i in range(n) if i != r and not unshaded[i][c] and fixed[i][c]}
    return row, column


def forcing(numbers: Grid, shaded: Grid, cell: Cell, fixed: Grid, rng: random.Random, subtle: bool = False) -> list[int]:
    """Numbers that leave ``cell`` twice in a line unless it is shaded: seen along both its row and its column
    (moving the shading to a neighbour then breaks one of them), then along one; ``subtle`` the other way round,
    which leaves a person less to start from."""
    row, column = seen_from(numbers, shaded, cell, fixed)
    both, one = sorted(row & column), sorted(row ^ column)
    rng.shuffle(both)
    rng.shuffle(one)
    return [v for v in (one + both if subtle else both + one) if v != numbers[cell[0]][cell[1]]]


class HitoriSteps:
    """The pipeline's steps; a solution is (shading, Latin square), a puzzle its numbers."""

    def __init__(self, size: int, subtle: bool = False):
        self.size, self.subtle = size, subtle

    def random_solution(self, rng: random.Random) -> tuple[Grid, Grid]:
        return random_maximal_shading(self.size, rng), latin_square(self.size, rng)

    def clues(self, solution: tuple[Grid, Grid], rng: random.Random) -> Grid:
        shaded, latin = solution
        numbers = [row[:] for row in latin]
        fixed = [[1 - s for s in row] for row in shaded]
        for r, c in ((r, c) for r in range(self.size) for c in range(self.size) if shaded[r][c]):
            numbers[r][c] = (forcing(numbers, shaded, (r, c), fixed, rng, self.subtle) or [numbers[r][c]])[0]
        return numbers

    def other_solution(self, numbers: Grid, solution: tuple[Grid, Grid], deadline: Deadline) -> Grid | None:
        prover = kit.Prover(model(HitoriPuzzle.model_construct(size=self.size, numbers=numbers)),
                            {"shaded": solution[0]})
        try:
            other = prover.other((), deadline)
        finally:
            prover.close()
        return None if other is None else other["shaded"]

    def repair(self, numbers: Grid, solution: tuple[Grid, Grid], other: Grid, rng: random.Random) -> Grid | None:
        """A cell shaded in ours but not in ``other`` takes a number ``other`` then has twice in a line."""
        shaded = solution[0]
        fixed = [[1 - s for s in row] for row in shaded]
        cells = [(r, c) for r in range(self.size) for c in range(self.size) if shaded[r][c] and not other[r][c]]
        rng.shuffle(cells)
        for cell in cells:
            options = forcing(numbers, other, cell, fixed, rng)
            if options:
                repaired = [row[:] for row in numbers]
                repaired[cell[0]][cell[1]] = options[0]
                return repaired
        return None


def generate_unique(size: int, seed: int, deadline: Deadline, subtle: bool = False) -> Generated:
    made = generate(HitoriSteps(size, subtle), seed, deadline, max_rounds=4 * size, max_restarts=100)
    made.puzzle = HitoriPuzzle(size=size, numbers=made.puzzle)
    made.solution = HitoriAnswer(shaded=made.solution[0])
    return made


class Harder:
    """A draw that grades below the asked level moves up one shaded cell at a time: the cell takes another
    number that still forces it (its answer stays valid), cells the easier path leaned on first. A change is
    kept when the asked level still finishes the puzzle (the techniques are sound, so it stays unique) and the
    level below finishes less of it than before."""

    TRIES = 40  # changes tried per adjustment

    def __init__(self, level: str):
        self.target = SOLVER.level_names.index(level)

    def __call__(self, generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        if graded.level is None or SOLVER.level_names.index(graded.level) >= self.target:
            return None  # too hard: draw again
        puzzle, shaded = generated.puzzle, generated.solution.shaded
        n, fixed = puzzle.size, [[1 - s for s in row] for row in shaded]
        below = outline(board_of(puzzle), upto=self.target - 1, deadline=deadline, long_chains=False)
        leaned = [cell for group in below.look_ahead_groups(self.target) for cell in group if shaded[cell[0]][cell[1]]]
        others = [(r, c) for r in range(n) for c in range(n) if shaded[r][c]]
        rng.shuffle(others)
        changes = [(cell, v) for cell in dict.fromkeys(leaned + others)
                   for v in forcing(puzzle.numbers, shaded, cell, fixed, rng)]
        for (r, c), number in changes[:self.TRIES]:
            deadline.check()
            numbers = [row[:] for row in puzzle.numbers]
            numbers[r][c] = number
            board = board_of(HitoriPuzzle.model_construct(size=n, numbers=numbers))
            if not outline(board, upto=self.target, deadline=deadline, long_chains=False).solved:
                continue
            if outline(board, upto=self.target - 1, deadline=deadline, long_chains=False).reach(self.target - 1) < \
                    below.reach(self.target - 1):
                generated.puzzle = HitoriPuzzle(size=n, numbers=numbers)
                return generated
        return None


def generate_puzzle(params: HitoriParams, seed: int, deadline: Deadline) -> Generated:
    """Unique puzzles drawn until one grades at the asked level (Tatham's way: his Singles draws again too),
    each moved toward a harder level by changing shaded cells' numbers (``Harder``)."""
    subtle = params.difficulty != DIFFICULTY.names[0]  # fewer numbers seen twice: less to start from
    return generate_at_level(lambda draw_seed, budget: generate_unique(params.size, draw_seed, budget, subtle),
                             DIFFICULTY.grade, params.difficulty, seed, deadline, adjust=Harder(params.difficulty),
                             max_adjusts=MAX_ADJUSTS)


PUZZLE_TYPE = PuzzleType(
    name="hitori",
    id_prefix="hit",
    summary="Shade cells so no number repeats among the unshaded cells of a row or column, shaded cells never "
            "touch, and the unshaded cells stay connected.",
    params_model=HitoriParams,
    puzzle_model=HitoriPuzzle,
    answer_model=HitoriAnswer,
    generate=generate_puzzle,
    check=kit.checker(model),
    solve=kit_solving.solver(model),
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="singles",
    tatham_presets=tuple(TathamPreset(f"{n}x{n}d{code}", rank, {"size": n, "difficulty": level})
                         for n in (5, 6, 8, 10, 12) for rank, (code, level) in enumerate((("e", "easy"), ("k", "medium")))),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIZE}–{MAX_SIZE} to generate; up to 30 to solve"},
    difficulty=DIFFICULTY,
    warm_up=warm_up,
    model=model,
)
