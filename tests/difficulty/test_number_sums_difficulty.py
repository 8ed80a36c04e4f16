"""Number Sums difficulty: single techniques on hand-made positions, soundness against brute force
and against generated solutions, levels of generated puzzles (Tatham's rule), the published
puzzles' grades, hints, and region puzzles that need their regions."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from generators.number_sums import (
    LEVEL_REGION_SIZE,
    MIN_CELLS,
    MIN_CELLS_WITH_REGIONS,
    NumberSumsParams,
    generate_puzzle,
    generate_unique,
    random_regions,
    unique,
    with_targets,
    without_regions,
)
from generators.registry import TYPES
from solvers.common import Deadline, InvalidInput
from solvers.number_sums.csv_format import parse_csv
from solvers.number_sums.rules import NumberSumsAnswer, NumberSumsPuzzle, find_solutions, sum_rules
from solvers.number_sums.techniques import (
    CROSSING_LINES,
    DIFFICULTY,
    SOLVER,
    NumberSumsState,
    board_of,
    line_ways,
    region_meets_line,
    start,
    sum_bounds,
    ways,
)
from solvers.techniques.human import Contradiction, GridState
from tests.conftest import read_jsonl
from tests.puzzles.test_number_sums import ARTICLE_ANSWER, ARTICLE_CSV

LEVELS = SOLVER.level_names


def brute_force(puzzle: NumberSumsPuzzle) -> list[list[list[int]]]:
    """Every selection meeting every rule, by trying them all: the independent reference."""
    rows, cols = puzzle.shape
    rules = [([r * cols + c for r, c in rule.cells], rule.total) for rule in sum_rules(puzzle)]
    digits = [d for row in puzzle.numbers for d in row]
    found = []
    for bits in itertools.product((0, 1), repeat=rows * cols):
        if all(sum(digits[i] for i in cells if bits[i]) == total for cells, total in rules):
            found.append([list(bits[r * cols:(r + 1) * cols]) for r in range(rows)])
    return found


def decided(steps) -> dict[tuple[int, int], int]:
    return {cell: value for step in steps for cell, value in step.decide}


# ------------------------------------------------------------------------------ single techniques


def test_sum_bounds_crosses_out_too_large_and_selects_the_indispensable() -> None:
    board = board_of(NumberSumsPuzzle(numbers=[[9, 2, 3, 5]], row_sums=[8], col_sums=[0, 0, 3, 5]))
    state = GridState(1, 4)
    row = [s for s in sum_bounds(board, state) if s.message.startswith("row 1")]
    # Row 1 needs 8 from 9, 2, 3, 5: 9 is larger than that.
    assert decided(row) == {(0, 0): 0} and "larger than that: crossed out" in row[0].message
    state.set((0, 0), 0)
    row = [s for s in sum_bounds(board, state) if s.message.startswith("row 1")]
    # Now 2, 3, 5 add up to 10: without 3 or 5 the rest falls short of 8; 2 is not decided by bounds.
    assert decided(row) == {(0, 2): 1, (0, 3): 1} and "fall short" in row[0].message


def test_line_ways_is_the_articles_rule() -> None:
    puzzle = parse_csv(ARTICLE_CSV)
    board = board_of(puzzle)
    state = start(board)
    # Row 4 of the article needs 10 from 2, 3, 7, 7: only 3+7 (either 7), so 3 is selected, 2 crossed out.
    row4 = [s for s in line_ways(board, state) if s.message.startswith("row 4")]
    assert decided(row4) == {(3, 1): 1, (3, 0): 0}
    assert "only as 3+7 or 3+7" in row4[0].message


def test_line_ways_sees_a_line_that_cannot_reach_its_target() -> None:
    board = board_of(NumberSumsPuzzle(numbers=[[2, 4, 6]], row_sums=[5], col_sums=[2, 4, 6]))
    with pytest.raises(Contradiction, match="row 1 could no longer reach its target 5"):
        line_ways(board, GridState(1, 3))


def test_ways_lists_subsets_reaching_a_sum() -> None:
    assert sorted(ways([1, 2, 3, 4], 5, 10)) == [(0, 3), (1, 2)]
    assert ways([5, 5], 3, 10) == []


def stuck_positions(regions: bool, count: int):
    """Medium 7×7 puzzles, where the line rule is stuck short of the answer by construction, with their
    solution from the SAT solver (an independent method)."""
    for seed in range(1, count + 1):
        params = NumberSumsParams(size=7, regions=regions, difficulty="medium")
        puzzle = generate_puzzle(params, seed, Deadline.after(60)).puzzle
        board = board_of(puzzle)
        state = SOLVER.run(board, upto=0).state
        assert not state.solved
        solutions, _, complete = find_solutions(puzzle, 2, Deadline.after(30), "cadical")
        assert complete and len(solutions) == 1
        yield board, state, solutions


@pytest.mark.parametrize("technique, regions", [(region_meets_line, True), (CROSSING_LINES.find, False),
                                                (CROSSING_LINES.find, True)])
def test_look_beyond_one_line_where_the_line_rule_is_stuck(technique, regions: bool) -> None:
    """Where the line rule finds nothing more, these techniques still decide cells, and every cell
    they decide holds in the solution."""
    fired = 0
    for board, state, solutions in stuck_positions(regions, 10):
        steps = technique(board, state)
        fired += bool(steps)
        for (r, c), value in decided(steps).items():
            assert all(grid[r][c] == value for grid in solutions), steps
    assert fired >= 2


def test_crossing_lines_finds_nothing_where_two_solutions_remain() -> None:
    # Digits all 1, every target 1: the two diagonals both solve it, so no assumption can break a rule.
    board = board_of(NumberSumsPuzzle(numbers=[[1, 1], [1, 1]], row_sums=[1, 1], col_sums=[1, 1]))
    state = GridState(2, 2)
    assert not line_ways(board, state) and CROSSING_LINES.find(board, state) == []
    state.set((0, 0), 1)
    assert decided(line_ways(board, state)) == {(0, 1): 0, (1, 0): 0}


# --------------------------------------------------------------------------------------- soundness


def random_small_puzzle(rng: random.Random, regions: bool) -> NumberSumsPuzzle:
    rows, cols = rng.choice([(3, 3), (3, 4), (4, 3)])
    numbers = [[rng.choice([1, 2, 3, 4, 9]) for _ in range(cols)] for _ in range(rows)]
    selected = [[rng.randint(0, 1) for _ in range(cols)] for _ in range(rows)]
    return with_targets(numbers, selected, random_regions(rows, cols, rng, 3) if regions else None)


@pytest.mark.parametrize("regions", [False, True])
def test_every_decided_cell_holds_in_every_solution(regions: bool) -> None:
    """Brute force is the independent method: whatever the techniques decide (up to the top level,
    look-aheads included) agrees with every selection the checker accepts."""
    rng = random.Random(11 + regions)
    decisions = 0
    for _ in range(150):
        puzzle = random_small_puzzle(rng, regions)
        solutions = brute_force(puzzle)
        path = SOLVER.run(board_of(puzzle))
        for r, c in path.state.cells():
            value = path.state[(r, c)]
            if value is not None:
                decisions += 1
                assert all(grid[r][c] == value for grid in solutions), (puzzle, (r, c))
        if len(solutions) == 1:
            assert path.state.solved or path.state.grid() != solutions[0]
    assert decisions > 500


def assert_path_agrees(puzzle: NumberSumsPuzzle, answer: NumberSumsAnswer) -> None:
    path = SOLVER.run(board_of(puzzle))
    for step in path.steps:
        for (r, c), value in step.decide:
            assert answer.selected[r][c] == value, (step.technique, step.message)


@pytest.mark.parametrize("size, regions", [(5, False), (7, False), (6, True), (7, True)])
def test_solution_paths_agree_with_generated_solutions(size: int, regions: bool) -> None:
    for seed in range(25):
        params = NumberSumsParams(size=size, regions=regions)
        generated = generate_unique(params.model_copy(update={"difficulty": "hard" if size >= 7 else "easy"}),
                                    seed, Deadline.after(30))
        assert_path_agrees(generated.puzzle, generated.solution)


@pytest.mark.slow
def test_solution_paths_agree_on_many_puzzles() -> None:
    for seed in range(300):
        size, regions = 4 + seed % 5, bool(seed % 2)
        hard_enough = size * size >= (MIN_CELLS_WITH_REGIONS if regions else MIN_CELLS)["hard"]
        params = NumberSumsParams(size=size, regions=regions, difficulty="hard" if hard_enough else "easy")
        generated = generate_unique(params, seed, Deadline.after(30))
        assert_path_agrees(generated.puzzle, generated.solution)


# -------------------------------------------------------------------------------------------- levels


def assert_exactly_at(puzzle: NumberSumsPuzzle, level: str) -> None:
    board = board_of(puzzle)
    index = LEVELS.index(level)
    assert SOLVER.run(board, upto=index).state.solved
    if index:
        assert not SOLVER.run(board, upto=index - 1).state.solved


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("regions", [False, True])
def test_nine_by_nine_generated_at_a_level_grades_that_level(level: str, regions: bool) -> None:
    for seed in range(2):
        generated = generate_puzzle(NumberSumsParams(size=9, regions=regions, difficulty=level), seed,
                                    Deadline.after(60))
        assert generated.difficulty is not None and generated.difficulty.level == level
        assert DIFFICULTY.grade(generated.puzzle, Deadline.after(30)).level == level
        assert_exactly_at(generated.puzzle, level)
        assert_path_agrees(generated.puzzle, generated.solution)
        assert unique(generated.puzzle, Deadline.after(30), None)


@pytest.mark.slow
@pytest.mark.parametrize("level", LEVELS)
def test_twelve_by_twelve_at_every_level(level: str) -> None:
    generated = generate_puzzle(NumberSumsParams(size=12, difficulty=level), 1, Deadline.after(120))
    assert_exactly_at(generated.puzzle, level)
    assert unique(generated.puzzle, Deadline.after(60), None)


@pytest.mark.slow
def test_effort_rises_with_the_level() -> None:
    means = []
    for level in LEVELS:
        scores = [generate_puzzle(NumberSumsParams(size=9, difficulty=level), seed, Deadline.after(60))
                  .difficulty.score for seed in range(20)]
        means.append(sum(scores) / len(scores))
    assert means == sorted(means) and len(set(means)) == len(means), means


def test_same_seed_same_puzzle_at_a_level() -> None:
    params = NumberSumsParams(size=9, difficulty="hard")
    first, again = (generate_puzzle(params, 5, Deadline.after(60)) for _ in range(2))
    assert (first.puzzle, first.solution) == (again.puzzle, again.solution)


def test_small_grids_refuse_levels_they_cannot_reach() -> None:
    with pytest.raises(ValueError, match="difficulty 'expert' needs a grid of at least 64 cells"):
        NumberSumsParams(size=7, difficulty="expert")
    with pytest.raises(ValueError, match="difficulty 'hard' with regions needs a grid of at least 64 cells"):
        NumberSumsParams(size=7, regions=True, difficulty="hard")
    assert NumberSumsParams(size=7, difficulty="hard").difficulty == "hard"  # without regions 7×7 is enough
    assert NumberSumsParams(size=3).difficulty == DIFFICULTY.default == "easy"


def test_a_refused_level_is_a_422_that_says_what_size_works(client) -> None:
    response = client.post("/generate/number-sums", params={"size": 7, "regions": "true", "difficulty": "hard"})
    assert response.status_code == 422 and "at least 64 cells (e.g. 8×8)" in response.text
    response = client.post("/generate/number-sums", params={"size": 8, "regions": "true", "difficulty": "hard", "seed": 1})
    assert response.status_code == 201 and response.json()["difficulty"]["level"] == "hard"


def test_the_type_offers_its_levels() -> None:
    assert TYPES["number-sums"].difficulty is DIFFICULTY
    assert DIFFICULTY.names == ["easy", "medium", "hard", "expert"]
    assert all(t["description"] for level in DIFFICULTY.levels for t in level["techniques"])


# ---------------------------------------------------------------------------------------- regions


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_region_puzzles_need_their_regions(level: str) -> None:
    ambiguous = 0
    for seed in range(5):
        generated = generate_puzzle(NumberSumsParams(size=9, regions=True, difficulty=level), seed,
                                    Deadline.after(60))
        sizes = Counter(k for row in generated.puzzle.regions for k in row)
        assert abs(81 / len(sizes) - LEVEL_REGION_SIZE[level]) < LEVEL_REGION_SIZE[level] / 2
        ambiguous += not unique(without_regions(generated.puzzle), Deadline.after(30), None)
    assert ambiguous == 5


# ------------------------------------------------------------------------------------- published


def test_published_puzzles_grade_easy(reference_dir) -> None:
    """All 31 published puzzles (three apps, 4×4 to 8×8, their own 'expert' included) are solved by
    the line rule: the article's rule is how these apps' puzzles are meant to be solved."""
    grades = Counter()
    for line in read_jsonl(reference_dir / "number-sums" / "published.jsonl"):
        puzzle = NumberSumsPuzzle(**line["puzzle"])
        path = SOLVER.run(board_of(puzzle))
        assert path.state.solved and path.state.grid() == line["solution"]["selected"], line["id"]
        grades[DIFFICULTY.grade(puzzle, Deadline.after(10)).level] += 1
    assert grades == {"easy": 31}


# ------------------------------------------------------------------------------------------ hints


def hint(puzzle: NumberSumsPuzzle, grid, answer: NumberSumsAnswer):
    return DIFFICULTY.hint(puzzle, NumberSumsState(selected=grid), answer, Deadline.after(10))


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_hints_from_an_empty_grid_solve_the_puzzle(level: str) -> None:
    generated = generate_puzzle(NumberSumsParams(size=9, difficulty=level), 3, Deadline.after(60))
    puzzle, answer = generated.puzzle, generated.solution
    grid = [[None] * 9 for _ in range(9)]
    used = set()
    for _ in range(81):
        given = hint(puzzle, grid, answer)
        if given.technique == "solved":
            break
        assert given.decide and not given.mistakes and given.message.endswith(".")
        used.add(given.technique)
        for item in given.decide:
            r, c = item["cell"]
            grid[r][c] = item["value"]
    assert grid == answer.selected
    assert level == "easy" or used & {"chain", "crossing-lines"}


def test_a_wrong_cell_is_reported_as_a_mistake() -> None:
    puzzle = parse_csv(ARTICLE_CSV)
    answer = NumberSumsAnswer(selected=ARTICLE_ANSWER)
    grid = [[None] * 4 for _ in range(4)]
    grid[0][1] = 1  # the 4 of row 1 is crossed out in the solution
    given = hint(puzzle, grid, answer)
    assert given.technique == "mistakes" and given.mistakes == [[0, 1]] and "r1c2" in given.message


def test_first_hint_of_the_article_example_reads_well() -> None:
    given = hint(parse_csv(ARTICLE_CSV), [[None] * 4 for _ in range(4)], NumberSumsAnswer(selected=ARTICLE_ANSWER))
    assert given.technique == "sum-bounds"
    assert given.message.startswith("row ") or given.message.startswith("column ")
    assert given.decide


def test_a_malformed_state_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="must have 4 rows of 4 values"):
        hint(parse_csv(ARTICLE_CSV), [[None] * 4] * 3, NumberSumsAnswer(selected=ARTICLE_ANSWER))
