"""The shared grid geometry, against small grids worked out by hand and a brute-force union-find."""

from __future__ import annotations

import random

from solvers import grid


def test_neighbours_stay_inside_the_grid() -> None:
    assert sorted(grid.neighbours((0, 0), 3, 4)) == [(0, 1), (1, 0)]
    assert sorted(grid.neighbours((1, 1), 3, 4)) == [(0, 1), (1, 0), (1, 2), (2, 1)]
    assert sorted(grid.neighbours((2, 3), 3, 4, grid.AROUND)) == [(1, 2), (1, 3), (2, 2)]
    assert sorted(grid.neighbours((0, 0), 1, 1, grid.AROUND)) == []


def test_lines_are_rows_then_columns() -> None:
    assert grid.lines(2, 3) == [[(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)],
                                [(0, 0), (1, 0)], [(0, 1), (1, 1)], [(0, 2), (1, 2)]]


def test_runs_are_maximal_stretches_in_line_order() -> None:
    line = [(0, c) for c in range(7)]
    on = {1, 2, 4, 6}
    assert list(grid.runs(line, lambda cell: cell[1] in on)) == [[(0, 1), (0, 2)], [(0, 4)], [(0, 6)]]
    assert list(grid.runs(line, lambda cell: False)) == []
    assert list(grid.runs(line, lambda cell: True)) == [line]


def test_connected_regions_by_hand() -> None:
    picture = ["#.#",
               "#.#",
               "..#",
               "#.."]
    member = lambda cell: picture[cell[0]][cell[1]] == "#"  # noqa: E731
    assert grid.connected_regions(4, 3, member) == [[(0, 0), (1, 0)], [(0, 2), (1, 2), (2, 2)], [(3, 0)]]
    diagonal = ["#.", ".#"]
    assert len(grid.connected_regions(2, 2, lambda c: diagonal[c[0]][c[1]] == "#")) == 2
    assert len(grid.connected_regions(2, 2, lambda c: diagonal[c[0]][c[1]] == "#", grid.AROUND)) == 1


def _union_find_regions(cells: set[tuple[int, int]]) -> set[frozenset]:
    parent = {cell: cell for cell in cells}

    def root(cell):
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    for r, c in cells:
        for other in ((r + 1, c), (r, c + 1)):
            if other in cells:
                parent[root(other)] = root((r, c))
    groups: dict = {}
    for cell in cells:
        groups.setdefault(root(cell), set()).add(cell)
    return {frozenset(g) for g in groups.values()}


def test_connected_regions_match_union_find_on_random_grids() -> None:
    rng = random.Random(5)
    for _ in range(200):
        rows, cols = rng.randint(1, 7), rng.randint(1, 7)
        cells = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.55}
        regions = grid.connected_regions(rows, cols, cells.__contains__)
        assert {frozenset(r) for r in regions} == _union_find_regions(cells)
        assert all(region == sorted(region) for region in regions)
        assert [region[0] for region in regions] == sorted(region[0] for region in regions)
