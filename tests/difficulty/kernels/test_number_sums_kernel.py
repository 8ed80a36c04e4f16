"""The compiled Number Sums code against independent references: the exact search against the SAT model,
and the compiled look-aheads against the reference techniques in plain Python, on random puzzles and states."""

from __future__ import annotations

import random

import pytest

from generators.number_sums import random_regions, with_targets
from solvers.common import Deadline
from solvers.number_sums import techniques as human
from solvers.number_sums.rules import NumberSumsPuzzle, find_solutions
from solvers.techniques.human import Contradiction, GridState
from tests.difficulty import reference_solvers


def random_puzzle(rng: random.Random, sides: tuple[int, int], regions: bool) -> NumberSumsPuzzle:
    rows, cols = rng.randint(*sides), rng.randint(*sides)
    digits = rng.choice([range(1, 10), (1, 2, 3, 9)])  # few digits: many ties, several solutions
    numbers = [[rng.choice(digits) for _ in range(cols)] for _ in range(rows)]
    density = rng.choice([0.2, 0.35, 0.5])
    selected = [[int(rng.random() < density) for _ in range(cols)] for _ in range(rows)]
    partition = random_regions(rows, cols, rng, rng.choice([3, 6, 12])) if regions else None
    puzzle = with_targets(numbers, selected, partition)
    if rng.random() < 0.2:  # often inconsistent
        puzzle = puzzle.model_copy(update={"row_sums": [s + rng.randint(0, 2) for s in puzzle.row_sums]})
    return puzzle


@pytest.mark.parametrize("regions", [False, True])
def test_compiled_search_finds_what_cadical_finds(regions: bool) -> None:
    rng = random.Random(11 + regions)
    counts = set()
    for _ in range(60):
        puzzle = random_puzzle(rng, (2, 7), regions)
        found, count, complete = find_solutions(puzzle, 30, Deadline.after(30), "search")
        expected, expected_count, expected_complete = find_solutions(puzzle, 30, Deadline.after(30), "cadical")
        assert (count, complete) == (expected_count, expected_complete), puzzle
        if complete:
            assert sorted(found) == sorted(expected), puzzle
        counts.add(min(count, 2))
    assert counts == {0, 1, 2}  # the sample had puzzles with no, one and several solutions


def path_of(solver, puzzle: NumberSumsPuzzle, state: GridState | None = None):
    try:
        path = solver.run(human.board_of(puzzle), state=state)
    except Contradiction as broken:
        return "broken", broken.message
    return [(s.technique, s.message, s.decide, s.because, s.effort) for s in path.steps], path.levels, path.state.solved


@pytest.mark.parametrize("regions", [False, True])
def test_compiled_look_aheads_take_the_reference_path(regions: bool) -> None:
    rng = random.Random(23 + regions)
    hardest = set()
    for _ in range(30):
        puzzle = random_puzzle(rng, (6, 10), regions)
        compiled = path_of(human.SOLVER, puzzle)
        assert compiled == path_of(reference_solvers.NUMBER_SUMS, puzzle), puzzle
        if compiled[0] != "broken" and compiled[1]:
            hardest.add(max(compiled[1]))
    assert len(hardest) >= 3  # the line rule and at least two levels of look-aheads were on the paths


def test_compiled_look_aheads_agree_from_partial_states() -> None:
    rng = random.Random(5)
    looked = 0
    for _ in range(30):
        puzzle = random_puzzle(rng, (5, 8), rng.random() < 0.5)
        found, _, _ = find_solutions(puzzle, 1, Deadline.after(30), "cadical")
        if not found:
            continue
        values = [v if rng.random() < 0.3 else None for row in found[0] for v in row]
        board = human.board_of(puzzle)
        for compiled, reference in zip(human.SOLVER.techniques(), reference_solvers.NUMBER_SUMS.techniques(), strict=True):
            state = GridState(board.rows, board.cols, values[:])
            assert compiled[1].find(board, state) == reference[1].find(board, state.copy()), compiled[1].name
            looked += 1
    assert looked > 50


def test_the_easy_grade_in_one_call_is_the_solvers_grade() -> None:
    rng = random.Random(9)
    easy = stuck = 0
    for _ in range(60):
        puzzle = random_puzzle(rng, (3, 9), rng.random() < 0.5)
        if not find_solutions(puzzle, 1, Deadline.after(30), "cadical")[0]:
            continue  # a puzzle with no solution is never graded on the way to a level
        board = human.board_of(puzzle)
        fast = human.easy_grade(board)
        if human.SOLVER.run(board, upto=0).state.solved:
            assert fast == human.SOLVER.grade(board), puzzle
            easy += 1
        else:
            assert fast is None, puzzle
            stuck += 1
    assert easy > 10 and stuck > 5  # both outcomes were compared
