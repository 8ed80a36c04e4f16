"""Skyscrapers: fill the N×N grid with towers of heights 1..N, each height once in every row and column; a clue
outside the grid says how many towers are seen from there along its row or column (a taller tower hides every
lower one behind it); a digit given inside the grid stays.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, Field, model_validator

from solvers.common import grid_shape_violations
from solvers.kit.latin import latin_rules
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
        return [(side, i, getattr(self, side)[i], self.looks(self.size, side, i)) for side in SIDES for i in range(self.size)]

    @staticmethod
    def looks(n: int, side: str, i: int) -> list[tuple[int, int]]:
        """The cells the clue on ``side`` at ``i`` of an N×N looks along, nearest first."""
        along = range(n) if side in ("top", "left") else range(n - 1, -1, -1)
        return [(k, i) for k in along] if side in ("top", "bottom") else [(i, k) for k in along]


class SkyscrapersAnswer(BaseModel):
    digits: list[list[int]] = Field(description="N×N heights 1..N (the givens included).")


def model(puzzle: SkyscrapersPuzzle, hidden_sides: bool = True) -> Model:
    """A Latin square as counts over one-hot keys (each cell one height, each row and column each height once),
    each given digit a count shown, and each clue a visibility rule (``solvers.kit.seen``) the generator may
    hide. A clue alone reads its line by the towers placed in it, as Tatham's Easy does; what its cells may still
    hold is the line analysis, a technique of its own. ``hidden_sides``: the generator may hide the clues outside."""
    n, rules = puzzle.size, []
    cells, units = latin_rules(n, "one-height", "tower")
    for r, c in itertools.product(range(n), repeat=2):
        rules.append(cells[r * n + c])
        if puzzle.givens[r][c] is not None:
            rules.append(Count(((r, c, puzzle.givens[r][c]),), 1, 1, "given", f"{cell_name((r, c))} is given", given=True,
                               clue=("given", r * n + c)))
    rules += units
    rules += [_seen(side, i, clue, n, hidden_sides) for side in SIDES for i, clue in enumerate(getattr(puzzle, side))
              if clue is not None]
    return Model(Digits("digits", n, n, n), tuple(rules))


@lru_cache(maxsize=1 << 12)
def _seen(side: str, i: int, clue: int, n: int, hidden_sides: bool) -> Seen:
    """The visibility rule of the clue ``clue`` on ``side`` at ``i``, alike in every puzzle that shows it."""
    line = SkyscrapersPuzzle.looks(n, side, i)
    return Seen(tuple(line), n, clue, "towers-seen", f"the {clue} {PLACE[side]} {i + 1} counts the towers seen from "
                "there", clue=(side, i) if hidden_sides else None, placed_only=True)
