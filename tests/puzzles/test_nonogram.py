"""Nonogram rules, line solver and exact solvers: hand-made cases, brute force on small lines and grids,
the SAT backends on random grids, and every published puzzle in tests/data/nonogram."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from pydantic import ValidationError

from generators.nonogram import NonogramParams, generate_unique, puzzle_of, random_picture
from solvers.common import BudgetExceeded, Deadline, InvalidInput
from solvers.nonogram import rules
from tests.conftest import REFERENCE, WHOLE_SETS, read_jsonl, share

PUBLISHED = [record for name in ("webpbn", "mikix-db", "cp-literature")
             for record in read_jsonl(REFERENCE / "nonogram" / f"{name}.jsonl")]
# Wolter's survey added these to show that most solvers cannot finish them: ours (the search, then
# CaDiCaL) does not within 20 s either, so the service answers 503 for them (the status is unknown).
BEYOND_BUDGET = {"webpbn/18297", "webpbn/9892", "webpbn/12548"}
# Within the budget but 15-25 s of search each: ``make test-whole`` solves and counts them, CI's run
# the rest of the set.
WHOLE_SETS_ONLY = {"webpbn/8098", "webpbn/6574", "webpbn/2712"}


def puzzle(row_clues: list[list[int]], col_clues: list[list[int]]) -> rules.NonogramPuzzle:
    return rules.NonogramPuzzle(rows=len(row_clues), cols=len(col_clues), row_clues=row_clues, col_clues=col_clues)


# ---------------------------------------------------------------- the model and the checker

@pytest.mark.parametrize(("payload", "says"), [
    ({"rows": 2, "cols": 2, "row_clues": [[3], [1]], "col_clues": [[1], [1]]}, "row 1: runs 3 need 3 cells"),
    ({"rows": 2, "cols": 3, "row_clues": [[1, 1], [1]], "col_clues": [[1], [1], [1, 1]]}, "column 3: runs 1 1 need 3"),
    ({"rows": 2, "cols": 2, "row_clues": [[1], [1]], "col_clues": [[1], []]}, "row clues fill 2 cells and the column clues 1"),
    ({"rows": 2, "cols": 2, "row_clues": [[1]], "col_clues": [[1], []]}, "`row_clues` must have 2 lists"),
    ({"rows": 2, "cols": 2, "row_clues": [[1], [-1]], "col_clues": [[1], []]}, "run lengths must be 1 or more"),
    ({"rows": 101, "cols": 2, "row_clues": [], "col_clues": []}, "less than or equal to 100"),
])
def test_bad_clues_say_what_is_wrong(payload: dict, says: str) -> None:
    with pytest.raises(ValidationError, match=says):
        rules.NonogramPuzzle.model_validate(payload)


def test_a_lone_zero_is_an_empty_line() -> None:
    assert puzzle([[1], [0]], [[1], [0]]).row_clues == [[1], []]


def test_checker_names_each_wrong_line() -> None:
    p = puzzle([[2], [1]], [[1], [2]])
    assert rules.check(p, rules.NonogramAnswer(filled=[[1, 1], [0, 1]])) == []
    found = rules.check(p, rules.NonogramAnswer(filled=[[1, 1], [1, 0]]))
    assert [(v.rule, v.message) for v in found] == [
        ("column-runs", "Column 1 has runs 2; its clue is 1"),
        ("column-runs", "Column 2 has runs 1; its clue is 2"),
    ]
    assert found[0].cells == [[0, 0], [1, 0]]
    with pytest.raises(InvalidInput, match="`filled` must have 2 rows"):
        rules.check(p, rules.NonogramAnswer(filled=[[1, 1]]))
    with pytest.raises(InvalidInput, match="values outside"):
        rules.check(p, rules.NonogramAnswer(filled=[[1, 2], [0, 1]]))


# ---------------------------------------------------------------- the line solver against brute force

def arrangements(runs: list[int], n: int) -> list[list[int]]:
    """Every line of n cells whose runs are ``runs`` (independent of the DP: all 2^n lines filtered)."""
    return [list(line) for line in itertools.product((0, 1), repeat=n) if rules.runs_of(list(line)) == runs]


def test_line_solver_agrees_with_every_arrangement() -> None:
    rng = random.Random(5)
    scratch = rules.Scratch(12)
    checked = 0
    for _ in range(1500):
        n = rng.randint(1, 10)
        truth = [int(rng.random() < 0.55) for _ in range(n)]
        runs = rules.runs_of(truth) if rng.random() < 0.8 else [rng.randint(1, 3) for _ in range(rng.randint(0, 3))]
        source = truth if rng.random() < 0.7 else [rng.randint(0, 1) for _ in range(n)]
        state = [v if rng.random() < 0.3 else -1 for v in source]
        fits = [a for a in arrangements(runs, n) if all(s in (-1, v) for s, v in zip(state, a, strict=True))]
        scratch.vals[:n] = state
        ok = rules.line_solve(scratch.vals, n, np.array(runs, dtype=np.int32), scratch.fwd, scratch.bwd, scratch.zp,
                              scratch.diff, scratch.out)
        assert ok == bool(fits), (runs, state)
        if fits:
            want = [a[0] if len(set(a)) == 1 else -1 for a in zip(*fits, strict=True)]
            assert list(scratch.out[:n]) == want, (runs, state)
            checked += 1
    assert checked > 500


# ---------------------------------------------------------------- whole grids: brute force, SAT, the search

def brute_force(p: rules.NonogramPuzzle) -> list[list[list[int]]]:
    """Every solution: each row one of its arrangements, the columns checked (small grids only)."""
    options = [arrangements(runs, p.cols) for runs in p.row_clues]
    return [list(map(list, grid)) for grid in itertools.product(*options)
            if [rules.runs_of(list(col)) for col in zip(*grid, strict=True)] == p.col_clues]


def random_puzzles(count: int, low: int, high: int, seed: int) -> list[rules.NonogramPuzzle]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rows, cols = rng.randint(low, high), rng.randint(low, high)
        out.append(puzzle_of([[int(rng.random() < rng.choice((0.3, 0.5, 0.7))) for _ in range(cols)]
                              for _ in range(rows)]))
    return out


def test_search_counts_like_brute_force() -> None:
    several = 0
    for p in random_puzzles(150, 2, 5, seed=1):
        want = sorted(brute_force(p))
        found, count, complete, _ = rules.count_solutions(p, 10_000, Deadline.after(30))
        assert complete and count == len(want) and sorted(found) == want
        several += count > 1
    assert several > 20  # the random grids include plenty of ambiguous ones


@pytest.mark.parametrize("backend", ["cadical", "z3"])
def test_sat_backends_count_like_the_search(backend: str) -> None:
    for p in random_puzzles(25, 5, 9, seed=2):
        search = rules.solve(p, 50, Deadline.after(30), "search")
        sat = rules.solve(p, 50, Deadline.after(30), backend)
        assert (sat.count, sat.complete) == (search.count, search.complete)
        if search.complete:
            assert sorted(map(str, sat.solutions)) == sorted(map(str, search.solutions))


def test_other_solution_finds_the_second_one_or_proves_none() -> None:
    p = puzzle([[1], [1]], [[1], [1]])  # the two diagonals
    assert rules.other_solution(p, [[1, 0], [0, 1]], Deadline.after(5)) == [[0, 1], [1, 0]]
    unique = puzzle([[2], [1]], [[1], [2]])
    assert rules.other_solution(unique, [[1, 1], [0, 1]], Deadline.after(5)) is None


def test_search_stops_at_its_deadline_and_reports_a_partial_count() -> None:
    empty = rules.NonogramPuzzle(rows=12, cols=12, row_clues=[[1]] * 12, col_clues=[[1]] * 12)  # 12! solutions
    outcome = rules.solve(empty, 100_000, Deadline.after(0.5), "search")
    assert not outcome.complete and 2 <= outcome.count < 100_000 and outcome.status == "multiple"
    with pytest.raises(BudgetExceeded):
        rules.solve(empty, 10, Deadline.after(-1), "search")


# ---------------------------------------------------------------- published puzzles

@pytest.mark.parametrize("record", PUBLISHED, ids=[r["id"] for r in PUBLISHED])
def test_published_puzzles_are_solved_and_counted(record: dict) -> None:
    p = rules.NonogramPuzzle.model_validate(record["puzzle"])
    if record["id"] in BEYOND_BUDGET:
        pytest.skip("beyond the 20 s budget (see BEYOND_BUDGET); the test below checks it stops in time")
    if record["id"] in WHOLE_SETS_ONLY and not WHOLE_SETS:
        pytest.skip("15-25 s of search: make test-whole solves and counts it")
    outcome = rules.solve(p, 1000, Deadline.after(60), keep=2)
    if record.get("solutions_capped_at"):  # 1,000 or more: counted to the limit, or as far as the budget went
        assert 2 <= outcome.count <= 1000 and not outcome.complete
    else:
        assert outcome.complete and outcome.count == record["solutions"]
        assert record["solution"] in [s for s in outcome.solutions] or outcome.count > 2
    for found in outcome.solutions:
        assert rules.check(p, rules.NonogramAnswer(**found)) == []


@pytest.mark.slow
def test_published_puzzles_beyond_the_budget_stop_in_time() -> None:
    for record in share([r for r in PUBLISHED if r["id"] in BEYOND_BUDGET], 3):
        p = rules.NonogramPuzzle.model_validate(record["puzzle"])
        with pytest.raises(BudgetExceeded):
            rules.solve(p, 1000, Deadline.after(2), "search")


def test_line_solvable_flags_match_the_line_solver() -> None:
    """The data's `line_solvable` (computed by another solver) against our line solver's closure."""
    for record in PUBLISHED:
        engine = rules.Engine(rules.Board.of(rules.NonogramPuzzle.model_validate(record["puzzle"])))
        assert engine.close_under(0)
        assert (engine.undecided == 0) == record["line_solvable"], record["id"]


# ---------------------------------------------------------------- generation

def test_pictures_have_structure_and_about_half_filled() -> None:
    for seed in range(20):
        picture = np.array(random_picture(20, 20, random.Random(seed)))
        assert 0.43 <= picture.mean() <= 0.57
        # Smooth: most cells agree with their right and lower neighbours (noise agrees half the time).
        agree = np.mean(picture[:, 1:] == picture[:, :-1]) + np.mean(picture[1:] == picture[:-1])
        assert agree / 2 > 0.75


@pytest.mark.parametrize(("rows", "cols"), [(5, 5), (8, 13), (15, 15)])
def test_generated_puzzles_are_unique_and_reproducible(rows: int, cols: int) -> None:
    for seed in range(5):
        made = generate_unique(rows, cols, seed, Deadline.after(30))
        assert rules.check(made.puzzle, made.solution) == []
        outcome = rules.solve(made.puzzle, 10, Deadline.after(30), "cadical")  # the independent backend
        assert outcome.count == 1 and outcome.complete
        again = generate_unique(rows, cols, seed, Deadline.after(30))
        assert again.puzzle == made.puzzle


def test_params_normalise_the_shape() -> None:
    assert NonogramParams(rows=9, cols=9).model_dump(exclude_none=True) == {"size": 9, "difficulty": "easy"}
    assert NonogramParams(size=9, rows=7).shape() == (7, 9)
    with pytest.raises(ValidationError, match="greater than or equal to 5"):
        NonogramParams(size=4)
