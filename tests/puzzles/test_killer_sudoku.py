"""Killer Sudoku through the genre kit: cage fillings against brute force, Tatham's Solo killer puzzles (unique, with
the answer on file), generated puzzles at the quick levels (unique by z3, checked, graded, hinted to the end), a
solver cross-check on both backends, and the picture."""

from __future__ import annotations

import itertools
import random

import pytest

from generators.killer_sudoku import DIFFICULTY, MERGED_CAGE, KillerSudokuParams, check, generate_puzzle, solve
from solvers.common import Deadline
from solvers.killer_sudoku.picture import render
from solvers.killer_sudoku.rules import KillerCage, KillerSudokuAnswer, KillerSudokuPuzzle, fillings
from solvers.killer_sudoku.tatham import parse_tatham
from tests.conftest import REFERENCE, read_jsonl

RULES = {"row-repeats", "column-repeats", "box-repeats", "cage-sum", "given"}


def tathams() -> list[dict]:
    return read_jsonl(REFERENCE / "killer-sudoku" / "tatham.jsonl")


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_fillings_are_every_tuple_of_different_digits_with_the_sum(size: int) -> None:
    total = random.Random(size).randrange(size * (size + 1) // 2, sum(range(10 - size, 10)) + 1)
    cage = KillerCage(cells=[(0, c) for c in range(size)], sum=total)
    brute = [t for t in itertools.product(range(1, 10), repeat=size) if len(set(t)) == size and sum(t) == total]
    assert sorted(fillings(cage)) == brute


@pytest.mark.parametrize("entry", tathams(), ids=lambda e: e["preset"])
def test_tathams_puzzles_have_their_answer_alone_on_both_backends(entry: dict) -> None:
    puzzle = parse_tatham(entry["tatham"])
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 2, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == 1 and outcome.solutions[0]["digits"] == entry["digits"]
    assert check(puzzle, KillerSudokuAnswer(digits=entry["digits"])) == []


def test_a_cage_sum_off_by_one_leaves_no_answer_or_another() -> None:
    entry = tathams()[0]
    puzzle = parse_tatham(entry["tatham"])
    puzzle.cages[0].sum += 1
    outcome = solve(puzzle, 2, Deadline.after(60), "z3")
    assert all(s["digits"] != entry["digits"] for s in outcome.solutions)
    (broken,) = check(puzzle, KillerSudokuAnswer(digits=entry["digits"]))
    assert broken.rule == "cage-sum" and sorted(map(tuple, broken.cells)) == sorted(map(tuple, puzzle.cages[0].cells))


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_generated_puzzles_are_unique_checked_and_of_their_level(level: str) -> None:
    params = KillerSudokuParams(difficulty=level)
    made = generate_puzzle(params, 1, Deadline.after(120))
    assert solve(made.puzzle, 10, Deadline.after(20), "z3").count == 1
    assert made.difficulty is not None and made.difficulty.level == level
    assert check(made.puzzle, made.solution) == []
    digits = made.solution.digits
    for r, c in [(0, 0), (4, 4), (8, 3)]:
        changed = [row[:] for row in digits]
        changed[r][c] = digits[r][c] % 9 + 1
        broken = check(made.puzzle, KillerSudokuAnswer(digits=changed))
        assert broken and {v.rule for v in broken} <= RULES and any(v.rule == "box-repeats" for v in broken)


def test_hints_follow_the_solution_to_the_end() -> None:
    made = generate_puzzle(KillerSudokuParams(difficulty="easy"), 2, Deadline.after(120))
    solution = made.solution.digits
    digits: list[list[int | None]] = [[v or None for v in row] for row in made.puzzle.givens]
    marks: list[list[list[int] | None]] = [[None] * 9 for _ in range(9)]
    for _ in range(9 * 9 * 9 + 1):
        hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(digits=digits, candidates=marks), made.solution,
                               Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), d = step["cell"], step["value"]
            if step.get("eliminate"):
                assert d != solution[r][c], hint.message
                marks[r][c] = [k for k in (marks[r][c] or range(1, 10)) if k != d]
            else:
                assert d == solution[r][c], hint.message
                digits[r][c] = d
    else:
        pytest.fail("hints did not finish the puzzle")
    assert digits == solution


def test_without_givens_the_cages_alone_decide() -> None:
    made = generate_puzzle(KillerSudokuParams(difficulty="easy", givens=False), 1, Deadline.after(120))
    assert not any(v for row in made.puzzle.givens for v in row)
    assert solve(made.puzzle, 2, Deadline.after(20), "z3").count == 1


def test_without_givens_medium_merges_cages_until_the_filling_analysis_is_needed() -> None:
    params = KillerSudokuParams(difficulty="medium", givens=False)
    made = generate_puzzle(params, 1, Deadline.after(120))
    assert generate_puzzle(params, 1, Deadline.after(120)).puzzle == made.puzzle
    assert not any(v for row in made.puzzle.givens for v in row) and made.stats.adjustments
    assert max(len(cage.cells) for cage in made.puzzle.cages) <= MERGED_CAGE
    assert made.difficulty is not None and made.difficulty.level == "medium"
    assert solve(made.puzzle, 2, Deadline.after(20), "z3").count == 1
    assert check(made.puzzle, made.solution) == []


def test_the_picture_draws_dashed_cages_sums_and_the_solution() -> None:
    entry = tathams()[0]
    puzzle = parse_tatham(entry["tatham"])
    svg = render(puzzle, KillerSudokuAnswer(digits=entry["digits"]))
    assert svg.count('class="cage-sum"') == len(puzzle.cages) and svg.count('class="solved-digit"') == 81
    assert "stroke-dasharray" in svg
    play = render(KillerSudokuPuzzle(cages=puzzle.cages), None, play=True)
    assert play.count('class="entry"') == 81 and play.count("data-cell=") == 81
