"""Kakuro through the genre kit: the checker on the published pzprjs example, the solver against it, against our
generated puzzles pzprjs accepted and against brute force on tiny boards (both backends), generation at each
level (reproducible, unique by z3, graded at its level, the generator's array check agreeing with the kit's
levels), hints, and the picture."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from generators import kakuro
from generators.kakuro import (
    DIFFICULTY,
    PEOPLE,
    KakuroParams,
    Runs,
    check,
    draw_pattern,
    fill,
    generate_puzzle,
    level_of,
    puzzle_of,
    solve,
)
from solvers.common import Deadline, InvalidInput
from solvers.kakuro.picture import render
from solvers.kakuro.puzzlink import parse_url
from solvers.kakuro.rules import KakuroAnswer, KakuroPuzzle, model
from solvers.kit.arrays import within
from tests.conftest import REFERENCE, read_jsonl

PUBLISHED = read_jsonl(REFERENCE / "kakuro" / "pzprjs.jsonl")
OURS = read_jsonl(REFERENCE / "kakuro" / "pzprjs-checked.jsonl")


def test_the_checker_accepts_the_answer_and_names_each_broken_run() -> None:
    entry = PUBLISHED[0]
    puzzle, digits = parse_url(entry["url"]), entry["digits"]
    assert check(puzzle, KakuroAnswer(digits=digits)) == []
    wrong = [row[:] for row in digits]
    wrong[3][2] = 7  # r4c3: its across run (1+7+3+8) and its down run (3... 7+8) miss their sums
    broken = check(puzzle, KakuroAnswer(digits=wrong))
    assert {v.rule for v in broken} == {"run-sum"} and len(broken) == 2
    assert all("sum" in v.message and [3, 2] in v.cells for v in broken)
    swapped = [row[:] for row in digits]
    swapped[1][1], swapped[1][2] = 1, 1  # the same digit twice in a run
    assert any("different" in v.message for v in check(puzzle, KakuroAnswer(digits=swapped)))
    on_black = [row[:] for row in digits]
    on_black[0][0] = 5
    with pytest.raises(InvalidInput, match="r1c1"):
        check(puzzle, KakuroAnswer(digits=on_black))


@pytest.mark.parametrize("entry", PUBLISHED + OURS[::4], ids=lambda e: e["url"][-24:])
def test_published_and_pzprjs_checked_puzzles_have_their_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    outcome = solve(puzzle, 2, Deadline.after(60))
    assert outcome.complete and outcome.count == 1 and outcome.solutions[0]["digits"] == entry["digits"]


def tiny(seed: int) -> KakuroPuzzle:
    """A 3×3 or 3×4 pattern of at most 8 white cells (brute force counts its answers in seconds) with a random
    fill's sums, one perhaps changed (maybe no answer, maybe many)."""
    rng = random.Random(seed)
    while True:
        pattern = draw_pattern(3, rng.choice([3, 4]), rng)
        digits = fill(pattern, rng)
        if digits is not None and sum(row.count(0) for row in pattern) <= 8:
            break
    puzzle = puzzle_of(pattern, digits)
    if rng.random() < 0.3:
        r, c = next((r, c) for r, row in enumerate(puzzle.across) for c, v in enumerate(row) if v) \
            if any(v for row in puzzle.across for v in row) else (None, None)
        if r is not None:
            puzzle.across[r][c] += 1
    return puzzle


def brute_force(puzzle: KakuroPuzzle) -> int:
    """Every filling counted by a plain depth-first search: a run's digits different, at most its sum, and its sum
    once full."""
    white = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if not puzzle.black[r][c]]
    runs = puzzle.runs()
    grid: dict[tuple[int, int], int] = {}

    def fits() -> bool:
        for _, cells, total in runs:
            held = [grid[cell] for cell in cells if cell in grid]
            if len(set(held)) < len(held) or total is not None and (
                    sum(held) > total or len(held) == len(cells) and sum(held) != total):
                return False
        return True

    def count(k: int) -> int:
        if k == len(white):
            return 1
        found = 0
        for d in range(1, 10):
            grid[white[k]] = d
            found += count(k + 1) if fits() else 0
        del grid[white[k]]
        return found

    return count(0)


@pytest.mark.parametrize("seed", range(6))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = tiny(seed)
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 100_000, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == truth, backend


@pytest.mark.parametrize("entry", OURS[::8], ids=lambda e: e["url"][-24:])
def test_the_generators_array_check_agrees_with_the_kits_levels(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    found = level_of(puzzle)
    assert found == entry["level"]
    assert within(PEOPLE, model(puzzle), found)
    if found != "easy":
        assert not within(PEOPLE, model(puzzle), "easy")


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_each_level_is_made_at_the_largest_size_unique_and_at_its_level(level: str) -> None:
    made = generate_puzzle(KakuroParams(size=14, difficulty=level), 1, Deadline.after(120))
    assert check(made.puzzle, made.solution) == []
    assert level_of(made.puzzle) == level == DIFFICULTY.grade(made.puzzle, Deadline.after(60)).level
    for backend in ("cadical", "z3"):
        outcome = solve(made.puzzle, 2, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == 1, backend


def test_a_hopeless_fill_is_drawn_again_without_repairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Per draw, the cells the built fill leaves open and the repairs tried: a fill leaving more than ``HOPELESS``
    of its white cells open gets none, and the others may."""
    draws: list[list[int]] = []  # per draw: white cells, open after the build, repairs

    def build(runs: Runs, *args: Any) -> None:
        real_build(runs, *args)
        draws.append([len(runs.cells)])

    def opened(runs: Runs, totals: np.ndarray, deeper: bool) -> list[int]:
        found = real_open(runs, totals, deeper)
        if len(draws[-1]) == 1:
            draws[-1] += [len(found), 0]
        return found

    def change(*args: Any) -> tuple[list[int], int]:
        draws[-1][2] += 1
        return real_change(*args)

    real_build, real_open, real_change = kakuro.build, Runs.open, kakuro._best_change
    monkeypatch.setattr(kakuro, "build", build)
    monkeypatch.setattr(Runs, "open", opened)
    monkeypatch.setattr(kakuro, "_best_change", change)
    generate_puzzle(KakuroParams(size=14, difficulty="easy"), 0, Deadline.after(120))
    hopeless = [draw for draw in draws if draw[1] > kakuro.HOPELESS * draw[0]]
    assert hopeless and len(hopeless) < len(draws)
    assert all(repairs == 0 for _, _, repairs in hopeless)
    assert any(repairs for white, left, repairs in draws if left <= kakuro.HOPELESS * white)


def test_hard_is_graded_not_generated() -> None:
    with pytest.raises(ValueError, match="difficulty 'hard' is graded, not made: .*; ask easy, medium"):
        KakuroParams(difficulty="hard")


def test_hints_follow_the_solution_and_a_wrong_digit_is_named() -> None:
    made = generate_puzzle(KakuroParams(size=5, difficulty="medium"), 1, Deadline.after(120))
    solution = made.solution.digits
    digits: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(digits=digits), made.solution, Deadline.after(20))
    assert hint.decide and hint.message
    for step in hint.decide:
        (r, c), d = step["cell"], step["value"]
        assert (d != solution[r][c]) if step.get("eliminate") else (d == solution[r][c])
    r, c = next((r, c) for r in range(5) for c in range(5) if solution[r][c])
    digits[r][c] = solution[r][c] % 9 + 1
    hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(digits=digits), made.solution, Deadline.after(20))
    assert hint.technique == "mistakes" and hint.mistakes == [[r, c]]


def test_bad_urls_say_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="kakuro"):
        parse_url("https://puzz.link/p?sudoku/4/4/g")
    with pytest.raises(InvalidInput, match="outside"):
        parse_url("https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4")


def test_the_picture_draws_every_sum_and_only_white_cells_as_cells() -> None:
    entry = PUBLISHED[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, KakuroAnswer(digits=entry["digits"]))
    assert svg.count('class="solved-digit"') == 16 and svg.count('class="clue-down"') == 6
    play = render(puzzle, None, play=True)
    assert play.count('class="entry"') == 16 and play.count("data-cell=") == 16
