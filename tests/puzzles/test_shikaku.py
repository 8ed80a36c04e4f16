"""Shikaku through the genre kit: its model against a brute force over every tiling on both backends, the
generator's compiled levels against the kit's array levels and its search for a second answer against the brute
force, the published puzzles (pzprjs's example, Tatham's IDs) with one answer each, the checker naming each broken rule,
generated puzzles reproducible and at their level, hints sound on a partial grid, and the picture."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from generators.shikaku import DIFFICULTY, ShikakuParams, check, generate_puzzle, solve, tile
from solvers.common import Deadline, InvalidInput
from solvers.kit.arrays import TRIALS, State, solves
from solvers.kit.human import SHORT_ROUNDS
from solvers.shikaku import kernel
from solvers.shikaku.picture import render
from solvers.shikaku.puzzlink import parse_url
from solvers.shikaku.rules import ShikakuAnswer, ShikakuPuzzle, model
from solvers.shikaku.tatham import parse_tatham
from tests.conftest import REFERENCE, read_jsonl

Cell = tuple[int, int]


def tilings(rows: int, cols: int) -> Iterator[list[list[Cell]]]:
    """Every way to cut the grid into rectangles: the first free cell is the top left corner of the next one."""

    def grow(free: set[Cell], found: list[list[Cell]]) -> Iterator[list[list[Cell]]]:
        if not free:
            yield found
            return
        r, c = min(free)
        for h in range(1, rows - r + 1):
            for w in range(1, cols - c + 1):
                cells = [(r + i, c + j) for i in range(h) for j in range(w)]
                if set(cells) <= free:
                    yield from grow(free - set(cells), [*found, cells])

    yield from grow({(r, c) for r in range(rows) for c in range(cols)}, [])


def brute_force(puzzle: ShikakuPuzzle) -> list[frozenset[frozenset[Cell]]]:
    """The tilings whose every rectangle holds one number, its area: each as a set of rectangles."""
    found = []
    for rects in tilings(puzzle.rows, puzzle.cols):
        held = [[puzzle.numbers[r][c] for r, c in rect if puzzle.numbers[r][c] is not None] for rect in rects]
        if all(len(h) == 1 and h[0] == len(rect) for h, rect in zip(held, rects, strict=True)):
            found.append(frozenset(frozenset(rect) for rect in rects))
    return found


def as_rectangles(regions: list[list[int]]) -> frozenset[frozenset[Cell]]:
    groups: dict[int, set[Cell]] = {}
    for r, row in enumerate(regions):
        for c, v in enumerate(row):
            groups.setdefault(v, set()).add((r, c))
    return frozenset(frozenset(g) for g in groups.values())


def canonical(rects: frozenset[frozenset[Cell]]) -> list[list[Cell]]:
    return sorted(sorted(rect) for rect in rects)


def small_puzzle(seed: int) -> ShikakuPuzzle:
    """A random 3×4 tiling's areas at random cells, one number sometimes moved or changed (maybe no answer)."""
    rng = random.Random(seed)
    board: list[list[int | None]] = [[None] * 4 for _ in range(3)]
    for top, left, bottom, right in tile(3, 4, rng):
        board[rng.randint(top, bottom)][rng.randint(left, right)] = (bottom - top + 1) * (right - left + 1)
    if rng.random() < 0.3:
        r, c = rng.choice([(r, c) for r in range(3) for c in range(4) if board[r][c]])
        board[r][c] = rng.randrange(1, 7)
    return ShikakuPuzzle(rows=3, cols=4, numbers=board)


@pytest.mark.parametrize("seed", range(12))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = small_puzzle(seed)
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 100, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), (backend, puzzle.numbers)
        assert sorted(map(canonical, (as_rectangles(s["regions"]) for s in outcome.solutions))) == \
            sorted(map(canonical, truth))


def reading_on_arrays(puzzle: ShikakuPuzzle, level: int) -> tuple[int, bool, int, bool]:
    """What ``kernel.levels`` answers, read with the kit's array levels (``solvers.kit.arrays.State``): the keys,
    whether the rules broke, the keys the levels up to ``level`` decide, and, some left open, whether the next
    level then solves the board."""
    puzzle_model = model(puzzle)
    state, keys = State(puzzle_model), len(puzzle_model.keys)
    if state.follow():
        return keys, True, keys, False
    for rounds in (SHORT_ROUNDS, None)[:level]:
        if not state.trials(rounds, set()):
            return keys, True, keys, False
    known = sum(v >= 0 for v in state.values)
    if known == keys or level == 2:
        return keys, False, known, False
    return keys, False, known, state.trials((SHORT_ROUNDS, None)[level], set()) and state.solved()


def walk_readings(seed: int) -> set[tuple[int, bool, bool, bool]]:
    """The boards of a walk like ``harden``'s (a random tiling's numbers at random cells, one moved at a time,
    now and then one changed: no answer), each read by ``kernel.levels`` and the kit's array levels at each
    level, which must agree; per level what it made of them (broken, solved, the next level solving)."""
    rng = random.Random(seed)
    rows, cols = rng.randint(3, 12), rng.randint(3, 12)
    rects = tile(rows, cols, rng)
    at = {rect: (rng.randint(rect[0], rect[2]), rng.randint(rect[1], rect[3])) for rect in rects}
    seen = set()
    for _ in range(25):
        rect = rng.choice(rects)
        at[rect] = (rng.randint(rect[0], rect[2]), rng.randint(rect[1], rect[3]))
        board: list[list[int | None]] = [[None] * cols for _ in range(rows)]
        for top, left, bottom, right in rects:
            r, c = at[(top, left, bottom, right)]
            board[r][c] = (bottom - top + 1) * (right - left + 1)
        if rng.random() < 0.1:
            r, c = rng.choice([(r, c) for r in range(rows) for c in range(cols) if board[r][c]])
            board[r][c] = rng.randrange(1, 9)
        puzzle = ShikakuPuzzle(rows=rows, cols=cols, numbers=board)
        numbers = np.array([[v or 0 for v in row] for row in board], np.int64)
        for level in range(3):
            got = kernel.levels(numbers, level, SHORT_ROUNDS, True)
            assert got == reading_on_arrays(puzzle, level), (board, level)
            seen.add((level, got[1], got[2] == got[0], got[3]))
        assert (not got[1] and got[2] == got[0]) == solves(model(puzzle), trials=TRIALS)
    return seen


@pytest.mark.parametrize("seeds", [range(0, 15), range(15, 30)])
def test_the_compiled_levels_read_what_the_kits_array_levels_read(seeds: range) -> None:
    """``kernel.levels`` stands in for the kit's levels in the generator: the same keys, decided by the same
    levels, broken and solved alike, on boards of every kind."""
    seen = set().union(*map(walk_readings, seeds))
    assert {(0, True, True, False), (0, False, True, False), (0, False, False, False), (1, False, False, False),
            (2, False, True, False), (2, False, False, False)} <= seen


@pytest.mark.parametrize(("level", "seed"), [(level, seed) for level in ("medium", "hard") for seed in range(4)])
def test_the_compiled_levels_find_the_level_below_stuck_on_a_puzzle_of_the_level(level: str, seed: int) -> None:
    """The walk's end (rarely met on a random walk): the level below stuck, the level itself solving."""
    made = generate_puzzle(ShikakuParams(size=7, difficulty=level), seed, Deadline.after(60))
    numbers = np.array([[v or 0 for v in row] for row in made.puzzle.numbers], np.int64)
    below = DIFFICULTY.names.index(level) - 1
    got = kernel.levels(numbers, below, SHORT_ROUNDS, True)
    assert got == reading_on_arrays(made.puzzle, below) and got[2] < got[0] and got[3]


def owners(puzzle: ShikakuPuzzle, rects: frozenset[frozenset[Cell]]) -> np.ndarray:
    """An answer as ``kernel.other`` reads it: each cell's number, by its place in reading order."""
    place = {cell: n for n, cell in enumerate(sorted((r, c) for r, row in enumerate(puzzle.numbers)
                                                     for c, v in enumerate(row) if v is not None))}
    grid = np.full((puzzle.rows, puzzle.cols), -1, np.int64)
    for rect in rects:
        n = next(place[cell] for cell in rect if cell in place)
        for r, c in rect:
            grid[r, c] = n
    return grid


@pytest.mark.parametrize("seed", range(40))
def test_the_search_for_another_answer_finds_one_exactly_when_brute_force_does(seed: int) -> None:
    """``kernel.other``, which the generator asks instead of a SAT count, against every tiling: given each answer
    (and a grid that is none), it finds an answer other than it, a real one, exactly when there is one (boards
    of no answer to three)."""
    puzzle = small_puzzle(seed)
    numbers = np.array([[v or 0 for v in row] for row in puzzle.numbers], np.int64)
    truth = [owners(puzzle, rects) for rects in brute_force(puzzle)]
    for mine in [*truth, np.full(numbers.shape, -1, np.int64)]:
        found, other = kernel.other(numbers, mine, 10_000)
        others = [answer for answer in truth if not (answer == mine).all()]
        assert found == (1 if others else 0), (puzzle.numbers, mine)
        if others:
            assert any((answer == other).all() for answer in others)


def published() -> list[tuple[ShikakuPuzzle, list[list[int]] | None]]:
    pzprjs = [(parse_url(e["url"]), e["regions"]) for e in read_jsonl(REFERENCE / "shikaku" / "pzprjs.jsonl")]
    return pzprjs + [(parse_tatham(e["tatham"]), None) for e in read_jsonl(REFERENCE / "shikaku" / "tatham.jsonl")[:6]]


@pytest.mark.parametrize(("puzzle", "regions"), published())
def test_published_puzzles_have_one_answer_which_the_checker_accepts(puzzle: ShikakuPuzzle,
                                                                      regions: list[list[int]] | None) -> None:
    outcome = solve(puzzle, 2, Deadline.after(30))
    assert outcome.complete and outcome.count == 1
    assert check(puzzle, ShikakuAnswer(**outcome.solutions[0])) == []
    if regions is not None:  # the answer pzprjs's checker accepts, with its own ids
        assert as_rectangles(outcome.solutions[0]["regions"]) == as_rectangles(regions)
        assert check(puzzle, ShikakuAnswer(regions=regions)) == []


@pytest.mark.parametrize("entry", read_jsonl(REFERENCE / "shikaku" / "generated.jsonl")[::3],
                         ids=lambda e: f"{e['size']}-{e['level']}-{e['seed']}")
def test_our_puzzles_whose_answer_pzprjs_accepted_have_that_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    outcome = solve(puzzle, 2, Deadline.after(30))
    assert outcome.complete and outcome.count == 1
    assert as_rectangles(outcome.solutions[0]["regions"]) == as_rectangles(entry["regions"])


PZPRJS = parse_url(read_jsonl(REFERENCE / "shikaku" / "pzprjs.jsonl")[0]["url"])


def broken(regions: list[list[int]]) -> list[tuple[str, list[list[int]]]]:
    return sorted((v.rule, v.cells) for v in check(PZPRJS, ShikakuAnswer(regions=regions)))


def test_the_checker_names_each_broken_rule_and_its_cells() -> None:
    right = solve(PZPRJS, 1, Deadline.after(10)).solutions[0]["regions"]
    merged = [row[:] for row in right]
    merged[0][1] = merged[0][2] = merged[0][0]  # the 5's column takes two cells of the 6 beside it
    assert broken(merged) == [("cell-in-one-rectangle", [[0, 1]]), ("cell-in-one-rectangle", [[0, 2]]),
                              ("number-area", [[1, 1]])]  # no rectangle of the 5 reaches r1c2 or r1c3
    apart = [row[:] for row in right]
    apart[5][0] = 99  # one cell of the bottom 5 on its own, in no number's rectangle
    assert broken(apart) == [("cell-in-one-rectangle", [[5, 0]]), ("number-area", [[5, 1]])]
    assert check(PZPRJS, ShikakuAnswer(regions=[[v * 7 - 3 for v in row] for row in right])) == []  # any ids


def test_an_answer_of_the_wrong_shape_says_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="6 rows"):
        check(PZPRJS, ShikakuAnswer(regions=[[1] * 6] * 5))


@pytest.mark.parametrize(("size", "level", "seed"), [(7, "easy", 3), (5, "medium", 3), (5, "hard", 1), (19, "medium", 2),
                                                    (19, "hard", 1)])
def test_each_level_generates_a_unique_puzzle_that_grades_at_it(size: int, level: str, seed: int) -> None:
    made = generate_puzzle(ShikakuParams(size=size, difficulty=level), seed, Deadline.after(120))
    assert check(made.puzzle, made.solution) == []
    outcome = solve(made.puzzle, 2, Deadline.after(20), "z3")
    assert outcome.complete and outcome.count == 1
    assert DIFFICULTY.grade(made.puzzle, Deadline.after(30)).level == level


def test_a_hint_on_a_partial_grid_is_sound_and_names_its_cells() -> None:
    solution = solve(PZPRJS, 1, Deadline.after(10)).solutions[0]
    partial = [[v if r < 2 else None for v in row] for r, row in enumerate(solution["regions"])]
    hint = DIFFICULTY.hint(PZPRJS, DIFFICULTY.state_model(regions=partial), ShikakuAnswer(**solution),
                           Deadline.after(20))
    assert hint.decide and not hint.mistakes and hint.because
    for entry in hint.decide:
        (r, c), value = entry["cell"], entry["value"]
        assert (solution["regions"][r][c] != value) if entry.get("eliminate") else solution["regions"][r][c] == value
    wrong = [row[:] for row in partial]
    wrong[0][0] = solution["regions"][0][1]
    assert DIFFICULTY.hint(PZPRJS, DIFFICULTY.state_model(regions=wrong), ShikakuAnswer(**solution),
                           Deadline.after(20)).mistakes == [[0, 0]]


def test_the_model_gives_each_number_its_own_cell() -> None:
    assert model(PZPRJS).givens() == {(r, c, n): 1 for n, (r, c) in enumerate(
        (r, c) for r in range(6) for c in range(6) if PZPRJS.numbers[r][c] is not None)}


def test_the_picture_outlines_the_solution_and_offers_every_inner_line_in_play() -> None:
    solution = ShikakuAnswer(**solve(PZPRJS, 1, Deadline.after(10)).solutions[0])
    borders = 'stroke-linecap="round"'
    assert render(PZPRJS).count(borders) == 0 < render(PZPRJS, solution).count(borders)
    assert render(PZPRJS, play=True).count("data-edge=") == 2 * 6 * 5
