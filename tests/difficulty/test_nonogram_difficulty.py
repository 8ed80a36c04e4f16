"""Nonogram difficulty: the line techniques on hand-made lines, soundness on published puzzles, the fast
level check against the path, generation at each level checked by independent means (a plain
line solver written here, and CaDiCaL's own effort counters), and hints read one after another."""

from __future__ import annotations

import statistics
from functools import cache

import pytest

from generators.nonogram import NonogramParams, generate_puzzle
from solvers.common import Deadline
from solvers.nonogram import rules
from solvers.nonogram import techniques as nt
from solvers.techniques.human import GridState
from tests.conftest import REFERENCE, read_jsonl

LEVELS = nt.SOLVER.level_names
PUBLISHED = [r for name in ("webpbn", "mikix-db", "cp-literature")
             for r in read_jsonl(REFERENCE / "nonogram" / f"{name}.jsonl") if r["unique"]]
SMALL = [r for r in PUBLISHED if r["puzzle"]["rows"] * r["puzzle"]["cols"] <= 900]


def one_row(runs: list[int], cols: int) -> tuple[nt.Board, GridState]:
    """A 1-row puzzle (columns free enough) to look at what one line tells."""
    col_clues = [[] for _ in range(cols)]
    at = 0
    for run in runs:
        for c in range(at, at + run):
            col_clues[c] = [1]
        at += run + 1
    p = rules.NonogramPuzzle(rows=1, cols=cols, row_clues=[runs], col_clues=col_clues)
    board = nt.board_of(p)
    return board, nt.start(board)


def test_overlap_fills_what_every_placement_covers() -> None:
    board, state = one_row([7], 10)
    steps = nt.line_steps(board, state, [0])
    assert [s.technique for s in steps] == ["overlap"]
    assert dict(steps[0].decide) == {(0, c): 1 for c in range(3, 7)}
    assert steps[0].message == ("Row 1 (clue 7): with nothing decided in it yet, the 7 can only start in columns "
                                "1–4, so it covers columns 4–7 wherever it goes.")


def test_completed_runs_empty_the_rest() -> None:
    board, state = one_row([2, 1], 6)
    for c, v in ((0, 1), (1, 1), (2, 0), (4, 1)):
        state.set((0, c), v)
    steps = nt.line_steps(board, state, [0])
    assert [s.technique for s in steps] == ["completed-runs"]
    assert dict(steps[0].decide) == {(0, 3): 0, (0, 5): 0}
    assert "its runs are all in place" in steps[0].message


def test_line_names_the_run_that_must_cover() -> None:
    board, state = one_row([3, 1], 8)
    state.set((0, 1), 1)  # column 2 filled: only the 3 reaches it, so it starts in column 1 or 2
    state.set((0, 5), 0)
    steps = nt.line_steps(board, state, [0])
    assert [(s.technique, s.decide) for s in steps] == [("line", (((0, 2), 1),))]
    assert steps[0].message == ("Row 1 (clue 3 1): placing its runs every way that fits, the 3 can only start in "
                                "columns 1–2, so it covers column 3 wherever it goes.")


def test_a_broken_line_is_a_contradiction() -> None:
    board, state = one_row([2], 4)
    state.set((0, 0), 1)
    state.set((0, 1), 0)
    with pytest.raises(nt.Contradiction, match=r"row 1 \(clue 2\) can no longer be completed"):
        nt.line_steps(board, state, [0])


@pytest.mark.parametrize("record", SMALL, ids=[r["id"] for r in SMALL])
def test_path_is_sound_and_agrees_with_the_fast_level(record: dict) -> None:
    p = rules.NonogramPuzzle.model_validate(record["puzzle"])
    solution = record["solution"]["filled"]
    path = nt.SOLVER.run(nt.board_of(p), deadline=Deadline.after(60))
    for step in path.steps:
        for (r, c), value in step.decide:
            assert solution[r][c] == value, (step.technique, step.message)
    grade = nt.SOLVER.grade_path(path)
    fast = nt.level_index(p)
    assert grade.level == (None if fast is None else LEVELS[fast])
    if record["line_solvable"]:
        assert grade.level == "easy"
    else:
        assert grade.level != "easy"


# ---------------------------------------------------------------- generated levels, checked independently

def arrangements(runs: list[int], known: list[int | None]) -> list[list[int]]:
    """Every placement of ``runs`` that agrees with ``known`` (None undecided), by plain recursion."""
    n, out = len(known), []

    def place(j: int, start: int, line: list[int]) -> None:
        if j == len(runs):
            full = line + [0] * (n - len(line))
            if all(k is None or k == v for k, v in zip(known, full, strict=True)):
                out.append(full)
            return
        for s in range(start, n - sum(runs[j:]) - (len(runs) - j - 1) + 1):
            head = line + [0] * (s - len(line)) + [1] * runs[j] + ([0] if s + runs[j] < n else [])
            if all(k is None or k == v for k, v in zip(known, head, strict=False)):
                place(j + 1, len(head), head)

    place(0, 0, [])
    return out


def plain_line_solver(p: rules.NonogramPuzzle) -> list[list[int | None]]:
    """Wolter's "solvable line by line", written independently of the techniques: every line's
    arrangements intersected, over and over, until nothing changes."""
    grid: list[list[int | None]] = [[None] * p.cols for _ in range(p.rows)]
    changed = True
    while changed:
        changed = False
        for r, runs in enumerate(p.row_clues):
            fits = arrangements(runs, grid[r])
            for c in range(p.cols):
                values = {a[c] for a in fits}
                if grid[r][c] is None and len(values) == 1:
                    grid[r][c], changed = values.pop(), True
        for c, runs in enumerate(p.col_clues):
            fits = arrangements(runs, [grid[r][c] for r in range(p.rows)])
            for r in range(p.rows):
                values = {a[r] for a in fits}
                if grid[r][c] is None and len(values) == 1:
                    grid[r][c], changed = values.pop(), True
    return grid


def sat_effort(p: rules.NonogramPuzzle) -> int:
    """CaDiCaL's decisions plus conflicts to solve and prove the puzzle unique: an effort measure that
    owes nothing to our techniques."""
    from solvers.sat import CadicalBackend, block

    with CadicalBackend() as sat:
        model = rules.NonogramModel(sat, p)
        assert sat.solve(Deadline.after(30))
        sat.add_clause(block(sat.true_vars(), model.cells))
        assert not sat.solve(Deadline.after(30))
        stats = sat._solver.accum_stats()
        return stats["decisions"] + stats["conflicts"]


@cache
def generated(level: str, seed: int, size: int = 15) -> tuple[rules.NonogramPuzzle, float]:
    made = generate_puzzle(NonogramParams(size=size, difficulty=level), seed, Deadline.after(60))
    assert made.difficulty is not None and made.difficulty.level == level
    return made.puzzle, made.difficulty.score


SEEDS = range(20)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_generated_levels_by_tathams_rule_checked_independently(level: str) -> None:
    for seed in SEEDS:
        p, _ = generated(level, seed)
        grid = plain_line_solver(p)
        solved = all(v is not None for row in grid for v in row)
        assert solved == (level == "easy"), (level, seed)  # easy always line by line; the others never


@pytest.mark.slow
def test_levels_are_strictly_ordered_by_effort() -> None:
    sat = {level: statistics.median(sat_effort(generated(level, seed)[0]) for seed in SEEDS) for level in LEVELS}
    score = {level: statistics.median(generated(level, seed)[1] for seed in SEEDS) for level in LEVELS}
    assert sat["easy"] < sat["medium"] < sat["hard"], sat
    assert score["easy"] < score["medium"] < score["hard"], score


# ---------------------------------------------------------------- hints

def test_hints_one_after_another_solve_a_puzzle() -> None:
    made = generate_puzzle(NonogramParams(size=10, difficulty="medium"), 3, Deadline.after(60))
    solution = made.solution.filled
    state = [[None] * 10 for _ in range(10)]
    techniques = set()
    for _ in range(400):
        hint = nt.DIFFICULTY.hint(made.puzzle, nt.NonogramState(filled=state), made.solution, Deadline.after(10))
        if hint.technique == "solved":
            break
        assert hint.technique not in ("reveal", "mistakes"), hint.message
        assert hint.message and ("Row" in hint.message or "Column" in hint.message or "If r" in hint.message)
        techniques.add(hint.technique)
        for item in hint.decide:
            r, c = item["cell"]
            assert solution[r][c] == item["value"]
            state[r][c] = item["value"]
    assert state == solution and "short-chain" in techniques
    wrong = [row[:] for row in solution]
    wrong[0][0] ^= 1
    hint = nt.DIFFICULTY.hint(made.puzzle, nt.NonogramState(filled=wrong), made.solution, Deadline.after(10))
    assert hint.technique == "mistakes" and hint.mistakes == [[0, 0]]
