"""The kit's sum rule (``solvers.kit.sums``): its readings (and their compiled walk, ``sums_kernel``) against
brute force over every filling, and its SAT encoding counting what brute force counts on tiny boards, on both backends."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from solvers.common import Deadline
from solvers.kit import sums_kernel
from solvers.kit.rules import Count, Digits, Model
from solvers.kit.solving import solve
from solvers.kit.sums import Sum, digit_sets, supports, ways


def test_digit_sets_are_the_sets_of_different_digits_reaching_the_total() -> None:
    for total, length in itertools.product(range(1, 46), range(1, 10)):
        expected = [s for s in itertools.combinations(range(1, 10), length) if sum(s) == total]
        assert list(digit_sets(total, length)) == expected
    assert sorted(ways([1, 2, 3, 4], 5, 10)) == [(0, 3), (1, 2)]


@pytest.mark.parametrize("seed", range(80))
def test_supports_agree_with_every_filling(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(1, 6)
    allowed = tuple(rng.randrange(1, 1 << 9) << 1 for _ in range(n))
    fillings = [f for f in itertools.permutations(range(1, 10), n) if all(allowed[i] >> d & 1 for i, d in enumerate(f))]
    total = rng.choice([None, *(sum(f) for f in fillings[:5]), rng.randrange(n, 9 * n + 1)])
    fitting = [f for f in fillings if total is None or sum(f) == total]
    expected = tuple(sum(1 << f[i] for f in {f[i]: f for f in fitting}.values()) for i in range(n)) if fitting else None
    assert supports(total, allowed) == expected
    support = np.zeros(n, np.int64)
    found = sums_kernel.supports(-1 if total is None else total, np.array(allowed, np.int64), n, support,
                                 *sums_kernel.scratch())
    assert (tuple(support.tolist()) if found else None) == expected, "the compiled walk agrees"


def tiny(seed: int) -> tuple[Model, list[tuple[tuple[int, int], ...]], list[int | None]]:
    """Two rows of two or three cells as sum rules across and down (some totals left out), digits 1..4."""
    rng = random.Random(seed)
    cols, digits = rng.choice([2, 3]), 4
    lines = [tuple((r, c) for c in range(cols)) for r in range(2)] + [((0, c), (1, c)) for c in range(cols)]
    totals = [rng.choice([None, rng.randrange(3, 4 * len(line))]) for line in lines]
    rules = [Count(tuple((r, c, d) for d in range(1, digits + 1)), 1, 1, "one", "one digit")
             for r in range(2) for c in range(cols)]
    rules += [Sum(line, digits, total, "sum", "a sum") for line, total in zip(lines, totals, strict=True)]
    return Model(Digits("digits", 2, cols, digits), tuple(rules)), lines, totals


@pytest.mark.parametrize("seed", range(16))
def test_the_encoding_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    built, lines, totals = tiny(seed)
    cols = built.layout.cols  # type: ignore[attr-defined]
    truth = 0
    for values in itertools.product(range(1, 5), repeat=2 * cols):
        grid = {(r, c): values[r * cols + c] for r in range(2) for c in range(cols)}
        held = [[grid[cell] for cell in line] for line in lines]
        truth += all(len(set(h)) == len(h) and (t is None or sum(h) == t) for h, t in zip(held, totals, strict=True))
    for backend in ("cadical", "z3"):
        outcome = solve(built, 10_000, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == truth, backend


def test_a_broken_sum_is_named_and_its_look_raises() -> None:
    rule = Sum(((0, 0), (0, 1)), 9, 3, "run-sum", "the sum 3")
    values = {(0, c, d): int(d == [1, 1][c]) for c in range(2) for d in range(1, 10)}
    assert rule.broken_by(values)  # the same digit twice
    values = {(0, c, d): int(d == [1, 2][c]) for c in range(2) for d in range(1, 10)}
    assert not rule.broken_by(values)
    look = rule.look([None] * 18)
    assert sorted(p % 9 + 1 for p, v in look if v == 0) == sorted([3, 4, 5, 6, 7, 8, 9] * 2)
