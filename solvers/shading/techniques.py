"""Shading puzzles as a person solves them: techniques in levels, for grading and hints.

Shared by the genres whose rules are: shaded cells never touch, the unshaded cells are one group, and
two equal numbers must be split by a shaded cell, either anywhere in a line (Hitori: one of the two
is shaded) or within a run (Dabuhamienai: a cell from one to the other is shaded). A ``Board`` holds
those "one of these cells is shaded" sets (segments); every technique reads only them, so each genre
is its board (``board_of`` with ``spans``) and its sentences.

The rules leave a person no single-rule start (every pair of equal numbers in a line leaves at
least two cells that could break it), so the first level already includes the way people start:
"one of these two 3s must be shaded; whichever it is, that cell stays white".

Each technique is written twice, once to read and once to run: the Python functions below are the
reference (they say what a technique means; ``solver(compiled=False)`` is the solver made of them,
which the tests hold ``SOLVER`` to), and ``SOLVER`` finds the same steps with the compiled functions
of ``solvers.shading.kernel``, writing the player's sentence only for the steps it returns. The
look-aheads follow thousands of assumptions per puzzle, which is what the kernel is for.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from solvers.common import Cell, Deadline, compile_lock
from solvers.shading import kernel
from solvers.techniques.human import (
    Contradiction,
    Difficulty,
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

SHADED, WHITE = 1, 0
VALUE_NAMES = {SHADED: "shaded", WHITE: "unshaded"}


@dataclass(frozen=True)
class Ladder:
    """Where a genre cuts the one set of techniques into its levels, so that each genre's levels can follow
    its own reference (Hitori's: Tatham's Singles) while every technique stays shared: the rounds the
    first two levels' look-aheads follow, and ``lone_first``: the first level joins an unshaded cell to
    the rest only when it stands alone (Tatham's Easy), its look-ahead follows that and no more, and a
    group's last exit and cut-off wait for the second level. The default is Dabuhamienai's."""

    near: int = kernel.NEAR
    far: int = kernel.FAR
    lone_first: bool = False

    def rows(self) -> tuple[tuple[int, int, int, bool], ...]:
        """(what the kernel calls it, level, rounds of a look-ahead or chain, trials with lone-exit) per
        technique, in the solver's order: ``solver`` builds the techniques from these rows, ``main_path``
        runs them."""
        k = kernel
        if self.lone_first:
            first = [(k.NEIGHBOURS, 0, 0, False), (k.DUPLICATE, 0, 0, False), (k.LONE_EXIT, 0, 0, False)]
            second = [(k.LAST_EXIT, 1, 0, False), (k.CUT_OFF, 1, 0, False)]
        else:
            first = [(what, 0, 0, False) for what in (k.NEIGHBOURS, k.DUPLICATE, k.LAST_EXIT, k.CUT_OFF)]
            second = []
        return (*first, (k.PAIRS, 0, self.near, self.lone_first), (k.GROUPS, 0, self.near, self.lone_first),
                *second, (k.PAIRS, 1, self.far, False), (k.GROUPS, 1, self.far, False),
                (k.PAIRS, 2, k.DEEP, False), (k.GROUPS, 2, k.DEEP, False), (k.SHORT_CHAIN, 2, k.NEAR, False),
                (k.LONG_CHAIN, 2, k.DEEP, False))

    @cached_property
    def array(self) -> np.ndarray:
        return np.array(self.rows(), np.int32)

    @cached_property
    def long_chain(self) -> tuple[int, int]:
        """(row, level) of long-chain, which Python searches between the kernel's calls."""
        return next((t, level) for t, (what, level, _, _) in enumerate(self.rows()) if what == kernel.LONG_CHAIN)


LADDER = Ladder()


@dataclass(frozen=True)
class Board:
    """What the techniques look up again and again, computed once per puzzle (flat cell indices): the
    kernel's arrays, and the same as Python tuples when the reference functions or sentences need them."""

    n: int
    numbers: tuple[int, ...]
    spans: bool  # a segment is a run's span (equal numbers may not share a run) or a pair (nor a line)
    arrays: kernel.BoardArrays = field(compare=False, repr=False)
    ladder: Ladder = LADDER  # the genre's levels

    def cell(self, i: int) -> Cell:
        return divmod(i, self.n)

    @cached_property
    def adjacent(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(j for j in row if j >= 0) for row in self.arrays.neighbours.tolist())

    @cached_property
    def segments(self) -> tuple[tuple[int, ...], ...]:
        """The sets of cells of which at least one is shaded: per pair of equal numbers in a line, the cells
        from one to the next, inclusive (``spans``), or the two cells alone."""
        return _spans(self.arrays.segment_start, self.arrays.segment_cells)

    @cached_property
    def segments_of(self) -> tuple[tuple[int, ...], ...]:
        """Per cell: the indices of the segments it lies in."""
        return _spans(self.arrays.cell_start, self.arrays.cell_segments)


def _spans(starts: np.ndarray, items: np.ndarray) -> tuple[tuple[int, ...], ...]:
    flat, bounds = items.tolist(), starts.tolist()
    return tuple(tuple(flat[a:b]) for a, b in zip(bounds, bounds[1:], strict=False))


def board_of(grid: list[list[int]], spans: bool, ladder: Ladder = LADDER) -> Board:
    """The board of an N×N grid of numbers 1..N (``Board.spans``), graded on the genre's ``ladder``."""
    numbers = np.array(grid, np.int64)
    return Board(len(grid), tuple(numbers.ravel().tolist()), spans, kernel.board_arrays(numbers, spans), ladder)


class ArrayState(GridState):
    """A GridState that keeps its values the way the kernel reads them too (int8, -1 undecided)."""

    __slots__ = ("array",)

    def __init__(self, rows: int, cols: int, values: list[int | None] | None = None, undecided: int | None = None,
                 array: np.ndarray | None = None):
        super().__init__(rows, cols, values, undecided)
        self.array = array if array is not None else as_array(self.values)

    def copy(self) -> ArrayState:
        return ArrayState(self.rows, self.cols, self.values[:], self.undecided, self.array.copy())

    def set(self, cell: Cell, value: int) -> None:
        super().set(cell, value)
        self.array[cell[0] * self.cols + cell[1]] = value


def as_array(values: Sequence[int | None]) -> np.ndarray:
    return np.array([kernel.UNDECIDED if v is None else v for v in values], np.int8)


def array_of(state: GridState) -> np.ndarray:
    return state.array if isinstance(state, ArrayState) else as_array(state.values)


def start(board: Board) -> GridState:
    return ArrayState(board.n, board.n)


# What the techniques tell a player: one function per sentence, for the reference and the kernel alike.

def _pair_words(board: Board, segment: Sequence[int]) -> str:
    a, b = board.cell(segment[0]), board.cell(segment[-1])
    return f"the two {board.numbers[segment[0]]}s at {cell_name(a)} and {cell_name(b)}"


def _touching(board: Board, i: int, j: int) -> Contradiction:
    return Contradiction(f"shaded cells {cell_name(board.cell(i))} and {cell_name(board.cell(j))} touch",
                         [board.cell(i), board.cell(j)])


def _neighbours_step(board: Board, i: int, around: Sequence[int]) -> Step:
    cells = [board.cell(j) for j in around]
    return Step("shaded-neighbours", f"{cell_name(board.cell(i))} is shaded, and shaded cells never touch: "
                                     f"{cells_named(cells)} {'stays' if len(cells) == 1 else 'stay'} unshaded.",
                tuple((c, WHITE) for c in cells), (board.cell(i),))


def _one_run(board: Board, segment: Sequence[int]) -> Contradiction:
    where = "in one unshaded run" if board.spans else "unshaded in one line"
    return Contradiction(f"{_pair_words(board, segment)} are {where}", [board.cell(i) for i in segment])


def _duplicate_step(board: Board, segment: Sequence[int], open_cell: int) -> Step:
    cell = board.cell(open_cell)
    if board.spans:
        why = (f"Both of {_pair_words(board, segment)} would be in one unshaded run unless "
               f"{cell_name(cell)} is shaded, the only undecided cell from one to the other.")
    else:
        why = (f"Both of {_pair_words(board, segment)} would be unshaded in one line unless {cell_name(cell)} "
               f"is shaded: the other stays unshaded.")
    return Step("duplicate", why, ((cell, SHADED),), tuple(board.cell(i) for i in segment))


def _walled_in(board: Board, component: Sequence[int]) -> Contradiction:
    cells = [board.cell(i) for i in component]
    walled = cell_name(cells[0]) if len(cells) == 1 else f"the unshaded cells {cells_named(cells[:4])}"
    return Contradiction(f"{walled} {'is' if len(cells) == 1 else 'are'} walled in", cells)


def _last_exit_step(board: Board, component: Sequence[int], exit_cell: int, name: str = "last-exit") -> Step:
    cells = [board.cell(i) for i in component]
    way = board.cell(exit_cell)
    what = f"{cell_name(cells[0])}" if len(cells) == 1 else f"the unshaded group at {cells_named(cells[:3])}"
    return Step(name, f"{what} can reach the other unshaded cells only through {cell_name(way)}, "
                             f"so it stays unshaded.", ((way, WHITE),), tuple(cells))


def _cut_off_step(board: Board, cell_index: int, stranded: Sequence[int]) -> Step:
    cell = board.cell(cell_index)
    cut = [board.cell(w) for w in stranded[:3]]
    return Step("cut-off", f"Shading {cell_name(cell)} would cut {cells_named(cut)} off from the other "
                           f"unshaded cells, so it stays unshaded.", ((cell, WHITE),), (cell, *cut))


def _must_split(board: Board, segment: Sequence[int], open_cells: Sequence[int]) -> tuple[str, list[Cell]]:
    """An either-way group: why one of its cells is shaded, and the cells."""
    return (f"One of {cells_named(board.cell(i) for i in open_cells)} must be shaded "
            f"to split {_pair_words(board, segment)}"), [board.cell(i) for i in open_cells]


# The reference techniques: what each one means, in plain Python.

def shaded_neighbours(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    values, steps, adjacent = state.values, [], board.adjacent
    for i in [i for i, v in enumerate(values) if v == SHADED] if near is None else [i for i in near if values[i] == SHADED]:
        around = []
        for j in adjacent[i]:
            if values[j] is None:
                around.append(j)
            elif values[j] == SHADED:
                raise _touching(board, i, j)
        if around:
            steps.append(_neighbours_step(board, i, around))
    return steps


def duplicate(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    values, steps = state.values, []
    segments = board.segments if near is None else [board.segments[k] for k in
                                                    sorted({k for i in near for k in board.segments_of[i]})]
    for segment in segments:
        if SHADED in [values[i] for i in segment]:
            continue
        open_cells = [i for i in segment if values[i] is None]
        if not open_cells:
            raise _one_run(board, segment)
        if len(open_cells) == 1:
            steps.append(_duplicate_step(board, segment, open_cells[0]))
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
        if not exits:
            raise _walled_in(board, component)
        if len(exits) == 1:
            steps.append(_last_exit_step(board, component, exits[0]))
    return steps


def lone_exit(board: Board, state: GridState, near: Iterable[int] | None = None) -> list[Step]:
    """last-exit for an unshaded cell with no unshaded neighbour (Tatham's "all black but one"): the
    first level of a ``Ladder.lone_first`` genre, which leaves a group's exits to the next one."""
    values, steps, adjacent = state.values, [], board.adjacent
    whites = values.count(WHITE)
    cells = range(len(values)) if near is None else sorted({j for i in near for j in (i, *adjacent[i])})
    for i in cells:
        if values[i] != WHITE or whites == 1 or any(values[j] == WHITE for j in adjacent[i]):
            continue
        exits = [j for j in adjacent[i] if values[j] is None]
        if not exits:
            raise _walled_in(board, [i])
        if len(exits) == 1:
            steps.append(_last_exit_step(board, [i], exits[0], "lone-exit"))
    return steps


def open_pairs(board: Board, state: GridState) -> Iterator[tuple[str, Sequence[Cell]]]:
    values = state.values
    for segment in board.segments:
        if any(values[i] == SHADED for i in segment):
            continue
        open_cells = [i for i in segment if values[i] is None]
        if len(open_cells) == 2:
            yield _must_split(board, segment, open_cells)


def open_groups(board: Board, state: GridState) -> Iterator[tuple[str, Sequence[Cell]]]:
    values = state.values
    for segment in sorted(board.segments, key=len):
        if any(values[i] == SHADED for i in segment):
            continue
        open_cells = [i for i in segment if values[i] is None]
        if 2 < len(open_cells) <= 4:
            yield _must_split(board, segment, open_cells)


def cut_off(board: Board, state: GridState) -> list[Step]:
    """Shading a cell must not split the unshaded cells: the undecided cut vertices of the graph of
    cells that are not shaded, with unshaded cells on two sides (Tarjan's low-links, one pass)."""
    return [_cut_off_step(board, cell_index, stranded) for cell_index, stranded in split_points(board, state.values)]


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


# The same techniques through the kernel.

def kernel_shaded_neighbours(board: Board, state: GridState) -> list[Step]:
    count, found = kernel.shaded_with_open_neighbours(board.arrays, array_of(state))
    if count < 0:
        raise _touching(board, int(found[0]), int(found[1]))
    values = state.values
    return [_neighbours_step(board, i, [j for j in board.adjacent[i] if values[j] is None]) for i in found[:count].tolist()]


def kernel_duplicate(board: Board, state: GridState) -> list[Step]:
    count, found = kernel.lone_open_cells(board.arrays, array_of(state))
    if count < 0:
        raise _one_run(board, board.segments[found[0, 0]])
    return [_duplicate_step(board, board.segments[k], i) for k, i in found[:count].tolist()]


def kernel_last_exit(board: Board, state: GridState) -> list[Step]:
    count, starts, cells, exits = kernel.last_exits(board.arrays, array_of(state))
    if count < 0:
        raise _walled_in(board, cells[:starts[1]].tolist())
    return [_last_exit_step(board, cells[starts[g]:starts[g + 1]].tolist(), int(exits[g])) for g in range(count)]


def kernel_lone_exit(board: Board, state: GridState) -> list[Step]:
    count, starts, cells, exits = kernel.last_exits(board.arrays, array_of(state), True)
    if count < 0:
        raise _walled_in(board, cells[:starts[1]].tolist())
    return [_last_exit_step(board, cells[starts[g]:starts[g + 1]].tolist(), int(exits[g]), "lone-exit")
            for g in range(count)]


def kernel_cut_off(board: Board, state: GridState) -> list[Step]:
    count, cuts, stranded = kernel.split_points(board.arrays, array_of(state), True)
    return [_cut_off_step(board, int(cuts[k]), [w for w in stranded[k].tolist() if w >= 0]) for k in range(count)]


class _Looks(threading.local):
    """One thread's kernel scratch space and the assumptions followed from one state: the either-way
    looks of every level and the short chains share them, as ``Trials`` shares its trials."""

    def __init__(self) -> None:
        self.n = 0
        self.board: Board | None = None
        self.key = b""
        self.cache, self.work = kernel.trial_cache(0), kernel.scratch(0, 0)

    def trials(self, board: Board, values: np.ndarray, lone: bool = False) -> tuple[kernel.TrialCache, kernel.Scratch]:
        """The trials from ``values`` followed so far (with lone-exit or last-exit), and scratch space."""
        key = values.tobytes() + bytes([lone])
        if self.board is not board or self.key != key:
            self.claim(board)
            kernel.reset(self.cache)
            self.board, self.key = board, key
        return self.cache, self.work

    def claim(self, board: Board) -> tuple[kernel.TrialCache, kernel.Scratch]:
        """Room for trials and scratch space, for a caller that fills them itself."""
        if self.n != board.n:
            n = self.n = board.n
            self.cache, self.work = kernel.trial_cache(n * n), kernel.scratch(n * n, n * n * max(n - 1, 1))
        self.board = None
        return self.cache, self.work


_LOOKS = _Looks()


def _broken(board: Board, state: GridState, cell: int, value: int, rounds: int,
            techniques: Sequence[Technique[Board, GridState]] | None = None) -> Contradiction:
    """The broken rule an assumption the kernel found broken runs into, as the reference names it (which
    rule a technique names first depends on the order it visits cells in, which only Python knows): the
    assumption followed again in Python, with the local basic techniques or the given ones."""
    techniques = LOCAL if techniques is None else techniques
    trial = Trial(state, board.cell(cell), value, len(techniques))
    trial.follow(board, techniques, rounds)
    assert trial.contradiction is not None, "the kernel and the reference disagree"
    return trial.contradiction


def kernel_either_way(name: str, groups: int, rounds: int, sentences: bool = True,
                      lone: bool = False) -> Callable[[Board, GridState], list[Step]]:
    """``either_way`` over the open pairs (``groups`` 0) or groups of three or four (1), trials with
    lone-exit for last-exit (``lone``); without ``sentences`` the steps carry their decisions only (for a
    trial, which shows no step)."""

    def find(board: Board, state: GridState) -> list[Step]:
        values = array_of(state)
        cache, work = _LOOKS.trials(board, values, lone)
        count, segments, starts, cells, decided, depths, dead = kernel.either_way(board.arrays, values, groups, rounds,
                                                                                  cache, work, lone)
        steps = []
        for s in range(count):
            span = slice(starts[s], starts[s + 1])
            decisions = tuple((board.cell(i), v) for i, v in zip(cells[span].tolist(), decided[span].tolist(), strict=True))
            if not sentences:
                steps.append(Step(name, "", decisions, effort=int(depths[s])))
                continue
            segment = board.segments[segments[s]]
            why, group = _must_split(board, segment, [i for i in segment if values[i] == kernel.UNDECIDED])
            ruled_out = [(board.cell(i), _broken(board, state, i, SHADED, rounds, LONE_LOCAL if lone else None))
                         for i in dead[s].tolist() if i >= 0]
            steps.append(either_way_step(name, why, group, decisions, ruled_out, int(depths[s]), VALUE_NAMES))
        return steps

    return find


def kernel_short_chain(rounds: int) -> Callable[[Board, GridState], list[Step]]:
    """``by_contradiction`` with the basic local trials, cells in ``contradiction_candidates`` order."""

    def find(board: Board, state: GridState) -> list[Step]:
        values = array_of(state)
        cache, work = _LOOKS.trials(board, values)
        cell, value, _ = kernel.first_contradiction(board.arrays, values, rounds, cache, work)
        if cell < 0:
            return []
        return [contradiction_step("short-chain", board.cell(cell), value, _broken(board, state, cell, value, rounds),
                                   VALUE_NAMES)]

    return find


LONG_BATCH = 16  # candidate cells per kernel call of the long-chain search, between two deadline checks


def long_contradiction(board: Board, values: np.ndarray, deadline: Deadline) -> tuple[int, int, int]:
    """(cell, value, round) of long-chain's first assumption that breaks a rule, or (-1, -1, 0)."""
    count = len(kernel.candidates(board.arrays, values))
    cache, work = _LOOKS.claim(board)
    for first in range(0, count, LONG_BATCH):
        deadline.check()
        found = kernel.first_long_contradiction(board.arrays, values, first, first + LONG_BATCH, cache, work)
        if found[0] >= 0:
            return found
    return -1, -1, 0


def kernel_long_chain(board: Board, state: GridState) -> list[Step]:
    """``by_contradiction`` with the basic techniques and the near look-aheads followed as far as they go."""
    cell, value, _ = long_contradiction(board, array_of(state), Deadline.never())
    if cell < 0:
        return []
    return [contradiction_step("long-chain", board.cell(cell), value,
                               _broken(board, state, cell, value, 10_000, LONG_TRIAL), VALUE_NAMES)]


# The levels, built from the reference functions (``solver(compiled=False)``, for the tests) or from the
# kernel (SOLVER).

DUPLICATE = {True: "Two equal numbers in a line with one undecided cell between them (inclusive): shade it.",
             False: "Two equal numbers in a line, one of them unshaded: shade the other."}  # by Board.spans


def basic(compiled: bool, spans: bool = True) -> tuple[Technique[Board, GridState], ...]:
    """The basic steps. Look-aheads follow the first three with ``near`` (the reference functions,
    looking only around what changed) when they run in Python."""
    return (
        Technique("shaded-neighbours", "The neighbours of a shaded cell are unshaded.", 1.0,
                  kernel_shaded_neighbours if compiled else shaded_neighbours, shaded_neighbours),
        Technique("duplicate", DUPLICATE[spans], 1.0, kernel_duplicate if compiled else duplicate, duplicate),
        Technique("last-exit", "An unshaded group with a single undecided neighbour must stay connected "
                               "through it.", 1.5, kernel_last_exit if compiled else last_exit, last_exit),
        Technique("cut-off", "A cell whose shading would split the unshaded cells stays unshaded.", 2.0,
                  kernel_cut_off if compiled else cut_off),
    )


# A look-ahead follows the local steps (a person's eye stays near the assumption); cut-off, a look at
# the whole grid, is for the main path.
LOCAL = basic(compiled=False)[:3]
LONE_EXIT = Technique("lone-exit", "An unshaded cell with no unshaded neighbour and a single undecided one stays "
                                   "connected through it.", 1.5, lone_exit, lone_exit)
LONE_LOCAL = (*LOCAL[:2], LONE_EXIT)  # a lone_first ladder's first look-ahead follows these
BASIC = basic(compiled=True)
# A long chain's trial, followed again in Python for the rule it breaks: the sentences of its steps are
# never shown, so its look-aheads write none.
LONG_TRIAL = (*LOCAL, BASIC[3], Technique("pair-near", "", 2.0, kernel_either_way("pair-near", 0, 4, sentences=False)),
              Technique("group-near", "", 3.0, kernel_either_way("group-near", 1, 4, sentences=False)))


def look_ahead(name: str, rounds: int | None, weight: float, trials: Trials | None, lone: bool = False
               ) -> tuple[Technique[Board, GridState], ...]:
    """Either-way reasoning on the pairs, then on groups of three or four, following each choice for
    at most ``rounds`` rounds of basic steps: how far ahead a person must look is what sets the level.
    With ``trials`` the reference ``either_way`` follows them; without, the kernel does (``lone``: with
    lone-exit for last-exit, as ``trials`` of ``LONE_LOCAL``)."""
    reach = (f"within {rounds} rounds of basic steps" if rounds and rounds > 1 else
             "within a round of basic steps" if rounds else "as far as the basic steps go")
    pair_description = f"One of two cells must be shaded to split two equal numbers: what both choices imply {reach} is certain."
    group_description = (f"One of three or four cells must be shaded to split two equal numbers: what every choice "
                         f"implies {reach} is certain.")
    limit = rounds or 10_000
    if trials is None:
        return (Technique(f"pair-{name}", pair_description, weight,
                          kernel_either_way(f"pair-{name}", 0, limit, lone=lone)),
                Technique(f"group-{name}", group_description, weight * 1.5,
                          kernel_either_way(f"group-{name}", 1, limit, lone=lone)))
    return (
        either_way(f"pair-{name}", pair_description, weight, trials, open_pairs, VALUE_NAMES, max_rounds=limit),
        either_way(f"group-{name}", group_description, weight * 1.5, trials, open_groups, VALUE_NAMES, max_rounds=limit),
    )


LOOKS = (("near", 2.0), ("far", 5.0), ("deep", 12.0))  # a look-ahead's name and weight, by level
LEVEL_NAMES = ("easy", "medium", "hard")


def solver(compiled: bool, spans: bool = True, ladder: Ladder = LADDER) -> HumanSolver[Board, GridState]:
    """The levels, cut as the genre's ``ladder`` says; ``spans`` picks the words of the genre's boards
    (``Board.spans``), the steps are the same."""
    trials = {False: None if compiled else Trials(LOCAL), True: None if compiled else Trials(LONE_LOCAL)}
    techniques = basic(compiled, spans)
    short_description = "Shading (or not) a cell breaks a rule within a few basic steps: it takes the other value."
    long_description = ("Shading (or not) a cell breaks a rule after a long chain of deductions: it takes the other "
                        "value.")
    levels: list[list[Technique[Board, GridState]]] = [[] for _ in LEVEL_NAMES]
    for what, level, rounds, lone in ladder.rows():
        if what in (kernel.NEIGHBOURS, kernel.DUPLICATE, kernel.LAST_EXIT, kernel.CUT_OFF):
            technique = techniques[what]
        elif what == kernel.LONE_EXIT:
            technique = dataclasses.replace(LONE_EXIT, find=kernel_lone_exit) if compiled else LONE_EXIT
        elif what in (kernel.PAIRS, kernel.GROUPS):
            name, weight = LOOKS[level]
            technique = look_ahead(name, None if rounds >= kernel.DEEP else rounds, weight, trials[lone],
                                   lone)[what - kernel.PAIRS]
        elif what == kernel.SHORT_CHAIN:
            technique = (Technique("short-chain", short_description, 15.0, kernel_short_chain(rounds)) if compiled else
                         by_contradiction("short-chain", short_description, 15.0, trials[False], VALUE_NAMES,
                                          max_rounds=rounds, candidates=contradiction_candidates))
        else:  # long-chain: its trials as the kernel's long_trial follows them, whatever the ladder
            technique = (Technique("long-chain", long_description, 25.0, kernel_long_chain) if compiled else
                         by_contradiction("long-chain", long_description, 25.0,
                                          Trials((*techniques, *look_ahead("near", kernel.NEAR, 2.0, trials[False]))),
                                          VALUE_NAMES, candidates=contradiction_candidates))
        levels[level].append(technique)
    return HumanSolver(levels=tuple(Level(name, tuple(found)) for name, found in zip(LEVEL_NAMES, levels, strict=True)),
                       start=start)


SOLVER = solver(compiled=True)
TECHNIQUES = SOLVER.techniques()  # (level index, technique), numbered as the kernel numbers them (default ladder)


@functools.cache
def compiled_solver(spans: bool, ladder: Ladder) -> HumanSolver[Board, GridState]:
    return SOLVER if (spans, ladder) == (True, LADDER) else solver(compiled=True, spans=spans, ladder=ladder)


def solver_for(board: Board) -> HumanSolver[Board, GridState]:
    return compiled_solver(board.spans, board.ladder)


@dataclass(frozen=True)
class Outline:
    """A solution path without its sentences, as the kernel finds it in one call: what grading and the
    generator need. The same steps as ``SOLVER.run`` (tests hold it to that)."""

    board: Board
    steps: np.ndarray  # per step: technique (index into TECHNIQUES), effort, segment or -1, round, end of its decisions
    decisions: np.ndarray  # (cell, value) per decided cell, step after step
    solved: bool

    @property
    def levels(self) -> list[int]:
        of = self.board.ladder.array[:, 1].tolist()
        return [of[t] for t in self.steps[:, 0].tolist()]

    def grade(self) -> Grade:
        return solver_for(self.board).grade_numbered(self.steps[:, :2].tolist(), self.solved)

    @cached_property
    def _round_starts(self) -> list[int]:
        """Per step, then once more for the end of the path: how many decisions came before its round."""
        ends, rounds = self.steps[:, 4].tolist(), self.steps[:, 3].tolist()
        starts, start = [], 0
        for k in range(len(rounds)):
            if k and rounds[k] != rounds[k - 1]:
                start = ends[k - 1]
            starts.append(start)
        return [*starts, ends[-1] if ends else 0]

    def state_at(self, step: int) -> GridState:
        """The state in which step ``step`` was found (the start of its round; the end for ``len(steps)``)."""
        n = self.board.n
        values: list[int | None] = [None] * (n * n)
        for cell, value in self.decisions[:self._round_starts[step]].tolist():
            values[cell] = value
        return ArrayState(n, n, values)

    def stuck_at(self, level: int) -> GridState:
        """Where ``SOLVER.run(upto=level)`` stops: the state in which the path first needed a harder level."""
        levels = self.levels
        return self.state_at(next((k for k, at in enumerate(levels) if at > level), len(levels)))

    def reach(self, level: int) -> int:
        """How many cells the techniques up to ``level`` decide."""
        levels = self.levels
        first_above = next((k for k, at in enumerate(levels) if at > level), len(levels))
        return int(np.unique(self.decisions[:self._round_starts[first_above], 0]).size)

    def look_ahead_groups(self, below: int) -> list[list[Cell]]:
        """The groups (undecided cells of a pair or group) that look-aheads of levels below ``below`` split
        on, in path order: the ``because`` of those steps."""
        n, decisions, starts = self.board.n, self.decisions.tolist(), self._round_starts
        values: list[int | None] = [None] * (n * n)
        applied, groups = 0, []
        for k, (t, segment) in enumerate(self.steps[:, [0, 2]].tolist()):
            if segment >= 0 and self.board.ladder.rows()[t][1] < below:
                for cell, value in decisions[applied:starts[k]]:
                    values[cell] = value
                applied = starts[k]
                groups.append([self.board.cell(i) for i in self.board.segments[segment] if values[i] is None])
        return groups


def outline(board: Board, upto: int | None = None, deadline: Deadline | None = None,
            long_chains: bool = True, after: Outline | None = None) -> Outline:
    """The kernel's solution path from the clues. Long chains (rare: where no look-ahead goes on) are
    searched a slice of cells at a time between deadline checks; without ``long_chains`` the path stops
    where it would need one (a generator's cheap "beyond the look-aheads"). A puzzle that breaks a rule
    raises the reference's Contradiction. With ``after``, a path of this board that stopped where an
    easier level got stuck, the path goes on from there: up to that point the harder levels' path is
    the same, as each round tries the easier techniques first."""
    last = len(LEVEL_NAMES) - 1 if upto is None else upto
    long_row, long_level = board.ladder.long_chain
    values = np.full(board.n * board.n, kernel.UNDECIDED, np.int8)
    logs, pools, rounds, decided = [], [], 0, 0
    if after is not None:
        if after.solved:
            return after
        values[after.decisions[:, 0]] = after.decisions[:, 1]
        logs, pools, decided = [after.steps], [after.decisions], len(after.decisions)
        rounds = int(after.steps[-1, 3]) if len(after.steps) else 0
    deadline = deadline or Deadline.never()
    while True:
        deadline.check()
        cache, work = _LOOKS.claim(board)
        outcome, log, decisions = kernel.main_path(board.arrays, values, last, cache, work, board.ladder.array)
        log[:, 3] += rounds
        log[:, 4] += decided
        logs.append(log)
        pools.append(decisions)
        rounds, decided = (int(log[-1, 3]), int(log[-1, 4])) if len(log) else (rounds, decided)
        if outcome == kernel.BROKEN_RULE:
            solver_for(board).run(board, upto=upto, deadline=deadline)  # raises the broken rule as the reference names it
            raise AssertionError("the kernel saw a broken rule that the techniques do not")
        if outcome == kernel.SOLVED or not long_chains or last < long_level:
            break
        cell, value, broken = long_contradiction(board, values, deadline)
        if cell < 0:
            break
        values[cell] = 1 - value
        rounds, decided = rounds + 1, decided + 1
        logs.append(np.array([[long_row, broken, -1, rounds, decided]], np.int32))
        pools.append(np.array([[cell, 1 - value]], np.int32))
    return Outline(board, np.concatenate(logs), np.concatenate(pools), outcome == kernel.SOLVED)


def grade(board: Board, deadline: Deadline | None = None) -> Grade:
    return outline(board, deadline=deadline).grade()


def warm_up(spans: bool, ladder: Ladder = LADDER) -> None:
    """Load every kernel entry point (compiling it into numba's on-disk cache the first time on this
    machine), so that no request waits for it: each technique once, and a whole path."""
    board = board_of([[1, 1, 2, 3], [2, 3, 4, 1], [3, 4, 1, 2], [4, 2, 3, 3]], spans, ladder)
    with compile_lock(__name__):
        for _, technique in solver_for(board).techniques():
            technique.find(board, start(board))
        outline(board)


class ShadedState(BaseModel):
    shaded: list[list[Literal[0, 1] | None]] | None = Field(
        None, description="N×N: 1 shaded, 0 marked unshaded, null undecided (the player's grid so far); "
        "null or left out: nothing decided yet.")


def difficulty(board_of_puzzle: Callable[[Any], Board], state_model: type[BaseModel], spans: bool,
               default: str = "medium", ladder: Ladder = LADDER) -> Difficulty:
    """A genre's levels, grades and hints: its puzzles read as boards (``board_of``, on ``ladder``), the answer
    field ``shaded``."""

    def grade_puzzle(puzzle: Any, deadline: Deadline | None = None) -> Grade:
        return grade(board_of_puzzle(puzzle), deadline)

    people = compiled_solver(spans, ladder)
    return dataclasses.replace(grid_difficulty(people, board_of_puzzle, "shaded", state_model, VALUE_NAMES,
                                               default=default), grade=grade_puzzle)
