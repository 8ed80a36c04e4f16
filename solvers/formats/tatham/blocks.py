"""Tatham's block structure (Keen's cages, Solo's killer cages and jigsaw boxes): which cells of an N×N grid share
a block, written as the walls between them.

The N(N-1) inner vertical edges in reading order (edge x of row y parts cells (y, x) and (y, x+1)), then the
N(N-1) inner horizontal ones column by column (edge y of column x parts (y, x) and (y+1, x)), then one wall past
the end; each wall is written as the count of non-walls before it: `_` none, `a`-`y` 1 to 25, `z` 25 with no wall
after it. Keen also writes a letter repeated more than twice once, followed by its count (``repeats``).
"""

from __future__ import annotations

import re

from solvers.common import Cell, InvalidInput


def edges(n: int) -> list[tuple[Cell, Cell]]:
    vertical = [((y, x), (y, x + 1)) for y in range(n) for x in range(n - 1)]
    horizontal = [((y, x), (y + 1, x)) for x in range(n) for y in range(n - 1)]
    return vertical + horizontal


def read_blocks(text: str, n: int) -> list[list[Cell]]:
    """The blocks, each its cells in reading order, in the order of their first cell."""
    walls: list[bool] = []
    for ch in re.sub(r"([_a-z])(\d+)", lambda m: m[1] * int(m[2]), text):
        walls.extend([False] * (0 if ch == "_" else 25 if ch == "z" else ord(ch) - ord("a") + 1))
        if ch != "z":
            walls.append(True)
    count = 2 * n * (n - 1)
    if len(walls) != count + 1 or not walls[-1]:
        raise InvalidInput(f"the game ID's walls cover {len(walls) - 1} edges, an N×N grid has {count}")
    parent = {(r, c): (r, c) for r in range(n) for c in range(n)}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    for (a, b), wall in zip(edges(n), walls, strict=False):
        if not wall:
            ra, rb = root(a), root(b)
            parent[max(ra, rb)] = min(ra, rb)
    blocks: dict[Cell, list[Cell]] = {}
    for cell in sorted(parent):
        blocks.setdefault(root(cell), []).append(cell)
    return list(blocks.values())


def write_blocks(block_of: dict[Cell, int], n: int, repeats: bool = False) -> str:
    """The walls between cells of different blocks (``block_of``: each cell's block)."""
    runs, run = [], 0
    for edge in [*edges(n), None]:  # None: the wall past the end
        if edge is not None and block_of[edge[0]] == block_of[edge[1]]:
            run += 1
            continue
        while run > 25:
            runs.append("z")
            run -= 25
        runs.append(chr(ord("a") + run - 1) if run else "_")
        run = 0
    text = "".join(runs)
    return re.sub(r"([_a-z])\1\1+", lambda m: f"{m[1]}{len(m[0])}", text) if repeats else text
