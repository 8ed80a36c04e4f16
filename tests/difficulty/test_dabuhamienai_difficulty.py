"""Dabuhamienai difficulty: every technique sound (against generated solutions and against the SAT
solver on small random grids), single techniques on hand-made positions, Tatham's level rule for
generated puzzles, and hints that finish a puzzle."""

from __future__ import annotations

import random

import pytest

from generators.dabuhamienai import DabuhamienaiParams, generate_puzzle, generate_unique
from solvers.common import Deadline
from solvers.dabuhamienai import rules
from solvers.dabuhamienai import techniques as human
from solvers.dabuhamienai.rules import DabuhamienaiAnswer, DabuhamienaiPuzzle
from solvers.techniques.human import Contradiction, GridState, grid_hint
from tests.conftest import share

LEVELS = human.SOLVER.level_names


def path_agrees_with(puzzle: DabuhamienaiPuzzle, solution: list[list[int]]) -> human.GridState:
    """Run every technique; each decided cell must match the solution at the moment it is decided."""
    board = human.board_of(puzzle)
    path = human.SOLVER.run(board)
    for step in path.steps:
        for (r, c), value in step.decide:
            assert solution[r][c] == value, f"{step.technique} decided r{r + 1}c{c + 1}={value}: {step.message}"
    return path.state


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_every_step_agrees_with_the_generated_solution(size: int) -> None:
    for seed in range(40):
        generated = generate_unique(size, seed, Deadline.never())
        state = path_agrees_with(generated.puzzle, generated.solution.shaded)
        assert state.solved, f"size {size} seed {seed}: the techniques should finish a generated puzzle"


@pytest.mark.slow
def test_soundness_on_two_thousand_generated_puzzles() -> None:
    """A fifth of the 2,000 seeds, every size alike (all of them in `make test-whole`)."""
    for seed in share(range(2000), 5):  # 5 is prime to the 7 sizes: every size gets its share
        size = 4 + seed % 7
        generated = generate_unique(size, 10_000 + seed, Deadline.never())
        path_agrees_with(generated.puzzle, generated.solution.shaded)


def all_solutions(numbers: list[list[int]]) -> list[list[list[int]]]:
    outcome = rules.solve(DabuhamienaiPuzzle(size=len(numbers), numbers=numbers), 500, Deadline.never())
    assert outcome.complete
    return [s["shaded"] for s in outcome.solutions]


@pytest.mark.parametrize("seed", range(60))
def test_every_deduction_holds_in_every_solution_of_a_random_grid(seed: int) -> None:
    """Random numbers (often several solutions, sometimes none): the SAT solver lists every solution, and
    whatever the techniques decide must hold in all of them; a grid with none must end in a contradiction
    or a stuck state, never in a 'solution'."""
    rng = random.Random(seed)
    n = rng.choice((4, 5))
    numbers = [[rng.randint(1, n) for _ in range(n)] for _ in range(n)]
    solutions = all_solutions(numbers)
    board = human.board_of(DabuhamienaiPuzzle(size=n, numbers=numbers))
    try:
        path = human.SOLVER.run(board)
    except Contradiction:
        assert not solutions, "a contradiction on a grid that has solutions"
        return
    for step in path.steps:
        for (r, c), value in step.decide:
            assert all(s[r][c] == value for s in solutions), f"{step.technique}: {step.message}"
    if path.state.solved:
        assert path.state.grid() in solutions


def position(numbers: list[str], marks: list[str]) -> tuple[human.Board, GridState]:
    """A tiny hand-made position: digits per row, and marks '#' shaded, 'o' unshaded, '.' undecided."""
    puzzle = DabuhamienaiPuzzle(size=len(numbers), numbers=[[int(ch) for ch in row] for row in numbers])
    state = GridState.from_grid([[{"#": 1, "o": 0, ".": None}[ch] for ch in row] for row in marks])
    return human.board_of(puzzle), state


def decided(steps: list[human.Step]) -> set[tuple[tuple[int, int], int]]:
    return {d for step in steps for d in step.decide}


def test_shaded_neighbours_whiten_around_a_shaded_cell() -> None:
    board, state = position(["1234", "2341", "3412", "4123"], ["....", ".#..", "....", "...."])
    assert decided(human.shaded_neighbours(board, state)) == {((0, 1), 0), ((2, 1), 0), ((1, 0), 0), ((1, 2), 0)}


def test_duplicate_shades_the_only_cell_that_can_split_a_pair() -> None:
    board, state = position(["1213", "2341", "3412", "4123"], ["oo.o", "....", "....", "...."])
    # r1: 1 2 1 3 — the 1s at r1c1 and r1c3 with r1c1, r1c2 unshaded: r1c3 is the one left to shade.
    steps = human.duplicate(board, state)
    assert ((0, 2), 1) in decided(steps)
    assert "r1c3" in steps[0].message


def test_duplicate_sees_a_pair_with_nothing_left_to_shade() -> None:
    board, state = position(["1213", "2341", "3412", "4123"], ["ooo.", "....", "....", "...."])
    with pytest.raises(Contradiction):
        human.duplicate(board, state)


def test_last_exit_and_cut_off_keep_the_unshaded_cells_connected() -> None:
    board, state = position(["1234", "2341", "3412", "4123"], ["o#..", "....", "....", "...o"])
    assert ((1, 0), 0) in decided(human.last_exit(board, state))  # r1c1's only way out is r2c1
    board, state = position(["1234", "2341", "3412", "4123"], [".#..", "#.#.", ".#..", "...o"])
    assert ((1, 1), 0) not in decided(human.cut_off(board, state))  # r2c2 is undecided but isolated: no whites
    board, state = position(["1234", "2341", "3412", "4123"], ["o.#.", ".#..", "....", "...o"])
    # r1c1 and r1c2 reach the rest only down column 1: shading r2c1 or r3c1 would cut them off (no last
    # exit yet: r1c1 has two open neighbours), while shading r1c2 would not.
    assert decided(human.cut_off(board, state)) == {((1, 0), 0), ((2, 0), 0)}


def test_either_way_on_a_pair_finds_what_both_choices_imply() -> None:
    # r1: 2 2 at r1c1, r1c2 (one of them shaded). Shading r1c1 whitens r2c1; shading r1c2 whitens r1c1, and
    # r1c1 (a corner) then needs r2c1 as its way out: either way r2c1 is unshaded.
    board, state = position(["2213", "3341", "1432", "4123"], ["....", "....", "....", "...."])
    found = human.SOLVER.techniques()[4][1].find(board, state)  # pair-near
    assert ((1, 0), 0) in decided(found)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("size", [6, 8, 16, 30])
def test_generated_puzzle_is_of_exactly_its_level(size: int, level: str) -> None:
    for seed in range(3 if size < 30 else 1):
        generated = generate_puzzle(DabuhamienaiParams(size=size, difficulty=level), seed, Deadline.after(120))
        board = human.board_of(generated.puzzle)
        target = LEVELS.index(level)
        assert generated.difficulty is not None and generated.difficulty.level == level
        assert human.SOLVER.run(board, upto=target).state.solved
        if target > 0:
            assert not human.SOLVER.run(board, upto=target - 1).state.solved, "an easier level finishes it"
        assert rules.check(generated.puzzle, generated.solution) == []
        assert rules.other_solution(generated.puzzle.numbers, generated.solution.shaded, Deadline.never()) is None


def test_every_size_has_every_level_and_hard_starts_at_six() -> None:
    for size in (4, 15, 16, 30):
        assert DabuhamienaiParams(size=size).difficulty == "medium"
        assert DabuhamienaiParams(size=size, difficulty="easy").difficulty == "easy"
    assert DabuhamienaiParams(size=30, difficulty="hard").difficulty == "hard"
    with pytest.raises(ValueError, match="hard needs size 6 or more"):
        DabuhamienaiParams(size=5, difficulty="hard")


def test_generation_at_a_level_is_reproducible() -> None:
    for params in (DabuhamienaiParams(size=7, difficulty="hard"), DabuhamienaiParams(size=22, difficulty="easy")):
        first = generate_puzzle(params, 11, Deadline.never())
        again = generate_puzzle(params, 11, Deadline.never())
        assert first.puzzle == again.puzzle and first.difficulty == again.difficulty


def test_effort_rises_with_the_level() -> None:
    mean = {}
    for level in LEVELS:
        scores = [generate_puzzle(DabuhamienaiParams(size=7, difficulty=level), seed, Deadline.never()).difficulty.score
                  for seed in range(8)]
        mean[level] = sum(scores) / len(scores)
    assert mean["easy"] < mean["medium"] < mean["hard"], mean


def test_hints_from_an_empty_grid_solve_the_puzzle() -> None:
    generated = generate_puzzle(DabuhamienaiParams(size=8, difficulty="medium"), 3, Deadline.never())
    solution = generated.solution.shaded
    state = GridState(8, 8)
    board = human.board_of(generated.puzzle)
    for _ in range(64):
        hint = grid_hint(human.SOLVER, board, state, solution, human.VALUE_NAMES)
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        assert hint.technique != "reveal", "a medium puzzle never needs a revealed cell"
        for d in hint.decide:
            state.set(tuple(d["cell"]), d["value"])
    assert state.solved and state.grid() == solution


def test_a_wrong_cell_is_reported_as_a_mistake_and_a_stuck_player_gets_a_cell() -> None:
    generated = generate_unique(6, 2, Deadline.never())
    solution = generated.solution.shaded
    wrong = [[None] * 6 for _ in range(6)]
    r, c = next((r, c) for r in range(6) for c in range(6) if solution[r][c])
    wrong[r][c] = 0
    hint = human.DIFFICULTY.hint(generated.puzzle, human.DabuhamienaiState(shaded=wrong),
                                 DabuhamienaiAnswer(shaded=solution), Deadline.never())
    assert hint.mistakes == [[r, c]] and not hint.decide
    assert f"r{r + 1}c{c + 1}" in hint.message
    # A puzzle beyond every technique (none here, so use no techniques at all) still gets a hint: one cell.
    bare = human.HumanSolver(levels=(), start=human.start)
    hint = grid_hint(bare, human.board_of(generated.puzzle), GridState(6, 6), solution, human.VALUE_NAMES)
    assert hint.technique == "reveal" and hint.decide[0]["value"] == solution[0][0]


def test_grade_reports_level_score_steps_and_hardest() -> None:
    generated = generate_puzzle(DabuhamienaiParams(size=8, difficulty="medium"), 5, Deadline.never())
    grade = human.DIFFICULTY.grade(generated.puzzle, Deadline.never())
    assert grade.level == "medium" and grade.steps > 0 and grade.score > 0
    assert grade.hardest in {t["name"] for t in human.DIFFICULTY.levels[1]["techniques"]}
