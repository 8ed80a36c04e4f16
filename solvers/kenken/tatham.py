"""KenKen as Simon Tatham's Keen game ID (what `sgt-keen --generate` prints and his program reads):

    4:_a_3a_aa_3a,a4s1m12a7s2a2

After `<N>:`, the cage walls: first the N(N-1) inner vertical edges in reading order (edge x of row y parts cells
(y, x) and (y, x+1)), then the N(N-1) inner horizontal ones column by column (edge y of column x parts (y, x)
and (y+1, x)), then one wall past the end; each wall is written as the count of non-walls before it, `_` none,
`a`-`y` 1 to 25, `z` 25 with no wall after it; a letter repeated more than twice is written once and followed
by its count. After `,` each cage's clue, cages in the order of their first cell in reading order: `a` add, `m`
multiply, `s` subtract, `d` divide, then the target; a one-cell cage is `a` and its digit.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.kenken.rules import MAX_SIDE, Cage, KenkenPuzzle

ID = re.compile(r"^(\d{1,2}):([_a-z\d]*),([asmd\d]*)$")
OPS = {"a": "+", "m": "*", "s": "-", "d": "/"}
LETTER = {op: letter for letter, op in OPS.items()}


def _edges(n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    vertical = [((y, x), (y, x + 1)) for y in range(n) for x in range(n - 1)]
    horizontal = [((y, x), (y + 1, x)) for x in range(n) for y in range(n - 1)]
    return vertical + horizontal


def _walls(text: str, count: int) -> list[bool]:
    expanded = re.sub(r"([_a-z])(\d+)", lambda m: m[1] * int(m[2]), text)
    walls: list[bool] = []
    for ch in expanded:
        walls.extend([False] * (0 if ch == "_" else 25 if ch == "z" else ord(ch) - ord("a") + 1))
        if ch != "z":
            walls.append(True)
    if len(walls) != count + 1 or not walls[-1]:
        raise InvalidInput(f"the game ID's walls cover {len(walls) - 1} edges, an N×N grid has {count}")
    return walls[:-1]


def parse_tatham(text: str) -> KenkenPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput(f"a Keen game ID reads `<N>:<walls>,<clues>`, got {text.strip()[:40]!r}")
    n = int(found[1])
    if not 1 <= n <= MAX_SIDE:
        raise InvalidInput(f"a Keen grid is 1 to {MAX_SIDE} wide, this one {n}")
    parent = {(r, c): (r, c) for r in range(n) for c in range(n)}

    def root(cell: tuple[int, int]) -> tuple[int, int]:
        while parent[cell] != cell:
            cell = parent[cell]
        return cell

    for (a, b), wall in zip(_edges(n), _walls(found[2], 2 * n * (n - 1)), strict=True):
        if not wall:
            ra, rb = root(a), root(b)
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for cell in sorted(parent):
        groups.setdefault(root(cell), []).append(cell)
    clues = re.findall(r"([asmd])(\d+)", found[3])
    if len(clues) != len(groups) or "".join(a + b for a, b in clues) != found[3]:
        raise InvalidInput(f"the game ID has {len(groups)} cages and {len(clues)} clues")
    try:
        return KenkenPuzzle(size=n, cages=[Cage(cells=cells, target=int(value), op=None if len(cells) == 1 else OPS[op])
                                           for cells, (op, value) in zip(groups.values(), clues, strict=True)])
    except ValueError as exc:
        raise InvalidInput(f"not a Keen puzzle: {exc}") from exc


def to_tatham(puzzle: KenkenPuzzle) -> str:
    n = puzzle.size
    cage_of = {tuple(cell): k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    runs, run = [], 0
    for edge in [*_edges(n), None]:  # None: the wall past the end
        if edge is not None and cage_of[edge[0]] == cage_of[edge[1]]:
            run += 1
            continue
        while run > 25:
            runs.append("z")
            run -= 25
        runs.append(chr(ord("a") + run - 1) if run else "_")
        run = 0
    walls = re.sub(r"([_a-z])\1\1+", lambda m: f"{m[1]}{len(m[0])}", "".join(runs))
    order = sorted(puzzle.cages, key=lambda cage: min(map(tuple, cage.cells)))
    clues = "".join(f"{LETTER.get(cage.op, 'a')}{cage.target}" for cage in order)  # type: ignore[arg-type]
    return f"{n}:{walls},{clues}"
