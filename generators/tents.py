"""Tents generation through the genre kit, as Simon Tatham's generator draws a board: a fifth of the cells as
tents placed at random apart from one another, then a tree beside each tent by a random pairing, and every row
and column count shown. A board is drawn again until it has one answer at the level asked.

Levels are the kit's (a rule alone, short trials, long trials); sizes follow Tatham's presets (8×8, 10×10 and
15×15 at Easy and Tricky) with any size from 5 to 15 on request.
"""

from __future__ import annotations

import random

from generators.kit import make_at_level
from generators.params import rectangle_params
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Cell, Deadline
from solvers.grid import neighbours
from solvers.kit import counts_kernel
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.arrays import fast
from solvers.tents import picture, puzzlink, tatham
from solvers.tents.rules import TentsAnswer, TentsPuzzle, model

MIN_SIDE, MAX_SIDE = 5, 15
SHARE = 5  # one tent for every five cells, as Tatham's generator
PEOPLE = kit_human.solver()
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, kit.Cells("tents", 1, 1, "a tent", "grass"),
                                       "R×C of 1 (a tent), 0 (grass)"), PEOPLE, model)
AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
Grid = list[list[int]]
Line = tuple[str, int]  # a count the puzzle may show: ("row", r) or ("column", c)


TentsParams = rectangle_params("TentsParams", __name__, MIN_SIDE, MAX_SIDE, 8, DIFFICULTY)


def _pair(tents: list[Cell], rows: int, cols: int, rng: random.Random) -> dict[Cell, Cell] | None:
    """A tree for each tent: a distinct cell beside it that is no tent, by augmenting paths in random order;
    None when the tents leave no such pairing."""
    taken: dict[Cell, Cell] = {}  # tree cell -> its tent
    tent_cells = set(tents)
    spots = {tent: [spot for spot in neighbours(tent, rows, cols) if spot not in tent_cells] for tent in tents}
    for options in spots.values():
        rng.shuffle(options)

    def place(tent: Cell, seen: set[Cell]) -> bool:
        for spot in spots[tent]:
            if spot not in seen:
                seen.add(spot)
                if spot not in taken or place(taken[spot], seen):
                    taken[spot] = tent
                    return True
        return False

    return taken if all(place(tent, set()) for tent in tents) else None


class TentsGenre:
    """What the kit's generator needs: a board of trees and its tents, and the counts as clues. Below the top
    level every count is shown, as in Tatham's puzzles (his format has no hidden count), and a board is kept or
    drawn again whole: with every count shown a long trial is hardly ever needed. At the top level (``hide``)
    the counts the proof does not need are hidden, as puz.link puzzles may."""

    def __init__(self, hide: bool) -> None:
        self.hide = hide

    def draw(self, params: TentsParams, rng: random.Random) -> tuple[Grid, dict[str, Grid]]:
        rows, cols = params.shape()
        while True:
            order = [(r, c) for r in range(rows) for c in range(cols)]
            rng.shuffle(order)
            tents: list[Cell] = []
            blocked: set[Cell] = set()
            for cell in order:
                if len(tents) == rows * cols // SHARE:
                    break
                if cell not in blocked:
                    tents.append(cell)
                    blocked |= {cell, *((cell[0] + dr, cell[1] + dc) for dr, dc in AROUND)}
            paired = _pair(tents, rows, cols, rng) if len(tents) == rows * cols // SHARE else None
            if paired is not None:
                trees = [[int((r, c) in paired) for c in range(cols)] for r in range(rows)]
                placed = set(tents)
                return trees, {"tents": [[int((r, c) in placed) for c in range(cols)] for r in range(rows)]}

    def clues(self, trees: Grid, answer: dict[str, Grid]) -> list[Line]:
        if not self.hide:
            return []
        return [("row", r) for r in range(len(trees))] + [("column", c) for c in range(len(trees[0]))]

    def puzzle(self, trees: Grid, answer: dict[str, Grid], shown: frozenset[Line]) -> TentsPuzzle:
        tents = answer["tents"]
        columns = [sum(column) for column in zip(*tents, strict=True)]
        return TentsPuzzle(rows=len(trees), cols=len(trees[0]), trees=trees,
                           row_counts=[n if not self.hide or ("row", r) in shown else None for r, n in
                                       enumerate(sum(row) for row in tents)],
                           col_counts=[n if not self.hide or ("column", c) in shown else None
                                       for c, n in enumerate(columns)])

    def model(self, puzzle: TentsPuzzle) -> kit.Model:
        return model(puzzle, self.hide)


def generate_puzzle(params: TentsParams, seed: int, deadline: Deadline) -> Generated:
    """The kit's ``make_at_level``; only the top level hides counts (``TentsGenre``)."""
    top = params.difficulty == PEOPLE.level_names[-1]
    return make_at_level(TentsGenre(top), TentsAnswer, DIFFICULTY, PEOPLE, params, seed, deadline)


check = kit.checker(model)
solve = kit_solving.solver(model)


PUZZLE_TYPE = PuzzleType(
    name="tents",
    id_prefix="ten",
    summary="Put a tent beside each tree, trees and tents paired one to one; no two tents touch, even diagonally; "
            "the numbers count the tents in each row and column.",
    params_model=TentsParams,
    puzzle_model=TentsPuzzle,
    answer_model=TentsAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="tents",
    tatham_presets=tuple(TathamPreset(f"{n}x{n}d{d}", rank, {"size": n, "difficulty": level})
                         for n in (8, 10, 15) for rank, (d, level) in enumerate((("e", "easy"), ("t", "medium")))),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to 30 to solve",
               "tents": f"one for every {SHARE} cells, as in Tatham's generator"},
    difficulty=DIFFICULTY,
    model=model,
    warm_up=counts_kernel.warm_up,  # its level checks and grade: solvers.kit.arrays
)
