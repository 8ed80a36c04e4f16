"""Takuzu generation through the genre kit: a random valid grid drawn row by row, and every cell's value as the
clues the kit's generator shows or hides (Tatham's Unruly does the same: a full grid, then givens removed while
his solver at the level still finishes).

Sizes 6 to 14, even (Tatham's presets are 8, 10 and 14). Levels are the kit's (a rule alone, short trials, long
trials), checked on arrays (``solvers.kit.arrays``: the distinct-lines rule is not a plain count).
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, Field, model_validator

from generators.kit import make_on_levels
from generators.pipeline import Generated, GenerationFailed
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Cell, Deadline
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.arrays import fast
from solvers.takuzu import picture, tatham
from solvers.takuzu.rules import TakuzuAnswer, TakuzuPuzzle, model

MIN_SIDE, MAX_SIDE, DEFAULT_SIDE = 6, 14, 8
PEOPLE = kit_human.solver()
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, kit.Cells("grid", 1, 1, "1", "0"),
                                       "N×N of 1, 0 or null for undecided"), PEOPLE, model)
Grid = list[list[int]]
LINES = {n: [list(range(r * n, (r + 1) * n)) for r in range(n)] + [list(range(c, n * n, n)) for c in range(n)]
         for n in range(MIN_SIDE, MAX_SIDE + 1, 2)}
DRAWS = 200  # grids drawn before giving up


class TakuzuParams(BaseModel):
    size: int = Field(DEFAULT_SIDE, ge=MIN_SIDE, le=MAX_SIDE, description="N, even: the grid is N×N.")
    difficulty: Literal["easy", "medium", "hard"] = Field(
        DIFFICULTY.default, description="What a person needs (see the type's `difficulties`): `easy` needs the rules "
                                        "alone, `medium` short trials, `hard` trials followed to the end.")
    unique_lines: bool = Field(True, description="No two rows and no two columns the same (off: Tatham's default).")

    @model_validator(mode="after")
    def _made(self) -> TakuzuParams:
        if self.size % 2:
            raise ValueError(f"size must be even, got {self.size}")
        return self


def _settle(grid: list[int], n: int, cell: int) -> bool:
    """Apply the counts and the threes to ``grid`` (flat, -1 open) from the lines through ``cell`` on, until
    nothing changes; False when one breaks."""
    half, lines, waiting = n // 2, LINES[n], {cell // n, n + cell % n}
    while waiting:
        line = lines[waiting.pop()]
        decided = []
        values = [grid[i] for i in line]
        for value in (0, 1):
            if values.count(value) > half:
                return False
            if values.count(value) == half:
                decided += [(i, 1 - value) for i in line if grid[i] < 0]
        for a, b, c in zip(line, line[1:], line[2:], strict=False):
            trio = (grid[a], grid[b], grid[c])
            if -1 not in trio and trio[0] == trio[1] == trio[2]:
                return False
            if trio.count(-1) == 1:
                gap = trio.index(-1)
                x, y = (v for v in trio if v >= 0)
                if x == y:
                    decided.append(((a, b, c)[gap], 1 - x))
        for i, value in decided:
            if grid[i] < 0:
                grid[i] = value
                waiting |= {i // n, n + i % n}
            elif grid[i] != value:
                return False
    return True


def draw_grid(n: int, unique: bool, rng: random.Random) -> Grid | None:
    """A random valid grid, as Tatham's Unruly draws one: each cell in random order takes a random value (the
    other if that breaks a rule) and the rules fill what they force; None when both values break one, or lines
    come out alike (the caller draws again)."""
    grid = [-1] * (n * n)
    for cell in rng.sample(range(n * n), n * n):
        if grid[cell] >= 0:
            continue
        for value in rng.sample((0, 1), 2):
            trial = grid[:]
            trial[cell] = value
            if _settle(trial, n, cell):
                grid = trial
                break
        else:
            return None
    rows = [grid[r * n:(r + 1) * n] for r in range(n)]
    alike = unique and (len({tuple(row) for row in rows}) < n or len(set(zip(*rows, strict=True))) < n)
    return None if alike else rows


class TakuzuGenre:
    """What the kit's generator needs: a random valid grid, and each cell's value as a clue."""

    def __init__(self, unique: bool):
        self.unique = unique

    def draw(self, params: TakuzuParams, rng: random.Random) -> tuple[int, dict[str, Grid]]:
        for _ in range(DRAWS):
            grid = draw_grid(params.size, self.unique, rng)
            if grid is not None:
                return params.size, {"grid": grid}
        raise GenerationFailed("no valid grid drawn")

    def clues(self, n: int, answer: dict[str, Grid]) -> list[Cell]:
        return [(r, c) for r in range(n) for c in range(n)]

    def puzzle(self, n: int, answer: dict[str, Grid], shown: frozenset[Cell]) -> TakuzuPuzzle:
        givens = [[v if (r, c) in shown else None for c, v in enumerate(row)] for r, row in enumerate(answer["grid"])]
        return TakuzuPuzzle(size=n, givens=givens, unique_lines=self.unique)

    def model(self, puzzle: TakuzuPuzzle) -> kit.Model:
        return model(puzzle, givens_decided=False)  # a level check shows only some of the givens


def generate_puzzle(params: TakuzuParams, seed: int, deadline: Deadline) -> Generated:
    """On the kit's array levels; a draw graded off its level is drawn again; the prover goes first at hard (below, the
    compiled checks cost less than its proofs)."""
    return make_on_levels(TakuzuGenre(params.unique_lines), TakuzuAnswer, PEOPLE, DIFFICULTY.grade, params, seed,
                          deadline, prove_from=2)


check = kit.checker(model)
solve = kit_solving.solver(model)

# Unruly's levels on ours: Trivial (threes, a line's last gap) and Easy (a line with all its 0s or 1s) are rules
# alone; Normal (a line one short of a colour, where a placement would force three alike) is a short trial.
TATHAM_LEVELS = {"t": ("easy", 0), "e": ("easy", 1), "n": ("medium", 2)}
PRESETS = tuple(TathamPreset(f"{n}x{n}d{d}", rank, {"size": n, "difficulty": ours, "unique_lines": False})
                for n, d in ((8, "t"), (8, "e"), (8, "n"), (10, "e"), (10, "n"), (14, "e"), (14, "n"))
                for ours, rank in [TATHAM_LEVELS[d]])


PUZZLE_TYPE = PuzzleType(
    name="takuzu",
    id_prefix="tak",
    summary="Fill the grid with 0s and 1s: no three alike in a row along a row or column, as many 0s as 1s in each, "
            "and no two rows or two columns the same.",
    params_model=TakuzuParams,
    puzzle_model=TakuzuPuzzle,
    answer_model=TakuzuAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="unruly",
    tatham_presets=PRESETS,
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} (even) to generate; up to 30 to solve"},
    difficulty=DIFFICULTY,
    model=model,
)
