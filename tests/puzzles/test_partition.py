"""The kit's random partitions (``solvers.kit.partition``) and pzprjs's border codec over them, against brute
force on small grids: every cell in one joined region, seeds kept, sizes capped, and a move that never splits
or empties a region; the pairs of regions that touch."""

from __future__ import annotations

import random

import pytest

from solvers.formats.puzzlink.borders import read_borders, write_borders
from solvers.kit.partition import connected, groups, moves, partition, region_cells, renumbered, touching


def joined(cells: list[tuple[int, int]]) -> bool:
    """Brute force: a flood fill from the first cell over the others reaches them all."""
    inside, seen, stack = set(cells), {cells[0]}, [cells[0]]
    while stack:
        r, c = stack.pop()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in inside and near not in seen:
                seen.add(near)
                stack.append(near)
    return seen == inside


@pytest.mark.parametrize("seed", range(60))
def test_a_partition_covers_the_grid_with_joined_regions_around_its_seeds(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 7), rng.randint(1, 7)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    seeds = [[cell] for cell in rng.sample(cells, rng.randint(0, min(5, len(cells))))]
    cap = rng.choice([None, 1, 2, 4])
    pace = [rng.random() + 0.01 for _ in seeds] if rng.random() < 0.5 else None
    regions = partition(rows, cols, rng, seeds, cap, pace)
    found = region_cells(regions)
    assert sorted(found) == list(range(len(found)))  # numbered 0.. with none missing
    assert all(joined(members) for members in found.values()) and connected(regions)
    assert all(regions[r][c] == k for k, group in enumerate(seeds) for r, c in group)
    assert cap is None or all(len(members) <= cap for members in found.values())
    assert cap is not None or len(found) == max(1, len(seeds))  # with no cap the seeds' regions take every cell
    assert partition(rows, cols, random.Random(seed), seeds, cap, pace) == partition(rows, cols, random.Random(seed),
                                                                                    seeds, cap, pace)


@pytest.mark.parametrize("seed", range(40))
def test_a_move_keeps_every_region_joined_and_a_refused_one_would_not(seed: int) -> None:
    rng = random.Random(seed)
    size = rng.randint(2, 6)
    regions = partition(size, size, rng, max_size=rng.randint(2, 6))
    for r in range(size):
        for c in range(size):
            allowed = set(moves(regions, (r, c)))
            beside = {regions[a][b] for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                      if 0 <= a < size and 0 <= b < size} - {regions[r][c]}
            for target in beside:
                moved = [row[:] for row in regions]
                moved[r][c] = target
                kept = len(region_cells(moved)) == len(region_cells(regions)) and \
                    all(joined(cells) for cells in region_cells(moved).values())
                assert (target in allowed) == kept, (regions, (r, c), target)


@pytest.mark.parametrize("seed", range(20))
def test_touching_pairs_are_the_regions_with_cells_side_by_side(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    found = list(region_cells(partition(rows, cols, rng, max_size=rng.randint(1, 4))).values())
    brute = [(k, j) for k in range(len(found)) for j in range(k + 1, len(found))
             if any(abs(a - c) + abs(b - d) == 1 for a, b in found[k] for c, d in found[j])]
    assert touching(found, rows, cols) == brute


@pytest.mark.parametrize("seed", range(40))
def test_borders_read_back_the_regions_they_were_written_from(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 9), rng.randint(1, 9)
    regions = partition(rows, cols, rng, max_size=rng.randint(1, 8))
    read, rest = read_borders(write_borders(regions) + "/x", rows, cols)
    assert rest == "/x" and read == renumbered(regions)
    assert sorted(map(tuple, groups(read))) == sorted(map(tuple, groups(regions)))


def test_pzprjs_borders_read_as_its_test_script_draws_them() -> None:
    """pzprjs's starbattle example (`6/6/1/4ilbhgdnmhou`) and the regions its test script writes for it."""
    regions, rest = read_borders("4ilbhgdnmhou", 6, 6)
    assert rest == "" and regions == [[0, 0, 0, 1, 1, 1], [0, 1, 1, 1, 2, 2], [0, 3, 3, 4, 4, 2],
                                      [5, 5, 3, 3, 4, 2], [5, 4, 4, 4, 4, 2], [5, 2, 2, 2, 2, 2]]
    assert write_borders(regions) == "4ilbhgdnmhou"
