"""Masyu as Simon Tatham's Pearl game ID (what `sgt-pearl --generate` prints):

    6x6:bBbBaWgWcWWBaBfBaWc

After `<cols>x<rows>` (a `d<level>` and an `n` may follow, as in his presets), the cells in row-major order:
`B` a black pearl, `W` a white pearl, `a`-`z` 1-26 cells without one.
"""

from __future__ import annotations

import re
from itertools import groupby

from solvers.common import InvalidInput
from solvers.masyu.rules import MAX_SIDE, MasyuPuzzle

ID = re.compile(r"^(\d{1,3})x(\d{1,3})(?:d[a-z])?n?:([a-zBW]*)$")


def parse_tatham(text: str) -> MasyuPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Pearl game ID reads `<cols>x<rows>:<cells>` with cells B, W (a pearl) and a-z (runs of "
                           f"cells without one), got {text.strip()[:40]!r}")
    cols, rows, body = int(found[1]), int(found[2]), found[3]
    if not (2 <= rows <= MAX_SIDE and 2 <= cols <= MAX_SIDE):
        raise InvalidInput(f"grid size {cols}x{rows} is out of range (2..{MAX_SIDE} each way)")
    cells: list[str | None] = []
    for char in body:
        cells.extend([None] * (ord(char) - ord("a") + 1) if "a" <= char <= "z" else [char])
    if len(cells) != rows * cols:
        raise InvalidInput(f"the game ID describes {len(cells)} cells, a {cols}x{rows} grid has {rows * cols}")
    return MasyuPuzzle(rows=rows, cols=cols, pearls=[cells[r * cols:(r + 1) * cols] for r in range(rows)])


def to_tatham(puzzle: MasyuPuzzle) -> str:
    out = []
    for kind, run in groupby(v for row in puzzle.pearls for v in row):
        count = len(list(run))
        out.append(kind * count if kind else "z" * (count // 26) + (chr(ord("a") + count % 26 - 1) if count % 26 else ""))
    return f"{puzzle.cols}x{puzzle.rows}:{''.join(out)}"
