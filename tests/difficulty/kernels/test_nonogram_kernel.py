"""The compiled Nonogram path (``outline``) takes exactly the steps the Python techniques take
(``SOLVER.run``): technique, effort and cells decided, step for step, and so the same grade, on published
puzzles, generated ones of every level, pictures with cells flipped (often no longer unique, so the path
gets stuck) and clues that no picture has (the techniques' broken rule is raised as before)."""

from __future__ import annotations

import random

import pytest

from generators.nonogram import NonogramParams, generate_puzzle, puzzle_of, random_picture
from solvers.common import Deadline
from solvers.nonogram import rules
from solvers.nonogram import techniques as nt
from solvers.techniques.human import Contradiction
from tests.conftest import REFERENCE, read_jsonl

PUBLISHED = [(r["id"], rules.NonogramPuzzle.model_validate(r["puzzle"]))
             for name in ("webpbn", "mikix-db", "cp-literature") for r in read_jsonl(REFERENCE / "nonogram" / f"{name}.jsonl")
             if r["puzzle"]["rows"] * r["puzzle"]["cols"] <= 400]
GENERATED = [(f"{level} {size} seed {seed}", level, size, seed)
             for level, size in (("easy", 15), ("medium", 10), ("medium", 15), ("hard", 12), ("hard", 20))
             for seed in range(3)]


def python_steps(board: nt.Board, upto: int | None = None) -> list[tuple[int, str, float, tuple]]:
    path = nt.SOLVER.run(board, upto=upto)
    return [(level, step.technique, step.effort, step.decide) for level, step in zip(path.levels, path.steps,
                                                                                    strict=True)]


def kernel_steps(found: nt.Outline) -> list[tuple[int, str, float, tuple]]:
    return [(nt.TECHNIQUES[t][0], nt.TECHNIQUES[t][1].name, effort, found.decided(k))
            for k, (t, effort) in enumerate(found.steps[:, :2].tolist())]


def assert_same_path(puzzle: rules.NonogramPuzzle, upto: int | None = None) -> None:
    board = nt.board_of(puzzle)
    found = nt.outline(board, upto=upto)
    assert found is not None
    assert kernel_steps(found) == python_steps(board, upto)
    if upto is None:
        assert found.grade() == nt.SOLVER.grade(board) == nt.grade(puzzle, Deadline.never())
        assert found.solved == (nt.level_index(puzzle) is not None)


@pytest.mark.parametrize(("label", "puzzle"), PUBLISHED, ids=[label for label, _ in PUBLISHED])
def test_published_paths_are_the_same(label: str, puzzle: rules.NonogramPuzzle) -> None:
    assert_same_path(puzzle)


@pytest.mark.parametrize(("label", "level", "size", "seed"), GENERATED, ids=[g[0] for g in GENERATED])
def test_generated_paths_are_the_same_at_every_level_cap(label: str, level: str, size: int, seed: int) -> None:
    puzzle = generate_puzzle(NonogramParams(size=size, difficulty=level), seed, Deadline.after(60)).puzzle
    for upto in (None, 0, 1):
        assert_same_path(puzzle, upto)


@pytest.mark.parametrize("seed", range(12))
def test_flipped_pictures_take_the_same_path(seed: int) -> None:
    """Rough pictures with a few cells flipped: many are not unique, so the path gets stuck somewhere."""
    rng = random.Random(seed)
    rows, cols = rng.randint(6, 14), rng.randint(6, 14)
    picture = random_picture(rows, cols, rng, speckle=rng.choice((0.0, 0.3, 0.6)))
    for _ in range(rng.randint(0, 4)):
        picture[rng.randrange(rows)][rng.randrange(cols)] ^= 1
    assert_same_path(puzzle_of(picture))


@pytest.mark.parametrize("seed", [2000, 5424, 7303, 12959])
def test_either_way_takes_the_same_path(seed: int) -> None:
    """Coin-flip pictures whose path needs ``either-way`` (1 in 5,000 of them: found by trying; generated
    puzzles reach hard by long chains)."""
    rng = random.Random(seed)
    rows, cols = rng.randint(4, 9), rng.randint(4, 9)
    puzzle = puzzle_of([[int(rng.random() < 0.5) for _ in range(cols)] for _ in range(rows)])
    found = nt.outline(nt.board_of(puzzle))
    assert found is not None and "either-way" in {nt.TECHNIQUES[t][1].name for t in found.steps[:, 0].tolist()}
    assert_same_path(puzzle)


@pytest.mark.parametrize("seed", range(8))
def test_clues_without_a_picture_raise_the_same_broken_rule(seed: int) -> None:
    """Two rows' clues swapped: usually no picture fits, and grading raises what the techniques see."""
    rng = random.Random(seed)
    picture = random_picture(10, 10, rng, speckle=0.3)
    puzzle = puzzle_of(picture)
    first, second = rng.sample(range(10), 2)
    puzzle.row_clues[first], puzzle.row_clues[second] = puzzle.row_clues[second], puzzle.row_clues[first]
    board = nt.board_of(puzzle)
    try:
        expected: object = nt.SOLVER.grade(board)
    except Contradiction as exc:
        expected = exc.message
    try:
        got: object = nt.grade(puzzle, Deadline.never())
    except Contradiction as exc:
        got = exc.message
    assert got == expected
