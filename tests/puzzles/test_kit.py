"""The kit's layouts and rule kinds on small models, against brute force over every assignment of the keys."""

from __future__ import annotations

import itertools
import random

import pytest

from generators.registry import TYPES
from solvers.common import Deadline
from solvers.kit import human
from solvers.kit.human import kit_hint
from solvers.kit.rules import Cells, Connected, Count, Digits, Layers, Model, Prover, Sieve, check
from solvers.kit.solving import solve
from tests import golden


def brute_force(model: Model) -> list[dict]:
    keys = model.keys
    found = []
    for bits in itertools.product((0, 1), repeat=len(keys)):
        answer = model.layout.write({k for k, b in zip(keys, bits, strict=True) if b})
        try:
            broken = check(model, answer)
        except Exception:  # noqa: BLE001 - a digit grid with a cell of two digits is no answer of its layout
            continue
        if not broken and model.layout.read(answer) == dict(zip(keys, bits, strict=True)):
            found.append(answer)
    return found


def loops(rows: int, cols: int, clues: dict[tuple[int, int], int]) -> Model:
    """A Slitherlink-like model: vertices of 0 or 2 edges, one connected group, at least one edge, clue counts."""
    layout = Layers({"h": (rows + 1, cols), "v": (rows, cols + 1)}, "a line", "crossed")
    ends = {("h", r, c): ((r, c), (r, c + 1)) for r in range(rows + 1) for c in range(cols)}
    ends |= {("v", r, c): ((r, c), (r + 1, c)) for r in range(rows) for c in range(cols + 1)}
    rules: list = [Count(tuple(ends), 1, len(ends), "no-loop", "there is a loop")]
    for vertex in itertools.product(range(rows + 1), range(cols + 1)):
        around = tuple(k for k, e in ends.items() if vertex in e)
        rules.append(Count(around, 0, 2, "branch", f"the dot {vertex} has 0 or 2 lines", allowed=frozenset({0, 2})))
    for (r, c), n in clues.items():
        rules.append(Count((("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)), n, n, "clue", f"the {n}",
                           clue=(r, c)))
    rules.append(Connected(tuple((k, a, b) for k, (a, b) in ends.items()), "loops", "one loop"))
    return Model(layout, tuple(rules))


def network(weights: list[int], pairs: list[tuple[int, int]], crossing: list[tuple[int, int]]) -> Model:
    """A Hashi-like model on islands 0..n-1: one or two bridges per pair, island numbers, crossings, one network."""
    layout = Cells("b", len(pairs), 2, "built", "not built")  # row p: (one bridge, two bridges) of pair p
    rules: list = [Count(((p, 0), (p, 1)), 0, 1, "one-or-two", f"pair {p}") for p in range(len(pairs))]
    for island, n in enumerate(weights):
        mine = [p for p, pair in enumerate(pairs) if island in pair]
        rules.append(Count(tuple(k for p in mine for k in ((p, 0), (p, 1), (p, 1))), n, n, "number", f"island {island}"))
    for p, q in crossing:
        rules.append(Count(((p, 0), (p, 1), (q, 0), (q, 1)), 0, 1, "crossing", f"pairs {p} and {q} cross"))
    links = tuple(((p, k), a, b) for p, (a, b) in enumerate(pairs) for k in (0, 1))
    rules.append(Connected(links, "network", "one network", nodes=tuple(range(len(weights)))))
    return Model(layout, tuple(rules))


@pytest.mark.parametrize("clues", [{}, {(0, 0): 3}, {(0, 0): 2, (1, 1): 2}, {(0, 1): 0}])
def test_loops_count_as_brute_force_does_on_both_backends(clues: dict) -> None:
    model = loops(2, 2, clues)
    truth = brute_force(model)
    for backend in ("cadical", "z3"):
        outcome = solve(model, 100, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), backend
        assert sorted(map(repr, outcome.solutions)) == sorted(map(repr, truth))
    if not clues:
        assert len(truth) == 13  # the outlines of the 2×2 grid's hole-free connected cell sets


@pytest.mark.parametrize("seed", range(12))
def test_networks_count_as_brute_force_does(seed: int) -> None:
    rng = random.Random(seed)
    pairs = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)]
    weights = [rng.randint(1, 4) for _ in range(4)]
    model = network(weights, pairs, [(4, 1)] if seed % 2 else [])
    truth = brute_force(model)
    for backend in ("cadical", "z3"):
        outcome = solve(model, 100, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), (backend, weights)


def test_latin_squares_of_three_are_twelve_and_givens_make_one() -> None:
    layout = Digits("digits", 3, 3, 3)
    rules: list = []
    for r, c in itertools.product(range(3), range(3)):
        rules.append(Count(tuple((r, c, d) for d in (1, 2, 3)), 1, 1, "one-digit", f"r{r + 1}c{c + 1} holds a digit"))
    for line, d in itertools.product(range(3), (1, 2, 3)):
        rules.append(Count(tuple((line, c, d) for c in range(3)), 1, 1, "row", f"row {line + 1} has one {d}"))
        rules.append(Count(tuple((r, line, d) for r in range(3)), 1, 1, "column", f"column {line + 1} has one {d}"))
    model = Model(layout, tuple(rules))
    grids = ([list(cells[0:3]), list(cells[3:6]), list(cells[6:9])] for cells in itertools.product((1, 2, 3), repeat=9))
    assert solve(model, 100, Deadline.after(20)).count == 12 == sum(not check(model, {"digits": g}) for g in grids)
    given = Model(layout, (*rules, Count(((0, 0, 1),), 1, 1, "given", "r1c1 is 1", given=True),
                           Count(((0, 1, 2),), 1, 1, "given", "r1c2 is 2", given=True),
                           Count(((1, 0, 2),), 1, 1, "given", "r2c1 is 2", given=True)))
    outcome = solve(given, 10, Deadline.after(20))
    assert outcome.count == 1
    people = human.solver()
    path = people.run(given)
    assert path.state.solved
    assert people.grade(given).level == "easy"
    hint = kit_hint(people, given, {}, outcome.solutions[0])
    assert hint.technique == "rule" and hint.decide and all(d["cell"] and d["value"] in (1, 2, 3) for d in hint.decide)
    wrong = kit_hint(people, given, {(2, 2, 1): 1}, outcome.solutions[0])  # r3c3 is 2
    assert wrong.technique == "mistakes" and wrong.mistakes == [[2, 2]]


@pytest.mark.parametrize("seed", range(6))
def test_a_person_solves_unique_loops_to_their_answer(seed: int) -> None:
    """Every step the techniques take on a unique puzzle agrees with its answer: the rules' looks are sound."""
    full = loops(2, 3, {})
    answer = random.Random(seed).choice(solve(full, 1000, Deadline.after(20)).solutions)
    values = full.layout.read(answer)
    clues = {(r, c): sum(values[k] for k in (("h", r, c), ("h", r + 1, c), ("v", r, c), ("v", r, c + 1)))
             for r in range(2) for c in range(3)}
    model = loops(2, 3, clues)
    if solve(model, 2, Deadline.after(20)).count != 1:
        pytest.skip("these clues leave two loops")
    people = human.solver()
    path = people.run(model)
    assert path.state.solved
    assert {model.keys[i]: v for i, v in enumerate(path.state.values)} == values


def test_the_prover_finds_the_other_loop_and_none_once_the_clues_decide() -> None:
    model = loops(2, 2, {(0, 0): 2, (0, 1): 2, (1, 0): 2, (1, 1): 2})  # the outline of the whole grid
    answer = solve(model, 10, Deadline.after(20)).solutions[0]
    prover = Prover(model, answer)
    try:
        assert prover.other([], Deadline.after(20)) is not None  # without clues many loops fit
        assert prover.other([(0, 0), (0, 1), (1, 0), (1, 1)], Deadline.after(20)) is None
    finally:
        prover.close()


def test_the_sieve_answers_as_brute_force_does_draw_after_draw() -> None:
    """``Sieve``: one instance asked about loop puzzles drawn one after another (their clues differ, the vertex
    rules and the lazy loop rule stay shared; now and then another grid, which starts it again) says an answer
    is alone exactly when brute force finds one answer, and otherwise returns another valid answer."""
    rng, sieve, asked = random.Random(5), Sieve(), {True: 0, False: 0}
    try:
        for draw in range(40):
            rows, cols = (1, 3) if draw % 9 == 8 else (2, 2)
            clues = {(r, c): rng.choice([0, 1, 2, 3]) for r in range(rows) for c in range(cols) if rng.random() < 0.5}
            model = loops(rows, cols, clues)
            answers = brute_force(model)
            if not answers:
                continue
            answer = answers[rng.randrange(len(answers))]
            other = sieve.other(model, answer, Deadline.after(20))
            assert (other is None) == (len(answers) == 1), (clues, len(answers))
            if other is not None:
                assert other != answer and other in answers
            asked[other is None] += 1
    finally:
        sieve.close()
    assert asked[True] >= 5 and asked[False] >= 5


def test_a_rules_hint_reads_as_a_sentence() -> None:
    """A count's last places counted, not named twice ("only r1c1 are left" once said this of two lines at one
    cell); the 1s that fill a count named; several cells of a value said together, in the plural; a key a rule
    holds twice said once; a digit ruled out of several cells, or several digits out of one, in one clause."""
    stars = Model(Cells("s", 1, 4, "a star", "empty"),
                  (Count(((0, 0), (0, 1), (0, 2), (0, 3)), 2, 2, "row", "the row has two stars"),))
    state = human.start(stars)
    state.values[0] = state.values[2] = 0
    message, = (s.message for s in human._every_rule(stars, state))
    assert message == "the row has two stars, and only 2 places are left for it: r1c2, r1c4 are stars"
    lines = Model(Layers({"h": (1, 2), "v": (2, 1)}, "drawn", "crossed",
                          name=lambda f, r, c: f"{f}{r}{c}", at=lambda f, r, c: (0, 0)),
                  (Count((("h", 0, 0), ("h", 0, 1), ("v", 0, 0), ("v", 0, 0), ("v", 1, 0)), 1, 1, "end", "one line"),))
    state = human.start(lines)
    state.values[1] = 1
    message, = (s.message for s in human._every_rule(lines, state))
    assert message == "one line, and h01 is drawn already: h00, v00, v10 are crossed"  # the 1 that fills it named
    empty = Model(Cells("s", 1, 2, "a star", "empty"), (Count(((0, 0), (0, 1)), 0, 0, "none", "no stars here"),))
    message, = (s.message for s in human._every_rule(empty, human.start(empty)))
    assert message == "no stars here, and it takes none: r1c1, r1c2 are empty"
    digits = Digits("d", 1, 2, 3)
    one = Model(digits, (Count(((0, 1, 1), (0, 1, 2), (0, 1, 3)), 1, 1, "one", "r1c2 holds one number"),))
    state = human.start(one)
    state.values[one.index[(0, 1, 2)]] = 1
    message, = (s.message for s in human._every_rule(one, state))
    assert message == "r1c2 holds one number, and it is 2 already: r1c2 is not 1 or 3"  # the cell not named twice
    assert digits.say([(0, 0, 1), (0, 1, 1), (0, 0, 2), (0, 1, 2)], 0) == "r1c1, r1c2 are not 1 or 2"
    assert digits.say([(0, 0, 1), (0, 0, 3), (0, 1, 3)], 0) == "r1c1 is not 1 or 3; r1c2 is not 3"


@pytest.mark.parametrize("type_name", [name for name in golden.graded_types() if TYPES[name].model is not None])
def test_only_a_lazy_rule_adds_cuts(type_name: str) -> None:
    """The SAT prover asks only rules with a true ``lazy`` for cuts (``Encoding``): on a recorded puzzle of every kit
    genre, no other rule ever has one, under random complete values of its keys."""
    kind = TYPES[type_name]
    rng = random.Random(type_name)
    for line in golden.load(type_name)[:2]:
        model = kind.model(kind.puzzle_model(**line["puzzle"]))
        for rule in model.rules:
            if getattr(rule, "lazy", False):
                continue
            lits = list(range(1, len(rule.cells) + 1))
            for _ in range(3):
                assert rule.cuts([rng.randint(0, 1) for _ in lits], lits) == [], (type_name, rule.code)
