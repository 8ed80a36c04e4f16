"""The compiled Sudoku path (``solvers/sudoku/kernel.py``) and the forcing-chain trial change nothing a
player or the level tables see: grades, paths (sentences included) and first hints of a fixed sample
equal the stored record (``tests/data/sudoku/paths.jsonl``, written by ``capture`` below, and again only
for a change meant to alter what players see), the outline equals the Python path at every level, and
the trial equals a plain round-by-round full scan, kept below as its reference.

    PYTHONPATH=. python -m tests.difficulty.test_sudoku_kernel capture   # rewrites the sample file
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from generators import sudoku as gen
from solvers.common import Deadline
from solvers.sudoku import engine, kernel, rules
from solvers.sudoku import techniques as human

DATA = Path(__file__).parents[2] / "data" / "sudoku"
SAMPLE = DATA / "paths.jsonl"
GENERATED = [(4, "easy", 2), (6, "easy", 2), (6, "hard", 2), (6, "expert", 2), (9, "easy", 3), (9, "medium", 3),
             (9, "hard", 3), (9, "expert", 3), (16, "easy", 1), (16, "medium", 1), (16, "hard", 1), (16, "expert", 1)]
PYTHON_PATH_CELLS = 81  # larger grids' sentences are checked through the outline only (Python takes seconds there)


def _read(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines() if line.strip()]


def sample() -> Iterator[tuple[str, dict]]:
    """(label, puzzle) of the fixed sample: published puzzles of every band and generated ones at every level."""
    for name, take in (("sudoku-exchange", 1), ("sizes", 1), ("top95", 5), ("17-clue", 3), ("hardest", 40)):
        for line in _read(name)[::take]:
            yield line["id"], line["puzzle"]
    for size, level, seeds in GENERATED:
        for seed in range(seeds):
            made = gen.generate_puzzle(gen.SudokuParams(size=size, difficulty=level), seed, Deadline.never())
            yield f"generated {size} {level} seed {seed}", made.puzzle.model_dump(mode="json")


def path_json(puzzle: rules.SudokuPuzzle) -> list[list[Any]]:
    path = human.SOLVER.run(human.board_of(puzzle))
    return [[level, step.technique, step.message, [[list(d.cell), d.digit, d.eliminate] for d in step.decide],
             [list(c) for c in step.because], step.effort] for level, step in zip(path.levels, path.steps, strict=True)]


def capture() -> None:
    with SAMPLE.open("w") as out:
        for label, puzzle_json in sample():
            puzzle = rules.SudokuPuzzle.model_validate(puzzle_json)
            first = human.SOLVER.next_steps(human.board_of(puzzle), human.start(human.board_of(puzzle)))
            out.write(json.dumps({"label": label, "puzzle": puzzle_json,
                                  "grade": human.grade(puzzle, Deadline.never()).as_json(),
                                  "path": path_json(puzzle),
                                  "first": first[1][0].message if first else None}) + "\n")
            print(label, flush=True)


LINES = [json.loads(line) for line in SAMPLE.read_text().splitlines() if line.strip()] if SAMPLE.exists() else []


@pytest.mark.parametrize("line", LINES, ids=[line["label"] for line in LINES])
def test_grade_path_and_first_hint_are_unchanged(line: dict) -> None:
    puzzle = rules.SudokuPuzzle.model_validate(line["puzzle"])
    assert human.grade(puzzle, Deadline.never()).as_json() == line["grade"]
    outline = human.outline(human.board_of(puzzle, explain=False))
    assert outline.steps == [(level, technique, effort) for level, technique, _, _, _, effort in line["path"]]
    if puzzle.size ** 2 <= PYTHON_PATH_CELLS:
        assert path_json(puzzle) == line["path"]
        first = human.SOLVER.next_steps(human.board_of(puzzle), human.start(human.board_of(puzzle)))
        assert (first[1][0].message if first else None) == line["first"]


def test_the_sample_covers_every_level_and_size() -> None:
    seen = {(line["puzzle"]["size"], line["grade"]["level"]) for line in LINES}
    assert {(9, level) for level in (*human.LEVELS, None)} <= seen
    assert {(size, level) for size, level, _ in GENERATED} <= seen


def stuck_states() -> Iterator[human.Candidates]:
    """Where each level stops on published puzzles: states every technique meets."""
    for line in _read("top95")[:10] + _read("sizes")[:8]:
        model = human.board_of(rules.SudokuPuzzle.model_validate(line["puzzle"]), explain=False)
        for upto in range(len(human.LEVELS)):
            yield human.SOLVER.run(model, upto=upto).state


def test_the_outline_stops_where_the_python_path_stops_at_every_level() -> None:
    compared = 0
    for line in _read("top95")[:10] + _read("sizes") + _read("sudoku-exchange")[::4]:
        model = human.board_of(rules.SudokuPuzzle.model_validate(line["puzzle"]), explain=False)
        for upto in range(len(human.LEVELS)):
            path = human.SOLVER.run(model, upto=upto)
            outline = human.outline(model, upto=upto)
            assert outline.steps == [(level, step.technique, step.effort)
                                     for level, step in zip(path.levels, path.steps, strict=True)]
            assert (outline.state.digits, outline.state.masks, outline.state.undecided) == \
                (path.state.digits, path.state.masks, path.state.undecided)
            compared += 1
    assert compared > 200


def test_finishing_without_recording_steps_agrees_with_the_outline() -> None:
    """``finishes`` reads no steps (the compiled one the generator's swap calls, and the sliced one): at every
    level it says what the outline's state says."""
    compared, finished = 0, 0
    for line in LINES:
        n = line["puzzle"]["size"]
        if n * n > PYTHON_PATH_CELLS:
            continue
        givens = [v for row in line["puzzle"]["givens"] for v in row]
        model = human.Puzzle(human.board_for(n), tuple(givens), explain=False)
        for upto in range(len(human.LEVELS)):
            solved = human.outline(model, upto=upto).state.solved
            assert kernel.finishes(np.array(givens, dtype=np.int32), upto, *human.path_arguments(n)) == solved
            assert human.finishes(n, givens, upto, Deadline.never()) == solved
            compared, finished = compared + 1, finished + solved
    assert compared > 100 and 0 < finished < compared


def test_a_state_that_breaks_a_rule_raises_as_before() -> None:
    clash = rules.SudokuPuzzle(size=4, givens=[[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    with pytest.raises(human.Contradiction):
        human.grade(clash, Deadline.never())
    stuck = next(s for s in stuck_states() if not s.solved)
    broken = stuck.copy()
    i = broken.digits.index(0)
    broken.masks[i] = broken.masks[next(p for p in broken.board.peers[i] if broken.digits[p])]  # only a placed digit
    model = human.Puzzle(stuck.board, tuple(stuck.digits))
    with pytest.raises(human.Contradiction):
        human.SOLVER.run(model, state=broken.copy())
    with pytest.raises(human.Contradiction):
        human.outline(model, state=broken.copy())


def full_scan_trial(cand: list[int], cell: int, digit: int, n: int, rounds: int,
                    max_decided: int) -> tuple[int, list[int], list[int], tuple[int, ...]]:
    """The trial as it was written before, in plain Python: every round scans every cell, then every unit.
    Returns (round that broke, masks, placed rounds, why)."""
    g = engine.geometry(n)
    units, peers, full = g.units.tolist(), g.peers.tolist(), (1 << n) - 1
    placed, cleared, decided = [-1] * len(cand), [False] * len(cand), 0
    cand[cell], placed[cell] = 1 << (digit - 1), 0
    for rnd in range(1, rounds + 1):
        progress = False
        for i, m in enumerate(cand):
            m = cand[i]
            if m & (m - 1) == 0 and not cleared[i] and 0 <= placed[i] < rnd:
                cleared[i] = True
                for p in peers[i]:
                    if cand[p] & m:
                        cand[p] &= ~m
                        progress = True
                        if cand[p] == 0:
                            return rnd, cand, placed, (engine.NO_CANDIDATE, p, m)
                        if cand[p] & (cand[p] - 1) == 0 and placed[p] < 0:
                            placed[p], decided = rnd, decided + 1
                            if decided > max_decided:
                                return 0, cand, placed, ()
        for u, unit in enumerate(units):
            once = twice = 0
            for i in unit:
                twice |= once & cand[i]
                once |= cand[i]
            if once != full:
                return rnd, cand, placed, (engine.NO_PLACE, u, full & ~once)
            only = once & ~twice
            for i in unit:
                m = cand[i] & only
                if not m:
                    continue
                if m & (m - 1):
                    return rnd, cand, placed, (engine.TWO_DIGITS_ONE_CELL, i, m)
                if cand[i] != m:
                    cand[i], progress = m, True
                    if placed[i] < 0:
                        placed[i], decided = rnd, decided + 1
                        if decided > max_decided:
                            return 0, cand, placed, ()
        if not progress:
            return 0, cand, placed, ()
    return 0, cand, placed, ()


def test_the_trial_equals_the_full_scan() -> None:
    compared = 0
    for state in stuck_states():
        if state.solved or state.board.n != 9:
            continue
        g, n = engine.geometry(state.board.n), state.board.n
        for i in (i for i, v in enumerate(state.digits) if not v):
            for d in human.digits_of(state.masks[i]):
                for bound in (1 << 30, 4):
                    cand = np.array(state.masks, dtype=np.int32)
                    placed, why = np.zeros(len(cand), dtype=np.int32), np.zeros(3, dtype=np.int32)
                    broke = engine.trial(cand, i, d, g.units, g.peers, state.board.full, human.FORCING_ROUNDS, placed,
                                         why, bound)
                    want = full_scan_trial(list(state.masks), i, d, n, human.FORCING_ROUNDS, bound)
                    assert (broke, cand.tolist(), placed.tolist()) == want[:3]
                    assert not broke or tuple(why.tolist()) == want[3]
                    compared += 1
    assert compared > 1000


if __name__ == "__main__":
    if sys.argv[1:] != ["capture"]:
        sys.exit("usage: python -m tests.difficulty.test_sudoku_kernel capture")
    capture()
