"""Sudoku: the rules checker, the two solvers (against every published puzzle, each other and brute force
on 4×4), and the generator (unique, reproducible, symmetric, minimal)."""

from __future__ import annotations

import random
from itertools import permutations

import numpy as np
import pytest
from pydantic import ValidationError

from generators import sudoku as gen
from solvers.common import BudgetExceeded, Deadline, InvalidInput
from solvers.sudoku import engine, rules
from solvers.sudoku import techniques as human
from tests.conftest import REFERENCE, read_jsonl, share

DATA = REFERENCE / "sudoku"
SOLVED_4 = [[2, 1, 4, 3], [4, 3, 1, 2], [3, 4, 2, 1], [1, 2, 3, 4]]
PUZZLE_4 = rules.SudokuPuzzle(size=4, givens=[[0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0], [0, 0, 3, 0]])


def codes(puzzle: rules.SudokuPuzzle, digits: list[list[int]]) -> list[str]:
    return sorted(v.rule for v in rules.check(puzzle, rules.SudokuAnswer(digits=digits)))


def published(*names: str) -> list[dict]:
    return [line for name in names for line in read_jsonl(DATA / f"{name}.jsonl")]


# ---------------------------------------------------------------- rules


def test_solution_passes_and_each_broken_rule_is_named() -> None:
    assert codes(PUZZLE_4, SOLVED_4) == []
    swapped = [row[:] for row in SOLVED_4]
    swapped[3][2], swapped[3][3] = swapped[3][3], swapped[3][2]  # r4c3 was a given 3; row and box stay whole
    assert codes(PUZZLE_4, swapped) == ["duplicate-in-column", "duplicate-in-column", "given-changed"]
    holes = [row[:] for row in SOLVED_4]
    holes[0][0] = holes[2][3] = 0
    assert codes(PUZZLE_4, holes) == ["cell-empty"]
    [empty] = rules.check(PUZZLE_4, rules.SudokuAnswer(digits=holes))
    assert empty.cells == [[0, 0], [2, 3]] and "row 1, column 1" in empty.message
    twice = [row[:] for row in SOLVED_4]
    twice[0][0] = 4  # row 1 then holds 4 twice
    violations = rules.check(PUZZLE_4, rules.SudokuAnswer(digits=twice))
    row = next(v for v in violations if v.rule == "duplicate-in-row")
    assert row.message == "4 appears 2 times in row 1" and row.cells == [[0, 0], [0, 2]]
    box = next(v for v in violations if v.rule == "duplicate-in-box")
    assert "box 1 (rows 1–2, columns 1–2)" in box.message


def test_six_by_six_boxes_are_two_rows_of_three() -> None:
    named = dict(rules.units(6))
    assert named["box 2 (rows 1–2, columns 4–6)"] == [(0, 3), (0, 4), (0, 5), (1, 3), (1, 4), (1, 5)]
    assert len(named) == 18


@pytest.mark.parametrize("digits", [[[1, 2], [3, 4]], [[5] * 4] * 4, [[1, 2, 3, 4]] * 3, "x"])
def test_malformed_answers_are_invalid_input(digits) -> None:
    with pytest.raises((InvalidInput, ValidationError)):
        rules.check(PUZZLE_4, rules.SudokuAnswer(digits=digits))


@pytest.mark.parametrize("payload", [{"size": 5, "givens": [[0] * 5] * 5}, {"size": 4, "givens": [[0] * 4] * 3},
                                     {"size": 4, "givens": [[9, 0, 0, 0]] + [[0] * 4] * 3}])
def test_malformed_puzzles_are_refused(payload: dict) -> None:
    with pytest.raises(ValidationError):
        rules.SudokuPuzzle.model_validate(payload)


# ---------------------------------------------------------------- solvers


def all_4x4_grids() -> list[list[int]]:
    """Every valid 4×4 grid by brute force over row permutations: the independent count (288)."""
    grids = []
    rows = list(permutations(range(1, 5)))
    for a in rows:
        for b in rows:
            if any(a[c] == b[c] for c in range(4)) or {a[0], a[1], b[0], b[1]} != {1, 2, 3, 4} \
                    or {a[2], a[3], b[2], b[3]} != {1, 2, 3, 4}:
                continue
            for c_ in rows:
                for d in rows:
                    columns_ok = all(len({a[k], b[k], c_[k], d[k]}) == 4 for k in range(4))
                    boxes_ok = {c_[0], c_[1], d[0], d[1]} == {1, 2, 3, 4} and {c_[2], c_[3], d[2], d[3]} == {1, 2, 3, 4}
                    if columns_ok and boxes_ok:
                        grids.append([*a, *b, *c_, *d])
    return grids


def test_search_and_sat_count_like_brute_force_on_random_4x4() -> None:
    grids = all_4x4_grids()
    assert len(grids) == 288
    rng = random.Random(4)
    for _ in range(60):
        givens = [rng.randint(1, 4) if rng.random() < 0.3 else 0 for _ in range(16)]
        expected = [g for g in grids if all(v in (0, g[i]) for i, v in enumerate(givens))]
        puzzle = rules.SudokuPuzzle(size=4, givens=rules.square(givens, 4))
        for backend in ("search", "cadical"):
            outcome = rules.solve(puzzle, 1000, Deadline.after(30), backend)
            assert outcome.complete and outcome.count == len(expected), (givens, backend)
            assert sorted(rules.flat(s["digits"]) for s in outcome.solutions) == sorted(expected), backend


def test_counting_stops_at_the_limit_and_keeps_only_what_is_asked() -> None:
    empty = rules.SudokuPuzzle(size=4, givens=[[0] * 4] * 4)
    whole = rules.solve(empty, 1000, Deadline.after(10), keep=2)
    assert (whole.count, whole.complete, len(whole.solutions)) == (288, True, 2)
    capped = rules.solve(empty, 100, Deadline.after(10), keep=3)
    assert (capped.count, capped.complete, len(capped.solutions)) == (100, False, 3)
    nine = rules.solve(rules.SudokuPuzzle(size=9, givens=[[0] * 9] * 9), 100_000, Deadline.after(60), keep=1)
    assert (nine.count, nine.complete) == (100_000, False)


def test_counting_respects_the_deadline() -> None:
    with pytest.raises(BudgetExceeded):
        rules.solve(rules.SudokuPuzzle(size=16, givens=[[0] * 16] * 16), 100_000, Deadline.after(0.05))


@pytest.mark.parametrize("name", ["sudoku-exchange", "hardest", "top95", "17-clue", "sizes", "non-unique"])
def test_search_agrees_with_every_published_puzzle(name: str) -> None:
    for line in published(name):
        puzzle = rules.SudokuPuzzle.model_validate(line["puzzle"])
        outcome = rules.solve(puzzle, 1000, Deadline.after(30), keep=200)
        assert outcome.complete and outcome.count == line["solutions"], line["id"]
        assert line["solution"] in outcome.solutions, line["id"]
        for solution in outcome.solutions:
            assert rules.check(puzzle, rules.SudokuAnswer(**solution)) == [], line["id"]


@pytest.mark.parametrize("backend", ["cadical", "z3"])
def test_sat_backends_agree_with_the_search(backend: str) -> None:
    lines = published("non-unique", "sizes") + share(published("sudoku-exchange", "hardest", "17-clue"), 25)
    if backend == "z3":
        lines = [line for line in lines if line["puzzle"]["size"] < 16][::3]
    for line in lines:
        puzzle = rules.SudokuPuzzle.model_validate(line["puzzle"])
        search = rules.solve(puzzle, 200, Deadline.after(60))
        sat = rules.solve(puzzle, 200, Deadline.after(60), backend)
        assert (sat.count, sat.complete) == (search.count, search.complete) == (line["solutions"], True), line["id"]
        assert sorted(map(rules.flat, (s["digits"] for s in sat.solutions))) == \
            sorted(map(rules.flat, (s["digits"] for s in search.solutions))), line["id"]


def singles_by_full_scans(cand: list[int], n: int) -> list[int] | None:
    """Naked and hidden singles to a fixpoint in plain Python, every cell and unit scanned each round: the
    reference ``settle`` must reach (None: a dead end)."""
    g = engine.geometry(n)
    units, peers = g.units.tolist(), g.peers.tolist()
    cand = cand[:]
    changed = True
    while changed:
        changed = False
        for i, m in enumerate(cand):
            if m == 0:
                return None
            if m & (m - 1) == 0:
                for p in peers[i]:
                    if cand[p] & m:
                        cand[p] &= ~m
                        changed = True
                        if cand[p] == 0:
                            return None
        for unit in units:
            for d in range(n):
                places = [i for i in unit if cand[i] >> d & 1]
                if not places:
                    return None
                if len(places) == 1 and cand[places[0]] != 1 << d:
                    cand[places[0]] = 1 << d
                    changed = True
    return cand


def test_settling_reaches_the_full_scan_fixpoint() -> None:
    """From givens (``propagate``: every unit looked at) and from a search node's state (``settle_from``: one
    cell just decided in a settled grid, only its units looked at first), dead ends included."""
    rng = random.Random(9)
    grids = [(line["puzzle"]["size"], rules.flat(line["puzzle"]["givens"]))
             for line in published("sizes", "top95")[:30] if line["puzzle"]["size"] <= 9]
    grids += [(n, [rng.randint(1, n) if rng.random() < 0.25 else 0 for _ in range(n * n)]) for n in (4, 6) for _ in range(20)]
    compared = dead = 0
    for n, givens in grids:
        g, full = engine.geometry(n), (1 << n) - 1
        no_crossings = np.zeros((0, 3, n), dtype=np.int32)
        queue = np.empty(n * n, dtype=np.int32)
        settled = g.given_masks[np.asarray(givens)]
        expected = singles_by_full_scans(settled.tolist(), n)
        alive = engine.propagate(settled, g.units, g.peers, g.unit_bits, no_crossings, full)
        assert (settled.tolist() if alive else None) == expected, givens
        compared, dead = compared + 1, dead + (not alive)
        if not alive:
            continue
        for cell in [i for i, m in enumerate(settled.tolist()) if m & (m - 1)][:12]:
            for d in range(n):
                if not settled[cell] >> d & 1:
                    continue
                node = settled.copy()
                node[cell], queue[0] = 1 << d, cell
                expected = singles_by_full_scans(node.tolist(), n)
                alive = engine.settle_from(node, g.units, g.peers, g.unit_bits, no_crossings, full, queue, 1)
                assert (node.tolist() if alive else None) == expected, (givens, cell, d + 1)
                compared, dead = compared + 1, dead + (not alive)
    assert compared > 500 and dead > 50


def test_a_side_of_the_listing_settles_as_from_scratch() -> None:
    """``one_side`` narrows a settled grid at cells a and b and settles only from there: the masks (or dead end)
    ``propagate`` reaches from the givens so narrowed, at every size (16×16 with locked candidates)."""
    compared = dead = 0
    for line in published("sizes")[:8] + published("top95")[:10]:
        n = line["puzzle"]["size"]
        g, full = engine.geometry(n), (1 << n) - 1
        givens = rules.flat(line["puzzle"]["givens"])
        intended = np.asarray(givens, dtype=np.int8)
        present = [i for i, v in enumerate(givens) if v]
        queue = np.empty(n * n, dtype=np.int32)
        for a, b in [*zip(present[:6], present[-6:], strict=True), (present[0], present[0])]:
            raw = g.given_masks[np.asarray(givens)]
            raw[a] = raw[b] = full
            settled = raw.copy()
            assert engine.propagate(settled, g.units, g.peers, g.unit_bits, g.crossings, full)
            for side in range(1 if a == b else 2):
                expected = raw.copy()
                if side == 0:
                    expected[a] &= ~(1 << (givens[a] - 1))
                else:
                    expected[a] = 1 << (givens[a] - 1)
                    expected[b] &= ~(1 << (givens[b] - 1))
                alive = engine.propagate(expected, g.units, g.peers, g.unit_bits, g.crossings, full)
                start = np.empty_like(settled)
                assert engine.one_side(start, settled, a, b, intended, side, g.units, g.peers, g.unit_bits,
                                       g.crossings, full, queue) == alive, (line["id"], a, b, side)
                if alive:
                    assert start.tolist() == expected.tolist(), (line["id"], a, b, side)
                compared, dead = compared + 1, dead + (not alive)
    assert compared > 200 and 0 < dead < compared


def test_other_solutions_are_the_searchs_that_differ_where_asked() -> None:
    """``other_solutions`` from a settled grid (16×16: locked candidates taken out too) lists the solutions the
    plain search finds that differ from the intended one in cell a or b, at every size."""
    sizes = set()
    for line in published("sizes")[:6] + published("sudoku-exchange")[:4]:
        n = line["puzzle"]["size"]
        g, full = engine.geometry(n), (1 << n) - 1
        givens, solution = rules.flat(line["puzzle"]["givens"]), rules.flat(line["solution"]["digits"])
        present = [i for i, v in enumerate(givens) if v]
        for a, b in zip(present, reversed(present), strict=True):  # the first pair out that lets in a few solutions
            trial = [0 if i in (a, b) else v for i, v in enumerate(givens)]
            every = engine.Search(n, trial, 201, 201).run(Deadline.after(60))
            if every.complete and every.count > 1:
                break
        else:
            continue
        settled = g.given_masks[np.asarray(trial)]
        assert engine.propagate(settled, g.units, g.peers, g.unit_bits, g.crossings, full)
        others = np.zeros((200, n * n), dtype=np.int8)
        found, complete = engine.other_solutions(settled, a, b, np.asarray(solution, dtype=np.int8), engine.in_order(n),
                                                 g.units, g.peers, g.unit_bits, g.crossings, g.popcount, full, 200,
                                                 10**6, others)
        expected = sorted(s for s in every.found() if s[a] != solution[a] or s[b] != solution[b])
        assert complete and found and sorted(others[:found].tolist()) == expected, line["id"]
        sizes.add(n)
    assert sizes == {4, 6, 9, 16}


def test_givens_that_clash_have_no_solution() -> None:
    clash = rules.SudokuPuzzle(size=4, givens=[[1, 1, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    for backend in rules.BACKENDS:
        assert rules.solve(clash, 10, Deadline.after(10), backend).status == "none"


# ---------------------------------------------------------------- generator


def orbit_removable(flat: list[int], orbit: tuple[int, ...], n: int) -> bool:
    trial = flat[:]
    for i in orbit:
        trial[i] = 0
    return rules.solve(rules.SudokuPuzzle(size=n, givens=rules.square(trial, n)), 2, Deadline.after(60)).count == 1


@pytest.mark.parametrize(("size", "symmetry", "seeds"), [(4, "rotational", 20), (4, "none", 20), (6, "rotational", 20),
                                                         (6, "none", 10), (9, "rotational", 10), (9, "none", 5),
                                                         (16, "rotational", 1)])
def test_generated_puzzles_are_unique_symmetric_and_minimal(size: int, symmetry: str, seeds: int) -> None:
    for seed in range(seeds):
        params = gen.SudokuParams(size=size, symmetry=symmetry)
        made = gen.generate_unique(params, seed, Deadline.after(120))
        assert made.difficulty is None  # the ungraded draw
        givens, solution = rules.flat(made.puzzle.givens), rules.flat(made.solution.digits)
        assert rules.check(made.puzzle, made.solution) == []
        assert all(v in (0, solution[i]) for i, v in enumerate(givens))
        # unique by the independent method (CaDiCaL), not only by the search that made it
        assert rules.solve(made.puzzle, 2, Deadline.after(60), "cadical").count == 1, (size, seed)
        assert all(bool(givens[i]) == bool(givens[gen.partner(i, size, symmetry)]) for i in range(size * size))
        present = [orbit for orbit in gen.orbits(size, symmetry) if givens[orbit[0]]]
        assert not any(orbit_removable(givens, orbit, size) for orbit in present), (size, seed)


def swapped_by_python(puzzle: list[int], solution: list[int], n: int, symmetry: gen.Symmetry, rng: random.Random,
                      level: int) -> list[int] | None:
    """``swap_for_level`` written out in Python over the engine's listing search: the reference the compiled
    swap must agree with (the same removals, additions and first success)."""
    g, full = engine.geometry(n), (1 << n) - 1
    no_crossings = np.zeros((0, 3, n), dtype=np.int32)
    orbit_list = gen.orbits(n, symmetry)
    givens = puzzle[:]
    order = [k for k, orbit in enumerate(orbit_list) if givens[orbit[0]]]
    rng.shuffle(order)
    for k in order:
        orbit = orbit_list[k]
        fewer = gen.without(givens, orbit)
        start = g.given_masks[np.asarray(fewer)]
        still_open = engine.singles_open(start.copy(), g.units, g.peers, g.unit_bits, no_crossings, full)
        if still_open == 0:  # the polish on the way
            givens = fewer
            continue
        if still_open < gen.SWAP_OPEN:
            continue
        engine.propagate(start, g.units, g.peers, g.unit_bits, g.crossings, full)
        others = np.zeros((gen.SWAP_SOLUTIONS, n * n), dtype=np.int8)
        found, complete = engine.other_solutions(start, orbit[0], orbit[-1], np.asarray(solution, dtype=np.int8),
                                                 engine.in_order(n), g.units, g.peers, g.unit_bits, g.crossings,
                                                 g.popcount, full, gen.SWAP_SOLUTIONS, gen.SWAP_NODES, others)
        if not complete:
            continue
        if found == 0:  # unique without it
            if human.finishes(n, fewer, level, Deadline.never()):
                return fewer
            continue
        listed = others[:found].tolist()
        for added in orbit_list:
            if givens[added[0]] or any(all(other[i] == solution[i] for i in added) for other in listed):
                continue
            trial = gen.with_orbit(fewer, added, solution)
            if not gen.singles_finish(n, trial) and human.finishes(n, trial, level, Deadline.never()):
                return trial
    return None


@pytest.mark.parametrize(("symmetry", "level", "draws"), [("rotational", 1, 80), ("none", 1, 40), ("rotational", 2, 40)])
def test_the_swap_toward_a_level_is_the_python_one(symmetry: gen.Symmetry, level: int, draws: int) -> None:
    """Draws singles finish, swapped toward medium (the generator's case) and toward hard."""
    swapped = 0
    for seed in range(draws):
        made = gen.generate_unique(gen.SudokuParams(size=9, symmetry=symmetry), seed, Deadline.never(), swapped=True)
        givens, solution = rules.flat(made.puzzle.givens), rules.flat(made.solution.digits)
        if not gen.singles_finish(9, givens):
            continue
        got = gen.swap_for_level(givens, solution, 9, symmetry, random.Random(seed), level, Deadline.never())
        assert got == swapped_by_python(givens, solution, 9, symmetry, random.Random(seed), level), (seed, symmetry)
        if got is not None:
            swapped += 1
            assert not gen.singles_finish(9, got) and human.finishes(9, got, level, Deadline.never())
    assert swapped >= draws // 4  # the sample holds successful swaps, not only failures


def test_parameters_are_normalised_and_levels_fit_the_size() -> None:
    assert gen.SudokuParams().model_dump() == {"size": 9, "symmetry": "rotational", "difficulty": "medium"}
    assert gen.SudokuParams(size=4).difficulty == "easy"
    assert gen.SudokuParams(size=6).difficulty == "easy"
    assert gen.SudokuParams(size=16, symmetry="rotational") == gen.SudokuParams(size=16)
    with pytest.raises(ValidationError, match="singles finish every 4×4"):
        gen.SudokuParams(size=4, difficulty="hard")
    with pytest.raises(ValidationError, match="about 1 in 1,000"):
        gen.SudokuParams(size=6, difficulty="medium")
    with pytest.raises(ValidationError):
        gen.SudokuParams(size=8)
