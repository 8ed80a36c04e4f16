"""The Star Battle levels compiled with numba: the kit's deductions (the rules alone round by round, short
trials, trials followed to the end) on bit masks, for the generator's walk over region maps.

A map of side ``n`` (up to ``MAX_SIDE``) is two words (int64): a cell ``(r, c)`` is bit ``(r % per) * w + c``
of word ``r // per``, ``w = n + 1`` (a spare column keeps a shift off the next row) and ``per = 63 // w`` whole
rows to a word, so that no bit reaches the sign. A set of cells travels as the pair ``(lo, hi)``; a state as
(stars lo, hi, empty lo, hi). ``layout`` makes a map's ``geometry`` (``n, stars, w, per, board lo, board hi``)
and its units (rows, columns and regions, in the order their cells first meet them row by row: one unit a
row of ``units``). Every function is non-recursive and compiled with ``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.common import compile_lock
from solvers.engines.bits import popcount

MAX_SIDE = 10  # the most rows two words hold: 5 of 11 bits to a word
N, STARS, WIDTH, PER, BOARD0, BOARD1 = range(6)  # the geometry's fields
UNLIMITED = -1  # rounds: follow until nothing changes


@njit(cache=True)
def layout(regions, stars):  # noqa: ANN001, ANN201 (numba)
    """A map's geometry and units from its regions (ids 0 up, an (n, n) array) and stars per unit."""
    n = regions.shape[0]
    w = n + 1
    per = 63 // w
    slot = np.full(regions.max() + 1, -1, np.int64)
    row_unit, column_unit = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
    units = np.zeros((2 * n + n * n, 2), np.int64)
    board = np.zeros(2, np.int64)
    count = 0
    for r in range(n):
        word, shift = r // per, (r % per) * w
        for c in range(n):
            bit = np.int64(1) << (shift + c)
            board[word] |= bit
            if row_unit[r] < 0:
                row_unit[r] = count
                count += 1
            units[row_unit[r], word] |= bit
            if column_unit[c] < 0:
                column_unit[c] = count
                count += 1
            units[column_unit[c], word] |= bit
            region = regions[r, c]
            if slot[region] < 0:
                slot[region] = count
                count += 1
            units[slot[region], word] |= bit
    geometry = np.array([n, stars, w, per, board[0], board[1]], np.int64)
    return geometry, units[:count].copy()


@njit(cache=True)
def around(m0, m1, w, per, b0, b1):  # noqa: ANN001, ANN201 (numba)
    """The cells touching the cells ``(m0, m1)``, diagonals included (not the cells themselves)."""
    top = (per - 1) * w  # the last row of a word, to carry into the next
    row = (np.int64(1) << w) - 1
    d0, d1 = (m0 << w) & b0, ((m1 << w) | (m0 >> top)) & b1  # each cell's one below
    u0, u1 = ((m0 >> w) | ((m1 & row) << top)) & b0, (m1 >> w) & b1  # and above
    v0, v1 = m0 | d0 | u0, m1 | d1 | u1
    return ((v0 << 1) | (v0 >> 1) | d0 | u0) & b0, ((v1 << 1) | (v1 >> 1) | d1 | u1) & b1


@njit(cache=True)
def one_round(geometry, units, s0, s1, e0, e1, c0, c1):  # noqa: ANN001, ANN201 (numba)
    """One round of the rules beside the cells ``(c0, c1)`` changed last round (every other rule is as it was):
    (False, ...) when a rule breaks or two rules decide a cell both ways, else (True, the new state)."""
    k, w, per, b0, b1 = geometry[STARS], geometry[WIDTH], geometry[PER], geometry[BOARD0], geometry[BOARD1]
    a0, a1 = around(s0 & c0, s1 & c1, w, per, b0, b1)
    if (a0 & s0) | (a1 & s1):
        return False, s0, s1, e0, e1
    o0, o1 = b0 & ~s0 & ~e0, b1 & ~s1 & ~e1
    te0, te1, ts0, ts1 = a0 & o0, a1 & o1, np.int64(0), np.int64(0)
    for u in range(units.shape[0]):
        x0, x1 = units[u, 0], units[u, 1]
        if not ((x0 & c0) | (x1 & c1)):
            continue
        ones = popcount(x0 & s0) + popcount(x1 & s1)
        f0, f1 = x0 & o0, x1 & o1
        left = popcount(f0) + popcount(f1)
        if ones > k or ones + left < k:
            return False, s0, s1, e0, e1
        if left and ones == k:
            te0, te1 = te0 | f0, te1 | f1
        elif left and ones + left == k:
            ts0, ts1 = ts0 | f0, ts1 | f1
    if (ts0 & te0) | (ts1 & te1):
        return False, s0, s1, e0, e1
    return True, s0 | ts0, s1 | ts1, e0 | te0, e1 | te1


@njit(cache=True)
def follow(geometry, units, s0, s1, e0, e1, c0, c1, rounds):  # noqa: ANN001, ANN201 (numba)
    """Rounds from the cells ``(c0, c1)`` until nothing changes (or ``rounds`` of them, ``UNLIMITED``): (False,
    ...) when a rule breaks, else (True, the state)."""
    done = 0
    while (c0 | c1) and (rounds < 0 or done < rounds):
        done += 1
        ok, n0, n1, m0, m1 = one_round(geometry, units, s0, s1, e0, e1, c0, c1)
        if not ok:
            return False, s0, s1, e0, e1
        c0, c1 = (n0 ^ s0) | (m0 ^ e0), (n1 ^ s1) | (m1 ^ e1)
        s0, s1, e0, e1 = n0, n1, m0, m1
    return True, s0, s1, e0, e1


@njit(cache=True)
def assume(s0, s1, e0, e1, c0, c1, star):  # noqa: ANN001, ANN201 (numba)
    """The state with the cells ``(c0, c1)`` a star (``star``) or empty."""
    if star:
        return s0 | c0, s1 | c1, e0, e1
    return s0, s1, e0 | c0, e1 | c1


@njit(cache=True)
def trials(geometry, units, s0, s1, e0, e1, rounds):  # noqa: ANN001, ANN201 (numba)
    """Each open cell, row by row, assumed a star, then empty, and followed ``rounds`` rounds: a broken rule
    decides it the other way and the rules go on, passes over the grid until one decides nothing (as the kit's
    ``trials``); (False, ...) when the rules then break."""
    n, w, per, b0, b1 = geometry[N], geometry[WIDTH], geometry[PER], geometry[BOARD0], geometry[BOARD1]
    progress = True
    while progress and ((s0 | e0) != b0 or (s1 | e1) != b1):
        progress = False
        for r in range(n):
            for c in range(n):
                bit = np.int64(1) << ((r % per) * w + c)
                c0, c1 = (bit, np.int64(0)) if r < per else (np.int64(0), bit)
                for star in (True, False):
                    if ((s0 | e0) & c0) | ((s1 | e1) & c1):
                        break
                    a0, a1, a2, a3 = assume(s0, s1, e0, e1, c0, c1, star)
                    if follow(geometry, units, a0, a1, a2, a3, c0, c1, rounds)[0]:
                        continue
                    a0, a1, a2, a3 = assume(s0, s1, e0, e1, c0, c1, not star)
                    ok, t0, t1, t2, t3 = follow(geometry, units, a0, a1, a2, a3, c0, c1, UNLIMITED)
                    if not ok:
                        return False, s0, s1, e0, e1
                    s0, s1, e0, e1, progress = t0, t1, t2, t3, True
    return True, s0, s1, e0, e1


@njit(cache=True)
def solve(geometry, units, level, short_rounds):  # noqa: ANN001, ANN201 (numba)
    """(True, stars lo, hi, empty lo, hi) the levels up to ``level`` (0 the rules alone, 1 trials of
    ``short_rounds`` rounds, 2 trials to the end) decide; (False, ...) when the rules break (no answer)."""
    b0, b1 = geometry[BOARD0], geometry[BOARD1]
    zero = np.int64(0)
    ok, s0, s1, e0, e1 = follow(geometry, units, zero, zero, zero, zero, b0, b1, UNLIMITED)
    for step in range(min(level, 2)):
        if ok and ((s0 | e0) != b0 or (s1 | e1) != b1):
            ok, s0, s1, e0, e1 = trials(geometry, units, s0, s1, e0, e1, short_rounds if step == 0 else UNLIMITED)
    return ok, s0, s1, e0, e1


@njit(cache=True)
def score(geometry, units, level, short_rounds, counts):  # noqa: ANN001, ANN201 (numba)
    """What ``solve`` leaves open: into ``counts`` each unit's open cells, and the open cells (lo, hi); -1 cells
    decided when the rules break (``counts`` untouched)."""
    ok, s0, s1, e0, e1 = solve(geometry, units, level, short_rounds)
    b0, b1 = geometry[BOARD0], geometry[BOARD1]
    if not ok:
        return -1, np.int64(0), np.int64(0)
    o0, o1 = b0 & ~(s0 | e0), b1 & ~(s1 | e1)
    for u in range(units.shape[0]):
        counts[u] = popcount(units[u, 0] & o0) + popcount(units[u, 1] & o1)
    return popcount(b0 & ~o0) + popcount(b1 & ~o1), o0, o1


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on a 5×5 map of one star and a 10×10 of two."""
    with compile_lock(__name__):
        for n, stars in ((5, 1), (10, 2)):
            regions = np.array([[r // 2 if stars == 2 else r for _ in range(n)] for r in range(n)], np.int64)
            geometry, units = layout(regions, stars)
            for level in range(3):
                score(geometry, units, level, 2, np.zeros(units.shape[0], np.int64))
                solve(geometry, units, level, 2)
