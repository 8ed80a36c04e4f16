"""Nonogram as a puzz.link URL: the `nonogram` genre of pzprjs (`src/variety/nonogram.js`).

    https://puzz.link/p?nonogram/<cols>/<rows>/<body>

The body holds clue slots only, no cells: each column has (rows + 1) // 2 slots and each row
(cols + 1) // 2, the columns first (left to right), then the rows (top to bottom). A line's slots start
next to the grid, so its clue is written reversed (last run first) and padded with empty slots; the
body is pzprjs's number-run encoding over all slots (`0`-`f`, `-xx`, and `g`-`z` for 1-20 empty slots),
so one line's padding and the next line's merge into one letter. A question-mark clue (`.`) has no
meaning here and is refused.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import BASE_URL, QUESTION, UNKNOWN, read_outside_numbers, split_url, write_numbers
from solvers.nonogram.rules import Clue, NonogramPuzzle

GENRE = "nonogram"


def slots(length: int) -> int:
    """Clue slots beside a line of ``length`` cells (k runs need 2k - 1 cells, so they always fit)."""
    return (length + 1) >> 1


def _line_slots(runs: Clue, count: int) -> list[int]:
    return [*reversed(runs), *[UNKNOWN] * (count - len(runs))]


def nonogram_url(puzzle: NonogramPuzzle) -> str:
    values = [v for runs in puzzle.col_clues for v in _line_slots(runs, slots(puzzle.rows))]
    values += [v for runs in puzzle.row_clues for v in _line_slots(runs, slots(puzzle.cols))]
    return f"{BASE_URL}{GENRE}/{puzzle.cols}/{puzzle.rows}/{write_numbers(values)}"


def parse_nonogram_url(url: str) -> NonogramPuzzle:
    """The puzzle of a pzprjs nonogram URL; raises InvalidInput with why not. Model validation (clues
    that fit their lines, row and column totals that agree) then applies as for a JSON puzzle."""
    cols, rows, body = split_url(url, GENRE)
    per_col, per_row = slots(rows), slots(cols)
    values, _ = read_outside_numbers(body, cols * per_col + rows * per_row)

    def line(start: int, count: int, name: str) -> Clue:
        runs = [v for v in values[start:start + count] if v != UNKNOWN]
        if QUESTION in runs:
            raise InvalidInput(f"{name} has a question-mark clue, which a nonogram here cannot express")
        return list(reversed([v for v in runs if v != 0]))

    col_clues = [line(c * per_col, per_col, f"column {c + 1}") for c in range(cols)]
    row_clues = [line(cols * per_col + r * per_row, per_row, f"row {r + 1}") for r in range(rows)]
    return NonogramPuzzle.model_validate({"rows": rows, "cols": cols, "row_clues": row_clues, "col_clues": col_clues})
