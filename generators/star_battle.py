"""Star Battle generation: the puzzle's only clue is its region map, so instead of removing clues the generator
reshapes regions until the asked level decides every cell (its deductions are sound: the map then has one
answer, with no SAT proof) and the level below does not. It draws a valid star placement, grows a region
around each star (two stars and a path between them, for two stars) at uneven paces with the kit's random
partition, then walks: a cell (never a star) moves to a neighbouring region, and the move stays when the level
decides at least as many cells, with fewer ways left to the rows, columns and regions. Every map it keeps is
balanced (`balanced`): a map of one huge region and a row of one-cell regions is decided by counting, not solved.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field, model_validator

from generators.pipeline import Generated, GenerationFailed, GenerationStats, generate_at_level
from generators.spec import PuzzleType
from solvers.common import Cell, Deadline
from solvers.grid import neighbours
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.arrays import fast
from solvers.kit.human import SHORT_ROUNDS
from solvers.kit.partition import Regions, renumbered
from solvers.star_battle import kernel, picture, puzzlink
from solvers.star_battle.rules import StarBattleAnswer, StarBattlePuzzle, model

MIN_SIDE, TWO_STARS_FROM = 5, 10
# The largest side made per star count and level: past it the walk's time goes past the budget.
LARGEST_SIDE = {1: {"easy": 13, "medium": 12, "hard": 12}, 2: {"medium": 12, "hard": 12}}
ONE_STAR_TO, TWO_STARS_TO = max(LARGEST_SIDE[1].values()), max(LARGEST_SIDE[2].values())
MAX_SIDE = max(ONE_STAR_TO, TWO_STARS_TO)
MAX_WALKS, MAX_PAIRINGS = 2000, 100
# A cold walk's moves per cell, by level. Under the rules alone (easy) most moves neither gain nor lose a cell, and a
# long walk over that plateau reaches a map where a short one is redrawn; above easy a short walk that fails is
# cheaper redrawn than walked on.
MOVES_PER_CELL = {"easy": 120, "medium": 2, "hard": 2}
# The smallest side walked heated, per star count and level (a losing move kept with odds exp(-loss / HEAT), and
# a longer walk); smaller sides walk cold, as easy and two stars do at every side: heat does not help them.
HOT_FROM: dict[int, dict[str, int]] = {1: {"medium": 11, "hard": 11}, 2: {}}
HEAT, HOT_MOVES_PER_CELL = 4.0, 40
SKEW, FOCUS = 0.5, 0.95  # paces drawn exp(1)**SKEW; the share of moves taking a cell the level leaves open
MAX_DRAWS = 200  # region maps drawn around one placement before it is given up as unbalanced
LARGEST = 2.5  # no region past this many times the mean size (N cells)
PEOPLE = kit_human.solver()
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, kit.Cells("stars", 1, 1, "a star", "empty"),
                                       "N×N of 1 (a star), 0 (empty)"), PEOPLE, model)
Grid = list[list[int]]


def sides(stars: int) -> str:
    """The sides made with ``stars`` stars, level by level, in the words every refusal uses."""
    low = MIN_SIDE if stars == 1 else TWO_STARS_FROM
    by_side: dict[int, list[str]] = {}
    for level, side in LARGEST_SIDE[stars].items():
        by_side.setdefault(side, []).append(level)
    return ", ".join(f"{low}×{low} to {side}×{side} at {' and '.join(levels)}" for side, levels in by_side.items())


ALLOWED = f"one star on {sides(1)}; two stars on {sides(2)}"


class StarBattleParams(BaseModel):
    size: int = Field(8, ge=MIN_SIDE, json_schema_extra={"maximum": MAX_SIDE},  # the validator says which level
                      description=f"Grid side N (N regions): one star on {sides(1)}; two on {sides(2)}.")
    stars: int = Field(1, ge=1, le=2, description=f"Stars per row, column and region; 2 on {sides(2)}.")
    difficulty: Literal[tuple(DIFFICULTY.names)] = Field(  # type: ignore[valid-type]
        DIFFICULTY.default, description="What a person needs (see the type's `difficulties`): `easy` needs the "
                                        "counts alone.")

    @model_validator(mode="after")
    def _room_for_the_stars(self) -> StarBattleParams:
        if self.stars == 2 and self.difficulty not in LARGEST_SIDE[2]:
            raise ValueError("two-star puzzles are medium or hard: no row, column or region starts with only its two "
                             f"cells open, so the counts alone never begin ({ALLOWED})")
        low = MIN_SIDE if self.stars == 1 else TWO_STARS_FROM
        if not low <= self.size <= LARGEST_SIDE[self.stars][self.difficulty]:
            raise ValueError(f"{self.size}×{self.size} with {self.stars} star{'s' * (self.stars > 1)} at "
                             f"{self.difficulty} is not made: {ALLOWED} (two stars have no room below 10×10; a larger "
                             "map takes the generator's walk past the time budget, though solve reads any size up "
                             "to 30)")
        return self


def draw_stars(size: int, stars: int, rng: random.Random) -> Grid:
    """A random placement of ``stars`` per row and column, no two touching (row by row, backtracking)."""
    grid = [[0] * size for _ in range(size)]
    in_column = [0] * size

    def fill(r: int) -> bool:
        if r == size:
            return all(count == stars for count in in_column)
        left = size - r  # rows left, this one included: a column short of more stars than that is lost
        if any(stars - count > (left + 1) // 2 for count in in_column):
            return False
        free = [c for c in range(size) if in_column[c] < stars and not (r and any(
            grid[r - 1][cc] for cc in (c - 1, c, c + 1) if 0 <= cc < size))]
        choices = [(a,) for a in free] if stars == 1 else \
            [(a, b) for i, a in enumerate(free) for b in free[i + 1:] if b > a + 1]
        rng.shuffle(choices)
        for choice in choices:
            for c in choice:
                grid[r][c], in_column[c] = 1, in_column[c] + 1
            if fill(r + 1):
                return True
            for c in choice:
                grid[r][c], in_column[c] = 0, in_column[c] - 1
        return False

    if not fill(0):
        raise GenerationFailed(f"no placement of {stars} stars on {size}×{size}")
    return grid


def cores(stars: Grid, rng: random.Random) -> list[list[Cell]]:
    """What each region grows from: its star, or two stars and a shortest path between them."""
    placed = [(r, c) for r, row in enumerate(stars) for c, star in enumerate(row) if star]
    if len(placed) == len(stars):
        return [[cell] for cell in placed]
    for _ in range(MAX_PAIRINGS):
        rng.shuffle(placed)
        alone, taken, found = placed[:], set(placed), []
        while alone and (path := _path(alone.pop(), alone, taken, len(stars), rng)):
            alone.remove(path[0])
            taken.update(path)
            found.append(path)
        if not alone and len(found) == len(stars):
            return found
    raise GenerationFailed("no pairing of the stars into regions")


def _path(start: Cell, ends: list[Cell], taken: set[Cell], size: int, rng: random.Random) -> list[Cell] | None:
    """A shortest path from ``start`` to one of ``ends`` through cells not ``taken`` (ties broken at random)."""
    back, queue = {start: start}, deque([start])
    while queue:
        here = queue.popleft()
        near = list(neighbours(here, size, size))
        rng.shuffle(near)
        for cell in near:
            if cell in back:
                continue
            back[cell] = here
            if cell in ends:
                path = [cell]
                while path[-1] != start:
                    path.append(back[path[-1]])
                return path
            if cell not in taken:
                queue.append(cell)
    return None


def smallest(size: int, stars: int) -> int:
    """The size below which a region counts as small: a third of the mean (N cells), and room for its stars
    apart (a lone star in one cell; two stars need three)."""
    return max(2 * stars, round(size / 3))


def balanced(regions: np.ndarray, stars: int, level: int) -> bool:
    """Whether no region passes ``LARGEST`` times the mean size and at most one is small (``smallest``): a
    one-cell region is where a one-star easy puzzle begins (above easy, a star given away), more small regions
    turn the puzzle into counting."""
    size = len(regions)
    sizes = np.bincount(regions.ravel())
    return bool(kernel.balanced(sizes[sizes > 0], int(LARGEST * size), smallest(size, stars), level))


def draw_map(size: int, stars: int, level: int, rng: random.Random) -> tuple[np.ndarray, Grid]:
    """A balanced map with its stars: a random placement, a region grown from each star (or pair) at uneven
    paces, drawn again until balanced (and every cell reached)."""
    for _ in range(MAX_DRAWS):
        answer = draw_stars(size, stars, rng)
        grown = np.full((size, size), -1, np.int64)
        for region, core in enumerate(cores(answer, rng)):
            for r, c in core:
                grown[r, c] = region
        pace = np.array([rng.expovariate(1.0) ** SKEW for _ in range(size)])
        regions = kernel.grow(grown, pace, int(LARGEST * size), rng.getrandbits(31))
        if regions.min() >= 0 and balanced(regions, stars, level):
            return regions, answer
    raise GenerationFailed(f"no balanced map of {size}×{size} in {MAX_DRAWS} draws")


def reshape(size: int, stars: int, level: int, rng: random.Random) -> tuple[Regions, Grid] | None:
    """A map the level decides entirely and the level below does not, by a walk over maps (compiled:
    ``kernel.walk``): a random placement's regions, then one cell at a time (never a star) moved to a neighbouring
    region, a move kept when the map stays balanced and the level decides at least as many cells as before; None
    when the walk runs out of moves. From ``HOT_FROM`` on the walk is heated (a losing move kept at odds falling with
    the loss) and longer: a cold walk on a large map stops in a dead end where every move loses ground."""
    grid, answer = draw_map(size, stars, level, rng)
    name = DIFFICULTY.names[level]
    hot = size >= HOT_FROM[stars].get(name, size + 1)
    if kernel.walk(grid, np.array(answer, np.int64), stars, level, SHORT_ROUNDS,
                   (HOT_MOVES_PER_CELL if hot else MOVES_PER_CELL[name]) * size * size, FOCUS, int(LARGEST * size),
                   smallest(size, stars), rng.getrandbits(31), HEAT if hot else 0.0):
        return grid.tolist(), answer
    return None


def _make(params: StarBattleParams, seed: int, deadline: Deadline) -> Generated:
    rng = random.Random(seed)
    level = DIFFICULTY.names.index(params.difficulty)
    for walk in range(MAX_WALKS):
        deadline.check()
        found = reshape(params.size, params.stars, level, rng)
        if found is not None:
            regions, answer = found
            puzzle = StarBattlePuzzle(size=params.size, stars=params.stars, regions=renumbered(regions))
            return Generated(puzzle, StarBattleAnswer(stars=answer), GenerationStats(restarts=walk))
    raise GenerationFailed(f"no {params.difficulty} map in {MAX_WALKS} walks")


def generate_puzzle(params: StarBattleParams, seed: int, deadline: Deadline) -> Generated:
    return generate_at_level(lambda draw_seed, budget: _make(params, draw_seed, budget), DIFFICULTY.grade,
                             params.difficulty, seed, deadline)


check = kit.checker(model)
solve = kit_solving.solver(model)


PUZZLE_TYPE = PuzzleType(
    name="star-battle",
    id_prefix="sta",
    summary="Place stars so every row, column and region holds the same number of them and no two stars touch, "
            "not even diagonally.",
    params_model=StarBattleParams,
    puzzle_model=StarBattlePuzzle,
    answer_model=StarBattleAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    backends=("cadical", "z3"),
    catalogue={"sizes": f"to generate: {ALLOWED}; up to 30 to solve",
               "stars": "1 or 2 per row, column and region"},
    difficulty=DIFFICULTY,
    model=model,
    warm_up=kernel.warm_up,
)
