"""Hashi as a puz.link URL: pzprjs's `hashikake` genre (`src/variety/hashikake.js`), written `hashi`.

    https://puzz.link/p?hashi/<cols>/<rows>/<islands>

The islands' numbers in row-major order as pzprjs's "number16" runs (``1``-``8`` an island, ``g``-``z`` 1-20
cells of water). pzprjs's `?` island (a number left unsaid) has no equivalent here.
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import UNKNOWN, read_cell_numbers, split_url, url, write_numbers
from solvers.hashi.rules import MAX_SIDE, HashiPuzzle

GENRE, ALSO = "hashi", "hashikake"  # puz.link writes the first; pzprjs reads both


def to_url(puzzle: HashiPuzzle) -> str:
    return url(GENRE, puzzle.cols, puzzle.rows, write_numbers([UNKNOWN if v is None else v
                                                               for row in puzzle.islands for v in row]))


def parse_url(address: str) -> HashiPuzzle:
    """The puzzle of a hashi (or hashikake) URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    genre = ALSO if address.split("?", 1)[-1].startswith(ALSO + "/") else GENRE
    cols, rows, body = split_url(address, genre, MAX_SIDE)
    values, _ = read_cell_numbers(body, rows * cols)
    for index, value in enumerate(values):
        if value != UNKNOWN and not 1 <= value <= 8:
            raise InvalidInput(f"row {index // cols + 1}, column {index % cols + 1} holds "
                               f"{'a question mark' if value < 0 else value}: an island here is numbered 1..8")
    cells = [None if v == UNKNOWN else v for v in values]
    return HashiPuzzle(rows=rows, cols=cols, islands=[cells[r * cols:(r + 1) * cols] for r in range(rows)])
