"""The kit's levels for Star Battle on bit masks: the same deductions as ``solvers.kit.arrays`` (the rules alone
round by round, short trials, trials followed to the end) for the generator's walk over region maps, which
asks them thousands of times (its walk runs in ``solvers.star_battle.kernel``, compiled, as these levels do).
"""

from __future__ import annotations

import math

import numpy as np

from solvers.kit.human import SHORT_ROUNDS
from solvers.star_battle import kernel


class Masks:
    """One map's units (rows, columns, regions, each with ``stars`` stars) as bit masks."""

    def __init__(self, regions: list[list[int]], stars: int):
        ids = np.asarray(regions, np.int64)
        self.n = n = len(regions)
        if not 1 <= n <= kernel.MAX_SIDE or ids.shape != (n, n):
            raise ValueError(f"a square map of side 1 to {kernel.MAX_SIDE}")
        if ids.min() < 0 or ids.max() >= n * n:
            ids = np.unique(ids, return_inverse=True)[1].reshape(n, n).astype(np.int64)
        self.geometry, self.units, _ = kernel.layout(ids, stars)

    def solve(self, level: int) -> list[list[int]] | None:
        """Each cell a star (1), empty (0) or open (-1) as the levels up to ``level`` (0 the rules alone, 1 short
        trials, 2 trials) decide; None when the rules break (a map with no answer)."""
        ok, stars, empty_ = kernel.solve(self.geometry, self.units, level, SHORT_ROUNDS)
        if not ok:
            return None
        star, empty = set(self.cells(*stars.tolist())), set(self.cells(*empty_.tolist()))
        return [[1 if (r, c) in star else 0 if (r, c) in empty else -1 for c in range(self.n)] for r in range(self.n)]

    def score(self, level: int) -> tuple[int, float, list[tuple[int, int]]]:
        """How near the level is to solving the map: the cells it decides, then how few ways each row, column
        and region has left to hold its stars (fewer is nearer); and the cells it leaves open."""
        counts = np.zeros(len(self.units), np.int64)
        decided, open_ = kernel.score(self.geometry, self.units, level, SHORT_ROUNDS, counts)
        if decided < 0:
            return -1, 0.0, []
        return int(decided), -sum(math.log(count + 1) for count in counts.tolist()), self.cells(*open_.tolist())

    def cells(self, *words: int) -> list[tuple[int, int]]:
        """The cells of a set (its words), row by row."""
        per, width = int(self.geometry[kernel.PER]), self.n + 1
        return [(r, c) for r in range(self.n) for c in range(self.n) if words[r // per] >> ((r % per) * width + c) & 1]
