"""Light Up through the genre kit: its model against brute force and a second SAT backend, the published
pzprjs example, generated puzzles at each level (unique by z3, checked, graded, hinted to the end), the
4Cell URL codec both ways, and the picture."""

from __future__ import annotations

import itertools
import random

import pytest

from bench.stats import spearman
from generators.light_up import DIFFICULTY, PEOPLE, LightUpGenre, LightUpParams, check, generate_puzzle, solve
from solvers.common import Deadline, InvalidInput
from solvers.formats.puzzlink.codec import QUESTION, UNKNOWN, read_4cell, write_4cell
from solvers.kit import rules as kit
from solvers.kit.arrays import within
from solvers.light_up.picture import render
from solvers.light_up.puzzlink import parse_url, to_url
from solvers.light_up.rules import LightUpAnswer, LightUpPuzzle, model
from solvers.light_up.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl


def published() -> list[dict]:
    return read_jsonl(REFERENCE / "light-up" / "pzprjs.jsonl")


def small_puzzle(seed: int, rows: int = 3, cols: int = 4) -> LightUpPuzzle:
    """A random board of few open cells with a random share of its walls numbered (solvable or not)."""
    rng = random.Random(seed)
    genre = LightUpGenre()
    walls, lights = genre.draw(LightUpParams.model_construct(size=None, rows=rows, cols=cols), rng)  # below the sizes made
    shown = frozenset(cell for cell in genre.clues(walls, lights) if rng.random() < 0.6)
    puzzle = genre.puzzle(walls, lights, shown)
    if rng.random() < 0.3:  # sometimes a number the drawn answer does not have: maybe no answer at all
        numbered = [(r, c) for r, row in enumerate(puzzle.walls) for c, v in enumerate(row) if v is not None and v >= 0]
        if numbered:
            r, c = rng.choice(numbered)
            puzzle.walls[r][c] = rng.randrange(5)
    return puzzle


def brute_force(puzzle: LightUpPuzzle) -> list[list[list[int]]]:
    cells = [(r, c) for r in range(puzzle.rows) for c in range(puzzle.cols) if puzzle.walls[r][c] is None]
    m = model(puzzle)
    found = []
    for bits in itertools.product((0, 1), repeat=len(cells)):
        grid = [[0] * puzzle.cols for _ in range(puzzle.rows)]
        for (r, c), bit in zip(cells, bits, strict=True):
            grid[r][c] = bit
        if not kit.check(m, {"lights": grid}):
            found.append(grid)
    return found


@pytest.mark.parametrize("seed", range(40))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = small_puzzle(seed)
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 100, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), (backend, puzzle.walls)
        assert sorted(s["lights"] for s in outcome.solutions) == sorted(truth)


@pytest.mark.parametrize("entry", published(), ids=lambda e: e["url"])
def test_published_puzzles_have_their_published_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    outcome = solve(puzzle, 10, Deadline.after(20))
    assert outcome.complete and outcome.count == 1
    assert outcome.solutions[0]["lights"] == entry["lights"]
    assert check(puzzle, LightUpAnswer(lights=entry["lights"])) == []
    assert parse_url(to_url(puzzle)) == puzzle


@pytest.mark.parametrize("seed", range(4))
def test_hints_from_an_empty_grid_follow_the_solution_to_the_end(seed: int) -> None:
    made = generate_puzzle(LightUpParams(size=7, difficulty="hard"), seed, Deadline.after(60))
    rows, cols = made.puzzle.rows, made.puzzle.cols
    grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    for _ in range(rows * cols + 1):
        state = DIFFICULTY.state_model(lights=grid)
        hint = DIFFICULTY.hint(made.puzzle, state, made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), value = step["cell"], step["value"]
            assert value == made.solution.lights[r][c], hint.message  # never a step against the solution
            grid[r][c] = value
    else:
        pytest.fail("hints did not finish the puzzle")
    assert all(made.puzzle.walls[r][c] is not None or grid[r][c] == made.solution.lights[r][c]
               for r in range(rows) for c in range(cols))


def test_a_hint_names_a_wrong_light() -> None:
    made = generate_puzzle(LightUpParams(size=7, difficulty="easy"), 1, Deadline.after(60))
    r, c = next((r, c) for r, row in enumerate(made.puzzle.walls) for c, v in enumerate(row)
                if v is None and made.solution.lights[r][c] == 0)
    grid: list[list[int | None]] = [[None] * made.puzzle.cols for _ in range(made.puzzle.rows)]
    grid[r][c] = 1
    hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(lights=grid), made.solution, Deadline.after(20))
    assert hint.technique == "mistakes" and hint.mistakes == [[r, c]]


@pytest.mark.parametrize("seed", range(200))
def test_the_4cell_codec_reads_what_it_writes(seed: int) -> None:
    rng = random.Random(seed)
    values = [rng.choice([UNKNOWN] * 6 + [QUESTION, 0, 1, 2, 3, 4]) for _ in range(rng.randrange(1, 60))]
    assert read_4cell(write_4cell(values), len(values)) == values


def test_a_bad_url_says_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="akari"):
        parse_url("https://puzz.link/p?sudoku/4/4/g")
    with pytest.raises(InvalidInput, match="4Cell"):
        parse_url("https://puzz.link/p?akari/3/3/g!")
    assert parse_url("https://puzz.link/p?lightup/3/3/i") == LightUpPuzzle(rows=3, cols=3, walls=[[None] * 3] * 3)


def test_the_picture_draws_walls_numbers_and_lights() -> None:
    entry = published()[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, LightUpAnswer(lights=entry["lights"]))
    assert svg.startswith("<?xml") or svg.startswith("<svg")
    assert svg.count("<circle") == sum(map(sum, entry["lights"]))
    assert ">4</text>" in svg and ">0</text>" in svg
    played = render(puzzle, None, play=True)
    assert played.count('data-cell="') == 36


def test_urls_end_as_pzprjs_writes_them() -> None:
    """pzprjs closes a body that ends in `.` with a `/` (its outputURLData): ours reads and writes the same URL."""
    written = "https://puzz.link/p?akari/7/7/.i0..gbibhamah.k.g...i./"
    puzzle = parse_url(written)
    assert parse_url(written.removesuffix("/")) == puzzle
    assert to_url(puzzle) == written


def tatham_puzzles() -> list[dict]:
    return read_jsonl(REFERENCE / "light-up" / "tatham.jsonl")


def test_tathams_game_ids_read_and_write_back_and_his_puzzles_are_unique() -> None:
    for entry in tatham_puzzles():
        puzzle = parse_tatham(entry["tatham"])
        assert to_tatham(puzzle) == entry["tatham"]
        assert solve(puzzle, 2, Deadline.after(20)).count == 1, entry["tatham"]


def test_our_levels_follow_tathams_on_his_own_puzzles() -> None:
    """His Easy, Tricky and Hard (Tatham's own solver, independent of ours) against our grade of each."""
    his, ours = [], []
    for entry in tatham_puzzles():
        level = DIFFICULTY.grade(parse_tatham(entry["tatham"]), Deadline.after(20)).level
        his.append(["easy", "tricky", "hard"].index(entry["level"]))
        ours.append(["easy", "medium", "hard"].index(level) if level else 3)
    assert spearman(his, ours) >= 0.8, list(zip(his, ours, strict=True))


def test_a_bad_game_id_says_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="cells"):
        parse_tatham("3x3:aB")
    with pytest.raises(InvalidInput, match="game ID"):
        parse_tatham("3x3:x?")


@pytest.mark.parametrize("seed", range(60))
def test_the_array_checks_agree_with_the_levels_paths(seed: int) -> None:
    """The generator's quick checks of the easy and medium levels (on arrays, with no sentences) against the
    levels' paths."""
    rng = random.Random(seed)
    genre = LightUpGenre()
    walls, lights = genre.draw(LightUpParams(size=7), rng)
    shown = frozenset(cell for cell in genre.clues(walls, lights) if rng.random() < 0.7)
    m = model(genre.puzzle(walls, lights, shown))
    every_clue = model(genre.puzzle(walls, lights, frozenset(genre.clues(walls, lights))))  # as the generator asks
    path = PEOPLE.run(m, upto=0)
    assert within(PEOPLE, m, "easy") == within(PEOPLE, every_clue, "easy", shown) == path.state.solved
    assert path.state.solved == (DIFFICULTY.grade(genre.puzzle(walls, lights, shown), Deadline.after(20)).level == "easy")
    medium = PEOPLE.run(m, upto=1).state.solved
    assert within(PEOPLE, m, "medium") == within(PEOPLE, every_clue, "medium", shown) == medium
