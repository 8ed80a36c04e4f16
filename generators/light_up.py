"""Light Up generation through the genre kit: walls drawn with rotational symmetry, lights placed at random
until every open cell is lit, and the walls' numbers as the clues the kit's generator shows or hides.

Levels are the kit's (a rule alone, short trials, long trials); sizes and levels follow Simon Tatham's
presets (7×7 to 14×14, easy to hard), with any size from 5 to 14 on request.
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
from solvers.light_up import picture, puzzlink, tatham
from solvers.light_up.rules import WALL, LightUpAnswer, LightUpPuzzle, model, sight

MIN_SIDE, MAX_SIDE = 5, 14
WALL_SHARE, RAMP, RAMP_EVERY, MAX_WALL_SHARE = 0.2, 0.05, 20, 0.5  # Tatham's: 20% walls, 5% more every 20 boards
PEOPLE = kit_human.solver()
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, kit.Cells("lights", 1, 1, "a light", "empty"),
                                       "R×C of 1 (a light), 0 (empty)"), PEOPLE, model)
Walls = list[list[int | None]]
Grid = list[list[int]]


LightUpParams = rectangle_params("LightUpParams", __name__, MIN_SIDE, MAX_SIDE, 10, DIFFICULTY)


class LightUpGenre:
    """What the kit's generator needs: a board and answer, and the walls' numbers as clues. As in Tatham's
    generator, every ``RAMP_EVERY`` boards that no numbers make unique add ``RAMP`` to the share of walls: large
    open areas are what leaves a board ambiguous whatever its numbers say."""

    def __init__(self) -> None:
        self.draws = 0

    def draw(self, params: LightUpParams, rng: random.Random) -> tuple[Walls, dict[str, Grid]]:
        rows, cols = params.shape()
        share = min(MAX_WALL_SHARE, WALL_SHARE + RAMP * (self.draws // RAMP_EVERY))
        self.draws += 1
        walls: Walls = [[None] * cols for _ in range(rows)]
        for r in range(rows):
            for c in range(cols):
                if (r, c) <= (rows - 1 - r, cols - 1 - c) and rng.random() < share:
                    walls[r][c] = walls[rows - 1 - r][cols - 1 - c] = WALL
        lights = [[0] * cols for _ in range(rows)]
        puzzle = LightUpPuzzle(rows=rows, cols=cols, walls=walls)
        seen = sight(puzzle)
        unlit = set(seen)
        while unlit:
            r, c = rng.choice(sorted(unlit))
            lights[r][c] = 1
            unlit -= seen[(r, c)]
        return walls, {"lights": lights}

    def clues(self, walls: Walls, answer: dict[str, Grid]) -> list[Cell]:
        return [(r, c) for r, row in enumerate(walls) for c, wall in enumerate(row) if wall is not None]

    def _number(self, walls: Walls, lights: Grid, cell: Cell) -> int:
        return sum(lights[r][c] for r, c in neighbours(cell, len(walls), len(walls[0])))

    def puzzle(self, walls: Walls, answer: dict[str, Grid], shown: frozenset[Cell]) -> LightUpPuzzle:
        numbered = [[self._number(walls, answer["lights"], (r, c)) if (r, c) in shown else wall for c, wall in enumerate(row)]
                    for r, row in enumerate(walls)]
        return LightUpPuzzle(rows=len(walls), cols=len(walls[0]), walls=numbered)

    def model(self, puzzle: LightUpPuzzle) -> kit.Model:
        return model(puzzle)


def generate_puzzle(params: LightUpParams, seed: int, deadline: Deadline) -> Generated:
    return make_at_level(LightUpGenre(), LightUpAnswer, DIFFICULTY, PEOPLE, params, seed, deadline)


check = kit.checker(model)
solve = kit_solving.solver(model)


PUZZLE_TYPE = PuzzleType(
    name="light-up",
    id_prefix="lig",
    summary="Place lights so every open cell is lit, no light shines on another, and each number counts the lights "
            "beside its wall.",
    params_model=LightUpParams,
    puzzle_model=LightUpPuzzle,
    answer_model=LightUpAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="lightup",
    tatham_presets=tuple(TathamPreset(f"{size}x{size}b20s{2 if size > 7 else 4}d{rank}", rank,
                                      {"size": size, "difficulty": level})
                         for size in (7, 10, 14) for rank, level in enumerate(("easy", "medium", "hard"))),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to 30 to solve",
               "walls": f"{WALL_SHARE:.0%} of the cells, rotationally symmetric"},
    difficulty=DIFFICULTY,
    play_script="solvers/light_up/play.js",  # the cells the player's lights reach are tinted
    model=model,
    warm_up=counts_kernel.warm_up,  # its level checks: solvers.kit.arrays.solves
)
