"""Skyscrapers: fill the N×N grid with towers of heights 1..N, each height once in every row and column; a clue
outside the grid says how many towers are seen from there along its row or column (a taller tower hides every
lower one behind it); a digit given inside the grid stays.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, model_validator

from solvers.common import grid_shape_violations

MAX_SIDE = 16
SIDES = ("top", "bottom", "left", "right")  # the clue lists in Tatham's order (his game ID, pzprjs's outside cells)
Clues = list[int | None]


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


def seen(heights: list[int]) -> int:
    """How many towers of a line are seen from its first end."""
    count = tallest = 0
    for h in heights:
        if h > tallest:
            count, tallest = count + 1, h
    return count
