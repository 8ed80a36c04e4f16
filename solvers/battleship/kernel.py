"""The Battleship techniques compiled with numba: which cells each decides, never how a player reads it.

``solvers/battleship/techniques.py`` defines the techniques and their sentences; the functions here
find the same cells on flat arrays, so that the look-aheads (every undecided cell assumed both ways and
followed, at the top levels to the end) cost microseconds each instead of a millisecond a round.

A state is one int8 per cell plus one padding cell at the end: ``UNDECIDED`` (2), ``WATER`` (0),
``SHIP`` (1), and the padding cell ``PAD`` (3), which is none of them, as in the Python fleet code:
the board's index arrays are padded with the index of that cell.

An assumption is followed exactly as ``human.Trial.follow`` follows it with ``FLEET_TRIALS``: in
rounds, the first technique (in order) that finds something applies all it found; the five local
techniques look only around the cells decided since their own last look, the fleet techniques at the
whole grid. What a trial decides, in which round, and the round of its contradiction do not depend on
the order in which a technique visits the cells (a technique raises if any of its findings breaks a
rule, and all its findings are applied together); only which broken rule it names first does, and
Python finds that by following the one assumption it quotes again with the Python techniques.

The board travels as one tuple (``BOARD_FIELDS`` names its members); every function is non-recursive
and compiled with ``cache=True``; the techniques module's ``warm_up`` loads them all.
"""

from __future__ import annotations

import numpy as np
from numba import njit

WATER, SHIP, UNDECIDED, PAD = 0, 1, 2, 3
BROKEN = -1  # returned by a technique that sees a broken rule
# Trial outcomes: no technique finds anything more, a rule broke, or the rounds asked for ran out.
FINISHED, CONTRADICTION, LIMIT = 0, 1, 2
# Revealed kinds as the kernel numbers them (``NO_CLUE`` where nothing is revealed).
NO_CLUE = -1
KIND_CODES = {"water": 0, "sub": 1, "top": 2, "bottom": 3, "left": 4, "right": 5, "middle": 6}
TECHNIQUES = 9  # FLEET_TRIALS: revealed, full-line, fill-line, diagonal, longest-ship, biggest-ship,
# ship-shape, no-ship-fits, fleet-places
LOCAL = 5  # the first five look only near the cells decided since their last look
BOARD_FIELDS = ("dims", "revealed", "counts", "line_cells", "orthogonal", "diagonal", "cells_at", "ring_at",
                "ends_at", "lengths", "line_of", "wanted", "room")


def scratch(cells: int, placements: int, longest: int) -> tuple[np.ndarray, ...]:
    """One thread's working space: proposals of one look (per cell, and their list), the fleet (legal
    placements, ships left per length, the unfinished groups as cells with offsets, a per-cell mark),
    a trial's per-technique pending marks, and the placements the fleet looks at (a list, its length
    last)."""
    return (np.full(cells, UNDECIDED, np.int8), np.zeros(cells + 1, np.int64),
            np.zeros(placements, np.bool_), np.zeros(longest + 1, np.int64),
            np.zeros(cells + 1, np.int64), np.zeros(cells + 2, np.int64), np.zeros(cells + 1, np.int64),
            np.zeros((LOCAL, cells), np.bool_), np.zeros(cells, np.int64), np.zeros(cells, np.int64),
            np.zeros(placements + 1, np.int64))


# ---------------------------------------------------------------- proposals


@njit(cache=True)
def _propose(work, i, value):
    """Cell ``i`` is ``value`` by one finding of the current look; False if another finding of the same
    look says the other value (applying them one after the other would break)."""
    prop, plist = work[0], work[1]
    if prop[i] == UNDECIDED:
        prop[i] = value
        plist[plist.shape[0] - 1] += 1
        plist[plist[plist.shape[0] - 1] - 1] = i
        return True
    return prop[i] == value


@njit(cache=True)
def _clear(work):
    prop, plist = work[0], work[1]
    last = plist.shape[0] - 1
    for k in range(plist[last]):
        prop[plist[k]] = UNDECIDED
    plist[last] = 0


# ---------------------------------------------------------------- level 1: counts and neighbours


@njit(cache=True)
def _inside(dims, r, c):
    return 0 <= r < dims[0] and 0 <= c < dims[1]


@njit(cache=True)
def _revealed_one(board, vals, i, work):
    """What revealed cell ``i`` shows: the number of steps (0 or 1), or BROKEN."""
    dims, revealed = board[0], board[1]
    rows, cols = dims[0], dims[1]
    kind = revealed[i]
    r, c = i // cols, i % cols
    ship_r = np.empty(2, np.int64)
    ship_c = np.empty(2, np.int64)
    water_r = np.empty(4, np.int64)
    water_c = np.empty(4, np.int64)
    ns, nw = 0, 0
    if kind == 0:
        pass
    elif kind == 1:
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            water_r[nw], water_c[nw] = r + dr, c + dc
            nw += 1
    elif kind <= 5:
        # toward: top -> down, bottom -> up, left -> right, right -> left
        tr, tc = (1, 0) if kind == 2 else (-1, 0) if kind == 3 else (0, 1) if kind == 4 else (0, -1)
        ship_r[0], ship_c[0] = r + tr, c + tc
        ns = 1
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if dr != tr or dc != tc:
                water_r[nw], water_c[nw] = r + dr, c + dc
                nw += 1
    else:
        at_row_edge = r == 0 or r == rows - 1
        at_col_edge = c == 0 or c == cols - 1
        if at_row_edge and at_col_edge:
            return BROKEN
        axis = 0  # 0 unknown, 1 row, 2 column
        if at_row_edge:
            axis = 1
        elif at_col_edge:
            axis = 2
        else:
            up, down = vals[(r - 1) * cols + c], vals[(r + 1) * cols + c]
            left, right = vals[r * cols + c - 1], vals[r * cols + c + 1]
            if left == SHIP or right == SHIP or up == WATER or down == WATER:
                axis = 1
            elif up == SHIP or down == SHIP or left == WATER or right == WATER:
                axis = 2
        if axis == 1:
            ship_r[0], ship_c[0], ship_r[1], ship_c[1] = r, c - 1, r, c + 1
            water_r[0], water_c[0], water_r[1], water_c[1] = r - 1, c, r + 1, c
            ns, nw = 2, 2
        elif axis == 2:
            ship_r[0], ship_c[0], ship_r[1], ship_c[1] = r - 1, c, r + 1, c
            water_r[0], water_c[0], water_r[1], water_c[1] = r, c - 1, r, c + 1
            ns, nw = 2, 2
    for k in range(ns):
        if not _inside(dims, ship_r[k], ship_c[k]):
            return BROKEN
    own = WATER if kind == 0 else SHIP
    if vals[i] != UNDECIDED and vals[i] != own:
        return BROKEN
    for k in range(ns):
        j = ship_r[k] * cols + ship_c[k]
        if vals[j] != UNDECIDED and vals[j] != SHIP:
            return BROKEN
    for k in range(nw):
        if _inside(dims, water_r[k], water_c[k]):
            j = water_r[k] * cols + water_c[k]
            if vals[j] != UNDECIDED and vals[j] != WATER:
                return BROKEN
    new = False
    if vals[i] == UNDECIDED:
        new = True
        if not _propose(work, i, own):
            return BROKEN
    for k in range(ns):
        j = ship_r[k] * cols + ship_c[k]
        if vals[j] == UNDECIDED:
            new = True
            if not _propose(work, j, SHIP):
                return BROKEN
    for k in range(nw):
        if _inside(dims, water_r[k], water_c[k]):
            j = water_r[k] * cols + water_c[k]
            if vals[j] == UNDECIDED:
                new = True
                if not _propose(work, j, WATER):
                    return BROKEN
    return 1 if new else 0


@njit(cache=True)
def revealed_shape(board, vals, near, full, work):
    """Steps of ``revealed_shape`` (all revealed cells when ``full``, else those at or beside ``near``)."""
    revealed, orthogonal = board[1], board[4]
    cells = revealed.shape[0]
    steps = 0
    for i in range(cells):
        if revealed[i] == NO_CLUE:
            continue
        if not full:
            close = near[i]
            for d in range(4):
                j = orthogonal[i, d]
                if j >= 0 and near[j]:
                    close = True
            if not close:
                continue
        found = _revealed_one(board, vals, i, work)
        if found == BROKEN:
            return BROKEN
        steps += found
    return steps


@njit(cache=True)
def _line_marks(board, near, full, marks):
    """Which lines to look at: every line, or those through a cell of ``near``."""
    dims = board[0]
    rows, cols = dims[0], dims[1]
    for line in range(marks.shape[0]):
        marks[line] = full
    if not full:
        for i in range(rows * cols):
            if near[i]:
                marks[i // cols] = True
                marks[rows + i % cols] = True


@njit(cache=True)
def _tally(board, vals, line):
    line_cells = board[3]
    ships, open_cells = 0, 0
    for k in range(line_cells.shape[1]):
        v = vals[line_cells[line, k]]
        if v == UNDECIDED:
            open_cells += 1
        elif v == SHIP:
            ships += 1
    return ships, open_cells


@njit(cache=True)
def count_lines(board, vals, near, full, fill, work):
    """Steps of ``full_line`` (``fill`` False: a line with all its ship cells, the rest water) or
    ``fill_line`` (``fill`` True: a line needing all its undecided cells, all ship)."""
    counts, line_cells = board[2], board[3]
    marks = np.empty(counts.shape[0], np.bool_)
    _line_marks(board, near, full, marks)
    steps = 0
    for line in range(counts.shape[0]):
        want = counts[line]
        if not marks[line] or want < 0:
            continue
        ships, open_cells = _tally(board, vals, line)
        if not fill:
            if ships > want:
                return BROKEN
            if ships == want and open_cells:
                steps += 1
                for k in range(line_cells.shape[1]):
                    j = line_cells[line, k]
                    if vals[j] == UNDECIDED and not _propose(work, j, WATER):
                        return BROKEN
        else:
            need = want - ships
            if need > open_cells:
                return BROKEN
            if need > 0 and need == open_cells:
                steps += 1
                for k in range(line_cells.shape[1]):
                    j = line_cells[line, k]
                    if vals[j] == UNDECIDED and not _propose(work, j, SHIP):
                        return BROKEN
    return steps


@njit(cache=True)
def diagonal_water(board, vals, near, full, work):
    """Steps of ``diagonal_water``: a ship cell's undecided diagonal neighbours are water."""
    diagonal = board[5]
    steps = 0
    for i in range(diagonal.shape[0]):
        if vals[i] != SHIP or not (full or near[i]):
            continue
        any_open = False
        for d in range(4):
            j = diagonal[i, d]
            if j < 0:
                continue
            if vals[j] == UNDECIDED:
                any_open = True
                if not _propose(work, j, WATER):
                    return BROKEN
            elif vals[j] == SHIP:
                return BROKEN
        if any_open:
            steps += 1
    return steps


@njit(cache=True)
def _group(board, vals, start, seen, out):
    """The ship cells orthogonally connected to ``start`` into ``out`` (marked in ``seen``); their number."""
    orthogonal = board[4]
    out[0] = start
    seen[start] = True
    size, k = 1, 0
    while k < size:
        i = out[k]
        k += 1
        for d in range(4):
            j = orthogonal[i, d]
            if j >= 0 and vals[j] == SHIP and not seen[j]:
                seen[j] = True
                out[size] = j
                size += 1
    return size


@njit(cache=True)
def _group_ends(board, lo, hi, ends):
    """``_group_ends``: the cells just past the first and last cell of a group, in the grid; their number."""
    dims = board[0]
    cols = dims[1]
    r0, c0, r1, c1 = lo // cols, lo % cols, hi // cols, hi % cols
    dr, dc = (1, 0) if c0 == c1 else (0, 1)
    count = 0
    if _inside(dims, r0 - dr, c0 - dc):
        ends[count] = (r0 - dr) * cols + c0 - dc
        count += 1
    if _inside(dims, r1 + dr, c1 + dc):
        ends[count] = (r1 + dr) * cols + c1 + dc
        count += 1
    return count


@njit(cache=True)
def longest_ship(board, vals, near, full, work):
    """Steps of ``longest_ship``: a group as long as the longest ship has water at its ends."""
    dims = board[0]
    longest = dims[2]
    if longest < 2:
        return 0
    cells = dims[0] * dims[1]
    seen = np.zeros(cells, np.bool_)
    out = np.empty(cells, np.int64)
    ends = np.empty(2, np.int64)
    steps = 0
    for i in range(cells):
        if vals[i] != SHIP or seen[i] or not (full or near[i]):
            continue
        size = _group(board, vals, i, seen, out)
        if size > longest:
            return BROKEN
        if size == longest:
            lo, hi = out[0], out[0]
            for k in range(size):
                lo, hi = min(lo, out[k]), max(hi, out[k])
            any_open = False
            for k in range(_group_ends(board, lo, hi, ends)):
                if vals[ends[k]] == UNDECIDED:
                    any_open = True
                    if not _propose(work, ends[k], WATER):
                        return BROKEN
            if any_open:
                steps += 1
    return steps


# ---------------------------------------------------------------- level 2: the fleet


@njit(cache=True)
def fleet(board, vals, work):
    """``_fleet`` over every placement (see ``_fleet_on``)."""
    _look_at_all(work)
    return _fleet_on(board, vals, work)


@njit(cache=True)
def _look_at_all(work):
    legal, cand = work[2], work[10]
    for p in range(legal.shape[0]):
        cand[p] = p
    cand[cand.shape[0] - 1] = legal.shape[0]


@njit(cache=True)
def _look_at_legal(work):
    """From now on the fleet looks only at the placements legal now: a placement that is not legal in a
    state is not legal in any state that decides more cells (water, ships, full lines and finished
    ships only grow), so a trial from this state needs no other."""
    legal, cand = work[2], work[10]
    count = 0
    for p in range(legal.shape[0]):
        if legal[p]:
            cand[count] = p
            count += 1
    cand[cand.shape[0] - 1] = count


@njit(cache=True)
def _fleet_on(board, vals, work):
    """``_fleet``: the unfinished groups (work[4] cells, work[5] offsets, work[6][-1] their number), the
    ships left per length (work[3]) and the legal placements (work[2]); False if a rule is broken."""
    dims, line_cells, orthogonal = board[0], board[3], board[4]
    cells_at, ring_at, ends_at, lengths, line_of, wanted, room0 = (board[6], board[7], board[8], board[9], board[10],
                                                                   board[11], board[12])
    rows, cols, longest, lines = dims[0], dims[1], dims[2], dims[3]
    cells = rows * cols
    legal, remaining, group_cells, group_start, count = work[2], work[3], work[4], work[5], work[6]
    seen = np.zeros(cells, np.bool_)
    out = np.empty(cells, np.int64)
    ends = np.empty(4, np.int64)
    finished = np.zeros(cells + 1, np.int64)
    groups, used = 0, 0
    group_start[0] = 0
    for i in range(cells):
        if vals[i] != SHIP or seen[i]:
            continue
        size = _group(board, vals, i, seen, out)
        r_lo, r_hi, c_lo, c_hi, lo, hi = rows, -1, cols, -1, cells, -1
        for k in range(size):
            j = out[k]
            r_lo, r_hi = min(r_lo, j // cols), max(r_hi, j // cols)
            c_lo, c_hi = min(c_lo, j % cols), max(c_hi, j % cols)
            lo, hi = min(lo, j), max(hi, j)
        if r_hi > r_lo and c_hi > c_lo:
            return False
        if size > longest:
            return False
        closed = True
        if size == 1:
            for d in range(4):
                j = orthogonal[i, d]
                if j >= 0 and vals[j] != WATER:
                    closed = False
        else:
            for k in range(_group_ends(board, lo, hi, ends)):
                if vals[ends[k]] != WATER:
                    closed = False
        if closed:
            finished[size] += 1
        else:
            # sorted, as ``ship_group`` returns it
            for k in range(size):
                group_cells[used + k] = out[k]
            group_cells[used:used + size].sort()
            used += size
            groups += 1
            group_start[groups] = used
    count[count.shape[0] - 1] = groups
    for length in range(longest + 1):
        remaining[length] = 0
        if finished[length] > wanted[length]:
            return False
        remaining[length] = wanted[length] - finished[length]
    for length in range(longest + 1, cells + 1):
        if finished[length]:
            return False
    room = room0.copy()
    for line in range(lines):
        for k in range(line_cells.shape[1]):
            if vals[line_cells[line, k]] == SHIP:
                room[line] -= 1
    blocked = np.zeros(cells + 1, np.bool_)
    for line in range(lines):
        if room[line] <= 0:
            for k in range(line_cells.shape[1]):
                j = line_cells[line, k]
                if j < cells and vals[j] == UNDECIDED:
                    blocked[j] = True
    cand = work[10]
    legal[:] = False
    for q in range(cand[cand.shape[0] - 1]):
        p = cand[q]
        ok = remaining[lengths[p]] > 0
        new = 0
        if ok:
            for k in range(cells_at.shape[1]):
                j = cells_at[p, k]
                if j >= cells:
                    continue
                if vals[j] == WATER or blocked[j]:
                    ok = False
                    break
                if vals[j] == UNDECIDED:
                    new += 1
        if ok:
            for k in range(ring_at.shape[1]):
                j = ring_at[p, k]
                if j < cells and vals[j] == SHIP:
                    ok = False
                    break
        if ok and new == 0:
            open_end = False
            for k in range(ends_at.shape[1]):
                j = ends_at[p, k]
                if j < cells and vals[j] == UNDECIDED:
                    open_end = True
            ok = open_end
        if ok and new > room[line_of[p]]:
            ok = False
        legal[p] = ok
    return True


@njit(cache=True)
def ship_shape(board, vals, work):
    """Steps of ``ship_shape``: what every way of completing an unfinished group shares is ship, the
    neighbours none of them uses are water. Reads the fleet ``fleet`` left in ``work``; one pass over the
    legal placements counts, per group, the ways that touch it and the cells they cover."""
    orthogonal, cells_at = board[4], board[6]
    cells = vals.shape[0] - 1
    legal, group_cells, group_start, count = work[2], work[4], work[5], work[6]
    groups = count[count.shape[0] - 1]
    if groups == 0:
        return 0
    group_of = np.full(cells + 1, -1, np.int64)
    for g in range(groups):
        for k in range(group_start[g], group_start[g + 1]):
            group_of[group_cells[k]] = g
    covered = np.zeros((groups, cells), np.int64)
    ways = np.zeros(groups, np.int64)
    touched = np.empty(cells_at.shape[1], np.int64)
    cand = work[10]
    for q in range(cand[cand.shape[0] - 1]):
        p = cand[q]
        if not legal[p]:
            continue
        found = 0
        for k in range(cells_at.shape[1]):
            g = group_of[cells_at[p, k]]
            if g < 0:
                continue
            seen = False
            for t in range(found):
                if touched[t] == g:
                    seen = True
            if not seen:
                touched[found] = g
                found += 1
        for t in range(found):
            g = touched[t]
            ways[g] += 1
            for k in range(cells_at.shape[1]):
                j = cells_at[p, k]
                if j < cells:
                    covered[g, j] += 1
    steps = 0
    for g in range(groups):
        first, last = group_start[g], group_start[g + 1]
        if ways[g] == 0:
            return BROKEN
        found_any = False
        for j in range(cells):
            if covered[g, j] == ways[g] and vals[j] == UNDECIDED:
                found_any = True
                if not _propose(work, j, SHIP):
                    return BROKEN
        for k in range(first, last):
            for d in range(4):
                j = orthogonal[group_cells[k], d]
                if j >= 0 and vals[j] == UNDECIDED and covered[g, j] == 0:
                    found_any = True
                    if not _propose(work, j, WATER):
                        return BROKEN
        if found_any:
            steps += 1
    return steps


@njit(cache=True)
def no_ship_fits(board, vals, work):
    """Steps of ``no_ship_fits``: undecided cells no legal placement covers (one step each)."""
    cells_at = board[6]
    cells = vals.shape[0] - 1
    legal = work[2]
    covered = np.zeros(cells + 1, np.bool_)
    cand = work[10]
    for q in range(cand[cand.shape[0] - 1]):
        p = cand[q]
        if legal[p]:
            for k in range(cells_at.shape[1]):
                covered[cells_at[p, k]] = True
    steps = 0
    for j in range(cells):
        if vals[j] == UNDECIDED and not covered[j]:
            steps += 1
            _propose(work, j, WATER)
    return steps


@njit(cache=True)
def fleet_places(board, vals, only_biggest, work):
    """Steps of ``fleet_places`` (0 or 1), longest length first (only the longest left if ``only_biggest``);
    one pass over the legal placements counts each length's places and the cells they cover."""
    dims, cells_at, lengths = board[0], board[6], board[9]
    cells = vals.shape[0] - 1
    legal, remaining = work[2], work[3]
    longest = dims[2]
    covered = np.zeros((longest + 1, cells + 1), np.int64)
    places = np.zeros(longest + 1, np.int64)
    cand = work[10]
    for q in range(cand[cand.shape[0] - 1]):
        p = cand[q]
        if legal[p]:
            length = lengths[p]
            places[length] += 1
            for k in range(cells_at.shape[1]):
                covered[length, cells_at[p, k]] += 1
    for length in range(longest, 0, -1):
        count = remaining[length]
        if count <= 0:
            continue
        if places[length] < count:
            return BROKEN
        if places[length] == count:
            found = False
            for j in range(cells):
                if covered[length, j] > 0 and vals[j] == UNDECIDED:
                    found = True
                    _propose(work, j, SHIP)
            if found:
                return 1
        found = False
        for j in range(cells):
            if covered[length, j] == places[length] and vals[j] == UNDECIDED:
                found = True
                _propose(work, j, SHIP)
        if found:
            return 1
        if only_biggest:
            return 0
    return 0


# ---------------------------------------------------------------- one look, a trial


@njit(cache=True)
def look(board, vals, technique, near, full, fleet_ready, work):
    """One technique of FLEET_TRIALS (by index) at ``vals``: its number of steps, or BROKEN. Its cells are
    proposed in ``work``. The fleet techniques compute the fleet (over the placements ``work`` lists)
    unless ``fleet_ready``."""
    if technique == 0:
        return revealed_shape(board, vals, near, full, work)
    if technique == 1:
        return count_lines(board, vals, near, full, False, work)
    if technique == 2:
        return count_lines(board, vals, near, full, True, work)
    if technique == 3:
        return diagonal_water(board, vals, near, full, work)
    if technique == 4:
        return longest_ship(board, vals, near, full, work)
    if not fleet_ready and not _fleet_on(board, vals, work):
        return BROKEN
    if technique == 5:
        return fleet_places(board, vals, True, work)
    if technique == 6:
        return ship_shape(board, vals, work)
    if technique == 7:
        return no_ship_fits(board, vals, work)
    return fleet_places(board, vals, False, work)


@njit(cache=True)
def prepare(board, base, work):
    """Before trials from ``base``: the fleet will look only at the placements legal in it (at all of them
    if ``base`` already breaks a rule)."""
    _look_at_all(work)
    if _fleet_on(board, base, work):
        _look_at_legal(work)
    else:
        _look_at_all(work)


@njit(cache=True)
def follow(board, base, cell, value, max_rounds, vals, when, work):
    """``Trial.follow`` of ``cell`` = ``value`` from ``base`` for up to ``max_rounds`` rounds: (outcome,
    rounds). ``vals`` ends as the trial's state and ``when`` holds the round each cell was decided in
    (-1: not decided by the trial; the assumption is round 0)."""
    prepare(board, base, work)
    return _follow(board, base, cell, value, max_rounds, vals, when, work)


@njit(cache=True)
def _follow(board, base, cell, value, max_rounds, vals, when, work):
    """``follow`` once ``prepare`` has run for ``base``."""
    pending = work[7]
    prop, plist = work[0], work[1]
    last = plist.shape[0] - 1
    vals[:] = base
    when[:] = -1
    pending[:, :] = False
    vals[cell] = value
    when[cell] = 0
    for k in range(LOCAL):
        pending[k, cell] = True
    rounds = 0
    while rounds < max_rounds:
        rounds += 1
        progressed = False
        fleet_ready = False
        for technique in range(TECHNIQUES):
            _clear(work)
            if technique < LOCAL:
                steps = look(board, vals, technique, pending[technique], False, False, work)
                pending[technique, :] = False
            else:
                steps = look(board, vals, technique, pending[0], True, fleet_ready, work)
                fleet_ready = True
            if steps == BROKEN:
                _clear(work)
                return CONTRADICTION, rounds
            if steps > 0:
                for k in range(plist[last]):
                    j = plist[k]
                    vals[j] = prop[j]
                    when[j] = rounds
                    for t in range(LOCAL):
                        pending[t, j] = True
                _clear(work)
                progressed = True
                break
        if not progressed:
            return FINISHED, rounds
    return LIMIT, rounds


@njit(cache=True)
def first_contradiction(board, base, candidates, max_rounds, outcomes, reached, broken_at, work):
    """The first (candidate index, value) in ``candidates`` order, ship before water, whose trial breaks
    a rule within ``max_rounds`` rounds, and that round; (-1, -1, 0) if none. ``outcomes``, ``reached``
    and ``broken_at`` (per cell and value) remember the trials of this state across calls: a trial that
    ended is not followed again, one stopped short is followed again from the start."""
    cells = base.shape[0] - 1
    vals = np.empty(cells + 1, np.int8)
    when = np.empty(cells, np.int64)
    prepare(board, base, work)
    for n in range(candidates.shape[0]):
        cell = candidates[n]
        for value in (SHIP, WATER):
            outcome = outcomes[cell, value]
            if outcome < 0 or (outcome == LIMIT and reached[cell, value] < max_rounds):
                outcome, rounds = _follow(board, base, cell, value, max_rounds, vals, when, work)
                outcomes[cell, value] = outcome
                reached[cell, value] = rounds
                broken_at[cell, value] = rounds if outcome == CONTRADICTION else 0
            if outcome == CONTRADICTION and broken_at[cell, value] <= max_rounds:
                return n, value, broken_at[cell, value]
    return -1, -1, 0


@njit(cache=True)
def propagate(board, vals, techniques, work):
    """``HumanSolver.run`` with the first ``techniques`` of FLEET_TRIALS (the easy level's six, or the
    medium level's nine too), each looking at the whole grid, on ``vals`` in place: False if a rule
    breaks (the caller then asks the Python techniques, which name it)."""
    _look_at_all(work)
    prop, plist = work[0], work[1]
    last = plist.shape[0] - 1
    near = work[7][0]
    while True:
        progressed = False
        fleet_ready = False
        for technique in range(techniques):
            _clear(work)
            steps = look(board, vals, technique, near, True, fleet_ready, work)
            if technique >= LOCAL:
                fleet_ready = True
            if steps == BROKEN:
                _clear(work)
                return False
            if steps > 0:
                for k in range(plist[last]):
                    j = plist[k]
                    vals[j] = prop[j]
                _clear(work)
                progressed = True
                break
        if not progressed:
            return True
