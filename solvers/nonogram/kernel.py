"""Nonogram's solution path compiled with numba: the steps ``SOLVER.run`` takes, without their sentences.

``solvers/nonogram/techniques.py`` writes a sentence for every step in Python, which a hint needs once but
grading (and the generator, which grades every draw of the asked level) would pay for on every line of
every look. Grading needs only which technique each step used, how far it looked and what it decided, so
this kernel walks the same path on the engine's arrays (``solvers/nonogram/rules.py``): the same looks in the
same order, with the compiled line solver and prober the techniques themselves ask.

- The three easy techniques are one pass each over every line, as ``line_steps`` makes it: each line is
  solved seeing what the lines before it in this pass decided, and a line counts for the technique
  ``explain`` would name it by.
- ``short-chain`` and ``long-chain`` take the first cell the prober refutes and follow that one
  assumption again round by round (``follow`` one round at a time: what ``Trial.follow`` does with the
  line rule), for the round it breaks in: the step's effort.
- ``either-way`` takes the first cell both of whose assumptions decide something alike, and follows both
  to the end, round by round, for what they share and how deep the deepest of it lies.

What a line or a probe tells depends only on the cells of the lines it reads, so the kernel remembers it
until one of those lines changes: per line, whether the line rule decides anything there and as which
technique; per cell, whether each assumption breaks (within two rounds, and to the end) and the lines
it read. Each look still visits the lines and cells in the techniques' order; it only skips solving
again what cannot have changed.

Every function is non-recursive and compiled with ``cache=True``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.nonogram.rules import LIMIT, LINES, TRAIL, _undo, first_probe, follow, line_solve

OVERLAP, COMPLETED_RUNS, LINE, SHORT_CHAIN, LONG_CHAIN, EITHER_WAY = range(6)  # the order of SOLVER.techniques()
EASY_KINDS = (OVERLAP, COMPLETED_RUNS, LINE)
SOLVED, STUCK, BROKEN, PAUSED, LOST = range(5)  # how a call of ``path`` ended
STEP_FIELDS = 3  # per step: technique, effort, end of its decisions
NO_ROUND = -1


STALE, NOTHING = -2, -1  # a line's memory: not looked at since it changed / the line rule decides nothing


def trial_scratch(ncells: int) -> tuple[np.ndarray, ...]:
    """Room for following assumptions: the round each cell was decided in by the one being followed, the
    first assumption's values and rounds, and the cells an either-way step decides."""
    return (np.zeros(ncells, np.int32), np.full(ncells, -1, np.int8), np.zeros(ncells, np.int32),
            np.zeros(ncells, np.int32))


def line_memory(n_lines: int) -> tuple[np.ndarray, ...]:
    """Per line: what the line rule last told there (STALE, NOTHING or the technique of its step) and
    when it last changed (the number of decisions made by then)."""
    return np.full(n_lines, STALE, np.int8), np.zeros(n_lines, np.int64)


def probe_memory(ncells: int, n_lines: int) -> tuple[np.ndarray, ...]:
    """Per cell, its last probe: when (decisions made by then; -1 never), whether each assumption held
    (bit 0 filled, bit 1 empty), how many lines it read and which."""
    return (np.full(ncells, -1, np.int64), np.zeros(ncells, np.int8), np.zeros(ncells, np.int32),
            np.zeros((ncells, n_lines), np.int16))


@njit(cache=True)
def line_kind(vals, out, n, runs):  # noqa: ANN001, ANN201 - numba
    """The technique ``explain`` names a line's step by: its runs all in place (or none), nothing decided in
    it before (overlap), else the whole line rule."""
    k = runs.shape[0]
    if k == 0:
        return COMPLETED_RUNS
    new_filled = False
    filled_now = 0
    anything = False
    for t in range(n):
        if vals[t] == 1:
            filled_now += 1
        if vals[t] != -1:
            anything = True
        elif out[t] == 1:
            new_filled = True
    if not new_filled and filled_now == runs.sum():
        return COMPLETED_RUNS
    return LINE if anything else OVERLAP


@njit(cache=True)
def _decide(grid, trail, st, rows, cols, lines, decisions, counters, cell, value):  # noqa: ANN001, ANN202
    """A step's decision: on the grid and the trail, in the log, and its two lines marked changed."""
    grid[cell] = value
    trail[st[TRAIL]] = cell
    st[TRAIL] += 1
    decisions[counters[1], 0] = cell
    decisions[counters[1], 1] = value
    counters[1] += 1
    seen, changed = lines
    for line in (cell // cols, rows + cell % cols):
        seen[line] = STALE
        changed[line] = counters[1]


@njit(cache=True)
def _log(steps, counters, technique, effort):  # noqa: ANN001, ANN202
    k = counters[0]
    steps[k, 0] = technique
    steps[k, 1] = effort
    steps[k, 2] = counters[1]
    counters[0] = k + 1


@njit(cache=True)
def line_look(grid, trail, st, rows, cols, line_cells, line_len, clue_runs, clue_start, vals, fwd, bwd, zp, diff,
              out, lines, kind, steps, decisions, counters):  # noqa: ANN001, ANN201
    """One look of an easy technique (``line_steps`` over every line with one kind): how many steps it
    took, or -1 where a line can no longer be completed. A line unchanged since the line rule last
    looked at it is solved again only if its step is of this kind."""
    seen = lines[0]
    found = 0
    for line in range(rows + cols):
        if seen[line] == NOTHING or (seen[line] != STALE and seen[line] != kind):
            continue
        n = line_len[line]
        anything = False
        for t in range(n):
            vals[t] = grid[line_cells[line, t]]
            anything = anything or vals[t] != -1
        if kind == OVERLAP and anything:
            continue
        st[LINES] += 1
        runs = clue_runs[clue_start[line]:clue_start[line + 1]]
        if not line_solve(vals, n, runs, fwd, bwd, zp, diff, out):
            return -1
        decided = False
        for t in range(n):
            decided = decided or (vals[t] == -1 and out[t] != -1)
        seen[line] = line_kind(vals, out, n, runs) if decided else NOTHING
        if seen[line] != kind:
            continue
        for t in range(n):
            if vals[t] == -1 and out[t] != -1:
                _decide(grid, trail, st, rows, cols, lines, decisions, counters, line_cells[line, t], out[t])
        _log(steps, counters, kind, 1)
        found += 1
    return found


@njit(cache=True)
def _probe_fresh(memory, changed, cell):  # noqa: ANN001, ANN202
    """Whether ``cell``'s remembered probe still holds: none of the lines it read changed since."""
    when, _, count, read = memory
    if when[cell] < 0:
        return False
    for i in range(count[cell]):  # noqa: SIM110 - numba
        if changed[read[cell, i]] > when[cell]:
            return False
    return True


@njit(cache=True)
def first_refuted(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start, vals, fwd, bwd,
                  zp, diff, out, rounds, memory, changed, reading, when, counters):  # noqa: ANN001, ANN201
    """What ``first_probe`` finds in mode 1 (the first undecided cell, row by row, one of whose assumptions
    breaks within ``rounds`` rounds, 0: to the end; (cell, 0) the filled one, (cell, 1) the empty one, else
    (-1, -1)), probing again only the cells whose remembered probe read a line that changed. A probe
    reads the lines through its cell and through the cells it decides before its last round; ``reading``
    marks them once."""
    last_round = rows * cols + 1 if rounds == 0 else rounds
    probed, held, count, read = memory
    for cell in range(rows * cols):
        if grid[cell] != -1:
            continue
        if not _probe_fresh(memory, changed, cell):
            mark = st[TRAIL]
            count[cell] = 0
            held[cell] = 0
            for value in (1, 0):
                if follow_rounds(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                                 vals, fwd, bwd, zp, diff, out, cell, value, last_round, when) == NO_ROUND:
                    held[cell] |= 1 if value == 1 else 2
                for t in range(mark, st[TRAIL]):
                    c = trail[t]
                    if when[c] >= last_round:
                        continue
                    for line in (c // cols, rows + c % cols):
                        if not reading[line]:
                            reading[line] = True
                            read[cell, count[cell]] = line
                            count[cell] += 1
                _undo(grid, trail, st, mark)
            for i in range(count[cell]):
                reading[read[cell, i]] = False
            probed[cell] = counters[1]
        if not held[cell] & 1:
            return cell, 0
        if not held[cell] & 2:
            return cell, 1
    return -1, -1


@njit(cache=True)
def follow_rounds(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                  vals, fwd, bwd, zp, diff, out, cell, value, max_rounds, when):  # noqa: ANN001, ANN201
    """Assume ``cell`` = ``value`` and follow it one round at a time for up to ``max_rounds`` rounds, as
    ``Trial.follow`` does with the line rule: ``when[c]`` is the round each cell was decided in (0 for the
    assumption). Returns the round a line broke in, or NO_ROUND; the cells stay decided (undo them to
    ``st[TRAIL]`` as it was before)."""
    n_lines = rows + cols
    first = st[TRAIL]
    grid[cell] = value
    trail[first] = cell
    st[TRAIL] = first + 1
    when[cell] = 0
    dirty[cell // cols] = True
    dirty[rows + cell % cols] = True
    st[LIMIT] = 1
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        before = st[TRAIL]
        if not follow(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                      vals, fwd, bwd, zp, diff, out):
            return rounds
        if st[TRAIL] == before:
            break
        for t in range(before, st[TRAIL]):
            c = trail[t]
            when[c] = rounds
            dirty[c // cols] = True
            dirty[rows + c % cols] = True
    for line in range(n_lines):
        dirty[line] = False
    return NO_ROUND


@njit(cache=True)
def path(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start, vals, fwd, bwd, zp, diff,
         out, seen, held, trial, lines, short_memory, long_memory, reading, upto, short_rounds, steps, decisions,
         counters, budget):  # noqa: ANN001, ANN201
    """Go on with the solution path from ``grid`` (every decided cell on the trail) with the levels up to
    ``upto`` (``short-chain`` following its assumption for ``short_rounds`` rounds), logging each step and
    its decisions, until it is solved, stuck or has line-solved ``budget`` lines (PAUSED: call again).
    BROKEN where a technique sees a broken rule, LOST where the prober's cell does not break when followed
    round by round (never seen): the Python techniques take over."""
    when, first_value, _, shared = trial
    changed = lines[1]
    ncells = rows * cols
    n_lines = rows + cols
    start_lines = st[LINES]
    while st[LINES] - start_lines < budget:
        if st[TRAIL] == ncells:
            for line in range(n_lines):  # the path's last look: the first level sees a broken line
                n = line_len[line]
                for t in range(n):
                    vals[t] = grid[line_cells[line, t]]
                if not line_solve(vals, n, clue_runs[clue_start[line]:clue_start[line + 1]], fwd, bwd, zp, diff,
                                  out):
                    return BROKEN
            return SOLVED
        found = 0
        for kind in EASY_KINDS:
            found = line_look(grid, trail, st, rows, cols, line_cells, line_len, clue_runs, clue_start, vals, fwd,
                              bwd, zp, diff, out, lines, kind, steps, decisions, counters)
            if found != 0:
                break
        if found < 0:
            return BROKEN
        if found > 0:
            continue
        if upto < 1:
            return STUCK
        technique = SHORT_CHAIN
        cell, what = first_refuted(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                                   vals, fwd, bwd, zp, diff, out, short_rounds, short_memory, changed, reading,
                                   when, counters)
        if what not in (0, 1) and upto >= 2:
            technique = LONG_CHAIN
            cell, what = first_refuted(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs,
                                       clue_start, vals, fwd, bwd, zp, diff, out, 0, long_memory, changed, reading,
                                       when, counters)
        if what in (0, 1):
            assumed = 1 if what == 0 else 0
            mark = st[TRAIL]
            broke = follow_rounds(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                                  vals, fwd, bwd, zp, diff, out, cell, assumed,
                                  short_rounds if technique == SHORT_CHAIN else ncells + 1, when)
            _undo(grid, trail, st, mark)
            if broke == NO_ROUND:
                return LOST  # the prober and the followed assumption disagree: Python follows it instead
            _decide(grid, trail, st, rows, cols, lines, decisions, counters, cell, 1 - assumed)
            _log(steps, counters, technique, broke)
            continue
        if upto < 2:
            return STUCK
        st[LIMIT] = 0
        cell, what = first_probe(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                                 vals, fwd, bwd, zp, diff, out, 2, seen, held)
        if what != 2:
            return STUCK
        depth, common = either_way(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start,
                                   vals, fwd, bwd, zp, diff, out, cell, trial)
        if common == 0:
            return STUCK
        for i in range(common):
            c = shared[i]
            _decide(grid, trail, st, rows, cols, lines, decisions, counters, c, first_value[c])
        for i in range(common):
            first_value[shared[i]] = -1
        _log(steps, counters, EITHER_WAY, depth)
    return PAUSED


@njit(cache=True)
def either_way(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start, vals, fwd, bwd,
               zp, diff, out, cell, trial):  # noqa: ANN001, ANN201
    """Follow ``cell`` filled, then empty, each to the end: (the deepest round either assumption decided one
    of the cells both decide alike in, how many those are); the cells go in index order into ``shared``,
    their values into ``first_value``. (0, 0) where an assumption breaks."""
    when, first_value, first_when, shared = trial
    ncells = rows * cols
    mark = st[TRAIL]
    if follow_rounds(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start, vals, fwd,
                     bwd, zp, diff, out, cell, 1, ncells + 1, when) != NO_ROUND:
        _undo(grid, trail, st, mark)
        return 0, 0
    reached = st[TRAIL] - mark
    for t in range(mark, st[TRAIL]):
        c = trail[t]
        first_value[c] = grid[c]
        first_when[c] = when[c]
    for t in range(reached):  # the filled assumption's cells, kept while the grid is undone
        shared[t] = trail[mark + t]
    _undo(grid, trail, st, mark)
    broke = follow_rounds(grid, trail, st, dirty, rows, cols, line_cells, line_len, clue_runs, clue_start, vals,
                          fwd, bwd, zp, diff, out, cell, 0, ncells + 1, when)
    common = 0
    depth = 0
    if broke == NO_ROUND:
        for t in range(mark, st[TRAIL]):
            c = trail[t]
            if first_value[c] == grid[c]:
                first_value[c] = 2 + grid[c]  # marked: both decide it alike
    _undo(grid, trail, st, mark)
    for t in range(reached):
        c = shared[t]
        if first_value[c] >= 2:
            first_value[c] -= 2
            shared[common] = c
            common += 1
            depth = max(depth, first_when[c], when[c])
        else:
            first_value[c] = -1
    shared[:common].sort()
    return depth, common
