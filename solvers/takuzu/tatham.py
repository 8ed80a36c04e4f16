"""Takuzu as Simon Tatham's Unruly game ID (what `sgt-unruly --generate` prints and his program reads):

    8x8:KAbmGaeacaIACAea        6x6u:abajHAebbe

After `<cols>x<rows>` (`u`: no two rows or columns alike) and `:`, each letter skips that many open cells past
`a`/`A` and places a cell: lower case a 0, upper case a 1; `z`/`Z` skip 25 cells and place none. The letters
run one cell past the grid (its last letter places nothing).
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.takuzu.rules import MAX_SIDE, MIN_SIDE, TakuzuPuzzle

ID = re.compile(r"^(\d{1,3})x(\d{1,3})(u?)(?:d[ten])?:([a-zA-Z]*)$")
SKIP = 25  # `z`/`Z`: a run of 25 open cells and no cell placed


def parse_tatham(text: str) -> TakuzuPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("an Unruly game ID reads `<cols>x<rows>[u]:<letters>`, got " + repr(text.strip()[:40]))
    cols, rows, unique, body = int(found[1]), int(found[2]), found[3] == "u", found[4]
    if cols != rows or not (MIN_SIDE <= rows <= MAX_SIDE) or rows % 2:
        raise InvalidInput(f"grid size {cols}x{rows}: takuzu takes a square of even side {MIN_SIDE}..{MAX_SIDE}")
    cells: list[int | None] = []
    for char in body:
        skip = SKIP if char in "zZ" else ord(char.lower()) - ord("a")
        cells.extend([None] * skip)
        if char not in "zZ":
            cells.append(int(char.isupper()))
    if len(cells) != rows * cols + 1:
        raise InvalidInput(f"the game ID describes {len(cells) - 1} cells, a {cols}x{rows} grid has {rows * cols}")
    return TakuzuPuzzle(size=rows, givens=[cells[r * cols:(r + 1) * cols] for r in range(rows)], unique_lines=unique)


def to_tatham(puzzle: TakuzuPuzzle) -> str:
    out, run = [], 0
    for value in [v for row in puzzle.givens for v in row] + [0]:  # the closing letter places past the grid
        if value is None:
            run += 1
            continue
        while run >= SKIP:
            out.append("z")
            run -= SKIP
        out.append(chr(ord("A" if value else "a") + run))
        run = 0
    return f"{puzzle.size}x{puzzle.size}{'u' if puzzle.unique_lines else ''}:{''.join(out)}"
