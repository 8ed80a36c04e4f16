"""The compiled level check of plain counts (``solvers.kit.counts_kernel``) answers as the Python ``State`` does
(``solvers.kit.arrays.solves_on_state``) on random models of counts and on Light Up's boards, and the Light Up
generator makes the same puzzles with it as without it."""

from __future__ import annotations

import random

import pytest

from generators.light_up import LightUpGenre, LightUpParams, generate_puzzle
from solvers.common import Deadline
from solvers.kit import arrays, counts_kernel
from solvers.kit.arrays import TRIALS, solves_on_state
from solvers.kit.rules import Cells, Count, Model

TRIAL_SETS = ((), (TRIALS[0],), TRIALS)


def random_model(rng: random.Random) -> tuple[Model, list[str]]:
    """Counts over random keys of one row: some given, some reading a clue; the clues."""
    size = rng.randint(1, 12)
    keys = [(0, c) for c in range(size)]
    clues = [f"clue{n}" for n in range(rng.randint(0, 4))]
    rules = []
    for _ in range(rng.randint(1, 3 * size)):
        cells = tuple(rng.sample(keys, rng.randint(1, min(size, 5))))
        if rng.random() < 0.1:
            rules.append(Count(cells[:1], *(2 * [rng.randint(0, 1)]), "given", "", given=True))
            continue
        low = rng.randint(0, len(cells))
        high = rng.randint(low, len(cells)) if rng.random() < 0.6 else low
        clue = rng.choice(clues) if clues and rng.random() < 0.4 else None
        rules.append(Count(cells, low, high, "count", "", clue=clue))
    return Model(Cells("keys", 1, size, "one", "zero"), tuple(rules)), clues


def shown_sets(rng: random.Random, clues: list[str]) -> list[frozenset[str] | None]:
    return [None, frozenset(), frozenset(c for c in clues if rng.random() < 0.5)]


@pytest.mark.parametrize("seed", range(4))
def test_random_counts_answer_as_the_state(seed: int) -> None:
    rng = random.Random(seed)
    answers = []
    for _ in range(100):
        model, clues = random_model(rng)
        assert model.flat.counts_only
        for shown in shown_sets(rng, clues):
            for trials in TRIAL_SETS:
                expected = solves_on_state(model, shown, trials)
                assert counts_kernel.solves(model, shown, trials) == expected, (model, shown, trials)
                answers.append(expected)
    assert True in answers and False in answers  # the cases reach both answers


def test_keys_without_rules_answer_as_the_state() -> None:
    model = Model(Cells("keys", 1, 2, "one", "zero"), ())
    for trials in TRIAL_SETS:
        assert counts_kernel.solves(model, None, trials) == solves_on_state(model, None, trials)


@pytest.mark.parametrize(("size", "seed"), [(7, 0), (7, 1), (10, 2), (10, 3), (14, 4)])
def test_light_up_boards_answer_as_the_state(size: int, seed: int) -> None:
    genre, rng = LightUpGenre(), random.Random(seed)
    params = LightUpParams(size=size, difficulty="medium")
    answers = []
    for _ in range(6):
        board, answer = genre.draw(params, rng)
        every = frozenset(genre.clues(board, answer))
        model = genre.model(genre.puzzle(board, answer, every))
        order = sorted(every)
        for shown in (every, None, frozenset(), *(frozenset(rng.sample(order, rng.randint(0, len(order))))
                                                  for _ in range(4))):
            for trials in TRIAL_SETS:
                expected = solves_on_state(model, shown, trials)
                assert counts_kernel.solves(model, shown, trials) == expected, (size, seed, shown, trials)
                answers.append(expected)
    assert True in answers and False in answers


@pytest.mark.parametrize(("size", "difficulty", "seed"),
                         [(7, "easy", 0), (7, "medium", 1), (10, "easy", 2), (10, "medium", 3)])
def test_light_up_puzzles_unchanged(size: int, difficulty: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    params = LightUpParams(size=size, difficulty=difficulty)
    compiled = generate_puzzle(params, seed, Deadline.after(120))
    monkeypatch.setattr(arrays, "COMPILED_COUNTS", False)
    on_state = generate_puzzle(params, seed, Deadline.after(120))
    assert compiled.puzzle.model_dump() == on_state.puzzle.model_dump()
