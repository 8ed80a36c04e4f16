"""The compiled Battleship techniques against the Python ones: the same legal placements, the same trials
(outcome, round of the contradiction, the round each cell was decided in) and the same solution paths,
on random states of random puzzles, including states with wrong cells, where rules break."""

from __future__ import annotations

import random

import numpy as np
import pytest

from generators.battleship import BattleshipParams, generate_unique
from solvers.battleship import kernel
from solvers.battleship import techniques as bt
from solvers.common import Deadline
from solvers.techniques.human import Contradiction, GridState, Trial
from tests.difficulty import reference_solvers


def legal_reference(board: bt.Board, values: list[int | None], remaining: dict[int, int]) -> np.ndarray:
    """The legal placements computed with numpy, independently of the kernel: what the kernel must agree with."""
    state = np.array([*(2 if v is None else v for v in values), 3], dtype=np.int8)
    ship, water, undecided = state == bt.SHIP, state == bt.WATER, state == 2
    room = board.room.copy()
    room[:-1] -= ship[board.line_cells].sum(axis=1)
    blocked = np.zeros_like(undecided)
    blocked[board.line_cells[room[:-1] <= 0]] = True
    blocked &= undecided
    new = undecided[board.cells_at].sum(axis=1)
    finished_here = (new == 0) & ~undecided[board.ends_at].any(axis=1)
    wanted_left = np.zeros(board.longest + 1, dtype=bool)
    wanted_left[list(remaining)] = True
    legal = (wanted_left[board.lengths] & ~water[board.cells_at].any(axis=1) & ~ship[board.ring_at].any(axis=1)
             & ~blocked[board.cells_at].any(axis=1) & ~finished_here & (new <= room[board.line_of]))
    return np.flatnonzero(legal)


def random_states(size: int, seed: int, count: int) -> list[tuple[bt.Board, GridState]]:
    """States of a generated puzzle: correct cells at several rates, some with a wrong cell or two."""
    rng = random.Random(seed)
    made = generate_unique(BattleshipParams(size=size), seed, Deadline.after(60))
    board = bt.board_of(made.puzzle)
    ships = [v for row in made.solution.ships for v in row]
    states = []
    for k in range(count):
        rate = rng.choice((0.1, 0.3, 0.5, 0.7))
        values: list[int | None] = [v if rng.random() < rate else None for v in ships]
        for _ in range(k % 3):  # none, one or two wrong cells
            i = rng.randrange(len(values))
            values[i] = 1 - ships[i]
        states.append((board, GridState(size, size, values)))
    return states


@pytest.mark.parametrize(("size", "seed"), [(6, 1), (8, 2), (10, 3), (15, 4)])
def test_kernel_fleet_gives_the_legal_placements_of_the_numpy_code(size: int, seed: int) -> None:
    compared = 0
    for board, state in random_states(size, seed, 12):
        try:
            fleet = bt._fleet(board, state.values)
        except Contradiction:
            assert not kernel.fleet(board.arrays, bt.as_array(state.values), bt._scratch(board))
            continue
        assert np.array_equal(fleet.legal, legal_reference(board, state.values, fleet.remaining))
        compared += 1
    assert compared


@pytest.mark.parametrize(("size", "seed"), [(6, 5), (8, 6), (10, 7), (15, 8)])
def test_kernel_trials_follow_like_the_python_trials(size: int, seed: int) -> None:
    rng = random.Random(seed)
    techniques = bt.FLEET_TRIALS.techniques
    outcomes = set()
    for board, state in random_states(size, seed, 6):
        open_cells = [i for i, v in enumerate(state.values) if v is None]
        base = bt.as_array(state.values)
        for i in rng.sample(open_cells, min(8, len(open_cells))):
            value = rng.choice((bt.SHIP, bt.WATER))
            rounds = rng.choice((1, 3, 8, 10_000))
            trial = Trial(state, board.cell(i), value, len(techniques))
            trial.follow(board, techniques, rounds)
            vals, when = np.empty(len(base), np.int8), np.empty(len(base) - 1, np.int64)
            outcome, reached = kernel.follow(board.arrays, base, i, value, rounds, vals, when, bt._scratch(board))
            outcomes.add(int(outcome))
            if trial.contradiction is not None:
                assert outcome == kernel.CONTRADICTION and reached == trial.contradiction.rounds
                continue
            assert outcome == (kernel.FINISHED if trial.finished else kernel.LIMIT)
            assert {j: int(w) for j, w in enumerate(when) if w >= 0} == trial.when
            assert [None if v == kernel.UNDECIDED else int(v) for v in vals[:-1]] == trial.state.values
    assert kernel.CONTRADICTION in outcomes and kernel.FINISHED in outcomes


@pytest.mark.parametrize(("size", "seeds"), [(8, range(6)), (10, range(3))])
def test_compiled_solver_walks_the_reference_path(size: int, seeds: range) -> None:
    for seed in seeds:
        puzzle = generate_unique(BattleshipParams(size=size), seed, Deadline.after(60)).puzzle
        ours, theirs = bt.SOLVER.run(bt.board_of(puzzle)), reference_solvers.BATTLESHIP.run(bt.board_of(puzzle))
        assert ours.steps == theirs.steps and ours.levels == theirs.levels
        graded = bt.DIFFICULTY.grade(puzzle, Deadline.after(60))  # the grader writes no sentences
        assert graded == reference_solvers.BATTLESHIP.grade_path(theirs)
        for upto in range(len(bt.SOLVER.levels)):
            assert bt.grade_within(bt.board_of(puzzle), upto, Deadline.after(60)) == (
                graded if graded.level is not None and bt.SOLVER.level_names.index(graded.level) <= upto
                else bt.Grade(None, 0.0, 0, None))


@pytest.mark.parametrize(("size", "seed"), [(6, 9), (10, 10), (15, 11)])
def test_kernel_propagation_gets_stuck_where_the_python_levels_do(size: int, seed: int) -> None:
    compared = 0
    for board, state in random_states(size, seed, 9):
        for upto in (0, 1):
            try:
                theirs = reference_solvers.BATTLESHIP.run(board, upto=upto, state=state.copy()).state.values
            except Contradiction:
                continue
            assert bt.stuck_state(board, upto, state.copy()).values == theirs
            compared += 1
    assert compared
