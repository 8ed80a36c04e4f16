"""The visibility rule's reading compiled with numba, for a generator's many level checks.

``placements`` walks what ``solvers.kit.seen.placements`` promises (orders of a line's towers as sets of heights
used, the cell to fill being the set's size), forward then back instead of by recursion: per set of heights, the
numbers of towers shown on the way to it as bits of one integer, so a line of 9 visits at most 512 sets. ``read``
turns a line's one-hot keys into each cell's allowed heights, walks them and says which open keys every order
agrees on. Every function is non-recursive and compiled with ``cache=True``; ``warm_up`` loads them.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _tallest(used):  # noqa: ANN001, ANN202 (numba)
    """The highest height in the set ``used`` (bits 1..n); 0 for none."""
    tallest = 0
    while used >> (tallest + 1):
        tallest += 1
    return tallest


@njit(cache=True)
def scratch(n):  # noqa: ANN001, ANN201 (numba)
    """Working space of ``placements`` for lines of up to ``n`` cells: ``shows`` and ``ends`` by set of heights,
    all 0 (and left so), and the sets reached."""
    return np.zeros(2 << n, np.int64), np.zeros(2 << n, np.int64), np.zeros(1 << n, np.int64)


@njit(cache=True)
def placements(count, allowed, support, shows, ends, states):  # noqa: ANN001, ANN201 (numba)
    """For each position of the line (nearest first), the heights (bit ``h``) some order of the heights
    1..len(allowed) puts there, each at a position whose ``allowed`` has its bit, while showing ``count`` towers
    (into ``support``); False when no order does. ``shows[used]``: bit ``s`` when some order of the heights
    ``used`` in the first cells shows ``s`` towers; ``ends[used]``: bit ``s`` when, having shown ``s``, the rest can
    end at ``count``; both scratch (``scratch``), as ``states``, the sets reached by size: states[bounds[k]:bounds[k +
    1]] hold k heights."""
    n = allowed.shape[0]
    bounds = np.zeros(n + 2, np.int64)
    reach = (2 << count) - 1  # no more than ``count`` shown
    shows[0] = 1
    size = 1
    for at in range(n):
        support[at] = 0
        bounds[at + 1] = size
        for s in range(bounds[at], bounds[at + 1]):
            used = states[s]
            tallest = _tallest(used)
            options = allowed[at] & ~used
            while options:
                bit = options & -options
                options ^= bit
                height = _tallest(bit)
                step = shows[used] << 1 if height > tallest else shows[used]
                step &= reach
                if step:
                    if not shows[used | bit]:
                        states[size] = used | bit
                        size += 1
                    shows[used | bit] |= step
    bounds[n + 1] = size
    for s in range(bounds[n], size):
        ends[states[s]] = 1 << count
    for at in range(n - 1, -1, -1):
        for s in range(bounds[at], bounds[at + 1]):
            used = states[s]
            tallest = _tallest(used)
            options = allowed[at] & ~used
            while options:
                bit = options & -options
                options ^= bit
                after = ends[used | bit]
                if not after:
                    continue
                before = after >> 1 if _tallest(bit) > tallest else after
                ends[used] |= before
                if shows[used] & before:
                    support[at] |= bit
    found = ends[0] & 1 == 1
    for s in range(size):
        shows[states[s]] = ends[states[s]] = 0
    return found


@njit(cache=True)
def read(count, digits, candidates, values, forced):  # noqa: ANN001, ANN201 (numba)
    """The open keys of a line's one-hot ``values`` (-1 open, cell by cell, ``digits`` keys each) that every order
    showing ``count`` agrees on, into ``forced`` (the key's position; its value in the next slot); how many
    slots it filled, -1 when no order shows ``count``. A cell may hold its placed height, else (``candidates``) the
    heights not ruled out of it, or (without) every height not placed elsewhere in the line."""
    n = values.shape[0] // digits
    allowed = np.zeros(n, np.int64)
    taken = 0
    for i in range(n):
        mask = 0
        for d in range(digits):
            value = values[i * digits + d]
            if value == 1:
                mask = 2 << d
                taken |= mask
                break
            if value < 0 or not candidates:
                mask |= 2 << d
        allowed[i] = mask
    if not candidates:
        for i in range(n):
            mask = allowed[i]
            if not (mask & (mask - 1) == 0 and mask & taken):
                allowed[i] = mask & ~taken
    support = np.zeros(n, np.int64)
    shows, ends, states = scratch(n)
    if not placements(count, allowed, support, shows, ends, states):
        return -1
    filled = 0
    for p in range(values.shape[0]):
        if values[p] < 0:
            bits, bit = support[p // digits], 2 << (p % digits)
            if not bits & bit:
                forced[filled], forced[filled + 1] = p, 0
                filled += 2
            elif bits == bit:
                forced[filled], forced[filled + 1] = p, 1
                filled += 2
    return filled


def warm_up() -> None:
    """Compile (or load from numba's cache) every function here on a line of two cells."""
    values, forced = np.full(4, -1, np.int64), np.zeros(8, np.int64)
    read(1, 2, True, values, forced)
    read(1, 2, False, values, forced)
