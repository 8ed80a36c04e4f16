"""The sum rule's reading compiled with numba, for a generator's many level checks on bit masks.

``supports`` walks what ``solvers.kit.sums.supports`` walks (fillings as sets of digits used, the cell to fill
being the set's size), forward then back instead of by recursion; ``read`` reads lines of cells, each a sum,
until nothing changes, as a person's look at every sum would. A line is a slice of ``members`` (cell indices)
from ``starts[k]`` to ``starts[k + 1]``; the lines through cell ``i`` are ``lines_at`` from ``lines_from[i]`` to
``lines_from[i + 1]``; a total below 0 is none (the line is not read). Each cell's possible digits are bits 1..9
of ``masks``. Every function is non-recursive and compiled with ``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.kit.sums import DIGIT_SUM

FULL = 0b1111111110  # digits 1..9 as bits
STATES = 1 << 10  # sets of digits used, as bits 1..9
SUMS = np.array(DIGIT_SUM, np.int64)


def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Working space of ``supports``: the states walked (a list, by size), a mark per state and whether it
    completes."""
    return np.zeros(STATES, np.int64), np.zeros(STATES, np.bool_), np.zeros(STATES, np.bool_)


@njit(cache=True)
def _fits(total, used, left):  # noqa: ANN001, ANN202 (numba)
    """Whether ``left`` more different digits may bring the digits ``used`` to ``total``."""
    return total < 0 or left <= total - SUMS[used] <= 9 * left


@njit(cache=True)
def supports(total, allowed, n, support, states, seen, good):  # noqa: ANN001, ANN201 (numba)
    """For each of the ``n`` cells, the digits some filling puts there (into ``support``): different digits, each
    cell's from its ``allowed`` bits, adding up to ``total`` (any total when below 0). False when no filling
    does. ``states``, ``seen`` and ``good`` are scratch; ``seen`` is left all False."""
    bounds = np.zeros(n + 2, np.int64)  # the states of k digits are states[bounds[k]:bounds[k + 1]]
    states[0] = 0
    seen[0] = True
    count = 1
    for at in range(n):
        support[at] = 0
        bounds[at + 1] = count
        for s in range(bounds[at], bounds[at + 1]):
            used = states[s]
            if not _fits(total, used, n - at):
                continue
            options = allowed[at] & ~used
            while options:
                bit = options & -options
                options ^= bit
                if not seen[used | bit]:
                    seen[used | bit] = True
                    states[count] = used | bit
                    count += 1
    bounds[n + 1] = count
    for s in range(bounds[n], count):
        good[states[s]] = _fits(total, states[s], 0)
    for at in range(n - 1, -1, -1):  # back from the full sets: a state completes when a next one does
        for s in range(bounds[at], bounds[at + 1]):
            used = states[s]
            good[used] = False
            if not _fits(total, used, n - at):
                continue
            options = allowed[at] & ~used
            while options:
                bit = options & -options
                options ^= bit
                if seen[used | bit] and good[used | bit]:
                    support[at] |= bit
                    good[used] = True
    for s in range(count):
        seen[states[s]] = False
    return good[0]


@njit(cache=True)
def read(members, starts, lines_at, lines_from, totals, masks, looking, placed_only,  # noqa: ANN001, ANN201
         states, seen, good):
    """Read the lines ``looking`` (a list of line indices) until nothing changes: by the digits placed in them
    (``placed_only``) or by what their cells may still hold, narrowing ``masks``. False when a line has no
    filling left."""
    lines = starts.shape[0] - 1
    longest = 0
    for k in range(lines):
        longest = max(longest, starts[k + 1] - starts[k])
    allowed, support = np.zeros(longest, np.int64), np.zeros(longest, np.int64)
    queued = np.zeros(lines, np.bool_)
    queue = np.empty(lines, np.int64)  # a ring: each line at most once in it
    head, size = 0, 0
    for k in looking:
        if not queued[k]:
            queued[k] = True
            queue[(head + size) % lines] = k
            size += 1
    while size:
        k = queue[head]
        head = (head + 1) % lines
        size -= 1
        queued[k] = False
        if totals[k] < 0:
            continue
        n = starts[k + 1] - starts[k]
        taken = 0
        if placed_only:
            for j in range(n):
                mask = masks[members[starts[k] + j]]
                if mask & (mask - 1) == 0:
                    taken |= mask
        for j in range(n):
            mask = masks[members[starts[k] + j]]
            allowed[j] = mask if not placed_only or mask & (mask - 1) == 0 else FULL & ~taken
        if not supports(totals[k], allowed, n, support, states, seen, good):
            return False
        for j in range(n):
            i = members[starts[k] + j]
            if masks[i] & support[j] != masks[i]:
                masks[i] &= support[j]
                for m in range(lines_from[i], lines_from[i + 1]):
                    other = lines_at[m]
                    if not queued[other]:
                        queued[other] = True
                        queue[(head + size) % lines] = other
                        size += 1
    return True


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on a line of two cells."""
    members, starts = np.array([0, 1], np.int64), np.array([0, 2], np.int64)
    lines_at, lines_from = np.array([0, 0], np.int64), np.array([0, 1, 2], np.int64)
    masks = np.full(2, FULL, np.int64)
    read(members, starts, lines_at, lines_from, np.array([3], np.int64), masks, np.array([0], np.int64), True,
         *scratch())
    read(members, starts, lines_at, lines_from, np.array([3], np.int64), masks, np.array([0], np.int64), False,
         *scratch())
