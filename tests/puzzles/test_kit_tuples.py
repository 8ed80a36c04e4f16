"""The kit's tuple rule (``solvers.kit.tuples``) on tiny models, against brute force over every digit grid."""

from __future__ import annotations

import itertools
import random

import pytest

from solvers.common import Deadline
from solvers.kit.rules import Broken, Count, Digits, Model, Prover, check
from solvers.kit.solving import solve
from solvers.kit.tuples import Tuples

GROUP = ((0, 0), (0, 1), (1, 1))


def tuple_model(seed: int, clue: str | None = None) -> tuple[Model, list[tuple[int, ...]]]:
    """A 2×2 grid of digits 1..3 (one per cell, no Latin rule), three of its cells forming one of a random few
    tuples."""
    rng = random.Random(seed)
    tuples = sorted(rng.sample(list(itertools.product((1, 2, 3), repeat=3)), rng.randint(1, 6)))
    rules: list = [Count(tuple((r, c, d) for d in (1, 2, 3)), 1, 1, "one-digit", f"r{r + 1}c{c + 1} holds a digit")
                   for r, c in itertools.product(range(2), repeat=2)]
    rules.append(Tuples(GROUP, 3, tuple(tuples), "cage", "the cage makes its target", clue=clue))
    return Model(Digits("digits", 2, 2, 3), tuple(rules)), tuples


def grids() -> list[list[list[int]]]:
    return [[[a, b], [c, d]] for a, b, c, d in itertools.product((1, 2, 3), repeat=4)]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("backend", ["cadical", "z3"])
def test_tuples_count_as_brute_force_does_on_both_backends(seed: int, backend: str) -> None:
    model, tuples = tuple_model(seed)
    valid = [g for g in grids() if not check(model, {"digits": g})]
    assert len(valid) == 3 * len(tuples)  # r2c1 is free
    assert all((g[0][0], g[0][1], g[1][1]) in tuples for g in valid)
    assert solve(model, 1000, Deadline.after(20), backend).count == len(valid)


@pytest.mark.parametrize("seed", range(8))
def test_the_checker_names_the_cage_a_wrong_grid_breaks(seed: int) -> None:
    model, tuples = tuple_model(seed)
    wrong = next(g for g in grids() if (g[0][0], g[0][1], g[1][1]) not in tuples)
    (broken,) = check(model, {"digits": wrong})
    assert broken.rule == "cage" and [tuple(c) for c in broken.cells] == list(GROUP)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("candidates", [True, False])
def test_a_look_decides_only_what_every_fitting_grid_agrees_on(seed: int, candidates: bool) -> None:
    """From random partial states: each key the look decides has that value in every valid grid that agrees with
    the state, and a look that says broken leaves no such grid (with candidates; placed digits alone otherwise)."""
    model, _ = tuple_model(seed)
    rule = model.rules[-1]
    valid = [model.layout.read({"digits": g}) for g in grids() if not check(model, {"digits": g})]
    rng = random.Random(seed)
    for _ in range(30):
        values: list[int | None] = [None] * len(rule.cells)
        for p in rng.sample(range(len(values)), rng.randint(0, 5)):
            values[p] = 0
        if rng.random() < 0.5:
            cell = rng.randrange(3)
            values[cell * 3:cell * 3 + 3] = [0, 0, 0]
            values[cell * 3 + rng.randrange(3)] = 1
        agreeing = [v for v in valid if all(
            x is None or (not candidates and x == 0) or v[key] == x for key, x in zip(rule.cells, values, strict=True))]
        try:
            forced = rule.read(values, candidates)
        except Broken:
            assert not agreeing
            continue
        for p, value in forced:
            assert all(v[rule.cells[p]] == value for v in agreeing)


def test_a_guarded_tuple_rule_is_off_until_shown() -> None:
    model, tuples = tuple_model(3, clue="cage")
    answer = {"digits": [[tuples[0][0], tuples[0][1]], [1, tuples[0][2]]]}
    prover = Prover(model, answer)
    try:
        free = prover.other([], Deadline.after(20))
        assert free is not None
        other = prover.other(["cage"], Deadline.after(20))  # r2c1 is free: another answer always exists
        assert other is not None and (other["digits"][0][0], other["digits"][0][1], other["digits"][1][1]) in tuples
    finally:
        prover.close()
