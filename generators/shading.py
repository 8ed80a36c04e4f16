"""What the shading genres' generators share (Dabuhamienai, Hitori): a random maximal shading, where no two
shaded cells touch and the unshaded cells stay connected, drawn quickly on large grids."""

from __future__ import annotations

import random

from solvers.grid import neighbours

Grid = list[list[int]]

RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))  # the 8 cells around, in order


class ShadedWalls:
    """Shaded cells joined through corners and edges, plus the grid's outside, as a union-find.

    White cells are one orthogonal region exactly when shaded cells (diagonally connected, with
    the outside as one more node) enclose nothing. So shading a cell splits the whites iff two
    separate non-white stretches of its 8-ring already belong to one wall: no flood fill needed,
    which matters because the shading step tries every cell of a 30×30 grid.
    """

    def __init__(self, n: int):
        self.n = n
        self.outside = n * n
        self.parent = list(range(n * n + 1))

    def find(self, i: int) -> int:
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def _ring_walls(self, shaded: Grid, r: int, c: int) -> list[int | None]:
        """For each ring position: the wall it belongs to, or None if it is a white cell."""
        n = self.n
        walls: list[int | None] = []
        for dr, dc in RING:
            rr, cc = r + dr, c + dc
            if not (0 <= rr < n and 0 <= cc < n):
                walls.append(self.find(self.outside))
            elif shaded[rr][cc]:
                walls.append(self.find(rr * n + cc))
            else:
                walls.append(None)
        return walls

    def splits_whites(self, shaded: Grid, r: int, c: int) -> bool:
        walls = self._ring_walls(shaded, r, c)
        stretches = [walls[i] for i in range(8) if walls[i] is not None and walls[i - 1] is None]
        return len(set(stretches)) < len(stretches)

    def shade(self, shaded: Grid, r: int, c: int) -> None:
        shaded[r][c] = 1
        me = self.find(r * self.n + c)
        for wall in self._ring_walls(shaded, r, c):
            if wall is not None:
                self.parent[self.find(wall)] = me


def random_maximal_shading(n: int, rng: random.Random) -> Grid:
    """Shade cells in random order whenever rules 1 and 2 allow. One pass is maximal: a cell
    refused for splitting the whites stays refused, as walls only grow."""
    shaded = [[0] * n for _ in range(n)]
    walls = ShadedWalls(n)
    order = [(r, c) for r in range(n) for c in range(n)]
    rng.shuffle(order)
    for r, c in order:
        if any(shaded[rr][cc] for rr, cc in neighbours((r, c), n, n)):
            continue
        if not walls.splits_whites(shaded, r, c):
            walls.shade(shaded, r, c)
    return shaded
