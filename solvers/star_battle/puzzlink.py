"""Star Battle as a puz.link URL: pzprjs's `starbattle` genre (`src/variety/starbattle.js`).

    https://puzz.link/p?starbattle/<cols>/<rows>/<stars>/<borders>

``stars`` the stars per row, column and region; the regions as pzprjs's border bits
(``solvers.formats.puzzlink.borders``).
"""

from __future__ import annotations

from solvers.common import InvalidInput
from solvers.formats.puzzlink.borders import read_borders, write_borders
from solvers.formats.puzzlink.codec import count_field, shown, split_url, url
from solvers.star_battle.rules import MAX_SIDE, StarBattlePuzzle

GENRE = "starbattle"


def to_url(puzzle: StarBattlePuzzle) -> str:
    return url(GENRE, puzzle.size, puzzle.size, f"{puzzle.stars}/{write_borders(puzzle.regions)}")


def parse_url(address: str) -> StarBattlePuzzle:
    """The puzzle of a starbattle URL of puz.link or any pzprjs host; raises InvalidInput with why not."""
    cols, rows, body = split_url(address, GENRE, MAX_SIDE)
    if rows != cols:
        raise InvalidInput(f"a Star Battle grid is square, got {cols}×{rows}")
    stars, _, borders = body.partition("/")
    if count_field(stars) is None:
        raise InvalidInput(f"a starbattle URL gives the stars per region before the borders, got {shown(stars)}")
    regions, _ = read_borders(borders, rows, cols)
    try:
        return StarBattlePuzzle(size=rows, stars=int(stars), regions=regions)
    except ValueError as exc:
        raise InvalidInput(f"not a Star Battle puzzle: {exc}") from exc
