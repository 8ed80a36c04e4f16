"""Grades, solution paths and hints of a fixed sample, as a person would see them: what
``tests/difficulty/test_golden_paths.py`` holds the human model to, however its engines are made faster.

``python -m tests.golden capture`` writes ``tests/data/golden/<type>.jsonl`` from the code as it is.
The files are the record of what players see and the test holds the code to them, so they are written
again only for a change meant to alter grades, paths or hints.

Each line: the puzzle and its solution, the grade, the full solution path (level, technique, sentence,
cells decided and why, effort) where the type's techniques run on the shared ``HumanSolver``, and
hints: a walk from the empty state (each hint applied before the next is asked) and hints from partial
states (correct cells only, and one with a mistake).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from generators.registry import TYPES
from generators.spec import PuzzleType
from solvers.battleship import techniques as battleship
from solvers.common import Deadline
from solvers.dabuhamienai import techniques as dabuhamienai
from solvers.number_sums import techniques as number_sums
from solvers.ubongo import techniques as ubongo

GOLDEN = Path(__file__).parent / "data" / "golden"
DATA = Path(__file__).parent / "data"
HINT_WALK = 40  # hints asked one after another from the empty state
HUMAN_SOLVERS = {
    "dabuhamienai": dabuhamienai,
    "battleship": battleship,
    "number-sums": number_sums,
    "ubongo": ubongo,
}
GRID_FIELDS = {"dabuhamienai": "shaded", "battleship": "ships", "number-sums": "selected"}


def _generated(type_name: str, params: dict[str, Any], seeds: range) -> Iterator[tuple[str, dict, dict]]:
    kind = TYPES[type_name]
    for seed in seeds:
        made = kind.generate(kind.params_model(**params), seed, Deadline.never())
        yield (f"generated {json.dumps(params, sort_keys=True)} seed {seed}", made.puzzle.model_dump(mode="json"),
               made.solution.model_dump(mode="json"))


def _published(path: str, take: Callable[[list[dict]], list[dict]]) -> Iterator[tuple[str, dict, dict]]:
    lines = [json.loads(line) for line in (DATA / path).read_text().splitlines() if line.strip()]
    for line in take(lines):
        yield line["id"], line["puzzle"], line["solution"]


def _ubongo_published() -> Iterator[tuple[str, dict, dict]]:
    lines = [json.loads(line) for line in (DATA / "ubongo/m-kasahr-orig.jsonl").read_text().splitlines()]
    given = [x for x in lines if x["mode"] == "given" and x.get("coverings") == 1 and "example_solution" in x
             and len(x["pieces"]) >= 3]
    for line in given[::max(1, len(given) // 12)][:12]:
        puzzle = {"shape": line["shape"], "catalogue": line["catalogue"], "mode": "given", "pieces": line["pieces"]}
        yield line["id"], puzzle, line["example_solution"]


def sample(type_name: str) -> Iterator[tuple[str, dict, dict]]:
    """(label, puzzle, solution) of the fixed sample: generated at every level and size band, and published."""
    if type_name == "dabuhamienai":
        for size, levels in ((6, ("easy", "medium", "hard")), (8, ("easy", "medium", "hard")),
                             (10, ("easy", "medium", "hard")), (15, ("easy", "medium", "hard"))):
            for level in levels:
                yield from _generated(type_name, {"size": size, "difficulty": level}, range(3))
        yield from _generated(type_name, {"size": 22}, range(1))
        yield from _generated(type_name, {"size": 30}, range(2))
    elif type_name == "battleship":
        for size in (8, 10):
            for level in ("easy", "medium", "hard", "expert"):
                yield from _generated(type_name, {"size": size, "difficulty": level}, range(3))
        yield from _generated(type_name, {"size": 15, "difficulty": "hard"}, range(1))
        yield from _published("battleship/janko.jsonl", lambda lines: lines[::80])
        yield from _published("battleship/courses.jsonl", lambda lines: lines[::8])
    elif type_name == "number-sums":
        for params in ({"size": 7, "difficulty": "easy"}, {"size": 7, "difficulty": "medium"},
                       {"size": 8, "difficulty": "hard"}, {"size": 8, "difficulty": "expert"},
                       {"size": 8, "difficulty": "easy", "regions": True},
                       {"size": 8, "difficulty": "medium", "regions": True},
                       {"size": 9, "difficulty": "hard", "regions": True}):
            yield from _generated(type_name, params, range(2))
        yield from _published("number-sums/published.jsonl", lambda lines: lines)
    elif type_name == "ubongo":
        for pieces in (3, 4):
            for mode in ("given", "hidden"):
                for level in ("easy", "medium", "hard"):
                    yield from _generated(type_name, {"pieces": pieces, "mode": mode, "difficulty": level}, range(2))
        yield from _generated(type_name, {"pieces": 5, "mode": "hidden", "difficulty": "hard"}, range(1))
        yield from _ubongo_published()
    elif type_name == "othello":
        for level in ("easy", "medium", "hard", "expert"):
            yield from _generated(type_name, {"empties": 12, "difficulty": level}, range(2))
        yield from _generated(type_name, {"empties": 16, "difficulty": "expert"}, range(1))
        yield from _generated(type_name, {"empties": 20}, range(1))


def _step_json(type_name: str, board: Any, level: int, step: Any) -> list[Any]:
    if type_name == "ubongo":
        decide = []
        for placement in step.decide:
            k, mask = board.placements[placement]
            decide.append([board.names[k], [list(ubongo.cell_of(b)) for b in ubongo.bits_of(mask)]])
    else:
        decide = [[list(cell), value] for cell, value in step.decide]
    return [level, step.technique, step.message, decide, [list(c) for c in step.because], step.effort]


def solution_path(type_name: str, puzzle: BaseModel) -> list[list[Any]] | None:
    module = HUMAN_SOLVERS.get(type_name)
    if module is None:
        return None
    board = module.board_of(puzzle, Deadline.never()) if type_name == "ubongo" else module.board_of(puzzle)
    path = module.SOLVER.run(board)
    return [_step_json(type_name, board, level, step) for step, level in zip(path.steps, path.levels, strict=True)]


def _hint(kind: PuzzleType, puzzle: BaseModel, state: dict, solution: BaseModel) -> dict:
    difficulty = kind.difficulty
    assert difficulty is not None
    return difficulty.hint(puzzle, difficulty.state_model(**state), solution, Deadline.never()).as_json()


def hint_states(type_name: str, solution: dict, rng: random.Random) -> list[dict]:
    """Partial states a player could send: correct cells only at several fill rates, then one mistake."""
    if type_name in GRID_FIELDS:
        name = GRID_FIELDS[type_name]
        grid = solution[name]
        states = []
        for rate in (0.2, 0.5, 0.8):
            states.append({name: [[v if rng.random() < rate else None for v in row] for row in grid]})
        wrong = [[None for _ in row] for row in grid]
        r, c = rng.randrange(len(grid)), rng.randrange(len(grid[0]))
        wrong[r][c] = 1 - grid[r][c]
        states.append({name: wrong})
        return states
    if type_name == "ubongo":
        placements = solution["placements"]
        return [{"placements": placements[:k]} for k in range(1, len(placements))]
    return [{"hint": 1}, {"hint": 2}]


def hint_walk(type_name: str, kind: PuzzleType, puzzle: BaseModel, solution: dict) -> list[dict]:
    """Hints asked one after another from the empty state, each applied before the next."""
    answer = kind.answer_model(**solution)
    if type_name in GRID_FIELDS:
        name = GRID_FIELDS[type_name]
        state: dict = {name: [[None for _ in row] for row in solution[name]]}
    elif type_name == "ubongo":
        state = {"placements": []}
    else:
        return []
    walk = []
    for _ in range(HINT_WALK):
        hint = _hint(kind, puzzle, state, answer)
        walk.append(hint)
        if hint["technique"] == "solved":
            break
        for decision in hint["decide"]:
            if type_name == "ubongo":
                state["placements"].append({"piece": decision["piece"], "cells": decision["cells"]})
            else:
                (r, c), value = decision["cell"], decision["value"]
                state[name][r][c] = value
    return walk


def record(type_name: str, label: str, puzzle_json: dict, solution_json: dict) -> dict:
    kind = TYPES[type_name]
    assert kind.difficulty is not None
    puzzle = kind.puzzle_model(**puzzle_json)
    answer = kind.answer_model(**solution_json)
    rng = random.Random(label)
    states = hint_states(type_name, solution_json, rng)
    return {
        "label": label,
        "puzzle": puzzle_json,
        "solution": solution_json,
        "grade": kind.difficulty.grade(puzzle, Deadline.never()).as_json(),
        "path": solution_path(type_name, puzzle),
        "walk": hint_walk(type_name, kind, puzzle, solution_json),
        "hints": [{"state": s, "hint": _hint(kind, puzzle, s, answer)} for s in states],
    }


def capture(type_names: list[str]) -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for type_name in type_names:
        with (GOLDEN / f"{type_name}.jsonl").open("w") as out:
            for label, puzzle_json, solution_json in sample(type_name):
                out.write(json.dumps(record(type_name, label, puzzle_json, solution_json)) + "\n")
                print(type_name, label, flush=True)


def load(type_name: str) -> list[dict]:
    return [json.loads(line) for line in (GOLDEN / f"{type_name}.jsonl").read_text().splitlines() if line.strip()]


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "capture":
        sys.exit("usage: python -m tests.golden capture [type ...]")
    capture(sys.argv[2:] or [name for name, t in TYPES.items() if t.difficulty is not None])
