"""Number Sums: rules checker, CSV parser, solvers (against brute force, each other and published
puzzles) and the generator."""

from __future__ import annotations

import itertools
import random
import re
import time

import pytest

from generators.number_sums import NumberSumsParams, generate_puzzle, random_regions, with_targets
from generators.registry import TYPES
from solvers.common import BudgetExceeded, Deadline, InvalidInput
from solvers.number_sums.csv_format import parse_csv, to_csv
from solvers.number_sums.rules import (
    SEARCH_NODE_CAP,
    NumberSumsAnswer,
    NumberSumsPuzzle,
    SearchStats,
    check,
    find_solutions,
    search_solutions,
    solve,
)
from tests.conftest import read_jsonl

ARTICLE_CSV = """\
  ,  6,  3, 21, 19
19,  2,  4,  8,  9
 9,  8,  7,  6,  3
11,  4,  8,  1,  7
10,  2,  3,  7,  7
"""
ARTICLE_ANSWER = [[1, 0, 1, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 1, 0]]
SAT_BACKENDS = ("cadical", "z3")


def sat_deadline(backend: str) -> Deadline:
    return Deadline.after(60)


def region_puzzle() -> NumberSumsPuzzle:
    return NumberSumsPuzzle(
        numbers=[[1, 2, 3], [4, 5, 6], [7, 8, 9]],
        row_sums=[3, 4, 9],
        col_sums=[5, 2, 9],
        regions=[[0, 0, None], [1, 1, None], [1, 1, 2]],
        region_sums=[3, 4, 9],
    )


# ------------------------------------------------------------------------------------- rules


def test_correct_answer_has_no_violations() -> None:
    assert check(region_puzzle(), NumberSumsAnswer(selected=[[1, 1, 0], [1, 0, 0], [0, 0, 1]])) == []


def test_each_rule_is_reported_with_its_cells() -> None:
    # Dropping (0, 1) breaks row 0, column 1 and region 0, and nothing else.
    found = check(region_puzzle(), NumberSumsAnswer(selected=[[1, 0, 0], [1, 0, 0], [0, 0, 1]]))
    assert [(v.rule, v.cells) for v in found] == [
        ("row-sum-wrong", [[0, 0], [0, 1], [0, 2]]),
        ("col-sum-wrong", [[0, 1], [1, 1], [2, 1]]),
        ("region-sum-wrong", [[0, 0], [0, 1]]),
    ]
    assert "add up to 1, the target is 3" in found[0].message


def test_region_rule_alone() -> None:
    # Same rows and columns, different regions: only the region rule can fail.
    puzzle = region_puzzle().model_copy(update={"region_sums": [3, 5, 8]})
    found = check(puzzle, NumberSumsAnswer(selected=[[1, 1, 0], [1, 0, 0], [0, 0, 1]]))
    assert [(v.rule, v.cells) for v in found] == [
        ("region-sum-wrong", [[1, 0], [1, 1], [2, 0], [2, 1]]),
        ("region-sum-wrong", [[2, 2]]),
    ]


@pytest.mark.parametrize(
    "selected, rule",
    [([[1, 1, 0], [1, 0, 0]], "wrong-dimensions"), ([[1, 1, 0], [1, 0], [0, 0, 1]], "wrong-dimensions"),
     ([[1, 1, 0], [1, 0, 0], [0, 0, 2]], "bad-value")],
)
def test_wrong_shape_is_invalid_input(selected: list[list[int]], rule: str) -> None:
    with pytest.raises(InvalidInput) as err:
        check(region_puzzle(), NumberSumsAnswer(selected=selected))
    assert [v.rule for v in err.value.violations] == [rule]


@pytest.mark.parametrize(
    "change, message",
    [({"numbers": [[1, 2], [3, 10]]}, "outside [1, 2, 3, 4, 5, 6, 7, 8, 9]"),
     ({"numbers": [[1, 2], [3]]}, "row 2 must have 2 values"),
     ({"numbers": [[1] * 16] * 2, "col_sums": [0] * 16}, "1 ≤ R, C ≤ 15"),
     ({"row_sums": [1]}, "`row_sums` must have 2 values"),
     ({"col_sums": [1, 2, 3]}, "`col_sums` must have 2 values"),
     ({"row_sums": [-1, 3]}, "between 0 and"),
     ({"region_sums": [1]}, "must be given together"),
     ({"regions": [[0, None], [1, 1]], "region_sums": [1]}, "ids outside 0..0"),
     ({"regions": [[0, None]], "region_sums": [1]}, "`regions` must have 2 rows")],
)
def test_malformed_puzzles_are_rejected(change: dict, message: str) -> None:
    fields = {"numbers": [[1, 2], [3, 4]], "row_sums": [1, 3], "col_sums": [4, 0], **change}
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        NumberSumsPuzzle(**fields)


# ---------------------------------------------------------------------------------------- CSV


def test_article_example_from_csv_is_unique() -> None:
    puzzle = parse_csv(ARTICLE_CSV)
    assert puzzle.col_sums == [6, 3, 21, 19] and puzzle.row_sums == [19, 9, 11, 10]
    outcome = solve(puzzle, 2, Deadline.after(5))
    assert outcome.status == "unique" and outcome.complete
    assert outcome.solutions == [{"selected": ARTICLE_ANSWER}]
    assert parse_csv(to_csv(puzzle)) == puzzle


@pytest.mark.parametrize(
    "text, message",
    [("", "header line"),
     ("1,2\n3,4\n", "line 1: the first field of the header must be empty"),
     (",1,x\n3,4,5\n", "line 1, column sum 2: 'x' is not a whole number"),
     (",1,2\n3,4\n", "line 2: expected 3 fields"),
     (",1,2\n3,4,0\n", "line 2: digits must be 1..9"),
     (",1,2\n3,4,5\n\n?,1,1\n", "line 4, row sum 1"),
     (",1\n" + "1,1\n" * 16, "1 ≤ R, C ≤ 15")],
)
def test_malformed_csv_names_line_and_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        parse_csv(text)


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"], ids=["unix", "windows", "old-mac"])
def test_csv_reads_every_common_line_end(line_end: str) -> None:
    text = line_end.join(ARTICLE_CSV.splitlines()) + line_end
    assert parse_csv(text) == parse_csv(ARTICLE_CSV)


@pytest.mark.parametrize(
    "text, message",
    [(",1\n1," + "1" * 200_000 + "\n", "line 2 cannot be read as CSV: field larger than field limit"),
     (",1\n1," + "9" * 5_000 + "\n", "digit 1: '" + "9" * 20 + "…' is not a whole number"),
     (",1\n1," + "9" * 50 + "\n", "digits must be 1..9, digit 1 is '" + "9" * 20 + "…'")],
    ids=["past-csv-field-limit", "past-int-digit-limit", "huge-digit"],
)
def test_csv_the_csv_module_or_int_refuses_is_invalid_input_quoting_little(text: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape(message)):
        parse_csv(text)


def test_csv_parser_is_the_registered_text_hook() -> None:
    assert TYPES["number-sums"].parse_text is parse_csv


# ------------------------------------------------------------------------------------ solvers


def test_published_puzzles_solve_to_their_answers(reference_dir) -> None:
    lines = read_jsonl(reference_dir / "number-sums" / "published.jsonl")
    assert len(lines) == 31 and sum("regions" in line["puzzle"] for line in lines) >= 20
    for line in lines:
        puzzle = NumberSumsPuzzle(**line["puzzle"])
        assert check(puzzle, NumberSumsAnswer(**line["solution"])) == [], line["id"]
        for backend in ("portfolio", "search", *SAT_BACKENDS):
            outcome = solve(puzzle, 2, sat_deadline(backend), backend)
            assert (outcome.status, outcome.complete) == ("unique", True), (line["id"], backend)
            assert outcome.solutions[0] == line["solution"], (line["id"], backend)


def brute_force(puzzle: NumberSumsPuzzle) -> list[list[list[int]]]:
    """Every selection that passes the checker: the independent reference for small grids."""
    rows, cols = puzzle.shape
    found = []
    for bits in itertools.product((0, 1), repeat=rows * cols):
        grid = [list(bits[r * cols:(r + 1) * cols]) for r in range(rows)]
        if not check(puzzle, NumberSumsAnswer(selected=grid)):
            found.append(grid)
    return found


def random_small_puzzle(rng: random.Random, regions: bool) -> NumberSumsPuzzle:
    rows, cols = rng.choice([(2, 3), (3, 3), (3, 4), (4, 3)])
    numbers = [[rng.choice([1, 2, 3, 9]) for _ in range(cols)] for _ in range(rows)]  # few digits: many ties
    selected = [[rng.randint(0, 1) for _ in range(cols)] for _ in range(rows)]
    puzzle = with_targets(numbers, selected, random_regions(rows, cols, rng) if regions else None)
    if rng.random() < 0.3:  # often inconsistent
        puzzle = puzzle.model_copy(update={"row_sums": [s + rng.randint(0, 2) for s in puzzle.row_sums]})
    return puzzle


@pytest.mark.parametrize("regions", [False, True])
def test_solvers_agree_with_brute_force(regions: bool) -> None:
    rng = random.Random(7 + regions)
    statuses = set()
    for _ in range(40):
        puzzle = random_small_puzzle(rng, regions)
        expected = sorted(brute_force(puzzle))
        for backend in ("portfolio", "search", *SAT_BACKENDS):
            found, _, complete = find_solutions(puzzle, 200, sat_deadline(backend), backend)
            assert complete and sorted(found) == expected, (puzzle, backend)
        statuses.add(solve(puzzle, 2, Deadline.after(5)).status)
    # The sample exercised every outcome (full region partitions rarely leave two solutions).
    assert statuses >= ({"none", "unique"} if regions else {"none", "unique", "multiple"})


def test_multiple_solutions_up_to_the_limit() -> None:
    puzzle = NumberSumsPuzzle(numbers=[[1] * 4] * 4, row_sums=[2] * 4, col_sums=[2] * 4)  # 90 solutions
    outcome = solve(puzzle, 5, Deadline.after(5))
    assert outcome.status == "multiple" and len(outcome.solutions) == 5 and not outcome.complete
    assert len({str(s) for s in outcome.solutions}) == 5
    assert all(check(puzzle, NumberSumsAnswer(**s)) == [] for s in outcome.solutions)
    found, _, complete = find_solutions(puzzle, 100, Deadline.after(5))
    assert complete and len(found) == 90


def test_inconsistent_puzzle_is_none_promptly() -> None:
    """Promptly means by little work, not by the clock: the compiled search proves it within its node cap
    (it raises NodeCapReached past it, where the portfolio would fall back to SAT), and totals that
    disagree are refused before any search."""
    generated = generate_puzzle(NumberSumsParams(size=9), 3, Deadline.after(30))
    p = generated.puzzle
    # Shift one row and one column target together: the totals still agree, so only search can tell.
    broken = p.model_copy(update={"row_sums": [p.row_sums[0] + 1, *p.row_sums[1:]],
                                  "col_sums": [p.col_sums[0] + 1, *p.col_sums[1:]]})
    assert solve(broken, 2, Deadline.after(5)).status == "none"
    assert search_solutions(broken, 2, Deadline.after(5), SEARCH_NODE_CAP)[0] == ([], 0, True)
    mismatched = p.model_copy(update={"row_sums": [p.row_sums[0] + 1, *p.row_sums[1:]]})
    assert solve(mismatched, 2, Deadline.after(5)).status == "none"
    assert search_solutions(mismatched, 2, Deadline.after(5)) == (([], 0, True), SearchStats(nodes=0))


@pytest.mark.slow
def test_large_inconsistent_puzzles_are_none_within_budget() -> None:
    p = generate_puzzle(NumberSumsParams(size=12), 2, Deadline.after(60)).puzzle
    nones = 0
    for shift in range(1, 6):
        # One row and one column target move together: the totals still agree, so only search can tell.
        broken = p.model_copy(update={"row_sums": [p.row_sums[0] + shift, *p.row_sums[1:]],
                                      "col_sums": [*p.col_sums[:-1], p.col_sums[-1] + shift]})
        started = time.monotonic()
        outcome = solve(broken, 2, Deadline.after(20))
        assert time.monotonic() - started < 5
        assert outcome.status == solve(broken, 2, Deadline.after(60), "z3").status
        nones += outcome.status == "none"
    assert nones >= 1  # sparse 12×12 selections often absorb the shift with another selection


def test_deadline_is_honoured() -> None:
    puzzle = NumberSumsPuzzle(numbers=[[1] * 15] * 15, row_sums=[7] * 15, col_sums=[7] * 15)
    with pytest.raises(BudgetExceeded):
        solve(puzzle, 2, Deadline(time.monotonic() - 1))


# ---------------------------------------------------------------------------------- generator


@pytest.mark.parametrize(
    "params", [NumberSumsParams(size=3), NumberSumsParams(size=7), NumberSumsParams(size=6, regions=True),
               NumberSumsParams(rows=4, cols=9), NumberSumsParams(size=9), NumberSumsParams(size=9, regions=True)],
)
def test_generated_puzzles_are_unique_on_every_backend(params: NumberSumsParams) -> None:
    for seed in range(3):
        generated = generate_puzzle(params, seed, Deadline.after(60))
        puzzle, answer = generated.puzzle, generated.solution
        assert puzzle.shape == params.shape and (puzzle.regions is not None) == params.regions
        assert check(puzzle, answer) == []
        assert all(any(row) for row in answer.selected) and all(any(col) for col in zip(*answer.selected, strict=True))
        for backend in ("portfolio", "search", *SAT_BACKENDS):
            outcome = solve(puzzle, 2, sat_deadline(backend), backend)
            assert outcome.status == "unique" and outcome.solutions[0] == answer.model_dump(), (seed, backend)


def test_region_partition_is_connected_and_complete() -> None:
    regions = random_regions(9, 9, random.Random(5))
    ids = {k for row in regions for k in row}
    assert None not in ids and ids == set(range(len(ids)))
    for k in ids:
        cells = {(r, c) for r in range(9) for c in range(9) if regions[r][c] == k}
        seen, stack = set(), [min(cells)]
        while stack:
            r, c = stack.pop()
            if (r, c) in seen:
                continue
            seen.add((r, c))
            stack += [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in cells]
        assert seen == cells


@pytest.mark.slow
@pytest.mark.parametrize("regions", [False, True])
def test_largest_generated_puzzles_are_unique(regions: bool) -> None:
    generated = generate_puzzle(NumberSumsParams(size=12, regions=regions), 1, Deadline.after(60))
    assert check(generated.puzzle, generated.solution) == []
    for backend in ("portfolio", "search", *SAT_BACKENDS):
        outcome = solve(generated.puzzle, 2, sat_deadline(backend), backend)
        assert outcome.status == "unique" and outcome.complete, backend


def test_params_ranges() -> None:
    assert NumberSumsParams().shape == (7, 7) and NumberSumsParams(size=5, cols=8).shape == (5, 8)
    for bad in ({"size": 2}, {"size": 13}, {"rows": 13}, {"cols": 2}):
        with pytest.raises(ValueError):
            NumberSumsParams(**bad)


def test_portfolio_hands_a_capped_search_to_z3(monkeypatch) -> None:
    import solvers.number_sums.rules as module

    puzzle = parse_csv("  ,6,3,21,19\n19,2,4,8,9\n9,8,7,6,3\n11,4,8,1,7\n10,2,3,7,7\n")
    calls = []
    real = module.sat_solutions
    monkeypatch.setattr(module, "SEARCH_NODE_CAP", 0)  # every search hits the cap at once
    monkeypatch.setattr(module, "sat_solutions", lambda *args: calls.append(args[3]) or real(*args))
    outcome = module.solve(puzzle, 2, Deadline.after(30))
    assert calls == ["z3"] and outcome.status == "unique"
