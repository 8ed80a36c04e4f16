"""Slitherlink as Simon Tatham's Loopy game ID on the square grid (what `sgt-loopy --generate` prints):

    7x7t0:32d32a1a3b2e33223b2301a1b3b3a32a2d2

After `<cols>x<rows>t0:` (t0 the square grid; `t0` and a `d<level>` may be absent or present), the cells in
row-major order: `0`-`4` a number, `a`-`z` 1-26 cells without one.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.slitherlink.rules import MAX_SIDE, SlitherlinkPuzzle

ID = re.compile(r"^(\d{1,3})x(\d{1,3})(?:t(\d+))?(?:d[a-z])?:([a-z0-4]*)$")


def parse_tatham(text: str) -> SlitherlinkPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Loopy game ID reads `<cols>x<rows>t0:<cells>` with cells 0-4 (a number) and a-z "
                           f"(runs of cells without one), got {text.strip()[:40]!r}")
    cols, rows, grid, body = int(found[1]), int(found[2]), found[3], found[4]
    if grid not in (None, "0"):
        raise InvalidInput(f"only Loopy's square grid (t0) is Slitherlink here, got grid type t{grid}")
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidInput(f"grid size {cols}x{rows} is out of range (1..{MAX_SIDE} each way)")
    cells: list[int | None] = []
    for char in body:
        cells.extend([None] * (ord(char) - ord("a") + 1) if "a" <= char <= "z" else [int(char)])
    if len(cells) != rows * cols:
        raise InvalidInput(f"the game ID describes {len(cells)} cells, a {cols}x{rows} grid has {rows * cols}")
    return SlitherlinkPuzzle(rows=rows, cols=cols, clues=[cells[r * cols:(r + 1) * cols] for r in range(rows)])


def to_tatham(puzzle: SlitherlinkPuzzle) -> str:
    out, run = [], 0
    for value in (v for row in puzzle.clues for v in row):
        if value is None:
            if run == 26:
                out.append("z")
                run = 0
            run += 1
            continue
        if run:
            out.append(chr(ord("a") + run - 1))
            run = 0
        out.append(str(value))
    if run:
        out.append(chr(ord("a") + run - 1))
    return f"{puzzle.cols}x{puzzle.rows}t0:{''.join(out)}"
