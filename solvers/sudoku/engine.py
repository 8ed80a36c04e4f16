"""The exact Sudoku search, compiled with numba: candidates as bitmasks, singles propagated at every
node, the cell with the fewest candidates branched on, solutions counted up to a limit.

A grid of N×N cells (N = 4, 6, 9, 16) keeps one int32 mask of candidate digits per cell (bit d-1 for
digit d). Propagation applies the two rules a search cannot do without: a cell down to one digit takes
it out of its peers (naked single), and a digit with one place left in a row, column or box goes there
(hidden single). A cell without candidates, a unit missing a digit, or one cell that is the last place
for two digits is a dead end.

The search runs on an explicit stack (one row of masks per depth), not by recursion, so numba caches
it on disk (``cache=True``; recursive functions crashed when loaded from the cache here). numba cannot
read the clock, so each call is given a node budget and returns with its stack intact; ``Search``
resumes it slice by slice while the caller's deadline allows. The same propagation, started from one
assumed digit, is what the human solver's forcing chains follow (``trial``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit

from solvers.common import Deadline, compile_lock

BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}  # size -> (box rows, box columns)
LOCKED = {4: False, 6: False, 9: False, 16: True}  # sizes whose search also propagates locked candidates
SLICE = 20_000  # nodes per call between deadline checks (a few ms at most)

# The search's status word (``control[STATUS]``).
RUNNING, EXHAUSTED, LIMIT = 0, 1, 2
DEPTH, COUNT, NODES, STATUS, PHASE, KEPT = range(6)


@dataclass(frozen=True)
class Geometry:
    """The units and peers of one size, as arrays numba reads."""

    n: int
    box_rows: int
    box_cols: int
    units: np.ndarray  # (3n, n) cell indices: rows, then columns, then boxes
    peers: np.ndarray  # (n², peers) cell indices sharing a unit with the cell
    cell_units: np.ndarray  # (n², 3): the cell's row, column and box unit indices
    unit_bits: np.ndarray  # (n²,) int64: per cell, bit k set for each unit k holding it (3n units fit in 63 bits)
    crossings: np.ndarray  # (k, 3, n): per box and line that cross, shared cells, rest of box, rest of line (-1 pads)
    popcount: np.ndarray  # popcount of every mask of n bits
    given_masks: np.ndarray  # a given digit's mask (index 0, no given: every digit)

    @property
    def cells(self) -> int:
        return self.n * self.n

    def box_of(self, r: int, c: int) -> int:
        return (r // self.box_rows) * (self.n // self.box_cols) + c // self.box_cols


@cache
def geometry(n: int) -> Geometry:
    box_rows, box_cols = BOXES[n]
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [[(br + i) * n + bc + j for i in range(box_rows) for j in range(box_cols)]
             for br in range(0, n, box_rows) for bc in range(0, n, box_cols)]
    units = rows + cols + boxes
    cell_units = [[-1, -1, -1] for _ in range(n * n)]
    for k, unit in enumerate(units):
        for i in unit:
            cell_units[i][k // n] = k
    peers = [sorted({j for k in cell_units[i] for j in units[k]} - {i}) for i in range(n * n)]
    popcount = np.array([bin(m).count("1") for m in range(1 << n)], dtype=np.int8)
    crossings = []
    for box in boxes:
        for line in rows + cols:
            shared = [i for i in box if i in line]
            if shared:
                parts = (shared, [i for i in box if i not in shared], [i for i in line if i not in shared])
                crossings.append([part + [-1] * (n - len(part)) for part in parts])
    crossing_array = np.array(crossings, dtype=np.int32) if LOCKED.get(n, False) else np.zeros((0, 3, n), np.int32)
    unit_bits = np.array([sum(1 << k for k in ks) for ks in cell_units], dtype=np.int64)
    return Geometry(n, box_rows, box_cols, np.array(units, dtype=np.int32), np.array(peers, dtype=np.int32),
                    np.array(cell_units, dtype=np.int32), unit_bits, crossing_array, popcount,
                    np.array([(1 << n) - 1] + [1 << d for d in range(n)], dtype=np.int32))


@njit(cache=True)
def digits_once_and_twice(cand: np.ndarray, unit: np.ndarray) -> tuple[int, int]:
    """The digits some cell of ``unit`` can hold, and those two or more of its cells can hold."""
    once = 0
    twice = 0
    for i in unit:
        m = cand[i]
        twice |= once & m
        once |= m
    return once, twice


@njit(cache=True)
def settle(cand: np.ndarray, units: np.ndarray, peers: np.ndarray, unit_bits: np.ndarray, crossings: np.ndarray,
           full: int, queue: np.ndarray, tail: int, dirty: int) -> bool:
    """Naked and hidden singles to a fixpoint, in place, then (with ``crossings``) locked candidates,
    and again; False at a dead end. ``queue[:tail]`` are the cells just decided whose digit is still
    to be cleared from their peers; every cell is queued at most once (when its mask drops to one
    digit), so the queue needs one slot per cell. Hidden singles are looked for only in the units whose
    bits ``dirty`` sets (``unit_bits``: each cell's units), which must hold every unit whose cells changed
    since it was last settled: a unit whose cells did not change holds none and breaks no rule. Singles
    reach one fixpoint (or a dead end) in any order, so the result is a full scan's."""
    head = 0
    while True:
        while head < tail:
            i = queue[head]
            head += 1
            m = cand[i]
            for p in peers[i]:
                c = cand[p]
                if c & m:
                    c &= ~m
                    if c == 0:
                        return False
                    cand[p] = c
                    dirty |= unit_bits[p]
                    if c & (c - 1) == 0:
                        queue[tail] = p
                        tail += 1
        placed = False
        look, dirty = dirty, 0
        for u in range(units.shape[0]):
            if not look >> u & 1:
                continue
            once, twice = digits_once_and_twice(cand, units[u])
            if once != full:
                return False
            only = once & ~twice
            if only:
                for i in units[u]:
                    m = cand[i] & only
                    if m:
                        if m & (m - 1):
                            return False
                        if cand[i] != m:
                            cand[i] = m
                            dirty |= unit_bits[i]
                            queue[tail] = i
                            tail += 1
                            placed = True
        if placed:
            continue
        # A digit whose places in a box all lie on one line (or in a line, within one box) leaves the
        # rest of that line (box). Rows: crossings[k, 0] shared cells, [k, 1] rest of box, [k, 2] rest
        # of line, padded with -1.
        for k in range(crossings.shape[0]):
            inside = 0
            for i in crossings[k, 0]:
                if i >= 0:
                    inside |= cand[i]
            box_rest = 0
            for i in crossings[k, 1]:
                if i >= 0:
                    box_rest |= cand[i]
            line_rest = 0
            for i in crossings[k, 2]:
                if i >= 0:
                    line_rest |= cand[i]
            pointing = inside & ~box_rest & line_rest
            claiming = inside & ~line_rest & box_rest
            for side, gone in ((2, pointing), (1, claiming)):
                if gone:
                    for i in crossings[k, side]:
                        if i >= 0 and cand[i] & gone:
                            c = cand[i] & ~gone
                            if c == 0:
                                return False
                            cand[i] = c
                            dirty |= unit_bits[i]
                            placed = True
                            if c & (c - 1) == 0:
                                queue[tail] = i
                                tail += 1
        if not placed:
            return True


@njit(cache=True)
def settle_from(cand: np.ndarray, units: np.ndarray, peers: np.ndarray, unit_bits: np.ndarray, crossings: np.ndarray,
                full: int, queue: np.ndarray, tail: int) -> bool:
    """``settle`` of a settled ``cand`` in which only the queued cells were just decided: only their
    units are looked at first."""
    dirty = 0
    for k in range(tail):
        dirty |= unit_bits[queue[k]]
    return settle(cand, units, peers, unit_bits, crossings, full, queue, tail, dirty)


@njit(cache=True)
def propagate(cand: np.ndarray, units: np.ndarray, peers: np.ndarray, unit_bits: np.ndarray, crossings: np.ndarray,
              full: int) -> bool:
    """``settle`` from scratch: every decided cell's digit cleared from its peers, every unit looked at."""
    queue = np.empty(cand.shape[0], dtype=np.int32)
    tail = 0
    for i in range(cand.shape[0]):
        m = cand[i]
        if m == 0:
            return False
        if m & (m - 1) == 0:
            queue[tail] = i
            tail += 1
    return settle(cand, units, peers, unit_bits, crossings, full, queue, tail, (1 << units.shape[0]) - 1)


@njit(cache=True)
def singles_open(cand: np.ndarray, units: np.ndarray, peers: np.ndarray, unit_bits: np.ndarray, no_crossings: np.ndarray,
                 full: int) -> int:
    """How many cells naked and hidden singles alone (``no_crossings``: an empty crossings array) leave
    undecided from ``cand``, which they narrow in place; -1 at a dead end."""
    if not propagate(cand, units, peers, unit_bits, no_crossings, full):
        return -1
    return np.count_nonzero(cand & (cand - 1))


@njit(cache=True)
def one_side(start: np.ndarray, settled: np.ndarray, a: int, b: int, intended: np.ndarray, side: int,
             units: np.ndarray, peers: np.ndarray, unit_bits: np.ndarray, crossings: np.ndarray, full: int,
             queue: np.ndarray) -> bool:
    """``start``: the masks ``settled`` (as ``propagate`` with ``crossings`` leaves them) narrowed to one side
    of ``other_solutions``' split (0: cell ``a`` differs from ``intended``; 1: a agrees and ``b`` differs),
    settled again; False at a dead end. Only a and b changed, so only their units are looked at first:
    singles reach the fixpoint ``propagate`` reaches from the givens so narrowed."""
    start[:] = settled
    if side == 0:
        start[a] &= ~(1 << (intended[a] - 1))
    else:
        start[a] &= 1 << (intended[a] - 1)
        start[b] &= ~(1 << (intended[b] - 1))
    dirty, tail = 0, 0
    for k in range(1 if a == b else 2):
        i = a if k == 0 else b
        m = start[i]
        if m == 0:
            return False
        if m != settled[i]:
            dirty |= unit_bits[i]
            if m & (m - 1) == 0:  # just decided
                queue[tail] = i
                tail += 1
    return settle(start, units, peers, unit_bits, crossings, full, queue, tail, dirty)


@njit(cache=True)
def other_solutions(settled: np.ndarray, a: int, b: int, intended: np.ndarray, order: np.ndarray, units: np.ndarray,
                    peers: np.ndarray, unit_bits: np.ndarray, crossings: np.ndarray, popcount: np.ndarray, full: int,
                    limit: int, budget: int, solutions: np.ndarray) -> tuple[int, bool]:
    """The solutions of the masks ``settled`` (as ``propagate`` with ``crossings`` leaves them) that differ
    from ``intended`` in cell ``a`` or ``b`` (copied to ``solutions``, at most ``limit``), and whether they
    are all (neither ``limit`` nor ``budget`` nodes reached). With a and b at their ``intended`` digits a
    puzzle the generator holds has one solution, so these are every other one; searching for them alone
    skips the intended solution's branch. Two disjoint searches (``one_side``): a differs; a agrees and b
    differs."""
    cells = settled.shape[0]
    stack = np.empty((cells + 2, cells), dtype=np.int32)
    branch_cell = np.empty(cells + 2, dtype=np.int32)
    branch_rest = np.empty(cells + 2, dtype=np.int32)
    control = np.zeros(6, dtype=np.int64)
    queue = np.empty(cells, dtype=np.int32)
    kept, spent = 0, 0
    for side in range(1 if a == b else 2):
        if not one_side(stack[0], settled, a, b, intended, side, units, peers, unit_bits, crossings, full, queue):
            continue
        control[:] = 0
        run(stack, branch_cell, branch_rest, control, solutions[kept:], order, units, peers, unit_bits, crossings,
            popcount, full, limit - kept, budget - spent)
        kept += control[COUNT]
        spent += control[NODES]
        if control[STATUS] != EXHAUSTED:
            return kept, False
    return kept, True


@njit(cache=True)
def run(stack: np.ndarray, branch_cell: np.ndarray, branch_rest: np.ndarray, control: np.ndarray,
        solutions: np.ndarray, order: np.ndarray, units: np.ndarray, peers: np.ndarray, unit_bits: np.ndarray,
        crossings: np.ndarray, popcount: np.ndarray, full: int, limit: int, budget: int) -> None:
    """Resume the depth-first search for at most ``budget`` nodes.

    ``stack[d]`` holds the propagated masks at depth d; ``branch_cell[d]`` the cell branched on there
    and ``branch_rest[d]`` its digits not tried yet, taken in the cell's ``order`` (a random order
    makes a random solution). ``control`` keeps depth, count, nodes, status, phase (0: look at the node
    at ``depth``; 1: try its next branch) and how many solutions were copied to ``solutions``."""
    cells = stack.shape[1]
    n = order.shape[1]
    queue = np.empty(cells, dtype=np.int32)
    spent = 0
    while control[STATUS] == RUNNING and spent < budget:
        depth = control[DEPTH]
        if control[PHASE] == 0:
            best = -1
            fewest = n + 1
            for i in range(cells):
                k = popcount[stack[depth, i]]
                if 1 < k < fewest:
                    fewest = k
                    best = i
                    if k == 2:
                        break
            if best < 0:  # every cell decided: a solution
                if control[KEPT] < solutions.shape[0]:
                    for i in range(cells):
                        m = stack[depth, i]
                        d = 0
                        while m > 1:
                            m >>= 1
                            d += 1
                        solutions[control[KEPT], i] = d + 1
                    control[KEPT] += 1
                control[COUNT] += 1
                if control[COUNT] >= limit:
                    control[STATUS] = LIMIT
                    return
                control[DEPTH] -= 1
                if control[DEPTH] < 0:
                    control[STATUS] = EXHAUSTED
                    return
                control[PHASE] = 1
                continue
            branch_cell[depth] = best
            branch_rest[depth] = stack[depth, best]
            control[PHASE] = 1
            continue
        # phase 1: the next digit of the branch at this depth
        cell = branch_cell[depth]
        rest = branch_rest[depth]
        if rest == 0:
            control[DEPTH] -= 1
            if control[DEPTH] < 0:
                control[STATUS] = EXHAUSTED
                return
            continue
        bit = 0
        for k in range(n):
            b = 1 << (order[cell, k] - 1)
            if rest & b:
                bit = b
                break
        branch_rest[depth] = rest & ~bit
        spent += 1
        control[NODES] += 1
        stack[depth + 1, :] = stack[depth, :]
        stack[depth + 1, cell] = bit
        queue[0] = cell
        if settle_from(stack[depth + 1], units, peers, unit_bits, crossings, full, queue, 1):
            control[DEPTH] = depth + 1
            control[PHASE] = 0


@njit(cache=True)
def unique_without(givens: np.ndarray, intended: np.ndarray, first: np.ndarray, last: np.ndarray,
                   given_masks: np.ndarray, order: np.ndarray, units: np.ndarray, peers: np.ndarray,
                   unit_bits: np.ndarray, crossings: np.ndarray, popcount: np.ndarray, full: int, budget: int,
                   out: np.ndarray) -> None:
    """For each cell group (its ``first`` and ``last`` cell), whether ``givens`` (unique, solved by
    ``intended``) without it keep exactly one solution: ``out`` 1 yes, 0 no, -1 undecided within ``budget``
    nodes. One call for every given a polish asks about, instead of one ``Search`` each."""
    cells = givens.shape[0]
    start = np.empty(cells, dtype=np.int32)
    one = np.zeros((1, cells), dtype=np.int8)
    for o in range(first.shape[0]):
        for i in range(cells):
            start[i] = given_masks[givens[i]]
        start[first[o]] = full
        start[last[o]] = full
        propagate(start, units, peers, unit_bits, crossings, full)  # sound, so never a dead end: ``intended`` fits
        found, complete = other_solutions(start, first[o], last[o], intended, order, units, peers, unit_bits,
                                          crossings, popcount, full, 1, budget, one)
        out[o] = 0 if found else (1 if complete else -1)


# What a removal of the generator's swap toward a level comes to when it lets in no solution to rule out.
SINGLES_FINISH, PASSED_OVER, UNIQUE = -1, -2, -3


@njit(cache=True)
def swap_removal(fewer: np.ndarray, removed: int, intended: np.ndarray, first: np.ndarray, last: np.ndarray,
                 given_masks: np.ndarray, order: np.ndarray, units: np.ndarray, peers: np.ndarray,
                 unit_bits: np.ndarray, crossings: np.ndarray, no_crossings: np.ndarray, popcount: np.ndarray,
                 full: int, min_open: int, limit: int, budget: int, stuck: np.ndarray, others: np.ndarray) -> int:
    """One removal (cell group ``removed``, out of a unique puzzle solved by ``intended``) of the generator's
    swap toward a level: ``SINGLES_FINISH`` if singles still finish ``fewer``; ``PASSED_OVER`` if they
    leave fewer than ``min_open`` cells open or its other solutions cannot all be listed (``limit`` of
    them, ``budget`` nodes); ``UNIQUE`` if it has none; else their number, written to ``others``.
    ``stuck`` gets the masks singles narrow ``fewer`` to, where ``stalled_addition`` starts."""
    for i in range(fewer.shape[0]):
        stuck[i] = given_masks[fewer[i]]
    still_open = singles_open(stuck, units, peers, unit_bits, no_crossings, full)
    if still_open == 0:
        return SINGLES_FINISH
    if still_open < min_open:
        return PASSED_OVER
    settled = stuck
    if crossings.shape[0]:  # the search also takes out locked candidates: its fixpoint is narrower
        settled = stuck.copy()
        propagate(settled, units, peers, unit_bits, crossings, full)  # sound, as ``intended`` fits
    found, complete = other_solutions(settled, first[removed], last[removed], intended, order, units, peers,
                                      unit_bits, crossings, popcount, full, limit, budget, others)
    if not complete:
        return PASSED_OVER
    return found if found else UNIQUE


@njit(cache=True)
def stalled_addition(stuck: np.ndarray, others: np.ndarray, intended: np.ndarray, a: int, b: int,
                     units: np.ndarray, peers: np.ndarray, unit_bits: np.ndarray, no_crossings: np.ndarray,
                     full: int, cand: np.ndarray, queue: np.ndarray) -> bool:
    """Whether cells ``a`` and ``b`` (a group absent from the givens singles narrow to ``stuck``), given as
    ``intended`` has them, rule out every one of ``others`` (the givens' solutions but ``intended``) and
    still leave singles short of the end: a swap's addition, unique without another search. ``cand`` and
    ``queue`` are scratch space (one slot per cell)."""
    for s in range(others.shape[0]):
        if others[s, a] == intended[a] and others[s, b] == intended[b]:
            return False
    # singles reach the same fixpoint from the givens' own fixpoint, so only the added cells are queued
    cand[:] = stuck
    cand[a] = 1 << (intended[a] - 1)
    cand[b] = 1 << (intended[b] - 1)
    queue[0], queue[1] = a, b
    return not settle_from(cand, units, peers, unit_bits, no_crossings, full, queue, 1 if a == b else 2) or \
        np.count_nonzero(cand & (cand - 1)) > 0


# What broke in a trial (``why[0]``); ``why[1]`` is the cell or unit, ``why[2]`` a digit mask.
NO_CANDIDATE, NO_PLACE, TWO_DIGITS_ONE_CELL = 1, 2, 3


@njit(cache=True)
def cell_units_of(units: np.ndarray, cells: int) -> np.ndarray:
    """Per cell, the units holding it (its row, column and box)."""
    held = np.empty((cells, 3), dtype=np.int32)
    seen = np.zeros(cells, dtype=np.int32)
    for u in range(units.shape[0]):
        for i in units[u]:
            held[i, seen[i]] = u
            seen[i] += 1
    return held


@njit(cache=True)
def trial(cand: np.ndarray, cell: int, digit: int, units: np.ndarray, peers: np.ndarray, full: int,
          max_rounds: int, placed_round: np.ndarray, why: np.ndarray, max_decided: int = 1 << 30) -> int:
    """Assume ``digit`` in ``cell`` and follow singles round by round, as a person follows a chain (a
    round: every decided cell's digit cleared from its peers, then every hidden single placed), in
    place on ``cand``. Returns the round that broke a rule (and ``why`` it broke), 0 if none did within
    ``max_rounds`` or the chain ran dry, or as soon as it has decided more than ``max_decided`` cells
    (a caller looking for the smallest net stops following one already larger than the best).
    ``placed_round[i]`` is the round in which cell i was decided (-1: not by this trial)."""
    return follow(cand, cell, digit, units, peers, cell_units_of(units, cand.shape[0]), full, max_rounds,
                  placed_round, why, max_decided, np.empty(cand.shape[0], dtype=np.int32),
                  np.empty(units.shape[0], dtype=np.bool_))


@njit(cache=True)
def record_decided(i: int, rnd: int, placed_round: np.ndarray, decided_cells: np.ndarray, tail: int) -> int:
    """``follow``'s record of cell ``i`` decided in round ``rnd``, wherever a rule decides it: the new tail of
    ``decided_cells``."""
    placed_round[i] = rnd
    decided_cells[tail] = i
    return tail + 1


@njit(cache=True)
def follow(cand: np.ndarray, cell: int, digit: int, units: np.ndarray, peers: np.ndarray, cell_units: np.ndarray,
           full: int, max_rounds: int, placed_round: np.ndarray, why: np.ndarray, max_decided: int,
           decided_cells: np.ndarray, dirty: np.ndarray) -> int:
    """``trial`` without scanning the whole grid each round: a round clears, in cell order, only the cells
    decided in the round before (the only ones a full scan would clear), and looks for hidden singles
    only in the units changed since their last look (an unchanged unit has none left and breaks no
    rule). The same rounds, cells, contradiction and ``why`` as the full scan; ``decided_cells`` and
    ``dirty`` are scratch space (one slot per cell, per unit)."""
    cells = cand.shape[0]
    for i in range(cells):
        placed_round[i] = -1
    dirty[:] = True
    cand[cell] = 1 << (digit - 1)
    placed_round[cell] = 0
    decided_cells[0] = cell
    # decided_cells[round_start:round_end]: decided in the round before; past the assumed cell, the cells the
    # trial decided, so their number is the tail less one
    round_start, round_end = 0, 1
    for rnd in range(1, max_rounds + 1):
        progress = False
        # the cells decided in the round before, in cell order (an insertion sort: a handful of cells)
        for a in range(round_start + 1, round_end):
            x = decided_cells[a]
            b = a - 1
            while b >= round_start and decided_cells[b] > x:
                decided_cells[b + 1] = decided_cells[b]
                b -= 1
            decided_cells[b + 1] = x
        tail = round_end
        for a in range(round_start, round_end):
            i = decided_cells[a]
            m = cand[i]
            for p in peers[i]:
                if cand[p] & m:
                    cand[p] &= ~m
                    progress = True
                    for u in cell_units[p]:
                        dirty[u] = True
                    if cand[p] == 0:
                        why[0], why[1], why[2] = NO_CANDIDATE, p, m
                        return rnd
                    if cand[p] & (cand[p] - 1) == 0 and placed_round[p] < 0:
                        tail = record_decided(p, rnd, placed_round, decided_cells, tail)
                        if tail - 1 > max_decided:
                            return 0
        for u in range(units.shape[0]):
            if not dirty[u]:
                continue
            dirty[u] = False
            once, twice = digits_once_and_twice(cand, units[u])
            if once != full:
                why[0], why[1], why[2] = NO_PLACE, u, full & ~once
                return rnd
            only = once & ~twice
            if only:
                for i in units[u]:
                    m = cand[i] & only
                    if m:
                        if m & (m - 1):
                            why[0], why[1], why[2] = TWO_DIGITS_ONE_CELL, i, m
                            return rnd
                        if cand[i] != m:
                            cand[i] = m
                            for v in cell_units[i]:
                                dirty[v] = True
                            if placed_round[i] < 0:
                                tail = record_decided(i, rnd, placed_round, decided_cells, tail)
                                if tail - 1 > max_decided:
                                    return 0
                            progress = True
        if not progress:
            return 0
        round_start, round_end = round_end, tail
    return 0


@njit(cache=True)
def smallest_forcing_net(masks: np.ndarray, cells: np.ndarray, units: np.ndarray, peers: np.ndarray, full: int,
                         max_rounds: int, best: np.ndarray) -> bool:
    """Of every candidate of ``cells`` (in that order, digits ascending), the assumption whose ``trial``
    breaks a rule having decided the fewest cells, then in the fewest rounds, then the lowest cell and
    digit: ``best`` = (cells decided, rounds, cell, digit). False if no assumption breaks."""
    placed_round = np.empty(masks.shape[0], dtype=np.int32)
    why = np.zeros(3, dtype=np.int32)
    cell_units = cell_units_of(units, masks.shape[0])
    decided_cells = np.empty(masks.shape[0], dtype=np.int32)
    dirty = np.empty(units.shape[0], dtype=np.bool_)
    found = False
    for i in cells:
        m = masks[i]
        for d in range(1, 33):
            if not m & (1 << (d - 1)):
                continue
            bound = best[0] if found else 1 << 30
            broke = follow(masks.copy(), i, d, units, peers, cell_units, full, max_rounds, placed_round, why, bound,
                           decided_cells, dirty)
            if not broke:
                continue
            decided = 0
            for r in placed_round:
                if r > 0:
                    decided += 1
            if not found or (decided, broke, i, d) < (best[0], best[1], best[2], best[3]):
                best[0], best[1], best[2], best[3] = decided, broke, i, d
                found = True
    return found


@cache
def in_order(n: int) -> np.ndarray:
    """Every cell's digits 1..n in order: the search's order when it only counts (read-only, shared)."""
    order = np.tile(np.arange(1, n + 1, dtype=np.int32), (n * n, 1))
    order.flags.writeable = False
    return order


class Search:
    """One exact search over a grid, resumable: counts solutions up to ``limit`` and keeps ``keep``."""

    def __init__(self, n: int, givens: Sequence[int], limit: int, keep: int, order: np.ndarray | None = None):
        g = self.geometry = geometry(n)
        cells = n * n
        self.full = (1 << n) - 1
        self.stack = np.empty((cells + 2, cells), dtype=np.int32)  # row d is written before it is read
        self.branch_cell = np.empty(cells + 2, dtype=np.int32)
        self.branch_rest = np.empty(cells + 2, dtype=np.int32)
        self.control = np.zeros(6, dtype=np.int64)
        self.solutions = np.zeros((max(keep, 0), cells), dtype=np.int8)
        self.order = order if order is not None else in_order(n)
        self.limit = limit
        start = self.stack[0]
        start[:] = g.given_masks[np.asarray(givens, dtype=np.intp)]
        if not propagate(start, g.units, g.peers, g.unit_bits, g.crossings, self.full):
            self.control[STATUS] = EXHAUSTED

    def run(self, deadline: Deadline, max_nodes: int | None = None) -> Search:
        """Search until exhausted or ``limit`` solutions are found; past ``max_nodes`` nodes it stops
        early (``finished`` is then False)."""
        g = self.geometry
        while self.control[STATUS] == RUNNING:
            deadline.check()
            budget = SLICE if max_nodes is None else min(SLICE, max_nodes - self.nodes)
            if budget <= 0:
                break
            run(self.stack, self.branch_cell, self.branch_rest, self.control, self.solutions, self.order,
                g.units, g.peers, g.unit_bits, g.crossings, g.popcount, self.full, self.limit, budget)
        return self

    @property
    def finished(self) -> bool:
        return bool(self.control[STATUS] != RUNNING)

    @property
    def count(self) -> int:
        return int(self.control[COUNT])

    @property
    def complete(self) -> bool:
        return bool(self.control[STATUS] == EXHAUSTED)

    @property
    def nodes(self) -> int:
        return int(self.control[NODES])

    def found(self) -> list[list[int]]:
        """The kept solutions, each a flat list of digits."""
        return [row.tolist() for row in self.solutions[: int(self.control[KEPT])]]


def count(n: int, givens: Sequence[int], limit: int, deadline: Deadline, keep: int = 0) -> Search:
    return Search(n, givens, limit, keep).run(deadline)


def warm_up() -> None:
    """Load (or compile, the first time on a machine) every entry point before any request needs it."""
    with compile_lock(__name__):
        count(4, [0] * 16, 3, Deadline.never(), keep=1)
        Search(4, [0] * 16, 1, 1, in_order(4).copy()).run(Deadline.never())  # a random fill's order is writable
        g = geometry(4)
        cand = np.full(16, 15, dtype=np.int32)
        trial(cand, 0, 1, g.units, g.peers, 15, 3, np.zeros(16, dtype=np.int32), np.zeros(3, dtype=np.int32))
        smallest_forcing_net(cand, np.arange(16, dtype=np.int32), g.units, g.peers, 15, 3, np.zeros(4, dtype=np.int64))
        no_crossings = np.zeros((0, 3, 4), dtype=np.int32)
        ends, ones = np.arange(16), np.ones(16, dtype=np.int8)
        unique_without(np.zeros(16, dtype=np.int32), ones, ends[:2], ends[:2], g.given_masks, in_order(4), g.units,
                       g.peers, g.unit_bits, g.crossings, g.popcount, 15, 10, np.zeros(2, dtype=np.int32))
        singles_open(cand.copy(), g.units, g.peers, g.unit_bits, no_crossings, 15)
