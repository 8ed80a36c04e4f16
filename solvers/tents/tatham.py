"""Tents as Simon Tatham's game ID (what `sgt-tents --generate` prints and his program reads):

    8x8:_feef_ched_ia,1,2,1,2,1,2,0,3,1,2,1,1,2,1,2,2

After `<cols>x<rows>:`, the trees in row-major order: `_` a tree, `a`-`y` 1-25 empty cells then a tree, `z` 25
empty cells; the last tree stands just past the grid's end. `!` and `-` after a cell mark a player's tent or
grass (read and dropped). Then the columns' counts, then the rows'.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.tents.rules import MAX_SIDE, TentsPuzzle

ID = re.compile(r"^(\d{1,3})x(\d{1,3}):([_a-z!-]*)((?:,\d{1,3})*)$")
RUN = 25


def parse_tatham(text: str) -> TentsPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Tents game ID reads `<cols>x<rows>:<trees>,<counts>` with trees `_`, a-z (empty cells "
                           f"then a tree), and one count per column and row, got {text.strip()[:40]!r}")
    cols, rows, body = int(found[1]), int(found[2]), found[3]
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidInput(f"grid size {cols}x{rows} is out of range (1..{MAX_SIDE} each way)")
    cells: list[int] = []
    for char in body:
        if char == "z":
            cells += [0] * RUN
        elif char not in "!-":
            cells += [0] * (0 if char == "_" else ord(char) - ord("a") + 1) + [1]
    counts = [int(n) for n in found[4].split(",")[1:]]
    if len(cells) != rows * cols + 1 or cells[-1] != 1:
        raise InvalidInput(f"the game ID describes {len(cells) - 1} cells, a {cols}x{rows} grid has {rows * cols}")
    if len(counts) != rows + cols:
        raise InvalidInput(f"the game ID gives {len(counts)} counts, a {cols}x{rows} grid has {rows + cols}")
    try:
        return TentsPuzzle(rows=rows, cols=cols, trees=[cells[r * cols:(r + 1) * cols] for r in range(rows)],
                           col_counts=counts[:cols], row_counts=counts[cols:])
    except ValueError as exc:
        raise InvalidInput(f"not a Tents puzzle: {exc}") from exc


def to_tatham(puzzle: TentsPuzzle) -> str:
    if None in puzzle.row_counts or None in puzzle.col_counts:
        raise InvalidInput("Tatham's Tents gives every row and column count; this puzzle leaves some out")
    out, run = [], 0
    for tree in [v for row in puzzle.trees for v in row] + [1]:
        if tree:
            out.append("_" if run == 0 else chr(ord("a") + run - 1))
            run = 0
            continue
        run += 1
        if run == RUN + 1:
            out.append("z")
            run = 1
    counts = "".join(f",{n}" for n in [*puzzle.col_counts, *puzzle.row_counts])
    return f"{puzzle.cols}x{puzzle.rows}:{''.join(out)}{counts}"
