"""Killer Sudoku generation through the genre kit: a random Sudoku grid (Sudoku's own search), a random partition
into small cages (``solvers.kit.partition``), every cage shown; with ``givens``, digits shown too and removed
while the level still solves the puzzle. A board is drawn again until its puzzle needs exactly the asked level;
with cages alone, one the rules alone solve has neighbouring cages merged until it needs the filling analysis.

Levels as Solo's (Basic, Intermediate, Advanced, Extreme and above), in ``PEOPLE``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from generators.kit import group_checks, make_read_by_groups
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from generators.sudoku import random_grid
from solvers.common import Deadline
from solvers.grid import neighbours
from solvers.killer_sudoku import picture, tatham
from solvers.killer_sudoku.rules import KillerCage, KillerSudokuAnswer, KillerSudokuPuzzle, N, graded_model, model
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit.partition import partition, region_cells
from solvers.kit.tuples import TUPLES, analysed
from solvers.techniques.human import Grade

# Cells in a drawn cage: Solo's are mostly two or three; with no givens at all, cages of up to two make a unique
# puzzle often enough to draw (half the time), cages of three almost never.
MAX_CAGE = {True: 3, False: 2}
CHAIN = 3  # rounds a hard trial is followed
# Cells a cage may reach when cages merge to make a puzzle of cages alone harder: with cages of up to four, merges
# take most puzzles the rules alone solve to the filling analysis while they stay unique; up to three, few.
MERGED_CAGE = 4
MERGE_TRIES = 8  # merges tried at each step before a draw is given up
# Solo's levels: Basic reads a cage by its placed digits (and Sudoku's singles), Intermediate by what its cells may
# still hold (the filling analysis), Advanced needs short chains of deductions, Extreme and Unreasonable long ones.
PEOPLE = kit_human.group_levels(("easy", "medium", "hard", "expert"), TUPLES, CHAIN, "digit")
DIFFICULTY = kit_human.difficulty(PEOPLE, graded_model, kit.Digits("digits", 1, 1, 9),
                                  "9×9 digits 1..9, 0 or null for an empty cell", default="easy")
Answer = dict[str, list[list[int]]]


class KillerSudokuParams(BaseModel):
    givens: bool = Field(True, description="Show the digits the puzzle needs (as few as the level allows); false: "
                         "cages alone, of one or two cells, at medium up to four (Solo's killer puzzles show no digits).")
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

    def together(self, board: Board, answer: Answer) -> list[list[int]]:
        """Each cage's digits, tried away at once first: most givens go, and one check takes a cage's."""
        return [[r * N + c for r, c in cells] for cells in board.cages if len(cells) > 1] if self.givens else []

    def puzzle(self, board: Board, answer: Answer, shown: frozenset[int]) -> KillerSudokuPuzzle:
        grid = answer["digits"]
        return KillerSudokuPuzzle(givens=[[grid[r][c] if r * N + c in shown else 0 for c in range(N)] for r in range(N)],
                                  cages=[KillerCage(cells=cells, sum=sum(grid[r][c] for r, c in cells)) for cells in board.cages])

    def model(self, puzzle: KillerSudokuPuzzle) -> kit.Model:
        return graded_model(puzzle)




RULES_ALONE, FILLINGS, _ = group_checks(analysed, CHAIN)


def merges(puzzle: KillerSudokuPuzzle, grid: list[list[int]]) -> list[tuple[int, int]]:
    """The pairs of neighbouring cages (indices, in order) that make one Killer cage: at most ``MERGED_CAGE``
    cells, no digit twice."""
    cage_of = {tuple(cell): k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    found = set()
    for k, cage in enumerate(puzzle.cages):
        for cell in cage.cells:
            for near in neighbours(tuple(cell), N, N):
                j = cage_of[near]
                cells = [*cage.cells, *puzzle.cages[j].cells]
                if j > k and len(cells) <= MERGED_CAGE and len({grid[r][c] for r, c in cells}) == len(cells):
                    found.add((k, j))
    return sorted(found)


def merged(puzzle: KillerSudokuPuzzle, k: int, j: int) -> KillerSudokuPuzzle:
    """The puzzle with cages ``k`` and ``j`` made one; cells and cages stay in reading order, as drawn."""
    one = KillerCage(cells=sorted([*puzzle.cages[k].cells, *puzzle.cages[j].cells]),
                     sum=puzzle.cages[k].sum + puzzle.cages[j].sum)
    cages = [*(cage for i, cage in enumerate(puzzle.cages) if i not in (k, j)), one]
    return KillerSudokuPuzzle(givens=puzzle.givens, cages=sorted(cages, key=lambda cage: cage.cells[0]))


def harder(generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
    """A draw the rules alone solve, made to need the filling analysis: a cage's sum over more cells tells less, so
    neighbouring cages merge one pair at a time, each merge kept while the rules alone still solve the puzzle (so
    it stays unique), until a merge leaves a puzzle only the filling analysis solves. None for a draw graded above
    the rules alone, or when no merge of ``MERGE_TRIES`` keeps it solvable."""
    if graded.level != PEOPLE.level_names[0]:
        return None
    puzzle, grid = generated.puzzle, generated.solution.digits
    while True:
        deadline.check()
        pairs = merges(puzzle, grid)
        rng.shuffle(pairs)
        for k, j in pairs[:MERGE_TRIES]:
            tried = merged(puzzle, k, j)
            model = graded_model(tried)
            if RULES_ALONE(model, None):
                puzzle = tried
                break
            if FILLINGS(model, None):
                return Generated(tried, generated.solution, generated.stats)
        else:
            return None


def generate_puzzle(params: KillerSudokuParams, seed: int, deadline: Deadline) -> Generated:
    """With cages alone, a draw the rules alone solve is made harder (``harder``) rather than drawn again."""
    return make_read_by_groups(KillerSudokuGenre(params.givens), KillerSudokuAnswer, DIFFICULTY, graded_model, analysed,
                               CHAIN, params, seed, deadline, params.givens, None if params.givens else harder)


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
