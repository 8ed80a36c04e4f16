"""Masyu generation through the genre kit: a loop through cell centres (the outline of a random region of the
squares between them, ``generators.loops``), and every cell of it where a pearl fits as a clue the kit's
generator shows or hides. Levels are the kit's: Tatham's Easy our easy, his Tricky our medium (docs/genres/masyu.md).
"""

from __future__ import annotations

import random
from functools import cache
from itertools import product

from generators.kit import make_on_levels
from generators.loops import Edges, grow_region, outline
from generators.params import rectangle_params
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Cell, Deadline
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit import together
from solvers.kit.arrays import fast
from solvers.masyu import picture, puzzlink, tatham
from solvers.masyu.rules import BLACK, WHITE, MasyuAnswer, MasyuPuzzle, layout, model

MIN_SIDE, MAX_SIDE = 5, 12
LOW_SHARE, HIGH_SHARE = 0.5, 0.7  # the region the loop goes round: this share of the centres' squares
NEIGHBOURS, _ = together.reading(
    "pearl and neighbours", "A pearl read with the cells beside it: the ways the loop can pass them all that fit "
    "the lines so far, and what every one of them has (Tatham's Easy).",
    lambda rule: "every way the loop can pass there agrees:")
PEOPLE = kit_human.solver(first=(NEIGHBOURS,))
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, layout(2, 2), "R×(C−1) or (R−1)×C of 1 (a line), 0 (no line)"),
                  PEOPLE, model)
BIAS = 10.0  # how much a square that makes room for one more pearl is preferred

MasyuParams = rectangle_params("MasyuParams", __name__, MIN_SIDE, MAX_SIDE, 8, DIFFICULTY)


STRAIGHT = (0b0011, 0b1100)  # a centre's lines as bits: right, left, down, up
TURN = (0b0101, 0b0110, 0b1001, 0b1010)
TOWARD = ((1, 0, 1), (2, 0, -1), (4, 1, 0), (8, -1, 0))  # each bit and the neighbour it leads to


def pearl(lines: list[list[int]], r: int, c: int) -> str | None:
    """The pearl the loop allows at centre (r, c) of ``lines`` (each centre's lines as bits): black at a turn
    whose two lines go straight on through the next cells, white on a straight with a turn beside it."""
    mask = lines[r][c]
    if mask not in STRAIGHT and mask not in TURN:
        return None
    beside = [lines[r + dr][c + dc] in STRAIGHT for bit, dr, dc in TOWARD if mask & bit]
    return (BLACK if all(beside) else None) if mask in TURN else (None if all(beside) else WHITE)


def _lines(answer: Edges) -> list[list[int]]:
    """Each cell's lines as bits, in a border of cells without any (so cell (r, c) is at (r + 1, c + 1))."""
    h, v = answer["horizontal"], answer["vertical"]
    rows, cols = len(h), len(v[0])

    def on(grid: list[list[int]], r: int, c: int) -> int:
        return int(0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == 1)
    return [[0] * (cols + 2)] + [[0] + [on(h, r, c) | on(h, r, c - 1) << 1 | on(v, r, c) << 2 | on(v, r - 1, c) << 3
                                        for c in range(cols)] + [0] for r in range(rows)] + [[0] * (cols + 2)]


def _mask(sq: list[list[bool]], r: int, c: int) -> int:
    """The lines of the centre whose four squares are ``sq[r-1..r][c-1..c]``: one between two squares that differ."""
    return ((sq[r - 1][c] != sq[r][c]) | (sq[r - 1][c - 1] != sq[r][c - 1]) << 1 | (sq[r][c - 1] != sq[r][c]) << 2
            | (sq[r - 1][c - 1] != sq[r - 1][c]) << 3)


NEAR = [(r, c) for r in range(1, 5) for c in range(1, 5) if r in (2, 3) or c in (2, 3)]  # pearls a square can move


@cache
def _pearl_in(window: int) -> bool:
    """Whether a pearl fits at the centre amid a 4×4 block of squares (bit 4a + b: square (a, b) is inside the
    loop's region), the centre being the corner that squares (1, 1) and (2, 2) share: its lines and its four
    neighbours' are the outline's there."""
    sq = [[bool(window >> (4 * a + b) & 1) for b in range(4)] for a in range(4)]
    lines = [[0, _mask(sq, 1, 2), 0], [_mask(sq, 2, 1), _mask(sq, 2, 2), _mask(sq, 2, 3)], [0, _mask(sq, 3, 2), 0]]
    return pearl(lines, 1, 1) is not None


def _pearls_gained(inside: set[Cell], square: Cell, rows: int, cols: int) -> int:
    """How many more cells may hold a pearl with ``square`` inside than without, when the loop is the outline of
    ``inside`` (squares whose corners are cell centres: square (r, c) is down and right of centre (r, c)). Read off
    the 7×7 squares around it (bit 7a + b: square (i + a - 3, j + b - 3)): its four corners' lines change, and with
    them the pearls of those four centres and of the eight beside them, each read off the 4×4 squares around it."""
    i, j = square
    block = sum(1 << (7 * a + b) for a in range(7) for b in range(7) if (i + a - 3, j + b - 3) in inside)
    near = [(r - 1) * 7 + c - 1 for r, c in NEAR if 0 <= i + r - 2 < rows and 0 <= j + c - 2 < cols]

    def count(bits: int) -> int:
        return sum(_pearl_in((bits >> at & 15) | (bits >> at + 7 & 15) << 4 | (bits >> at + 14 & 15) << 8
                             | (bits >> at + 21 & 15) << 12) for at in near)
    return count(block | 1 << 24) - count(block)


class MasyuGenre:
    """What the kit's generator needs: a loop, and each cell where a pearl fits as a clue."""

    def draw(self, params: MasyuParams, rng: random.Random) -> tuple[None, Edges]:
        rows, cols = params.shape()
        weight: dict[Cell, float] = {}  # a square's weight, kept until a square near it changes
        known: set[Cell] = set()

        def prefer(inside: set[Cell], square: Cell) -> float:
            for new in inside - known:
                for near in product(range(new[0] - 3, new[0] + 4), range(new[1] - 3, new[1] + 4)):
                    weight.pop(near, None)
                known.add(new)
            if square not in weight:
                weight[square] = BIAS ** _pearls_gained(inside, square, rows, cols)
            return weight[square]

        return None, outline(grow_region(rows - 1, cols - 1, LOW_SHARE, HIGH_SHARE, rng, prefer), rows - 1, cols - 1)

    def clues(self, board: None, answer: Edges) -> list[Cell]:
        lines = _lines(answer)
        return [(r, c) for r in range(len(lines) - 2) for c in range(len(lines[0]) - 2) if pearl(lines, r + 1, c + 1)]

    def puzzle(self, board: None, answer: Edges, shown: frozenset[Cell]) -> MasyuPuzzle:
        lines, rows, cols = _lines(answer), len(answer["horizontal"]), len(answer["vertical"][0])
        return MasyuPuzzle(rows=rows, cols=cols, pearls=[[pearl(lines, r + 1, c + 1) if (r, c) in shown else None
                                                          for c in range(cols)] for r in range(rows)])

    def model(self, puzzle: MasyuPuzzle) -> kit.Model:
        return model(puzzle)


def generate_puzzle(params: MasyuParams, seed: int, deadline: Deadline) -> Generated:
    """On the kit's array levels, which read a loop's rule; the prover goes first at hard."""
    return make_on_levels(MasyuGenre(), MasyuAnswer, PEOPLE, DIFFICULTY.grade, params, seed, deadline, prove_from=2)



PUZZLE_TYPE = PuzzleType(
    name="masyu",
    id_prefix="mas",
    summary="Draw one closed loop through cell centres that passes every pearl: it turns on a black pearl and goes "
            "straight through the cells either side; it goes straight through a white pearl and turns next to it.",
    params_model=MasyuParams,
    puzzle_model=MasyuPuzzle,
    answer_model=MasyuAnswer,
    generate=generate_puzzle,
    check=kit.checker(model),
    solve=kit_solving.solver(model),
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="pearl",
    tatham_presets=tuple(TathamPreset(f"{cols}x{rows}d{'et'[level]}", level, {"rows": rows, "cols": cols,
                                      "difficulty": PEOPLE.level_names[level]})
                         for cols, rows in ((6, 6), (8, 8), (10, 10), (12, 8)) for level in (0, 1)),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; 2–30 to solve",
               "loop": f"the outline of a region of {LOW_SHARE:.0%}–{HIGH_SHARE:.0%} of the squares between centres"},
    difficulty=DIFFICULTY,
    play_mode="edges",
    model=model,
)
