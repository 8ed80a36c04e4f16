"""Killer Sudoku: fill the 9×9 grid with digits 1..9, each once in every row, column and 3×3 box; the digits of
each cage (dashed outline) differ and sum to its total; given digits stay.

The model is the kit's (not Sudoku's compiled engine): the Sudoku units as counts, and each cage Kakuro's run rule
(``solvers.kit.sums.Sum``: each digit at most once, and one of the digit sets that make the total), for the checker
and both SAT backends; its encoding by digit sets gives a solver far fewer clauses than every order of them would.
A person's levels are Sudoku's techniques with cage techniques (``solvers.killer_sudoku.techniques``).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from pydantic import BaseModel, Field, model_validator

from solvers.common import Cell, grid_shape_violations
from solvers.kit.latin import latin_rules
from solvers.kit.rules import Count, Digits, Model, Rule
from solvers.kit.sums import Sum
from solvers.techniques.human import cell_name, cells_named

N, BOX = 9, 3
MAX_CAGE = 9  # cells: a cage of nine holds every digit once
RULES_KEPT = 1024  # cage rules kept for the next models (each remembers its readings)


class KillerCage(BaseModel):
    cells: list[tuple[int, int]] = Field(min_length=1, max_length=MAX_CAGE,
                                         description=f"The cage's cells, [row, column] from 0 (at most {MAX_CAGE}).")
    sum: int = Field(ge=1, le=45, description="What the cage's digits, all different, add up to.")


class KillerSudokuPuzzle(BaseModel):
    givens: list[list[int]] = Field(default_factory=lambda: [[0] * N for _ in range(N)],
                                    description="9×9 digits 1..9 the grid shows; 0 for an empty cell.")
    cages: list[KillerCage] = Field(description="The cages; no cell in two.")

    @model_validator(mode="after")
    def _fit(self) -> KillerSudokuPuzzle:
        problems = [p.message for p in grid_shape_violations(self.givens, N, N, "givens", range(0, N + 1))]
        seen = [cell for cage in self.cages for cell in cage.cells]
        if any(not (0 <= r < N and 0 <= c < N) for r, c in seen):
            problems.append("every cage cell must be inside the 9×9 grid")
        if len(set(seen)) != len(seen):
            problems.append("no cell may be in two cages (or twice in one)")
        if problems:
            raise ValueError("; ".join(problems))
        return self


class KillerSudokuAnswer(BaseModel):
    digits: list[list[int]] = Field(description="9×9 digits 1..9 (the givens included).")


@lru_cache(maxsize=RULES_KEPT)
def _cage_rule(group: tuple[Cell, ...], total: int) -> Sum:
    """One rule object per cage, so the models of puzzles that share the cage share it."""
    return Sum(group, N, total, "cage-sum", f"the cage {total} at {cells_named(group)} sums to {total} with "
               "different digits", placed_only=True)


def model(puzzle: KillerSudokuPuzzle) -> Model:
    """Sudoku's units as counts over one-hot keys, each given a count shown, and each cage a sum rule."""
    rules: list[Rule] = []
    cells, units = latin_rules(N, "one-digit", "digit", BOX)
    for r, c in itertools.product(range(N), repeat=2):
        rules.append(cells[r * N + c])
        if puzzle.givens[r][c]:
            rules.append(Count(((r, c, puzzle.givens[r][c]),), 1, 1, "given", f"{cell_name((r, c))} is given",
                               given=True, clue=r * N + c))
    rules += units
    rules.extend(_cage_rule(tuple(map(tuple, cage.cells)), cage.sum) for cage in puzzle.cages)
    return Model(Digits("digits", N, N, N), tuple(rules))
