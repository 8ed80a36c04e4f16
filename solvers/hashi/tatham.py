"""Hashi as Simon Tatham's Bridges game ID (what `sgt-bridges --generate` prints and his program reads):

    7x7m2:3a6c3d2i2c4a3m12a3a1b

After `<cols>x<rows>` and the most bridges a pair may have (`m2`), the cells in row-major order: `1`-`8` an
island and its number, `a`-`z` 1-26 cells of water. Puzzles here allow two bridges a pair, so `m2` only.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.formats.tatham.codec import read_runs, write_runs
from solvers.hashi.rules import MAX_SIDE, HashiPuzzle

ID = re.compile(r"^(\d{1,3})x(\d{1,3})([^:]*):([a-z1-8]*)$")


def parse_tatham(text: str) -> HashiPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Bridges game ID reads `<cols>x<rows>m2:<cells>` with cells a-z (runs of water) and 1-8 "
                           f"(an island's number), got {text.strip()[:40]!r}")
    cols, rows, flags, body = int(found[1]), int(found[2]), found[3], found[4]
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise InvalidInput(f"grid size {cols}x{rows} is out of range (1..{MAX_SIDE} each way)")
    most = re.search(r"m(\d+)", flags)
    if most and most[1] != "2":
        raise InvalidInput(f"the game ID allows {most[1]} bridges a pair: Hashi here allows 2 (`m2`)")
    cells = read_runs(body, rows * cols, int)
    return HashiPuzzle(rows=rows, cols=cols, islands=[cells[r * cols:(r + 1) * cols] for r in range(rows)])


def to_tatham(puzzle: HashiPuzzle) -> str:
    return f"{puzzle.cols}x{puzzle.rows}m2:{write_runs((v for row in puzzle.islands for v in row), str)}"
