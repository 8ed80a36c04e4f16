"""Shikaku as Simon Tatham's Rect game ID (what `sgt-rect --generate` prints and his program reads):

    7x7:3g2d6d2_4b2a5c3a7b3b2f2d8

After `<cols>x<rows>`, the cells in row-major order: a number in decimal, `a`-`z` 1-26 empty cells, and `_`
between two numbers with no empty cell between them (numbers take several digits).
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.shikaku.rules import MAX_SIDE, ShikakuPuzzle

ID = re.compile(r"^(\d{1,3})x(\d{1,3})[^:]*:([a-z0-9_]*)$")


def parse_tatham(text: str) -> ShikakuPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Rect game ID reads `<cols>x<rows>:<cells>` with cells a-z (runs of empty cells), "
                           f"numbers, and _ between two numbers, got {text.strip()[:40]!r}")
    cols, rows, body = int(found[1]), int(found[2]), found[3]
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidInput(f"grid size {cols}x{rows} is out of range (1..{MAX_SIDE} each way)")
    cells: list[int | None] = []
    for token in re.findall(r"[a-z]|\d+", body):
        cells.extend([None] * (ord(token) - ord("a") + 1) if token.isalpha() else [int(token)])
    if len(cells) != rows * cols:
        raise InvalidInput(f"the game ID describes {len(cells)} cells, the grid has {rows * cols}")
    return ShikakuPuzzle(rows=rows, cols=cols, numbers=[cells[r * cols:(r + 1) * cols] for r in range(rows)])


def _empty(run: int) -> str:
    """A run of empty cells as letters, 26 a letter at most."""
    return "z" * (run // 26) + (chr(ord("a") + run % 26 - 1) if run % 26 else "")


def to_tatham(puzzle: ShikakuPuzzle) -> str:
    out, run = [], 0
    for value in (v for row in puzzle.numbers for v in row):
        if value is None:
            run += 1
            continue
        out.append(_empty(run) if run else "_" if out else "")
        out.append(str(value))
        run = 0
    return f"{puzzle.cols}x{puzzle.rows}:{''.join(out)}{_empty(run)}"
