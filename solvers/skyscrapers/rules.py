"""Skyscrapers: fill the N×N grid with towers of heights 1..N, each height once in every row and column; a clue
outside the grid says how many towers are seen from there along its row or column (a taller tower hides every
lower one behind it); a digit given inside the grid stays.
"""

from __future__ import annotations

import itertools
from typing import Any

from pydantic import BaseModel, Field, model_validator

from solvers.common import grid_shape_violations
from solvers.kit.rules import Count, Digits, Model
from solvers.kit.seen import Seen
from solvers.techniques.human import cell_name

MAX_SIDE = 16
SIDES = ("top", "bottom", "left", "right")  # the clue lists in Tatham's order (his game ID, pzprjs's outside cells)
Clues = list[int | None]
PLACE = {"top": "above column", "bottom": "below column", "left": "left of row", "right": "right of row"}


class SkyscrapersPuzzle(BaseModel):
    size: int = Field(ge=1, le=MAX_SIDE, description="N: the grid is N×N, towers 1..N.")
    top: Clues = Field(description="N clues above the columns, left to right (looking down); null for none.")
    bottom: Clues = Field(description="N clues below the columns, left to right (looking up); null for none.")
    left: Clues = Field(description="N clues left of the rows, top to bottom (looking right); null for none.")
    right: Clues = Field(description="N clues right of the rows, top to bottom (looking left); null for none.")
    givens: list[list[int | None]] = Field(description="N×N digits 1..N the grid shows; null for an empty cell.")

    @model_validator(mode="before")
    @classmethod
    def _no_givens(cls, data: Any) -> Any:
        """A puzzle without digits inside may leave ``givens`` out."""
        if isinstance(data, dict) and data.get("givens") is None and isinstance(data.get("size"), int):
            return {**data, "givens": [[None] * data["size"] for _ in range(data["size"])]}
        return data

    @model_validator(mode="after")
    def _fit(self) -> SkyscrapersPuzzle:
        n, problems = self.size, []
        for side in SIDES:
            clues = getattr(self, side)
            if len(clues) != n or any(v is not None and not 1 <= v <= n for v in clues):
                problems.append(f"`{side}` must list {n} clues, each 1..{n} or null")
        cells = [[0 if v is None else v for v in row] if isinstance(row, list) else row for row in self.givens]
        problems += [p.message.replace(f"0..{n}", f"null, 1..{n}")
                     for p in grid_shape_violations(cells, n, n, "givens", range(0, n + 1))]
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def lines(self) -> list[tuple[str, int, int | None, list[tuple[int, int]]]]:
        """Each clue's side, index, value and the cells it looks along, nearest first."""
        n = self.size
        looks = {"top": lambda i: [(k, i) for k in range(n)], "bottom": lambda i: [(n - 1 - k, i) for k in range(n)],
                 "left": lambda i: [(i, k) for k in range(n)], "right": lambda i: [(i, n - 1 - k) for k in range(n)]}
        return [(side, i, getattr(self, side)[i], looks[side](i)) for side in SIDES for i in range(n)]


class SkyscrapersAnswer(BaseModel):
    digits: list[list[int]] = Field(description="N×N heights 1..N (the givens included).")


def model(puzzle: SkyscrapersPuzzle, hidden_sides: bool = True) -> Model:
    """A Latin square as counts over one-hot keys (each cell one height, each row and column each height once),
    each given digit a count shown, and each clue a visibility rule (``solvers.kit.seen``) the generator may
    hide. A clue alone reads its line by the towers placed in it, as Tatham's Easy does; what its cells may still
    hold is the line analysis, a technique of its own. ``hidden_sides``: the generator may hide the clues outside."""
    n, rules = puzzle.size, []
    heights = range(1, n + 1)
    for r, c in itertools.product(range(n), repeat=2):
        rules.append(Count(tuple((r, c, d) for d in heights), 1, 1, "one-height", f"{cell_name((r, c))} holds one tower"))
        if puzzle.givens[r][c] is not None:
            rules.append(Count(((r, c, puzzle.givens[r][c]),), 1, 1, "given", f"{cell_name((r, c))} is given", given=True,
                               clue=("given", r * n + c)))
    for i, d in itertools.product(range(n), heights):
        rules.append(Count(tuple((i, c, d) for c in range(n)), 1, 1, "row-repeats", f"row {i + 1} holds one {d}"))
        rules.append(Count(tuple((r, i, d) for r in range(n)), 1, 1, "column-repeats", f"column {i + 1} holds one {d}"))
    for side, i, clue, line in puzzle.lines():
        if clue is not None:
            rules.append(Seen(tuple(line), n, clue, "towers-seen", f"the {clue} {PLACE[side]} {i + 1} counts the towers "
                              f"seen from there", clue=(side, i) if hidden_sides else None, placed_only=True))
    return Model(Digits("digits", n, n, n), tuple(rules))
