"""Slitherlink through the genre kit: its model against brute force (every region of cells whose outline is one
loop) and a second SAT backend, the published pzprjs example, generated puzzles at each level (unique by z3,
checked, graded, hinted to the end), puz.link and Tatham's game IDs both ways, and the picture."""

from __future__ import annotations

import itertools
import random

import pytest

from bench.stats import spearman
from generators import kit
from generators.slitherlink import DIFFICULTY, SlitherlinkGenre, SlitherlinkParams, check, generate_puzzle, solve
from pictures.edges import LINE
from solvers.common import Deadline, InvalidInput
from solvers.slitherlink.picture import render
from solvers.slitherlink.puzzlink import parse_url, to_url
from solvers.slitherlink.rules import SlitherlinkAnswer, SlitherlinkPuzzle, around, edges_of
from solvers.slitherlink.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl

FIELDS = ("horizontal", "vertical")


def published() -> list[dict]:
    return read_jsonl(REFERENCE / "slitherlink" / "pzprjs.jsonl")


def outline(inside: set[tuple[int, int]], rows: int, cols: int) -> dict[str, list[list[int]]] | None:
    """The edges around a region of cells, when they make one closed loop (each dot 0 or 2, all joined)."""
    edges = {f: [[0] * (cols + (f == "vertical")) for _ in range(rows + (f == "horizontal"))] for f in FIELDS}
    on = []
    for (field, r, c), a, b in edges_of(rows, cols):
        near = ((r - 1, c), (r, c)) if field == "horizontal" else ((r, c - 1), (r, c))
        if (near[0] in inside) != (near[1] in inside):
            edges[field][r][c] = 1
            on.append((a, b))
    degree: dict[tuple[int, int], int] = {}
    for a, b in on:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    if not on or set(degree.values()) != {2}:
        return None
    reached, stack = {on[0][0]}, [on[0][0]]
    while stack:
        dot = stack.pop()
        for a, b in on:
            for x, y in ((a, b), (b, a)):
                if x == dot and y not in reached:
                    reached.add(y)
                    stack.append(y)
    return edges if len(reached) == len(degree) else None


def brute_force(puzzle: SlitherlinkPuzzle) -> list[dict[str, list[list[int]]]]:
    """Every answer: a loop is the outline of the cells inside it, so every set of cells is tried."""
    cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols)]
    found = []
    for bits in itertools.product((0, 1), repeat=len(cells)):
        edges = outline({cell for cell, bit in zip(cells, bits, strict=True) if bit}, puzzle.rows, puzzle.cols)
        if edges and all(puzzle.clues[r][c] is None or sum(edges[f][i][j] for f, i, j in around(r, c)) == puzzle.clues[r][c]
                         for r, c in cells):
            found.append(edges)
    return sorted(found, key=repr)


def small_puzzle(seed: int) -> SlitherlinkPuzzle:
    rng = random.Random(seed)
    rows, cols = rng.choice([(2, 2), (2, 3), (3, 3), (3, 4)])
    return SlitherlinkPuzzle(rows=rows, cols=cols, clues=[[rng.choice([None, None, 0, 1, 2, 3]) for _ in range(cols)]
                                                          for _ in range(rows)])


@pytest.mark.parametrize("seed", range(40))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = small_puzzle(seed)
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 1000, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), (backend, puzzle.clues)
        assert sorted(outcome.solutions, key=repr) == truth


@pytest.mark.parametrize("entry", published(), ids=lambda e: e["url"])
def test_published_puzzles_have_their_published_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    answer = {f: entry[f] for f in FIELDS}
    outcome = solve(puzzle, 10, Deadline.after(20))
    assert outcome.complete and outcome.count == 1 and outcome.solutions[0] == answer
    assert check(puzzle, SlitherlinkAnswer(**answer)) == []
    assert to_url(puzzle) == entry["url"]


@pytest.mark.parametrize("seed", range(3))
def test_hints_from_an_empty_grid_follow_the_solution_to_the_end(seed: int) -> None:
    made = generate_puzzle(SlitherlinkParams(size=6, difficulty="hard"), seed, Deadline.after(60))
    target = made.solution.model_dump()
    state: dict[str, list[list[int | None]]] = {f: [[None] * len(row) for row in target[f]] for f in FIELDS}
    for _ in range(sum(len(row) for f in FIELDS for row in target[f]) + 1):
        hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(**state), made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), value = step["at"], step["value"]
            assert value == target[step["field"]][r][c], hint.message  # never a step against the solution
            state[step["field"]][r][c] = value
    else:
        pytest.fail("hints did not finish the puzzle")
    assert state == target


def test_a_hint_names_a_wrong_edge() -> None:
    made = generate_puzzle(SlitherlinkParams(size=5, difficulty="easy"), 1, Deadline.after(60))
    target = made.solution.model_dump()
    r, c = next((r, c) for r, row in enumerate(target["vertical"]) for c, v in enumerate(row) if v == 0)
    state = {f: [[None] * len(row) for row in target[f]] for f in FIELDS}
    state["vertical"][r][c] = 1
    hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(**state), made.solution, Deadline.after(20))
    assert hint.technique == "mistakes" and hint.mistakes == [[r, min(c, made.puzzle.cols - 1)]]


def test_a_bad_url_says_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="slither"):
        parse_url("https://puzz.link/p?akari/4/4/g")
    with pytest.raises(InvalidInput, match="4Cell"):
        parse_url("https://puzz.link/p?slither/3/3/g!")
    assert parse_url("https://puzz.link/p?slither/3/3/.h") == SlitherlinkPuzzle(rows=3, cols=3, clues=[[None] * 3] * 3)


def test_the_picture_draws_numbers_dots_and_the_loop() -> None:
    entry = published()[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, SlitherlinkAnswer(**{f: entry[f] for f in FIELDS}))
    assert svg.count("<circle") == 36 and svg.count(LINE) == sum(map(sum, entry["horizontal"] + entry["vertical"]))
    assert ">0</text>" in svg and ">3</text>" in svg
    played = render(puzzle, None, play=True)
    assert played.count('data-cell="') == 25 and played.count('data-edge="') == 60


def tatham_puzzles() -> list[dict]:
    return read_jsonl(REFERENCE / "slitherlink" / "tatham.jsonl")


def test_tathams_game_ids_read_and_write_back_and_his_puzzles_are_unique() -> None:
    for entry in tatham_puzzles():
        puzzle = parse_tatham(entry["tatham"])
        assert to_tatham(puzzle) == entry["tatham"]
        assert solve(puzzle, 2, Deadline.after(20)).count == 1, entry["tatham"]


@pytest.mark.slow
def test_our_levels_follow_tathams_on_his_own_puzzles() -> None:
    """His Easy, Normal, Tricky and Hard (Tatham's own solver, independent of ours) against our grade of each."""
    his, ours = [], []
    for entry in tatham_puzzles():
        level = DIFFICULTY.grade(parse_tatham(entry["tatham"]), Deadline.after(60)).level
        his.append(["easy", "normal", "tricky", "hard"].index(entry["level"]))
        ours.append(["easy", "medium", "hard"].index(level) if level else 3)
    assert spearman(his, ours) >= 0.8, list(zip(his, ours, strict=True))


def test_a_bad_game_id_says_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="cells"):
        parse_tatham("3x3t0:a2")
    with pytest.raises(InvalidInput, match="square"):
        parse_tatham("3x3t1:i")
    with pytest.raises(InvalidInput, match="game ID"):
        parse_tatham("3x3:x?")
    assert parse_tatham("3x3:i") == parse_tatham("3x3t0de:i")


def test_drawn_loops_are_single_loops_and_every_cell_is_a_clue() -> None:
    genre = SlitherlinkGenre()
    for seed in range(30):
        rows, cols = random.Random(seed).choice([(5, 5), (7, 10), (15, 15)])
        board, answer = genre.draw(SlitherlinkParams(rows=rows, cols=cols), random.Random(seed))
        assert check(genre.puzzle(board, answer, frozenset()), SlitherlinkAnswer(**answer)) == []
        assert len(genre.clues(board, answer)) == rows * cols


def test_the_kits_pipeline_without_a_level_makes_a_unique_loop_on_no_board() -> None:
    """A loop is drawn on no board (its board is None): the kit's unleveled pipeline (the benchmark's baseline) keeps
    a board the sieve finds unique instead of taking the None for an ambiguous one."""
    made = kit.make(SlitherlinkGenre(), SlitherlinkAnswer, SlitherlinkParams(size=6), 0, Deadline.after(60))
    assert solve(made.puzzle, 2, Deadline.after(60)).count == 1
