"""A random loop for the loop genres: the outline of a random region of cells grown without holes (as Tatham's
generators draw one), as two 0/1 edge grids. A loop along a grid's edges is the outline itself; a loop through
cell centres is the outline of a region of the grid whose corners are those centres."""

from __future__ import annotations

import random
from collections.abc import Callable

from solvers.common import Cell
from solvers.grid import neighbours

Edges = dict[str, list[list[int]]]
RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))  # the 8 cells around, in turn


def _one_loop(inside: set[Cell], cell: Cell) -> bool:
    """Whether the region (one loop's inside: connected, no holes, no two cells meeting at a corner alone) keeps
    one loop as its outline with ``cell`` added: the region's cells around it form one unbroken arc (two arcs
    would close a hole), and no 2×2 block of the grown region holds two cells diagonally alone."""
    r, c = cell
    ring = [(r + dr, c + dc) in inside for dr, dc in RING]
    if sum(ring[i] and not ring[i - 1] for i in range(8)) != 1:
        return False
    return not any(ring[i] and not ring[i - 1] and not ring[(i + 1) % 8] for i in (1, 3, 5, 7))


def grow_region(rows: int, cols: int, low: float, high: float, rng: random.Random,
                prefer: Callable[[set[Cell], Cell], float] | None = None) -> set[Cell]:
    """A region of a random share (``low``-``high``) of the cells whose outline is one loop. It grows by a cell
    beside it, favouring cells it touches on one side only, so the loop winds rather than bulges, and cells that
    ``prefer(inside, cell)`` weighs more (a genre's own bias: more places for clues)."""
    target = round(rows * cols * rng.uniform(low, high))
    start = (rng.randrange(rows), rng.randrange(cols))
    inside, touching = {start}, set(neighbours(start, rows, cols))
    while len(inside) < target:
        growable = sorted(cell for cell in touching if _one_loop(inside, cell))
        if not growable:
            break
        weights = [1.0 / sum(n in inside for n in neighbours(cell, rows, cols)) ** 2 for cell in growable]
        if prefer is not None:
            weights = [w * prefer(inside, cell) for w, cell in zip(weights, growable, strict=True)]
        cell = rng.choices(growable, weights)[0]
        inside.add(cell)
        touching = (touching | set(neighbours(cell, rows, cols))) - inside
    return inside


def outline(inside: set[Cell], rows: int, cols: int) -> Edges:
    """The outline of a region as two edge grids: ``horizontal`` (rows+1)×cols, the edge above each cell (the
    last row the bottom edges), and ``vertical`` rows×(cols+1); an edge is on it where one side is inside."""
    return {"horizontal": [[int(((r - 1, c) in inside) != ((r, c) in inside)) for c in range(cols)]
                           for r in range(rows + 1)],
            "vertical": [[int(((r, c - 1) in inside) != ((r, c) in inside)) for c in range(cols + 1)]
                         for r in range(rows)]}
