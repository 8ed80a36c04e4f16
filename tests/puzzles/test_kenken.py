"""KenKen through the genre kit: cages' fillings and the model against brute force over every Latin square,
Tatham's Keen puzzles (unique, with the answer on file, graded in his order), generated puzzles at each level
(unique by z3, checked, graded, hinted to the end with pencil marks), and the picture."""

from __future__ import annotations

import itertools
import random

import pytest

from bench.stats import spearman
from generators import kit
from generators.kenken import DIFFICULTY, PEOPLE, Harder, KenkenGenre, KenkenParams, check, generate_puzzle, solve
from solvers.common import Deadline
from solvers.kenken.picture import render
from solvers.kenken.rules import Cage, KenkenAnswer, KenkenPuzzle, fillings, makes, model
from solvers.kenken.tatham import parse_tatham
from tests.conftest import REFERENCE, read_jsonl

TATHAM_ORDER = ["easy", "normal", "hard", "extreme", "unreasonable"]


def tathams() -> list[dict]:
    return read_jsonl(REFERENCE / "kenken" / "tatham.jsonl")


def ours() -> list[dict]:
    return read_jsonl(REFERENCE / "kenken" / "generated.jsonl")


@pytest.mark.parametrize("seed", range(20))
def test_fillings_are_every_way_to_make_the_target(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(3, 7)
    cells = [(0, 0), (0, 1)] if rng.random() < 0.5 else [(0, 0), (0, 1), (1, 1)]
    op = rng.choice(["-", "/", "+", "*"] if len(cells) == 2 else ["+", "*"])
    digits = [rng.randrange(1, n + 1) for _ in cells]
    value = {"+": sum(digits), "*": digits[0] * digits[1] * (digits[2] if len(digits) > 2 else 1),
             "-": abs(digits[0] - digits[1]), "/": max(digits) // min(digits)}[op] or 1
    cage = Cage(cells=cells, op=op, target=value)
    brute = [t for t in itertools.product(range(1, n + 1), repeat=len(cells))
             if t[0] != t[1] and (len(t) == 2 or t[1] != t[2]) and makes(op, t, value)]
    assert sorted(fillings(cage, n)) == brute


def latin_squares(n: int, rows: tuple[tuple[int, ...], ...] = ()) -> list[list[list[int]]]:
    if len(rows) == n:
        return [[list(row) for row in rows]]
    return [square for row in itertools.permutations(range(1, n + 1))
            if all(row[c] != above[c] for above in rows for c in range(n)) for square in latin_squares(n, (*rows, row))]


SQUARES4 = latin_squares(4)


@pytest.mark.parametrize("seed", range(4))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    """Random 4×4 boards (ambiguous ones too, and some with a target off the drawn square)."""
    rng = random.Random(seed)
    board, answer = KenkenGenre().draw(KenkenParams(size=4), rng)
    puzzle = KenkenGenre().puzzle(board, answer, frozenset())
    if rng.random() < 0.3:
        puzzle.cages[0].target += 1
    truth = [g for g in SQUARES4 if all(makes(cage.op, tuple(g[r][c] for r, c in cage.cells), cage.target)
                                        for cage in puzzle.cages)]
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 1000, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == len(truth), backend
        assert sorted(s["digits"] for s in outcome.solutions) == sorted(truth)


@pytest.mark.parametrize("entry", tathams(), ids=lambda e: e["tatham"])
def test_tathams_puzzles_have_their_answer_alone(entry: dict) -> None:
    puzzle = parse_tatham(entry["tatham"])
    outcome = solve(puzzle, 2, Deadline.after(60))
    assert outcome.complete and outcome.count == 1
    assert outcome.solutions[0]["digits"] == entry["digits"]
    assert check(puzzle, KenkenAnswer(digits=entry["digits"])) == []


@pytest.mark.parametrize("entry", tathams(), ids=lambda e: e["tatham"])
def test_the_grade_on_arrays_is_the_level_of_the_techniques_path(entry: dict) -> None:
    """The grade reads the levels on arrays (``solvers.kit.arrays.grade`` with the filling analysis); a person's
    techniques, followed step by step as the hints are, finish the puzzle at the same level."""
    puzzle = parse_tatham(entry["tatham"])
    assert DIFFICULTY.grade(puzzle, Deadline.after(60)).level == PEOPLE.grade(model(puzzle)).level


@pytest.mark.slow
def test_our_levels_follow_tathams() -> None:
    entries = [e for e in tathams() if e["preset"].startswith("6")]
    levels = [PEOPLE.level_names.index(DIFFICULTY.grade(parse_tatham(e["tatham"]), Deadline.after(60)).level or "extreme")
              for e in entries]
    assert spearman([TATHAM_ORDER.index(e["level"]) for e in entries], levels) >= 0.8


@pytest.mark.parametrize("entry", ours()[:6], ids=lambda e: e["tatham"])
def test_our_generated_puzzles_have_their_answer_alone(entry: dict) -> None:
    puzzle = KenkenPuzzle(**entry["puzzle"])
    assert solve(puzzle, 2, Deadline.after(60), "z3").count == 1
    assert check(puzzle, KenkenAnswer(digits=entry["digits"])) == []


def test_harder_keeps_one_answer_and_takes_a_hard_draw_to_extreme() -> None:
    """5×5 draws graded hard, each changed by ``Harder`` until it grades extreme or no change keeps one answer:
    every change tells less (fewer cages, or a cage of more fillings) and keeps its answer the only one on z3 too;
    a quarter of the draws reach extreme (the rest are drawn again), and one at the asked level is left alone."""
    params = KenkenParams(size=5, difficulty="extreme")
    harder, rng, reached, drawn = Harder(params), random.Random(0), 0, 0
    for seed in range(40):
        made = kit.make(KenkenGenre(), KenkenAnswer, params, seed, Deadline.after(60))
        graded = DIFFICULTY.grade(made.puzzle, Deadline.after(60))
        if graded.level != "hard":
            continue
        drawn += 1
        for _ in range(20):
            changed = harder(made, graded, rng, Deadline.after(60))
            if changed is None:
                break
            before, after = made.puzzle.cages, changed.puzzle.cages
            assert len(after) == len(before) - 1 or (len(after) == len(before) and sum(
                len(fillings(cage, 5)) for cage in after) > sum(len(fillings(cage, 5)) for cage in before))
            assert solve(changed.puzzle, 2, Deadline.after(60), "z3").count == 1
            assert check(changed.puzzle, changed.solution) == []
            made, graded = changed, DIFFICULTY.grade(changed.puzzle, Deadline.after(60))
            if graded.level == "extreme":
                reached += 1
                assert harder(made, graded, rng, Deadline.after(60)) is None
                break
        if drawn == 8:
            break
    assert drawn == 8 and reached >= 2


def test_add_multiply_draws_only_sums_and_products() -> None:
    made = generate_puzzle(KenkenParams(size=4, operations="add-multiply", difficulty="easy"), 2, Deadline.after(60))
    assert {cage.op for cage in made.puzzle.cages} <= {None, "+", "*"}


def test_hints_with_pencil_marks_follow_the_solution_to_the_end() -> None:
    made = generate_puzzle(KenkenParams(size=4, difficulty="normal"), 3, Deadline.after(120))
    n, solution = 4, made.solution.digits
    digits: list[list[int | None]] = [[None] * n for _ in range(n)]
    marks: list[list[list[int] | None]] = [[None] * n for _ in range(n)]
    for _ in range(n * n * n + 1):
        state = DIFFICULTY.state_model(digits=digits, candidates=marks)
        hint = DIFFICULTY.hint(made.puzzle, state, made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), d = step["cell"], step["value"]
            if step.get("eliminate"):
                assert d != solution[r][c], hint.message
                marks[r][c] = [k for k in (marks[r][c] or range(1, n + 1)) if k != d]
            else:
                assert d == solution[r][c], hint.message
                digits[r][c] = d
    else:
        pytest.fail("hints did not finish the puzzle")
    assert digits == solution


def test_the_picture_draws_cages_and_the_solution() -> None:
    entry = tathams()[0]
    puzzle = parse_tatham(entry["tatham"])
    n = puzzle.size
    svg = render(puzzle, KenkenAnswer(digits=entry["digits"]))
    assert svg.count('class="cage-label"') == len(puzzle.cages) and svg.count('class="solved-digit"') == n * n
    play = render(puzzle, None, play=True)
    assert play.count('class="entry"') == n * n and play.count("data-cell=") == n * n


def test_a_changed_digit_is_named_as_a_repeat_in_its_row() -> None:
    made = generate_puzzle(KenkenParams(size=4, difficulty="easy"), 1, Deadline.after(60))
    digits = made.solution.digits
    for r, c in itertools.product(range(4), repeat=2):
        changed = [row[:] for row in digits]
        changed[r][c] = digits[r][c] % 4 + 1
        broken = check(made.puzzle, KenkenAnswer(digits=changed))
        assert any(v.rule == "row-repeats" and [r, c] in v.cells for v in broken), (r, c)


@pytest.mark.parametrize(("size", "difficulty"), [(9, "easy"), (9, "hard"), (9, "extreme")])
def test_the_largest_size_is_made_at_every_level_through_the_service(client, size: int, difficulty: str) -> None:
    """Easy, hard and extreme at 9×9, asked as a user asks: the puzzle grades at the level and z3 finds its answer alone.
    Extreme where almost no board needs it (4×4) is a 422 that says which levels that size is made at."""
    response = client.post("/generate/kenken", params={"size": size, "difficulty": difficulty, "seed": 3})
    assert response.status_code == 201, response.text
    puzzle = KenkenPuzzle(**response.json()["puzzle"])
    assert puzzle.size == size
    assert DIFFICULTY.grade(puzzle, Deadline.after(60)).level == difficulty
    assert solve(puzzle, 2, Deadline.after(120), "z3").count == 1
    refused = client.post("/generate/kenken", params={"size": 4, "difficulty": "extreme"})
    assert refused.status_code == 422, refused.text
    assert "difficulty 'extreme' is not made at size 4" in refused.text and "up to hard" in refused.text


def test_an_ambiguous_board_is_mended_by_an_operation_its_second_answer_breaks() -> None:
    """``KenkenGenre.mend``: given a board and a second answer of it, one cage whose digits differ in the two takes
    an operation that makes another target from the second answer's digits, so the second answer breaks it."""
    params, genre, rng = KenkenParams(size=6, difficulty="extreme"), KenkenGenre(), random.Random(1)
    mended = 0
    for _ in range(30):
        board, answer = genre.draw(params, rng)
        puzzle = genre.puzzle(board, answer, frozenset())
        found = solve(puzzle, 2, Deadline.after(60), keep=2)
        if found.count < 2:
            continue
        other = next(s for s in found.solutions if s["digits"] != answer["digits"])
        changed = genre.mend(params, board, answer, other, rng)
        if changed is None:
            continue
        differs = [k for k, (a, b) in enumerate(zip(board.cages, changed.cages, strict=True)) if a != b]
        assert len(differs) == 1 and board.cages[differs[0]][0] == changed.cages[differs[0]][0]
        after = genre.puzzle(changed, answer, frozenset())
        assert check(after, KenkenAnswer(**answer)) == []
        assert check(after, KenkenAnswer(**other)) != []
        mended += 1
    assert mended >= 5
