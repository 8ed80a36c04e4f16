"""Light Up as Simon Tatham's game ID (what `sgt-lightup --generate` prints and his program reads):

    7x7:a0k0b2a1eBe4a3b1kBa

After `<cols>x<rows>:`, the cells in row-major order: `a`-`z` 1-26 open cells, `B` a wall without a number,
`0`-`4` a numbered wall.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.light_up.rules import MAX_SIDE, WALL, LightUpPuzzle

ID = re.compile(r"^(\d{1,3})x(\d{1,3}):([a-zB0-4]*)$")


def parse_tatham(text: str) -> LightUpPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Light Up game ID reads `<cols>x<rows>:<cells>` with cells a-z (runs of open cells), "
                           f"B (a wall) and 0-4 (a numbered wall), got {text.strip()[:40]!r}")
    cols, rows, body = int(found[1]), int(found[2]), found[3]
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidInput(f"grid size {cols}x{rows} is out of range (1..{MAX_SIDE} each way)")
    cells: list[int | None] = []
    for char in body:
        cells.extend([None] * (ord(char) - ord("a") + 1) if "a" <= char <= "z" else [WALL if char == "B" else int(char)])
    if len(cells) != rows * cols:
        raise InvalidInput(f"the game ID describes {len(cells)} cells, a {cols}x{rows} grid has {rows * cols}")
    return LightUpPuzzle(rows=rows, cols=cols, walls=[cells[r * cols:(r + 1) * cols] for r in range(rows)])


def to_tatham(puzzle: LightUpPuzzle) -> str:
    out, run = [], 0
    for value in (v for row in puzzle.walls for v in row):
        if value is None:
            run += 1
            if run == 26:
                out.append("z")
                run = 0
            continue
        if run:
            out.append(chr(ord("a") + run - 1))
            run = 0
        out.append("B" if value == WALL else str(value))
    if run:
        out.append(chr(ord("a") + run - 1))
    return f"{puzzle.cols}x{puzzle.rows}:{''.join(out)}"
