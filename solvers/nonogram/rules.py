"""Nonogram (picture logic): the rules, the checker and two exact solvers.

Rules: fill cells of an R×C grid so that the filled runs of every row (left to right) and every
column (top to bottom) have exactly the lengths of its clue, in order, with at least one empty cell
between runs.

The default solver (``search``) is the classic one of Jan Wolter's survey (pbnsolve) compiled with
numba: an exact line solver (a DP over one line's runs: which placements of each run agree with the
cells decided so far; a cell every arrangement fills is filled, one no arrangement fills is empty),
repeated over the lines whose cells changed until nothing moves; then probing (each undecided cell
assumed filled and empty in turn and followed with the line solver: a contradiction decides it the
other way); then branching on the cell whose two probes decided the most, depth first, counting
solutions up to a limit. The search keeps its whole state in arrays (a trail of decided cells undone
on backtracking), so it runs in slices of nodes and the caller checks its deadline between slices.

The default backend, ``portfolio``, runs the search for part of the budget and hands what it did not
finish to CaDiCaL, whose clause learning solves the few published puzzles the search finds hard.
The second backend (``cadical``/``z3``) is SAT through ``solvers/sat.py``: one variable per cell and
one per possible start of each run, exactly one start per run, runs in order, and a cell filled
exactly when a run's start covers it. The tests compare both, and brute force on small grids.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from pydantic import BaseModel, Field, model_validator

from solvers.common import BudgetExceeded, Deadline, InvalidInput, SolveOutcome, Violation, grid_shape_violations, violation
from solvers.sat import block, make_backend

BACKENDS = ("portfolio", "search", "cadical", "z3")  # the first is the default
DEFAULT_BACKEND = BACKENDS[0]
MAX_SIDE = 100  # puzzles to solve; generated ones are 5..30 (generators/nonogram.py)

UNKNOWN, EMPTY, FILLED = -1, 0, 1
Clue = list[int]
Grid = list[list[int]]


def clue_text(runs: Clue) -> str:
    return " ".join(map(str, runs)) if runs else "0 (empty)"


def line_name(index: int, rows: int) -> str:
    """Line ``index`` of the rows-then-columns order, as a player names it (counted from 1)."""
    return f"row {index + 1}" if index < rows else f"column {index - rows + 1}"


class NonogramPuzzle(BaseModel):
    rows: int = Field(ge=1, le=MAX_SIDE, description="Number of rows R.")
    cols: int = Field(ge=1, le=MAX_SIDE, description="Number of columns C.")
    row_clues: list[list[int]] = Field(description="R lists of run lengths, top to bottom; `[]` for an empty row.")
    col_clues: list[list[int]] = Field(description="C lists of run lengths, left to right; `[]` for an empty column.")

    @model_validator(mode="after")
    def _clues_fit(self) -> NonogramPuzzle:
        problems: list[str] = []
        for name, clues, count, length in (("row_clues", self.row_clues, self.rows, self.cols),
                                           ("col_clues", self.col_clues, self.cols, self.rows)):
            word = "row" if name == "row_clues" else "column"
            if len(clues) != count:
                problems.append(f"`{name}` must have {count} lists (one per {word}), got {len(clues)}")
                continue
            for i, runs in enumerate(clues):
                if runs == [0]:  # a common way to write an empty line
                    clues[i] = runs = []
                if any(run < 1 for run in runs):
                    problems.append(f"{word} {i + 1}: run lengths must be 1 or more (an empty line is `[]`), got {runs}")
                elif sum(runs) + len(runs) - 1 > length:
                    problems.append(f"{word} {i + 1}: runs {clue_text(runs)} need {sum(runs) + len(runs) - 1} cells "
                                    f"(one empty cell between runs) but the {word} has {length}")
        if not problems:
            filled_by_rows = sum(map(sum, self.row_clues))
            filled_by_cols = sum(map(sum, self.col_clues))
            if filled_by_rows != filled_by_cols:
                problems.append(f"the row clues fill {filled_by_rows} cells and the column clues {filled_by_cols}: "
                                f"both count the same filled cells, so they must agree")
        if problems:
            raise ValueError("; ".join(problems))
        return self


class NonogramAnswer(BaseModel):
    filled: list[list[int]] = Field(description="R×C of 1 (filled) / 0 (empty).")


def runs_of(line: list[int]) -> Clue:
    """The lengths of the filled runs of one line, in order."""
    out, run = [], 0
    for value in line:
        if value:
            run += 1
        elif run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return out


def clues_of(filled: Grid) -> tuple[list[Clue], list[Clue]]:
    """The row and column clues a picture gives."""
    return [runs_of(row) for row in filled], [runs_of(list(col)) for col in zip(*filled, strict=True)]


def check(puzzle: NonogramPuzzle, answer: NonogramAnswer) -> list[Violation]:
    """Every line whose filled runs differ from its clue; raises InvalidInput if the answer has the wrong shape."""
    shape = grid_shape_violations(answer.filled, puzzle.rows, puzzle.cols, "filled", {0, 1})
    if shape:
        raise InvalidInput("; ".join(v.message for v in shape), shape)
    found: list[Violation] = []
    rows, cols = clues_of(answer.filled)
    for r, (got, want) in enumerate(zip(rows, puzzle.row_clues, strict=True)):
        if got != want:
            found.append(violation("row-runs", f"Row {r + 1} has runs {clue_text(got)}; its clue is {clue_text(want)}",
                                   [(r, c) for c in range(puzzle.cols)]))
    for c, (got, want) in enumerate(zip(cols, puzzle.col_clues, strict=True)):
        if got != want:
            found.append(violation("column-runs", f"Column {c + 1} has runs {clue_text(got)}; its clue is "
                                                  f"{clue_text(want)}", [(r, c) for r in range(puzzle.rows)]))
    return found


# --- the compiled core ------------------------------------------------------------------------------
# A board is R + C lines (rows first). ``line_cells[l, t]`` is the flat index of the t-th cell of line l,
# ``clue_runs[clue_start[l]:clue_start[l + 1]]`` its runs. Cells hold -1 (undecided), 0 or 1.


# Without numba's reference counting (``_nrt=False``): called for every run and start, it would otherwise
# count references to each array it takes atomically at every call, six times the cost of the test.
@njit(cache=True, _nrt=False)
def run_fits(vals, n, k, fwd, bwd, zp, j, p, length):  # noqa: ANN001, ANN201 - numba
    """Whether run j (of ``length``) can start at p: no empty cell under it, a gap (or the line's end)
    on each side, and the runs before and after it fit in what is left."""
    e = p + length
    if zp[e] - zp[p] != 0:
        return False
    if p == 0:
        if j != 0:
            return False
    elif vals[p - 1] == 1 or not fwd[j, p - 1]:
        return False
    if e == n:
        return j == k - 1
    return vals[e] != 1 and bwd[j + 1, e + 1]


@njit(cache=True)
def line_solve(vals, n, runs, fwd, bwd, zp, diff, out):  # noqa: ANN001, ANN201 - numba
    """Everything one line tells: ``out[t]`` is 1 (every arrangement of ``runs`` that agrees with
    ``vals`` fills t), 0 (none does) or -1. False if no arrangement agrees (a contradiction).

    fwd[j, i]: cells [0, i) can hold runs 0..j-1 and nothing else; bwd[j, i]: cells [i, n) can hold
    runs j..k-1. A run j at start p is possible when its cells hold no 0, its neighbours no 1, and
    fwd/bwd admit the runs before and after it."""
    k = runs.shape[0]
    zp[0] = 0
    for i in range(n):
        zp[i + 1] = zp[i] + (1 if vals[i] == 0 else 0)
    for j in range(k + 1):
        for i in range(n + 1):
            fwd[j, i] = False
            bwd[j, i] = False
    fwd[0, 0] = True
    for i in range(1, n + 1):
        fwd[0, i] = fwd[0, i - 1] and vals[i - 1] != 1
    for j in range(1, k + 1):
        length = runs[j - 1]
        for i in range(1, n + 1):
            ok = vals[i - 1] != 1 and fwd[j, i - 1]
            if not ok and i >= length:
                s = i - length
                if zp[i] - zp[s] == 0:
                    ok = j == 1 if s == 0 else vals[s - 1] != 1 and fwd[j - 1, s - 1]
            fwd[j, i] = ok
    if not fwd[k, n]:
        return False
    bwd[k, n] = True
    for i in range(n - 1, -1, -1):
        bwd[k, i] = bwd[k, i + 1] and vals[i] != 1
    for j in range(k - 1, -1, -1):
        length = runs[j]
        for i in range(n - 1, -1, -1):
            ok = vals[i] != 1 and bwd[j, i + 1]
            if not ok and i + length <= n and zp[i + length] - zp[i] == 0:
                e = i + length
                ok = j == k - 1 if e == n else vals[e] != 1 and bwd[j + 1, e + 1]
            bwd[j, i] = ok
    for i in range(n + 1):
        diff[i] = 0
    for j in range(k):
        length = runs[j]
        for p in range(n - length + 1):
            if run_fits(vals, n, k, fwd, bwd, zp, j, p, length):
                diff[p] += 1
                diff[p + length] -= 1
    cover = 0
    for i in range(n):
        cover += diff[i]
        can1 = cover > 0
        can0 = False
        if vals[i] != 1:
            for j in range(k + 1):
                if fwd[j, i] and bwd[j, i + 1]:
                    can0 = True
                    break
        if can1 and can0:
            out[i] = -1
        elif can1:
            out[i] = 1
        elif can0:
            out[i] = 0
        else:
            return False
    return True


@njit(cache=True)
def run_starts(vals, n, runs, fwd, bwd, zp, diff, out, starts):  # noqa: ANN001, ANN201 - numba
    """Like ``line_solve``, and ``starts[j, p]`` says whether run j can start at p (for hint sentences)."""
    if not line_solve(vals, n, runs, fwd, bwd, zp, diff, out):
        return False
    k = runs.shape[0]
    for j in range(k):
        length = runs[j]
        for p in range(n):
            starts[j, p] = False
        for p in range(n - length + 1):
            starts[j, p] = run_fits(vals, n, k, fwd, bwd, zp, j, p, length)
    return True


# Counters and registers of a search, kept in one int64 array so a search can stop and resume.
# LIMIT: how many rounds a probe follows its assumption (0: to the end); ROUND: when the last one broke.
TRAIL, DEPTH, PHASE, COUNT, NODES, LINES, PROBES, FAILED, LIMIT, ROUND = range(10)
GO, BACKTRACK, DONE = 0, 1, 2
NODE_MODE = 1  # probing at every node: far fewer nodes on the hard published puzzles than line solving alone


@njit(cache=True)
def _assign(grid, trail, st, dirty, cols, rows, cell, value):  # noqa: ANN001, ANN202
    grid[cell] = value
    trail[st[TRAIL]] = cell
    st[TRAIL] += 1
    dirty[cell // cols] = True
    dirty[rows + cell % cols] = True


@njit(cache=True)
def _undo(grid, trail, st, mark):  # noqa: ANN001, ANN202
    while st[TRAIL] > mark:
        st[TRAIL] -= 1
        grid[trail[st[TRAIL]]] = -1


@njit(cache=True)
def propagate(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
              vals, fwd, bwd, zp, diff, out):  # noqa: ANN001, ANN201
    """Line-solve every dirty line, and the lines its changes touch, until nothing moves. False on a
    contradiction (and the line that broke in ``st[FAILED]``); no line stays dirty either way."""
    n_lines = rows + cols
    busy = True
    while busy:
        busy = False
        for line in range(n_lines):
            if not dirty[line]:
                continue
            dirty[line] = False
            busy = True
            n = line_len[line]
            for t in range(n):
                vals[t] = grid[line_cells[line, t]]
            st[LINES] += 1
            runs = clue_runs[clue_start[line]:clue_start[line + 1]]
            if not line_solve(vals, n, runs, fwd, bwd, zp, diff, out):
                st[FAILED] = line
                for other in range(n_lines):
                    dirty[other] = False
                return False
            for t in range(n):
                if vals[t] == -1 and out[t] != -1:
                    _assign(grid, trail, st, dirty, cols, rows, line_cells[line, t], out[t])
    return True


@njit(cache=True)
def follow(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
           vals, fwd, bwd, zp, diff, out):  # noqa: ANN001, ANN201
    """``propagate`` in rounds, as a person follows an assumption (and as ``Trial.follow`` does): each
    round line-solves, in order, the lines whose cells the previous round decided, each seeing what the
    lines before it decided. Stops after ``st[LIMIT]`` rounds (0: none); False if a line breaks by then,
    its round in ``st[ROUND]``."""
    if st[LIMIT] == 0:
        return propagate(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                         vals, fwd, bwd, zp, diff, out)
    n_lines = rows + cols
    rounds = 0
    busy = True
    while busy and rounds < st[LIMIT]:
        rounds += 1
        for line in range(n_lines):
            if not dirty[line]:
                continue
            dirty[line] = False
            n = line_len[line]
            for t in range(n):
                vals[t] = grid[line_cells[line, t]]
            st[LINES] += 1
            runs = clue_runs[clue_start[line]:clue_start[line + 1]]
            if not line_solve(vals, n, runs, fwd, bwd, zp, diff, out):
                st[FAILED] = line
                st[ROUND] = rounds
                for other in range(2 * n_lines):
                    dirty[other] = False
                return False
            for t in range(n):
                if vals[t] == -1 and out[t] != -1:
                    cell = line_cells[line, t]
                    grid[cell] = out[t]
                    trail[st[TRAIL]] = cell
                    st[TRAIL] += 1
                    dirty[n_lines + cell // cols] = True
                    dirty[n_lines + rows + cell % cols] = True
        busy = False
        for line in range(n_lines):
            dirty[line] = dirty[n_lines + line]
            dirty[n_lines + line] = False
            busy = busy or dirty[line]
    for line in range(n_lines):
        dirty[line] = False
    return True


@njit(cache=True)
def probe(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
          vals, fwd, bwd, zp, diff, out, mode, seen, held, cell):  # noqa: ANN001, ANN201
    """Assume ``cell`` filled, then empty, each followed by the line solver (for ``st[LIMIT]`` rounds, or
    to the end), and undo both. Returns
    (filled holds, empty holds, cells the filled one decided, cells the empty one decided, cells both
    decide alike); in mode 2 those last cells are left in ``held[:n]`` with ``seen`` = 2 + their value."""
    mark = st[TRAIL]
    st[PROBES] += 2
    _assign(grid, trail, st, dirty, cols, rows, cell, 1)
    ok1 = follow(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                 vals, fwd, bwd, zp, diff, out)
    got1 = st[TRAIL] - mark
    if ok1 and mode == 2:  # remember what the filled assumption decided
        for t in range(got1):
            c = trail[mark + t]
            held[t] = c
            seen[c] = grid[c]
    _undo(grid, trail, st, mark)
    _assign(grid, trail, st, dirty, cols, rows, cell, 0)
    ok0 = follow(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                 vals, fwd, bwd, zp, diff, out)
    got0 = st[TRAIL] - mark
    if ok1 and ok0 and mode == 2:  # cells both assumptions decide alike (grid holds the empty one's)
        for t in range(mark + 1, st[TRAIL]):
            c = trail[t]
            if seen[c] == grid[c]:
                seen[c] = 2 + grid[c]
    _undo(grid, trail, st, mark)
    common = 0
    if ok1 and mode == 2:
        for t in range(got1):
            c = held[t]
            if seen[c] >= 2 and ok0:
                held[common] = c
                common += 1
            else:
                seen[c] = -1
    return ok1, ok0, got1, got0, common


@njit(cache=True)
def fixpoint(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
             vals, fwd, bwd, zp, diff, out, mode, seen, held):  # noqa: ANN001, ANN201
    """Close the grid under the line solver (mode 0), plus probing: a cell whose assumption the line
    solver refutes (within ``st[LIMIT]`` rounds) takes the other value (mode 1), plus cells both
    assumptions of a cell decide alike (mode 2). Returns (ok, cell to branch on or -1): the undecided
    cell whose two probes decided the most (mode ≥ 1), else the first undecided one."""
    if not propagate(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                     vals, fwd, bwd, zp, diff, out):
        return False, -1
    ncells = rows * cols
    if mode == 0 or st[TRAIL] == ncells:
        for i in range(ncells):
            if grid[i] == -1:
                return True, i
        return True, -1
    while True:
        changed = False
        best, best_score = -1, -1
        for cell in range(ncells):
            if grid[cell] != -1:
                continue
            ok1, ok0, got1, got0, common = probe(grid, trail, st, dirty, rows, cols, line_cells, line_len,
                                                 clue_runs, clue_start, vals, fwd, bwd, zp, diff, out, mode,
                                                 seen, held, cell)
            if not ok1 and not ok0:
                return False, -1
            if not ok1 or not ok0:
                _assign(grid, trail, st, dirty, cols, rows, cell, 0 if not ok1 else 1)
            elif common > 0:
                for t in range(common):
                    c = held[t]
                    _assign(grid, trail, st, dirty, cols, rows, c, seen[c] - 2)
                    seen[c] = -1
            else:
                score = min(got1, got0) * 4 * ncells + got1 + got0
                if score > best_score:
                    best, best_score = cell, score
                continue
            changed = True
            if not propagate(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                             vals, fwd, bwd, zp, diff, out):
                return False, -1
            if st[TRAIL] == ncells:
                return True, -1
        if not changed:
            return True, best


@njit(cache=True)
def first_probe(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                vals, fwd, bwd, zp, diff, out, mode, seen, held):  # noqa: ANN001, ANN201
    """The first undecided cell (row by row) where probing finds something, without deciding it:
    (cell, 0) the filled assumption breaks, (cell, 1) the empty one breaks, (cell, 2) both hold and
    decide some cells alike (mode 2 only; ``seen`` is left clean). (-1, -1) when there is none."""
    for cell in range(rows * cols):
        if grid[cell] != -1:
            continue
        ok1, ok0, got1, got0, common = probe(grid, trail, st, dirty, rows, cols, line_cells, line_len,
                                             clue_runs, clue_start, vals, fwd, bwd, zp, diff, out, mode,
                                             seen, held, cell)
        for t in range(common):
            seen[held[t]] = -1
        if not ok1:
            return cell, 0
        if not ok0:
            return cell, 1
        if common > 0:
            return cell, 2
    return -1, -1


@njit(cache=True)
def search(grid, trail, st, dirty, marks, branch, tried, rows, cols, line_cells, line_len, clue_runs, clue_start,
           vals, fwd, bwd, zp, diff, out, seen, held, budget, limit, solutions):  # noqa: ANN001, ANN201
    """Depth-first search with probing, counting solutions (``st[COUNT]``) up to ``limit`` and copying
    the first ``solutions.shape[0]``. Runs ``budget`` nodes, then returns; ``st[PHASE]`` is DONE once
    the tree is exhausted, and the next call goes on where this one stopped."""
    ncells = rows * cols
    nodes = 0
    while st[PHASE] != DONE and nodes < budget and st[COUNT] < limit:
        if st[PHASE] == GO:
            nodes += 1
            st[NODES] += 1
            ok, cell = fixpoint(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                                vals, fwd, bwd, zp, diff, out, NODE_MODE, seen, held)
            if ok and st[TRAIL] == ncells:
                if st[COUNT] < solutions.shape[0]:
                    for i in range(ncells):
                        solutions[st[COUNT], i] = grid[i]
                st[COUNT] += 1
                ok = False
            if ok:
                d = st[DEPTH]
                marks[d] = st[TRAIL]
                branch[d] = cell
                tried[d] = 0
                st[DEPTH] = d + 1
                _assign(grid, trail, st, dirty, cols, rows, cell, 1)
            else:
                st[PHASE] = BACKTRACK
        else:
            st[PHASE] = DONE
            while st[DEPTH] > 0:
                d = st[DEPTH] - 1
                _undo(grid, trail, st, marks[d])
                if tried[d] == 0:
                    tried[d] = 1
                    _assign(grid, trail, st, dirty, cols, rows, branch[d], 0)
                    st[PHASE] = GO
                    break
                st[DEPTH] = d
    return st[PHASE] == DONE


@dataclass
class Board:
    """A puzzle in the arrays the compiled code works on, with scratch space sized for its longest line."""

    rows: int
    cols: int
    line_cells: np.ndarray
    line_len: np.ndarray
    clue_runs: np.ndarray
    clue_start: np.ndarray
    clues: list[Clue]  # rows then columns

    @classmethod
    def of(cls, puzzle: NonogramPuzzle) -> Board:
        return cls.from_clues(puzzle.rows, puzzle.cols, puzzle.row_clues, puzzle.col_clues)

    @classmethod
    def from_clues(cls, rows: int, cols: int, row_clues: list[Clue], col_clues: list[Clue]) -> Board:
        cells = np.arange(rows * cols, dtype=np.int32).reshape(rows, cols)
        line_cells = np.zeros((rows + cols, max(rows, cols)), dtype=np.int32)
        line_cells[:rows, :cols] = cells
        line_cells[rows:, :rows] = cells.T
        line_len = np.array([cols] * rows + [rows] * cols, dtype=np.int32)
        clues = [list(runs) for runs in (*row_clues, *col_clues)]
        clue_start = np.zeros(rows + cols + 1, dtype=np.int32)
        clue_start[1:] = np.cumsum([len(runs) for runs in clues])
        clue_runs = np.array([run for runs in clues for run in runs] or [0], dtype=np.int32)
        return cls(rows, cols, line_cells, line_len, clue_runs, clue_start, clues)

    def line_of(self, line: int) -> np.ndarray:
        return self.line_cells[line, : self.line_len[line]]

    def runs(self, line: int) -> np.ndarray:
        return self.clue_runs[self.clue_start[line]: self.clue_start[line + 1]]


class Scratch:
    """The arrays one line solve needs, for lines up to ``longest`` cells."""

    def __init__(self, longest: int):
        most_runs = (longest + 1) // 2
        self.vals = np.zeros(longest, dtype=np.int8)
        self.fwd = np.zeros((most_runs + 1, longest + 1), dtype=np.bool_)
        self.bwd = np.zeros((most_runs + 1, longest + 1), dtype=np.bool_)
        self.zp = np.zeros(longest + 1, dtype=np.int32)
        self.diff = np.zeros(longest + 1, dtype=np.int32)
        self.out = np.zeros(longest, dtype=np.int8)
        self.starts = np.zeros((most_runs + 1, longest), dtype=np.bool_)


class Engine:
    """One puzzle's search state: the grid, its trail, the branch stack and the counters."""

    def __init__(self, board: Board, grid: np.ndarray | None = None):
        self.board = board
        ncells = board.rows * board.cols
        self.grid = np.full(ncells, -1, dtype=np.int8) if grid is None else grid.astype(np.int8).copy()
        self.trail = np.zeros(ncells, dtype=np.int32)
        self.st = np.zeros(10, dtype=np.int64)
        self.dirty = np.zeros(2 * (board.rows + board.cols), dtype=np.bool_)  # this round's lines, the next's
        self.dirty[: board.rows + board.cols] = True
        self.marks = np.zeros(ncells + 1, dtype=np.int64)
        self.branch = np.zeros(ncells + 1, dtype=np.int32)
        self.tried = np.zeros(ncells + 1, dtype=np.int8)
        self.seen = np.full(ncells, -1, dtype=np.int8)
        self.held = np.zeros(ncells, dtype=np.int32)
        self.scratch = Scratch(max(board.rows, board.cols))
        self.count_kept: np.ndarray | None = None  # the solutions a count keeps, across its slices
        decided = np.flatnonzero(self.grid != -1)
        self.trail[: len(decided)] = decided
        self.st[TRAIL] = len(decided)

    def _core(self) -> tuple:
        b, s = self.board, self.scratch
        return (b.rows, b.cols, b.line_cells, b.line_len, b.clue_runs, b.clue_start, s.vals, s.fwd, s.bwd, s.zp,
                s.diff, s.out)

    def close_under(self, mode: int, rounds: int = 0) -> bool:
        """Apply the line solver (0), with probing (1), with both-ways probing (2) to a fixpoint; probes
        follow their assumption for ``rounds`` rounds (0: to the end)."""
        self.st[LIMIT] = rounds
        ok, _ = fixpoint(self.grid, self.trail, self.st, self.dirty, *self._core(), mode, self.seen, self.held)
        return bool(ok)

    def first_probe(self, mode: int, rounds: int = 0) -> tuple[int, int]:
        """See ``first_probe``: where probing (mode 1) or both-ways probing (mode 2) finds a step."""
        self.dirty[:] = False
        self.st[LIMIT] = rounds
        cell, what = first_probe(self.grid, self.trail, self.st, self.dirty, *self._core(), mode, self.seen,
                                 self.held)
        return int(cell), int(what)

    @property
    def undecided(self) -> int:
        return int(self.board.rows * self.board.cols - self.st[TRAIL])

    def count(self, limit: int, keep: int, deadline: Deadline, slice_nodes: int = 64) -> tuple[np.ndarray, int, bool]:
        """Count solutions up to ``limit`` keeping the first ``keep``: (solutions, count, complete)."""
        if self.count_kept is None or len(self.count_kept) != max(keep, 1):
            self.count_kept = np.zeros((max(keep, 1), self.board.rows * self.board.cols), dtype=np.int8)
        kept = self.count_kept  # a count stopped by its deadline goes on where it stopped
        while True:
            deadline.check()
            done = search(self.grid, self.trail, self.st, self.dirty, self.marks, self.branch, self.tried,
                          *self._core(), self.seen, self.held, slice_nodes, limit, kept)
            count = int(self.st[COUNT])
            if done or count >= limit:
                return kept[: min(count, keep)], count, bool(done)

    @property
    def work(self) -> dict[str, int]:
        return {"nodes": int(self.st[NODES]), "line_solves": int(self.st[LINES]), "probes": int(self.st[PROBES])}


def to_grid(flat: np.ndarray, rows: int, cols: int) -> Grid:
    return flat[: rows * cols].reshape(rows, cols).tolist()


def count_solutions(puzzle: NonogramPuzzle, limit: int, deadline: Deadline, keep: int | None = None
                    ) -> tuple[list[Grid], int, bool, dict[str, int]]:
    engine = Engine(Board.of(puzzle))
    kept, count, complete = engine.count(max(limit, 2), limit if keep is None else keep, deadline)
    return [to_grid(k, puzzle.rows, puzzle.cols) for k in kept], count, complete, engine.work


def other_solution(puzzle: NonogramPuzzle, filled: Grid, deadline: Deadline) -> Grid | None:
    """A solution other than ``filled``, or None when ``filled`` is the only one."""
    found, _, _, _ = count_solutions(puzzle, 2, deadline, keep=2)  # the search alone: exact, deadline-safe
    return next((grid for grid in found if grid != filled), None)


# --- the SAT model (the second backend) ---------------------------------------------------------------


class NonogramModel:
    """One variable per cell (true = filled) and per possible start of each run: exactly one start per
    run, each run starting after the previous one ends (plus a gap), a cell filled iff a start covers it."""

    def __init__(self, backend, puzzle: NonogramPuzzle):  # noqa: ANN001 - a SatBackend
        self.backend = backend
        rows, cols = puzzle.rows, puzzle.cols
        self.var = [[backend.new_var() for _ in range(cols)] for _ in range(rows)]
        self.cells = [v for row in self.var for v in row]
        for r, runs in enumerate(puzzle.row_clues):
            self._line([self.var[r][c] for c in range(cols)], runs)
        for c, runs in enumerate(puzzle.col_clues):
            self._line([self.var[r][c] for r in range(rows)], runs)

    def _line(self, cells: list[int], runs: Clue) -> None:
        n, k, add = len(cells), len(runs), self.backend.add_clause
        earliest = [sum(runs[:j]) + j for j in range(k)]
        latest = [n - (sum(runs[j:]) + (k - j - 1)) for j in range(k)]
        starts = [{p: self.backend.new_var() for p in range(earliest[j], latest[j] + 1)} for j in range(k)]
        covering: list[list[int]] = [[] for _ in range(n)]
        for j, options in enumerate(starts):
            self.backend.add_exactly(list(options.values()), 1)
            for p, s in options.items():
                for i in range(p, p + runs[j]):
                    add([-s, cells[i]])
                    covering[i].append(s)
                if j + 1 < k:  # the next run starts after this one and a gap
                    add([-s] + [t for q, t in starts[j + 1].items() if q >= p + runs[j] + 1])
        for i in range(n):
            add([-cells[i]] + covering[i])

    def grid(self, model: set[int]) -> Grid:
        return [[int(v in model) for v in row] for row in self.var]


def sat_count(puzzle: NonogramPuzzle, limit: int, deadline: Deadline, backend: str = "cadical",
              keep: int | None = None) -> tuple[list[Grid], int, bool, bool]:
    """Count with the SAT model: (solutions kept, count, complete, out of time). Past the deadline it
    returns what it counted instead of raising, so the caller can still report a partial count."""
    found: list[Grid] = []
    count = 0
    with make_backend(backend) as sat:
        model = NonogramModel(sat, puzzle)
        try:
            while count < limit:
                if not sat.solve(deadline):
                    return found, count, True, False
                chosen = sat.true_vars()
                count += 1
                if keep is None or len(found) < keep:
                    found.append(model.grid(chosen))
                sat.add_clause(block(chosen, model.cells))
        except BudgetExceeded:
            return found, count, False, True
    return found, count, False, False


def solve(puzzle: NonogramPuzzle, limit: int, deadline: Deadline, backend: str | None = None,
          keep: int | None = None) -> SolveOutcome:
    """``portfolio`` (the default): the search for 40% of the budget, then CaDiCaL for the rest (its
    clause learning finishes the few published puzzles the search finds hard, e.g. webpbn #6574 and
    #8098), unless the search has counted two solutions by then: it goes on counting. Past the
    deadline a count of two or more is returned with ``complete: false`` (the status "multiple" is
    certain); with fewer the puzzle's status is unknown and the budget error stands."""
    backend = backend or DEFAULT_BACKEND
    limit = max(limit, 2)
    partial: SolveOutcome | None = None
    if backend in ("search", "portfolio"):
        engine = Engine(Board.of(puzzle))
        share = deadline if backend == "search" else Deadline.after(max(0.0, deadline.remaining()) * 0.4)
        kept_count = limit if keep is None else keep
        try:
            try:
                kept, count, complete = engine.count(limit, kept_count, share)
            except BudgetExceeded:
                if backend == "search" or engine.st[COUNT] < 2:
                    raise
                # Solutions keep coming (the status is "multiple" already): counting on beats starting over.
                kept, count, complete = engine.count(limit, kept_count, deadline)
            found = [to_grid(k, puzzle.rows, puzzle.cols) for k in kept]
            return SolveOutcome([{"filled": grid} for grid in found], complete, extra={"work": engine.work},
                                count=count)
        except BudgetExceeded:
            if int(engine.st[COUNT]) >= 2:
                partial = _partial(engine, puzzle, int(engine.st[COUNT]), keep)
            if backend == "search" or partial is not None:
                if partial is not None:
                    return partial
                raise
    found, count, complete, late = sat_count(puzzle, limit, deadline, "cadical" if backend == "portfolio" else backend,
                                             keep)
    if late and partial is not None and partial.count >= count:
        return partial
    if late and count < 2:
        raise BudgetExceeded("time budget exceeded: the puzzle's solutions were not counted in time")
    return SolveOutcome([{"filled": grid} for grid in found], complete, count=count)


def _partial(engine: Engine, puzzle: NonogramPuzzle, counted: int, keep: int | None) -> SolveOutcome:
    """What a search stopped by its deadline counted (it kept its solutions in order as it went)."""
    engine_kept = engine.count_kept
    found = [to_grid(k, puzzle.rows, puzzle.cols) for k in engine_kept[: min(counted, keep or counted)]]
    return SolveOutcome([{"filled": grid} for grid in found], False, extra={"work": engine.work}, count=counted)


def warm_up() -> None:
    """Load (or compile) the numba code once per worker, outside any request."""
    puzzle = NonogramPuzzle(rows=2, cols=2, row_clues=[[1], [1]], col_clues=[[1], [1]])
    count_solutions(puzzle, 3, Deadline.never())
    engine = Engine(Board.of(puzzle))
    engine.first_probe(1, 2)
    engine.close_under(2)
    s = engine.scratch
    run_starts(s.vals, 2, engine.board.runs(0), s.fwd, s.bwd, s.zp, s.diff, s.out, s.starts)
