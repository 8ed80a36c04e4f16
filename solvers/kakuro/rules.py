"""Kakuro: write a digit 1..9 in every white cell so that each run (white cells in a row or a column between
black cells) holds different digits adding up to its clue. A run's clue stands in the black cell before it (its
across sum right of it, its down sum below it), or outside the grid for a run that starts at its edge.

The board is R×C as puz.link counts it: the outer row and column of clues are not part of it (``top``, ``left``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import BaseModel, Field, model_validator

from solvers.common import Cell
from solvers.kit.rules import Count, Digits, Model
from solvers.kit.sums import Sum, digit_sets
from solvers.techniques.human import cell_name

MAX_SIDE = 24
MAX_SUM = 45
LISTED_SETS = 3  # a run's sentence lists its digit sets when it has at most this many
Clues = list[list[int | None]]


class KakuroPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE, description="R: the board's rows, the outer row of clues not counted.")
    cols: int = Field(ge=1, le=MAX_SIDE, description="C: the board's columns, the outer column of clues not counted.")
    black: list[list[int]] = Field(description="R×C: 1 for a black cell (it holds no digit, maybe clues), 0 white.")
    across: Clues = Field(description="R×C: on a black cell, the sum of the white run right of it; null for none.")
    down: Clues = Field(description="R×C: on a black cell, the sum of the white run below it; null for none.")
    left: list[int | None] = Field(description="R sums in the outer column: the run that starts at the left edge of "
                                   "each row; null where the row starts black or has no clue.")
    top: list[int | None] = Field(description="C sums in the outer row: the run that starts at the top edge of each "
                                  "column; null where the column starts black or has no clue.")

    @model_validator(mode="after")
    def _fit(self) -> KakuroPuzzle:
        rows, cols, problems = self.rows, self.cols, []
        for name in ("black", "across", "down"):
            grid = getattr(self, name)
            if len(grid) != rows or any(not isinstance(row, list) or len(row) != cols for row in grid):
                problems.append(f"`{name}` must be {rows}×{cols}")
        if len(self.left) != rows or len(self.top) != cols:
            problems.append(f"`left` must list {rows} sums and `top` {cols}")
        if problems:
            raise ValueError("; ".join(problems))
        if any(v not in (0, 1) for row in self.black for v in row):
            problems.append("`black` holds 0 or 1")
        for run in self.runs():
            if run[2] is not None and not 1 <= run[2] <= MAX_SUM:
                problems.append(f"the {run[0]} sum at {cell_name(run[1][0])} must be 1..{MAX_SUM}, got {run[2]}")
        clued = {(d, cells[0]) for d, cells, total in self.runs() if total is not None}
        for r in range(rows):
            for c in range(cols):
                for name, step in (("across", (0, 1)), ("down", (1, 0))):
                    value, after = getattr(self, name)[r][c], (r + step[0], c + step[1])
                    if value is not None and not (self.black[r][c] and (name, after) in clued):
                        problems.append(f"`{name}` at {cell_name((r, c))}: a sum stands on a black cell before a run")
        for name, values, starts in (("left", self.left, [(r, 0) for r in range(rows)]),
                                     ("top", self.top, [(0, c) for c in range(cols)])):
            for value, cell in zip(values, starts, strict=True):
                if value is not None and ("across" if name == "left" else "down", cell) not in clued:
                    problems.append(f"`{name}` at {cell_name(cell)}: a sum outside stands before a run")
        if problems:
            raise ValueError("; ".join(dict.fromkeys(problems)))
        return self

    def runs(self) -> list[tuple[str, tuple[Cell, ...], int | None]]:
        """Each run of white cells ("across" or "down", its cells in order, its sum or None)."""
        return [(direction, cells, self.clue(direction, cells[0][0] - (direction == "down"),
                                             cells[0][1] - (direction == "across")))
                for direction, cells in runs_of(self.black)]

    def clue(self, direction: str, r: int, c: int) -> int | None:
        """The sum a black cell (or, at -1, the outer row or column) gives the run after it."""
        if r < 0 or c < 0:
            return self.top[c] if r < 0 else self.left[r]
        return getattr(self, direction)[r][c]


@cache
def _lines(rows: int, cols: int) -> tuple[tuple[str, tuple[Cell, ...]], ...]:
    """Every row across, then every column down, as its cells: what ``runs_of`` walks, made once per shape."""
    return (tuple(("across", tuple((r, c) for c in range(cols))) for r in range(rows))
            + tuple(("down", tuple((r, c) for r in range(rows))) for c in range(cols)))


def runs_of(black: list[list[int]] | tuple[tuple[int, ...], ...]) -> list[tuple[str, tuple[Cell, ...]]]:
    """Each run of white cells of a pattern (1 = black): across runs row by row, then down runs column by column."""
    found = []
    for direction, line in _lines(len(black), len(black[0])):
        start = -1  # where the run being read began (-1: none)
        for i, (r, c) in enumerate(line):
            if not black[r][c]:
                if start < 0:
                    start = i
            elif start >= 0:
                found.append((direction, line[start:i]))
                start = -1
        if start >= 0:
            found.append((direction, line[start:]))
    return found


class KakuroAnswer(BaseModel):
    digits: list[list[int]] = Field(description="R×C digits 1..9 in the white cells, 0 on every black cell.")


def _says(direction: str, cells: tuple[Cell, ...], total: int | None) -> str:
    where = f"{cell_name(cells[0])}–{cell_name(cells[-1])}" if len(cells) > 1 else cell_name(cells[0])
    if total is None:
        return f"the {direction} run {where} holds different digits"
    sets = digit_sets(total, len(cells))
    ways = (" or ".join("+".join(map(str, s)) for s in sets) if 0 < len(sets) <= LISTED_SETS
            else f"{len(sets)} digit sets")
    return f"the {direction} sum {total} at {where} takes {len(cells)} different digits ({ways})"


def model(puzzle: KakuroPuzzle) -> Model:
    """One digit per white cell (counts over one-hot keys) and each run a sum rule (``solvers.kit.sums``). A run
    alone is read by its digit sets and the digits placed in it (``placed_only``); what its cells may still hold
    is the run analysis, a technique of its own."""
    rules: list[Any] = []
    blank = frozenset((r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if puzzle.black[r][c])
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            if (r, c) not in blank:
                rules.append(Count(tuple((r, c, d) for d in range(1, 10)), 1, 1, "one-digit",
                                   f"{cell_name((r, c))} holds one digit"))
    for direction, cells, total in puzzle.runs():
        rules.append(Sum(cells, 9, total, "run-repeats" if total is None else "run-sum", _says(direction, cells, total),
                         placed_only=True))
    return Model(Digits("digits", puzzle.rows, puzzle.cols, 9, blank), tuple(rules))
