"""The SAT layer: both backends must agree with brute force on clauses, cardinality and weighted sums."""

from __future__ import annotations

import itertools
import random

import pytest

from solvers.common import Deadline
from solvers.sat import BACKENDS, block, enumerate_models, make_backend


def brute_force_count(n: int, clauses, cards, weighted) -> int:
    count = 0
    for bits in itertools.product((0, 1), repeat=n):
        def true(lit: int, bits=bits) -> bool:
            return bool(bits[abs(lit) - 1]) == (lit > 0)
        if not all(any(true(x) for x in clause) for clause in clauses):
            continue
        if not all(guard is not None and not true(guard) or lo <= sum(true(x) for x in lits) <= hi
                   for lits, lo, hi, guard in cards):
            continue
        if not all(sum(w for x, w in zip(lits, ws, strict=True) if true(x)) == total for lits, ws, total in weighted):
            continue
        count += 1
    return count


def random_instance(rng: random.Random, n: int):
    lit = lambda: rng.choice([1, -1]) * rng.randint(1, n)  # noqa: E731
    clauses = [[lit() for _ in range(rng.randint(1, 3))] for _ in range(rng.randint(0, 6))]
    cards = []  # (literals, at least, at most, guard): bounds past either end too, negated literals, a guard at times
    for _ in range(rng.randint(0, 2)):
        lits = [v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), rng.randint(1, n))]
        lo = rng.randint(-1, len(lits) + 1)
        cards.append((lits, lo, rng.randint(lo - 1, len(lits) + 1), rng.choice([None, lit()])))
    weighted = []
    for _ in range(rng.randint(0, 2)):
        lits = rng.sample(range(1, n + 1), rng.randint(1, n))
        weights = [rng.randint(1, 9) for _ in lits]
        weighted.append((lits, weights, rng.randint(0, sum(weights))))
    return clauses, cards, weighted


@pytest.mark.parametrize("backend", BACKENDS)
def test_model_counts_match_brute_force(backend: str) -> None:
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 7)
        clauses, cards, weighted = random_instance(rng, n)
        with make_backend(backend) as sat:
            variables = sat.new_vars(n)
            for clause in clauses:
                sat.add_clause(clause)
            for lits, lo, hi, guard in cards:
                sat.add_at_least(lits, lo, guard)
                sat.add_at_most(lits, hi, guard)
            for lits, weights, total in weighted:
                sat.add_weighted_equal(lits, weights, total)
            found, complete = enumerate_models(sat, variables, 200, Deadline.never())
        assert complete
        assert len(found) == brute_force_count(n, clauses, cards, weighted)


def test_block_forbids_exactly_one_assignment() -> None:
    assert sorted(block({1, 3}, [1, 2, 3])) == [-3, -1, 2]


def test_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="known: cadical, z3"):
        make_backend("minisat")


def test_a_cardinality_renamed_from_its_template_is_pysats_own_encoding() -> None:
    """CaDiCaL's cardinality constraints are built once per shape and renamed: the clauses (and the variables
    they add) must be exactly those pysat writes for the same literals, or a prover would search differently
    and the generators make other puzzles from the same seeds."""
    from pysat.card import CardEnc, EncType

    from solvers.sat import CadicalBackend

    rng = random.Random(7)
    for _ in range(400):
        n, kind = rng.randint(2, 12), rng.choice(["atmost", "atleast"])
        k = rng.randint(0, n - 1) if kind == "atmost" else rng.randint(1, n)
        backend = CadicalBackend()
        backend.top = top = rng.randint(n, 300)
        lits = [v * rng.choice((1, -1)) for v in rng.sample(range(1, top + 1), n)]
        written: list[list[int]] = []
        backend._add_cl = written.append
        guard = rng.choice([None, top + 500])
        (backend.add_at_most if kind == "atmost" else backend.add_at_least)(lits, k, guard)
        cnf = getattr(CardEnc, kind)(lits=lits, bound=k, top_id=top, encoding=EncType.totalizer)
        assert written == [[*clause, *([] if guard is None else [-guard])] for clause in cnf.clauses]
        assert backend.top == max(top, cnf.nv)
        backend.close()
