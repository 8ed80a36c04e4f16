"""Fillomino generation through the genre kit: a random valid filling, every cell's number a clue the generator
may hide, and numbers taken away in random order while the level's techniques still solve the puzzle (a
puzzle they solve has one answer), boards drawn again until one grades at its level.

A filling: from each cell not yet filled, in reading order, a region grown at random toward a size drawn up to
the level's cap, through free cells beside no region of that size; a region whose size clashes with a
neighbour's is drawn again at another size, and a cell where none fits joins a region beside it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from generators.kit import make_read_by_groups
from generators.params import rectangle_params
from generators.pipeline import Generated, GenerationFailed
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Cell, Deadline
from solvers.fillomino import picture, puzzlink, tatham
from solvers.fillomino.rules import FillominoAnswer, FillominoPuzzle, Sizes, check, hint_sizes, model, solve
from solvers.grid import neighbours
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit.human import SHORT_ROUNDS
from solvers.kit.islands import OUT_OF_REACH, READINGS, deeper
from solvers.kit.partition import groups

MIN_SIDE, MAX_SIDE = 4, 13
LEVELS = ("easy", "medium", "hard", "expert")
LEVEL_CAP = {"easy": 5, "medium": 7, "hard": 9, "expert": 9}  # the largest region drawn per level
DRAWS = 100
TRIES = 6  # sizes drawn for a region at a cell before each size is tried in turn
ONES = 0.3  # how likely a region of 1 is drawn, against 1.0 for each larger size
PEOPLE = kit_human.group_levels(LEVELS, OUT_OF_REACH, SHORT_ROUNDS, "number", first=READINGS)
KIT_DIFFICULTY = kit_human.difficulty(PEOPLE, model, Sizes("digits", 1, 1, 1), "R×C of region sizes, 0 or null for "
                                      "an empty cell")
DIFFICULTY = replace(KIT_DIFFICULTY, hint=hint_sizes(KIT_DIFFICULTY.hint))
Grid = list[list[int]]

# The most cells per level whose generation keeps within a second of CPU at the median (docs/genres/fillomino.md).
MOST_CELLS = {"easy": 144, "medium": 121, "hard": 64, "expert": 25}  # 12×12, 11×11, 8×8, 5×5
FillominoParams = rectangle_params("FillominoParams", __name__, MIN_SIDE, MAX_SIDE, 8, DIFFICULTY,
                                   most_cells=MOST_CELLS)


def filling(rows: int, cols: int, cap: int, rng: random.Random) -> Grid | None:
    """A valid filling with no region over ``cap``, or None when a cell found no size that fits."""
    size = [[0] * cols for _ in range(rows)]
    sizes = range(1, cap + 1)
    weights = [ONES if n == 1 else 1.0 for n in sizes]
    for start in [(r, c) for r in range(rows) for c in range(cols)]:
        if size[start[0]][start[1]]:
            continue
        tried = rng.choices(sizes, weights, k=TRIES) + rng.sample(sizes, cap)
        for region in (grown(size, start, target, rng) for target in tried):
            if region is not None and not clashes(size, region):
                break
        else:
            region = next((r for r in joined(size, start, cap) if not clashes(size, r)), None)
            if region is None:
                return None
        for r, c in region:
            size[r][c] = len(region)
    return size


def clashes(size: Grid, region: list[Cell]) -> bool:
    """Whether a region would touch another of its size."""
    inside = set(region)
    return any(size[n[0]][n[1]] == len(region) for cell in region
               for n in neighbours(cell, len(size), len(size[0])) if n not in inside)


def joined(size: Grid, cell: Cell, cap: int) -> list[list[Cell]]:
    """``cell`` joined to each region beside it that stays within ``cap``: a way out when no new region fits."""
    rows, cols = len(size), len(size[0])
    found = []
    for start in neighbours(cell, rows, cols):
        region, stack = {start}, [start]
        while stack:
            here = stack.pop()
            for n in neighbours(here, rows, cols):
                if n not in region and size[n[0]][n[1]] == size[start[0]][start[1]]:
                    region.add(n)
                    stack.append(n)
        if size[start[0]][start[1]] and len(region) < cap:
            found.append(sorted(region | {cell}))
    return found


def grown(size: Grid, start: Cell, target: int, rng: random.Random) -> list[Cell] | None:
    """Up to ``target`` free cells joined to ``start`` at random, none beside a region of ``target`` cells."""
    rows, cols = len(size), len(size[0])

    def free(cell: Cell) -> bool:
        return not size[cell[0]][cell[1]] and all(size[n[0]][n[1]] != target for n in neighbours(cell, rows, cols))

    if not free(start):
        return None
    region, frontier = [start], [n for n in neighbours(start, rows, cols) if free(n)]
    while frontier and len(region) < target:
        cell = frontier.pop(rng.randrange(len(frontier)))
        if cell not in region:
            region.append(cell)
            frontier += [n for n in neighbours(cell, rows, cols) if n not in region and free(n)]
    return region


class FillominoGenre:
    """A filling and its numbers, each a clue the puzzle may show; above the easiest level a region's numbers are
    tried away together first (``together``)."""

    def __init__(self, level: str):
        self.level = level

    def draw(self, params: Any, rng: random.Random) -> tuple[Grid, dict[str, Grid]]:
        rows, cols = params.shape()
        for _ in range(DRAWS):
            grid = filling(rows, cols, min(LEVEL_CAP[self.level], rows * cols - 1), rng)
            if grid is not None:
                return grid, {"digits": grid}
        raise GenerationFailed("no filling drawn without a clash")

    def clues(self, board: Grid, answer: dict[str, Grid]) -> list[Cell]:
        return [(r, c) for r in range(len(board)) for c in range(len(board[0]))]

    def together(self, board: Grid, answer: dict[str, Grid]) -> list[list[Cell]]:
        """Each region's numbers, tried away at once first: an unclued region is a good find for a person (Tatham),
        and one check takes several clues."""
        return groups(board) if self.level != LEVELS[0] else []  # the rules alone all but never find an unclued region

    def puzzle(self, board: Grid, answer: dict[str, Grid], shown: frozenset[Cell]) -> FillominoPuzzle:
        return FillominoPuzzle(rows=len(board), cols=len(board[0]), givens=[
            [v if (r, c) in shown else None for c, v in enumerate(row)] for r, row in enumerate(board)])

    def model(self, puzzle: FillominoPuzzle) -> kit.Model:
        return model(puzzle)


def generate_puzzle(params: Any, seed: int, deadline: Deadline) -> Generated:
    """The kit's generator for levels of rules read whole (``make_read_by_groups``), its level checks on arrays; from
    hard up, the prover first tells which clues cannot go (a trial's level check costs more than a proof)."""
    return make_read_by_groups(FillominoGenre(params.difficulty), FillominoAnswer, DIFFICULTY, model, deeper,
                               SHORT_ROUNDS, params, seed, deadline, prove_first=LEVELS.index(params.difficulty) >= 2)


PUZZLE_TYPE = PuzzleType(
    name="fillomino",
    id_prefix="fil",
    summary="Write a number in every cell so that each group of equal numbers joined along edges has as many cells "
            "as that number.",
    params_model=FillominoParams,
    puzzle_model=FillominoPuzzle,
    answer_model=FillominoAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="filling",
    tatham_presets=tuple(TathamPreset(f"{w}x{h}", 0, {"rows": h, "cols": w, "difficulty": "medium"})
                         for w, h in ((9, 7), (13, 9))),  # his puzzles grade medium here; his 17x13 is over its cells
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to 30 to solve",
               "regions": ", ".join(f"{level} up to {cap} cells" for level, cap in LEVEL_CAP.items())},
    difficulty=DIFFICULTY,
    play_mode="digits",
    model=model,
)
