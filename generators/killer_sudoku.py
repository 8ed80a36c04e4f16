"""Killer Sudoku generation: a random Sudoku grid (Sudoku's own search) and a random partition into small cages
(``solvers.kit.partition``), every cage shown; with ``givens``, digits shown too and removed while the level's
techniques still solve the puzzle. A draw is made again until its puzzle needs exactly the asked level; one a lower
level solves has neighbouring cages merged until it needs the asked level.

Levels are Sudoku's with the cage techniques from the first (``solvers.killer_sudoku.techniques``), as Solo's.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from generators.params import refuse_unmade
from generators.pipeline import Adjust, Generated, GenerationStats, generate_at_level
from generators.spec import PuzzleType, TathamPreset
from generators.sudoku import random_grid
from solvers.common import Deadline
from solvers.killer_sudoku import picture, tatham
from solvers.killer_sudoku.rules import KillerCage, KillerSudokuAnswer, KillerSudokuPuzzle, N, model
from solvers.killer_sudoku.techniques import DIFFICULTY, grade, solved_at
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.partition import partition, region_cells, touching
from solvers.techniques.human import Grade

# Cells in a drawn cage: Solo's are mostly two or three; with no givens at all, cages of up to two make a puzzle
# the techniques solve (so unique) often enough to draw, cages of three seldom.
MAX_CAGE = {True: 3, False: 2}
# Cells a cage may reach when cages merge to make a puzzle harder: a cage's sum over more cells tells less.
MERGED_CAGE = 6
MERGE_TRIES = 6  # merges tried at each step before a draw is given up (a fresh draw costs less than more)
LEVELS = tuple(DIFFICULTY.names)
MADE = ("easy", "medium", "expert")  # the levels generated; hard is graded but not made (docs: why)


class KillerSudokuParams(BaseModel):
    givens: bool = Field(True, description="Show the digits the puzzle needs (as few as the level allows); false: "
                         "cages alone, of one or two cells, merged up to six toward the level (Solo's killer puzzles "
                         "show no digits).")
    difficulty: Literal["easy", "medium", "hard", "expert"] = Field(
        DIFFICULTY.default, description="What a person needs (see the type's `difficulties`): Sudoku's techniques "
        "of that level with the cage techniques (cage combinations, the rule of 45), as Solo's Basic, Intermediate "
        "and Advanced, Extreme; `hard` is graded, not made (almost no draw needs exactly it).")

    @model_validator(mode="after")
    def _made(self) -> KillerSudokuParams:
        refuse_unmade(self.difficulty, MADE, "almost no draw needs exactly its techniques (X-Wing, Swordfish, "
                      "XY-Wing) and no fewer")
        return self


def draw(givens: bool, rng: random.Random) -> tuple[KillerSudokuPuzzle, list[list[int]]]:
    """A random grid and cages on it (a cage whose cells would hold a digit twice is drawn again), every digit
    shown with ``givens``."""
    flat = random_grid(N, rng, Deadline.after(10))
    grid = [[int(v) for v in flat[r * N:(r + 1) * N]] for r in range(N)]
    while True:
        cages = [cells for cells in region_cells(partition(N, N, rng, max_size=MAX_CAGE[givens])).values()]
        if all(len({grid[r][c] for r, c in cells}) == len(cells) for cells in cages):
            break
    return KillerSudokuPuzzle(givens=[row[:] if givens else [0] * N for row in grid],
                              cages=[KillerCage(cells=cells, sum=sum(grid[r][c] for r, c in cells)) for cells in cages]), grid


def without(puzzle: KillerSudokuPuzzle, cells: list[tuple[int, int]]) -> KillerSudokuPuzzle:
    givens = [row[:] for row in puzzle.givens]
    for r, c in cells:
        givens[r][c] = 0
    return KillerSudokuPuzzle(givens=givens, cages=puzzle.cages)


def fewer_givens(puzzle: KillerSudokuPuzzle, level: str, rng: random.Random, deadline: Deadline) -> KillerSudokuPuzzle:
    """The givens go in random order while the level still solves the puzzle (Tatham's way). Fewer givens never
    make the level's stuck state larger, so the longest run of that order that may go is found by halving (a
    few checks for most givens), then each given left is tried once."""
    shown = [(r, c) for r in range(N) for c in range(N) if puzzle.givens[r][c]]
    rng.shuffle(shown)
    fewest, most = 0, len(shown) + 1  # the first ``fewest`` may go; the first ``most`` may not
    while most - fewest > 1:
        middle = (fewest + most) // 2
        if solved_at(without(puzzle, shown[:middle]), level, deadline):
            fewest = middle
        else:
            most = middle
    puzzle = without(puzzle, shown[:fewest])
    for cell in shown[fewest + 1:]:
        tried = without(puzzle, [cell])
        if solved_at(tried, level, deadline):
            puzzle = tried
    return puzzle


def make(params: KillerSudokuParams, draw_seed: int, deadline: Deadline) -> Generated:
    """One draw: a board with its givens fewest while the level solves it, or its cages alone (graded next, as
    any draw)."""
    rng = random.Random(draw_seed)
    puzzle, grid = draw(params.givens, rng)
    if params.givens:
        puzzle = fewer_givens(puzzle, params.difficulty, rng, deadline)
    return Generated(puzzle, KillerSudokuAnswer(digits=grid), GenerationStats())


def merges(puzzle: KillerSudokuPuzzle, grid: list[list[int]]) -> list[tuple[int, int]]:
    """The pairs of neighbouring cages (indices, in order) that make one Killer cage: at most ``MERGED_CAGE``
    cells, no digit twice."""
    return [(k, j) for k, j in touching([cage.cells for cage in puzzle.cages], N, N)
            if len(cells := [*puzzle.cages[k].cells, *puzzle.cages[j].cells]) <= MERGED_CAGE
            and len({grid[r][c] for r, c in cells}) == len(cells)]


def merged(puzzle: KillerSudokuPuzzle, k: int, j: int) -> KillerSudokuPuzzle:
    """The puzzle with cages ``k`` and ``j`` made one; cells and cages stay in reading order, as drawn."""
    one = KillerCage(cells=sorted([*puzzle.cages[k].cells, *puzzle.cages[j].cells]),
                     sum=puzzle.cages[k].sum + puzzle.cages[j].sum)
    cages = [*(cage for i, cage in enumerate(puzzle.cages) if i not in (k, j)), one]
    return KillerSudokuPuzzle(givens=puzzle.givens, cages=sorted(cages, key=lambda cage: cage.cells[0]))


def union(puzzle: KillerSudokuPuzzle, k: int, j: int) -> frozenset[tuple[int, int]]:
    """The cells of cages ``k`` and ``j``: what a merge is remembered by once the cages are renumbered."""
    return frozenset([*puzzle.cages[k].cells, *puzzle.cages[j].cells])


def harder(level: str) -> Adjust[KillerSudokuPuzzle, KillerSudokuAnswer]:
    """The adjustment toward ``level`` of a draw a lower level solves: neighbouring cages merge one pair at a time
    (a cage's sum over more cells tells less), each merge kept while a lower level still solves the puzzle (so it
    stays unique), until a merge leaves a puzzle only ``level`` solves. One grade tells both: its path takes a
    harder technique only where the easier ones are stuck. None for a draw above the level, or when none of
    ``MERGE_TRIES`` merges keeps it solvable (Solo's way). A merge past the level is not tried again on the draw,
    nor one whose cage holds its cells: a merge takes a sum away, so it tells no more than the puzzle past the
    level did."""
    rank = LEVELS.index(level)

    def adjust(generated: Generated, graded: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        if graded.level not in LEVELS or LEVELS.index(graded.level) >= rank:
            return None
        puzzle, grid = generated.puzzle, generated.solution.digits
        past: list[frozenset[tuple[int, int]]] = []  # merged cages that took the puzzle past the level
        while True:
            pairs = [(k, j) for k, j in merges(puzzle, grid) for cage in [union(puzzle, k, j)]
                     if not any(cells <= cage for cells in past)]
            rng.shuffle(pairs)
            for k, j in pairs[:MERGE_TRIES]:
                tried = merged(puzzle, k, j)
                now = grade(tried, deadline).level
                if now == level:
                    return Generated(tried, generated.solution, generated.stats)
                if now in LEVELS and LEVELS.index(now) < rank:
                    puzzle = tried
                    break
                past.append(union(puzzle, k, j))
            else:
                return None

    return adjust


def generate_puzzle(params: KillerSudokuParams, seed: int, deadline: Deadline) -> Generated:
    """Draws until one grades at the level; a draw below it is made harder (``harder``) rather than drawn again."""
    return generate_at_level(lambda draw_seed, budget: make(params, draw_seed, budget), grade, params.difficulty, seed,
                             deadline, harder(params.difficulty))


check = kit.checker(model)
solve = kit_solving.solver(model)
PRESETS = (("3x3kdb", 1, "easy"), ("3x3kdi", 2, "medium"), ("3x3kda", 3, "medium"), ("3x3kde", 4, "expert"),
           ("3x3kdu", 5, "expert"))


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
