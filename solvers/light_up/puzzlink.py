"""Light Up as a puz.link URL: pzprjs's `lightup` genre (`src/variety/lightup.js`), written `akari`.

    https://puzz.link/p?akari/<cols>/<rows>/<walls>

The walls in row-major order in pzprjs's 4Cell encoding: a number 0-4 on a numbered wall, `.` an
unnumbered wall, blanks for open cells (``solvers.formats.puzzlink.codec.read_4cell``).
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.codec import QUESTION, UNKNOWN, read_4cell, split_url, url, write_4cell
from solvers.light_up.rules import MAX_SIDE, WALL, LightUpPuzzle

GENRE, ALSO = "akari", "lightup"  # puz.link writes the first; pzprjs reads both


def to_url(puzzle: LightUpPuzzle) -> str:
    values = [UNKNOWN if v is None else QUESTION if v == WALL else v for row in puzzle.walls for v in row]
    return url(GENRE, puzzle.cols, puzzle.rows, write_4cell(values))


def parse_url(address: str) -> LightUpPuzzle:
    """The puzzle of an akari (or lightup) URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    genre = ALSO if address.split("?", 1)[-1].startswith(ALSO + "/") else GENRE
    cols, rows, body = split_url(address, genre, MAX_SIDE)
    values = read_4cell(body, rows * cols)
    walls = [[None if v == UNKNOWN else WALL if v == QUESTION else v for v in values[r * cols:(r + 1) * cols]]
             for r in range(rows)]
    try:
        return LightUpPuzzle(rows=rows, cols=cols, walls=walls)
    except ValueError as exc:
        raise InvalidInput(f"not a Light Up puzzle: {exc}") from exc
