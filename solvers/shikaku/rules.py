"""Shikaku (Rect): cut the grid into rectangles, each holding exactly one number, which is its area.

The answer is a grid of rectangle ids, laid out (``Regions``) as one key ``(r, c, n)`` per cell and number whose
rectangle could reach it: 1 when the cell lies in the rectangle of the ``n``-th number (reading order). A cell
lies in one rectangle (a count); a number's cells make one of the rectangles of its area around it (``Rectangle``,
a rule of the genre's own: a person reads it as "every rectangle left for the 6 covers r2c3").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from typing import Any

from pydantic import BaseModel, Field, model_validator

from solvers.common import Cell, grid_shape_violations
from solvers.kit.rules import Broken, Count, Model, Values, _grid_of, _partial_grid
from solvers.sat import SatBackend
from solvers.techniques.human import cell_name, cells_named

MAX_SIDE = 30
MODELS_KEPT = 8  # boards whose model is kept: a request reads its board several times (generate, grade, check)
Rect = tuple[int, int, int, int]  # top, left, bottom, right (inclusive)
Key = tuple[int, int, int]
ANY_ID = range(-(2**31), 2**31)  # rectangle ids are any distinct ints


class ShikakuPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE)
    cols: int = Field(ge=1, le=MAX_SIDE)
    numbers: list[list[int | None]] = Field(description="R×C: null for an empty cell, else the area of its rectangle.")

    @model_validator(mode="after")
    def _numbers_fit(self) -> ShikakuPuzzle:
        cells = [[1 if v is None else v for v in row] if isinstance(row, list) else row for row in self.numbers]
        problems = grid_shape_violations(cells, self.rows, self.cols, "numbers", range(1, self.rows * self.cols + 1))
        if problems:
            raise ValueError("; ".join(p.message.replace("1..", "null, 1..") for p in problems))
        return self


class ShikakuAnswer(BaseModel):
    regions: list[list[int]] = Field(description="R×C of rectangle ids: cells with the same id are one rectangle.")


def numbers(puzzle: ShikakuPuzzle) -> list[Cell]:
    """The numbers' cells in reading order: the ``n`` of a key, and ``n + 1`` is the id the service writes."""
    return [(r, c) for r, row in enumerate(puzzle.numbers) for c, v in enumerate(row) if v is not None]


@cache
def rect_cells(rect: Rect) -> tuple[Cell, ...]:
    """A rectangle's cells, row by row (asked again and again as the generator moves numbers: kept)."""
    top, left, bottom, right = rect
    return tuple((r, c) for r in range(top, bottom + 1) for c in range(left, right + 1))


def candidates(puzzle: ShikakuPuzzle) -> list[list[Rect]]:
    """Per number, every rectangle of its area that holds it and no other number."""
    rows, cols = puzzle.rows, puzzle.cols
    seen = [[0] * (cols + 1) for _ in range(rows + 1)]  # numbers above and left of each corner
    for r in range(rows):
        for c in range(cols):
            seen[r + 1][c + 1] = seen[r][c + 1] + seen[r + 1][c] - seen[r][c] + (puzzle.numbers[r][c] is not None)
    found = []
    for r, c in numbers(puzzle):
        area, mine = puzzle.numbers[r][c], []
        for h in (h for h in range(1, rows + 1) if area % h == 0 and area // h <= cols):
            w = area // h
            for top in range(max(0, r - h + 1), min(r, rows - h) + 1):
                for left in range(max(0, c - w + 1), min(c, cols - w) + 1):
                    b, rt = top + h, left + w
                    if seen[b][rt] - seen[top][rt] - seen[b][left] + seen[top][left] == 1:
                        mine.append((top, left, b - 1, rt - 1))
        found.append(mine)
    return found


@dataclass(frozen=True)
class Rectangle:
    """The cells of one number (its keys, in ``cells`` order) are exactly one of its ``rects``. SAT: a variable
    per rectangle, one of them, and each cell's key true exactly when a chosen rectangle covers it."""

    cells: tuple[Key, ...]
    rects: tuple[frozenset[int], ...]  # each rectangle as positions in ``cells``
    code: str
    says: str
    where: tuple[Cell, ...] | None = None
    clue: Any = None
    given: bool = False

    def broken_by(self, values: Values) -> bool:
        ones = frozenset(i for i, key in enumerate(self.cells) if values[key])
        return ones not in self.rects

    def encode(self, sat: SatBackend, lits: Sequence[int], guard: int | None) -> None:
        off = [] if guard is None else [-guard]
        chosen = [sat.new_var() for _ in self.rects]
        sat.add_clause(chosen + off)
        sat.add_at_most(chosen, 1, guard)
        for i, lit in enumerate(lits):
            covering = [var for var, rect in zip(chosen, self.rects, strict=True) if i in rect]
            sat.add_clause([-lit, *covering] + off)
            for var in covering:
                sat.add_clause([-var, lit] + off)

    def look(self, values: Sequence[int | None]) -> list[tuple[int, int]]:
        """The rectangles that fit what is decided; a cell all of them cover is 1, a cell none covers is 0."""
        ones = {i for i, v in enumerate(values) if v == 1}
        zeros = {i for i, v in enumerate(values) if v == 0}
        fit = [rect for rect in self.rects if ones <= rect and rect.isdisjoint(zeros)]
        if not fit:
            raise Broken("no rectangle of its area fits any more")
        some = frozenset.union(*fit)
        if len(fit) == 1:
            return [(i, int(i in some)) for i, v in enumerate(values) if v is None]
        return [(i, 0) for i, v in enumerate(values) if v is None and i not in some]

    def cuts(self, values: Sequence[int], lits: Sequence[int]) -> list[list[int]]:
        return []


@dataclass(frozen=True)
class Regions:
    """The ``regions`` grid as keys ``(r, c, n)``. The service writes the ``n``-th number's rectangle as id
    ``n + 1``; it reads any ids, a region being the cells that share one and belonging to
    the number it holds. A hint's partial grid names a cell's number by an id one of that number's cells carries,
    or else by ``n + 1``; ``candidates`` keeps per cell the ids still possible (pencil marks)."""

    rows: int
    cols: int
    at: tuple[Cell, ...]  # the numbers' cells
    reach: Mapping[Cell, tuple[int, ...]] = field(default_factory=dict)  # per cell the numbers that may cover it
    fields: tuple[str, ...] = ("regions",)

    @cached_property
    def _keys(self) -> tuple[Key, ...]:
        return tuple((r, c, n) for r in range(self.rows) for c in range(self.cols) for n in self.reach.get((r, c), ()))

    def keys(self) -> tuple[Key, ...]:
        return self._keys

    def _owners(self, grid: list[list[Any]], canonical: bool) -> dict[Cell, int]:
        """Each cell's number: the one number among the cells sharing its id, or the id read as ``n + 1``."""
        owner_of: dict[Any, set[int]] = {}
        for n, (r, c) in enumerate(self.at):
            if grid[r][c] is not None:
                owner_of.setdefault(grid[r][c], set()).add(n)
        owners = {}
        for r in range(self.rows):
            for c in range(self.cols):
                got = owner_of.get(grid[r][c], set())
                if len(got) == 1:
                    owners[(r, c)] = next(iter(got))
                elif canonical and not got and isinstance(grid[r][c], int) and 1 <= grid[r][c] <= len(self.at):
                    owners[(r, c)] = grid[r][c] - 1
        return owners

    def read(self, answer: Mapping[str, Any]) -> dict[Key, int]:
        grid = _grid_of(answer.get("regions"), self.rows, self.cols, "regions", ANY_ID)
        owners = self._owners(grid, canonical=False)
        return {(r, c, n): int(owners.get((r, c)) == n) for r, c, n in self.keys()}

    def write(self, ones: set[Any]) -> dict[str, Any]:
        """A cell in one number's rectangle gets its id; a cell in none or in two, an id of its own below 0."""
        held: dict[Cell, list[int]] = {}
        for r, c, n in ones:
            held.setdefault((r, c), []).append(n)
        return {"regions": [[held[(r, c)][0] + 1 if len(held.get((r, c), ())) == 1 else -1 - r * self.cols - c
                             for c in range(self.cols)] for r in range(self.rows)]}

    def cell(self, key: Key) -> Cell:
        return key[0], key[1]

    def _name(self, n: int) -> str:
        return f"the rectangle of {cell_name(self.at[n])}"

    def say(self, keys: Sequence[Key], value: int) -> str:
        by_number: dict[int, list[Cell]] = {}
        for r, c, n in keys:
            by_number.setdefault(n, []).append((r, c))
        verb = "in" if value else "not in"
        return "; ".join(f"{cells_named(cells)} {'is' if len(cells) == 1 else 'are'} {verb} {self._name(n)}"
                         for n, cells in by_number.items())

    def hint_entry(self, key: Key, value: int) -> dict[str, Any]:
        entry = {"cell": [key[0], key[1]], "value": key[2] + 1}
        return entry if value else {**entry, "eliminate": True}

    def decision(self, entry: Mapping[str, Any]) -> tuple[Key, int]:
        return (*entry["cell"], entry["value"] - 1), int(not entry.get("eliminate"))

    def state_of(self, decided: Mapping[Key, int]) -> dict[str, Any]:
        grid: list[list[int | None]] = [[None] * self.cols for _ in range(self.rows)]
        out: dict[Cell, set[int]] = {}
        for (r, c, n), value in decided.items():
            if value:
                grid[r][c] = n + 1
            else:
                out.setdefault((r, c), set()).add(n)
        marks = [[None if grid[r][c] is not None or (r, c) not in out else
                  [n + 1 for n in self.reach.get((r, c), ()) if n not in out[(r, c)]] for c in range(self.cols)]
                 for r in range(self.rows)]
        return {"regions": grid, "candidates": marks}

    def partial(self, state: Mapping[str, Any]) -> dict[Key, int]:
        grid = _partial_grid(state.get("regions"), self.rows, self.cols, "regions")
        marks = _partial_grid(state.get("candidates"), self.rows, self.cols, "candidates")
        owners = self._owners(grid, canonical=True)
        decided = {}
        for r, c, n in self.keys():
            if (r, c) in owners:
                decided[(r, c, n)] = int(owners[(r, c)] == n)
            elif marks[r][c] is not None and n + 1 not in marks[r][c]:
                decided[(r, c, n)] = 0
        return decided

    def state_fields(self, description: str) -> dict[str, Any]:
        return {"regions": (list[list[int | None]] | None, Field(None, description=f"{description}: per cell the id "
                            "of its rectangle so far (an id a number's cell carries, or n for the n-th number in "
                            "reading order), null where undecided.")),
                "candidates": (list[list[list[int] | None]] | None, Field(None, description="Per cell the numbers "
                               "(as n, reading order) whose rectangle may still cover it, or null: no marks."))}


def model(puzzle: ShikakuPuzzle) -> Model:
    """Each cell lies in one rectangle; each number's cells are one rectangle of its area around it (its own
    cell given). Built once per board: the generator models the board it draws, then grades the same board."""
    return _model(puzzle.rows, puzzle.cols, tuple(map(tuple, puzzle.numbers)))


@lru_cache(maxsize=MODELS_KEPT)
def _model(rows: int, cols: int, board: tuple[tuple[int | None, ...], ...]) -> Model:
    puzzle = ShikakuPuzzle.model_construct(rows=rows, cols=cols, numbers=[list(row) for row in board])
    at, options = numbers(puzzle), candidates(puzzle)
    reach: dict[Cell, list[int]] = {}
    reached = [sorted({at[n], *(cell for rect in rects for cell in rect_cells(rect))}) for n, rects in enumerate(options)]
    for n, cells in enumerate(reached):
        for cell in cells:
            reach.setdefault(cell, []).append(n)
    layout = Regions(puzzle.rows, puzzle.cols, tuple(at), {cell: tuple(ns) for cell, ns in reach.items()})
    rules: list[Any] = []
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            rules.append(Count(tuple((r, c, n) for n in reach.get((r, c), ())), 1, 1, "cell-in-one-rectangle",
                               f"{cell_name((r, c))} lies in one rectangle", where=((r, c),)))
    for n, ((r, c), rects) in enumerate(zip(at, options, strict=True)):
        keys = tuple((rr, cc, n) for rr, cc in reached[n])
        position = {key[:2]: i for i, key in enumerate(keys)}
        area = puzzle.numbers[r][c]
        rules.append(Count(((r, c, n),), 1, 1, "number-in-its-rectangle",
                           f"{cell_name((r, c))} holds the {area}, in its own rectangle", given=True))
        rules.append(Rectangle(keys, tuple(frozenset(position[cell] for cell in rect_cells(rect)) for rect in rects),
                               "number-area", f"the {area} at {cell_name((r, c))} has a rectangle of {area} cells",
                               where=((r, c),)))
    return Model(layout, tuple(rules))
