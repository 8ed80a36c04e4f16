"""Hitori as Simon Tatham's Singles game ID (what `sgt-singles --generate` prints and his program reads):

    5x5:4123334342122433542121114

After `<cols>x<rows>:`, one character per cell in row-major order: `1`-`9`, then `a` for 10, `b` for 11 and on.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.hitori.rules import MAX_SIZE, HitoriPuzzle

ID = re.compile(r"^(\d{1,3})x(\d{1,3}):([1-9a-z]*)$")
DIGITS = "123456789abcdefghijklmnopqrstuvwxyz"


def parse_tatham(text: str) -> HitoriPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Singles game ID reads `<cols>x<rows>:<numbers>`, one character 1-9 or a-z a cell, "
                           f"got {text.strip()[:40]!r}")
    cols, rows, body = int(found[1]), int(found[2]), found[3]
    if cols != rows or not 2 <= rows <= MAX_SIZE:
        raise InvalidInput(f"a Hitori here is square, 2..{MAX_SIZE} a side; the game ID's grid is {cols}x{rows}")
    if len(body) != rows * cols:
        raise InvalidInput(f"the game ID gives {len(body)} numbers, a {cols}x{rows} grid has {rows * cols}")
    values = [DIGITS.index(char) + 1 for char in body]
    try:
        return HitoriPuzzle(size=rows, numbers=[values[r * cols:(r + 1) * cols] for r in range(rows)])
    except ValueError as exc:
        raise InvalidInput(f"not a Hitori puzzle: {exc}") from exc


def to_tatham(puzzle: HitoriPuzzle) -> str:
    return f"{puzzle.size}x{puzzle.size}:" + "".join(DIGITS[v - 1] for row in puzzle.numbers for v in row)
