"""Nurikabe on the kit: its model against brute force and both SAT backends, the published pzprjs example and our
generated puzzles pzprjs accepted, generation (reproducible, unique, of its level), hints, the kit's Islands rule
against brute force, and the puz.link codec both ways."""

from __future__ import annotations

import itertools
import random

import pytest

from generators.nurikabe import PUZZLE_TYPE, NurikabeParams, generate_puzzle
from solvers.common import Deadline, InvalidInput
from solvers.kit.islands import Islands
from solvers.kit.rules import Broken
from solvers.nurikabe.picture import render
from solvers.nurikabe.puzzlink import parse_url, to_url
from solvers.nurikabe.rules import NurikabeAnswer, NurikabePuzzle
from tests.conftest import REFERENCE, read_jsonl

check, solve, DIFFICULTY = PUZZLE_TYPE.check, PUZZLE_TYPE.solve, PUZZLE_TYPE.difficulty


def entries(name: str) -> list[dict]:
    return read_jsonl(REFERENCE / "nurikabe" / f"{name}.jsonl")


def regions(grid: list[list[int]], value: int) -> list[set[tuple[int, int]]]:
    rows, cols = len(grid), len(grid[0])
    left = {(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == value}
    found = []
    while left:
        stack = [left.pop()]
        group = set(stack)
        while stack:
            r, c = stack.pop()
            for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if x in left:
                    left.discard(x)
                    group.add(x)
                    stack.append(x)
        found.append(group)
    return found


def brute_force(puzzle: NurikabePuzzle) -> list[list[list[int]]]:
    """Every shading that keeps the rules, each written here again from its sentence."""
    rows, cols, found = puzzle.rows, puzzle.cols, []
    for bits in itertools.product((0, 1), repeat=rows * cols):
        grid = [list(bits[r * cols:(r + 1) * cols]) for r in range(rows)]
        if len(regions(grid, 1)) > 1:
            continue
        if any(grid[r][c] and grid[r][c + 1] and grid[r + 1][c] and grid[r + 1][c + 1]
               for r in range(rows - 1) for c in range(cols - 1)):
            continue
        islands = regions(grid, 0)
        numbers = [[puzzle.numbers[r][c] for r, c in island if puzzle.numbers[r][c] is not None] for island in islands]
        if all(len(n) == 1 and n[0] == len(island) for n, island in zip(numbers, islands, strict=True)) and \
                all(grid[r][c] == 0 for r in range(rows) for c in range(cols) if puzzle.numbers[r][c] is not None):
            found.append(grid)
    return found


def small_puzzle(seed: int) -> NurikabePuzzle:
    rng = random.Random(seed)
    rows, cols = 3, 4
    numbers: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    for _ in range(rng.randint(1, 3)):
        numbers[rng.randrange(rows)][rng.randrange(cols)] = rng.randint(1, 4)
    return NurikabePuzzle(rows=rows, cols=cols, numbers=numbers)


@pytest.mark.parametrize("seed", range(12))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = small_puzzle(seed)
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 5000, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), backend
        assert sorted(s["shaded"] for s in outcome.solutions) == sorted(truth)


def test_a_look_of_the_islands_rule_never_contradicts_an_answer() -> None:
    """Random partial states of 3×3 grids with two numbers: what a look decides, every answer that extends the
    state agrees with; a look that finds the rule broken has no such answer. The arrays' form of a state (-1 open,
    a tuple: ``takes_arrays``) reads the same."""
    rng = random.Random(1)
    cells = tuple((r, c) for r in range(3) for c in range(3))
    for _ in range(60):
        numbers = {cells[i]: rng.randint(1, 4) for i in rng.sample(range(9), 2)}
        rule = Islands(cells, 0, numbers, "island-size", "islands")
        answers = [bits for bits in itertools.product((0, 1), repeat=9)
                   if all(bits[cells.index(c)] == 0 for c in numbers)
                   and not rule.broken_by(dict(zip(cells, bits, strict=True)))]
        for _ in range(20):
            state = [rng.choice((0, 1, None, None)) for _ in range(9)]
            fitting = [a for a in answers if all(s is None or s == v for s, v in zip(state, a, strict=True))]
            try:
                decided = rule.look(state)
            except Broken:
                assert not fitting, (numbers, state)
                with pytest.raises(Broken):
                    rule.look(tuple(-1 if v is None else v for v in state))
                continue
            assert rule.look(tuple(-1 if v is None else v for v in state)) == decided
            for i, v in decided:
                assert all(a[i] == v for a in fitting), (numbers, state, i, v)


@pytest.mark.parametrize("entry", entries("pzprjs") + entries("ours"), ids=lambda e: e["url"][-24:])
def test_published_and_pzprjs_checked_puzzles_have_their_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    outcome = solve(puzzle, 2, Deadline.after(20))
    assert outcome.complete and outcome.count == 1 and outcome.solutions[0]["shaded"] == entry["shaded"]
    assert check(puzzle, NurikabeAnswer(shaded=entry["shaded"])) == []
    assert parse_url(to_url(puzzle)) == puzzle


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_each_level_is_made_at_the_largest_size_unique_and_at_its_level(level: str) -> None:
    made = generate_puzzle(NurikabeParams(size=10, difficulty=level), 2, Deadline.after(120))
    assert PUZZLE_TYPE.check(made.puzzle, made.solution) == []
    assert PUZZLE_TYPE.difficulty.grade(made.puzzle, Deadline.after(60)).level == level  # type: ignore[union-attr]
    for backend in ("cadical", "z3"):
        outcome = PUZZLE_TYPE.solve(made.puzzle, 2, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == 1, backend


def test_the_checker_names_each_broken_rule() -> None:
    entry = entries("pzprjs")[0]
    puzzle = parse_url(entry["url"])
    all_sea = [[0 if v is not None else 1 for v in row] for row in puzzle.numbers]
    assert {v.rule for v in check(puzzle, NurikabeAnswer(shaded=all_sea))} >= {"sea-pool", "island-size"}
    cut = [row[:] for row in entry["shaded"]]
    cut[4][1] = 0  # the sea's bottom left corner cut off and an island without a number
    assert {v.rule for v in check(puzzle, NurikabeAnswer(shaded=cut))} == {"sea-disconnected", "island-size"}


def test_hints_from_an_empty_grid_follow_the_solution_to_the_end() -> None:
    made = generate_puzzle(NurikabeParams(size=5, difficulty="medium"), 2, Deadline.after(60))
    grid: list[list[int | None]] = [[None] * 5 for _ in range(5)]
    for _ in range(26):
        hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(shaded=grid), made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), value = step["cell"], step["value"]
            assert value == made.solution.shaded[r][c], hint.message
            grid[r][c] = value
    else:
        pytest.fail("hints did not finish the puzzle")


def test_urls_read_what_they_write_and_refuse_what_they_cannot_solve() -> None:
    rng = random.Random(3)
    for _ in range(20):
        rows, cols = rng.randint(1, 12), rng.randint(1, 12)
        numbers = [[rng.choice([None, None, None, 1, 2, rng.randint(1, rows * cols)]) for _ in range(cols)]
                   for _ in range(rows)]
        puzzle = NurikabePuzzle(rows=rows, cols=cols, numbers=numbers)
        assert parse_url(to_url(puzzle)) == puzzle
    with pytest.raises(InvalidInput, match="unknown size"):
        parse_url("https://puzz.link/p?nurikabe/2/2/.g")


def test_the_picture_shows_numbers_and_sea() -> None:
    entry = entries("pzprjs")[0]
    svg = render(parse_url(entry["url"]), NurikabeAnswer(shaded=entry["shaded"]))
    assert "Nurikabe 5×5" in svg and ">5</text>" in svg and ">3</text>" in svg
    assert render(parse_url(entry["url"]), None, play=True).count('data-cell="') == 25
