"""Killer Sudoku: the cage rule against brute force, Tatham's Solo killer puzzles (unique, with the answer on file,
graded in his order), the cage techniques against the answer, generated puzzles at every level made (unique on both
backends, checked, graded, hinted to the end), and the picture."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import pytest
from pydantic import ValidationError

from bench.stats import spearman
from generators import killer_sudoku as killer
from generators.killer_sudoku import DIFFICULTY, MERGED_CAGE, KillerSudokuParams, check, generate_puzzle, solve
from generators.pipeline import Generated
from solvers.common import Deadline
from solvers.killer_sudoku.picture import render
from solvers.killer_sudoku.rules import KillerCage, KillerSudokuAnswer, KillerSudokuPuzzle, model
from solvers.killer_sudoku.tatham import parse_tatham
from solvers.killer_sudoku.techniques import SOLVER, board_of, fitting, grade
from solvers.sudoku.techniques import bit
from solvers.techniques.human import Grade
from tests.conftest import REFERENCE, read_jsonl

RULES = {"row-repeats", "column-repeats", "box-repeats", "cage-sum", "given"}


SOLO_LEVELS = ("basic", "intermediate", "advanced", "extreme", "unreasonable")
SPEARMAN = 0.95  # his level rank against ours over his 50 IDs (a puzzle no level solves above the hardest)
MADE = [(level, givens) for level in ("easy", "medium", "expert") for givens in (True, False)]


def tathams() -> list[dict]:
    return read_jsonl(REFERENCE / "killer-sudoku" / "tatham.jsonl")


def solo_levels() -> list[dict]:
    return read_jsonl(REFERENCE / "killer-sudoku" / "solo-levels.jsonl")


def follow_against(puzzle: KillerSudokuPuzzle, digits: list[list[int]]) -> set[str]:
    """Every step of the solution path agrees with the answer: placed digits are its, eliminated ones are not.
    The techniques the path took."""
    path = SOLVER.run(board_of(puzzle))
    for step in path.steps:
        for decision in step.decide:
            (r, c), d = decision.cell, decision.digit
            assert (d != digits[r][c]) if decision.eliminate else (d == digits[r][c]), step.message
    return {step.technique for step in path.steps}


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_a_cage_rule_accepts_exactly_the_different_digits_with_the_sum(size: int) -> None:
    total = random.Random(size).randrange(size * (size + 1) // 2, sum(range(10 - size, 10)) + 1)
    cells = [(0, c) for c in range(size)]
    puzzle = KillerSudokuPuzzle(givens=[[0] * 9 for _ in range(9)], cages=[KillerCage(cells=cells, sum=total)])
    rule = next(rule for rule in model(puzzle).rules if rule.code == "cage-sum")
    for digits in itertools.product(range(1, 10), repeat=size):
        values = {(0, c, d): d == digits[c] for c in range(size) for d in range(1, 10)}
        assert rule.broken_by(values) == (len(set(digits)) < size or sum(digits) != total), digits


@pytest.mark.parametrize("entry", tathams(), ids=lambda e: e["preset"])
def test_tathams_puzzles_have_their_answer_alone_on_both_backends(entry: dict) -> None:
    puzzle = parse_tatham(entry["tatham"])
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 2, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == 1 and outcome.solutions[0]["digits"] == entry["digits"]
    assert check(puzzle, KillerSudokuAnswer(digits=entry["digits"])) == []


@pytest.mark.parametrize("masks,total", [((0b111111111,) * 2, 17), ((0b1111, 0b11110000), 9), ((0b111111111,) * 5, 35),
                                         ((0b11, 0b11, 0b111111111), 12), ((0b100, 0b100), 6), ((0b1, 0b10, 0b100), 6)])
def test_a_cage_reading_keeps_every_digit_of_every_filling(masks: tuple[int, ...], total: int) -> None:
    found = [digits for digits in itertools.product(range(1, 10), repeat=len(masks)) if len(set(digits)) == len(digits)
             and sum(digits) == total and all(m & bit(d) for m, d in zip(masks, digits, strict=True))]
    held, _ = fitting(masks, total)
    assert not found or held and all(held[k] & bit(d) for digits in found for k, d in enumerate(digits))


def test_the_cage_techniques_never_rule_out_tathams_answer() -> None:
    used = set()
    for entry in tathams():
        used |= follow_against(parse_tatham(entry["tatham"]), entry["digits"])
    assert {"cage-combination", "rule-of-45"} <= used


def test_solos_levels_grade_in_his_order() -> None:
    names, his, ours = SOLVER.level_names, [], []
    for entry in solo_levels():
        level = grade(parse_tatham(entry["tatham"]), Deadline.after(120)).level
        his.append(SOLO_LEVELS.index(entry["level"]))
        ours.append(names.index(level) if level in names else len(names))
    medians = [sorted(o for h, o in zip(his, ours, strict=True) if h == k)[5] for k in range(len(SOLO_LEVELS))]
    assert medians == sorted(medians) and spearman(his, ours) >= SPEARMAN


def test_a_cage_sum_off_by_one_leaves_no_answer_or_another() -> None:
    entry = tathams()[0]
    puzzle = parse_tatham(entry["tatham"])
    puzzle.cages[0].sum += 1
    outcome = solve(puzzle, 2, Deadline.after(60), "z3")
    assert all(s["digits"] != entry["digits"] for s in outcome.solutions)
    (broken,) = check(puzzle, KillerSudokuAnswer(digits=entry["digits"]))
    assert broken.rule == "cage-sum" and sorted(map(tuple, broken.cells)) == sorted(map(tuple, puzzle.cages[0].cells))


@pytest.mark.parametrize("level,givens", MADE)
def test_generated_puzzles_are_unique_checked_and_of_their_level(level: str, givens: bool) -> None:
    params = KillerSudokuParams(difficulty=level, givens=givens)
    made = generate_puzzle(params, 1, Deadline.after(120))
    for backend in ("cadical", "z3"):
        outcome = solve(made.puzzle, 2, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == 1 and outcome.solutions[0]["digits"] == made.solution.digits
    assert made.difficulty is not None and made.difficulty.level == level
    assert grade(made.puzzle, Deadline.after(60)).level == level
    assert check(made.puzzle, made.solution) == []
    follow_against(made.puzzle, made.solution.digits)
    digits = made.solution.digits
    for r, c in [(0, 0), (4, 4), (8, 3)]:
        changed = [row[:] for row in digits]
        changed[r][c] = digits[r][c] % 9 + 1
        broken = check(made.puzzle, KillerSudokuAnswer(digits=changed))
        assert broken and {v.rule for v in broken} <= RULES and any(v.rule == "box-repeats" for v in broken)


@pytest.mark.parametrize("givens", [True, False])
def test_hard_is_refused_saying_it_is_graded_not_made_and_which_levels_are(givens: bool) -> None:
    with pytest.raises(ValidationError, match=r"difficulty 'hard' is graded, not made: .*; ask easy, medium, expert"):
        KillerSudokuParams(difficulty="hard", givens=givens)
    assert "hard" in DIFFICULTY.names  # graded: a hard puzzle read from elsewhere still gets its level


def test_sudoku_imports_nothing_of_killer() -> None:
    code = ("import sys, generators.sudoku, solvers.sudoku.techniques; "
            "print(sorted(m for m in sys.modules if 'killer' in m))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"


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


def test_without_givens_medium_merges_cages_until_a_medium_technique_is_needed() -> None:
    params = KillerSudokuParams(difficulty="medium", givens=False)
    made = generate_puzzle(params, 1, Deadline.after(120))
    assert generate_puzzle(params, 1, Deadline.after(120)).puzzle == made.puzzle
    assert not any(v for row in made.puzzle.givens for v in row) and made.stats.adjustments
    assert max(len(cage.cells) for cage in made.puzzle.cages) <= MERGED_CAGE
    assert made.difficulty is not None and made.difficulty.level == "medium"
    assert solve(made.puzzle, 2, Deadline.after(20), "z3").count == 1
    assert check(made.puzzle, made.solution) == []


def test_a_merge_past_the_level_is_not_tried_again_on_its_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each merge the walk grades, with its cells and whether it went past the level: after one went past, no
    later merge of that draw holds all its cells (it could only tell less)."""
    Cells = frozenset[tuple[int, int]]
    tried: list[tuple[Cells, bool]] = []
    merging: list[Cells] = []

    def merged(puzzle: KillerSudokuPuzzle, k: int, j: int) -> KillerSudokuPuzzle:
        merging.append(killer.union(puzzle, k, j))
        return real_merged(puzzle, k, j)

    def graded(puzzle: KillerSudokuPuzzle, deadline: Deadline) -> Grade:
        found = grade(puzzle, deadline)
        if merging:
            tried.append((merging.pop(), found.level is None))  # past expert, the top level
        return found

    real_merged = killer.merged
    monkeypatch.setattr(killer, "merged", merged)
    monkeypatch.setattr(killer, "grade", graded)
    draws: list[list[tuple[Cells, bool]]] = []
    adjust = killer.harder("expert")

    def one_draw(generated: Generated, level: Grade, rng: random.Random, deadline: Deadline) -> Generated | None:
        tried.clear()
        made = adjust(generated, level, rng, deadline)
        draws.append(tried[:])
        return made

    monkeypatch.setattr(killer, "harder", lambda level: one_draw)
    for seed in range(20):  # until enough merges went past the level to tell
        generate_puzzle(KillerSudokuParams(difficulty="expert", givens=False), seed, Deadline.after(120))
        if sum(past for draw in draws for _, past in draw) >= 30:
            break
    assert sum(past for draw in draws for _, past in draw) >= 30
    for draw in draws:
        for at, (cells, past) in enumerate(draw):
            assert not past or not any(cells <= later for later, _ in draw[at + 1:])


def test_the_picture_draws_dashed_cages_sums_and_the_solution() -> None:
    entry = tathams()[0]
    puzzle = parse_tatham(entry["tatham"])
    svg = render(puzzle, KillerSudokuAnswer(digits=entry["digits"]))
    assert svg.count('class="cage-sum"') == len(puzzle.cages) and svg.count('class="solved-digit"') == 81
    assert "stroke-dasharray" in svg
    play = render(KillerSudokuPuzzle(cages=puzzle.cages), None, play=True)
    assert play.count('class="entry"') == 81 and play.count("data-cell=") == 81
