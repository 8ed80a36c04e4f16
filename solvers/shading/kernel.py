"""The shading techniques (Dabuhamienai's, Hitori's) compiled with numba: which cells each decides, never how a player reads it.

``solvers/shading/techniques.py`` defines the techniques and their sentences; the functions here
find the same cells in the same order on flat arrays (a state is one int8 per cell: -1 undecided,
0 unshaded, 1 shaded), so that the look-aheads, which follow thousands of assumptions per puzzle,
cost microseconds each. Python turns what they return into the player's steps.

An assumption is followed exactly as ``human.Trial.follow`` follows it with the three local basic
techniques: in rounds, the first technique (in order) that finds something applies all it found,
each looking only around the cells decided since its own last look (a trial lists its decisions in
order, so those are the tail of the list from where that look stopped). What a trial decides and
when, and the round of its contradiction, do not depend on the order in which a technique visits
those cells; only which broken rule it names first does, and Python finds that by following the one
assumption it quotes again. ``main_path`` runs ``HumanSolver.run`` as a whole: every round, the
techniques in order up to the first that finds something.

Arrays travel in three records: the board (``BoardArrays``), the scratch space of one thread
(``Scratch``) and the trials of one state (``TrialCache``). Every function is non-recursive and
compiled with ``cache=True``; the techniques module's ``warm_up`` loads them all.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

UNDECIDED, WHITE, SHADED = -1, 0, 1
BROKEN = -1  # returned by a technique that sees a broken rule
NEAR, FAR, DEEP = 4, 6, 10_000  # rounds of the three look-aheads (a genre's ladder may choose others)
# What a step of the main path is (a genre's ladder lists them in its order, each with its level, rounds and
# whether its trials take the lone-cell last exit):
NEIGHBOURS, DUPLICATE, LAST_EXIT, CUT_OFF, PAIRS, GROUPS, SHORT_CHAIN, LONG_CHAIN, LONE_EXIT = range(9)


class BoardArrays(NamedTuple):
    """A board as the techniques here read it (``board_arrays``): its cells' neighbours and its segments (sets
    of cells at least one of which is shaded), both ways round."""

    neighbours: np.ndarray  # per cell, up to four in the order up, down, left, right, padded with -1
    segment_start: np.ndarray  # per segment, where its cells start in segment_cells, then one past the last
    segment_cells: np.ndarray
    cell_start: np.ndarray  # per cell, where its segments start in cell_segments, then one past the last
    cell_segments: np.ndarray
    by_length: np.ndarray  # the segments shortest first (a stable sort, as ``sorted(segments, key=len)``)


class Scratch(NamedTuple):
    """One thread's working space (``scratch``). A mark array holds stamps from ``clock`` (``_tick``): a mark
    equal to the current stamp was set since, so no mark array ever needs clearing."""

    found: np.ndarray  # the cells a technique found
    mark: np.ndarray  # per cell: found in this look
    segment_mark: np.ndarray  # per segment: looked at in this look
    seen: np.ndarray  # per cell: reached by this flood
    exits: np.ndarray  # per cell: a way out of this flood's group
    stack: np.ndarray  # a flood's cells to visit
    clock: np.ndarray  # the last stamp given


class TrialCache(NamedTuple):
    """Room for both assumptions on every cell (``trial_cache``), a row per trial ``cell * 2 + value``:
    the trials followed from one state, each on from where it stopped (see ``follow``)."""

    rounds: np.ndarray  # rounds followed (-1: none)
    finished: np.ndarray  # nothing more follows
    broken: np.ndarray  # the round of its contradiction, or 0
    decided: np.ndarray  # how many cells it decided
    when: np.ndarray  # per cell, the round it was decided in (-1: not decided)
    values: np.ndarray  # its state
    order: np.ndarray  # the cells it decided, in order
    looked: np.ndarray  # per local technique, how many of those it had seen at its last look
    whites: np.ndarray  # its unshaded cells


@njit(cache=True)
def _line_cell(n, line, k):
    """The k-th cell of line ``line``: rows 0..n-1, then columns."""
    return line * n + k if line < n else k * n + (line - n)


@njit(cache=True)
def board_arrays(numbers, spans):
    """The board of an N×N grid of numbers. With ``spans`` (a run may not repeat a number) a segment is the
    cells from one number to the next equal one in a row (rows first) or a column, inclusive; without (a
    whole line may not) it is every two equal numbers of a line, the two cells alone."""
    n = numbers.shape[0]
    cells = n * n
    adj = np.full((cells, 4), -1, np.int32)
    for r in range(n):
        for c in range(n):
            i, d = r * n + c, 0
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n:
                    adj[i, d] = rr * n + cc
                    d += 1
    last_at = np.empty(n + 1, np.int32)
    segments, total = 0, 0
    seg_start = np.zeros(1, np.int32)
    seg_cells = np.empty(0, np.int32)
    for fill in range(2):  # count, then fill
        if fill:
            seg_start = np.zeros(segments + 1, np.int32)
            seg_cells = np.empty(total, np.int32)
            segments, total = 0, 0
        for line in range(2 * n):
            last_at[:] = -1
            for k in range(n):
                cell = _line_cell(n, line, k)
                number = numbers[cell // n, cell % n]
                first = last_at[number] if spans else 0
                for j in range(max(first, 0), k if first >= 0 else 0):
                    other = _line_cell(n, line, j)
                    if spans:  # the one segment from the last equal number
                        for m in range(j, k + 1):
                            if fill:
                                seg_cells[total] = _line_cell(n, line, m)
                            total += 1
                    elif numbers[other // n, other % n] == number:
                        if fill:
                            seg_cells[total], seg_cells[total + 1] = other, cell
                        total += 2
                    else:
                        continue
                    segments += 1
                    if fill:
                        seg_start[segments] = total
                    if spans:
                        break
                last_at[number] = k
    counts = np.zeros(cells + 1, np.int32)
    for p in range(total):
        counts[seg_cells[p] + 1] += 1
    so_start = np.cumsum(counts).astype(np.int32)
    so = np.empty(total, np.int32)
    placed = so_start[:-1].copy()
    for k in range(segments):
        for p in range(seg_start[k], seg_start[k + 1]):
            i = seg_cells[p]
            so[placed[i]] = k
            placed[i] += 1
    by_length = np.argsort(seg_start[1:] - seg_start[:-1], kind="mergesort").astype(np.int32)
    return BoardArrays(adj, seg_start, seg_cells, so_start, so, by_length)


def scratch(cells: int, segment_count: int) -> Scratch:
    return Scratch(found=np.zeros(cells, np.int32), mark=np.zeros(cells, np.int64),
                   segment_mark=np.zeros(max(segment_count, 1), np.int64), seen=np.zeros(cells, np.int64),
                   exits=np.zeros(cells, np.int64), stack=np.zeros(cells, np.int32), clock=np.zeros(1, np.int64))


def trial_cache(cells: int) -> TrialCache:
    trials = 2 * cells
    return TrialCache(rounds=np.full(trials, -1, np.int32), finished=np.zeros(trials, np.bool_),
                      broken=np.zeros(trials, np.int32), decided=np.zeros(trials, np.int32),
                      when=np.empty((trials, cells), np.int16), values=np.empty((trials, cells), np.int8),
                      order=np.empty((trials, cells), np.int16), looked=np.zeros((trials, 3), np.int32),
                      whites=np.zeros(trials, np.int32))


@njit(cache=True)
def reset(cache):
    cache.rounds[:] = -1
    cache.finished[:] = False


@njit(cache=True)
def _tick(clock):
    """A fresh stamp: marks equal to it were set since, so no mark array ever needs clearing."""
    clock[0] += 1
    return clock[0]


@njit(cache=True)
def _near_neighbours(board, vals, order, first, last, work):
    """shaded-neighbours around the pending cells: the undecided neighbours of a shaded one."""
    adj = board.neighbours
    found, mark, clock = work.found, work.mark, work.clock
    stamp = _tick(clock)
    count = 0
    for t in range(first, last):
        i = order[t]
        if vals[i] != SHADED:
            continue
        for d in range(4):
            j = adj[i, d]
            if j < 0:
                break
            if vals[j] == UNDECIDED:
                if mark[j] != stamp:
                    mark[j] = stamp
                    found[count] = j
                    count += 1
            elif vals[j] == SHADED:
                return BROKEN
    return count


@njit(cache=True)
def _segment_open(board, vals, k):
    """(undecided cells of segment ``k``, the last of them), or (-1, -1) if a cell of it is shaded."""
    seg_start, seg_cells = board.segment_start, board.segment_cells
    open_count, open_cell = 0, -1
    for p in range(seg_start[k], seg_start[k + 1]):
        v = vals[seg_cells[p]]
        if v == SHADED:
            return -1, -1
        if v == UNDECIDED:
            open_count += 1
            open_cell = seg_cells[p]
    return open_count, open_cell


@njit(cache=True)
def _near_duplicate(board, vals, order, first, last, work):
    """duplicate on the segments through the pending cells: the one cell left to split a pair."""
    so_start, so = board.cell_start, board.cell_segments
    found, mark, segmark, clock = work.found, work.mark, work.segment_mark, work.clock
    stamp = _tick(clock)
    count = 0
    for t in range(first, last):
        i = order[t]
        for q in range(so_start[i], so_start[i + 1]):
            k = so[q]
            if segmark[k] == stamp:
                continue
            segmark[k] = stamp
            open_count, open_cell = _segment_open(board, vals, k)
            if open_count == 0:
                return BROKEN
            if open_count == 1 and mark[open_cell] != stamp:
                mark[open_cell] = stamp
                found[count] = open_cell
                count += 1
    return count


@njit(cache=True)
def _near_last_exit(board, vals, whites, order, first, last, work, lone):
    """last-exit on the unshaded groups at or beside the pending cells. A flood stops at a group's
    second way out: such a group is neither walled in nor down to its last exit. With ``lone``, only
    groups of one cell count (lone-exit): a flood stops at an unshaded neighbour."""
    adj = board.neighbours
    found, mark, seen, exits, stack, clock = work.found, work.mark, work.seen, work.exits, work.stack, work.clock
    stamp = _tick(clock)  # the floods of this look take larger stamps
    count = 0
    for t in range(first, last):
        i = order[t]
        for d in range(-1, 4):
            s = i if d < 0 else adj[i, d]
            if s < 0:
                break
            if vals[s] != WHITE or seen[s] > stamp:
                continue
            flood = _tick(clock)
            seen[s] = flood
            stack[0] = s
            depth, size, ways, way = 1, 0, 0, -1
            while depth > 0 and ways < 2:
                depth -= 1
                x = stack[depth]
                size += 1
                for e in range(4):
                    y = adj[x, e]
                    if y < 0:
                        break
                    v = vals[y]
                    if v == WHITE and lone:
                        size = -1  # not a lone cell
                        break
                    if v == WHITE:
                        if seen[y] != flood:
                            seen[y] = flood
                            stack[depth] = y
                            depth += 1
                    elif v == UNDECIDED and exits[y] != flood:
                        exits[y] = flood
                        ways += 1
                        way = y
                        if ways == 2:
                            break
            if size < 0 or ways >= 2 or size == whites:
                continue
            if ways == 0:
                return BROKEN
            if mark[way] != stamp:
                mark[way] = stamp
                found[count] = way
                count += 1
    return count


@njit(cache=True)
def _near_local(k, board, vals, whites, order, pending, decided, work, lone=False):
    """The k-th local basic technique (neighbours, duplicate, last exit or, ``lone``, lone exit) around the
    pending cells."""
    if k == 0:
        return _near_neighbours(board, vals, order, pending, decided, work)
    if k == 1:
        return _near_duplicate(board, vals, order, pending, decided, work)
    return _near_last_exit(board, vals, whites, order, pending, decided, work, lone)


@njit(cache=True)
def follow(board, vals, when, order, decided, looked, rounds, max_rounds, whites, work, lone=False):
    """Follow a trial on to at most ``max_rounds`` rounds (changing its rows in place): ``vals`` its state,
    ``when`` each decided cell's round (-1: not decided), ``order`` its decided cells in order (the first
    ``decided`` of them), ``looked[k]`` how many of those technique k had seen at its last look (the
    others are its pending cells), ``rounds`` the rounds followed so far, ``whites`` its unshaded cells.
    With ``lone`` the third technique is lone-exit. Returns (rounds, cells decided, round of the
    contradiction or 0, finished, unshaded cells)."""
    found = work.found
    broken, finished = 0, False
    while rounds < max_rounds and not finished:
        rounds += 1
        finished = True
        for k in range(3):
            pending = looked[k]
            looked[k] = decided
            count = _near_local(k, board, vals, whites, order, pending, decided, work, lone)
            if count == BROKEN:
                broken = rounds
                break
            if count > 0:
                decided_value = SHADED if k == 1 else WHITE
                for t in range(count):
                    j = found[t]
                    vals[j] = decided_value
                    when[j] = rounds
                    order[decided] = j
                    decided += 1
                if decided_value == WHITE:
                    whites += count
                finished = False
                break
    return rounds, decided, broken, finished, whites


@njit(cache=True)
def ensure_trial(board, base, whites, trial, max_rounds, cache, work, lone=False):
    """Trial ``trial`` (= cell * 2 + value) of the cache, followed for at least ``max_rounds`` rounds or
    to its end (on from where it stopped, if it was followed from this state before; a cache holds the
    trials of one kind, ``lone`` or not). Returns the round of its contradiction, or 0."""
    t_rounds, t_finished, t_broken, t_count, t_whites = cache.rounds, cache.finished, cache.broken, cache.decided, cache.whites
    t_when, t_vals, t_order, t_looked = cache.when, cache.values, cache.order, cache.looked
    if t_rounds[trial] < max_rounds and not t_finished[trial]:
        vals, when, order, looked = t_vals[trial], t_when[trial], t_order[trial], t_looked[trial]
        if t_rounds[trial] < 0:
            cell, value = trial >> 1, trial & 1
            vals[:] = base
            when[:] = -1
            vals[cell], when[cell], order[0] = value, 0, cell
            looked[:] = 0
            t_rounds[trial], t_count[trial], t_whites[trial] = 0, 1, whites + (value == WHITE)
        rounds, decided, broken, finished, now_white = follow(board, vals, when, order, t_count[trial], looked,
                                                             t_rounds[trial], max_rounds, t_whites[trial], work,
                                                             lone)
        t_rounds[trial], t_count[trial], t_broken[trial] = rounds, decided, broken
        t_finished[trial], t_whites[trial] = finished, now_white
    return t_broken[trial]


@njit(cache=True)
def _count_whites(vals):
    whites = 0
    for v in vals:
        whites += v == WHITE
    return whites


@njit(cache=True)
def either_way(board, base, groups, max_rounds, cache, work, lone=False):
    """``human.either_way`` with the basic local trials: over the open pairs (``groups`` 0: segments
    with two undecided cells, in order) or groups (1: three or four, shortest segments first), what
    every surviving choice decides alike within ``max_rounds`` rounds (trials with lone-exit, ``lone``).

    Returns per step: its segment, offsets into the decided cells and their values, the depth, and
    up to two choices that broke a rule (-1 padded)."""
    t_count, t_when, t_vals, t_order = cache.decided, cache.when, cache.values, cache.order
    seg_start, seg_cells, by_length = board.segment_start, board.segment_cells, board.by_length
    segments = seg_start.size - 1
    cells = base.size
    whites = _count_whites(base)
    taken = np.zeros(cells, np.bool_)  # decided by an earlier group of this look
    step_segment = np.empty(segments, np.int32)
    step_start = np.zeros(segments + 1, np.int32)
    step_cells = np.empty(cells, np.int32)
    step_values = np.empty(cells, np.int8)
    step_depth = np.empty(segments, np.int32)
    step_dead = np.full((segments, 2), -1, np.int32)
    open_cells = np.empty(5, np.int32)
    alive = np.empty(4, np.int32)
    ruled_out = np.empty(2, np.int32)
    common = np.empty(cells, np.int32)
    steps, pool = 0, 0
    for index in range(segments):
        k = index if groups == 0 else by_length[index]
        open_count = 0
        for p in range(seg_start[k], seg_start[k + 1]):
            v = base[seg_cells[p]]
            if v == SHADED:
                open_count = -1
                break
            if v == UNDECIDED:
                if open_count < 5:
                    open_cells[open_count] = seg_cells[p]
                open_count += 1
        if (groups == 0 and open_count != 2) or (groups == 1 and not 2 < open_count <= 4):
            continue
        living, dead = 0, 0
        for q in range(open_count):
            trial = open_cells[q] * 2 + SHADED
            broken = ensure_trial(board, base, whites, trial, max_rounds, cache, work, lone)
            if broken == 0 or broken > max_rounds:
                alive[living] = trial
                living += 1
            elif dead < 2:
                ruled_out[dead] = open_cells[q]
                dead += 1
        if living == 0:
            continue
        first = alive[0]
        found = 0
        for p in range(t_count[first]):
            i = t_order[first, p]
            if t_when[first, i] > max_rounds:
                break  # cells are listed in the order of their rounds
            if base[i] != UNDECIDED or taken[i]:
                continue
            value = t_vals[first, i]
            agree = True
            for a in range(1, living):
                other = alive[a]
                w = t_when[other, i]
                if w < 0 or w > max_rounds or t_vals[other, i] != value:
                    agree = False
                    break
            if agree:
                common[found] = i
                found += 1
        if found == 0:
            continue
        chosen = np.sort(common[:found])
        depth = 0
        for i in chosen:
            taken[i] = True
            step_cells[pool] = i
            step_values[pool] = t_vals[first, i]
            pool += 1
            for a in range(living):
                depth = max(depth, t_when[alive[a], i])
        step_segment[steps] = k
        step_depth[steps] = depth
        step_dead[steps, :dead] = ruled_out[:dead]
        steps += 1
        step_start[steps] = pool
    return steps, step_segment, step_start, step_cells, step_values, step_depth, step_dead


@njit(cache=True)
def candidates(board, base):
    """The cells ``contradiction_candidates`` tries, in its order: cells of segments with no shaded cell
    (shortest segments first), then the other undecided cells."""
    seg_start, seg_cells, by_length = board.segment_start, board.segment_cells, board.by_length
    cells = base.size
    listed = np.zeros(cells, np.bool_)
    order = np.empty(cells, np.int32)
    count = 0
    for k in by_length:
        if _segment_open(board, base, k)[0] < 0:
            continue
        for p in range(seg_start[k], seg_start[k + 1]):
            i = seg_cells[p]
            if base[i] == UNDECIDED and not listed[i]:
                listed[i] = True
                order[count] = i
                count += 1
    for i in range(cells):
        if base[i] == UNDECIDED and not listed[i]:
            order[count] = i
            count += 1
    return order[:count]


@njit(cache=True)
def first_contradiction(board, base, max_rounds, cache, work):
    """``human.by_contradiction`` with the basic local trials (short-chain), trying ``candidates`` in order,
    shading before unshading. Returns (cell, value, round) of the first assumption that breaks a rule
    within ``max_rounds`` rounds, or (-1, -1, 0)."""
    whites = _count_whites(base)
    for cell in candidates(board, base):
        for value in (SHADED, WHITE):
            broken = ensure_trial(board, base, whites, cell * 2 + value, max_rounds, cache, work)
            if 0 < broken <= max_rounds:
                return cell, value, broken
    return -1, -1, 0


@njit(cache=True)
def long_trial(board, base, cell, value, nested, work):
    """The trial of long-chain: ``cell`` = ``value`` followed as far as it goes with the basic techniques
    (the local three around what changed, cut-off on the whole grid) and the near look-aheads (whose own
    trials go in ``nested``), each round applying the first that finds something, as ``Trial.follow``
    does. Returns the round of its contradiction, or 0."""
    found = work.found
    vals = base.copy()
    order = np.empty(base.size, np.int16)
    vals[cell], order[0] = value, cell
    decided, looked = 1, np.zeros(3, np.int32)
    whites = _count_whites(vals)
    rounds = 0
    while True:
        rounds += 1
        count = 0
        for k in range(6):
            if k < 3:
                pending = looked[k]
                looked[k] = decided
                count = _near_local(k, board, vals, whites, order, pending, decided, work)
                if count == BROKEN:
                    return rounds
                for t in range(count):
                    vals[found[t]] = SHADED if k == 1 else WHITE
                    order[decided] = found[t]
                    decided += 1
                if k != 1:
                    whites += count
            elif k == 3:
                count, cuts, _ = split_points(board, vals, False)
                for t in range(count):
                    if vals[cuts[t]] == UNDECIDED:  # a cut cell can be listed once per side it cuts off
                        vals[cuts[t]] = WHITE
                        order[decided] = cuts[t]
                        decided += 1
                        whites += 1
            else:
                if k == 4:
                    reset(nested)
                count, _, offsets, cells, values, _, _ = either_way(board, vals, k - 4, NEAR, nested, work)
                for p in range(offsets[count]):
                    vals[cells[p]] = values[p]
                    order[decided] = cells[p]
                    decided += 1
                    whites += values[p] == WHITE
            if count > 0:
                break
        if count == 0:
            return 0


@njit(cache=True)
def first_long_contradiction(board, base, first, last, nested, work):
    """long-chain over ``candidates(board, base)[first:last]``: the first assumption (shading before
    unshading) whose ``long_trial`` breaks a rule, as (cell, value, round), or (-1, -1, 0). The caller
    goes through the candidates a slice at a time, so that it can keep its deadline."""
    for cell in candidates(board, base)[first:last]:
        for value in (SHADED, WHITE):
            broken = long_trial(board, base, cell, value, nested, work)
            if broken:
                return cell, value, broken
    return -1, -1, 0


# The basic techniques on the whole grid (the main path). Each returns what Python needs to write its
# steps, in the order the reference finds them; a negative count means a broken rule.


@njit(cache=True)
def shaded_with_open_neighbours(board, vals):
    """Shaded cells with an undecided neighbour, in order; or count -1 and the first two touching
    shaded cells (the first shaded cell with a shaded neighbour, and that neighbour)."""
    adj = board.neighbours
    out = np.empty(vals.size, np.int32)
    count = 0
    for i in range(vals.size):
        if vals[i] != SHADED:
            continue
        around = False
        for d in range(4):
            j = adj[i, d]
            if j < 0:
                break
            if vals[j] == SHADED:
                out[0], out[1] = i, j
                return -1, out
            around = around or vals[j] == UNDECIDED
        if around:
            out[count] = i
            count += 1
    return count, out


@njit(cache=True)
def lone_open_cells(board, vals):
    """(segment, its one undecided cell) of every segment with no shaded cell and one undecided, in
    order; or count -1 and the first segment with none undecided."""
    segments = board.segment_start.size - 1
    out = np.empty((segments, 2), np.int32)
    count = 0
    for k in range(segments):
        open_count, open_cell = _segment_open(board, vals, k)
        if open_count == 0:
            out[0, 0] = k
            return -1, out
        if open_count == 1:
            out[count, 0], out[count, 1] = k, open_cell
            count += 1
    return count, out


@njit(cache=True)
def last_exits(board, vals, lone=False):
    """Unshaded groups (each in the order ``white_components`` lists its cells) with one undecided
    neighbour, and that neighbour, in order; or count -1 and the first group walled in (as group 0).
    With ``lone``, groups of one cell only (lone-exit)."""
    adj = board.neighbours
    cells = vals.size
    whites = _count_whites(vals)
    seen = np.zeros(cells, np.bool_)
    is_exit = np.full(cells, -1, np.int32)
    stack = np.empty(cells, np.int32)
    group_start = np.zeros(cells + 1, np.int32)
    group_cells = np.empty(cells, np.int32)
    way_out = np.empty(cells, np.int32)
    count, pool = 0, 0
    for s in range(cells):
        if vals[s] != WHITE or seen[s]:
            continue
        seen[s] = True
        stack[0] = s
        depth, start, ways, way = 1, pool, 0, -1
        while depth > 0:
            depth -= 1
            x = stack[depth]
            group_cells[pool] = x
            pool += 1
            for e in range(4):
                y = adj[x, e]
                if y < 0:
                    break
                if vals[y] == WHITE:
                    if not seen[y]:
                        seen[y] = True
                        stack[depth] = y
                        depth += 1
                elif vals[y] == UNDECIDED and is_exit[y] != s:
                    is_exit[y] = s
                    ways += 1
                    way = y
        if pool - start == whites or ways > 1 or (lone and pool - start > 1):
            pool = start
            continue
        if ways == 0:
            group_cells[:pool - start] = group_cells[start:pool]
            group_start[1] = pool - start
            return -1, group_start, group_cells, way_out
        way_out[count] = way
        count += 1
        group_start[count] = pool
    return count, group_start, group_cells, way_out


@njit(cache=True)
def split_points(board, vals, sides):
    """``split_points`` of the techniques module (Tarjan's low-links over the cells not shaded, an
    explicit stack): the undecided cut cells in the same order, and with ``sides`` (for sentences) the
    first three (by index) unshaded cells of the side each would cut off."""
    adj = board.neighbours
    cells = vals.size
    rows = np.empty((10, cells), np.int32)  # one allocation: this runs in every round that gets this far
    order, low, whites_below, size_below = rows[0], rows[1], rows[2], rows[3]
    stack_v, stack_parent, stack_next, cut_cell, cut_child, found = rows[4], rows[5], rows[6], rows[7], rows[8], rows[9]
    order[:] = -1
    low[:] = 0
    whites_below[:] = 0
    size_below[:] = 1
    stranded = np.full((cells if sides else 0, 3), -1, np.int32)
    count, time = 0, 0
    for root in range(cells):
        if vals[root] == SHADED or order[root] != -1:
            continue
        cuts = 0
        order[root] = low[root] = time
        time += 1
        stack_v[0], stack_parent[0], stack_next[0] = root, -1, 0
        depth = 1
        while depth > 0:
            v, parent = stack_v[depth - 1], stack_parent[depth - 1]
            advanced = False
            while stack_next[depth - 1] < 4:
                w = adj[v, stack_next[depth - 1]]
                stack_next[depth - 1] += 1
                if w < 0:
                    break
                if vals[w] == SHADED or w == parent:
                    continue
                if order[w] == -1:
                    order[w] = low[w] = time
                    time += 1
                    stack_v[depth], stack_parent[depth], stack_next[depth] = w, v, 0
                    depth += 1
                    advanced = True
                    break
                low[v] = min(low[v], order[w])
            if advanced:
                continue
            depth -= 1
            whites_below[v] += vals[v] == WHITE
            if parent != -1:
                low[parent] = min(low[parent], low[v])
                whites_below[parent] += whites_below[v]
                size_below[parent] += size_below[v]
                if low[v] >= order[parent] and vals[parent] == UNDECIDED and whites_below[v]:
                    cut_cell[cuts], cut_child[cuts] = parent, v
                    cuts += 1
        total = whites_below[root]
        for c in range(cuts):
            child = cut_child[c]
            if total - whites_below[child] > 0:
                first, last = order[child], order[child] + size_below[child]
                taken = 0
                for m in range(cells if sides else 0):
                    if vals[m] == WHITE and first <= order[m] < last:
                        stranded[count, taken] = m
                        taken += 1
                        if taken == 3:
                            break
                found[count] = cut_cell[c]
                count += 1
    return count, found, stranded


# The main path: the techniques in order, every round, as ``HumanSolver.run`` applies them, without
# a sentence. A genre's ladder (``techniques.Ladder.rows``) lists them as ``SOLVER.techniques()`` numbers
# them; long-chain (the last) is left to Python.

SOLVED, STUCK, BROKEN_RULE = 0, 1, 2


@njit(cache=True)
def _grown(a, need):
    """``a``, or a copy with room for ``need`` rows."""
    if need <= a.shape[0]:
        return a
    bigger = np.empty((max(need, 2 * a.shape[0]), a.shape[1]), a.dtype)
    bigger[:a.shape[0]] = a
    return bigger


@njit(cache=True)
def _logged(log, row, technique, effort, segment, rounds, end):
    log = _grown(log, row + 1)
    log[row, 0], log[row, 1], log[row, 2], log[row, 3], log[row, 4] = technique, effort, segment, rounds, end
    return log


@njit(cache=True)
def _decided(decisions, row, cell, value):
    decisions = _grown(decisions, row + 1)
    decisions[row, 0], decisions[row, 1] = cell, value
    return decisions


@njit(cache=True)
def _basic_broken(board, vals, lone):
    """Whether the first-level basic techniques see a broken rule (cut-off never does; ``lone``: the
    first level's last exit is lone-exit)."""
    return (shaded_with_open_neighbours(board, vals)[0] < 0 or lone_open_cells(board, vals)[0] < 0
            or last_exits(board, vals, lone)[0] < 0)


@njit(cache=True)
def main_path(board, vals, upto, cache, work, ladder):
    """Solve from ``vals`` (changed in place) with the techniques of the levels up to ``upto``, as
    ``HumanSolver.run`` does: ``ladder`` has a row per technique in the solver's order (what it is, its
    level, its look-ahead's rounds, whether its trials take lone-exit). Returns the outcome (SOLVED, STUCK
    or BROKEN_RULE), the steps (one row each: technique's row, effort, segment of a look-ahead or -1,
    round, end of its decisions) and the decisions (cell, value), in the order of the reference's path."""
    adj = board.neighbours
    log = np.empty((64, 5), np.int32)
    decisions = np.empty((vals.size, 2), np.int32)
    steps, pool, rounds, undecided = 0, 0, 0, 0
    for v in vals:
        undecided += v == UNDECIDED
    last = 0  # the rows of the allowed levels
    while last < ladder.shape[0] and ladder[last, 1] <= upto:
        last += 1
    while undecided > 0:
        reset(cache)
        kind_cached = -1  # the trials in the cache: none yet, lone-exit's (1) or last-exit's (0)
        rounds += 1
        first = steps
        for t in range(last):
            # each branch appends this technique's steps: decisions first, then the step's row
            kind, limit, lone = ladder[t, 0], ladder[t, 2], ladder[t, 3]
            if kind in (PAIRS, GROUPS, SHORT_CHAIN):
                if kind_cached != -1 and kind_cached != lone:
                    reset(cache)
                kind_cached = lone
            if kind == NEIGHBOURS:
                count, shaded = shaded_with_open_neighbours(board, vals)
                if count < 0:
                    return BROKEN_RULE, log[:steps], decisions[:pool]
                for s in range(count):
                    i = shaded[s]
                    for d in range(4):
                        j = adj[i, d]
                        if j < 0:
                            break
                        if vals[j] == UNDECIDED:
                            decisions = _decided(decisions, pool, j, WHITE)
                            pool += 1
                    log = _logged(log, steps, t, 1, -1, rounds, pool)
                    steps += 1
            elif kind in (DUPLICATE, LAST_EXIT, CUT_OFF, LONE_EXIT):
                if kind == DUPLICATE:
                    count, lone_cells = lone_open_cells(board, vals)
                    cells, value = lone_cells[:, 1], SHADED
                elif kind == CUT_OFF:
                    count, cells, _ = split_points(board, vals, False)
                    value = WHITE
                else:
                    count, _, _, cells = last_exits(board, vals, kind == LONE_EXIT)
                    value = WHITE
                if count < 0:
                    return BROKEN_RULE, log[:steps], decisions[:pool]
                for s in range(count):
                    decisions = _decided(decisions, pool, cells[s], value)
                    pool += 1
                    log = _logged(log, steps, t, 1, -1, rounds, pool)
                    steps += 1
            elif kind in (PAIRS, GROUPS):
                count, segs, offsets, cells, values, depths, _ = either_way(board, vals, kind - PAIRS, limit, cache,
                                                                            work, lone == 1)
                for s in range(count):
                    for p in range(offsets[s], offsets[s + 1]):
                        decisions = _decided(decisions, pool, cells[p], values[p])
                        pool += 1
                    log = _logged(log, steps, t, depths[s], segs[s], rounds, pool)
                    steps += 1
            elif kind == SHORT_CHAIN:
                cell, value, broken = first_contradiction(board, vals, limit, cache, work)
                if cell >= 0:
                    decisions = _decided(decisions, pool, cell, 1 - value)
                    pool += 1
                    log = _logged(log, steps, t, broken, -1, rounds, pool)
                    steps += 1
            if steps > first:
                break
        if steps == first:
            return STUCK, log[:steps], decisions[:pool]
        for p in range(log[first - 1, 4] if first > 0 else 0, pool):
            i, value = decisions[p, 0], decisions[p, 1]
            if vals[i] == UNDECIDED:
                vals[i] = value
                undecided -= 1
            elif vals[i] != value:
                return BROKEN_RULE, log[:steps], decisions[:pool]
    lone_first = False
    for t in range(ladder.shape[0]):
        lone_first = lone_first or (ladder[t, 0] == LONE_EXIT and ladder[t, 1] == 0)
    if _basic_broken(board, vals, lone_first):
        return BROKEN_RULE, log[:steps], decisions[:pool]
    return SOLVED, log[:steps], decisions[:pool]
