"""KenKen as Simon Tatham's Keen game ID (what `sgt-keen --generate` prints and his program reads):

    4:_a_3a_aa_3a,a4s1m12a7s2a2

After `<N>:`, the cage walls (``solvers.formats.tatham.blocks``, runs of a letter written once with their
count); after `,` each cage's clue, cages in the order of their first cell in reading order: `a` add, `m`
multiply, `s` subtract, `d` divide, then the target; a one-cell cage is `a` and its digit.
"""

from __future__ import annotations

import re

from solvers.common import InvalidInput
from solvers.formats.tatham.blocks import read_blocks, write_blocks
from solvers.kenken.rules import MAX_SIDE, Cage, KenkenPuzzle

ID = re.compile(r"^(\d{1,2}):([_a-z\d]*),([asmd\d]*)$")
OPS = {"a": "+", "m": "*", "s": "-", "d": "/"}
LETTER = {op: letter for letter, op in OPS.items()}


def parse_tatham(text: str) -> KenkenPuzzle:
    found = ID.match(text.strip())
    if not found:
        raise InvalidInput(f"a Keen game ID reads `<N>:<walls>,<clues>`, got {text.strip()[:40]!r}")
    n = int(found[1])
    if not 1 <= n <= MAX_SIDE:
        raise InvalidInput(f"a Keen grid is 1 to {MAX_SIDE} wide, this one {n}")
    blocks = read_blocks(found[2], n)
    clues = re.findall(r"([asmd])(\d+)", found[3])
    if len(clues) != len(blocks) or "".join(a + b for a, b in clues) != found[3]:
        raise InvalidInput(f"the game ID has {len(blocks)} cages and {len(clues)} clues")
    try:
        return KenkenPuzzle(size=n, cages=[Cage(cells=cells, target=int(value), op=None if len(cells) == 1 else OPS[op])
                                           for cells, (op, value) in zip(blocks, clues, strict=True)])
    except ValueError as exc:
        raise InvalidInput(f"not a Keen puzzle: {exc}") from exc


def to_tatham(puzzle: KenkenPuzzle) -> str:
    block_of = {tuple(cell): k for k, cage in enumerate(puzzle.cages) for cell in cage.cells}
    order = sorted(puzzle.cages, key=lambda cage: min(map(tuple, cage.cells)))
    clues = "".join(f"{LETTER.get(cage.op, 'a')}{cage.target}" for cage in order)  # type: ignore[arg-type]
    return f"{puzzle.size}:{write_blocks(block_of, puzzle.size, repeats=True)},{clues}"  # type: ignore[arg-type]
