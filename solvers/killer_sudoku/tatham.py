"""Killer Sudoku as Simon Tatham's Solo game ID with its killer option (`sgt-solo --generate N 3x3kdb`):

    3x3k:zzzc,aa__a_aaa___...,17a5a19_13_9a16...

After `3x3k:`, the givens (row-major: `a`-`z` 1-26 empty cells, a number a given digit, `_` between two adjacent
numbers); after `,` the cage walls (``solvers.formats.tatham.blocks``); after `,` the cage sums in the same grid
encoding, each sum at its cage's first cell in reading order.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.formats.tatham.blocks import read_blocks, write_blocks
from solvers.killer_sudoku.rules import KillerCage, KillerSudokuPuzzle, N

ID = re.compile(r"^3x3k:([a-z_\d]*),([_a-z]*),([a-z_\d]*)$")
TOKEN = re.compile(r"[a-z]|_|\d+")


def _numbers(text: str) -> list[int]:
    cells: list[int] = []
    for token in TOKEN.findall(text):
        cells.extend([0] * (ord(token) - ord("a") + 1) if token.isalpha() else [] if token == "_" else [int(token)])
    if len(cells) != N * N:
        raise InvalidInput(f"the game ID's grid has {len(cells)} cells, a 9×9 grid has {N * N}")
    return cells


def _written(cells: list[int]) -> str:
    out: list[str] = []
    run = 0
    for value in [*cells, -1]:  # a final -1 flushes the last run of empty cells
        if value == 0:
            run += 1
            continue
        out.extend(chr(ord("a") + min(26, run - k) - 1) for k in range(0, run, 26))
        if not run and out and value > 0:
            out.append("_")
        out.append(str(value) if value > 0 else "")
        run = 0
    return "".join(out)


def parse_tatham(text: str) -> KillerSudokuPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput(f"a Solo killer game ID reads `3x3k:<givens>,<walls>,<sums>`, got {text.strip()[:40]!r}")
    givens, sums = _numbers(found[1]), _numbers(found[3])
    blocks = read_blocks(found[2], N)
    placed = [sum(sums[r * N + c] for r, c in cells) for cells in blocks]
    if sum(1 for v in sums if v) != len(blocks):
        raise InvalidInput(f"the game ID has {len(blocks)} cages and {sum(1 for v in sums if v)} sums")
    try:
        return KillerSudokuPuzzle(givens=[givens[r * N:(r + 1) * N] for r in range(N)],
                                  cages=[KillerCage(cells=cells, sum=total) for cells, total in zip(blocks, placed, strict=True)])
    except ValueError as exc:
        raise InvalidInput(f"not a Killer Sudoku: {exc}") from exc


def to_tatham(puzzle: KillerSudokuPuzzle) -> str:
    block_of = {tuple(cell): k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    for r in range(N):
        for c in range(N):
            block_of.setdefault((r, c), -1 - r * N - c)  # a cell in no cage: a block of its own
    sums = [0] * (N * N)
    for cage in puzzle.cages:
        r, c = min(map(tuple, cage.cells))
        sums[r * N + c] = cage.sum
    givens = [v for row in puzzle.givens for v in row]
    return f"3x3k:{_written(givens)},{write_blocks(block_of, N)},{_written(sums)}"  # type: ignore[arg-type]
