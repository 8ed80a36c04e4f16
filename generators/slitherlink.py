"""Slitherlink generation through the genre kit: a loop drawn as the outline of a random region of cells grown
without holes (as Tatham's generator draws it), and every cell's count of loop edges as the clues the kit's
generator shows or hides.

Levels are the kit's (a rule alone, short trials, long trials); sizes follow Simon Tatham's square-grid presets
(7×7 and 10×10) with any size from 5 to 15 on request.
"""

from __future__ import annotations

import random

from generators.kit import make_on_levels
from generators.loops import Edges, grow_region, outline
from generators.params import rectangle_params
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Cell, Deadline
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.arrays import fast
from solvers.slitherlink import picture, puzzlink, tatham
from solvers.slitherlink.rules import SlitherlinkAnswer, SlitherlinkPuzzle, around, layout, model

MIN_SIDE, MAX_SIDE = 5, 15
LOW_SHARE, HIGH_SHARE = 0.35, 0.6  # the region inside the loop: this share of the cells, drawn at random
PEOPLE = kit_human.solver()
DIFFICULTY = fast(kit_human.difficulty(PEOPLE, model, layout(1, 1), "(R+1)×C or R×(C+1) of 1 (a line), 0 (no line)"),
                  PEOPLE, model)


SlitherlinkParams = rectangle_params("SlitherlinkParams", __name__, MIN_SIDE, MAX_SIDE, 10, DIFFICULTY)


class SlitherlinkGenre:
    """What the kit's generator needs: a loop (``generators.loops``), and every cell's count as a clue."""

    def draw(self, params: SlitherlinkParams, rng: random.Random) -> tuple[None, Edges]:
        rows, cols = params.shape()
        return None, outline(grow_region(rows, cols, LOW_SHARE, HIGH_SHARE, rng), rows, cols)

    def clues(self, board: None, answer: Edges) -> list[Cell]:
        rows, cols = len(answer["vertical"]), len(answer["horizontal"][0])
        return [(r, c) for r in range(rows) for c in range(cols)]

    def puzzle(self, board: None, answer: Edges, shown: frozenset[Cell]) -> SlitherlinkPuzzle:
        rows, cols = len(answer["vertical"]), len(answer["horizontal"][0])
        clues = [[sum(answer[f][i][j] for f, i, j in around(r, c)) if (r, c) in shown else None for c in range(cols)]
                 for r in range(rows)]
        return SlitherlinkPuzzle(rows=rows, cols=cols, clues=clues)

    def model(self, puzzle: SlitherlinkPuzzle) -> kit.Model:
        return model(puzzle)


def generate_puzzle(params: SlitherlinkParams, seed: int, deadline: Deadline) -> Generated:
    """On the kit's array levels, which read a loop's rule."""
    return make_on_levels(SlitherlinkGenre(), SlitherlinkAnswer, PEOPLE, DIFFICULTY.grade, params, seed, deadline)


check = kit.checker(model)
solve = kit_solving.solver(model)


PUZZLE_TYPE = PuzzleType(
    name="slitherlink",
    id_prefix="sli",
    summary="Draw one closed loop along the grid's edges, without branches or crossings; each number counts the "
            "loop's edges around its cell.",
    params_model=SlitherlinkParams,
    puzzle_model=SlitherlinkPuzzle,
    answer_model=SlitherlinkAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="loopy",
    tatham_presets=tuple(TathamPreset(f"{size}x{size}t0d{letter}", rank, {"size": size, "difficulty": level})
                   for size in (7, 10, 15)
                   for rank, (letter, level) in enumerate((("e", "easy"), ("n", "medium"), ("t", "hard"), ("h", "hard")))),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to 30 to solve",
               "loop": f"the outline of a region of {LOW_SHARE:.0%}–{HIGH_SHARE:.0%} of the cells"},
    difficulty=DIFFICULTY,
    play_mode="edges",
    model=model,
)
