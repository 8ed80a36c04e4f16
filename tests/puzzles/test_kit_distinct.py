"""The kit's Distinct rule (no two groups of keys hold the same values) on small models, against brute force over
every assignment of the keys, on both SAT backends; its look against every completion; the arrays skip it."""

from __future__ import annotations

import itertools
import random

import pytest

from solvers.common import Deadline
from solvers.kit.arrays import State
from solvers.kit.distinct import Distinct
from solvers.kit.rules import Broken, Cells, Count, Model, check
from solvers.kit.solving import solve


def distinct_rows(rows: int, cols: int, fixed: dict[tuple[int, int], int], ones: int | None) -> Model:
    """A grid whose rows all differ, some keys fixed, each row with ``ones`` ones when given."""
    rules: list = [Distinct(tuple(tuple((r, c) for c in range(cols)) for r in range(rows)), "alike", "rows differ")]
    rules += [Count((cell,), v, v, "fixed", f"{cell} is {v}") for cell, v in fixed.items()]
    if ones is not None:
        rules += [Count(tuple((r, c) for c in range(cols)), ones, ones, "ones", f"row {r}") for r in range(rows)]
    return Model(Cells("grid", rows, cols, "1", "0"), tuple(rules))


def brute_force(model: Model) -> list[dict]:
    keys = model.keys
    answers = [model.layout.write({k for k, b in zip(keys, bits, strict=True) if b})
               for bits in itertools.product((0, 1), repeat=len(keys))]
    return [answer for answer in answers if not check(model, answer)]


@pytest.mark.parametrize("seed", range(16))
def test_distinct_counts_as_brute_force_does_on_both_backends(seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.choice([(2, 2), (3, 2), (3, 3), (4, 2)])
    fixed = {cell: rng.randrange(2) for cell in rng.sample(list(itertools.product(range(rows), range(cols))),
                                                          rng.randrange(0, 4))}
    model = distinct_rows(rows, cols, fixed, rng.choice([None, 1]))
    truth = sorted(a["grid"] for a in brute_force(model))
    for backend in ("cadical", "z3"):
        outcome = solve(model, 1000, Deadline.after(20), backend)
        assert outcome.complete and sorted(s["grid"] for s in outcome.solutions) == truth, (backend, fixed)


@pytest.mark.parametrize("seed", range(60))
def test_the_look_decides_only_what_every_completion_agrees_on(seed: int) -> None:
    rng = random.Random(seed)
    groups, size = rng.choice([(2, 3), (3, 2), (3, 3)])
    rule = Distinct(tuple(tuple((g, i) for i in range(size)) for g in range(groups)), "alike", "groups differ")
    values: list[int | None] = [rng.randrange(2) for _ in range(groups * size)]
    for i in rng.sample(range(len(values)), rng.randrange(0, 3)):
        values[i] = None
    open_ = [i for i, v in enumerate(values) if v is None]
    completions = []
    for bits in itertools.product((0, 1), repeat=len(open_)):
        full = list(values)
        for i, bit in zip(open_, bits, strict=True):
            full[i] = bit
        if not rule.broken_by(dict(zip(rule.cells, full, strict=True))):
            completions.append(full)
    arrays_form = tuple(-1 if v is None else v for v in values)  # as ``solvers.kit.arrays`` hands it (takes_arrays)
    try:
        forced = rule.look(values)
    except Broken:
        assert not completions
        with pytest.raises(Broken):
            rule.look(arrays_form)
        return
    assert rule.look(arrays_form) == forced
    for i, value in forced:
        assert all(full[i] == value for full in completions), (values, forced)
    if len(open_) == 1 and len(completions) == 1:
        assert forced == [(open_[0], completions[0][open_[0]])]  # the one open key a decided group pins


def test_the_arrays_look_at_a_distinct_rule_only_once_it_can_decide() -> None:
    model = distinct_rows(2, 3, {(0, 0): 1, (0, 1): 0, (0, 2): 1, (1, 0): 1, (1, 1): 0}, None)
    state = State(model)
    assert state.follow() == 0
    assert state.values[model.index[(1, 2)]] == 0  # row 2 may not repeat row 1
    assert state.solved()
