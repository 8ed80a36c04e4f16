"""Skyscrapers through the genre kit: the visibility rule (its placements and its SAT encoding) against brute force,
the published pzprjs example, Tatham's own puzzles (unique, read both ways, graded in his order), generated
puzzles at each level (unique by z3, checked, graded, hinted to the end with pencil marks), and the picture."""

from __future__ import annotations

import itertools
import random

import pytest

from bench.stats import spearman
from generators.kit import group_checks
from generators.skyscrapers import (
    CHAIN,
    CHECKS,
    DIFFICULTY,
    PEOPLE,
    Clued,
    SkyscrapersParams,
    check,
    generate_puzzle,
    graded,
    solve,
)
from solvers.common import Deadline, InvalidInput
from solvers.kit import rules as kit_rules
from solvers.kit.arrays import State
from solvers.kit.latin import latin_square
from solvers.kit.rules import Broken
from solvers.kit.seen import Seen, analysed, placements, towers_seen
from solvers.skyscrapers.picture import render
from solvers.skyscrapers.puzzlink import parse_url, to_url
from solvers.skyscrapers.rules import SIDES, SkyscrapersAnswer, SkyscrapersPuzzle
from solvers.skyscrapers.rules import model as rules_model
from solvers.skyscrapers.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl

TATHAM_ORDER = ["easy", "hard", "extreme", "unreasonable"]


def published() -> list[dict]:
    return read_jsonl(REFERENCE / "skyscrapers" / "pzprjs.jsonl")


def tathams() -> list[dict]:
    return read_jsonl(REFERENCE / "skyscrapers" / "tatham.jsonl")


@pytest.mark.parametrize("seed", range(60))
def test_placements_agree_with_every_order_of_the_line(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randrange(1, 7)
    allowed = tuple(rng.randrange(1, 1 << n) << 1 for _ in range(n))
    count = rng.randrange(1, n + 1)
    support, found = [0] * n, False
    for order in itertools.permutations(range(1, n + 1)):
        if all(allowed[i] >> h & 1 for i, h in enumerate(order)) and towers_seen(order) == count:
            found = True
            for i, h in enumerate(order):
                support[i] |= 1 << h
    assert placements(count, allowed) == (tuple(support) if found else None)


@pytest.mark.parametrize("seed", range(80))
def test_a_lines_reading_agrees_with_every_order_of_its_towers(seed: int) -> None:
    """The compiled reading of a line's one-hot keys (placed, ruled out, open) against the orders of its towers
    that fit them: with ``candidates`` a cell holds its placed height or one not ruled out of it, without it its
    placed height or one placed nowhere else in the line."""
    rng = random.Random(seed)
    n = rng.randrange(1, 8)
    heights = [rng.choice([h, None]) if rng.random() < 0.3 else None for h in rng.sample(range(1, n + 1), n)]
    values = [None if h is None else int(d == h) for h in heights for d in range(1, n + 1)]
    values = [0 if v is None and rng.random() < 0.3 else v for v in values]
    count, candidates = rng.randrange(1, n + 1), rng.random() < 0.5
    placed = {h for h in heights if h is not None}

    def holds(i: int, h: int) -> bool:
        if heights[i] is not None:
            return heights[i] == h
        return values[i * n + h - 1] is None if candidates else h not in placed

    orders = [order for order in itertools.permutations(range(1, n + 1))
              if towers_seen(order) == count and all(holds(i, h) for i, h in enumerate(order))]
    rule = Seen(tuple((0, c) for c in range(n)), n, count, "towers-seen", "")
    if not orders:
        with pytest.raises(Broken):
            rule.read(values, candidates)
        return
    agreed = [(i * n + h - 1, int(orders[0][i] == h)) for i in range(n) for h in range(1, n + 1)
              if values[i * n + h - 1] is None and len({order[i] == h for order in orders}) == 1]
    assert rule.read(values, candidates) == agreed


def clued(rng: random.Random, n: int, sides: float, digits: float, wrong: float) -> SkyscrapersPuzzle:
    """An N×N showing each clue of a random square at the rate ``sides`` and each of its digits at the rate
    ``digits``; at the rate ``wrong`` the first clue above is drawn at random (maybe no answer at all)."""
    grid = latin_square(n, rng)
    looks = {"top": lambda i: [grid[r][i] for r in range(n)], "bottom": lambda i: [grid[r][i] for r in range(n)][::-1],
             "left": lambda i: grid[i], "right": lambda i: grid[i][::-1]}
    clues = {side: [towers_seen(looks[side](i)) if rng.random() < sides else None for i in range(n)] for side in SIDES}
    if rng.random() < wrong:
        clues["top"][0] = rng.randrange(1, n + 1)
    givens = [[grid[r][c] if rng.random() < digits else None for c in range(n)] for r in range(n)]
    return SkyscrapersPuzzle(size=n, givens=givens, **clues)


def small_puzzle(seed: int) -> SkyscrapersPuzzle:
    """A 4×4 with a random share of its clues and a digit or two (solvable or not)."""
    return clued(random.Random(seed), 4, 0.4, 0.1, 0.3)


@pytest.mark.parametrize("seed", range(300))
def test_the_compiled_levels_reach_the_kits_state(seed: int) -> None:
    """The generator's compiled easy and medium checks leave each cell the heights the kit's array solve on the
    one-hot keys leaves open or placed (or both find a rule broken), and its compiled hard check (trials) answers
    as the kit's, on random clues of a random square, a clue now and then wrong, with every clue or some of them
    shown."""
    rng = random.Random(seed)
    n = rng.randrange(3, 8)
    model = rules_model(clued(rng, n, rng.random(), rng.random() * 0.4, 0.2))
    clues_of = [rule.clue for rule in model.rules if rule.clue is not None]
    for shown in (None, frozenset(rng.sample(clues_of, rng.randrange(len(clues_of) + 1)))):
        for level, reading in enumerate((None, analysed)):
            kit_state = State(model, shown, reading)
            broken = kit_state.follow(None, None, set())
            masks = Clued.of(model).follow(shown, reading is not None)
            assert (masks is None) == bool(broken)
            assert CHECKS[level](model, shown) == group_checks(analysed, CHAIN)[level](model, shown)
            if level == 1:  # the hard level's trials, compiled, against the kit's on arrays
                assert CHECKS[2](model, shown) == group_checks(analysed, CHAIN)[2](model, shown)
            if masks is not None:
                held = [[d for d in range(1, n + 1) if masks[r * n + c] >> d & 1] for r in range(n) for c in range(n)]
                assert [[-1 if len(h) > 1 and d in h else int(h == [d]) for h in held for d in range(1, n + 1)]] == \
                    [kit_state.values]


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_the_compiled_trials_answer_every_check_the_generator_asks_as_the_kits(level: str, monkeypatch) -> None:  # noqa: ANN001
    """Trials decide little on random clues (the test above); on the states a generator walks through (clues taken
    away one by one from hard 6×6 draws, where the trials alone solve about one check in ten, and the expert draws
    it grades) the compiled hard check answers every question as the kit's on arrays, which counts rounds the same
    way: a trial followed a round too far, or a cell given two heights in one round broken a round early, fails
    this test."""
    import generators.skyscrapers as skyscrapers

    on_arrays, asked = group_checks(analysed, CHAIN)[2], []

    def both(model, shown):  # noqa: ANN001, ANN202
        compiled = CHECKS[2](model, shown)
        assert compiled == on_arrays(model, shown), shown
        asked.append(compiled and not CHECKS[1](model, shown))
        return compiled

    monkeypatch.setattr(skyscrapers, "CHECKS", (CHECKS[0], CHECKS[1], both))
    for seed in range(3):
        generate_puzzle(SkyscrapersParams(size=6, difficulty=level), seed, Deadline.after(60))
    assert any(asked), asked  # some check the trials alone solve


@pytest.mark.parametrize("seed", range(150))
def test_the_generators_grade_is_the_techniques_own(seed: int) -> None:
    """The generator's grade takes a person's path compiled (``Clued.path``: the rules, the line analysis, trials of
    ``CHAIN`` rounds, trials to the end), and it is the techniques' own (level, score, steps, hardest) on random
    clues of a random square, whichever level solves it, if any."""
    rng = random.Random(seed)
    puzzle = clued(rng, rng.randrange(3, 8), rng.random(), rng.random() * 0.5, 0.1)
    assert graded(puzzle, Deadline.never()) == DIFFICULTY.grade(puzzle, Deadline.never())


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_the_compiled_grade_of_hard_and_expert_puzzles_is_the_techniques_own(level: str) -> None:
    """On generated 7×7 puzzles of the two levels that take trials, and on each of them with a few clues taken away
    (a path with more trials, or none that ends), the compiled grade is the techniques' own."""
    rng, levels = random.Random(3), set()
    for seed in range(3):
        puzzle = generate_puzzle(SkyscrapersParams(size=7, difficulty=level), seed, Deadline.after(60)).puzzle
        n = puzzle.size
        clues = [(side, i) for side in SIDES for i, c in enumerate(getattr(puzzle, side)) if c is not None]
        clues += [("given", r * n + c) for r, row in enumerate(puzzle.givens) for c, d in enumerate(row) if d]
        for gone in range(0, 4):
            fewer = shown_puzzle(puzzle, frozenset(rng.sample(clues, len(clues) - gone)))
            expected = DIFFICULTY.grade(fewer, Deadline.never())
            assert graded(fewer, Deadline.never()) == expected, (seed, gone)
            levels.add(expected.level)
    assert level in levels and len(levels) >= 2, levels


def shown_puzzle(puzzle: SkyscrapersPuzzle, shown: frozenset) -> SkyscrapersPuzzle:
    """``puzzle`` with only the clues and digits in ``shown``."""
    n = puzzle.size
    sides = {side: [c if (side, i) in shown else None for i, c in enumerate(getattr(puzzle, side))] for side in SIDES}
    givens = [[d if ("given", r * n + c) in shown else None for c, d in enumerate(row)]
              for r, row in enumerate(puzzle.givens)]
    return SkyscrapersPuzzle(size=n, givens=givens, **sides)


@pytest.mark.parametrize("seed", range(40))
def test_the_search_prover_answers_as_the_kits_sat_prover(seed: int, monkeypatch) -> None:  # noqa: ANN001
    """The generator's proof of uniqueness by search tells, under random subsets of a square's clues and digits,
    the same as the kit's SAT prover whether the square is the only answer, and the other answer it finds breaks
    no rule of the clues shown; with one node allowed it hands every question to the SAT prover."""
    import generators.skyscrapers as skyscrapers

    rng = random.Random(seed)
    n = 4 + seed % 3
    puzzle = clued(rng, n, 1.0, 1.0, 0.0)
    model, answer = rules_model(puzzle), {"digits": puzzle.givens}
    clues_of = [rule.clue for rule in model.rules if rule.clue is not None]
    sat, others = kit_rules.Prover(model, answer), 0
    for nodes in (skyscrapers.SEARCH_NODES, 1):
        monkeypatch.setattr(skyscrapers, "SEARCH_NODES", nodes)
        search = skyscrapers.SearchProver(model, answer)
        for _ in range(25):
            shown = frozenset(rng.sample(clues_of, rng.randrange(len(clues_of) + 1)))
            found, truth = search.other(shown, Deadline.after(60)), sat.other(shown, Deadline.after(60))
            assert (found is None) == (truth is None), shown
            if found is not None:
                others += 1
                assert found != answer
                assert not check(shown_puzzle(puzzle, shown), SkyscrapersAnswer(**found))
        assert (search._fallback is not None) == (nodes == 1)
        search.close()
    sat.close()
    assert others  # some subsets leave another answer


def latin_squares(n: int, rows: tuple[tuple[int, ...], ...] = ()) -> list[list[list[int]]]:
    """Every N×N Latin square (576 of them at 4), row by row."""
    if len(rows) == n:
        return [[list(row) for row in rows]]
    return [square for row in itertools.permutations(range(1, n + 1))
            if all(row[c] != above[c] for above in rows for c in range(n)) for square in latin_squares(n, (*rows, row))]


def brute_force(puzzle: SkyscrapersPuzzle) -> list[list[list[int]]]:
    return [grid for grid in latin_squares(puzzle.size) if not check(puzzle, SkyscrapersAnswer(digits=grid))]


@pytest.mark.parametrize("seed", range(12))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = small_puzzle(seed)
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 1000, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == len(truth), (backend, puzzle)
        assert sorted(s["digits"] for s in outcome.solutions) == sorted(truth)


@pytest.mark.parametrize("entry", published(), ids=lambda e: e["url"])
def test_published_puzzles_have_their_published_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    outcome = solve(puzzle, 10, Deadline.after(20))
    assert outcome.complete and outcome.count == 1
    assert outcome.solutions[0]["digits"] == entry["digits"]
    assert check(puzzle, SkyscrapersAnswer(digits=entry["digits"])) == []
    assert to_url(puzzle) == entry["url"]


@pytest.mark.parametrize("entry", tathams(), ids=lambda e: e["tatham"])
def test_tathams_puzzles_are_unique_and_read_both_ways(entry: dict) -> None:
    puzzle = parse_tatham(entry["tatham"])
    assert to_tatham(puzzle) == entry["tatham"]
    assert parse_url(to_url(puzzle)) == puzzle
    outcome = solve(puzzle, 2, Deadline.after(60))
    assert outcome.complete and outcome.count == entry["answers"] == 1


@pytest.mark.slow
def test_our_levels_follow_tathams() -> None:
    entries = tathams()
    ours = [PEOPLE.level_names.index(DIFFICULTY.grade(parse_tatham(e["tatham"]), Deadline.after(60)).level or "expert")
            for e in entries]
    assert spearman([TATHAM_ORDER.index(e["level"]) for e in entries], ours) >= 0.8


@pytest.mark.parametrize("seed", range(2))
def test_hints_with_pencil_marks_follow_the_solution_to_the_end(seed: int) -> None:
    made = generate_puzzle(SkyscrapersParams(size=5, difficulty="hard"), seed, Deadline.after(120))
    n, solution = 5, made.solution.digits
    digits: list[list[int | None]] = [[None] * n for _ in range(n)]
    marks: list[list[list[int] | None]] = [[None] * n for _ in range(n)]
    for _ in range(n * n * n + 1):
        state = DIFFICULTY.state_model(digits=digits, candidates=marks)
        hint = DIFFICULTY.hint(made.puzzle, state, made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), d = step["cell"], step["value"]
            if step.get("eliminate"):
                assert d != solution[r][c], hint.message  # never the solution's height taken out
                marks[r][c] = [k for k in (marks[r][c] or range(1, n + 1)) if k != d]
            else:
                assert d == solution[r][c], hint.message  # never a height against the solution
                digits[r][c] = d
    else:
        pytest.fail("hints did not finish the puzzle")
    givens = made.puzzle.givens
    assert [[givens[r][c] or digits[r][c] for c in range(n)] for r in range(n)] == solution  # the page shows the givens


def test_a_hint_names_a_wrong_height() -> None:
    made = generate_puzzle(SkyscrapersParams(size=5, difficulty="easy"), 1, Deadline.after(60))
    digits: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    digits[0][0] = made.solution.digits[0][0] % 5 + 1
    hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(digits=digits), made.solution, Deadline.after(20))
    assert hint.technique == "mistakes" and hint.mistakes == [[0, 0]]


def test_bad_formats_say_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="skyscrapers"):
        parse_url("https://puzz.link/p?sudoku/4/4/g")
    with pytest.raises(InvalidInput, match="square"):
        parse_url("https://puzz.link/p?skyscrapers/4/3/k13h4j3g")
    with pytest.raises(InvalidInput, match="clues"):
        parse_tatham("4:1/2/3")
    with pytest.raises(InvalidInput, match="cells"):
        parse_tatham("4:2/1/3/2/2/2/1/3/2/4/1/3/2/1/2/2,a1")


def test_the_picture_draws_clues_givens_and_the_solution() -> None:
    entry = published()[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, SkyscrapersAnswer(digits=entry["digits"]))
    assert svg.count('class="clue ') == 4 and svg.count('class="solved-digit"') == 16
    play = render(puzzle, None, play=True)
    assert play.count('class="entry"') == 16 and play.count("data-cell=") == 16


@pytest.mark.parametrize("difficulty", ["hard", "expert"])
def test_hard_and_expert_at_the_largest_size_are_made_through_the_service(client, difficulty: str) -> None:
    """Hard and expert at 9×9, asked as a user asks: the puzzle grades at the level and z3 finds its answer alone."""
    size = 9
    response = client.post("/generate/skyscrapers", params={"size": size, "difficulty": difficulty, "seed": 5})
    assert response.status_code == 201, response.text
    puzzle = SkyscrapersPuzzle(**response.json()["puzzle"])
    assert puzzle.size == size
    assert DIFFICULTY.grade(puzzle, Deadline.after(60)).level == difficulty
    assert solve(puzzle, 2, Deadline.after(120), "z3").count == 1
