"""Hitori on the kit: its model against brute force and both SAT backends, the published pzprjs example, our
generated puzzles pzprjs accepted and Tatham's, generation (reproducible, unique, of its level), hints, the
shared shading techniques' sentences on Hitori's boards, and the picture."""

from __future__ import annotations

import itertools
import random

import pytest

from generators.hitori import PUZZLE_TYPE, HitoriParams, generate_puzzle
from solvers.common import Deadline
from solvers.hitori.picture import render
from solvers.hitori.puzzlink import parse_url
from solvers.hitori.rules import HitoriAnswer, HitoriPuzzle, model
from solvers.hitori.tatham import parse_tatham
from solvers.hitori.techniques import DIFFICULTY, board_of
from solvers.kit import rules as kit
from solvers.shading import techniques as shading
from tests.conftest import REFERENCE, read_jsonl

check, solve = PUZZLE_TYPE.check, PUZZLE_TYPE.solve


def entries(name: str) -> list[dict]:
    return read_jsonl(REFERENCE / "hitori" / f"{name}.jsonl")


def brute_force(puzzle: HitoriPuzzle) -> list[list[list[int]]]:
    """Every shading that keeps the three rules, each rule written here again from its sentence."""
    n, numbers, found = puzzle.size, puzzle.numbers, []
    for bits in itertools.product((0, 1), repeat=n * n):
        grid = [list(bits[r * n:(r + 1) * n]) for r in range(n)]
        lines = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
        if any(len(kept) != len(set(kept)) for kept in ([numbers[r][c] for r, c in line if not grid[r][c]]
                                                         for line in lines)):
            continue
        if any(grid[r][c] and ((c + 1 < n and grid[r][c + 1]) or (r + 1 < n and grid[r + 1][c]))
               for r in range(n) for c in range(n)):
            continue
        white = [(r, c) for r in range(n) for c in range(n) if not grid[r][c]]
        seen, stack = {white[0]}, [white[0]]
        while stack:
            r, c = stack.pop()
            for x in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if x in white and x not in seen:
                    seen.add(x)
                    stack.append(x)
        if len(seen) == len(white):
            found.append(grid)
    return found


@pytest.mark.parametrize("seed", range(15))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    rng = random.Random(seed)
    n = 3
    puzzle = HitoriPuzzle(size=n, numbers=[[rng.randint(1, n) for _ in range(n)] for _ in range(n)])
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 1000, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), backend
        assert sorted(s["shaded"] for s in outcome.solutions) == sorted(truth)


@pytest.mark.parametrize("entry", entries("pzprjs") + entries("ours"), ids=lambda e: e["url"][-30:])
def test_published_and_pzprjs_checked_puzzles_have_their_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    outcome = solve(puzzle, 2, Deadline.after(20))
    assert outcome.complete and outcome.count == 1 and outcome.solutions[0]["shaded"] == entry["shaded"]
    assert check(puzzle, HitoriAnswer(shaded=entry["shaded"])) == []


def test_tathams_puzzles_are_unique_and_solved_by_the_techniques() -> None:
    for entry in entries("tatham")[::3]:  # a third of them, every preset
        puzzle = parse_tatham(entry["tatham"])
        outcome = solve(puzzle, 2, Deadline.after(20))
        assert outcome.count == 1, entry["tatham"]
        assert DIFFICULTY.grade(puzzle, Deadline.after(20)).level is not None, entry["tatham"]


def test_the_checker_names_each_broken_rule_and_its_cells() -> None:
    entry = entries("pzprjs")[0]
    puzzle = parse_url(entry["url"])
    touching = [row[:] for row in entry["shaded"]]
    touching[0][1] = 1  # beside the shaded r1c1
    broken = check(puzzle, HitoriAnswer(shaded=touching))
    assert any(v.rule == "shaded-adjacent" and [0, 0] in [list(c) for c in v.cells] for v in broken)
    none = [[0] * 4 for _ in range(4)]
    broken = check(puzzle, HitoriAnswer(shaded=none))
    assert {v.rule for v in broken} == {"duplicate-in-line"}
    assert any("the two 1s at r1c1 and r1c2 share a row" in v.message and v.cells == [[0, 0], [0, 1]] for v in broken)
    walled = [[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert "unshaded-disconnected" in {v.rule for v in check(puzzle, HitoriAnswer(shaded=walled))}


def test_hints_from_an_empty_grid_follow_the_solution_to_the_end() -> None:
    made = generate_puzzle(HitoriParams(size=6, difficulty="easy"), 1, Deadline.after(60))
    n = made.puzzle.size
    grid: list[list[int | None]] = [[None] * n for _ in range(n)]
    for _ in range(n * n + 1):
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
    assert grid == made.solution.shaded


def test_the_shared_techniques_read_hitori_pairs_and_say_so() -> None:
    """Hitori's segments are every two equal numbers of a line (not a run's span): three 1s in a row make three
    pairs, and the duplicate step says the pair shares a line."""
    puzzle = parse_url(entries("pzprjs")[0]["url"])
    board = board_of(puzzle)
    assert all(len(segment) == 2 for segment in board.segments)
    assert sum(1 for s in board.segments if s[0] < 4 and s[1] < 4) == 3  # the 1 1 1 of the first row
    state = shading.start(board)
    state.set((0, 0), 0)
    steps = shading.duplicate(board, state)
    assert steps and "in one line" in steps[0].message and "run" not in steps[0].message
    assert shading.outline(board).solved


def test_the_kit_model_and_the_techniques_agree_on_generated_answers() -> None:
    made = generate_puzzle(HitoriParams(size=5, difficulty="easy"), 7, Deadline.after(60))
    assert kit.check(model(made.puzzle), made.solution.model_dump()) == []
    path = shading.outline(board_of(made.puzzle))
    assert path.solved and path.state_at(len(path.steps)).values == [v for row in made.solution.shaded for v in row]


def test_the_picture_shades_the_answer() -> None:
    entry = entries("pzprjs")[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, HitoriAnswer(shaded=entry["shaded"]))
    assert "Hitori 4×4" in svg and svg.count('fill="white"') >= 1
    assert render(puzzle, None, play=True).count('data-cell="') == 16


def test_hard_is_refused_saying_it_is_graded_not_made_and_which_levels_are(client) -> None:
    response = client.post("/generate/hitori", params={"difficulty": "hard"})
    assert response.status_code == 422, response.text
    assert "difficulty 'hard' is graded, not made: " in response.text and "ask easy, medium" in response.text
