"""Skyscrapers' two lower levels compiled with numba, on bit masks, for the generator's many level checks.

Each cell's possible heights are bits 1..N of ``masks``. The Latin rules take a height placed in a cell out of its
row and column, and place a height that has one cell left in a row or column; a clue's line is read as the kit's
visibility rule reads it (``solvers.kit.seen_kernel.placements``), by the heights placed in it (the easy level) or
by what its cells may still hold (the line analysis, the medium level), keeping each cell's heights that some
order showing the clue puts there. They go on until nothing changes: the state the kit's array solve reaches on
the one-hot keys (``solvers.kit.arrays.solves``), as every deduction only narrows (``tests/puzzles/
test_skyscrapers.py`` compares the two). Every function is non-recursive and compiled with ``cache=True``;
``warm_up`` loads them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.kit import seen_kernel
from solvers.kit.seen_kernel import placements


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
def _read_line(n, line, count, masks, candidates, allowed, support, dirty, lines_of):  # noqa: ANN001, ANN202 (numba)
    """Keep each cell of ``line`` to the heights some order showing ``count`` puts there; False when none does.
    Without ``candidates`` a cell not placed may hold any height not placed elsewhere in the line."""
    full = (2 << n) - 2
    taken = 0
    for j in range(n):
        mask = masks[line[j]]
        if mask & (mask - 1) == 0:
            taken |= mask
    for j in range(n):
        mask = masks[line[j]]
        allowed[j] = mask if candidates or mask & (mask - 1) == 0 else full & ~taken
    if not placements(count, allowed, support):
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
    allowed, support = np.zeros(n, np.int64), np.zeros(n, np.int64)
    read = True
    while read:
        if not _latin(n, masks, dirty, lines_of):
            return False
        read = False
        for k in range(lines.shape[0]):
            if dirty[k]:
                dirty[k] = False
                read = True
                if not _read_line(n, lines[k], counts[k], masks, candidates, allowed, support, dirty, lines_of):
                    return False
                if candidates:  # what a line keeps it reads alike again; placed heights may tell more
                    dirty[k] = False
    return True


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on a 2×2 with one clue, and the hints' reading."""
    seen_kernel.warm_up()
    for candidates in (True, False):
        follow(2, np.array([[0, 1]], np.int64), np.array([2], np.int64), np.full(4, 6, np.int64), candidates)
