"""Hitori's levels (its ``LADDER`` over the shared shading techniques) against Simon Tatham's Singles: his Easy
puzzles grade easy, his Tricky ones above it; lone-exit (his "all black but one") on hand-made positions; and
the kernel's path on Hitori's ladder step for step as the plain Python reference finds it."""

from __future__ import annotations

import random

import pytest

from solvers.hitori.rules import HitoriPuzzle
from solvers.hitori.tatham import parse_tatham
from solvers.hitori.techniques import DIFFICULTY, LADDER, board_of
from solvers.shading import techniques as shading
from solvers.techniques.human import Contradiction, GridState
from tests.conftest import REFERENCE, read_jsonl

TATHAM = read_jsonl(REFERENCE / "hitori" / "tatham.jsonl")
SHARE = 0.9  # of each of his levels, graded as his level says (29/30 and 30/30 when this was written)
REFERENCE_SOLVER = shading.solver(compiled=False, spans=False, ladder=LADDER)


def test_tathams_easy_grade_easy_and_his_tricky_above_easy() -> None:
    graded = [(entry["level"], DIFFICULTY.grade(parse_tatham(entry["tatham"])).level) for entry in TATHAM]
    easy = [ours for his, ours in graded if his == "easy"]
    tricky = [ours for his, ours in graded if his == "tricky"]
    assert easy and tricky and len(easy) + len(tricky) == len(graded)
    assert easy.count("easy") >= SHARE * len(easy), easy
    assert sum(1 for ours in tricky if ours not in ("easy", None)) >= SHARE * len(tricky), tricky


def position(numbers: list[str], marks: list[str]) -> tuple[shading.Board, GridState]:
    """Digits per row, and marks '#' shaded, 'o' unshaded, '.' undecided."""
    board = board_of(HitoriPuzzle(size=len(numbers), numbers=[[int(ch) for ch in row] for row in numbers]))
    return board, GridState.from_grid([[{"#": 1, "o": 0, ".": None}[ch] for ch in row] for row in marks])


def decided(steps: list) -> set:
    return {d for step in steps for d in step.decide}


@pytest.mark.parametrize("compiled", [False, True])
def test_lone_exit_joins_a_lone_cell_and_leaves_groups_to_last_exit(compiled: bool) -> None:
    lone_exit = shading.kernel_lone_exit if compiled else shading.lone_exit
    board, state = position(["1234", "2341", "3412", "4123"], ["o#..", "#...", "....", "...o"])
    with pytest.raises(Contradiction):  # r1c1 alone, walled in
        lone_exit(board, state)
    board, state = position(["1234", "2341", "3412", "4123"], ["o#..", "....", "....", "...o"])
    assert decided(lone_exit(board, state)) == {((1, 0), 0)}  # r1c1's only way out
    board, state = position(["1234", "2341", "3412", "4123"], ["oo#.", "##..", "....", "...o"])
    assert lone_exit(board, state) == []  # r1c1, r1c2 are a group of two: walled in, but not lone-exit's
    with pytest.raises(Contradiction):
        shading.last_exit(board, state)


def test_the_ladder_puts_the_first_level_where_tatham_puts_easy() -> None:
    levels = shading.solver_for(board_of(parse_tatham(TATHAM[0]["tatham"]))).levels
    names = [[t.name for t in level.techniques] for level in levels]
    assert "lone-exit" in names[0] and "last-exit" not in names[0] and "cut-off" not in names[0]
    assert {"last-exit", "cut-off"} <= set(names[1])
    easy_look = next(t for t in levels[0].techniques if t.name == "pair-near")
    assert "within a round" in easy_look.description


def random_board(rng: random.Random) -> shading.Board:
    n = rng.randint(4, 7)
    return board_of(HitoriPuzzle(size=n, numbers=[[rng.randint(1, n) for _ in range(n)] for _ in range(n)]))


BOARDS = [("tatham", k) for k in range(0, len(TATHAM), 4)] + [("random", seed) for seed in range(40)]


@pytest.mark.parametrize(("kind", "index"), BOARDS)
def test_the_kernel_path_on_hitoris_ladder_equals_the_reference(kind: str, index: int) -> None:
    board = board_of(parse_tatham(TATHAM[index]["tatham"])) if kind == "tatham" else random_board(random.Random(index))
    fast = shading.solver_for(board)
    try:
        path = fast.run(board)
    except Contradiction as exc:
        with pytest.raises(Contradiction) as expected:
            REFERENCE_SOLVER.run(board)
        assert exc.message == expected.value.message
        with pytest.raises(Contradiction):
            shading.outline(board)
        return
    reference = REFERENCE_SOLVER.run(board)
    assert (path.steps, path.levels, path.state.values) == (reference.steps, reference.levels, reference.state.values)
    outline = shading.outline(board)
    assert outline.grade() == fast.grade_path(path)
    assert outline.levels == path.levels
    for level in range(len(fast.levels)):
        assert outline.stuck_at(level).values == fast.run(board, upto=level).state.values
