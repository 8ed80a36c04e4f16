"""Hashi generation through the genre kit: a network grown as Tatham's generator grows one, every island's number
shown, boards drawn until one has one answer at the level. Sizes 5 to 15 (Tatham's presets 7, 10, 15), three levels."""

from __future__ import annotations

import random
from typing import Any

from generators.kit import make_at_level
from generators.params import rectangle_params
from generators.pipeline import Generated
from generators.spec import PuzzleType, TathamPreset
from solvers.common import Cell, Deadline
from solvers.hashi import picture, puzzlink, tatham
from solvers.hashi.rules import Bridges, HashiAnswer, HashiPuzzle, model
from solvers.kit import human as kit_human
from solvers.kit import rules as kit
from solvers.kit import solving as kit_solving
from solvers.kit.network import NETWORK
from solvers.techniques.human import HumanSolver, Level

MIN_SIDE, MAX_SIDE = 5, 15
ISLAND_SHARE, LOOP_SHARE = 0.2, 0.1  # islands a board grows to, as Tatham's boards have; bridges closing a loop
MAX_GROWN = 100  # networks grown for one board with one answer; past it the kit's own checks refuse the last
DOUBLE = {"easy": 0.7, "medium": 0.5, "hard": 0.3}  # double bridges: the fewer, the more a board needs trials
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
PLAIN, JOINED = kit_human.solver(), kit_human.solver(extra=(NETWORK,))  # trials with the network's look: hard only
PEOPLE = HumanSolver((*PLAIN.levels[:2], Level("hard", (NETWORK, *JOINED.levels[2].techniques))), start=PLAIN.start)
DIFFICULTY = kit_human.difficulty(PEOPLE, model, Bridges(), "A list of {from, to, count}")
Board = list[list[int | None]]


HashiParams = rectangle_params("HashiParams", __name__, MIN_SIDE, MAX_SIDE, 10, DIFFICULTY)


def grow(rows: int, cols: int, double: float, rng: random.Random) -> dict[tuple[Cell, Cell], int]:
    """A random connected network's bridges: a line from an island runs over free water (no island, no bridge) to a
    new island, or now and then to the island it meets."""
    start = (rng.randrange(rows), rng.randrange(cols))
    islands, water, bridges = {start: None}, set(), {}  # islands in the order they grew
    target = max(2, round(ISLAND_SHARE * rows * cols * rng.uniform(0.8, 1.2)))
    for _ in range(40 * target):
        if len(islands) >= target:
            break
        (r, c), (dr, dc) = rng.choice(list(islands)), rng.choice(STEPS)
        path = []
        r, c = r + dr, c + dc
        while 0 <= r < rows and 0 <= c < cols and (r, c) not in islands and (r, c) not in water:
            path.append((r, c))
            r, c = r + dr, c + dc
        end = (r, c) if (r, c) in islands and path and rng.random() < LOOP_SHARE else None
        if end is None and len(path) >= 2:
            stop = rng.randrange(1, len(path))
            end, path = path[stop], path[:stop]
            islands[end] = None
        if end is None:
            continue
        pair = tuple(sorted((end, (path[0][0] - dr, path[0][1] - dc))))
        bridges[pair] = 2 if rng.random() < double else 1
        water.update(path)
    return bridges  # type: ignore[return-value]


class HashiGenre:
    """A board and its answer for the kit's generator; every number is shown, so there are no clues to choose."""

    def draw(self, params: HashiParams, rng: random.Random) -> tuple[Board, dict[str, Any]]:
        """A grown network whose numbers have one answer: a SAT count (milliseconds) drops the others before the
        kit's level check, which would look through every trial of a board no one can solve. The count goes
        straight to SAT: on boards of at most 15×15 its cuts cost less than the trials that settle a board first."""
        rows, cols = params.shape()
        for _ in range(MAX_GROWN):
            bridges = grow(rows, cols, DOUBLE[params.difficulty], rng)
            board: Board = [[None] * cols for _ in range(rows)]
            for (a, b), count in bridges.items():
                for r, c in (a, b):
                    board[r][c] = (board[r][c] or 0) + count
            if solve(self.puzzle(board, {}, frozenset()), 2, Deadline.after(10), settle=False).count == 1:
                break
        return board, {"bridges": [{"from": list(a), "to": list(b), "count": n} for (a, b), n in sorted(bridges.items())]}

    def clues(self, board: Board, answer: dict[str, Any]) -> list[Cell]:
        return []

    def puzzle(self, board: Board, answer: dict[str, Any], shown: frozenset[Cell]) -> HashiPuzzle:
        return HashiPuzzle(rows=len(board), cols=len(board[0]), islands=board)

    def model(self, puzzle: HashiPuzzle) -> kit.Model:
        return model(puzzle)


def generate_puzzle(params: HashiParams, seed: int, deadline: Deadline) -> Generated:
    return make_at_level(HashiGenre(), HashiAnswer, DIFFICULTY, PEOPLE, params, seed, deadline)


check = kit.checker(model)
solve = kit_solving.solver(model)


PUZZLE_TYPE = PuzzleType(
    name="hashi",
    id_prefix="has",
    summary="Join the islands with bridges along rows and columns, one or two a pair, none crossing, each island "
            "with as many bridges as its number and all of them one network.",
    params_model=HashiParams,
    puzzle_model=HashiPuzzle,
    answer_model=HashiAnswer,
    generate=generate_puzzle,
    check=check,
    solve=solve,
    render=picture.render,
    parse_url=puzzlink.parse_url,
    to_url=puzzlink.to_url,
    parse_tatham=tatham.parse_tatham,
    to_tatham=tatham.to_tatham,
    tatham_game="bridges",
    tatham_presets=tuple(TathamPreset(f"{size}x{size}i30e10m2d{rank}", rank, {"size": size, "difficulty": level})
                   for size in (7, 10, 15) for rank, level in enumerate(("easy", "medium", "hard"))),
    backends=("cadical", "z3"),
    catalogue={"sizes": f"{MIN_SIDE}–{MAX_SIDE} rows and columns to generate; up to 30 to solve",
               "islands": f"about {ISLAND_SHARE:.0%} of the cells"},
    difficulty=DIFFICULTY,
    play_mode="links",
    model=model,
)
