"""Skyscrapers' three lower levels compiled with numba, on bit masks, for the generator's many level checks.

Each cell's possible heights are bits 1..N of ``masks``. The Latin rules take a height placed in a cell out of its
row and column, and place a height that has one cell left in a row or column; a clue's line is read as the kit's
visibility rule reads it (``solvers.kit.seen_kernel.placements``), by the heights placed in it (the easy level) or
by what its cells may still hold (the line analysis, the medium level), keeping each cell's heights that some
order showing the clue puts there. They go on until nothing changes: the state the kit's array solve reaches on
the one-hot keys (``solvers.kit.arrays.solves``), as every deduction only narrows (``tests/puzzles/
test_skyscrapers.py`` compares the two). The hard level's trials (``trials``) count rounds, so they take the
one-hot state round by round as the kit's ``State`` does (``rounds``): every round's rules see the state it started
from, a line is read with its cells' candidates only in a round where the rules decide nothing, and a rule breaks in
the round the kit's would. Every function is non-recursive and compiled with ``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.engines.bits import lowest_bit, popcount
from solvers.kit import seen_kernel
from solvers.kit.seen_kernel import placements


@njit(cache=True)
def _work(n):  # noqa: ANN001, ANN202 (numba)
    """A line's scratch for ``placements``: its cells' allowed heights and their support, then ``seen_kernel.scratch``."""
    shows, ends, states = seen_kernel.scratch(n)
    return np.zeros(n, np.int64), np.zeros(n, np.int64), shows, ends, states


@njit(cache=True)
def _narrow(masks, i, mask, dirty, lines_of):  # noqa: ANN001, ANN202 (numba)
    """Cell ``i`` may hold only ``mask`` from now on: the lines through it are read again."""
    masks[i] = mask
    for slot in range(lines_of.shape[1]):
        if lines_of[i, slot] >= 0:
            dirty[lines_of[i, slot]] = True


@njit(cache=True)
def _latin(n, masks, dirty, lines_of):  # noqa: ANN001, ANN202 (numba)
    """The Latin rules until they change nothing; False when a cell, or a height in a row or column, has no place."""
    changed = True
    while changed:
        changed = False
        for i in range(n * n):
            mask = masks[i]
            if mask == 0:
                return False
            if mask & (mask - 1):
                continue
            r, c = i // n, i % n
            for k in range(n):
                for j in (r * n + k, k * n + c):
                    if j != i and masks[j] & mask:
                        _narrow(masks, j, masks[j] & ~mask, dirty, lines_of)
                        changed = True
        for unit in range(2 * n):
            for height in range(1, n + 1):
                bit, places, at = 1 << height, 0, -1
                for k in range(n):
                    j = unit * n + k if unit < n else k * n + unit - n
                    if masks[j] & bit:
                        places += 1
                        at = j
                if places == 0:
                    return False
                if places == 1 and masks[at] != bit:
                    _narrow(masks, at, bit, dirty, lines_of)
                    changed = True
    return True


@njit(cache=True)
def _read_line(n, line, count, masks, candidates, work, dirty, lines_of):  # noqa: ANN001, ANN202 (numba)
    """Keep each cell of ``line`` to the heights some order showing ``count`` puts there; False when none does.
    Without ``candidates`` a cell not placed may hold any height not placed elsewhere in the line. ``work``: the
    scratch of ``_work``."""
    allowed, support, shows, ends, states = work
    full = (2 << n) - 2
    taken = 0
    for j in range(n):
        mask = masks[line[j]]
        if mask & (mask - 1) == 0:
            taken |= mask
    for j in range(n):
        mask = masks[line[j]]
        allowed[j] = mask if candidates or mask & (mask - 1) == 0 else full & ~taken
    if not placements(count, allowed, support, shows, ends, states):
        return False
    for j in range(n):
        i = line[j]
        if masks[i] & support[j] != masks[i]:
            _narrow(masks, i, masks[i] & support[j], dirty, lines_of)
    return True


@njit(cache=True)
def follow(n, lines, counts, masks, candidates):  # noqa: ANN001, ANN201 (numba)
    """Narrow ``masks`` (N×N cells, row by row) by the Latin rules and the clues' lines (``lines[k]``: line k's
    cells nearest first, ``counts[k]`` towers seen) until nothing changes; False when a rule breaks."""
    dirty = np.ones(lines.shape[0], np.bool_)
    lines_of = np.full((n * n, 4), -1, np.int64)  # the lines through each cell: at most one from each side
    filled = np.zeros(n * n, np.int64)
    for k in range(lines.shape[0]):
        for j in range(n):
            i = lines[k, j]
            lines_of[i, filled[i]] = k
            filled[i] += 1
    work = _work(n)
    read = True
    while read:
        if not _latin(n, masks, dirty, lines_of):
            return False
        read = False
        for k in range(lines.shape[0]):
            if dirty[k]:
                dirty[k] = False
                read = True
                if not _read_line(n, lines[k], counts[k], masks, candidates, work, dirty, lines_of):
                    return False
                if candidates:  # what a line keeps it reads alike again; placed heights may tell more
                    dirty[k] = False
    return True


@njit(cache=True)
def _read_keys(n, line, count, one, zero, candidates, work, ones, zeros):  # noqa: ANN001, ANN202 (numba)
    """A line's reading on the one-hot state (``one``: each cell's key at 1 as a bit, ``zero``: its keys at 0) as
    a person's look takes it: its open keys every order showing ``count`` agrees on go into ``ones`` and ``zeros``.
    1 when it decides a key, 0 when not, -1 when no order shows ``count``."""
    allowed, support, shows, ends, states = work
    full = (2 << n) - 2
    taken = 0
    for j in range(n):
        taken |= one[line[j]]
    for j in range(n):
        i = line[j]
        allowed[j] = one[i] if one[i] else full & ~zero[i] if candidates else full & ~taken
    if not placements(count, allowed, support, shows, ends, states):
        return -1
    decided = 0
    for j in range(n):
        i = line[j]
        open_ = full & ~zero[i] & ~one[i]
        if open_ & ~support[j]:
            zeros[i] |= open_ & ~support[j]
            decided = 1
        if support[j] & (support[j] - 1) == 0 and open_ & support[j]:
            ones[i] |= support[j]
            decided = 1
    return decided


@njit(cache=True)
def _rules_look(n, lines, counts, one, zero, work, ones, zeros):  # noqa: ANN001, ANN202 (numba)
    """One look of every rule at the one-hot state, as the kit's rule technique takes it: a cell holds one height,
    a row or column each height once, a line its count by the heights placed in it. The keys they decide go into
    ``ones`` and ``zeros``; how many rules decided one, -1 when a rule breaks."""
    full = (2 << n) - 2
    steps = 0
    for i in range(n * n):
        if one[i] & (one[i] - 1):  # two heights placed by one round: the cell's rule breaks now, as the kit's does
            return -1
        open_ = full & ~zero[i] & ~one[i]
        if one[i] and open_:
            zeros[i] |= open_
            steps += 1
        elif not one[i]:
            if open_ == 0:
                return -1
            if open_ & (open_ - 1) == 0:
                ones[i] |= open_
                steps += 1
    for unit in range(2 * n):
        for height in range(1, n + 1):
            bit, placed, open_, at = 1 << height, 0, 0, -1
            for k in range(n):
                j = unit * n + k if unit < n else k * n + unit - n
                if one[j] == bit:
                    placed += 1
                elif not zero[j] & bit:
                    open_ += 1
                    at = j
            if placed > 1 or placed + open_ == 0:
                return -1
            if placed == 1 and open_:
                steps += 1
                for k in range(n):
                    j = unit * n + k if unit < n else k * n + unit - n
                    if one[j] != bit and not zero[j] & bit:
                        zeros[j] |= bit
            elif placed == 0 and open_ == 1:
                steps += 1
                ones[at] |= bit
    for k in range(lines.shape[0]):
        decided = _read_keys(n, lines[k], counts[k], one, zero, False, work, ones, zeros)
        if decided < 0:
            return -1
        steps += decided
    return steps


@njit(cache=True)
def _apply(one, zero, ones, zeros):  # noqa: ANN001, ANN202 (numba)
    """Set the keys a round decided; False when two decide a key both ways (a cell given two heights breaks its rule
    in the next round, as on the kit's keys: the hard level's trials count the round a rule breaks in)."""
    for i in range(one.shape[0]):
        if ones[i] & zeros[i]:
            return False
        one[i] |= ones[i]
        zero[i] |= zeros[i]
        ones[i] = zeros[i] = 0
    return True


@njit(cache=True)
def rounds(n, lines, counts, one, zero):  # noqa: ANN001, ANN201 (numba)
    """The easy and medium levels as a person takes them, round by round on the one-hot state: every rule looks
    (each that decides a key is a rule step) and what they decide is set; when none does, every line is read with
    what its cells may still hold (each that decides a key is a line analysis step). (rule steps, line steps, 1
    solved, 0 stuck or -1 broken)."""
    full = (2 << n) - 2
    work = _work(n)
    ones, zeros = np.zeros(n * n, np.int64), np.zeros(n * n, np.int64)
    rule_steps = line_steps = 0
    while True:
        steps = _rules_look(n, lines, counts, one, zero, work, ones, zeros)
        if steps < 0 or not _apply(one, zero, ones, zeros):
            return rule_steps, line_steps, -1
        if steps:
            rule_steps += steps
            continue
        for k in range(lines.shape[0]):
            decided = _read_keys(n, lines[k], counts[k], one, zero, True, work, ones, zeros)
            if decided < 0:
                return rule_steps, line_steps, -1
            steps += decided
        if not _apply(one, zero, ones, zeros):
            return rule_steps, line_steps, -1
        if not steps:
            break
        line_steps += steps
    for i in range(n * n):
        if not one[i] or zero[i] != full & ~one[i]:
            return rule_steps, line_steps, 0
    return rule_steps, line_steps, 1


@njit(cache=True)
def _follow(n, lines, counts, one, zero, work, ones, zeros, most):  # noqa: ANN001, ANN202 (numba)
    """Rounds as ``rounds`` takes them, at most ``most`` (-1: until nothing changes), from a state every rule and
    line has read (only what changed since can decide): the round a rule broke in, else 0 (``State.follow``)."""
    done = 0
    while most < 0 or done < most:
        done += 1
        steps = _rules_look(n, lines, counts, one, zero, work, ones, zeros)
        if steps < 0 or not _apply(one, zero, ones, zeros):
            ones[:] = 0
            zeros[:] = 0
            return done
        if steps:
            continue
        for k in range(lines.shape[0]):
            decided = _read_keys(n, lines[k], counts[k], one, zero, True, work, ones, zeros)
            if decided < 0:
                ones[:] = 0
                zeros[:] = 0
                return done
            steps += decided
        if not _apply(one, zero, ones, zeros):
            ones[:] = 0
            zeros[:] = 0
            return done
        if not steps:
            return 0
    return 0


@njit(cache=True)
def trials(n, lines, counts, one, zero, most):  # noqa: ANN001, ANN201 (numba)
    """The hard level's check on the one-hot state (``one``, ``zero`` as ``rounds`` reads them, changed): the rules
    and lines until nothing changes, then each open key in the kit's order (cell by cell, heights up) assumed 1 then
    0 and followed ``most`` rounds; a rule broken decides it the other way, followed to the end; passes until one
    decides nothing. True when every cell is placed (``State.trials``, then ``State.solved``)."""
    full = (2 << n) - 2
    work = _work(n)
    ones, zeros = np.zeros(n * n, np.int64), np.zeros(n * n, np.int64)
    if _follow(n, lines, counts, one, zero, work, ones, zeros, -1):
        return False
    kept_one, kept_zero = one.copy(), zero.copy()
    progress = True
    while progress:
        progress = False
        placed = True
        for i in range(n * n):
            placed = placed and one[i] != 0 and zero[i] == full & ~one[i]
        if placed:
            return True
        for i in range(n * n):
            for d in range(1, n + 1):
                bit = 1 << d
                for value in (1, 0):
                    if one[i] & bit or zero[i] & bit:
                        break
                    kept_one[:] = one
                    kept_zero[:] = zero
                    if value:
                        one[i] |= bit
                    else:
                        zero[i] |= bit
                    broke = _follow(n, lines, counts, one, zero, work, ones, zeros, most)
                    one[:] = kept_one
                    zero[:] = kept_zero
                    if not broke:
                        continue
                    if value:
                        zero[i] |= bit
                    else:
                        one[i] |= bit
                    if _follow(n, lines, counts, one, zero, work, ones, zeros, -1):
                        return False
                    progress = True
    return False


@njit(cache=True)
def other(n, lines, counts, masks, answer, limit, out):  # noqa: ANN001, ANN201 (numba)
    """Another answer than ``answer`` (each cell's height) to the puzzle whose cells may hold ``masks`` (the givens
    placed) under the clues' ``lines`` and ``counts``: a search that narrows by ``follow`` with the line analysis at
    every node and splits the cell with the fewest heights. 1 with the answer found in ``out``, 0 when ``answer`` is
    the only one, -1 when ``limit`` nodes were not enough to tell. ``follow`` only rules out what no answer holds and
    a state it leaves with one height a cell is an answer, so the search misses none. An explicit stack, not
    recursion: numba's cache has crashed on recursive functions."""
    cells = n * n
    states = np.zeros((cells + 1, cells), np.int64)
    split = np.zeros(cells + 1, np.int64)
    left = np.zeros(cells + 1, np.int64)
    states[0] = masks
    if not follow(n, lines, counts, states[0], True):
        return 0
    depth, nodes = 0, 1
    while depth >= 0:
        state = states[depth]
        best, fewest = -1, n + 1
        for i in range(cells):
            held = popcount(state[i])
            if 1 < held < fewest:
                best, fewest = i, held
        if best < 0:  # every cell placed
            for i in range(cells):
                if state[i] != 1 << answer[i]:
                    for j in range(cells):
                        out[j] = lowest_bit(state[j])
                    return 1
            depth -= 1
        else:
            split[depth], left[depth] = best, state[best]
        while depth >= 0:  # the next height to try, at this depth or the nearest above that has one
            if left[depth] == 0:
                depth -= 1
                continue
            if nodes >= limit:
                return -1
            bit = left[depth] & -left[depth]
            left[depth] &= ~bit
            child = states[depth + 1]
            child[:] = states[depth]
            child[split[depth]] = bit
            nodes += 1
            if follow(n, lines, counts, child, True):
                depth += 1
                break
    return 0


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on a 2×2 with one clue, and the hints' reading."""
    seen_kernel.warm_up()
    for candidates in (True, False):
        follow(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.full(4, 6, np.int64), candidates)
    rounds(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64))
    trials(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), 1)
    other(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.full(4, 6, np.int64), np.array([1, 2, 2, 1]), 10,
          np.zeros(4, np.int64))
