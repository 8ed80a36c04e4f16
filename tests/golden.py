"""What every graded type makes and tells a person, on a fixed sample: the record
``tests/difficulty/test_golden_paths.py`` holds the code to, however its generators and engines are made
faster. It is each type's one "same as before": a generated line is made again from its params and seed and
must be the same puzzle; every line's grade, solution path and hints must be the same.

``python -m tests.golden capture [type ...]`` writes ``tests/data/golden/<type>.jsonl`` from the code as it is.
The files are the record of what players see, so they are written again only for a change meant to alter
puzzles, grades, paths or hints (and a new type's first file).

Each line: how it was made (params and seed, or none for a published puzzle), the puzzle and its solution, the
grade, the full solution path (level, technique, sentence, cells decided and why, effort) where the type's
techniques run on the shared ``HumanSolver`` outside the kit, and hints: a walk from the empty state (each hint
applied before the next is asked) and hints from partial states (correct cells only, and one with a mistake).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError

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
KIT_WALK = 12  # the same for a kit genre, whose hints each search the whole state again
HUMAN_SOLVERS = {
    "dabuhamienai": dabuhamienai,
    "battleship": battleship,
    "number-sums": number_sums,
    "ubongo": ubongo,
}
Line = tuple[str, dict | None, dict, dict]  # label, how it was made (params, seed), puzzle, solution


def _generated(type_name: str, params: dict[str, Any], seeds: range | list[int]) -> Iterator[Line]:
    kind = TYPES[type_name]
    for seed in seeds:
        made = kind.generate(kind.params_model(**params), seed, Deadline.never())
        yield (f"generated {json.dumps(params, sort_keys=True)} seed {seed}",
               {"params": kind.params_model(**params).model_dump(mode="json"), "seed": seed},
               made.puzzle.model_dump(mode="json"), made.solution.model_dump(mode="json"))


def _published(path: str, take: Callable[[list[dict]], list[dict]]) -> Iterator[Line]:
    lines = [json.loads(line) for line in (DATA / path).read_text().splitlines() if line.strip()]
    for line in take(lines):
        yield line["id"], None, line["puzzle"], line["solution"]


def _ubongo_published() -> Iterator[Line]:
    lines = [json.loads(line) for line in (DATA / "ubongo/m-kasahr-orig.jsonl").read_text().splitlines()]
    given = [x for x in lines if x["mode"] == "given" and x.get("coverings") == 1 and "example_solution" in x
             and len(x["pieces"]) >= 3]
    for line in given[::max(1, len(given) // 12)][:12]:
        puzzle = {"shape": line["shape"], "catalogue": line["catalogue"], "mode": "given", "pieces": line["pieces"]}
        yield line["id"], None, puzzle, line["example_solution"]


def _read_published(type_name: str) -> Iterator[Line]:
    """A few of the published puzzles in ``tests/data/<type>`` that the type reads (Tatham's game IDs, one of each
    of his levels, and puz.link URLs), with the answer our solver proves unique."""
    kind, folder = TYPES[type_name], DATA / type_name
    found: list[tuple[str, BaseModel]] = []
    tatham, seen = folder / "tatham.jsonl", set()
    if kind.parse_tatham is not None and tatham.is_file():
        for line in map(json.loads, tatham.read_text().splitlines()):
            level = line.get("level", line.get("preset"))
            if level not in seen and len(seen) < 3:
                seen.add(level)
                found.append((f"tatham {line['tatham']}", kind.parse_tatham(line["tatham"])))
    pzprjs = folder / "pzprjs.jsonl"
    if kind.parse_url is not None and pzprjs.is_file():
        for line in islice(map(json.loads, pzprjs.read_text().splitlines()), 1):
            found.append((f"url {line['url']}", kind.parse_url(line["url"])))
    for label, puzzle in found:
        solved = kind.solve(puzzle, 2, Deadline.never())
        if solved.count == 1:
            answer = kind.answer_model.model_validate(solved.solutions[0])
            yield label, None, puzzle.model_dump(mode="json"), answer.model_dump(mode="json")


def params_at(kind: PuzzleType, level: str) -> dict[str, Any] | None:
    """Parameters that make ``level``: the default size if the type makes the level there, else the size nearest
    to it that does; None if no size does."""
    size = kind.params_model.model_fields.get("size")
    tried: list[dict[str, Any]] = [{"difficulty": level}]
    bounds = {type(m).__name__: m for m in size.metadata} if size is not None else {}
    if size is not None and "Ge" in bounds and "Le" in bounds:
        low, high = bounds["Ge"].ge, bounds["Le"].le
        default = size.default if isinstance(size.default, int) else low
        tried += [{"size": n, "difficulty": level}
                  for n in sorted(range(low, high + 1), key=lambda n: (abs(n - default), n))]
    for params in tried:
        try:
            kind.params_model(**params)
        except ValidationError:
            continue
        return params
    return None


def _every_level(type_name: str, seeds: range) -> Iterator[Line]:
    """Each level the type makes, at its default size or the nearest that makes the level."""
    kind = TYPES[type_name]
    assert kind.difficulty is not None
    for level in kind.difficulty.names:
        params = params_at(kind, level)
        if params is not None:
            yield from _generated(type_name, params, seeds)


def sample(type_name: str) -> Iterator[Line]:
    """(label, made, puzzle, solution) of the fixed sample: generated at every level and size band, and published."""
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
        for mode in ("given", "hidden"):
            for level in ("easy", "medium"):
                yield from _generated(type_name, {"pieces": 5, "mode": mode, "difficulty": level}, [1])
        yield from _generated(type_name, {"pieces": 5, "mode": "given", "difficulty": "hard"}, [1])
        yield from _ubongo_published()
    elif type_name == "othello":
        for level in ("easy", "medium", "hard", "expert"):
            yield from _generated(type_name, {"empties": 12, "difficulty": level}, range(2))
        yield from _generated(type_name, {"empties": 16, "difficulty": "expert"}, range(1))
        yield from _generated(type_name, {"empties": 20}, range(1))
    elif type_name == "sudoku":
        for size, levels in ((4, ("easy",)), (6, ("easy", "hard", "expert")),
                             (9, ("easy", "medium", "hard", "expert"))):
            for symmetry in ("rotational", "none"):
                for level in levels:
                    yield from _generated(type_name, {"size": size, "symmetry": symmetry, "difficulty": level},
                                          range(3 if size == 9 else 2))
        yield from _published("sudoku/sudoku-exchange.jsonl", lambda lines: lines[::max(1, len(lines) // 4)][:4])
        yield from _published("sudoku/top95.jsonl", lambda lines: lines[:2])
    elif type_name == "nonogram":
        yield from _every_level(type_name, range(2))
        yield from _published("nonogram/webpbn.jsonl", lambda lines: lines[:3])
    else:
        yield from _every_level(type_name, range(1))
        yield from _read_published(type_name)


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


def grid_field(kind: PuzzleType) -> str | None:
    """The answer's field when the answer is one grid and a hint's state names the same grid (the cell widgets)."""
    fields = kind.answer_model.model_fields
    if len(fields) != 1 or kind.difficulty is None:
        return None
    (name, info), = fields.items()
    rows = get_args(info.annotation)
    grid = get_origin(info.annotation) is list and rows and get_origin(rows[0]) is list
    return name if grid and name in kind.difficulty.state_model.model_fields else None


class Walk:
    """A player's state as hints are applied to it, for the three shapes of state the types take: a kit
    genre's keys (its model's layout), one grid of cells (a digit may also be taken out of the pencil
    marks), and Ubongo's placements."""

    def __init__(self, type_name: str, puzzle: BaseModel, solution: dict):
        self.kind = TYPES[type_name]
        self.layout = self.kind.model(puzzle).layout if self.kind.model is not None else None
        self.grid = grid_field(self.kind)
        self.solution = solution

    @property
    def walks(self) -> bool:
        return self.layout is not None or self.grid is not None or "placements" in self.solution

    def empty(self) -> dict:
        if self.layout is not None:
            self.decided: dict = {}
            return self.layout.state_of(self.decided)
        if self.grid is not None:
            return {self.grid: [[None for _ in row] for row in self.solution[self.grid]]}
        return {"placements": []}

    def apply(self, state: dict, decision: dict) -> dict:
        if self.layout is not None:
            key, value = self.layout.decision(decision)
            self.decided[key] = value
            return self.layout.state_of(self.decided)
        if self.grid is None:
            state["placements"].append({"piece": decision["piece"], "cells": decision["cells"]})
            return state
        (r, c), value = decision["cell"], decision["value"]
        if not decision.get("eliminate"):
            state[self.grid][r][c] = value
            return state
        marks = state.setdefault("candidates", [[None for _ in row] for row in state[self.grid]])
        every = range(1, len(state[self.grid]) + 1)
        marks[r][c] = [d for d in (marks[r][c] or every) if d != value]
        return state


def hint_states(type_name: str, puzzle: BaseModel, solution: dict, rng: random.Random) -> list[dict]:
    """Partial states a player could send: correct cells only at several fill rates, then one mistake."""
    kind = TYPES[type_name]
    if kind.model is not None:
        layout = kind.model(puzzle).layout
        target = layout.read(solution)
        keys = sorted(target, key=repr)
        states = [layout.state_of({k: target[k] for k in keys if rng.random() < rate}) for rate in (0.2, 0.5, 0.8)]
        wrong = rng.choice(keys)
        return [*states, layout.state_of({wrong: 1 - target[wrong]})]
    name = grid_field(kind)
    if name is not None:
        grid = solution[name]
        states = []
        for rate in (0.2, 0.5, 0.8):
            states.append({name: [[v if rng.random() < rate else None for v in row] for row in grid]})
        wrong = [[None for _ in row] for row in grid]
        r, c = rng.randrange(len(grid)), rng.randrange(len(grid[0]))
        wrong[r][c] = 1 - grid[r][c] if max(max(row) for row in grid) == 1 else grid[r][c] % len(grid) + 1
        states.append({name: wrong})
        return states
    if "placements" in solution:
        placements = solution["placements"]
        return [{"placements": placements[:k]} for k in range(1, len(placements))]
    return [{"hint": 1}, {"hint": 2}]


def hint_walk(type_name: str, puzzle: BaseModel, solution: dict) -> list[dict]:
    """Hints asked one after another from the empty state, each applied before the next."""
    kind = TYPES[type_name]
    answer, walker = kind.answer_model(**solution), Walk(type_name, puzzle, solution)
    if not walker.walks:
        return []
    state, walk = walker.empty(), []
    for _ in range(KIT_WALK if kind.model is not None else HINT_WALK):
        hint = _hint(kind, puzzle, state, answer)
        walk.append(hint)
        if hint["technique"] == "solved":
            break
        for decision in hint["decide"]:
            state = walker.apply(state, decision)
    return walk


def record(type_name: str, label: str, made: dict | None, puzzle_json: dict, solution_json: dict) -> dict:
    kind = TYPES[type_name]
    assert kind.difficulty is not None
    puzzle = kind.puzzle_model(**puzzle_json)
    answer = kind.answer_model(**solution_json)
    rng = random.Random(label)
    states = hint_states(type_name, puzzle, solution_json, rng)
    return {
        "label": label,
        "made": made,
        "puzzle": puzzle_json,
        "solution": solution_json,
        "grade": kind.difficulty.grade(puzzle, Deadline.never()).as_json(),
        "path": solution_path(type_name, puzzle),
        "walk": hint_walk(type_name, puzzle, solution_json),
        "hints": [{"state": s, "hint": _hint(kind, puzzle, s, answer)} for s in states],
    }


def made_again(type_name: str, made: dict) -> tuple[dict, dict, str | None]:
    """The puzzle, solution and level the type generates now for a line's params and seed."""
    kind = TYPES[type_name]
    again = kind.generate(kind.params_model(**made["params"]), made["seed"], Deadline.never())
    level = again.difficulty.level if again.difficulty is not None else None
    return again.puzzle.model_dump(mode="json"), again.solution.model_dump(mode="json"), level


def graded_types() -> list[str]:
    return sorted(name for name, kind in TYPES.items() if kind.difficulty is not None)


def capture(type_names: list[str]) -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for type_name in type_names:
        with (GOLDEN / f"{type_name}.jsonl").open("w") as out:
            for label, made, puzzle_json, solution_json in sample(type_name):
                out.write(json.dumps(record(type_name, label, made, puzzle_json, solution_json)) + "\n")
                print(type_name, label, flush=True)


def load(type_name: str) -> list[dict]:
    path = GOLDEN / f"{type_name}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.is_file() else []


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "capture":
        sys.exit("usage: python -m tests.golden capture [type ...]")
    capture(sys.argv[2:] or graded_types())
