"""Fillomino on the kit: its model against brute force on both SAT backends (also with the sizes past a small top
counted as one, to prove that count exact), the kit's Islands rule of a size against brute force, the published
pzprjs example, Tatham's puzzles and our generated ones pzprjs accepted, the checker's sentences, generation
(reproducible, unique, of its level), hints, the picture."""

from __future__ import annotations

import itertools
import random

import pytest

from generators.fillomino import DIFFICULTY, PUZZLE_TYPE, FillominoParams, filling, generate_puzzle
from solvers.common import Deadline, InvalidInput
from solvers.fillomino import rules
from solvers.fillomino.picture import render
from solvers.fillomino.puzzlink import parse_url
from solvers.fillomino.rules import FillominoAnswer, FillominoPuzzle, check, solve
from solvers.fillomino.tatham import parse_tatham
from solvers.kit.islands import Islands
from solvers.kit.rules import Broken
from tests.conftest import REFERENCE, read_jsonl

Grid = list[list[int]]


def entries(name: str) -> list[dict]:
    return read_jsonl(REFERENCE / "fillomino" / f"{name}.jsonl")


def near(cell: tuple[int, int], rows: int, cols: int) -> list[tuple[int, int]]:
    r, c = cell
    return [(a, b) for a, b in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if 0 <= a < rows and 0 <= b < cols]


def partitions(rows: int, cols: int) -> list[list[frozenset[tuple[int, int]]]]:
    """Every way to cut the grid into joined regions: the first free cell's region, each joined set of free cells
    holding it, then the rest."""
    found: list[list[frozenset[tuple[int, int]]]] = []

    def regions_from(start: tuple[int, int], free: frozenset) -> set[frozenset]:
        grown, frontier = set(), [frozenset({start})]
        while frontier:
            region = frontier.pop()
            if region in grown:
                continue
            grown.add(region)
            frontier += [region | {n} for cell in region for n in near(cell, rows, cols) if n in free and n not in region]
        return grown

    def cut(free: frozenset, made: list) -> None:
        if not free:
            found.append(made)
            return
        start = min(free)
        for region in regions_from(start, free):
            cut(free - region, [*made, region])

    cut(frozenset((r, c) for r in range(rows) for c in range(cols)), [])
    return found


def brute_force(puzzle: FillominoPuzzle) -> list[Grid]:
    """Every filling that keeps the rules, written here from their sentence: each region (a cut of the grid into
    joined regions) holds its size, two regions of one size never touch, the givens are kept."""
    answers = []
    for regions in partitions(puzzle.rows, puzzle.cols):
        grid = [[0] * puzzle.cols for _ in range(puzzle.rows)]
        for region in regions:
            for r, c in region:
                grid[r][c] = len(region)
        apart = all(grid[r][c] != grid[a][b] or any({(r, c), (a, b)} <= region for region in regions)
                    for r in range(puzzle.rows) for c in range(puzzle.cols) for a, b in near((r, c), puzzle.rows, puzzle.cols))
        if apart and all(v is None or grid[r][c] == v for r, row in enumerate(puzzle.givens) for c, v in enumerate(row)):
            answers.append(grid)
    return answers


def small_puzzle(seed: int) -> FillominoPuzzle:
    rng = random.Random(seed)
    rows, cols = rng.choice([(2, 3), (3, 3), (2, 4), (1, 5)])
    givens: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    for _ in range(rng.randint(1, 3)):
        givens[rng.randrange(rows)][rng.randrange(cols)] = rng.randint(1, 4)
    return FillominoPuzzle(rows=rows, cols=cols, givens=givens)


@pytest.mark.parametrize("seed", range(10))
def test_the_solver_counts_what_brute_force_counts_on_both_backends(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = small_puzzle(seed)
    truth = sorted(brute_force(puzzle))
    for floor in (rules.FLOOR, 2):  # 2: sizes past the top counted as one "over" size, and the count made exact
        monkeypatch.setattr(rules, "FLOOR", floor)
        for backend in ("cadical", "z3") if len(truth) <= 60 else ("cadical",):  # z3 counts a long list slowly
            outcome = solve(puzzle, 5000, Deadline.after(20), backend)
            assert outcome.complete and outcome.count == len(truth), (floor, backend)
            assert sorted(s["digits"] for s in outcome.solutions) == truth, (floor, backend)


def test_a_count_past_the_answers_kept_is_exact_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2×4 with no givens and sizes past 2 as one: the count asks the solver for an answer over 2 (none kept)."""
    monkeypatch.setattr(rules, "FLOOR", 2)
    puzzle = FillominoPuzzle(rows=2, cols=4, givens=[[None] * 4, [None] * 4])
    truth = len(brute_force(puzzle))
    outcome = solve(puzzle, rules.KEEP_ALL + 100, Deadline.after(20), keep=1)
    assert outcome.complete and outcome.count == truth and len(outcome.solutions) == 1


@pytest.mark.parametrize(("size", "at_least"), [(1, False), (2, False), (3, False), (4, False), (3, True)])
def test_a_reading_of_islands_of_a_size_never_contradicts_an_answer(size: int, at_least: bool) -> None:
    """Random partial states of a 3×4 grid: what a look or a whole reading decides, every answer that extends the
    state agrees with; one that finds the rule broken has no such answer. The arrays' form of a state (-1 open, a
    tuple: ``takes_arrays``) reads the same."""
    rng = random.Random(size)
    cells = tuple((r, c, 7) for r in range(3) for c in range(4))
    rule = Islands(cells, 1, {}, "size", "islands", size=size, at_least=at_least)
    answers = [bits for bits in itertools.product((0, 1), repeat=12) if not rule.broken_by(dict(zip(cells, bits, strict=True)))]
    for _ in range(150):
        state = [rng.choice((0, 1, None, None, None)) for _ in range(12)]
        fitting = [a for a in answers if all(s is None or s == v for s, v in zip(state, a, strict=True))]
        arrays_form = tuple(-1 if v is None else v for v in state)
        for read in (rule.look, rule.read):
            try:
                decided = read(state)
            except Broken:
                assert not fitting, state
                with pytest.raises(Broken):
                    read(arrays_form)
                continue
            assert read(arrays_form) == decided, state
            for i, v in decided:
                assert all(a[i] == v for a in fitting), (state, i, v)


def published() -> list[tuple[FillominoPuzzle, Grid]]:
    return ([(parse_url(e["url"]), e["digits"]) for e in entries("pzprjs") + entries("generated")]
            + [(parse_tatham(e["tatham"]), e["digits"]) for e in entries("tatham")])


def test_published_tatham_and_pzprjs_checked_puzzles_have_their_answer_alone() -> None:
    for puzzle, digits in published():
        outcome = solve(puzzle, 2, Deadline.after(20))
        assert outcome.complete and outcome.count == 1 and outcome.solutions[0]["digits"] == digits
        assert check(puzzle, FillominoAnswer(digits=digits)) == []


def test_tathams_answers_keep_his_rules_too() -> None:
    """His Filling takes numbers 1 to max(rows, cols) (9 at most); every answer here does."""
    for entry in entries("tatham"):
        puzzle = parse_tatham(entry["tatham"])
        assert max(map(max, entry["digits"])) <= min(9, max(puzzle.rows, puzzle.cols))


def test_the_checker_says_which_region_is_wrong() -> None:
    entry = entries("pzprjs")[0]
    puzzle, digits = parse_url(entry["url"]), entry["digits"]
    wrong = [row[:] for row in digits]
    wrong[1][5] = 2  # the 1 at r2c6 becomes a 2: the 2s beside it, r2c4 to r4c6, make one region of five
    assert [(v.rule, v.message) for v in check(puzzle, FillominoAnswer(digits=wrong))] == [
        ("region-size", "the 2 at r2c4 is in a region of 5 cells")]
    wrong[1][1] = 4  # a given 5 changed: its rule says so too
    assert {v.rule for v in check(puzzle, FillominoAnswer(digits=wrong))} == {"region-size", "given"}
    big = [[36] * 6 for _ in range(6)]
    assert "the 36 at r1c1 is in a region of 36 cells" not in {v.message for v in check(puzzle, FillominoAnswer(digits=big))}
    with pytest.raises(InvalidInput, match="outside 1..36"):
        check(puzzle, FillominoAnswer(digits=[[0] * 6 for _ in range(6)]))


def test_fillings_keep_the_rules_and_their_cap() -> None:
    rng = random.Random(2)
    for cap in (5, 9):
        grid = next(g for g in (filling(7, 9, cap, rng) for _ in range(100)) if g is not None)
        puzzle = FillominoPuzzle(rows=7, cols=9, givens=[[None] * 9 for _ in range(7)])
        assert check(puzzle, FillominoAnswer(digits=grid)) == [] and max(map(max, grid)) <= cap


@pytest.mark.parametrize(("level", "rows", "cols"), [("hard", 8, 8), ("expert", 5, 5)])
def test_the_upper_levels_are_made_at_their_most_cells_and_refused_past_them(level: str, rows: int, cols: int) -> None:
    made = generate_puzzle(FillominoParams(rows=rows, cols=cols, difficulty=level), 1, Deadline.after(120))
    assert PUZZLE_TYPE.check(made.puzzle, made.solution) == []
    assert DIFFICULTY.grade(made.puzzle, Deadline.after(60)).level == level
    for backend in ("cadical", "z3"):
        outcome = PUZZLE_TYPE.solve(made.puzzle, 2, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == 1, backend
    with pytest.raises(ValueError, match=f"'{level}' is made up to {rows * cols} cells"):
        FillominoParams(rows=rows, cols=cols + 1, difficulty=level)


def test_hints_from_an_empty_grid_follow_the_solution_to_the_end() -> None:
    """Each hint's numbers written and its eliminations pencilled (the page's state), until solved."""
    made = generate_puzzle(FillominoParams(size=5, difficulty="medium"), 2, Deadline.after(60))
    layout = rules.model(made.puzzle).layout
    target, decided, techniques = layout.read(made.solution.model_dump()), {}, set()
    for _ in range(len(target)):
        state = DIFFICULTY.state_model(**layout.state_of(decided))
        hint = DIFFICULTY.hint(made.puzzle, state, made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        techniques.add(hint.technique)
        for entry in hint.decide:
            key, value = layout.decision(entry)
            assert target[key] == value, hint.message
            decided[key] = value
    else:
        pytest.fail("hints did not finish the puzzle")
    assert techniques & {"complete region", "only way out", "too big to join", "out of reach"}


def test_a_hint_names_the_reading_and_the_region() -> None:
    puzzle = FillominoPuzzle(rows=1, cols=4, givens=[[3, 3, None, None]])
    hint = DIFFICULTY.hint(puzzle, DIFFICULTY.state_model(), FillominoAnswer(digits=[[3, 3, 3, 1]]), Deadline.after(20))
    assert hint.technique == "only way out" and "r1c1, r1c2 can only grow through r1c3" in hint.message
    assert hint.decide == [{"cell": [0, 2], "value": 3}]


def test_a_hint_that_places_a_size_past_the_top_writes_the_solutions_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sizes past 2 as one "over" size: the 4s' region, found by hints, is written as 4s, said as "more than 2"."""
    monkeypatch.setattr(rules, "FLOOR", 2)
    puzzle = FillominoPuzzle(rows=2, cols=3, givens=[[1, None, 1], [None, None, None]])
    solution = FillominoAnswer(digits=[[1, 4, 1], [4, 4, 4]])
    digits: list[list[int | None]] = [[1, None, 1], [None, None, None]]
    marks: list[list[list[int] | None]] = [[None] * 3 for _ in range(2)]
    said = []
    for _ in range(20):
        hint = DIFFICULTY.hint(puzzle, DIFFICULTY.state_model(digits=digits, candidates=marks), solution,
                               Deadline.after(20))
        if hint.technique == "solved":
            break
        for entry in hint.decide:
            (r, c), value = entry["cell"], entry["value"]
            if entry.get("eliminate"):
                marks[r][c] = [d for d in (marks[r][c] or [1, 2, 3]) if d != value]
            else:
                assert value == solution.digits[r][c], hint.message
                digits[r][c] = value
                said.append(hint.message)
    assert digits == solution.digits and any("more than 2" in message for message in said)


def test_the_picture_shows_givens_answer_and_regions() -> None:
    entry = entries("pzprjs")[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, FillominoAnswer(digits=entry["digits"]))
    assert "Fillomino 6×6" in svg and ">4</text>" in svg and "solved-digit" in svg
    assert render(puzzle, None, play=True).count('data-cell="') == 36
    assert PUZZLE_TYPE.check is check


def test_the_quick_look_before_cuts_finds_a_broken_island_exactly_when_the_faults_do() -> None:
    """``Islands._whole`` (bit masks, before the SAT refinement lists faults) on random complete grids, islands of a
    size or at least a size, cells in reading order or not."""
    rng = random.Random(4)
    for _ in range(2000):
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        cells = tuple((r, c, 3) for r in range(rows) for c in range(cols))
        if rng.random() < 0.3:
            cells = tuple(rng.sample(cells, len(cells)))
        rule = Islands(cells, rng.randint(0, 1), {}, "s", "s", size=rng.randint(1, 5), at_least=rng.random() < 0.3)
        values = [int(rng.random() < 0.5) for _ in cells]
        assert rule._whole(values) == (not rule._faults(values, closed=False)), values
