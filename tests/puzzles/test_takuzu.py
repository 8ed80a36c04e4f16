"""Takuzu through the genre kit: its model against brute force and a second SAT backend, Tatham's Unruly puzzles
(unique, his levels against our grade), generated puzzles at each level (reproducible, unique by z3, graded,
each wrong cell named) and hints followed to the end."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from pydantic import ValidationError

from bench.stats import spearman
from generators.takuzu import DIFFICULTY, TakuzuGenre, TakuzuParams, check, draw_grid, generate_puzzle, solve
from solvers.common import Deadline
from solvers.takuzu.picture import render
from solvers.takuzu.rules import TakuzuAnswer, TakuzuPuzzle
from solvers.takuzu.tatham import parse_tatham
from tests.conftest import REFERENCE, read_jsonl


def valid(grid: tuple[tuple[int, ...], ...], unique: bool) -> bool:
    """The rules written out plainly, apart from the model: the brute force's judge."""
    lines = [*grid, *zip(*grid, strict=True)]
    n = len(grid)
    return (all(sum(line) == n // 2 for line in lines)
            and all(len(set(line[i:i + 3])) > 1 for line in lines for i in range(n - 2))
            and (not unique or (len(set(grid)) == n and len(set(zip(*grid, strict=True))) == n)))


@cache
def all_grids(n: int, unique: bool) -> list[tuple[tuple[int, ...], ...]]:
    return [grid for bits in itertools.product((0, 1), repeat=n * n)
            if valid(grid := tuple(bits[r * n:(r + 1) * n] for r in range(n)), unique)]


@pytest.mark.parametrize("seed", range(24))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    rng = random.Random(seed)
    unique = seed % 2 == 0
    givens: list[list[int | None]] = [[None] * 4 for _ in range(4)]
    for cell in rng.sample(range(16), rng.randrange(0, 5)):
        givens[cell // 4][cell % 4] = rng.randrange(2)
    puzzle = TakuzuPuzzle(size=4, givens=givens, unique_lines=unique)
    truth = sorted([list(map(list, g)) for g in all_grids(4, unique)
                    if all(v is None or g[r][c] == v for r, row in enumerate(givens) for c, v in enumerate(row))])
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 100, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), (backend, givens, unique)
        assert sorted(s["grid"] for s in outcome.solutions) == truth


def test_the_checker_names_each_broken_rule_and_its_cells() -> None:
    puzzle = TakuzuPuzzle(size=4, givens=[[0, None, None, None], [None] * 4, [None] * 4, [None] * 4])
    assert check(puzzle, TakuzuAnswer(grid=[[0, 1, 0, 1], [1, 0, 1, 0], [1, 0, 0, 1], [0, 1, 1, 0]])) == []
    alike = check(puzzle, TakuzuAnswer(grid=[[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]]))
    assert {v.rule for v in alike} == {"same-lines"}
    rows = next(v for v in alike if "rows 1 and 3" in v.message)
    assert sorted(map(tuple, rows.cells)) == sorted([(0, c) for c in range(4)] + [(2, c) for c in range(4)])
    three = check(puzzle, TakuzuAnswer(grid=[[0, 0, 0, 1], [1, 1, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]]))
    assert {"three-alike", "unbalanced"} <= {v.rule for v in three}
    assert any(v.rule == "three-alike" and sorted(map(tuple, v.cells)) == [(0, 0), (0, 1), (0, 2)] for v in three)
    given = check(puzzle, TakuzuAnswer(grid=[[1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 0, 1], [0, 1, 1, 0]]))
    assert any(v.rule == "given" and [tuple(c) for c in v.cells] == [(0, 0)] for v in given)
    relaxed = puzzle.model_copy(update={"unique_lines": False})
    assert check(relaxed, TakuzuAnswer(grid=[[0, 1, 0, 1], [1, 0, 1, 0], [0, 1, 0, 1], [1, 0, 1, 0]])) == []


def tatham_puzzles() -> list[dict]:
    return read_jsonl(REFERENCE / "takuzu" / "tatham.jsonl")


def test_tathams_puzzles_have_their_answer_alone() -> None:
    for entry in tatham_puzzles()[::4] + tatham_puzzles()[-8:]:
        puzzle = parse_tatham(entry["tatham"])
        outcome = solve(puzzle, 2, Deadline.after(20))
        assert outcome.count == 1 and outcome.solutions[0]["grid"] == entry["grid"], entry["tatham"]
        assert check(puzzle, TakuzuAnswer(grid=entry["grid"])) == []


def test_our_levels_follow_tathams_on_his_own_puzzles() -> None:
    """His Trivial, Easy and Normal (his solver, independent of ours) against our grade: Trivial and Easy are rules
    alone (our easy), Normal needs a line one short of a colour (our medium's short trial)."""
    his, ours = [], []
    for entry in tatham_puzzles():
        if entry["preset"].startswith("8x8"):
            level = DIFFICULTY.grade(parse_tatham(entry["tatham"]), Deadline.after(20)).level
            his.append(["trivial", "easy", "normal"].index(entry["level"]))
            ours.append(["easy", "medium", "hard"].index(level) if level else 3)
    assert spearman(his, ours) >= 0.8, list(zip(his, ours, strict=True))


def test_drawn_grids_keep_every_rule() -> None:
    rng = random.Random(5)
    for n, unique in ((6, True), (8, False), (10, True)):
        grid = None
        while grid is None:
            grid = draw_grid(n, unique, rng)
        assert valid(tuple(map(tuple, grid)), unique)


def test_hints_from_an_empty_grid_follow_the_solution_to_the_end() -> None:
    made = generate_puzzle(TakuzuParams(size=6, difficulty="hard"), 2, Deadline.after(60))
    grid: list[list[int | None]] = [[None] * 6 for _ in range(6)]
    for _ in range(37):
        hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(grid=grid), made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), value = step["cell"], step["value"]
            assert value == made.solution.grid[r][c], hint.message
            grid[r][c] = value
    else:
        pytest.fail("hints did not finish the puzzle")
    assert all(made.puzzle.givens[r][c] is not None or grid[r][c] == made.solution.grid[r][c]
               for r, c in itertools.product(range(6), repeat=2))


def test_a_hint_names_a_wrong_cell() -> None:
    made = generate_puzzle(TakuzuParams(size=6, difficulty="easy"), 3, Deadline.after(60))
    r, c = next((r, c) for r, row in enumerate(made.puzzle.givens) for c, v in enumerate(row) if v is None)
    grid: list[list[int | None]] = [[None] * 6 for _ in range(6)]
    grid[r][c] = 1 - made.solution.grid[r][c]
    hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(grid=grid), made.solution, Deadline.after(20))
    assert hint.technique == "mistakes" and hint.mistakes == [[r, c]]


def test_sizes_are_even() -> None:
    with pytest.raises(ValidationError, match="even"):
        TakuzuParams(size=7)
    with pytest.raises(ValidationError, match="even"):
        TakuzuPuzzle(size=5, givens=[[None] * 5] * 5)
    with pytest.raises(ValidationError, match="givens"):
        TakuzuPuzzle(size=4, givens=[[None, 2, None, None]] + [[None] * 4] * 3)


def test_the_picture_draws_givens_and_the_answer() -> None:
    genre = TakuzuGenre(True)
    n, answer = genre.draw(TakuzuParams(size=6), random.Random(0))
    shown = frozenset([(0, 0), (1, 2), (5, 5)])
    puzzle = genre.puzzle(n, answer, shown)
    assert render(puzzle).count("<circle") == 3
    assert render(puzzle, TakuzuAnswer(**answer)).count("<circle") == 36
    played = render(puzzle, None, play=True)
    assert played.count('data-cell="') == 36 and played.count("data-given=") == 3
