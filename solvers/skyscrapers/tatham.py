"""Skyscrapers as Simon Tatham's Towers game ID (what `sgt-towers --generate` prints and his program reads):

    5:2//3/1/2//3//1/4/3/2/1//2/4//3/2/1,f2b3_4m

After `<N>:`, 4N clues separated by `/` (top left to right, bottom left to right, left top to bottom, right top
to bottom; empty for none), then optionally `,` and the grid in row-major order: `a`-`z` 1-26 empty cells, a
number a given digit, `_` between two adjacent digits.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.skyscrapers.rules import MAX_SIDE, SIDES, SkyscrapersPuzzle

ID = re.compile(r"^(\d{1,2}):([\d/]*)(?:,([a-z_\d]*))?$")
TOKEN = re.compile(r"[a-z]|_|\d+")


def parse_tatham(text: str) -> SkyscrapersPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput("a Towers game ID reads `<N>:<clues separated by />[,<grid>]`, "
                           f"got {text.strip()[:40]!r}")
    n, clues = int(found[1]), found[2].split("/")
    if not 1 <= n <= MAX_SIDE or len(clues) != 4 * n:
        raise InvalidInput(f"a Towers game ID of size {n} (1..{MAX_SIDE}) has {4 * n} clues, got {len(clues)}")
    cells: list[int | None] = []
    for token in TOKEN.findall(found[3] or ""):
        cells.extend([None] * (ord(token) - ord("a") + 1) if token.isalpha() else [] if token == "_" else [int(token)])
    cells = cells or [None] * (n * n)
    if len(cells) != n * n:
        raise InvalidInput(f"the game ID's grid has {len(cells)} cells, a {n}×{n} grid has {n * n}")
    lists = {side: [int(v) if v else None for v in clues[k * n:(k + 1) * n]] for k, side in enumerate(SIDES)}
    try:
        return SkyscrapersPuzzle(size=n, givens=[cells[r * n:(r + 1) * n] for r in range(n)], **lists)
    except ValueError as exc:
        raise InvalidInput(f"not a Towers puzzle: {exc}") from exc


def to_tatham(puzzle: SkyscrapersPuzzle) -> str:
    clues = "/".join("" if v is None else str(v) for side in SIDES for v in getattr(puzzle, side))
    cells = [v for row in puzzle.givens for v in row]
    if all(v is None for v in cells):
        return f"{puzzle.size}:{clues}"
    out: list[str] = []
    run = 0
    for value in cells + [0]:  # a final 0 flushes the last run of empty cells
        if value is None:
            run += 1
            continue
        if run:
            out.extend(chr(ord("a") + min(26, run - k) - 1) for k in range(0, run, 26))
        elif out and value:
            out.append("_")
        out.append(str(value) if value else "")
        run = 0
    return f"{puzzle.size}:{clues},{''.join(out)}"
