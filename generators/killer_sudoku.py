"""Killer Sudoku generation through the genre kit: a random Sudoku grid (Sudoku's own search), a random partition
into small cages (``solvers.kit.partition``), every cage shown; with ``givens``, digits shown too and removed
while the level still solves the puzzle. A board is drawn again until its puzzle needs exactly the asked level.

Levels as Solo's (Basic, Intermediate, Advanced, Extreme and above), in ``PEOPLE``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from generators.kit import make_read_by_groups
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from generators.sudoku import random_grid
from solvers.common import Deadline
from solvers.killer_sudoku import picture, tatham
from solvers.killer_sudoku.rules import KillerCage, KillerSudokuAnswer, KillerSudokuPuzzle, N, graded_model, model
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit.partition import partition, region_cells
from solvers.kit.tuples import TUPLES, analysed

# Cells in a drawn cage: Solo's are mostly two or three; with no givens at all, cages of up to two make a unique
# puzzle often enough to draw (half the time), cages of three almost never.
MAX_CAGE = {True: 3, False: 2}
CHAIN = 3  # rounds a hard trial is followed
# Solo's levels: Basic reads a cage by its placed digits (and Sudoku's singles), Intermediate by what its cells may
# still hold (the filling analysis), Advanced needs short chains of deductions, Extreme and Unreasonable long ones.
PEOPLE = kit_human.group_levels(("easy", "medium", "hard", "expert"), TUPLES, CHAIN, "digit")
DIFFICULTY = kit_human.difficulty(PEOPLE, graded_model, kit.Digits("digits", 1, 1, 9),
                                  "9×9 digits 1..9, 0 or null for an empty cell", default="easy")
Answer = dict[str, list[list[int]]]


class KillerSudokuParams(BaseModel):
    givens: bool = Field(True, description="Show the digits the puzzle needs (as few as the level allows); false: "
                         "cages alone, of one or two cells (Solo's killer puzzles show no digits).")
    difficulty: Literal["easy", "medium"] = Field(
        DIFFICULTY.default, description="What a person needs (see the type's `difficulties`), as Solo's levels; hard "
        "and expert are graded but not made (their level checks, in Python, take minutes on a 9×9).")


@dataclass(frozen=True)
class Board:
    cages: tuple[tuple[tuple[int, int], ...], ...]  # each cage's cells in reading order


class KillerSudokuGenre:
    """What the kit's generator needs: a Sudoku grid and cages on it; the clues are the digits it may show."""

    def __init__(self, givens: bool):
        self.givens = givens

    def draw(self, params: KillerSudokuParams, rng: random.Random) -> tuple[Board, Answer]:
        flat = random_grid(N, rng, Deadline.after(10))
        grid = [[int(v) for v in flat[r * N:(r + 1) * N]] for r in range(N)]
        while True:  # a cage whose cells hold a digit twice (cells in no common unit) is no Killer cage: draw again
            cages = tuple(tuple(cells) for cells in region_cells(partition(N, N, rng, max_size=MAX_CAGE[self.givens])).values())
            if all(len({grid[r][c] for r, c in cells}) == len(cells) for cells in cages):
                return Board(cages), {"digits": grid}

    def clues(self, board: Board, answer: Answer) -> list[int]:
        return list(range(N * N)) if self.givens else []

    def puzzle(self, board: Board, answer: Answer, shown: frozenset[int]) -> KillerSudokuPuzzle:
        grid = answer["digits"]
        return KillerSudokuPuzzle(givens=[[grid[r][c] if r * N + c in shown else 0 for c in range(N)] for r in range(N)],
                                  cages=[KillerCage(cells=cells, sum=sum(grid[r][c] for r, c in cells)) for cells in board.cages])

    def model(self, puzzle: KillerSudokuPuzzle) -> kit.Model:
        return graded_model(puzzle)




def generate_puzzle(params: KillerSudokuParams, seed: int, deadline: Deadline) -> Generated:
    return make_read_by_groups(KillerSudokuGenre(params.givens), KillerSudokuAnswer, DIFFICULTY, graded_model, analysed,
                               CHAIN, params, seed, deadline, params.givens)


check = kit.checker(model)
solve = kit.solver(model)
PRESETS = (("3x3kdb", 1, "easy"), ("3x3kdi", 2, "medium"))


PUZZLE_TYPE = PuzzleType(
    name="killer-sudoku",
    id_prefix="kil",
    summary="Sudoku whose cages' digits differ and sum to the cage's total.",
    params_model=KillerSudokuParams,
    puzzle_model=KillerSudokuPuzzle,
    answer_model=KillerSudokuAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="solo",
    tatham_presets=tuple(TathamPreset(preset, rank, {"difficulty": level}) for preset, rank, level in PRESETS),
    backends=("cadical", "z3"),
    catalogue={"sizes": "9×9"},
    difficulty=DIFFICULTY,
    play_mode="digits",
    model=model,
)
