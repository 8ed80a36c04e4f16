"""Battleship as a person solves it: techniques in levels, for grading and hints.

The tiers follow the Bimaru logical solver's (bilbo-22/bimaru-logical-solver): counts and neighbours
first, then ship shapes and the fleet, then contradiction; the shared layer restarts from the
simplest technique after every step. Fleet reasoning works on *placements*: every way a ship of a
given length could still lie on the grid (no water under it, no ship cell touching it, room left in
the counts of its lines). The ships of a solution that are not finished yet are such placements, so
a cell no placement covers is water, a cell every placement of a length covers is ship, and a length
with as many placements as ships left fills them all.

Cells are flat indices; masks are Python ints with bit ``i`` for cell ``i``, so testing a placement
against the grid is two ANDs.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from solvers.battleship import kernel
from solvers.battleship.rules import BattleshipPuzzle
from solvers.common import Cell, Deadline, compile_lock
from solvers.techniques.human import (
    Contradiction,
    Grade,
    GridState,
    HumanSolver,
    Level,
    Step,
    Technique,
    Trial,
    Trials,
    by_contradiction,
    cell_name,
    cells_named,
    contradiction_step,
    either_way,
    either_way_step,
    grid_difficulty,
)

SHIP, WATER = 1, 0
VALUE_NAMES = {SHIP: "ship", WATER: "water"}
KIND_WORDS = {"water": "water", "sub": "a one-cell ship", "top": "the top end of a ship",
              "bottom": "the bottom end of a ship", "left": "the left end of a ship",
              "right": "the right end of a ship", "middle": "the middle of a ship"}


@dataclass(frozen=True)
class Placement:
    """One way a ship of ``length`` could lie (its cells, first to last)."""

    length: int
    cells: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class Board:
    """What the techniques look up again and again, computed once per puzzle (flat cell indices).

    The placements the revealed cells allow are also kept as arrays of cell indices, so numpy tests them
    all against a state at once."""

    rows: int
    cols: int
    fleet: tuple[int, ...]  # longest first
    wanted: tuple[tuple[int, int], ...]  # (length, ships of that length), longest first
    lines: tuple[tuple[int, ...], ...]  # rows, then columns
    counts: tuple[int | None, ...]  # per line
    lines_of: tuple[tuple[int, int], ...]  # per cell: its row line and its column line
    orthogonal: tuple[tuple[int, ...], ...]
    diagonal: tuple[tuple[int, ...], ...]
    revealed: dict[int, str]
    placements: tuple[Placement, ...]
    covers: np.ndarray  # (placements, cells) bool: the cells each placement covers
    cells_at: np.ndarray  # (placements, longest): cell indices, padded with the index of an extra cell
    ring_at: np.ndarray  # (placements, …): the ring around, which must not be ship, padded the same way
    ends_at: np.ndarray  # (placements, 4): the cells just past the ends (every side of a one-cell ship)
    lengths: np.ndarray  # per placement
    line_of: np.ndarray  # per placement: its line (index into ``lines``), or len(lines) for a one-cell ship
    line_cells: np.ndarray  # (lines, longest line): cell indices, padded
    room: np.ndarray  # per line, plus one unlimited: its count (a big number where not given)

    def cell(self, i: int) -> Cell:
        return divmod(i, self.cols)

    def line_name(self, line: int) -> str:
        return f"row {line + 1}" if line < self.rows else f"column {line - self.rows + 1}"

    @property
    def longest(self) -> int:
        return self.fleet[0]

    @cached_property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """The board as the kernel reads it (``kernel.BOARD_FIELDS``); a board with other revealed cells
        (``dataclasses.replace``) is a new object, so it gets its own."""
        size = self.rows * self.cols
        revealed = np.full(size, kernel.NO_CLUE, np.int64)
        for i, kind in self.revealed.items():
            revealed[i] = kernel.KIND_CODES[kind]
        wanted = np.zeros(self.longest + 1, np.int64)
        for length, count in self.wanted:
            wanted[length] = count
        return (np.array([self.rows, self.cols, self.longest, len(self.lines)], np.int64), revealed,
                np.array([-1 if n is None else n for n in self.counts], np.int64), self.line_cells,
                *neighbour_arrays(self.rows, self.cols), self.cells_at, self.ring_at, self.ends_at,
                self.lengths, self.line_of, wanted, self.room)


def shows(length: int, vertical: bool, index: int) -> str:
    """The segment kind a ship shows at its ``index``-th cell."""
    if length == 1:
        return "sub"
    if index == 0:
        return "top" if vertical else "left"
    if index == length - 1:
        return "bottom" if vertical else "right"
    return "middle"


@dataclass(frozen=True)
class Shape:
    placement: Placement
    kinds: tuple[str, ...]  # the segment kind shown at each cell
    ring: frozenset[int]
    ends: tuple[int, ...]
    line: int | None


@lru_cache(maxsize=64)
def geometry(rows: int, cols: int, lengths: tuple[int, ...]) -> tuple[Shape, ...]:
    """Every placement of the given lengths on an empty grid."""
    found = []
    for length in lengths:
        for vertical in (False, True) if length > 1 else (False,):
            height, width = (length, 1) if vertical else (1, length)
            for r in range(rows - height + 1):
                for c in range(cols - width + 1):
                    cells = tuple((r + k) * cols + c if vertical else r * cols + c + k for k in range(length))
                    box = {rr * cols + cc for rr in range(max(r - 1, 0), min(r + height + 1, rows))
                           for cc in range(max(c - 1, 0), min(c + width + 1, cols))}
                    if length == 1:
                        ends = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
                    elif vertical:
                        ends = [(r - 1, c), (r + length, c)]
                    else:
                        ends = [(r, c - 1), (r, c + length)]
                    found.append(Shape(Placement(length, cells), tuple(shows(length, vertical, k) for k in range(length)),
                                       frozenset(box - set(cells)),
                                       tuple(rr * cols + cc for rr, cc in ends if 0 <= rr < rows and 0 <= cc < cols),
                                       None if length == 1 else rows + c if vertical else r))
    return tuple(found)


@dataclass(frozen=True, eq=False)
class Layout:
    """What a grid shape and its fleet's lengths give before any clue, computed once per shape: every
    placement (as ``geometry`` lists them) with its arrays, and the grid's lines and neighbours."""

    shapes: tuple[Shape, ...]
    kinds: np.ndarray  # (placements, longest): the kind code each cell shows, padded
    covers: np.ndarray
    cells_at: np.ndarray
    ring_at: np.ndarray
    ends_at: np.ndarray
    lengths: np.ndarray
    line_of: np.ndarray
    lines: tuple[tuple[int, ...], ...]
    lines_of: tuple[tuple[int, int], ...]
    orthogonal: tuple[tuple[int, ...], ...]
    diagonal: tuple[tuple[int, ...], ...]
    line_cells: np.ndarray


@lru_cache(maxsize=64)
def layout(rows: int, cols: int, lengths: tuple[int, ...]) -> Layout:
    size = rows * cols
    lines = tuple(tuple(r * cols + c for c in range(cols)) for r in range(rows)) + tuple(
        tuple(r * cols + c for r in range(rows)) for c in range(cols))

    def around(i: int, steps: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        r, c = divmod(i, cols)
        return tuple((r + dr) * cols + c + dc for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < cols)

    shapes = geometry(rows, cols, lengths)
    covers = np.zeros((len(shapes), size), dtype=bool)
    for k, s in enumerate(shapes):
        covers[k, list(s.placement.cells)] = True
    return Layout(
        shapes, padded([[kernel.KIND_CODES[kind] for kind in s.kinds] for s in shapes], kernel.NO_CLUE - 1), covers,
        padded([s.placement.cells for s in shapes], size), padded([tuple(s.ring) for s in shapes], size),
        padded([s.ends for s in shapes], size), np.array([s.placement.length for s in shapes], dtype=np.int64),
        np.array([len(lines) if s.line is None else s.line for s in shapes], dtype=np.int64),
        lines, tuple((i // cols, rows + i % cols) for i in range(size)),
        tuple(around(i, ((-1, 0), (1, 0), (0, -1), (0, 1))) for i in range(size)),
        tuple(around(i, ((-1, -1), (-1, 1), (1, -1), (1, 1))) for i in range(size)),
        padded(lines, size))


def board_of(puzzle: BattleshipPuzzle) -> Board:
    """The board of a puzzle: the placements its revealed cells allow (each cell shows its revealed kind,
    no revealed ship cell in the ring around), kept in ``geometry``'s order."""
    rows, cols = puzzle.rows, puzzle.cols
    size = rows * cols
    revealed = {item.cell[0] * cols + item.cell[1]: item.kind for item in puzzle.revealed}
    wanted = Counter(puzzle.fleet)
    shape = layout(rows, cols, tuple(sorted(wanted, reverse=True)))
    code = np.full(size + 1, kernel.NO_CLUE, np.int64)  # one more: the padding cell, never revealed
    for i, kind in revealed.items():
        code[i] = kernel.KIND_CODES[kind]
    shown = code[shape.cells_at]
    keep = ~((shown != kernel.NO_CLUE) & (shown != shape.kinds)).any(axis=1)
    keep &= ~((code > kernel.KIND_CODES["water"])[shape.ring_at]).any(axis=1)
    chosen = np.flatnonzero(keep)
    counts = tuple(puzzle.row_counts) + tuple(puzzle.col_counts)
    return Board(
        rows, cols, tuple(puzzle.fleet), tuple(sorted(wanted.items(), reverse=True)), shape.lines, counts,
        shape.lines_of, shape.orthogonal, shape.diagonal,
        revealed, tuple(shape.shapes[k].placement for k in chosen), shape.covers[chosen],
        shape.cells_at[chosen], shape.ring_at[chosen], shape.ends_at[chosen], shape.lengths[chosen],
        shape.line_of[chosen], shape.line_cells,
        np.array([size if n is None else n for n in counts] + [size], dtype=np.int64),
    )


@lru_cache(maxsize=64)
def neighbour_arrays(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """The orthogonal and diagonal neighbours of every cell as the kernel reads them (padded with -1)."""
    shape = layout(rows, cols, (1,))
    return padded(shape.orthogonal, -1), padded(shape.diagonal, -1)


def padded(rows: Sequence[Sequence[int]], pad: int) -> np.ndarray:
    width = max((len(row) for row in rows), default=0)
    out = np.full((len(rows), max(width, 1)), pad, dtype=np.int64)
    for k, row in enumerate(rows):
        out[k, :len(row)] = row
    return out


def start(board: Board) -> GridState:
    return GridState(board.rows, board.cols)


def _cells(board: Board, indices: Iterable[int]) -> list[Cell]:
    return [board.cell(i) for i in indices]


def _stretch(board: Board, cells: Sequence[int]) -> str:
    """A ship's cells the way a player names them: ``r3c5–r3c7`` (or one cell)."""
    first, last = board.cell(min(cells)), board.cell(max(cells))
    return cell_name(first) if first == last else f"{cell_name(first)}–{cell_name(last)}"


# ---------------------------------------------------------------- level 1: counts and neighbours


def revealed_shape(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """A revealed cell and what its shape shows of its neighbours."""
    values, cols, steps = state.values, board.cols, []
    if near is None:
        todo: Iterable[int] = board.revealed
    else:
        todo = {j for i in near for j in (i, *board.orthogonal[i]) if j in board.revealed}
    for i in todo:
        kind = board.revealed[i]
        r, c = divmod(i, cols)
        implied = [(i, WATER if kind == "water" else SHIP)]
        if kind != "water":
            up, down, left, right = ((r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
            ship_sides: list[Cell] = []
            water_sides: list[Cell] = []
            if kind == "sub":
                water_sides = [up, down, left, right]
            elif kind in ("top", "bottom", "left", "right"):
                toward = {"top": down, "bottom": up, "left": right, "right": left}[kind]
                ship_sides = [toward]
                water_sides = [x for x in (up, down, left, right) if x != toward]
            else:
                axis = _middle_axis(board, values, r, c)
                if axis is not None:
                    ship_sides, water_sides = ([left, right], [up, down]) if axis == "row" else ([up, down], [left, right])
            for value, sides in ((SHIP, ship_sides), (WATER, water_sides)):
                for rr, cc in sides:
                    inside = 0 <= rr < board.rows and 0 <= cc < cols
                    if not inside and value == SHIP:
                        raise Contradiction(f"{cell_name((r, c))} is revealed as {KIND_WORDS[kind]}, but the ship "
                                            f"would run off the grid", [(r, c)])
                    if inside:
                        implied.append((rr * cols + cc, value))
        broken = [j for j, v in implied if values[j] is not None and values[j] != v]
        if broken:
            raise Contradiction(f"{cell_name((r, c))} is revealed as {KIND_WORDS[kind]}, but "
                                f"{cell_name(board.cell(broken[0]))} is {VALUE_NAMES[values[broken[0]]]}",
                                [(r, c), board.cell(broken[0])])
        new = [(board.cell(j), v) for j, v in implied if values[j] is None]
        if new:
            said = [f"{cells_named(x for x, v in new if v == value)} {'is' if n == 1 else 'are'} {VALUE_NAMES[value]}"
                    for value in (SHIP, WATER) if (n := sum(v == value for _, v in new))]
            steps.append(Step("revealed", f"{cell_name((r, c))} is revealed as {KIND_WORDS[kind]}: "
                                          f"{'; '.join(said)}.", tuple(new), ((r, c),)))
    return steps


def _middle_axis(board: Board, values: Sequence[int | None], r: int, c: int) -> Literal["row", "column"] | None:
    """The direction of the ship through a revealed middle cell, once the grid or a neighbour shows it."""
    cols = board.cols
    at_row_edge, at_col_edge = r in (0, board.rows - 1), c in (0, cols - 1)
    if at_row_edge and at_col_edge:
        raise Contradiction(f"{cell_name((r, c))} is revealed as the middle of a ship, but sits in a corner", [(r, c)])
    if at_row_edge:
        return "row"
    if at_col_edge:
        return "column"
    vertical = [values[(r - 1) * cols + c], values[(r + 1) * cols + c]]
    horizontal = [values[r * cols + c - 1], values[r * cols + c + 1]]
    if SHIP in horizontal or WATER in vertical:
        return "row"
    if SHIP in vertical or WATER in horizontal:
        return "column"
    return None


def _line_tally(board: Board, values: Sequence[int | None], line: int) -> tuple[int, list[int]]:
    ships, open_cells = 0, []
    for i in board.lines[line]:
        v = values[i]
        if v is None:
            open_cells.append(i)
        elif v == SHIP:
            ships += 1
    return ships, open_cells


def _counted_lines(board: Board, values: Sequence[int | None], lines: Iterable[int]
                   ) -> Iterator[tuple[int, int, int, list[int]]]:
    """Each of ``lines`` that has a count: the line, its count, its ship cells and its undecided cells."""
    for line in lines:
        want = board.counts[line]
        if want is not None:
            yield line, want, *_line_tally(board, values, line)


def _lines_near(board: Board, near: Iterable[int] | None) -> Iterable[int]:
    if near is None:
        return range(len(board.lines))
    return sorted({line for i in near for line in board.lines_of[i]})


def full_line(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """A line holding all its ship cells: the rest is water."""
    steps = []
    for line, want, ships, open_cells in _counted_lines(board, state.values, _lines_near(board, near)):
        name = board.line_name(line)
        if ships > want:
            raise Contradiction(f"{name} has {ships} ship cells, more than its count {want}",
                                [board.cell(i) for i in board.lines[line] if state.values[i] == SHIP])
        if ships == want and open_cells:
            has = "has no ship cells" if want == 0 else f"already has its {want} ship cell{'s' * (want > 1)}"
            steps.append(Step("full-line", f"{name.capitalize()} {has}: {cells_named(_cells(board, open_cells))} "
                                           f"{'is' if len(open_cells) == 1 else 'are'} water.",
                              tuple((board.cell(i), WATER) for i in open_cells),
                              tuple(board.cell(i) for i in board.lines[line] if state.values[i] == SHIP)))
    return steps


def fill_line(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """A line needing as many ship cells as it has undecided cells: they are all ship."""
    steps = []
    for line, want, ships, open_cells in _counted_lines(board, state.values, _lines_near(board, near)):
        need, name = want - ships, board.line_name(line)
        if need > len(open_cells):
            raise Contradiction(f"{name} needs {need} more ship cells but has only {len(open_cells)} undecided",
                                [board.cell(i) for i in board.lines[line]])
        if need > 0 and need == len(open_cells):
            steps.append(Step("fill-line", f"{name.capitalize()} needs {need} more ship cell{'s' * (need > 1)} and "
                                           f"has exactly {need} undecided: {cells_named(_cells(board, open_cells))} "
                                           f"{'is' if need == 1 else 'are'} ship.",
                              tuple((board.cell(i), SHIP) for i in open_cells), (board.cell(open_cells[0]),)))
    return steps


def diagonal_water(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """Ships never touch, not even at corners: a ship cell's diagonal neighbours are water."""
    values, steps = state.values, []
    for i in (j for j, v in enumerate(values) if v == SHIP) if near is None else (j for j in near if values[j] == SHIP):
        around = []
        for j in board.diagonal[i]:
            if values[j] is None:
                around.append(j)
            elif values[j] == SHIP:
                raise Contradiction(f"ship cells {cell_name(board.cell(i))} and {cell_name(board.cell(j))} touch "
                                    f"at a corner", [board.cell(i), board.cell(j)])
        if around:
            steps.append(Step("diagonal", f"{cell_name(board.cell(i))} is ship, and ships never touch at a corner: "
                                          f"{cells_named(_cells(board, around))} "
                                          f"{'is' if len(around) == 1 else 'are'} water.",
                              tuple((board.cell(j), WATER) for j in around), (board.cell(i),)))
    return steps


def ship_group(board: Board, values: Sequence[int | None], start_cell: int) -> list[int]:
    """The ship cells orthogonally connected to ``start_cell``."""
    group, stack, seen = [], [start_cell], {start_cell}
    while stack:
        i = stack.pop()
        group.append(i)
        for j in board.orthogonal[i]:
            if values[j] == SHIP and j not in seen:
                seen.add(j)
                stack.append(j)
    return sorted(group)


def _group_ends(board: Board, group: Sequence[int]) -> list[int]:
    """The two cells just past a straight group of two or more along its direction (inside the grid)."""
    cols = board.cols
    (r0, c0), (r1, c1) = board.cell(group[0]), board.cell(group[-1])
    dr, dc = (1, 0) if c0 == c1 else (0, 1)
    ends = [(r0 - dr, c0 - dc), (r1 + dr, c1 + dc)]
    return [r * cols + c for r, c in ends if 0 <= r < board.rows and 0 <= c < cols]


def longest_ship(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """A straight run of ship cells as long as the fleet's longest ship is that ship: its ends are water."""
    values, steps, seen = state.values, [], set()
    if board.longest < 2:
        return []
    for i in (j for j, v in enumerate(values) if v == SHIP) if near is None else (j for j in near if values[j] == SHIP):
        if i in seen:
            continue
        group = ship_group(board, values, i)
        seen.update(group)
        if len(group) > board.longest:
            raise Contradiction(f"the ship cells {_stretch(board, group)} make a ship longer than the longest "
                                f"in the fleet ({board.longest})", _cells(board, group))
        if len(group) == board.longest:
            ends = [j for j in _group_ends(board, group) if values[j] is None]
            if ends:
                steps.append(Step("longest-ship", f"{_stretch(board, group)} is a whole {board.longest}-cell ship, "
                                                  f"the longest in the fleet: {cells_named(_cells(board, ends))} "
                                                  f"{'is' if len(ends) == 1 else 'are'} water.",
                                  tuple((board.cell(j), WATER) for j in ends), tuple(_cells(board, group))))
    return steps


# ---------------------------------------------------------------- level 2: ship shapes and the fleet


@dataclass
class Fleet:
    """The fleet as it stands in one state: the unfinished ship groups, the ships still to place per
    length, and every placement where they could still go (indices into ``Board.placements``)."""

    undecided: np.ndarray  # bool per cell
    open_groups: list[list[int]]
    remaining: dict[int, int]  # length -> ships not yet finished
    legal: np.ndarray


_looked = threading.local()


def fleet_of(board: Board, state: GridState) -> Fleet:
    """The fleet in this state, computed once per state for the techniques that share it."""
    key = tuple(state.values)
    if getattr(_looked, "board", None) is board and _looked.key == key:
        return _looked.fleet
    fleet = _fleet(board, state.values)
    _looked.board, _looked.key, _looked.fleet = board, key, fleet
    return fleet


def _fleet(board: Board, values: Sequence[int | None]) -> Fleet:
    finished: Counter[int] = Counter()
    open_groups, seen = [], set()
    for i, v in enumerate(values):
        if v != SHIP or i in seen:
            continue
        group = ship_group(board, values, i)
        seen.update(group)
        if len({j // board.cols for j in group}) > 1 and len({j % board.cols for j in group}) > 1:
            raise Contradiction(f"the ship cells {cells_named(_cells(board, group[:4]))} are not in a straight line",
                                _cells(board, group))
        if len(group) > board.longest:
            raise Contradiction(f"the ship cells {_stretch(board, group)} make a ship longer than the longest "
                                f"in the fleet ({board.longest})", _cells(board, group))
        closing = board.orthogonal[i] if len(group) == 1 else _group_ends(board, group)
        if all(values[j] == WATER for j in closing):
            finished[len(group)] += 1
        else:
            open_groups.append(group)
    remaining = {}
    for length, count in board.wanted:
        if finished[length] > count:
            raise Contradiction(f"there are {finished[length]} finished ships of length {length}, the fleet has "
                                f"{count}")
        if count > finished[length]:
            remaining[length] = count - finished[length]
    extra = sorted(set(finished) - {length for length, _ in board.wanted})
    if extra:
        raise Contradiction(f"a finished ship of length {extra[0]} is not in the fleet")

    # The legal placements from the kernel: the rules it checks again have all been checked above.
    state = as_array(values)
    work = _scratch(board)
    ok = kernel.fleet(board.arrays, state, work)
    assert ok, "the kernel sees a broken rule the checks above did not"
    undecided = state[:-1] == kernel.UNDECIDED
    return Fleet(undecided, open_groups, remaining, np.flatnonzero(work[2]))


def as_array(values: Sequence[int | None]) -> np.ndarray:
    """A state as the kernel reads it: one int8 per cell, then the padding cell."""
    return np.array([*(kernel.UNDECIDED if v is None else v for v in values), kernel.PAD], np.int8)


class _Work(threading.local):
    """One thread's kernel scratch space (per board shape) and the trials of the state it looks at."""

    def __init__(self) -> None:
        self.shape: tuple[int, int, int] | None = None
        self.work: tuple[np.ndarray, ...] = ()
        self.board: Board | None = None
        self.key: tuple[int | None, ...] = ()
        self.trials: tuple[np.ndarray, ...] = ()
        self.values = np.zeros(0, np.int8)
        self.order: np.ndarray | None = None  # the state's contradiction candidates, once asked for


_work = _Work()


def _scratch(board: Board) -> tuple[np.ndarray, ...]:
    shape = (board.rows * board.cols, len(board.placements), board.longest)
    if _work.shape != shape:
        _work.shape, _work.work = shape, kernel.scratch(*shape)
    return _work.work


def _trials_of(board: Board, state: GridState) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The state as an array and the record of its trials (outcome, rounds followed, round broken per
    cell and value), kept while the board and the state stay the same, as ``Trials`` keeps its trials."""
    key = tuple(state.values)
    if _work.board is not board or _work.key != key:
        size = board.rows * board.cols
        _work.board, _work.key, _work.values, _work.order = board, key, as_array(state.values), None
        _work.trials = (np.full((size, 2), -1, np.int64), np.zeros((size, 2), np.int64), np.zeros((size, 2), np.int64))
    return _work.values, _work.trials


def _fleet_words(remaining: dict[int, int]) -> str:
    return ", ".join(str(length) for length in sorted(remaining, reverse=True) for _ in range(remaining[length]))


def _decided(board: Board, cells: np.ndarray, value: int) -> tuple[tuple[Cell, int], ...]:
    return tuple((board.cell(int(i)), value) for i in np.flatnonzero(cells))


def _said(decisions: Sequence[tuple[Cell, int]]) -> str:
    """``r3c5 is ship; r3c4, r3c8 are water``."""
    parts = []
    for value in (SHIP, WATER):
        cells = [c for c, v in decisions if v == value]
        if cells:
            parts.append(f"{cells_named(cells)} {'is' if len(cells) == 1 else 'are'} {VALUE_NAMES[value]}")
    return "; ".join(parts)


def ship_shape(board: Board, state: GridState) -> list[Step]:
    """Unfinished ship cells belong to one of the ships left: what every way of completing them shares
    is ship, and a neighbour none of them uses is water (a ship that must go on, one capped by the
    fleet, one that would join another)."""
    fleet = fleet_of(board, state)
    covers = board.covers[fleet.legal]
    steps = []
    for group in fleet.open_groups:
        ways = covers[covers[:, group].any(axis=1)]
        where = _stretch(board, group)
        if not len(ways):
            raise Contradiction(f"no ship left in the fleet ({_fleet_words(fleet.remaining)}) fits the ship cells "
                                f"at {where}", _cells(board, group))
        ship_cells = ways.all(axis=0) & fleet.undecided
        around = np.zeros_like(ship_cells)
        around[[j for i in group for j in board.orthogonal[i]]] = True
        around &= fleet.undecided & ~ways.any(axis=0)
        decided = _decided(board, ship_cells, SHIP) + _decided(board, around, WATER)
        if decided:
            lengths = sorted({int(n) for n in ways.sum(axis=1)})
            as_what = (f"a {lengths[0]}-cell ship" if len(lengths) == 1 else
                       "a ship of length " + " or ".join(map(str, lengths)))
            message = (f"The ship at {where} can only be completed as {as_what} ({len(ways)} way"
                       f"{'s' * (len(ways) > 1)} with the ships left and the counts): {_said(decided)}.")
            steps.append(Step("ship-shape", message, decided, tuple(_cells(board, group))))
    return steps


def no_ship_fits(board: Board, state: GridState) -> list[Step]:
    """An undecided cell that no ship left can cover (water, ships around, full counts) is water."""
    fleet = fleet_of(board, state)
    empty = fleet.undecided & ~board.covers[fleet.legal].any(axis=0)
    left = _fleet_words(fleet.remaining)
    return [Step("no-ship-fits", f"No ship left ({left}) fits through {cell_name(cell)} without touching a ship, "
                                 f"covering water or overfilling a row or column: it is water.",
                 ((cell, WATER),), (cell,)) for cell, _ in _decided(board, empty, WATER)]


def fleet_places(board: Board, state: GridState, only_biggest: bool = False) -> list[Step]:
    """Where the ships of one length can still go, longest first: the cells all those places share are
    ship, and a length with exactly as many places as ships left fills them all."""
    fleet = fleet_of(board, state)
    name = "biggest-ship" if only_biggest else "fleet-places"
    for length in sorted(fleet.remaining, reverse=True)[:1 if only_biggest else None]:
        count = fleet.remaining[length]
        places = fleet.legal[board.lengths[fleet.legal] == length]
        what = f"{length}-cell ship{'s' * (count > 1)}"
        if len(places) < count:
            raise Contradiction(f"the {count} {what} left have only {len(places)} place{'s' * (len(places) != 1)} "
                                f"to go")
        covers = board.covers[places]

        if len(places) == count:
            decided = _decided(board, covers.any(axis=0) & fleet.undecided, SHIP)
            if decided:
                message = f"The {count} {what} left can only go at {_spots(board, places, ' and ', 4)}: {_said(decided)}."
                return [Step(name, message, decided, tuple(c for c, _ in decided))]
        decided = _decided(board, covers.all(axis=0) & fleet.undecided, SHIP)
        if decided:
            where = _spots(board, places, " or ", 3) if len(places) <= 3 else f"{len(places)} places"
            message = (f"The {what} left can only go at {where}, each through "
                       f"{cells_named(c for c, _ in decided)}: {'it is' if len(decided) == 1 else 'they are'} ship.")
            return [Step(name, message, decided, tuple(c for c, _ in decided))]
    return []


def _spots(board: Board, places: np.ndarray, joint: str, most: int) -> str:
    return joint.join(_stretch(board, board.placements[p].cells) for p in places[:most])


def biggest_ship(board: Board, state: GridState) -> list[Step]:
    return fleet_places(board, state, only_biggest=True)


# ---------------------------------------------------------------- levels 3 and 4: looking ahead


def needy_lines(board: Board, state: GridState) -> Iterable[tuple[str, Sequence[Cell]]]:
    """Lines that need a ship cell among two or three undecided cells: one of them is ship."""
    for line, want, ships, open_cells in _counted_lines(board, state.values, range(len(board.lines))):
        if want - ships == 1 and 2 <= len(open_cells) <= 3:
            cells = _cells(board, open_cells)
            yield f"{board.line_name(line).capitalize()} needs one more ship cell, at {cells_named(cells)}", cells


def contradiction_candidates(board: Board, state: GridState) -> Iterable[Cell]:
    """Cells beside unfinished ships first, then those in lines with least room to spare."""
    values = state.values
    first = dict.fromkeys(j for i, v in enumerate(values) if v == SHIP for j in board.orthogonal[i] if values[j] is None)
    slack = {}
    for line, want in enumerate(board.counts):
        ships, open_cells = _line_tally(board, values, line)
        slack[line] = len(open_cells) if want is None else min(want - ships, len(open_cells) - want + ships)
    rest = sorted((i for i, v in enumerate(values) if v is None and i not in first),
                  key=lambda i: min(slack[line] for line in board.lines_of[i]))
    return (board.cell(i) for i in (*first, *rest))


BASIC = (
    Technique("revealed", "A revealed cell and the neighbours its shape shows (a ship's end continues one way).",
              1.0, revealed_shape, revealed_shape),
    Technique("full-line", "A row or column that holds all its ship cells: the rest is water.", 1.0,
              full_line, full_line),
    Technique("fill-line", "A row or column needing as many ship cells as it has undecided cells: all ship.", 1.0,
              fill_line, fill_line),
    Technique("diagonal", "Ships never touch at a corner: the diagonal neighbours of a ship cell are water.", 1.0,
              diagonal_water, diagonal_water),
    Technique("longest-ship", "A run of ship cells as long as the fleet's longest ship is finished: its ends are "
                              "water.", 1.5, longest_ship, longest_ship),
    Technique("biggest-ship", "The biggest ship left fits in few places: cells all of them share are ship.", 2.0,
              biggest_ship),
)
FLEET = (
    Technique("ship-shape", "Unfinished ship cells must become one of the ships left: every way of completing "
                            "them shares some cells (ship) and leaves some neighbours out (water).", 3.0, ship_shape),
    Technique("no-ship-fits", "A cell that no ship left can cover without touching a ship, covering water or "
                              "overfilling a count is water.", 3.0, no_ship_fits),
    Technique("fleet-places", "Where the ships of each length can still go: cells every place shares are ship; as "
                              "many places as ships left means all are used.", 4.0, fleet_places),
)
FLEET_TRIALS = Trials((*BASIC, *FLEET))


def _chain_words(rounds: int | None) -> str:
    reach = f"within {rounds} rounds of simpler steps" if rounds else "after a long chain of simpler steps"
    return f"Assuming a cell is ship (or water) breaks a rule {reach}: it is the other."


def chain(name: str, rounds: int | None, weight: float) -> Technique[Board, GridState]:
    """The reference contradiction technique: trials followed by the Python techniques."""
    return by_contradiction(name, _chain_words(rounds), weight, FLEET_TRIALS, VALUE_NAMES,
                            max_rounds=rounds or 10_000, candidates=contradiction_candidates)


LINE_EITHER_WAY_WORDS = ("A row or column needs one more ship cell among two or three: what every choice implies "
                         "is certain.")
LINE_EITHER_WAY = either_way("either-way", LINE_EITHER_WAY_WORDS, 20.0, FLEET_TRIALS, needy_lines, VALUE_NAMES)


# ---------------------------------------------------------------- the look-aheads through the kernel


def _replayed(board: Board, state: GridState, cell: Cell, value: int, rounds: int, broken_at: int) -> Contradiction:
    """The broken rule the kernel found for ``cell`` = ``value``, with its sentence: the one assumption
    followed again by the Python techniques (the kernel says only where and when it breaks)."""
    trial = Trial(state, cell, value, len(FLEET_TRIALS.techniques))
    trial.follow(board, FLEET_TRIALS.techniques, rounds)
    broken = trial.broken_within(rounds)
    assert broken is not None and broken.rounds == broken_at, "the kernel and the techniques disagree"
    return broken


def kernel_chain(name: str, rounds: int | None, weight: float, sentences: bool = True) -> Technique[Board, GridState]:
    """``chain`` with the trials followed in the kernel: the same first candidate that breaks, the same step
    (without ``sentences``, the same step with no sentence: what grading needs)."""
    max_rounds = rounds or 10_000

    def find(board: Board, state: GridState) -> list[Step]:
        values, trials = _trials_of(board, state)
        if _work.order is None:
            _work.order = np.array([r * board.cols + c for r, c in contradiction_candidates(board, state)], np.int64)
        order = _work.order
        if not len(order):
            return []
        n, value, broken_at = kernel.first_contradiction(board.arrays, values, order, max_rounds, *trials,
                                                         _scratch(board))
        if n < 0:
            return []
        cell = board.cell(int(order[n]))
        if not sentences:
            return [Step(name, "", ((cell, 1 - int(value)),), effort=int(broken_at))]
        broken = _replayed(board, state, cell, int(value), max_rounds, int(broken_at))
        return [contradiction_step(name, cell, int(value), broken, VALUE_NAMES)]

    return Technique(name, _chain_words(rounds), weight, find)


def kernel_either_way(board: Board, state: GridState, sentences: bool = True) -> list[Step]:
    """``LINE_EITHER_WAY`` with each choice followed in the kernel; the same steps in the same order
    (without ``sentences``, with no sentence)."""
    max_rounds = 10_000
    size = board.rows * board.cols
    base = as_array(state.values)
    work = _scratch(board)
    open_now = base[:-1] == kernel.UNDECIDED
    taken = np.zeros(size, bool)
    steps: list[Step] = []
    for why, group in needy_lines(board, state):
        open_cells = [c for c in group if state[c] is None]
        followed = []
        for r, c in open_cells:
            vals, when = np.empty(size + 1, np.int8), np.empty(size, np.int64)
            outcome, rounds = kernel.follow(board.arrays, base, r * board.cols + c, SHIP, max_rounds, vals, when, work)
            followed.append((outcome, rounds, vals[:-1], when))
        alive = [f for f in followed if f[0] != kernel.CONTRADICTION]
        if not alive or len(alive) == len(open_cells) == 1:
            continue
        first = alive[0][2]
        common = open_now & ~taken & (alive[0][3] >= 0)
        for _, _, vals, when in alive[1:]:
            common &= (when >= 0) & (vals == first)
        if not common.any():
            continue
        taken |= common
        where = np.flatnonzero(common)
        decided = tuple((board.cell(int(i)), int(first[i])) for i in where)
        depth = int(max(np.max([f[3][where] for f in alive], axis=0)))
        if not sentences:
            steps.append(Step("either-way", "", decided, effort=depth))
            continue
        dead = [(cell, _replayed(board, state, cell, SHIP, max_rounds, f[1]))
                for cell, f in zip(open_cells, followed, strict=True) if f[0] == kernel.CONTRADICTION][:2]
        steps.append(either_way_step("either-way", why, group, decided, dead, depth, VALUE_NAMES))
    return steps


def solver(compiled: bool, sentences: bool = True) -> HumanSolver[Board, GridState]:
    """The levels; ``compiled`` follows the look-aheads in the kernel (``SOLVER``), else in Python
    (what the tests hold the kernel to). Without ``sentences`` (``GRADER``) the look-aheads'
    steps carry no sentence, so no assumption is followed again in Python: grading and generation read
    only which technique each step took and its effort."""
    if compiled:
        either = Technique("either-way", LINE_EITHER_WAY_WORDS, 20.0,
                           lambda board, state: kernel_either_way(board, state, sentences))
        short, medium, long = (kernel_chain("short-chain", 3, 15.0, sentences), kernel_chain("chain", 8, 20.0, sentences),
                               kernel_chain("long-chain", None, 25.0, sentences))
    else:
        either = LINE_EITHER_WAY
        short, medium, long = chain("short-chain", 3, 15.0), chain("chain", 8, 20.0), chain("long-chain", None, 25.0)
    return HumanSolver(
        levels=(
            Level("easy", BASIC),
            Level("medium", FLEET),
            Level("hard", (short,)),
            Level("expert", (either, medium, long)),
        ),
        start=start,
    )


SOLVER: HumanSolver[Board, GridState] = solver(compiled=True)
GRADER: HumanSolver[Board, GridState] = solver(compiled=True, sentences=False)


def grade_within(board: Board, upto: int, deadline: Deadline) -> Grade:
    """The grade of a puzzle that the techniques up to level ``upto`` finish, else level None: the
    generator's question, answered without the costly look-aheads of the levels above (and, for the
    levels without look-aheads, answered "None" by the kernel alone when it is)."""
    if upto <= 1 and not stuck_state(board, upto, deadline=deadline).solved:
        return Grade(None, 0.0, 0, None)
    path = GRADER.run(board, upto=upto, deadline=deadline)
    return GRADER.grade_path(path) if path.state.solved else Grade(None, 0.0, 0, None)


def stuck_state(board: Board, upto: int, state: GridState | None = None,
                deadline: Deadline | None = None) -> GridState:
    """Where the techniques up to level ``upto`` get stuck (``SOLVER.run(...).state``), from ``state`` or
    the start: in the kernel for the two levels without look-aheads, whose steps all come from one look
    at the grid, else (or where a rule breaks, for the Python techniques to name it) in Python."""
    state = state if state is not None else start(board)
    if upto <= 1:
        values = as_array(state.values)
        if kernel.propagate(board.arrays, values, len(BASIC) if upto == 0 else len(BASIC) + len(FLEET),
                            _scratch(board)):
            return GridState(board.rows, board.cols, [None if v == kernel.UNDECIDED else int(v) for v in values[:-1]])
    return GRADER.run(board, upto=upto, state=state, deadline=deadline).state


def grade(puzzle: BattleshipPuzzle, deadline: Deadline) -> Grade:
    """A puzzle's grade as ``SOLVER.grade`` gives it, without writing the look-aheads' sentences."""
    return GRADER.grade(board_of(puzzle), deadline)


def warm_up() -> None:
    """Load every kernel entry point (compiling it into numba's on-disk cache the first time on this
    machine), so that no request waits for it: the fleet, one trial, and the search for a contradiction."""
    puzzle = BattleshipPuzzle(rows=6, cols=6, fleet=[3, 2, 2, 1, 1, 1], row_counts=[4, 0, 3, 2, 0, 1],
                              col_counts=[3, 2, 2, 1, 0, 2], revealed=[])
    board = board_of(puzzle)
    state = start(board)
    with compile_lock(__name__):
        values, trials = _trials_of(board, state)
        work = _scratch(board)
        kernel.fleet(board.arrays, values, work)
        size = board.rows * board.cols
        kernel.follow(board.arrays, values, 0, SHIP, 3, np.empty(size + 1, np.int8), np.empty(size, np.int64), work)
        kernel.first_contradiction(board.arrays, values, np.arange(size, dtype=np.int64), 3, *trials, work)
        stuck_state(board, 1, state)


class BattleshipState(BaseModel):
    ships: list[list[Literal[0, 1] | None]] | None = Field(
        None, description="R×C: 1 ship, 0 water, null undecided (the player's grid so far); "
        "null or left out: nothing decided yet.")


DIFFICULTY = dataclasses.replace(grid_difficulty(SOLVER, board_of, "ships", BattleshipState, VALUE_NAMES,
                                                 default="medium"), grade=grade)
