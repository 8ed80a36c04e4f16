"""Tents through the genre kit: its model against brute force and a second SAT backend, the published pzprjs
example and our puzzles pzprjs accepted, generated puzzles at each level (reproducible, unique by z3, checked,
graded, hinted to the end), Tatham's game IDs and his levels against ours."""

from __future__ import annotations

import itertools
import random

import pytest

from bench.stats import spearman
from generators.tents import DIFFICULTY, TentsGenre, TentsParams, check, generate_puzzle, solve
from solvers.common import Deadline, InvalidInput
from solvers.kit import rules as kit
from solvers.tents.picture import render
from solvers.tents.puzzlink import parse_url, read_trees, to_url, write_trees
from solvers.tents.rules import TentsAnswer, TentsPuzzle, model
from solvers.tents.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl


def published(name: str) -> list[dict]:
    return read_jsonl(REFERENCE / "tents" / name)


def small_puzzle(seed: int) -> TentsPuzzle:
    """A random 3×4 or 4×4 board of a few trees and counts, some hidden, some off by one (maybe no answer)."""
    rng = random.Random(seed)
    rows, cols = 3 + rng.randrange(2), 4
    trees = [[int(rng.random() < 0.25) for _ in range(cols)] for _ in range(rows)]

    def count(most: int) -> int | None:
        return None if rng.random() < 0.4 else rng.randint(0, min(2, most))

    return TentsPuzzle(rows=rows, cols=cols, trees=trees, row_counts=[count(cols) for _ in range(rows)],
                       col_counts=[count(rows) for _ in range(cols)])


def brute_force(puzzle: TentsPuzzle) -> list[list[list[int]]]:
    """Every grid of tents the rules as stated allow: tents off the trees, none touching, the counts, and a
    tree-to-tent pairing found by trying every assignment of trees to the tents beside them."""
    rows, cols = puzzle.rows, puzzle.cols
    trees = puzzle.tree_cells()
    free = [(r, c) for r in range(rows) for c in range(cols) if not puzzle.trees[r][c]]
    found = []
    for tents in itertools.combinations(free, len(trees)):  # as many tents as trees: a pairing needs no fewer
        grid = [[int((r, c) in tents) for c in range(cols)] for r in range(rows)]
        if any(abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1 for a, b in itertools.combinations(tents, 2)):
            continue
        if any(n is not None and sum(grid[r]) != n for r, n in enumerate(puzzle.row_counts)):
            continue
        if any(n is not None and sum(grid[r][c] for r in range(rows)) != n for c, n in enumerate(puzzle.col_counts)):
            continue
        if any(all(abs(t[0] - p[0]) + abs(t[1] - p[1]) == 1 for t, p in zip(trees, order, strict=True))
               for order in itertools.permutations(tents)):
            found.append(grid)
    return found


@pytest.mark.parametrize("seed", range(20))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = small_puzzle(seed)
    truth = sorted(brute_force(puzzle))
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 100, Deadline.after(20), backend)
        assert outcome.complete and sorted(s["tents"] for s in outcome.solutions) == truth, (backend, puzzle)


@pytest.mark.parametrize("entry", published("pzprjs.jsonl") + published("pzprjs-checked.jsonl")[::3],
                         ids=lambda e: e["url"])
def test_published_puzzles_have_their_published_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    outcome = solve(puzzle, 10, Deadline.after(20))
    assert outcome.complete and outcome.count == 1
    assert outcome.solutions[0]["tents"] == entry["tents"]
    assert check(puzzle, TentsAnswer(tents=entry["tents"])) == []
    assert to_url(puzzle) == entry["url"]


def test_a_broken_answer_names_the_rule_and_its_cells() -> None:
    puzzle = parse_url(published("pzprjs.jsonl")[0]["url"])
    lonely = TentsAnswer(tents=[[0, 1, 0, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1], [0, 0, 0, 0, 0]])
    broken = {v.rule: v for v in check(puzzle, lonely)}
    assert "tree-tent-pairs" in broken and "row-count" in broken
    assert broken["row-count"].message.startswith("row 5 has 1 tent")
    assert [4, 1] in broken["tree-tent-pairs"].cells
    touching = TentsAnswer(tents=[[1, 1, 0, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1], [1, 0, 0, 0, 0]])
    assert {"tents-touch", "tent-without-tree"} <= {v.rule for v in check(puzzle, touching)}


def test_hints_from_an_empty_grid_follow_the_solution_to_the_end() -> None:
    made = generate_puzzle(TentsParams(size=6, difficulty="hard"), 2, Deadline.after(60))
    rows, cols = made.puzzle.rows, made.puzzle.cols
    grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    for _ in range(rows * cols + 1):
        hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(tents=grid), made.solution, Deadline.after(20))
        if hint.technique == "solved":
            break
        assert hint.decide and not hint.mistakes and hint.message
        for step in hint.decide:
            (r, c), value = step["cell"], step["value"]
            assert value == made.solution.tents[r][c], hint.message  # never a step against the solution
            grid[r][c] = value
    else:
        pytest.fail("hints did not finish the puzzle")


def test_a_tree_with_one_free_side_left_is_a_hint_that_pairs_them() -> None:
    puzzle = TentsPuzzle(rows=2, cols=2, trees=[[1, 0], [0, 0]], row_counts=[None, None], col_counts=[None, None])
    state = DIFFICULTY.state_model(tents=[[None, None], [0, 0]])
    hint = DIFFICULTY.hint(puzzle, state, TentsAnswer(tents=[[0, 1], [0, 0]]), Deadline.after(20))
    assert hint.decide == [{"cell": [0, 1], "value": 1}] and "tree at r1c1" in hint.message, hint


@pytest.mark.parametrize("seed", range(100))
def test_the_tree_codec_reads_what_it_writes(seed: int) -> None:
    rng = random.Random(seed)
    cells = [int(rng.random() < rng.choice((0.05, 0.2, 0.5))) for _ in range(rng.randrange(1, 120))]
    assert read_trees(write_trees(cells), len(cells)) == cells


def test_a_bad_url_or_game_id_says_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="tents"):
        parse_url("https://puzz.link/p?akari/4/4/g")
    with pytest.raises(InvalidInput, match="tree encoding"):
        parse_url("https://puzz.link/p?tents/3/3/lo!")
    with pytest.raises(InvalidInput, match="cells"):
        parse_tatham("3x3:a,1,0,0,1,0,0")
    with pytest.raises(InvalidInput, match="counts"):
        parse_tatham("3x3:h_,1,0,0,1,0")
    with pytest.raises(InvalidInput, match="every row and column count"):
        to_tatham(TentsPuzzle(rows=1, cols=2, trees=[[1, 0]], row_counts=[None], col_counts=[0, 1]))


def test_tathams_game_ids_read_and_write_back_and_his_puzzles_are_unique() -> None:
    for k, entry in enumerate(published("tatham.jsonl")):
        puzzle = parse_tatham(entry["tatham"])
        assert to_tatham(puzzle) == entry["tatham"]
        if k % 4 == 0:
            assert solve(puzzle, 2, Deadline.after(20)).count == 1, entry["tatham"]


def test_our_levels_follow_tathams_on_his_own_puzzles() -> None:
    """His Easy and Tricky (his solver, independent of ours) against our grade of each puzzle, every other one."""
    his, ours = [], []
    for entry in published("tatham.jsonl")[::2]:
        level = DIFFICULTY.grade(parse_tatham(entry["tatham"]), Deadline.after(20)).level
        his.append(["easy", "tricky"].index(entry["level"]))
        ours.append(["easy", "medium", "hard"].index(level) if level else 3)
    assert spearman(his, ours) >= 0.8, list(zip(his, ours, strict=True))


def test_a_drawn_board_is_tathams_kind() -> None:
    """A fifth of the cells are tents, none touching, each paired with a tree beside it."""
    trees, answer = TentsGenre(False).draw(TentsParams(size=10), random.Random(3))
    puzzle = TentsGenre(False).puzzle(trees, answer, frozenset())
    assert sum(map(sum, answer["tents"])) == sum(map(sum, trees)) == 20
    assert kit.check(model(puzzle), answer) == []


def test_the_picture_draws_trees_counts_and_tents() -> None:
    entry = published("pzprjs.jsonl")[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, TentsAnswer(tents=entry["tents"]))
    assert svg.count("<circle") == sum(map(sum, puzzle.trees)) and svg.count("<path") >= 5
    assert ">2</text>" in svg and ">0</text>" in svg
    played = render(puzzle, None, play=True)
    assert played.count('data-cell="') == 25 and played.count('data-given="0"') == 5


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_row_and_column_counts_are_hidden_only_at_hard(level: str) -> None:
    made = generate_puzzle(TentsParams(size=6, difficulty=level), 1, Deadline.after(60))
    assert (None in made.puzzle.row_counts + made.puzzle.col_counts) == (level == "hard")
