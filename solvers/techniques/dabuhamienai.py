"""Dabuhamienai as a person solves it: techniques in levels, for grading and hints.

The rules leave a person no single-rule start (every pair of equal numbers in a line leaves at
least two cells that could break it), so the first level already includes the way people start:
"one of these two 3s must be shaded; whichever it is, that cell stays white".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from solvers.common import Cell
from solvers.dabuhamienai import DabuhamienaiPuzzle
from solvers.grid import lines
from solvers.techniques.human import (
    Contradiction,
    GridState,
    HumanSolver,
    Level,
    Step,
    Technique,
    Trials,
    by_contradiction,
    cell_name,
    cells_named,
    either_way,
    grid_difficulty,
)

SHADED, WHITE = 1, 0
VALUE_NAMES = {SHADED: "shaded", WHITE: "unshaded"}


@dataclass(frozen=True)
class Board:
    """What the techniques look up again and again, computed once per puzzle (flat cell indices)."""

    n: int
    numbers: tuple[int, ...]
    adjacent: tuple[tuple[int, ...], ...]
    # Each pair of consecutive equal numbers in a line: the cells from one to the other, inclusive;
    # at least one of them is shaded (rule 3).
    segments: tuple[tuple[int, ...], ...]
    segments_of: tuple[tuple[int, ...], ...]  # per cell: the indices of the segments it lies in

    def cell(self, i: int) -> Cell:
        return divmod(i, self.n)


def board_of(puzzle: DabuhamienaiPuzzle) -> Board:
    n = puzzle.size
    adjacent = tuple(
        tuple(rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n)
        for r in range(n) for c in range(n)
    )
    segments = []
    for line in lines(n, n):
        last_at: dict[int, int] = {}
        for k, (r, c) in enumerate(line):
            number = puzzle.numbers[r][c]
            if number in last_at:
                segments.append(tuple(rr * n + cc for rr, cc in line[last_at[number]: k + 1]))
            last_at[number] = k
    segments_of: list[list[int]] = [[] for _ in range(n * n)]
    for k, segment in enumerate(segments):
        for i in segment:
            segments_of[i].append(k)
    return Board(n, tuple(v for row in puzzle.numbers for v in row), adjacent, tuple(segments),
                 tuple(tuple(ks) for ks in segments_of))


def start(board: Board) -> GridState:
    return GridState(board.n, board.n)


def _pair_words(board: Board, segment: Sequence[int]) -> str:
    a, b = board.cell(segment[0]), board.cell(segment[-1])
    return f"the two {board.numbers[segment[0]]}s at {cell_name(a)} and {cell_name(b)}"


def shaded_neighbours(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    values, steps, adjacent = state.values, [], board.adjacent
    for i in [i for i, v in enumerate(values) if v == SHADED] if near is None else [i for i in near if values[i] == SHADED]:
        around = []
        for j in adjacent[i]:
            if values[j] is None:
                around.append(j)
            elif values[j] == SHADED:
                raise Contradiction(f"shaded cells {cell_name(board.cell(i))} and {cell_name(board.cell(j))} touch",
                                    [board.cell(i), board.cell(j)])
        if around:
            cells = [board.cell(j) for j in around]
            steps.append(Step("shaded-neighbours",
                              f"{cell_name(board.cell(i))} is shaded, and shaded cells never touch: "
                              f"{cells_named(cells)} {'stays' if len(cells) == 1 else 'stay'} unshaded.",
                              tuple((c, WHITE) for c in cells), (board.cell(i),)))
    return steps


def duplicate(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    values, steps = state.values, []
    segments = board.segments if near is None else [board.segments[k] for k in
                                                    sorted({k for i in near for k in board.segments_of[i]})]
    for segment in segments:
        if SHADED in [values[i] for i in segment]:
            continue
        open_cell, open_count = -1, 0
        for i in segment:
            v = values[i]
            if v is None:
                open_cell, open_count = i, open_count + 1
            elif v == SHADED:
                break
        else:
            if open_count == 0:
                raise Contradiction(f"{_pair_words(board, segment)} are in one unshaded run",
                                    [board.cell(i) for i in segment])
            if open_count == 1:
                cell = board.cell(open_cell)
                steps.append(Step("duplicate",
                                  f"Both of {_pair_words(board, segment)} would be in one unshaded run unless "
                                  f"{cell_name(cell)} is shaded, the only undecided cell from one to the other.",
                                  ((cell, SHADED),), tuple(board.cell(i) for i in segment)))
    return steps


def white_components(board: Board, values: Sequence[int | None], starts: Iterable[int] | None = None) -> list[list[int]]:
    """Connected groups of unshaded cells (those containing ``starts``, or all)."""
    seen = [False] * len(values)
    components = []
    for s in range(len(values)) if starts is None else starts:
        if values[s] != WHITE or seen[s]:
            continue
        seen[s] = True
        stack, component = [s], []
        while stack:
            i = stack.pop()
            component.append(i)
            for j in board.adjacent[i]:
                if values[j] == WHITE and not seen[j]:
                    seen[j] = True
                    stack.append(j)
        components.append(component)
    return components


def last_exit(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """An unshaded group with one way out must take it, while other unshaded cells lie elsewhere."""
    values, steps = state.values, []
    starts = None if near is None else {j for i in near for j in (i, *board.adjacent[i])}
    components = white_components(board, values, starts)
    whites = values.count(WHITE)
    for component in components:
        if len(component) == whites:
            continue  # all the unshaded cells: nothing else to reach
        exits = sorted({j for i in component for j in board.adjacent[i] if values[j] is None})
        cells = [board.cell(i) for i in component]
        if not exits:
            walled = cell_name(cells[0]) if len(cells) == 1 else f"the unshaded cells {cells_named(cells[:4])}"
            raise Contradiction(f"{walled} {'is' if len(cells) == 1 else 'are'} walled in", cells)
        if len(exits) == 1:
            way = board.cell(exits[0])
            what = f"{cell_name(cells[0])}" if len(cells) == 1 else f"the unshaded group at {cells_named(cells[:3])}"
            steps.append(Step("last-exit",
                              f"{what} can reach the other unshaded cells only through {cell_name(way)}, "
                              f"so it stays unshaded.",
                              ((way, WHITE),), tuple(cells)))
    return steps


def open_pairs(board: Board, state: GridState) -> Iterator[tuple[str, Sequence[Cell]]]:
    values = state.values
    for segment in board.segments:
        if any(values[i] == SHADED for i in segment):
            continue
        open_cells = [i for i in segment if values[i] is None]
        if len(open_cells) == 2:
            yield (f"One of {cells_named(board.cell(i) for i in open_cells)} must be shaded "
                   f"to split {_pair_words(board, segment)}"), [board.cell(i) for i in open_cells]


def open_groups(board: Board, state: GridState) -> Iterator[tuple[str, Sequence[Cell]]]:
    values = state.values
    for segment in sorted(board.segments, key=len):
        if any(values[i] == SHADED for i in segment):
            continue
        open_cells = [i for i in segment if values[i] is None]
        if 2 < len(open_cells) <= 4:
            yield (f"One of {cells_named(board.cell(i) for i in open_cells)} must be shaded "
                   f"to split {_pair_words(board, segment)}"), [board.cell(i) for i in open_cells]


def cut_off(board: Board, state: GridState) -> list[Step]:
    """Shading a cell must not split the unshaded cells: the undecided cut vertices of the graph of
    cells that are not shaded, with unshaded cells on two sides (Tarjan's low-links, one pass)."""
    values, steps = state.values, []
    for cell_index, stranded in split_points(board, values):
        cell = board.cell(cell_index)
        cut = [board.cell(w) for w in stranded[:3]]
        steps.append(Step("cut-off", f"Shading {cell_name(cell)} would cut {cells_named(cut)} off from the other "
                                     f"unshaded cells, so it stays unshaded.", ((cell, WHITE),), (cell, *cut)))
    return steps


def split_points(board: Board, values: Sequence[int | None]) -> list[tuple[int, list[int]]]:
    """Undecided cells whose shading would leave unshaded cells on two sides, each with the cells of one
    side it would cut off. Iterative DFS over the cells that are not shaded."""
    size = len(values)
    order = [-1] * size  # discovery time
    low = [0] * size
    whites_below = [0] * size  # unshaded cells in the DFS subtree
    size_below = [1] * size  # cells in the DFS subtree: it holds the discovery times order[v] .. + size - 1
    found: list[tuple[int, list[int]]] = []
    time = 0
    for root in range(size):
        if values[root] == SHADED or order[root] != -1:
            continue
        members: list[int] = []
        cuts: list[tuple[int, int]] = []  # (cut cell, child whose subtree it cuts off)
        order[root] = low[root] = time
        time += 1
        stack = [(root, -1, iter(board.adjacent[root]))]
        while stack:
            v, parent, neighbours = stack[-1]
            advanced = False
            for w in neighbours:
                if values[w] == SHADED or w == parent:
                    continue
                if order[w] == -1:
                    order[w] = low[w] = time
                    time += 1
                    stack.append((w, v, iter(board.adjacent[w])))
                    advanced = True
                    break
                low[v] = min(low[v], order[w])
            if advanced:
                continue
            stack.pop()
            members.append(v)
            whites_below[v] += values[v] == WHITE
            if parent != -1:
                low[parent] = min(low[parent], low[v])
                whites_below[parent] += whites_below[v]
                size_below[parent] += size_below[v]
                if low[v] >= order[parent] and values[parent] is None and whites_below[v]:
                    cuts.append((parent, v))
        total = whites_below[root]
        for cut, child in cuts:
            if total - whites_below[child] > 0:
                first, last = order[child], order[child] + size_below[child]
                found.append((cut, sorted(m for m in members if values[m] == WHITE and first <= order[m] < last)))
    return found


def contradiction_candidates(board: Board, state: GridState) -> Iterable[Cell]:
    """Cells of open pairs first (where a person looks), then the rest."""
    values = state.values
    first = dict.fromkeys(i for seg in sorted(board.segments, key=len) if not any(values[k] == SHADED for k in seg)
                          for i in seg if values[i] is None)
    rest = (i for i, v in enumerate(values) if v is None and i not in first)
    return (board.cell(i) for i in (*first, *rest))


BASIC = (
    Technique("shaded-neighbours", "The neighbours of a shaded cell are unshaded.", 1.0, shaded_neighbours,
              shaded_neighbours),
    Technique("duplicate", "Two equal numbers in a line with one undecided cell between them (inclusive): "
                           "shade it.", 1.0, duplicate, duplicate),
    Technique("last-exit", "An unshaded group with a single undecided neighbour must stay connected "
                           "through it.", 1.5, last_exit, last_exit),
    Technique("cut-off", "A cell whose shading would split the unshaded cells stays unshaded.", 2.0, cut_off),
)
# A look-ahead follows the local steps (a person's eye stays near the assumption); cut-off, a look at
# the whole grid, is for the main path.
BASIC_TRIALS = Trials(BASIC[:3])


def look_ahead(name: str, rounds: int | None, weight: float) -> tuple[Technique[Board, GridState], ...]:
    """Either-way reasoning on the pairs, then on groups of three or four, following each choice for
    at most ``rounds`` rounds of basic steps: how far ahead a person must look is what sets the level."""
    reach = f"within {rounds} rounds of basic steps" if rounds else "as far as the basic steps go"
    return (
        either_way(f"pair-{name}", f"One of two cells must be shaded to split two equal numbers: what both "
                                   f"choices imply {reach} is certain.", weight, BASIC_TRIALS, open_pairs,
                   VALUE_NAMES, max_rounds=rounds or 10_000),
        either_way(f"group-{name}", f"One of three or four cells must be shaded to split two equal numbers: what "
                                    f"every choice implies {reach} is certain.", weight * 1.5, BASIC_TRIALS,
                   open_groups, VALUE_NAMES, max_rounds=rounds or 10_000),
    )


SHORT_CHAIN = by_contradiction("short-chain", "Shading (or not) a cell breaks a rule within a few basic steps: "
                                              "it takes the other value.", 15.0, BASIC_TRIALS, VALUE_NAMES,
                               max_rounds=4, candidates=contradiction_candidates)
LONG_CHAIN = by_contradiction("long-chain", "Shading (or not) a cell breaks a rule after a long chain of "
                                            "deductions: it takes the other value.", 25.0,
                              Trials((*BASIC, *look_ahead("near", 4, 2.0))), VALUE_NAMES,
                              candidates=contradiction_candidates)

SOLVER: HumanSolver[Board, GridState] = HumanSolver(
    levels=(
        Level("easy", (*BASIC, *look_ahead("near", 4, 2.0))),
        Level("medium", look_ahead("far", 6, 5.0)),
        Level("hard", (*look_ahead("deep", None, 12.0), SHORT_CHAIN, LONG_CHAIN)),
    ),
    start=start,
)


class DabuhamienaiState(BaseModel):
    shaded: list[list[Literal[0, 1] | None]] | None = Field(
        None, description="N×N: 1 shaded, 0 marked unshaded, null undecided (the player's grid so far); "
        "null or left out: nothing decided yet.")


DIFFICULTY = grid_difficulty(SOLVER, board_of, "shaded", DabuhamienaiState, VALUE_NAMES, default="medium")
