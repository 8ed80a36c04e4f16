"""The kit's pairing rule (``Matching``) and spaced line count (``Spaced``) on small random models: SAT on both
backends counts what brute force counts, and a person's look decides only what every answer agrees on."""

from __future__ import annotations

import itertools
import random

import pytest

from solvers.common import Deadline
from solvers.kit.matching import Matching, perfect
from solvers.kit.rules import Broken, Cells, Model
from solvers.kit.solving import solve
from solvers.kit.spaced import Spaced
from tests.puzzles.test_kit import brute_force


def pairing(seed: int) -> Model:
    """Up to four owners, each with one to three of six keys."""
    rng = random.Random(seed)
    keys = [(0, i) for i in range(6)]
    owners = tuple(((1, o), tuple(rng.sample(keys, rng.randint(1, 3)))) for o in range(rng.randint(1, 4)))
    return Model(Cells("x", 1, 6, "taken", "free"), (Matching(owners, "pairs", "each owner takes its own key"),))


def spaced(seed: int) -> Model:
    """A line of up to seven keys, with gaps between some, and its count."""
    rng = random.Random(seed)
    at = tuple(sorted(rng.sample(range(9), rng.randint(1, 7))))
    cells = tuple((0, i) for i in range(len(at)))
    return Model(Cells("x", 1, len(at), "one", "zero"), (Spaced(cells, at, rng.randint(0, 4), "line", "the line"),))


def apart(model: Model, answer: dict) -> bool:
    """No two 1s of a spaced line at neighbouring places: what the rule's look also knows."""
    rule = model.rules[0]
    assert isinstance(rule, Spaced)
    ones = [p for p, v in zip(rule.at, answer["x"][0], strict=True) if v]
    return all(b - a > 1 for a, b in itertools.pairwise(ones))


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("make", [pairing, spaced])
def test_sat_counts_what_brute_force_counts_on_both_backends(make, seed: int) -> None:
    model = make(seed)
    truth = sorted(a["x"] for a in brute_force(model))
    for backend in ("cadical", "z3"):
        outcome = solve(model, 200, Deadline.after(20), backend)
        assert outcome.complete and sorted(a["x"] for a in outcome.solutions) == truth, backend


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("make", [pairing, spaced])
def test_a_look_decides_only_what_every_answer_agrees_on(make, seed: int) -> None:
    model = make(seed)
    rule = model.rules[0]
    answers = [a["x"][0] for a in brute_force(model) if make is pairing or apart(model, a)]
    rng = random.Random(seed)
    for _ in range(20):
        values = [rng.choice((None, None, 0, 1)) for _ in model.keys]
        fitting = [a for a in answers if all(v is None or v == x for v, x in zip(values, a, strict=True))]
        members = [model.index[key] for key in rule.cells]  # the rule's keys, in its own order
        try:
            forced = rule.look([values[i] for i in members])
        except Broken:
            assert not fitting, values
            continue
        for p, value in forced:
            i = members[p]
            assert values[i] is None and all(a[i] == value for a in fitting), (values, i, value)
        if make is spaced and fitting:  # a line's look also decides everything its placements agree on
            agreed = {(i, fitting[0][i]) for i, v in enumerate(values) if v is None and len({a[i] for a in fitting}) == 1}
            assert {(members[p], v) for p, v in forced} == agreed, values


def test_an_owner_with_one_key_left_takes_it_and_the_others_go() -> None:
    rule = Matching((((0, 0), ((0, 1),)), ((0, 9), ((0, 1), (0, 2)))), "pairs", "each takes one")
    assert sorted(rule.look([None, None])) == [(0, 1), (1, 1)]  # owner 1 takes key 1, so owner 2 has key 2 only
    assert perfect(rule.options, {0, 1}) and not perfect(rule.options, {0})


def test_a_spaced_line_places_three_in_five_at_both_ends_and_the_middle() -> None:
    rule = Spaced(tuple((0, i) for i in range(5)), tuple(range(5)), 3, "line", "three apart in five")
    assert sorted(rule.look([None] * 5)) == [(0, 1), (1, 0), (2, 1), (3, 0), (4, 1)]
