"""Shikaku generation through the genre kit: the grid tiled with random rectangles, each number put in a random
cell of its rectangle and moved while a second answer exists, boards drawn until one has one answer at the level.
Sizes 5 to 19 (Tatham's Rect presets 7 to 19), three levels."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from generators.kit import make_on_levels
from generators.params import rectangle_params
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Cell, Deadline
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.arrays import fast
from solvers.kit.human import SHORT_ROUNDS
from solvers.shikaku import kernel, picture, puzzlink, tatham
from solvers.shikaku.rules import Rect, Regions, ShikakuAnswer, ShikakuPuzzle, model, rect_cells

MIN_SIDE, MAX_SIDE = 5, 19
AREA_SHARE = 1 / 7  # the largest rectangle, as a share of the grid (Tatham's 15×15 boards reach 36 cells)
MOVES = 12  # times the numbers are moved on one tiling toward one answer before another is drawn
HARDEN = 40  # numbers moved one at a time toward a puzzle the level below cannot solve
SEARCH = 10_000  # nodes of the search for a second answer before a tiling is given up (under ten seen at 12 to 19)
PEOPLE = kit_human.solver()
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, Regions(1, 1, ()), "R×C of rectangle ids", default="easy"),
                  PEOPLE, model)
Board = list[list[int | None]]

ShikakuParams = rectangle_params("ShikakuParams", __name__, MIN_SIDE, MAX_SIDE, 9, DIFFICULTY)


def tile(rows: int, cols: int, rng: random.Random) -> list[Rect]:
    """Rectangles covering the grid: the first free cell in reading order is the top left corner of a random
    rectangle of free cells, two cells or more where there is room, smaller ones likelier."""
    most = max(4, round(rows * cols * AREA_SHARE))
    free = [[True] * cols for _ in range(rows)]
    found = []
    for r in range(rows):
        for c in range(cols):
            if not free[r][c]:
                continue
            width = 0
            while c + width < cols and free[r][c + width]:
                width += 1
            shapes = []
            for w in range(1, width + 1):
                for h in range(1, rows - r + 1):
                    if w * h > most or not all(free[r + h - 1][c:c + w]):
                        break
                    shapes.append((h, w))
            sized = [s for s in shapes if s[0] * s[1] > 1] or shapes
            h, w = rng.choices(sized, [1 / (h * w) ** 0.5 for h, w in sized])[0]
            for rr in range(r, r + h):
                free[rr][c:c + w] = [False] * w
            found.append((r, c, r + h - 1, c + w - 1))
    return found


def place(rects: list[Rect], rows: int, cols: int, at: dict[Rect, Cell]) -> Board:
    board: Board = [[None] * cols for _ in range(rows)]
    for rect in rects:
        r, c = at[rect]
        board[r][c] = len(rect_cells(rect))
    return board


def numbers(rects: list[Rect], rows: int, cols: int, at: dict[Rect, Cell]) -> np.ndarray:
    """The board as the compiled levels read it (``solvers.shikaku.kernel``): each number's area, 0 elsewhere."""
    return np.array([[area or 0 for area in row] for row in place(rects, rows, cols, at)], np.int64)


class ShikakuGenre:
    """A board and its answer for the kit's generator; every number is shown, so there are no clues to choose."""

    def draw(self, params: Any, rng: random.Random) -> tuple[Board, dict[str, Any]]:
        """A tiling whose numbers have one answer (``unique``), then, above the easiest level, numbers moved
        while the level below decides no more of it (``harden``)."""
        rows, cols = params.shape()
        below = PEOPLE.level_names.index(params.difficulty) - 1
        while True:
            rects = tile(rows, cols, rng)
            at = self.unique(rects, rows, cols, {rect: rng.choice(rect_cells(rect)) for rect in rects}, rng)
            if at is not None and below >= 0:
                at = self.harden(rects, rows, cols, at, below, rng)
            if at is not None:
                return place(rects, rows, cols, at), answer(rects, at, rows, cols)

    def unique(self, rects: list[Rect], rows: int, cols: int, at: dict[Rect, Cell],
               rng: random.Random) -> dict[Rect, Cell] | None:
        """While a second answer exists, each number whose rectangle it changes moves to another cell of its
        rectangle (a compiled search for it, ``kernel.other``: the rules alone tell most boards have none, the
        rest take a fraction of a millisecond); None when ``MOVES`` moves leave two answers, or when a search
        runs past ``SEARCH`` nodes."""
        for _ in range(MOVES):
            mine = np.array(answer(rects, at, rows, cols)["regions"], np.int64) - 1
            found, other = kernel.other(numbers(rects, rows, cols, at), mine, SEARCH)
            if found <= 0:
                return at if found == 0 else None
            for rect in rects:
                cells = rect_cells(rect)
                ids = {int(other[r, c]) for r, c in cells}
                if len(ids) > 1 or int((other == next(iter(ids))).sum()) != len(cells):
                    at[rect] = rng.choice(cells)
        return None

    def harden(self, rects: list[Rect], rows: int, cols: int, at: dict[Rect, Cell], below: int,
               rng: random.Random) -> dict[Rect, Cell] | None:
        """Numbers moved one at a time, a move kept when the level ``below`` decides no larger share of the keys
        and the numbers' rectangles are no fewer (more of them overlap: nearer two answers), until that level no
        longer solves the puzzle and the level above it does (so it has one answer, and no SAT count is needed);
        None after ``HARDEN`` moves."""
        first = self.reading(rects, rows, cols, at, below)
        best = (first.share, -first.keys)
        movable = [rect for rect in rects if len(rect_cells(rect)) > 1]
        for _ in range(HARDEN):
            rect = rng.choice(movable)
            moved = {**at, rect: rng.choice(rect_cells(rect))}
            read = self.reading(rects, rows, cols, moved, below)
            measure = (read.share, -read.keys)
            if measure > best:
                continue
            if read.share < 1:
                if read.above:
                    return moved
                continue
            at, best = moved, measure
        return None

    def reading(self, rects: list[Rect], rows: int, cols: int, at: dict[Rect, Cell], below: int) -> Reading:
        """The kit's levels up to ``below`` on the numbers at ``at``, and when they are stuck the next level on
        the same state: the level's own check (``Levels.fits``), whose deductions are sound, so a puzzle it solves
        has one answer. Compiled (``solvers.shikaku.kernel``): the walk asks it for every move."""
        keys, broken, known, above = kernel.levels(numbers(rects, rows, cols, at), below, SHORT_ROUNDS, True)
        if broken:
            return Reading(1.0, keys, False)  # the levels find no answer: nothing gained
        return Reading(known / keys, keys, bool(above))

    def clues(self, board: Board, answer: dict[str, Any]) -> list[Cell]:
        return []

    def puzzle(self, board: Board, answer: dict[str, Any], shown: frozenset[Cell]) -> ShikakuPuzzle:
        return ShikakuPuzzle(rows=len(board), cols=len(board[0]), numbers=board)

    def model(self, puzzle: ShikakuPuzzle) -> kit.Model:
        return model(puzzle)


@dataclass(frozen=True)
class Reading:
    """What the kit's levels make of a board, for ``harden``."""

    share: float  # of the keys the levels up to the one asked decide before they are stuck (1: they solve it)
    keys: int  # the model's keys: the numbers' rectangles' cells, more of them overlapping nearer two answers
    above: bool  # stuck, the next level solves it (and so it has one answer)


def answer(rects: list[Rect], at: dict[Rect, Cell], rows: int, cols: int) -> dict[str, Any]:
    """The regions as the service writes them: the ``n``-th number in reading order's rectangle is ``n + 1``."""
    order = {cell: n for n, cell in enumerate(sorted(at.values()))}
    grid = [[0] * cols for _ in range(rows)]
    for rect in rects:
        for r, c in rect_cells(rect):
            grid[r][c] = order[at[rect]] + 1
    return {"regions": grid}


def generate_puzzle(params: Any, seed: int, deadline: Deadline) -> Generated:
    """On the kit's array levels, which read a number's rectangle (not a plain count)."""
    return make_on_levels(ShikakuGenre(), ShikakuAnswer, PEOPLE, DIFFICULTY.grade, params, seed, deadline)


check = kit.checker(model)
solve = kit_solving.solver(model)


PUZZLE_TYPE = PuzzleType(
    name="shikaku",
    id_prefix="shi",
    summary="Cut the grid into rectangles along its lines, each holding exactly one number, which is its area.",
    params_model=ShikakuParams,
    puzzle_model=ShikakuPuzzle,
    answer_model=ShikakuAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="rect",
    tatham_presets=tuple(TathamPreset(f"{n}x{n}", 0, {"size": n, "difficulty": "easy"}) for n in range(7, 20, 2)),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to 30 to solve",
               "rectangles": f"up to {AREA_SHARE:.0%} of the grid each"},
    difficulty=DIFFICULTY,
    play_mode="edges",
    play_script="solvers/shikaku/play.js",  # the borders drawn with the edges widget, read as rectangles
    model=model,
    warm_up=kernel.warm_up,
)
