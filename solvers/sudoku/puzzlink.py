"""Sudoku as a puzz.link URL: the `sudoku` genre of pzprjs (`src/variety/sudoku.js`).

    https://puzz.link/p?sudoku/<N>/<N>/<givens>

The givens in row-major order as pzprjs's "number16" runs (`1`-`f` a digit, `-10` for 16, `g`-`z` skip
1-20 empty cells). pzprjs draws its boxes from the size: √N × √N, and 2 rows × 3 columns for 6, as here.
A `?` cell (a given pzprjs leaves unnamed) and sizes other than 4, 6, 9 and 16 have no equivalent here.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import BASE_URL, QUESTION, UNKNOWN, read_cell_numbers, split_url, write_numbers
from solvers.sudoku.rules import SIZES, SudokuPuzzle

GENRE = "sudoku"


def sudoku_url(puzzle: SudokuPuzzle) -> str:
    n = puzzle.size
    body = write_numbers([v or UNKNOWN for row in puzzle.givens for v in row])
    return f"{BASE_URL}{GENRE}/{n}/{n}/{body}"


def parse_sudoku_url(url: str) -> SudokuPuzzle:
    """The puzzle of a puzz.link (or any pzprjs host's) sudoku URL; raises InvalidInput with why not."""
    cols, rows, body = split_url(url, GENRE)
    if cols != rows or cols not in SIZES:
        raise InvalidInput(f"a {cols}×{rows} sudoku cannot be played here: sizes 4, 6, 9 and 16 (square) only")
    n = cols
    values, _ = read_cell_numbers(body, n * n)
    givens = []
    for index, value in enumerate(values):
        if value == QUESTION:
            raise InvalidInput(f"row {index // n + 1}, column {index % n + 1} holds a question mark, which a puzzle "
                               f"here cannot express (givens are digits 1..{n})")
        if value != UNKNOWN and not 1 <= value <= n:
            raise InvalidInput(f"row {index // n + 1}, column {index % n + 1} holds {value}, not a digit 1..{n}")
        givens.append(0 if value == UNKNOWN else value)
    return SudokuPuzzle(size=n, givens=[givens[r * n:(r + 1) * n] for r in range(n)])
