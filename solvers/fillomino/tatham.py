"""Fillomino as Simon Tatham's Filling game ID (what `sgt-filling --generate` prints and his program reads):

    9x7:5b36c3d66c435d35a4f8a8b8b8a3b88b7a2a8a3a8b

After `<cols>x<rows>`, the cells in row-major order: a digit 1-9 a given (0 an empty cell, as older IDs write
it), a letter `a`-`z` a run of 1-26 empty cells. His regions and givens stop at 9: a larger given has no ID.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.fillomino.rules import MAX_SIDE, FillominoPuzzle
from solvers.formats.tatham.codec import read_runs, write_runs

ID = re.compile(r"^(\d{1,3})x(\d{1,3}):([a-z0-9]*)$")


def parse_tatham(text: str) -> FillominoPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Filling game ID reads `<cols>x<rows>:<cells>` with cells 1-9 (givens), 0 or a-z (empty "
                           f"cells), got {text.strip()[:40]!r}")
    cols, rows = int(found[1]), int(found[2])
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidInput(f"grid size {cols}x{rows} is out of range (1..{MAX_SIDE} each way)")
    cells = read_runs(found[3], rows * cols, lambda char: int(char) or None)
    try:
        return FillominoPuzzle(rows=rows, cols=cols, givens=[cells[r * cols:(r + 1) * cols] for r in range(rows)])
    except ValueError as exc:
        raise InvalidInput(f"not a Fillomino puzzle: {exc}") from exc


def to_tatham(puzzle: FillominoPuzzle) -> str:
    if any(v is not None and v > 9 for row in puzzle.givens for v in row):
        raise InvalidInput("Tatham's Filling writes givens 1-9: this puzzle gives a larger one")
    return f"{puzzle.cols}x{puzzle.rows}:{write_runs((v for row in puzzle.givens for v in row), str)}"
