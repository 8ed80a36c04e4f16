"""Ubongo: catalogues, every rule of the checker, the solver against published counts, brute force
and the SAT encoding, and the generator's uniqueness and determinism."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Collection
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from generators import ubongo as gen
from solvers.common import BudgetExceeded, Cell, Deadline, InvalidInput
from solvers.ubongo import rules
from tests.conftest import read_jsonl

ARTICLE_SHAPE = ["#....", "###..", "####.", "#####"]


def puzzle(shape: list[str], pieces: list[str] | None = None, count: int | None = None,
           catalogue: str = "standard") -> rules.UbongoPuzzle:
    if pieces is None:
        return rules.UbongoPuzzle(shape=shape, catalogue=catalogue, mode="hidden", piece_count=count)
    return rules.UbongoPuzzle(shape=shape, catalogue=catalogue, mode="given", pieces=pieces)


def answer(*placements: tuple[str, list[tuple[int, int]]]) -> rules.UbongoAnswer:
    return rules.UbongoAnswer(placements=[{"piece": p, "cells": [list(c) for c in cells]} for p, cells in placements])


def as_sets(solutions: list[dict]) -> set[frozenset]:
    """Coverings compared as sets of (piece, cells), the meaning of "distinct" in PUZZLES.md."""
    return {frozenset((p["piece"], frozenset(map(tuple, p["cells"]))) for p in s["placements"]) for s in solutions}


def solve_all(p: rules.UbongoPuzzle, backend: str | None = None) -> list[dict]:
    outcome = rules.solve(p, 10_000, Deadline.after(60), backend)
    assert outcome.complete
    return outcome.solutions


# --- catalogues ---------------------------------------------------------------------------------------

# Free-polyomino symmetry: how many distinct placements-up-to-translation each piece has.
ORIENTATION_COUNTS = {
    "standard": {"I2": 2, "I3": 2, "L3": 4, "I4": 2, "L4": 8, "O4": 1, "S4": 4, "T4": 4,
                 "L5": 8, "P5": 8, "Y5": 8, "Z5": 4},
    "article": {"ZIPPO": 8, "Z": 4, "T": 4, "L": 8, "LONG_Z": 8, "LONG_T": 8, "SHORT_BAR": 2},
}


@pytest.mark.parametrize("catalogue", sorted(ORIENTATION_COUNTS))
def test_orientations_are_computed_and_deduplicated(catalogue: str) -> None:
    counts = {p: len(rules.piece_orientations(catalogue, p)) for p in rules.CATALOGUES[catalogue]}
    assert counts == ORIENTATION_COUNTS[catalogue]


def test_catalogue_facts_let_a_client_draw_every_piece() -> None:
    facts = gen.PUZZLE_TYPE.catalogue["catalogues"]
    assert [p["name"] for p in facts["standard"]] == list(rules.CATALOGUES["standard"])
    t4 = next(p for p in facts["standard"] if p["name"] == "T4")
    assert t4["cells"] == [[0, 1], [1, 0], [1, 1], [2, 1]] and t4["size"] == 4
    assert sum(p["size"] for p in facts["article"]) == 5 + 4 + 4 + 4 + 5 + 5 + 3


# --- puzzle validation ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("fields", "message"), [
    ({"shape": [], "pieces": ["I2"]}, "at least one"),
    ({"shape": ["", ""], "pieces": ["I3"]}, "at least one"),  # ragged rows are padded; empty ones are not a shape
    ({"shape": ["#x"], "pieces": ["I2"]}, "only contain"),
    ({"shape": ["#" * 13], "pieces": ["I2"]}, "at most 12×12"),
    ({"shape": ["#" * 12] * 6, "pieces": ["I2"]}, "1..60 cells"),
    ({"shape": [".."], "pieces": ["I2"]}, "1..60 cells"),
    ({"shape": ["##"], "pieces": ["Q9"]}, "unknown piece"),
    ({"shape": ["##"], "pieces": ["I2", "I2"]}, "repeated"),
    ({"shape": ["##"]}, "needs `pieces`"),
    ({"shape": ["##"], "pieces": ["I2"], "piece_count": 2}, "disagrees"),
    ({"shape": ["##"], "mode": "hidden"}, "needs `piece_count`"),
    ({"shape": ["##"], "mode": "hidden", "piece_count": 13}, "at most 12"),
    ({"shape": ["##"], "pieces": ["I2"], "catalogue": "article"}, "unknown piece"),
])
def test_malformed_puzzles_are_refused_with_a_reason(fields: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        rules.UbongoPuzzle(**fields)


def test_given_mode_fills_in_the_piece_count_and_hidden_mode_drops_pieces() -> None:
    assert rules.UbongoPuzzle(shape=["##"], pieces=["I2"]).piece_count == 1
    assert rules.UbongoPuzzle(shape=["##"], mode="hidden", piece_count=1, pieces=["I3"]).pieces is None


# --- rules checker ------------------------------------------------------------------------------------

def rules_of(p: rules.UbongoPuzzle, a: rules.UbongoAnswer) -> list[str]:
    return [v.rule for v in rules.check(p, a)]


def test_a_correct_covering_has_no_violations() -> None:
    good = answer(("I2", [(0, 2), (0, 1)]), ("L3", [(0, 0), (1, 0), (1, 1)]))  # cells in any order
    assert rules_of(puzzle(["###", "##."], ["I2", "L3"]), good) == []


def test_cells_that_are_not_an_orientation_of_the_piece() -> None:
    p = puzzle(["###", "#.."], ["L4"])
    found = rules.check(p, answer(("L4", [(0, 0), (0, 1), (0, 2), (1, 1)])))
    assert [v.rule for v in found] == ["wrong-piece-shape", "outside-shape", "uncovered"]
    assert found[0].cells == [[0, 0], [0, 1], [0, 2], [1, 1]]
    assert rules_of(p, answer(("L4", [(0, 0), (0, 1), (0, 2), (0, 2)])))[0] == "wrong-piece-shape"
    assert rules_of(p, answer(("L4", [(1, 0), (0, 0), (0, 1), (0, 2)]))) == []  # a reflection is fine


def test_a_piece_outside_the_puzzles_set_and_the_wrong_count() -> None:
    p = puzzle(["###"], ["I3"])
    found = rules.check(p, answer(("L3", [(0, 0), (0, 1), (1, 1)])))
    assert [v.rule for v in found] == ["piece-not-in-set", "outside-shape", "uncovered"]
    found = rules.check(p, answer())
    assert [v.rule for v in found] == ["wrong-piece-count", "uncovered"]
    assert "missing: I3" in found[0].message


def test_a_piece_used_twice() -> None:
    p = puzzle(["####"], count=2)
    found = rules.check(p, answer(("I2", [(0, 0), (0, 1)]), ("I2", [(0, 2), (0, 3)])))
    assert [v.rule for v in found] == ["piece-repeated"]
    assert found[0].cells == [[0, 0], [0, 1], [0, 2], [0, 3]]


def test_hidden_mode_counts_pieces_and_accepts_any_catalogue_piece() -> None:
    p = puzzle(["####"], count=2)
    assert rules_of(p, answer(("I4", [(0, 0), (0, 1), (0, 2), (0, 3)]))) == ["wrong-piece-count"]
    assert rules_of(puzzle(["####"], count=1), answer(("I4", [(0, 0), (0, 1), (0, 2), (0, 3)]))) == []


def test_cells_outside_the_shape_overlaps_and_uncovered_cells() -> None:
    p = puzzle(["###.", "###."], ["I3", "L3"])
    found = rules.check(p, answer(("I3", [(0, 1), (0, 2), (0, 3)]), ("L3", [(0, 1), (1, 1), (1, 2)])))
    by_rule = {v.rule: v.cells for v in found}
    assert by_rule == {"outside-shape": [[0, 3]], "overlap": [[0, 1]], "uncovered": [[0, 0], [1, 0]]}


@pytest.mark.parametrize(("placement", "code"), [
    ({"piece": "Q9", "cells": [[0, 0]]}, "unknown-piece"),
    ({"piece": "ZIPPO", "cells": [[0, 0]]}, "unknown-piece"),  # another catalogue's piece
    ({"piece": "I2", "cells": [[0, 0, 1], [0]]}, "bad-cell"),
])
def test_answers_that_are_not_answers_raise_invalid_input(placement: dict, code: str) -> None:
    with pytest.raises(InvalidInput) as err:
        rules.check(puzzle(["##"], ["I2"]), rules.UbongoAnswer(placements=[placement]))
    assert [v.rule for v in err.value.violations] == [code]


# --- solver ---------------------------------------------------------------------------------------------


def test_the_articles_example_has_exactly_its_three_coverings() -> None:
    p = puzzle(ARTICLE_SHAPE, count=3, catalogue="article")
    solutions = solve_all(p)
    assert sorted(sorted(pl["piece"] for pl in s["placements"]) for s in solutions) == [
        ["L", "T", "ZIPPO"], ["L", "Z", "ZIPPO"], ["LONG_T", "T", "Z"]]
    assert all(rules.check(p, rules.UbongoAnswer(**s)) == [] for s in solutions)
    assert rules.solve(p, 2, Deadline.never()).status == "multiple"


def _reference_puzzle(line: dict) -> rules.UbongoPuzzle:
    return puzzle(line["shape"], line.get("pieces"), line.get("piece_count"), line["catalogue"])


def test_ragged_shape_rows_are_padded_with_empty_cells() -> None:
    ragged = puzzle(["###.", "#####", ".#..#"], count=3)
    assert ragged.shape == ["###..", "#####", ".#..#"]
    corner = puzzle(["##", "#"], ["L3"])
    assert corner.shape == ["##", "#."]
    assert rules.solve(corner, 2, Deadline.after(10)).status == "unique"
    with pytest.raises(ValueError, match="only contain"):
        puzzle(["##", "#x"], count=1)


def test_count_goes_past_the_solutions_kept(reference_dir) -> None:
    """938 coverings counted exactly while two are kept; SAT agrees on a capped count, and counts a
    smaller hidden board exactly as the search does."""
    line = next(x for x in read_jsonl(reference_dir / "ubongo" / "m-kasahr-orig.jsonl")
                if x["id"] == "orig/board05-analyze-01/hidden")
    p = _reference_puzzle(line)
    assert sum(c["coverings"] for c in line["combinations"]) == 938
    outcome = rules.solve(p, 5000, Deadline.after(120), "search", keep=2)
    assert (outcome.count, outcome.complete, len(outcome.solutions), outcome.status) == (938, True, 2, "multiple")
    for backend in ("search", "cadical"):
        capped = rules.solve(p, 30, Deadline.after(120), backend, keep=1)
        assert (capped.count, capped.complete, len(capped.solutions)) == (30, False, 1)
    small = puzzle(["#####", "#####"], count=3)
    counts = {b: rules.solve(small, 5000, Deadline.after(120), b, keep=0) for b in ("search", "cadical", "z3")}
    assert all(o.complete and o.solutions == [] for o in counts.values())
    assert len({o.count for o in counts.values()}) == 1 and counts["search"].count == len(solve_all(small)) > 2


def test_every_published_board_and_piece_set_has_its_covering_count(reference_dir) -> None:
    lines = read_jsonl(reference_dir / "ubongo" / "m-kasahr-orig.jsonl")
    assert len(lines) == 402
    for line in lines:
        p = _reference_puzzle(line)
        solutions = solve_all(p)
        if line["mode"] == "hidden":
            per_set = Counter(tuple(sorted(pl["piece"] for pl in s["placements"])) for s in solutions)
            expected = {tuple(sorted(c["pieces"])): c["coverings"] for c in line["combinations"] if c["coverings"]}
            assert dict(per_set) == expected, line["id"]
            continue
        if "coverings" in line:
            assert len(solutions) == line["coverings"], line["id"]
        if "example_solution" in line:
            example = rules.UbongoAnswer(**line["example_solution"])
            assert rules.check(p, example) == [], line["id"]
            assert as_sets([line["example_solution"]]) <= as_sets(solutions), line["id"]


def _independent_orientations(cells: list[tuple[int, int]]) -> set[frozenset]:
    """All 8 symmetries applied to the catalogue drawing, without the module's code."""
    out = set()
    for a, b, c, d in ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
                       (-1, 0, 0, 1), (1, 0, 0, -1), (0, 1, 1, 0), (0, -1, -1, 0)):
        moved = [(a * r + b * col, c * r + d * col) for r, col in cells]
        r0, c0 = min(r for r, _ in moved), min(col for _, col in moved)
        out.add(frozenset((r - r0, col - c0) for r, col in moved))
    return out


def brute_force(shape: list[str], pieces: list[str], catalogue: str = "standard") -> set[frozenset]:
    """Every covering by trying every placement of every piece (each orientation at every offset)."""
    target = {(r, c) for r, row in enumerate(shape) for c, ch in enumerate(row) if ch == "#"}
    options = []
    for name in pieces:
        drawing = [(r, c) for r, row in enumerate(rules.CATALOGUES[catalogue][name].split("/"))
                   for c, ch in enumerate(row) if ch == "#"]
        options.append([(name, cells) for o in _independent_orientations(drawing)
                        for dr in range(len(shape)) for dc in range(len(shape[0]))
                        if (cells := frozenset((r + dr, c + dc) for r, c in o)) <= target])
    found = set()
    for choice in itertools.product(*options):
        covered = [cell for _, cells in choice for cell in cells]
        if len(covered) == len(target) == len(set(covered)):
            found.add(frozenset(choice))
    return found


def _random_shape(rng: random.Random, rows: int, cols: int, area: int) -> list[str]:
    cells = set(rng.sample([(r, c) for r in range(rows) for c in range(cols)], area))
    return ["".join("#" if (r, c) in cells else "." for c in range(cols)) for r in range(rows)]


def test_brute_force_agrees_with_the_solver_on_small_shapes() -> None:
    rng = random.Random(5)
    names = list(rules.CATALOGUES["standard"])
    nonzero = 0
    for _ in range(120):
        pieces = sorted(rng.sample(names, rng.choice((2, 3))), key=names.index)
        area = sum(len(rules.catalogue_pieces("standard")[p]) for p in pieces)
        if area > 12:
            continue
        # Dense random shapes: most have no covering, some have several.
        shape = _random_shape(rng, 3, 4, area) if rng.random() < 0.5 else ["#" * 4, "#" * 4, "#" * 4][: (area + 3) // 4]
        if sum(row.count("#") for row in shape) != area:
            continue
        expected = brute_force(shape, pieces)
        assert as_sets(solve_all(puzzle(shape, pieces))) == {
            frozenset((n, c) for n, c in covering) for covering in expected}, (shape, pieces)
        nonzero += bool(expected)
    assert nonzero >= 10  # the comparison covered shapes with coverings, not only empty ones


def test_hidden_mode_is_the_union_over_every_piece_combination() -> None:
    rng = random.Random(11)
    names = list(rules.CATALOGUES["standard"])
    for shape in (["####", "##..", "#..."], ["###", "###", "#.."], _random_shape(rng, 3, 4, 8)):
        expected = set()
        for combo in itertools.combinations(names, 2):
            expected |= {frozenset(c) for c in brute_force(shape, list(combo))}
        assert as_sets(solve_all(puzzle(shape, count=2))) == expected, shape


def _sat_agrees(backend: str, lines: list[dict]) -> None:
    for line in lines:
        p = _reference_puzzle(line)
        assert as_sets(solve_all(p, backend)) == as_sets(solve_all(p)), line.get("id")


@pytest.mark.parametrize("backend", ["cadical", "z3"])
def test_sat_encoding_agrees_with_exact_cover(backend: str, reference_dir) -> None:
    lines = read_jsonl(reference_dir / "ubongo" / "m-kasahr-orig.jsonl")
    small_hidden = [line for line in lines if line["mode"] == "hidden" and line["piece_count"] < 5]
    article = {"shape": ARTICLE_SHAPE, "catalogue": "article", "piece_count": 3}
    _sat_agrees(backend, [*small_hidden, *lines[::25], article])


@pytest.mark.slow
def test_sat_encoding_agrees_on_the_published_five_piece_hidden_board(reference_dir) -> None:
    lines = read_jsonl(reference_dir / "ubongo" / "m-kasahr-orig.jsonl")
    # ~1,500 coverings, each found and blocked one SAT call at a time: seconds on cadical, minutes on z3.
    _sat_agrees("cadical", [line for line in lines if line["id"] == "orig/board05-analyze-01/hidden"])


def test_solve_reports_status_and_completeness() -> None:
    p = puzzle(["###", "###"], count=2)  # I2 + L4 four ways, I2 + O4 two ways (a piece is used once)
    one = rules.solve(p, 1, Deadline.never())
    assert one.status == "multiple" and len(one.solutions) == 2 and not one.complete
    every = rules.solve(p, 10, Deadline.never())
    assert len(every.solutions) == 6 and every.complete
    assert rules.solve(puzzle(["####", "####"], ["I4", "L4"]), 2, Deadline.never()).status == "none"
    assert rules.solve(puzzle(["###"], ["I2"]), 2, Deadline.never()).status == "none"  # area mismatch


def test_count_coverings_stops_at_its_limit_and_agrees_with_enumeration() -> None:
    rng = random.Random(4)
    steps = gen.UbongoSteps(gen.UbongoParams(pieces=4, mode="hidden"), Deadline.never())
    shapes = [steps.puzzle(steps.random_solution(rng)) for _ in range(15)]
    shapes += [puzzle(["###", "###"], count=2), puzzle(["####", "####"], ["I4", "L4"]), puzzle(ARTICLE_SHAPE, count=3,
                                                                                               catalogue="article")]
    for p in shapes:
        problem = rules.PackingProblem.of(p)
        every = sum(1 for _ in problem.coverings(Deadline.never()))
        for limit in (0, 1, 2, every, every + 1):
            assert problem.count_coverings(limit, Deadline.never()) == min(limit, every), (p.shape, limit)


def test_compiled_solve_finds_the_python_search_coverings_in_its_order() -> None:
    """``solve`` runs the compiled search; the Python generator ``PackingProblem.coverings`` is the
    reference: the same coverings in the same order, the same nodes, in both modes."""
    rng = random.Random(11)
    for mode in ("given", "hidden"):
        for pieces in (3, 4, 5):
            steps = gen.UbongoSteps(gen.UbongoParams(pieces=pieces, mode=mode, difficulty="hard"), Deadline.never())
            for _ in range(6):
                p = steps.puzzle(steps.random_solution(rng))
                problem = rules.PackingProblem.of(p)
                stats: dict[str, int] = {}
                every = [problem.answer(c) for c in problem.coverings(Deadline.never(), stats)]
                for limit in (1, 2, 3, 10**6):
                    out = rules.solve(p, limit, Deadline.never())
                    most = max(limit, 2)
                    assert out.solutions == every[:most], (p.shape, limit)
                    assert (out.count, out.complete) == (min(len(every), most), len(every) <= most)
                assert rules.solve(p, 10**6, Deadline.never()).extra == {"nodes": stats["nodes"],
                                                                        "placements": problem.placements}
                for limit in (1, 2, 5, 64):
                    assert problem.count_coverings(limit, Deadline.never()) == \
                        problem.count_coverings_python(limit, Deadline.never()), (p.shape, limit)


def test_area_sums_are_the_totals_of_exactly_k_pieces() -> None:
    areas = (2, 3, 3, 4, 5)
    for avail in range(1 << len(areas)):
        for k in range(4):
            chosen = [i for i in range(len(areas)) if avail >> i & 1]
            totals = {sum(areas[i] for i in combo) for combo in itertools.combinations(chosen, k)}
            assert rules._area_sums(areas, avail, k) == sum(1 << t for t in totals), (avail, k)


def test_solver_stops_at_its_deadline() -> None:
    big = puzzle(["######"] * 4, count=5)  # 24 cells: four pentominoes and a tetromino, many ways
    with pytest.raises(BudgetExceeded):
        rules.solve(big, 10**6, Deadline(0.0))


# --- generator ------------------------------------------------------------------------------------------

FAST_CASES = [(n, mode, cat) for n in (3, 4) for mode in ("given", "hidden") for cat in ("standard", "article")]


# Outline checks on Python integers, independent of the generator's compiled ones (``card_placements``):
# the definitions its cards and placements are held to, themselves checked against a plain flood fill.
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def _framed(cells: Collection[Cell]) -> tuple[int, int, int]:
    """The cells as bits of their bounding box plus a one-cell empty frame, row-major: (mask, row
    width, every bit of the frame and box). Shifting by 1 or the width steps to a neighbour; a step
    off a row's end lands in the frame, which is outside anyway, so flood fills need no bounds checks."""
    r0, r1, c0, c1 = _bounds(cells)
    width = c1 - c0 + 3
    mask = 0
    for r, c in cells:
        mask |= 1 << ((r - r0 + 1) * width + c - c0 + 1)
    return mask, width, (1 << (r1 - r0 + 3) * width) - 1


def _flood(seed: int, within: int, width: int) -> int:
    """Every bit of ``within`` reachable from ``seed`` by steps to neighbours inside ``within``."""
    reach = seed
    while True:
        grown = reach | (reach << 1 | reach >> 1 | reach << width | reach >> width) & within
        if grown == reach:
            return reach
        reach = grown


def _has_hole(cells: Collection[Cell]) -> bool:
    """Whether some empty cell inside the bounding box cannot reach the outside."""
    mask, width, box = _framed(cells)
    empty = box & ~mask
    return _flood(1, empty, width) != empty  # bit 0 is a frame corner, always outside


def _connected(cells: Collection[Cell]) -> bool:
    mask, width, _ = _framed(cells)
    return _flood(mask & -mask, mask, width) == mask


def _perimeter(cells: Collection[Cell]) -> int:
    """Edges between a cell and a non-cell: with the area, how ragged an outline is."""
    mask, width, _ = _framed(cells)
    return sum((mask & ~(mask >> step)).bit_count() + (mask & ~(mask << step)).bit_count() for step in (1, width))


def _bounds(cells: Collection[Cell]) -> tuple[int, int, int, int]:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return min(rows), max(rows), min(cols), max(cols)


def _assert_good_card(params: gen.UbongoParams, seed: int) -> rules.UbongoPuzzle:
    made = gen.generate_puzzle(params, seed, Deadline.after(60))
    p, a = made.puzzle, made.solution
    assert rules.check(p, a) == []
    outcome = rules.solve(p, 2, Deadline.after(60))
    assert outcome.status == "unique" and outcome.complete
    assert as_sets(outcome.solutions) == as_sets([a.model_dump()])
    rows, cols = gen.card_box(params.pieces)
    assert len(p.shape) <= rows and len(p.shape[0]) <= cols
    cells = set(rules.parse_rows(p.shape))
    assert _connected(cells) and not _has_hole(cells)
    assert p.mode == params.mode and len(a.placements) == params.pieces == p.piece_count
    return p


@pytest.mark.parametrize(("pieces", "mode", "catalogue"), FAST_CASES)
def test_generated_cards_have_exactly_one_covering(pieces: int, mode: str, catalogue: str) -> None:
    params = gen.UbongoParams(pieces=pieces, mode=mode, catalogue=catalogue)
    for seed in range(3):
        _assert_good_card(params, seed)


def test_same_seed_same_card_and_sat_confirms_uniqueness() -> None:
    params = gen.UbongoParams(pieces=4)
    first = gen.generate_puzzle(params, 7, Deadline.after(60))
    again = gen.generate_puzzle(params, 7, Deadline.after(60))
    assert first.puzzle == again.puzzle and first.solution == again.solution
    assert gen.generate_puzzle(params, 8, Deadline.after(60)).puzzle != first.puzzle
    for backend in ("cadical", "z3"):
        assert rules.solve(first.puzzle, 2, Deadline.after(60), backend).status == "unique"


@pytest.mark.parametrize(("pieces", "mode"), [(3, "given"), (4, "given"), (3, "hidden"), (4, "hidden")])
def test_the_pipelines_other_covering_is_the_solvers_second_solution(pieces: int, mode: str) -> None:
    """``other_solution`` counts first and searches the outline itself, without the puzzle models: on random
    arrangements (most have several coverings) it must answer what ``rules.solve`` on the card answers."""
    params = gen.UbongoParams(pieces=pieces, mode=mode)
    steps, rng, several = gen.UbongoSteps(params, Deadline.never()), random.Random(5), 0
    for _ in range(60):
        arrangement = steps.random_solution(rng)
        puzzle, answer = steps.puzzle(arrangement), steps.answer(arrangement)
        mine = as_sets([answer.model_dump()])
        others = [found for found in rules.solve(puzzle, 2, Deadline.never()).solutions if as_sets([found]) != mine]
        other = steps.other_solution(arrangement, arrangement, Deadline.never())
        if not others:
            assert other is None
            continue
        several += 1
        assert other is not None and set(other) != set(arrangement)
        assert as_sets([steps.answer(other).model_dump()]) == as_sets(others[:1])  # in the outline's coordinates
    assert several >= 10


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_draw_toward_a_level_is_graded_by_its_proof_of_uniqueness(level: str) -> None:
    """The walk's draws prove uniqueness with the call that also grades, so the grade the pipeline asks for
    next is already known; it must be the grader's own grade of the card."""
    params = gen.UbongoParams(pieces=3, difficulty=level)
    for seed in range(8):
        toward = gen.TowardLevel(params, Deadline.never())
        arrangement = gen.generate_arrangement(params, seed, Deadline.never(), toward.steps).puzzle
        known = toward.graded[(gen.outline_key(arrangement), toward._pieces(arrangement))]
        assert toward.grade(arrangement, Deadline.never()) is known
        proved_by_count = gen.UbongoSteps(params, Deadline.never(), piece_sets=toward.steps.piece_sets)
        assert gen.generate_arrangement(params, seed, Deadline.never(), proved_by_count).puzzle == arrangement
        graded = gen.human.grade(toward.steps.puzzle(arrangement), Deadline.never())
        levels = gen.human.SOLVER.level_names
        assert known.level == (graded.level if levels.index(graded.level) <= levels.index(level) else None)


@pytest.mark.parametrize(("catalogue", "pieces"), [("standard", 3), ("standard", 4), ("article", 5)])
def test_the_piece_set_table_is_what_the_generator_and_grader_make_now(catalogue: str, pieces: int) -> None:
    """Rows of ``generators/ubongo_piece_sets.json`` counted again (they are deterministic): a change to the
    generator or the grader fails here until ``python -m bench.bench_ubongo --piece-set-levels`` is run."""
    table = json.loads(gen.PIECE_SET_LEVELS.read_text())
    every = list(itertools.combinations(rules.CATALOGUES[catalogue], pieces))
    assert sorted(table[catalogue][str(pieces)]) == sorted(" ".join(names) for names in every)
    for names in random.Random(pieces).sample(every, 2):
        assert gen.count_piece_set_levels(catalogue, names) == table[catalogue][str(pieces)][" ".join(names)], names


def test_a_level_request_draws_its_pieces_by_their_share_of_cards_of_the_level() -> None:
    """Mode given: a set none of whose recorded draws was medium is drawn for a medium card far more rarely
    than a set whose draws mostly were (one in forty-two against thirty in forty-two, smoothed); and the
    first draws of medium requests grade medium more often than uniformly drawn pieces do."""
    params = gen.UbongoParams(pieces=3, difficulty="medium")
    table = json.loads(gen.PIECE_SET_LEVELS.read_text())["standard"]["3"]
    never = [names for names, counts in table.items() if counts[1] == 0 and counts[-1] == 0]
    mostly = [names for names, counts in table.items() if counts[1] >= 30]
    assert never and mostly
    weighted = gen.UbongoSteps(params, Deadline.never(), piece_sets=gen.piece_set_weights("standard", 3, "medium"))
    rng, drawn = random.Random(3), Counter()
    for _ in range(2000):
        drawn[" ".join(name for name, _ in weighted.random_solution(rng))] += 1
    per_set = {group: sum(drawn[names] for names in sets) / len(sets) for group, sets in (("never", never), ("mostly", mostly))}
    assert per_set["mostly"] > 10 * per_set["never"], per_set

    def medium_share(steps: gen.UbongoSteps) -> float:
        toward = gen.TowardLevel(params, Deadline.never())
        cards = [gen.generate_arrangement(params, seed, Deadline.never(), steps).puzzle for seed in range(400)]
        return sum(toward.grade(card, Deadline.never()).level == "medium" for card in cards) / len(cards)

    assert medium_share(weighted) > medium_share(gen.UbongoSteps(params, Deadline.never())) + 0.06


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "catalogue"), [("given", "standard"), ("given", "article"), ("hidden", "article")])
def test_generated_five_piece_cards_are_unique(mode: str, catalogue: str) -> None:
    params = gen.UbongoParams(pieces=5, mode=mode, catalogue=catalogue)
    for seed in range(4):
        _assert_good_card(params, seed)


def test_hidden_cards_start_from_the_rare_large_piece_sets() -> None:
    sizes = {name: len(cells) for name, cells in rules.catalogue_pieces("standard").items()}
    rare = gen.rare_piece_sets("standard", 5)
    assert {sum(sizes[p] for p in subset) for subset in rare} == {22, 23, 24}  # 148 of the 792 subsets
    assert len(rare) == 148 and len(set(rare)) == 148
    for catalogue in ("standard", "article"):
        for pieces in (3, 4, 5):
            every = list(itertools.combinations(rules.CATALOGUES[catalogue], pieces))
            rare = gen.rare_piece_sets(catalogue, pieces)
            assert len(rare) >= gen.RARE_SHARE * len(every) and set(rare) <= set(every)


def test_hidden_five_piece_standard_cards_have_one_piece_set_and_one_covering() -> None:
    params = gen.UbongoParams(pieces=5, mode="hidden", catalogue="standard")
    for seed in range(3):
        p = _assert_good_card(params, seed)
        every = rules.solve(p, 10_000, Deadline.after(60))
        assert every.complete and len(every.solutions) == 1
        assert len({tuple(sorted(pl["piece"] for pl in s["placements"])) for s in every.solutions}) == 1
        cells = set(rules.parse_rows(p.shape))
        assert _perimeter(cells) <= gen.MAX_PERIMETER * len(cells)  # a blob, not a comb of slots
    again = gen.generate_puzzle(params, 2, Deadline.after(60))
    assert again.puzzle == p and again.solution == gen.generate_puzzle(params, 2, Deadline.after(60)).solution


def test_outline_checks_agree_with_a_plain_flood_fill() -> None:
    def reachable(start: tuple[int, int], allowed: set[tuple[int, int]]) -> set[tuple[int, int]]:
        seen, stack = {start}, [start]
        while stack:
            r, c = stack.pop()
            for dr, dc in NEIGHBOURS:
                if (nb := (r + dr, c + dc)) in allowed and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        return seen

    rng = random.Random(9)
    for _ in range(300):
        cells = {(r - 3, c + 2) for r in range(rng.randint(1, 5)) for c in range(rng.randint(1, 6)) if rng.random() < 0.7}
        if not cells:
            continue
        r0, r1, c0, c1 = _bounds(cells)
        around = {(r, c) for r in range(r0 - 1, r1 + 2) for c in range(c0 - 1, c1 + 2)} - cells
        assert _has_hole(cells) == (reachable((r0 - 1, c0 - 1), around) != around), cells
        assert _connected(cells) == (reachable(min(cells), cells) == cells), cells
        edges = sum((r + dr, c + dc) not in cells for r, c in cells for dr, dc in NEIGHBOURS)
        assert _perimeter(cells) == edges, cells


def test_placements_are_every_fitting_shift_of_every_orientation() -> None:
    """The bitmask search against its definition, on random rests (split ones and ones with holes too)."""
    rng = random.Random(5)
    for _ in range(25):
        catalogue, box = rng.choice(["standard", "article"]), rng.choice([(4, 5), (5, 6)])
        rest = {(r - 2, c + 1) for r in range(rng.randint(1, box[0])) for c in range(rng.randint(1, box[1]))
                if rng.random() < 0.6}
        if not rest:
            continue
        r0, r1, c0, c1 = _bounds(rest)
        for piece in rules.CATALOGUES[catalogue]:
            expected = set()
            for orient in rules.piece_orientations(catalogue, piece):
                for dr, dc in itertools.product(range(r1 - box[0], r0 + box[0]), range(c1 - box[1], c0 + box[1])):
                    cells = frozenset((r + dr, c + dc) for r, c in orient)
                    union = rest | cells
                    u0, u1, v0, v1 = _bounds(union)
                    contacts = sum((r + a, c + b) in rest for r, c in cells for a, b in NEIGHBOURS)
                    if (contacts and not cells & rest and u1 - u0 < box[0] and v1 - v0 < box[1]
                            and _connected(union) and not _has_hole(union)):
                        expected.add((contacts, cells))
            options = gen._placed(catalogue, piece, list(rest), box)
            found = [(contacts, options.cells(i)) for i, contacts in enumerate(options.contacts)]
            assert len(found) == len(expected) and set(found) == expected, (catalogue, box, sorted(rest), piece)


def test_generation_params_have_ranges() -> None:
    with pytest.raises(ValidationError):
        gen.UbongoParams(pieces=6)
    with pytest.raises(ValidationError):
        gen.UbongoParams(mode="secret")
    assert gen.UbongoParams() == gen.UbongoParams(pieces=3, mode="given", catalogue="standard")


MASK64 = (1 << 64) - 1


def splitmix(x: int) -> int:
    """``solvers.ubongo.kernel.mix`` in plain Python."""
    z = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def reference_moves(toward: gen.TowardLevel, arrangement: gen.Arrangement, name: str, swaps: list[str], salt: int
                    ) -> list[tuple[int, str, frozenset[Cell]]]:
    """The moves of lifting ``name`` as (outline key, piece, cells), in the order a walk step weighs them."""
    params, steps = toward.params, toward.steps
    rest = [cell for n, cells in arrangement if n != name for cell in cells]
    moves = []
    for piece in [name, *swaps]:
        options = gen._placed(params.catalogue, piece, rest, steps.box, gen.MAX_PERIMETER)
        moves += [(contacts, options.keys[i], piece, options.cells(i)) for i, contacts in enumerate(options.contacts)]
    order = sorted(range(len(moves)), key=lambda m: ((64 - moves[m][0]) << 56) | (splitmix(salt + m) >> 8))
    return [moves[m][1:] for m in order]


def reference_step(toward: gen.TowardLevel, arrangement: gen.Arrangement, lift_order: list[str], seed: int,
                   visited: set[int]) -> tuple[gen.Arrangement | None, gen.Arrangement | None, bool]:
    """One walk step as ``TowardLevel`` defines it, in Python: moves from ``_placed``, ordered by most shared
    edges, then the seeded hash; each new outline counted by the engine's plain count and graded on the
    puzzle model. (unique card chosen, card with several coverings, whether the unique one is of the level)."""
    params, steps = toward.params, toward.steps
    visited.add(gen.outline_key(arrangement))
    used = [name for name, _ in arrangement]
    swaps = [n for n in steps.names if n not in used] if params.mode == "hidden" else []
    unique = several = None
    tried = 0
    for li, name in enumerate(lift_order):
        others = {n: c for n, c in arrangement if n != name}
        for key, piece, cells in reference_moves(toward, arrangement, name, swaps, seed ^ (li << 48)):
            if key in visited:
                continue
            visited.add(key)
            tried += 1
            card = steps._ordered({**others, piece: cells})
            if steps.coverings(card, 2, key) == 1:
                graded = gen.human.grade_within(steps.puzzle(card), params.difficulty, Deadline.never())
                if graded is not None and graded.level == params.difficulty:
                    return card, several, True
                unique = unique or card
            else:
                several = several or card
            if tried >= gen.WALK_TRIES:
                return unique, several, False
    return unique, several, False


@pytest.mark.parametrize(("pieces", "mode", "level"), [(3, "given", "medium"), (4, "given", "hard"),
                                                        (3, "hidden", "medium"), (4, "hidden", "easy")], ids=str)
def test_compiled_walk_step_is_the_python_step(pieces: int, mode: str, level: str) -> None:
    """The compiled step (``TowardLevel.step``) weighs the same moves in the same order as the Python one and
    chooses the same cards, from cards met on real walks, with a visited set shared across steps."""
    params = gen.UbongoParams(pieces=pieces, mode=mode, difficulty=level)
    rng = random.Random(5)
    found = 0
    for seed in range(12):
        toward = gen.TowardLevel(params, Deadline.never())
        toward.steps.forget()
        reference_visited: set[int] = set()
        card = gen.generate_arrangement(params, seed, Deadline.never()).puzzle
        for _ in range(4):
            lift_order = [name for name, _ in card]
            rng.shuffle(lift_order)
            step_seed = rng.getrandbits(64)
            step = toward.step(card, lift_order, step_seed, Deadline.never())
            unique, several, of_level = reference_step(toward, card, lift_order, step_seed, reference_visited)
            assert (step.arrangement(gen.kernel.UNIQUE) if step.holds(gen.kernel.UNIQUE) else None) == unique
            assert (step.arrangement(gen.kernel.SEVERAL) if step.holds(gen.kernel.SEVERAL) else None) == several
            assert set(toward.visited.table[toward.visited.table != 0].tolist()) == reference_visited
            assert toward.visited.size == len(reference_visited)
            if unique is not None:
                assert (step.grade().level == level) == of_level
                found += of_level
                card = unique
    assert found > 0  # some steps reached the level, so both branches were compared


def test_a_walk_step_hands_a_long_count_to_python_and_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move whose count needs slices of search (none of the shipped cards has one) is counted by
    ``TowardLevel.unique_grade`` and filed where the compiled step would have filed it: the kernel here
    reports the first new move of the step as such a count, then the real kernel goes on after it."""
    params = gen.UbongoParams(pieces=3, mode="given", difficulty="medium")
    real = gen.kernel.walk_step
    checked = 0
    for seed in range(8):
        toward = gen.TowardLevel(params, Deadline.never())
        toward.steps.forget()
        card = gen.generate_arrangement(params, seed, Deadline.never()).puzzle
        lift_order = sorted(name for name, _ in card)
        step_seed = 1234 + seed
        own = gen.outline_key(card)  # putting the piece back where it was is the card itself: skipped
        moves = [(position, *move) for position, move in enumerate(reference_moves(toward, card, lift_order[0], [],
                                                                                   step_seed)) if move[0] != own]
        if not moves:
            continue
        position, key, piece, cells = moves[0]
        calls = []

        move = ([name for name, _ in card].index(lift_order[0]), toward.steps.names.index(piece))
        rows, cols = zip(*sorted(cells), strict=True)

        def long_first(card, pieces, upto, level, technique_level, visited, seed, most_tries, resume, chosen, *,
                       own=own, key=key, move=move, rows=rows, cols=cols, position=position, calls=calls):
            if calls:
                return real(card, pieces, upto, level, technique_level, visited, seed, most_tries, resume, chosen)
            calls.append(key)
            added = gen.kernel.visit(visited, np.uint64(own)) + gen.kernel.visit(visited, np.uint64(key))
            long = gen.kernel.LONG
            chosen.key[long], chosen.move[long] = key, move
            chosen.rows[long, :len(rows)], chosen.cols[long, :len(cols)] = rows, cols
            resume[:] = (0, position + 1)
            return gen.kernel.COUNT_NEEDED, 1, added

        monkeypatch.setattr(gen.kernel, "walk_step", long_first)
        step = toward.step(card, lift_order, step_seed, Deadline.never())
        monkeypatch.setattr(gen.kernel, "walk_step", real)
        unique, several, of_level = reference_step(toward, card, lift_order, step_seed, set())
        assert calls == [key]
        assert (step.arrangement(gen.kernel.UNIQUE) if step.holds(gen.kernel.UNIQUE) else None) == unique
        assert (step.arrangement(gen.kernel.SEVERAL) if step.holds(gen.kernel.SEVERAL) else None) == several
        moved = toward.steps._ordered({**dict(card), piece: cells})
        assert ((key, toward._pieces(card)) in toward.graded) == (toward.steps.coverings(moved, 2, key) == 1)
        checked += 1
    assert checked >= 4


def reference_group_moves(steps: gen.UbongoSteps, arrangement: gen.Arrangement, names: list[str], salt: int
                          ) -> list[tuple[int, gen.Arrangement]]:
    """The moves of lifting each of ``names`` (and in mode hidden putting an unused piece in its place) as
    (outline key, card), ranked together as a repair round ranks them."""
    params = steps.params
    used = [name for name, _ in arrangement]
    swaps = [n for n in steps.names if n not in used] if params.mode == "hidden" else []
    moves = []
    for name in names:
        rest = [cell for n, cells in arrangement if n != name for cell in cells]
        others = {n: c for n, c in arrangement if n != name}
        for piece in [name, *swaps]:
            options = gen._placed(params.catalogue, piece, rest, steps.box, gen.MAX_PERIMETER)
            moves += [(contacts, options.keys[i], steps._ordered({**others, piece: options.cells(i)}))
                      for i, contacts in enumerate(options.contacts)]
    order = sorted(range(len(moves)), key=lambda m: ((64 - moves[m][0]) << 56) | (splitmix(salt + m) >> 8))
    return [moves[m][1:] for m in order]


def reference_repair(steps: gen.UbongoSteps, arrangement: gen.Arrangement, other: gen.Arrangement,
                     rng: random.Random, seen: set[int]) -> gen.Arrangement | None:
    """``UbongoSteps.repair`` in Python: the same shuffles and seed from ``rng``, moves from ``_placed``, each
    counted on its cells by ``rules.count_coverings`` (not by outline key, not remembered)."""
    params = steps.params
    differ = [name for name, cells in arrangement if (name, cells) not in other]
    same = [name for name, cells in arrangement if (name, cells) in other]
    rng.shuffle(differ)
    rng.shuffle(same)
    seed = rng.getrandbits(64)
    pieces = steps._allowed(arrangement)

    def count(card: gen.Arrangement, cap: int) -> int:
        return rules.count_coverings(gen.outline(card), params.catalogue, pieces, params.pieces, params.mode == "given",
                                     cap, Deadline.never())

    current = count(arrangement, gen.COUNT_CAP)
    seen.add(gen.outline_key(arrangement))
    sideways = None
    for group, names in enumerate((differ, same)):
        for key, card in reference_group_moves(steps, arrangement, names, seed ^ (group << 48)):
            if key in seen:
                continue
            counted = count(card, current + 1)
            if counted < current:
                return card
            if counted == current and sideways is None:
                sideways = card
                seen.add(key)
    return sideways


def repair_rounds_against_the_reference(params: gen.UbongoParams, seeds: int, rounds: int,
                                        prepare: Callable[[gen.UbongoSteps], None] = lambda steps: None) -> int:
    """Runs the pipeline's repair rounds from random solutions, each round both ways; how many rounds."""
    compared = 0
    for seed in range(seeds):
        steps = gen.UbongoSteps(params, Deadline.never())
        rng = random.Random(seed)
        card = steps.random_solution(rng)
        prepare(steps)
        seen: set[int] = set()
        for _ in range(rounds):
            other = steps.other_solution(card, card, Deadline.never())
            if other is None:
                break
            twin = random.Random()
            twin.setstate(rng.getstate())
            expected = reference_repair(steps, card, other, twin, seen)
            moved = steps.repair(card, card, other, rng)
            assert moved == expected
            assert set(steps.seen.table[steps.seen.table != 0].tolist()) == seen
            compared += 1
            if moved is None:
                break
            card = moved
    return compared


@pytest.mark.parametrize(("pieces", "mode"), [(3, "given"), (4, "given"), (3, "hidden"), (4, "hidden")], ids=str)
def test_compiled_repair_round_is_the_python_repair(pieces: int, mode: str) -> None:
    """The compiled round (``RepairRound``) weighs the same moves in the same order as a plain Python repair
    counting on cells, chooses the same card and leaves the same outlines seen, round after round."""
    assert repair_rounds_against_the_reference(gen.UbongoParams(pieces=pieces, mode=mode), 30, 6) >= 10


def test_a_repair_round_hands_counts_to_python_and_goes_on() -> None:
    """A count the compiled round cannot make (one needing slices of search: none of the shipped cards has
    one; or one its table of counts has no room for) is made in Python and filed, the table grown, and the
    round goes on from that move: with a table of four entries nearly every count takes that way, and the
    cards are still the reference's."""
    sizes: list[tuple[int, int]] = []

    def tiny_table(steps: gen.UbongoSteps) -> None:
        steps.counted = gen.CountTable(4)

    params = gen.UbongoParams(pieces=4, mode="hidden")
    assert repair_rounds_against_the_reference(params, 4, 4, tiny_table) >= 4
    steps = gen.UbongoSteps(params, Deadline.never())
    rng = random.Random(0)
    card = steps.random_solution(rng)
    steps.counted = gen.CountTable(4)
    while (other := steps.other_solution(card, card, Deadline.never())) is not None:
        sizes.append((len(steps.counted.table), steps.counted.size))
        card = steps.repair(card, card, other, rng)
        assert card is not None
    assert len(steps.counted.table) > 4 and 2 * steps.counted.size <= len(steps.counted.table)


OUTLINE_AT_THE_WORDS_END = """
import numpy as np
from solvers.ubongo.engine import outline_grid
for width in (8, 10, 16):
    grid = outline_grid(np.uint64(1 << 63), width)
    assert grid.shape == (-(-64 // width), width) and grid.sum() == 1, grid
print("ok")
"""


def test_an_outline_reaching_the_words_last_bit_is_read_whatever_its_width() -> None:
    """A shift by 64 bits is undefined (the word may come back unchanged): reading an outline whose rows reach the
    64th bit must end, at any row width (in a child process, so a regression fails by its timeout, not a hang)."""
    run = subprocess.run([sys.executable, "-c", OUTLINE_AT_THE_WORDS_END], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.stdout.strip() == "ok", run.stderr
