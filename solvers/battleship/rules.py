"""Battleship (Bimaru): the rules, the checker and the SAT model.

Rules: place the whole fleet of straight 1×k ships so that (1) ships are straight, (2) ships never
touch, not even diagonally, (3) each known row/column count is the number of ship cells in it, and
(4) revealed cells are honoured (water, or the kind of ship segment the cell is).

The SAT model has one variable per cell and one per *placement* (a ship of length k, horizontal or
vertical, at a start cell). Diagonally adjacent cells are never both ship, so every orthogonal
group of ship cells is a straight line and groups never touch; a placement forces its k cells to be
ship and the cells past its two ends to be water, so it is exactly one such group; a ship cell needs
some placement covering it; each length has exactly its fleet count of placements. So a model is
exactly a legal fleet layout, and two layouts differ exactly when their ship grids differ:
uniqueness is a second model on the cell variables. Each revealed kind is one literal (a placement,
or an OR of placements), which lets the generator pass revealed cells as assumptions to one
incremental solver.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from solvers import grid
from solvers.common import (
    Cell,
    Deadline,
    InvalidInput,
    SolveOutcome,
    Violation,
    at,
    grid_shape_violations,
    violation,
)
from solvers.sat import CadicalBackend, SatBackend, block, count_models, make_backend

BACKENDS = ("cadical", "z3")  # the first is the default: bench/bench_battleship.py --backends compares
DEFAULT_BACKEND = BACKENDS[0]
MAX_SIDE = 30

Kind = Literal["water", "sub", "top", "bottom", "left", "right", "middle"]
KINDS: tuple[str, ...] = ("water", "sub", "top", "bottom", "left", "right", "middle")
Grid = list[list[int]]


def standard_fleet(rows: int, cols: int) -> list[int]:
    """The standard fleet that suits a grid: b = 3 up to 7×7, 4 up to 11×11, 5 beyond.

    The fleet of size b has b+1−k ships of length k for k = 1..b (b = 4: 4, 3, 3, 2, 2, 2, 1, 1, 1, 1).
    Rectangles go by area (7×12 is like 9×9, not like 12×12, whose fleet would barely fit it).
    """
    area = rows * cols
    b = 3 if area <= 7 * 7 else 4 if area <= 11 * 11 else 5
    return [k for k in range(b, 0, -1) for _ in range(b + 1 - k)]


def fleet_footprint(fleet: Sequence[int]) -> int:
    """Cells the fleet needs in the (R+1)×(C+1) grid: each ship with its right/bottom water is a
    2×(k+1) block, and the blocks of non-touching ships never overlap."""
    return sum(2 * (k + 1) for k in fleet)


class Revealed(BaseModel):
    cell: tuple[int, int] = Field(description="[row, col] of the revealed cell.")
    kind: Kind = Field(
        description="`water`, or the ship segment: `sub` (a 1-cell ship), `top`/`bottom`/`left`/`right` "
        "(the end of a ship at that side of its body) or `middle`."
    )


class BattleshipPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE, description="R: number of rows.")
    cols: int = Field(ge=1, le=MAX_SIDE, description="C: number of columns.")
    fleet: list[int] = Field(description="Ship lengths, one entry per ship, e.g. [4, 3, 3, 2, 2, 2, 1, 1, 1, 1].")
    row_counts: list[int | None] = Field(description="Ship cells in each row (R entries); null = not given.")
    col_counts: list[int | None] = Field(description="Ship cells in each column (C entries); null = not given.")
    revealed: list[Revealed] = Field(default_factory=list, description="Cells shown at the start.")

    @field_validator("fleet")
    @classmethod
    def _fleet_sorted(cls, fleet: list[int]) -> list[int]:
        return sorted(fleet, reverse=True)

    @model_validator(mode="after")
    def _consistent(self) -> BattleshipPuzzle:
        problems = []
        longest = max(self.rows, self.cols)
        bad = sorted({k for k in self.fleet if not 1 <= k <= longest})
        if bad:
            problems.append(f"fleet has ship lengths {bad}; each must be 1..{longest} on a {self.rows}×{self.cols} grid")
        for name, counts, size, other in (
            ("row_counts", self.row_counts, self.rows, self.cols),
            ("col_counts", self.col_counts, self.cols, self.rows),
        ):
            if len(counts) != size:
                problems.append(f"`{name}` must have {size} entries, got {len(counts)}")
            elif any(n is not None and not 0 <= n <= other for n in counts):
                problems.append(f"`{name}` entries must be null or 0..{other}")
        seen: set[Cell] = set()
        for item in self.revealed:
            r, c = item.cell
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                problems.append(f"revealed cell [{r}, {c}] is outside the {self.rows}×{self.cols} grid")
            elif (r, c) in seen:
                problems.append(f"revealed cell [{r}, {c}] is given more than once")
            seen.add((r, c))
        if problems:
            raise ValueError("; ".join(problems))
        return self


class BattleshipAnswer(BaseModel):
    ships: list[list[int]] = Field(description="R×C of 0 (water) / 1 (ship).")


# ---------------------------------------------------------------- reading a ship grid


def ship_groups(ships: Grid) -> list[list[Cell]]:
    """Orthogonally connected groups of ship cells, each sorted, in reading order."""
    rows, cols = len(ships), len(ships[0]) if ships else 0
    return grid.connected_regions(rows, cols, lambda cell: bool(ships[cell[0]][cell[1]]))


def is_straight(group: list[Cell]) -> bool:
    return len({r for r, _ in group}) == 1 or len({c for _, c in group}) == 1


def segment_kind(ships: Grid, r: int, c: int) -> str | None:
    """What a revealed cell would show: `water`, a segment kind, or None for a bent group's cell."""
    if not ships[r][c]:
        return "water"
    rows, cols = len(ships), len(ships[0])

    def ship(rr: int, cc: int) -> bool:
        return 0 <= rr < rows and 0 <= cc < cols and bool(ships[rr][cc])

    up, down, left, right = ship(r - 1, c), ship(r + 1, c), ship(r, c - 1), ship(r, c + 1)
    return {
        (False, False, False, False): "sub",
        (False, True, False, False): "top",
        (True, False, False, False): "bottom",
        (False, False, False, True): "left",
        (False, False, True, False): "right",
        (True, True, False, False): "middle",
        (False, False, True, True): "middle",
    }.get((up, down, left, right))


def check(puzzle: BattleshipPuzzle, answer: BattleshipAnswer) -> list[Violation]:
    """Every broken rule with its cells; raises InvalidInput if the answer has the wrong shape."""
    rows, cols, ships = puzzle.rows, puzzle.cols, answer.ships
    shape = grid_shape_violations(ships, rows, cols, "ships", {0, 1})
    if shape:
        raise InvalidInput("; ".join(v.message for v in shape), shape)
    found: list[Violation] = []

    def add(rule: str, message: str, cells: list[Cell]) -> None:
        found.append(violation(rule, message, cells))

    groups = ship_groups(ships)
    group_of = {cell: i for i, group in enumerate(groups) for cell in group}
    for group in groups:
        if not is_straight(group):
            add("ship-not-straight", f"Ship cells from {at(group[0])} form a bent shape, not one straight ship", group)
    for r in range(rows - 1):
        for c in range(cols):
            for cc in (c - 1, c + 1):
                if 0 <= cc < cols and ships[r][c] and ships[r + 1][cc] and group_of[(r, c)] != group_of[(r + 1, cc)]:
                    add("ships-touch", f"Ships touch diagonally at {at((r, c))} and {at((r + 1, cc))}", [(r, c), (r + 1, cc)])

    wanted = Counter(puzzle.fleet)
    by_length: dict[int, list[Cell]] = {}
    have: Counter[int] = Counter()
    for group in filter(is_straight, groups):
        by_length.setdefault(len(group), []).extend(group)
        have[len(group)] += 1
    for length in sorted(set(have) | set(wanted), reverse=True):
        cells = by_length.get(length, [])
        if length not in wanted:
            add("ship-length-not-in-fleet", f"{have[length]} ship(s) of length {length}; the fleet has none", cells)
        elif have[length] != wanted[length]:
            message = f"The fleet has {wanted[length]} ship(s) of length {length}; the answer has {have[length]}"
            add("fleet-count-mismatch", message, cells)

    by_axis = (("row", puzzle.row_counts, grid.row_lines(rows, cols)), ("col", puzzle.col_counts, grid.column_lines(rows, cols)))
    for axis, counts, lines in by_axis:
        for i, (want, line) in enumerate(zip(counts, lines, strict=True)):
            got = sum(ships[r][c] for r, c in line)
            if want is not None and got != want:
                add(f"{axis}-count-mismatch", f"{axis.capitalize()} {i + 1} should have {want} ship cells, has {got}", line)

    for item in puzzle.revealed:
        cell = item.cell
        actual = segment_kind(ships, *cell)
        if item.kind == actual:
            continue
        if item.kind == "water":
            add("revealed-water-has-ship", f"{at(cell).capitalize()} is revealed as water but holds a ship", [cell])
        elif actual == "water":
            add("revealed-ship-missing", f"{at(cell).capitalize()} is revealed as a ship ({item.kind}) but is water", [cell])
        else:
            shown = f"`{actual}`" if actual else "part of a bent shape"
            add("revealed-wrong-segment", f"{at(cell).capitalize()} is revealed as `{item.kind}` but is {shown}", [cell])
    return found


# ---------------------------------------------------------------- the SAT model


@dataclass(frozen=True)
class Placement:
    var: int
    length: int
    vertical: bool
    row: int
    col: int

    def cells(self) -> list[Cell]:
        if self.vertical:
            return [(self.row + i, self.col) for i in range(self.length)]
        return [(self.row, self.col + i) for i in range(self.length)]


class BattleshipModel:
    """Cell and placement variables for one grid, fleet and counts; revealed cells go on top."""

    def __init__(
        self,
        backend: SatBackend,
        rows: int,
        cols: int,
        fleet: Sequence[int],
        row_counts: Sequence[int | None],
        col_counts: Sequence[int | None],
    ):
        self.backend, self.rows, self.cols = backend, rows, cols
        self.x = [[backend.new_var() for _ in range(cols)] for _ in range(rows)]
        self.cells = [v for row in self.x for v in row]
        self.false = backend.new_var()
        backend.add_clause([-self.false])
        # No diagonal contact. With it, a placement needs only its body and its two ends: any
        # bent or touching group has a diagonal pair, and the sides of a ship are diagonal to it.
        for r in range(rows - 1):
            for c in range(cols):
                for cc in (c - 1, c + 1):
                    if 0 <= cc < cols:
                        backend.add_clause([-self.x[r][c], -self.x[r + 1][cc]])
        self.covering: dict[Cell, list[Placement]] = {}  # the placements that cover each cell
        for length in sorted(set(fleet), reverse=True):
            of_length = []
            for p in self._positions(length):
                of_length.append(p.var)
                self._place(p)
                for cell in p.cells():
                    self.covering.setdefault(cell, []).append(p)
            _count(backend, of_length, fleet.count(length))
        for r in range(rows):
            for c in range(cols):
                backend.add_clause([-self.x[r][c], *(p.var for p in self.covering.get((r, c), []))])
        for counts, lines in ((row_counts, grid.row_lines(rows, cols)), (col_counts, grid.column_lines(rows, cols))):
            for want, line in zip(counts, lines, strict=True):
                if want is not None:
                    _count(backend, [self.x[r][c] for r, c in line], want)
        self._kind_lits: dict[tuple[int, int, str], int] = {}

    def _positions(self, length: int) -> Iterator[Placement]:
        for vertical in (False, True) if length > 1 else (False,):
            height, width = (length, 1) if vertical else (1, length)
            for r in range(self.rows - height + 1):
                for c in range(self.cols - width + 1):
                    yield Placement(self.backend.new_var(), length, vertical, r, c)

    def _place(self, p: Placement) -> None:
        """A placement's cells are ship and the cells just past its ends are water (a sub's four
        neighbours: a one-cell ship has no axis)."""
        x, var = self.x, p.var
        for r, c in p.cells():
            self.backend.add_clause([-var, x[r][c]])
        dr, dc = (1, 0) if p.vertical else (0, 1)
        ends = [(p.row - dr, p.col - dc), (p.row + dr * p.length, p.col + dc * p.length)]
        if p.length == 1:
            ends += [(p.row - 1 + dr, p.col - 1 + dc), (p.row + 1 - dr, p.col + 1 - dc)]
        for r, c in ends:
            if 0 <= r < self.rows and 0 <= c < self.cols:
                self.backend.add_clause([-var, -x[r][c]])

    def kind_literal(self, r: int, c: int, kind: str) -> int:
        """One literal that is true exactly when cell (r, c) shows ``kind`` (cached; may add a clause)."""
        key = (r, c, kind)
        if key not in self._kind_lits:
            self._kind_lits[key] = self._make_kind_literal(r, c, kind)
        return self._kind_lits[key]

    def _make_kind_literal(self, r: int, c: int, kind: str) -> int:
        if kind == "water":
            return -self.x[r][c]
        options = [p.var for p in self.covering.get((r, c), []) if _shows(p, r, c, kind)]
        if not options:
            return self.false
        if len(options) == 1:
            return options[0]
        lit = self.backend.new_var()
        self.backend.add_clause([-lit, *options])
        return lit

    def grid(self, model: set[int]) -> Grid:
        return [[int(v in model) for v in row] for row in self.x]

    def exclude(self, ships: Grid) -> None:
        """Forbid one particular ship grid."""
        chosen = {self.x[r][c] for r in range(self.rows) for c in range(self.cols) if ships[r][c]}
        self.backend.add_clause(block(chosen, self.cells))


def _shows(p: Placement, r: int, c: int, kind: str) -> bool:
    """Whether placement ``p``, which covers cell (r, c), puts segment ``kind`` there."""
    i = (r - p.row) + (c - p.col)  # the cell's index along the ship
    if kind == "sub":
        return p.length == 1
    if kind == "middle":
        return 0 < i < p.length - 1
    if p.length == 1:
        return False
    first, last = ("top", "bottom") if p.vertical else ("left", "right")
    return (kind == first and i == 0) or (kind == last and i == p.length - 1)


def _count(backend: SatBackend, lits: list[int], k: int) -> None:
    """sum(lits) == k. z3 takes it natively; for CaDiCaL a sequential counter, O(n·k) clauses: the
    shared totalizer is O(n²) on the 100-odd placements of one ship length. (Exact fleet counts,
    though implied by at-most counts once the rows are all known, make second solutions faster:
    bench/bench_battleship.py.)"""
    if not isinstance(backend, CadicalBackend):
        backend.add_exactly(lits, k)
        return
    if not 0 <= k <= len(lits):
        backend.add_clause([])
        return
    from pysat.card import CardEnc, EncType

    cnf = CardEnc.equals(lits=lits, bound=k, top_id=backend.top, encoding=EncType.seqcounter)
    backend.top = max(backend.top, cnf.nv)
    for clause in cnf.clauses:
        backend.add_clause(clause)


def obviously_impossible(puzzle: BattleshipPuzzle) -> bool:
    """Cheap proofs of "no solution" so hopeless puzzles answer at once, before any search."""
    total = sum(puzzle.fleet)
    if fleet_footprint(puzzle.fleet) > (puzzle.rows + 1) * (puzzle.cols + 1):
        return True
    for counts in (puzzle.row_counts, puzzle.col_counts):
        known = [n for n in counts if n is not None]
        if sum(known) > total or (len(known) == len(counts) and sum(known) != total):
            return True
    return False


def build_model(sat: SatBackend, puzzle: BattleshipPuzzle) -> BattleshipModel:
    """The whole puzzle as hard constraints: fleet, counts and revealed cells."""
    model = BattleshipModel(sat, puzzle.rows, puzzle.cols, puzzle.fleet, puzzle.row_counts, puzzle.col_counts)
    for item in puzzle.revealed:
        sat.add_clause([model.kind_literal(*item.cell, item.kind)])
    return model


def solve(
    puzzle: BattleshipPuzzle, limit: int, deadline: Deadline, backend: str | None = None, keep: int | None = None
) -> SolveOutcome:
    if obviously_impossible(puzzle):
        return SolveOutcome([], True)
    with make_backend(backend or DEFAULT_BACKEND) as sat:
        model = build_model(sat, puzzle)
        found, count, complete = count_models(sat, model.cells, max(limit, 2), deadline, keep=keep)
        return SolveOutcome([{"ships": model.grid(m)} for m in found], complete, count=count)
