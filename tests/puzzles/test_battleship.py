"""Battleship: the rules checker, the solver (against published puzzles, brute force and z3), the generator."""

from __future__ import annotations

import random
import time
from itertools import product
from pathlib import Path

import pytest
from pydantic import ValidationError

from generators.battleship import BattleshipParams, generate_puzzle, generate_unique, random_layout, sat_layout
from solvers.battleship import rules
from solvers.common import Deadline, InvalidInput
from tests.conftest import read_jsonl, share

Grid = list[list[int]]


def puzzle_for(ships: Grid, fleet: list[int], revealed: list[tuple[int, int, str]] = (), hide: set[str] = ()):
    """A puzzle whose counts come from ``ships``; ``hide`` holds "r3"/"c0" style counts to leave out."""
    rows, cols = len(ships), len(ships[0])
    return rules.BattleshipPuzzle(
        rows=rows,
        cols=cols,
        fleet=fleet,
        row_counts=[None if f"r{r}" in hide else sum(ships[r]) for r in range(rows)],
        col_counts=[None if f"c{c}" in hide else sum(ships[r][c] for r in range(rows)) for c in range(cols)],
        revealed=[{"cell": (r, c), "kind": k} for r, c, k in revealed],
    )


def grid(text: str) -> Grid:
    return [[int(ch == "#") for ch in line] for line in text.split()]


VALID = grid("""
###..#
......
#.##..
#....#
......
.#....
""")
FLEET = [3, 2, 2, 1, 1, 1]


def codes(puzzle: rules.BattleshipPuzzle, ships: Grid) -> list[str]:
    return sorted(v.rule for v in rules.check(puzzle, rules.BattleshipAnswer(ships=ships)))


# ---------------------------------------------------------------- rules


def test_valid_answer_has_no_violations() -> None:
    revealed = [(0, 0, "left"), (0, 1, "middle"), (0, 2, "right"), (2, 0, "top"), (3, 0, "bottom")]
    revealed += [(0, 5, "sub"), (1, 1, "water")]
    assert codes(puzzle_for(VALID, FLEET, revealed), VALID) == []


def test_standard_fleet_rule() -> None:
    assert rules.standard_fleet(6, 6) == [3, 2, 2, 1, 1, 1]
    assert rules.standard_fleet(7, 7) == [3, 2, 2, 1, 1, 1]
    assert rules.standard_fleet(8, 11) == [4, 3, 3, 2, 2, 2, 1, 1, 1, 1]
    assert rules.standard_fleet(12, 6) == [4, 3, 3, 2, 2, 2, 1, 1, 1, 1]  # 72 cells: as 8×8-11×11
    assert rules.standard_fleet(11, 12) == [5, 4, 4, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 1]


def test_diagonal_touch_is_reported_with_both_cells() -> None:
    ships = grid("""
###..#
...#..
#.....
#....#
......
.#.#..
""")
    found = rules.check(puzzle_for(VALID, FLEET), rules.BattleshipAnswer(ships=ships))
    touch = [v for v in found if v.rule == "ships-touch"]
    assert [v.cells for v in touch] == [[[0, 2], [1, 3]]]


def test_bent_group_is_not_a_ship() -> None:
    ships = grid("""
###..#
..#...
#.....
#....#
......
.#.#..
""")
    assert "ship-not-straight" in codes(puzzle_for(VALID, FLEET), ships)


def test_ship_length_not_in_fleet_and_wrong_counts() -> None:
    ships = grid("""
####.#
......
#.##..
#....#
......
.#.#..
""")
    found = codes(puzzle_for(VALID, FLEET), ships)
    assert "ship-length-not-in-fleet" in found  # a 4 in a fleet of 3, 2, 2, 1, 1, 1
    assert "fleet-count-mismatch" in found  # and no 3
    assert "row-count-mismatch" in found and "col-count-mismatch" in found


def test_null_counts_are_not_checked() -> None:
    ships = [row[:] for row in VALID]
    ships[4][4] = 1
    hidden = puzzle_for(VALID, FLEET, hide={"r4", "c4"})
    found = codes(hidden, ships)
    assert "row-count-mismatch" not in found and "col-count-mismatch" not in found
    assert "fleet-count-mismatch" in found


def test_revealed_cells_are_honoured() -> None:
    revealed = [(1, 1, "water"), (0, 0, "water"), (4, 4, "sub"), (0, 1, "left"), (2, 2, "left"), (2, 3, "left")]
    found = rules.check(puzzle_for(VALID, FLEET, revealed), rules.BattleshipAnswer(ships=VALID))
    by_rule = {(v.rule, tuple(v.cells[0])) for v in found}
    assert by_rule == {
        ("revealed-water-has-ship", (0, 0)),
        ("revealed-ship-missing", (4, 4)),
        ("revealed-wrong-segment", (0, 1)),
        ("revealed-wrong-segment", (2, 3)),
    }


@pytest.mark.parametrize("ships", [[[0] * 6] * 5, [[0] * 5] * 6, [[0, 0, 0, 0, 0, 2]] * 6])
def test_answer_of_wrong_shape_is_invalid_input(ships: Grid) -> None:
    with pytest.raises(InvalidInput) as exc:
        rules.check(puzzle_for(VALID, FLEET), rules.BattleshipAnswer(ships=ships))
    assert exc.value.violations and exc.value.violations[0].rule in {"wrong-dimensions", "bad-value"}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"row_counts": [1, 2]}, "row_counts"),
        ({"col_counts": [7, 0, 0, 0, 0, 0]}, "col_counts"),
        ({"fleet": [7]}, "1..6"),
        ({"fleet": [0]}, "1..6"),
        ({"revealed": [{"cell": [6, 0], "kind": "water"}]}, "outside"),
        ({"revealed": [{"cell": [1, 1], "kind": "water"}, {"cell": [1, 1], "kind": "sub"}]}, "more than once"),
        ({"revealed": [{"cell": [1, 1], "kind": "boat"}]}, "water"),
        ({"rows": 0}, "greater than or equal"),
    ],
)
def test_malformed_puzzle_is_rejected_with_a_clear_message(change: dict, words: str) -> None:
    data = puzzle_for(VALID, FLEET).model_dump() | change
    with pytest.raises(ValidationError, match=words):
        rules.BattleshipPuzzle.model_validate(data)


# ---------------------------------------------------------------- solver


def test_published_sample_solves_to_stored_unique_solution(reference_dir) -> None:
    """Every course puzzle and every 10th janko.at puzzle; the whole set is the slow test below."""
    lines = published(reference_dir, "courses") + published(reference_dir, "janko")[::10]
    assert len(lines) > 100
    for line in lines:
        _assert_solves_to_stored(line, "cadical")


@pytest.mark.slow
def test_every_published_puzzle_solves_to_stored_unique_solution(reference_dir) -> None:
    """A sixth of them, spread over both sets (all in `make test-whole`)."""
    lines = published(reference_dir, "janko") + published(reference_dir, "courses")
    assert len(lines) == 894
    for line in share(lines, 6):
        _assert_solves_to_stored(line, "cadical")


@pytest.mark.slow
def test_published_puzzles_on_z3_backend(reference_dir) -> None:
    lines = published(reference_dir, "courses")[::4] + published(reference_dir, "janko")[::120]
    for line in lines:
        _assert_solves_to_stored(line, "z3")


def published(reference_dir: Path, name: str) -> list[dict]:
    return read_jsonl(reference_dir / "battleship" / f"{name}.jsonl")


def _assert_solves_to_stored(line: dict, backend: str) -> None:
    puzzle = rules.BattleshipPuzzle.model_validate(line["puzzle"])
    assert rules.check(puzzle, rules.BattleshipAnswer(**line["solution"])) == [], line["id"]
    outcome = rules.solve(puzzle, 2, Deadline.after(30), backend)
    assert outcome.status == "unique" and outcome.complete, (line["id"], outcome.status)
    assert outcome.solutions == [line["solution"]], line["id"]


def all_layouts(rows: int, cols: int, fleet: list[int]) -> set[tuple[tuple[int, ...], ...]]:
    """Every legal layout by plain backtracking over ship positions (shares nothing with the SAT model)."""
    found: set[tuple[tuple[int, ...], ...]] = set()
    ships = [[0] * cols for _ in range(rows)]

    def free(cells: list[tuple[int, int]]) -> bool:
        return all(
            not ships[rr][cc]
            for r, c in cells
            for rr in range(r - 1, r + 2)
            for cc in range(c - 1, c + 2)
            if 0 <= rr < rows and 0 <= cc < cols
        )

    def place(i: int) -> None:
        if i == len(fleet):
            found.add(tuple(map(tuple, ships)))
            return
        k = fleet[i]
        for vertical, r, c in product((False, True) if k > 1 else (False,), range(rows), range(cols)):
            cells = [(r + j, c) if vertical else (r, c + j) for j in range(k)]
            if all(rr < rows and cc < cols for rr, cc in cells) and free(cells):
                for rr, cc in cells:
                    ships[rr][cc] = 1
                place(i + 1)
                for rr, cc in cells:
                    ships[rr][cc] = 0

    place(0)
    return found


@pytest.mark.parametrize(("rows", "cols", "fleet"), [(5, 5, [3, 2, 1, 1]), (4, 6, [3, 2, 2]), (5, 4, [2, 2, 1, 1, 1])])
def test_solver_matches_brute_force(rows: int, cols: int, fleet: list[int]) -> None:
    layouts = all_layouts(rows, cols, fleet)
    assert layouts
    rng = random.Random(rows * 100 + cols)
    for trial in range(25):
        base = [list(row) for row in rng.choice(sorted(layouts))]
        hide = {f"{axis}{i}" for axis, n in (("r", rows), ("c", cols)) for i in range(n) if rng.random() < 0.3}
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        # Revealed kinds mostly true to `base`, sometimes arbitrary (possibly contradictory).
        revealed = [
            (r, c, rules.segment_kind(base, r, c) if rng.random() < 0.8 else rng.choice(rules.KINDS))
            for r, c in rng.sample(cells, rng.randint(0, 3))
        ]
        puzzle = puzzle_for(base, fleet, revealed, hide)
        fits_counts = [  # a quick filter first; the checker decides
            [list(row) for row in layout]
            for layout in layouts
            if all(n is None or sum(layout[r]) == n for r, n in enumerate(puzzle.row_counts))
        ]
        expected = sorted(ships for ships in fits_counts if not rules.check(puzzle, rules.BattleshipAnswer(ships=ships)))
        backend = "z3" if trial % 5 == 0 else "cadical"
        outcome = rules.solve(puzzle, len(layouts) + 1, Deadline.after(30), backend)
        assert outcome.complete
        assert sorted(s["ships"] for s in outcome.solutions) == expected, (trial, backend)


@pytest.mark.parametrize(
    ("puzzle", "without_search"),
    [
        # 15 subs need 15 cells apart from each other: no room on 6×6 (the footprint bound)
        ({"rows": 6, "cols": 6, "fleet": [1] * 15, "row_counts": [None] * 6, "col_counts": [None] * 6}, True),
        # rows say 9 ship cells, columns say 10
        ({"rows": 6, "cols": 6, "fleet": FLEET, "row_counts": [3, 2, 2, 1, 1, 0], "col_counts": [2, 2, 2, 2, 1, 1]},
         True),
        # counts sum right but the fleet cannot fit them: every cell of one row
        ({"rows": 6, "cols": 6, "fleet": FLEET, "row_counts": [6, 0, 0, 0, 4, 0], "col_counts": [2, 2, 2, 2, 1, 1]},
         False),
        # a 6×6 full of 2s with a count pattern only a search can rule out
        ({"rows": 6, "cols": 6, "fleet": [2] * 6, "row_counts": [2, 2, 2, 2, 2, 2], "col_counts": [2] * 6}, False),
    ],
)
def test_impossible_puzzles_answer_none_promptly(puzzle: dict, without_search: bool) -> None:
    """The cheap proofs answer before any search; the others are proved by a search that finishes within
    the deadline. The wall-clock bound only catches a hang (CaDiCaL checks the deadline between calls
    only): a tighter one would fail on a loaded machine without saying anything about the solver."""
    model = rules.BattleshipPuzzle.model_validate(puzzle)
    assert rules.obviously_impossible(model) == without_search
    started = time.perf_counter()
    outcome = rules.solve(model, 2, Deadline.after(10))
    assert outcome.status == "none" and outcome.complete
    assert time.perf_counter() - started < 30


def test_unknown_counts_give_multiple() -> None:
    puzzle = puzzle_for(VALID, FLEET, hide={f"r{r}" for r in range(6)} | {f"c{c}" for c in range(6)})
    outcome = rules.solve(puzzle, 5, Deadline.after(10))
    assert outcome.status == "multiple" and len(outcome.solutions) == 5 and not outcome.complete
    for solution in outcome.solutions:
        assert rules.check(puzzle, rules.BattleshipAnswer(**solution)) == []


# ---------------------------------------------------------------- generator


def assert_minimal_unique(puzzle: rules.BattleshipPuzzle, ships: Grid) -> None:
    for backend in ("cadical", "z3"):
        outcome = rules.solve(puzzle, 2, Deadline.after(60), backend)
        assert outcome.status == "unique" and outcome.solutions == [{"ships": ships}], backend
    for i in range(len(puzzle.revealed)):
        fewer = puzzle.model_copy(update={"revealed": puzzle.revealed[:i] + puzzle.revealed[i + 1:]})
        assert rules.solve(fewer, 2, Deadline.after(60)).status == "multiple", f"revealed cell {i} is not needed"


@pytest.mark.parametrize(
    ("params", "seed"),
    [
        (BattleshipParams(size=6), 1),
        (BattleshipParams(), 2),
        (BattleshipParams(), 3),
        (BattleshipParams(rows=7, cols=12), 4),
        (BattleshipParams(size=8, fleet="3,3,2,2,1"), 5),
    ],
)
def test_generated_puzzles_are_unique_minimal_and_checked(params: BattleshipParams, seed: int) -> None:
    # The minimal-clue draws every difficulty level starts from (``expert`` keeps them as they are;
    # tests/test_battleship_difficulty.py checks the levels and that easier ones reveal more).
    result = generate_unique(params, seed, Deadline.after(60))
    puzzle, ships = result.puzzle, result.solution.ships
    rows, cols = params.shape()
    assert (puzzle.rows, puzzle.cols, puzzle.fleet) == (rows, cols, params.ships())
    assert rules.check(puzzle, result.solution) == []  # counts and every revealed cell agree with it
    assert_minimal_unique(puzzle, ships)


@pytest.mark.slow
@pytest.mark.parametrize("size", [12, 15])
def test_large_generated_puzzles_are_unique_and_minimal(size: int) -> None:
    result = generate_unique(BattleshipParams(size=size), size, Deadline.after(120))
    assert rules.check(result.puzzle, result.solution) == []
    assert_minimal_unique(result.puzzle, result.solution.ships)


def test_random_layout_is_legal() -> None:
    rng = random.Random(5)
    for size in (6, 10, 15):
        fleet = rules.standard_fleet(size, size)
        ships = random_layout(size, size, fleet, rng)
        puzzle = rules.BattleshipPuzzle(rows=size, cols=size, fleet=fleet, row_counts=[None] * size, col_counts=[None] * size)
        assert rules.check(puzzle, rules.BattleshipAnswer(ships=ships)) == []


def test_fleet_that_passes_the_footprint_bound_but_cannot_fit_is_invalid_input() -> None:
    params = BattleshipParams(size=6, fleet="4,3,3,2,2,1,1")  # 46 of 49 footprint cells, yet no layout
    with pytest.raises(InvalidInput, match="cannot be placed"):
        generate_puzzle(params, 0, Deadline.after(60))


def test_sat_layout_fallback_is_legal() -> None:
    fleet = [3, 3, 2, 2, 2, 1, 1]
    ships = sat_layout(6, 6, fleet, random.Random(1), Deadline.after(30))
    puzzle = rules.BattleshipPuzzle(rows=6, cols=6, fleet=fleet, row_counts=[None] * 6, col_counts=[None] * 6)
    assert rules.check(puzzle, rules.BattleshipAnswer(ships=ships)) == []


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"fleet": "4,x"}, "comma-separated"),
        ({"fleet": ""}, "comma-separated"),
        ({"fleet": "11", "size": 10}, "1..10"),
        ({"fleet": "0,1"}, "1..10"),
        ({"fleet": ",".join(["1"] * 40), "size": 6}, "cannot fit a 6×6 grid"),
        ({"size": 5}, "greater than or equal"),
        ({"rows": 16}, "less than or equal"),
    ],
)
def test_bad_generation_params_are_rejected(query: dict, words: str) -> None:
    with pytest.raises(ValidationError, match=words):
        BattleshipParams.model_validate(query)


def test_params_defaults_and_overrides() -> None:
    assert BattleshipParams().shape() == (10, 10)
    assert BattleshipParams().ships() == rules.standard_fleet(10, 10)
    assert BattleshipParams(size=12, rows=7).shape() == (7, 12)
    assert BattleshipParams(fleet=" 2, 4 ,3").ships() == [4, 3, 2]
