"""The kit's connected-group rule (``solvers.kit.region.OneGroup``) on small grids against brute force: both SAT
backends count what brute force counts, and a person's look never decides a cell against any answer."""

from __future__ import annotations

import itertools
import random

import pytest

from solvers.common import Deadline
from solvers.kit.region import OneGroup
from solvers.kit.rules import Broken, Cells, Count, Model
from solvers.kit.solving import solve
from tests.puzzles.test_kit import brute_force


def shading(rows: int, cols: int, value: int, seed: int) -> Model:
    """Cells of ``value`` in one group, with a few random counts on random cells so the answers vary."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rules: list = [OneGroup(tuple(cells), value, "apart", "one group")]
    for k in range(rng.randrange(1, 4)):
        some = tuple(rng.sample(cells, 3))
        low = rng.randrange(0, 3)
        rules.append(Count(some, low, low + 1, f"count-{k}", "a count"))
    return Model(Cells("x", rows, cols, "on", "off"), tuple(rules))


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("value", [0, 1])
def test_one_group_counts_as_brute_force_does_on_both_backends(seed: int, value: int) -> None:
    model = shading(3, 3, value, seed)
    truth = brute_force(model)
    for backend in ("cadical", "z3"):
        outcome = solve(model, 600, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), backend
        assert sorted(map(str, outcome.solutions)) == sorted(map(str, truth))


@pytest.mark.parametrize("value", [0, 1])
def test_a_look_never_contradicts_an_answer(value: int) -> None:
    """Every partial state of a 3×3 grid: a look that decides or breaks keeps to the answers that extend it."""
    rule = OneGroup(tuple((r, c) for r in range(3) for c in range(3)), value, "apart", "one group")
    answers = [bits for bits in itertools.product((0, 1), repeat=9)
               if not rule.broken_by(dict(zip(rule.cells, bits, strict=True)))]
    rng = random.Random(value)
    for _ in range(400):
        state = [rng.choice((0, 1, None, None)) for _ in range(9)]
        fitting = [a for a in answers if all(s is None or s == v for s, v in zip(state, a, strict=True))]
        try:
            decided = rule.look(state)
        except Broken:
            assert not fitting, state
            continue
        for i, v in decided:
            assert all(a[i] == v for a in fitting), (state, i, v)


def test_a_look_finds_the_cell_that_joins_two_groups() -> None:
    rule = OneGroup(tuple((r, c) for r in range(1) for c in range(3)), 0, "apart", "one group")
    assert rule.look([0, None, 0]) == [(1, 0)]
    with pytest.raises(Broken):
        rule.look([0, 1, 0])
