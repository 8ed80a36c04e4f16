"""Random partitions of a rectangle into connected regions, for every genre whose clue is a region map
(Star Battle's regions, KenKen's and Killer Sudoku's cages), the one move that reshapes a partition, and the
pairs of regions that may merge.

Regions are numbered 0, 1, ... and a partition is an R×C grid of those numbers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from solvers.grid import neighbours

Cell = tuple[int, int]
Regions = list[list[int]]


def partition(rows: int, cols: int, rng: random.Random, seeds: Sequence[Iterable[Cell]] = (),
              max_size: int | None = None, pace: Sequence[float] | None = None) -> Regions:
    """Every cell in one region: a region grows from each group of ``seeds`` (its cells, already joined) by
    random orthogonal steps into free cells, no region past ``max_size`` cells; ``pace`` (one per seed), how
    often each seed's region takes a step against the others (uneven paces make uneven sizes). Cells no region
    can reach start regions of their own, numbered after the seeds', so with no seeds at all it is a random
    partition into pieces of at most ``max_size``."""
    regions = [[-1] * cols for _ in range(rows)]
    sizes: list[int] = []
    frontier: list[tuple[int, Cell]] = []

    def take(region: int, cell: Cell) -> None:
        regions[cell[0]][cell[1]] = region
        sizes[region] += 1
        frontier.extend((region, near) for near in neighbours(cell, rows, cols))

    for group in seeds:
        sizes.append(0)
        for cell in group:
            take(len(sizes) - 1, cell)
    free = [(r, c) for r in range(rows) for c in range(cols)]
    while True:
        while frontier:
            at = rng.randrange(len(frontier)) if pace is None else \
                rng.choices(range(len(frontier)), [pace[region] if region < len(pace) else 1.0 for region, _ in frontier])[0]
            region, (r, c) = frontier.pop(at)
            if regions[r][c] < 0 and (max_size is None or sizes[region] < max_size):
                take(region, (r, c))
        free = [(r, c) for r, c in free if regions[r][c] < 0]
        if not free:
            return regions
        sizes.append(0)
        take(len(sizes) - 1, rng.choice(free))


def renumbered(regions: Regions) -> Regions:
    """The same regions numbered in reading order of their first cells, as a map read from borders is."""
    order: dict[int, int] = {}
    for row in regions:
        for region in row:
            order.setdefault(region, len(order))
    return [[order[region] for region in row] for row in regions]


def region_cells(regions: Regions) -> dict[int, list[Cell]]:
    """Each region's cells in reading order."""
    cells: dict[int, list[Cell]] = {}
    for r, row in enumerate(regions):
        for c, region in enumerate(row):
            cells.setdefault(region, []).append((r, c))
    return cells


def touching(groups: Sequence[Sequence[Cell]], rows: int, cols: int) -> list[tuple[int, int]]:
    """The pairs of groups (indices, the smaller first, in order) with cells side by side: the regions two of
    which may merge into one (cages made larger)."""
    group_of = {tuple(cell): k for k, cells in enumerate(groups) for cell in cells}
    return sorted({(k, group_of[near]) for k, cells in enumerate(groups) for cell in cells
                   for near in neighbours(tuple(cell), rows, cols) if group_of[near] > k})


def connected(regions: Regions) -> bool:
    """Whether each region's cells are one orthogonally joined group."""
    return len(groups(regions)) == len({region for row in regions for region in row})


def groups(regions: Regions) -> list[list[Cell]]:
    """The orthogonally joined groups of cells with the same region number."""
    rows, cols = len(regions), len(regions[0])
    seen: set[Cell] = set()
    found = []
    for start in ((r, c) for r in range(rows) for c in range(cols)):
        if start in seen:
            continue
        seen.add(start)
        stack, group = [start], []
        while stack:
            cell = stack.pop()
            group.append(cell)
            for near in neighbours(cell, rows, cols):
                if near not in seen and regions[near[0]][near[1]] == regions[start[0]][start[1]]:
                    seen.add(near)
                    stack.append(near)
        found.append(sorted(group))
    return found


def moves(regions: Regions, cell: Cell) -> list[int]:
    """The regions ``cell`` may move to, keeping every region joined and none empty: the neighbours' other
    regions, when the cell's own region stays one group without it."""
    rows, cols = len(regions), len(regions[0])
    own = regions[cell[0]][cell[1]]
    targets = sorted({regions[r][c] for r, c in neighbours(cell, rows, cols)} - {own})
    if not targets:
        return []
    rest = [near for near in neighbours(cell, rows, cols) if regions[near[0]][near[1]] == own]
    if not rest:
        return []  # the cell is its region: moving it would empty the region
    seen, stack = {rest[0]}, [rest[0]]
    while stack and len(seen & set(rest)) < len(rest):  # joined without the cell: every own neighbour reachable
        here = stack.pop()
        for near in neighbours(here, rows, cols):
            if near != cell and near not in seen and regions[near[0]][near[1]] == own:
                seen.add(near)
                stack.append(near)
    return targets if set(rest) <= seen else []
