"""Masyu through the genre kit: its model against brute force (every region of squares between cell centres
whose outline is one loop, the pearls checked from their definition) and a second SAT backend, the published
pzprjs example, Tatham's Pearl puzzles, generated puzzles at each level (unique by z3, checked, graded, hinted to
the end), puz.link and Tatham's game IDs both ways, and the picture."""

from __future__ import annotations

import itertools
import random

import pytest

from bench.stats import spearman
from generators.loops import outline
from generators.masyu import DIFFICULTY, NEIGHBOURS, PUZZLE_TYPE, MasyuGenre, MasyuParams, generate_puzzle
from pictures.edges import LINE
from solvers.common import Deadline, InvalidInput
from solvers.kit.human import start
from solvers.kit.rules import Broken
from solvers.kit.together import Together
from solvers.masyu.picture import render
from solvers.masyu.puzzlink import parse_url, to_url
from solvers.masyu.rules import MasyuAnswer, MasyuPuzzle, model
from solvers.masyu.tatham import parse_tatham, to_tatham
from tests.conftest import REFERENCE, read_jsonl

check, solve = PUZZLE_TYPE.check, PUZZLE_TYPE.solve
FIELDS = ("horizontal", "vertical")
Edges = dict[str, list[list[int]]]


def published() -> list[dict]:
    return read_jsonl(REFERENCE / "masyu" / "pzprjs.jsonl")


def tatham_puzzles() -> list[dict]:
    return read_jsonl(REFERENCE / "masyu" / "tatham.jsonl")


def ways(edges: Edges, r: int, c: int) -> set[tuple[int, int]]:
    """The directions the loop leaves cell (r, c) by, read straight off the two grids."""
    out = set()
    if c > 0 and edges["horizontal"][r][c - 1]:
        out.add((0, -1))
    if c < len(edges["horizontal"][0]) and edges["horizontal"][r][c]:
        out.add((0, 1))
    if r > 0 and edges["vertical"][r - 1][c]:
        out.add((-1, 0))
    if r < len(edges["vertical"]) and edges["vertical"][r][c]:
        out.add((1, 0))
    return out


def straight(way: set[tuple[int, int]]) -> bool:
    return way in ({(0, -1), (0, 1)}, {(-1, 0), (1, 0)})


def pearls_hold(puzzle: MasyuPuzzle, edges: Edges) -> bool:
    """Every pearl as the rules say it: black a turn with a straight cell on both sides, white a straight with a
    turn on at least one side."""
    for r, c in itertools.product(range(puzzle.rows), range(puzzle.cols)):
        kind, here = puzzle.pearls[r][c], ways(edges, r, c)
        if kind is None:
            continue
        if len(here) != 2:
            return False
        beside = [straight(ways(edges, r + dr, c + dc)) for dr, dc in here]
        if kind == "B" and (straight(here) or not all(beside)) or kind == "W" and (not straight(here) or all(beside)):
            return False
    return True


def single_loop(edges: Edges, rows: int, cols: int) -> bool:
    """Each cell 0 or 2 lines, at least one line, all joined."""
    on = [(r, c) for r, c in itertools.product(range(rows), range(cols)) if ways(edges, r, c)]
    if not on or any(len(ways(edges, r, c)) != 2 for r, c in on):
        return False
    seen, stack = {on[0]}, [on[0]]
    while stack:
        r, c = stack.pop()
        for dr, dc in ways(edges, r, c):
            if (r + dr, c + dc) not in seen:
                seen.add((r + dr, c + dc))
                stack.append((r + dr, c + dc))
    return len(seen) == len(on)


def brute_force(puzzle: MasyuPuzzle) -> list[Edges]:
    """Every answer: a loop through centres goes round the squares between centres inside it."""
    squares = list(itertools.product(range(puzzle.rows - 1), range(puzzle.cols - 1)))
    found = []
    for bits in itertools.product((0, 1), repeat=len(squares)):
        edges = outline({s for s, bit in zip(squares, bits, strict=True) if bit}, puzzle.rows - 1, puzzle.cols - 1)
        if single_loop(edges, puzzle.rows, puzzle.cols) and pearls_hold(puzzle, edges):
            found.append(edges)
    return sorted(found, key=repr)


def small_puzzle(seed: int) -> MasyuPuzzle:
    rng = random.Random(seed)
    rows, cols = rng.choice([(3, 3), (3, 4), (4, 4), (4, 4)])
    return MasyuPuzzle(rows=rows, cols=cols, pearls=[[rng.choice([None, None, None, "W", "B"]) for _ in range(cols)]
                                                     for _ in range(rows)])


@pytest.mark.parametrize("seed", range(20))
def test_the_kit_counts_what_brute_force_counts_on_both_backends(seed: int) -> None:
    puzzle = small_puzzle(seed)
    truth = brute_force(puzzle)
    for backend in ("cadical", "z3"):
        outcome = solve(puzzle, 1000, Deadline.after(20), backend)
        assert outcome.complete and outcome.count == len(truth), (backend, puzzle.pearls)
        assert sorted(outcome.solutions, key=repr) == truth


@pytest.mark.parametrize("entry", published(), ids=lambda e: e["url"])
def test_published_puzzles_have_their_published_answer_alone(entry: dict) -> None:
    puzzle = parse_url(entry["url"])
    answer = {f: entry[f] for f in FIELDS}
    outcome = solve(puzzle, 10, Deadline.after(20))
    assert outcome.complete and outcome.count == 1 and outcome.solutions[0] == answer
    assert check(puzzle, MasyuAnswer(**answer)) == []
    assert to_url(puzzle) == entry["url"]


def test_a_wrong_answer_names_the_broken_rule_and_its_cells() -> None:
    entry = published()[0]
    puzzle = parse_url(entry["url"])  # a white pearl at r1c3, a black one at r2c2
    wrong = MasyuAnswer(**{f: [row[:] for row in entry[f]] for f in FIELDS})
    wrong.horizontal[0][1] = wrong.horizontal[0][2] = 0  # the loop no longer through the white pearl at r1c3
    broken = {v.rule: v for v in check(puzzle, wrong)}
    assert {"pearl", "cell"} <= set(broken) and broken["pearl"].cells == [[0, 2]]
    assert "white pearl at r1c3" in broken["pearl"].message


def test_tathams_game_ids_read_and_write_back_and_his_puzzles_are_unique() -> None:
    for entry in tatham_puzzles():
        puzzle = parse_tatham(entry["tatham"])
        assert to_tatham(puzzle) == entry["tatham"]
        outcome = solve(puzzle, 2, Deadline.after(20))
        assert outcome.count == 1, entry["tatham"]
        assert check(puzzle, MasyuAnswer(**outcome.solutions[0])) == []


@pytest.mark.slow
def test_our_levels_follow_tathams_on_his_own_puzzles() -> None:
    """His Easy and Tricky (his own solver, independent of ours) against our grade: none of his Tricky is easy
    for us, and the ranks agree as far as two levels can."""
    his, ours = [], []
    for entry in tatham_puzzles():
        level = DIFFICULTY.grade(parse_tatham(entry["tatham"]), Deadline.after(60)).level
        his.append(["easy", "tricky"].index(entry["level"]))
        ours.append(["easy", "medium", "hard"].index(level) if level else 3)
    assert not any(h == 1 and o == 0 for h, o in zip(his, ours, strict=True))
    assert spearman(his, ours) >= 0.95, list(zip(his, ours, strict=True))


def joint_by_brute_force(group: Together, values: list[int | None]) -> list[tuple[int, int]] | None:
    """What every way of filling the group's open keys that keeps all its counts agrees on (None: no way);
    nothing while one of its counts decides something alone (that count goes first)."""
    position = {key: p for p, key in enumerate(group.cells)}
    for rule in group.rules:
        alone = [values[position[key]] for key in rule.cells]
        open_keys = alone.count(None)
        ones = sum(v for v in alone if v)
        totals = [t for t in range(ones, ones + open_keys + 1) if rule.fits(t)]
        if not totals:
            return None
        if open_keys and (totals == [ones] or totals == [ones + open_keys]):
            return []
    open_ = [p for p, v in enumerate(values) if v is None]
    kept = []
    for bits in itertools.product((0, 1), repeat=len(open_)):
        filled = list(values)
        for p, bit in zip(open_, bits, strict=True):
            filled[p] = bit
        if all(rule.fits(sum(filled[position[key]] for key in rule.cells)) for rule in group.rules):  # type: ignore[misc]
            kept.append(filled)
    if not kept:
        return None
    return [(p, kept[0][p]) for p in open_ if len({way[p] for way in kept}) == 1]


@pytest.mark.parametrize("seed", range(12))
def test_a_pearl_read_with_its_neighbours_decides_what_brute_force_does_and_keeps_the_answers(seed: int) -> None:
    """Each pearl's group against every filling of its keys, from lines of an answer (or at random) half shown;
    what it decides from an answer's lines is that answer's."""
    rng = random.Random(seed)
    puzzle = small_puzzle(seed)
    puzzle.pearls[rng.randrange(puzzle.rows)][rng.randrange(puzzle.cols)] = "W"
    answers = brute_force(puzzle)
    groups = [rule for rule in model(puzzle).rules if isinstance(rule, Together)]
    assert groups
    for group in groups:
        for _ in range(6):
            answer = rng.choice(answers) if answers and rng.random() < 0.7 else None
            truth = [answer[field][r][c] if answer else rng.randrange(2) for field, r, c in group.cells]
            values = [v if rng.random() < 0.5 else None for v in truth]
            expected = joint_by_brute_force(group, values)
            try:
                found = group.look(values)
            except Broken:
                found = None
            assert (None if found is None else sorted(found)) == expected, (group.says, values)
            if answer is not None:
                assert found is not None and all(truth[p] == v for p, v in found), group.says


def test_three_white_pearls_in_a_row_the_middle_one_cannot_run_along_it() -> None:
    """Tatham's Easy reads it at once; the hint says why, naming the pearls."""
    pearls: list[list[str | None]] = [[None] * 5 for _ in range(5)]
    pearls[2][1] = pearls[2][2] = pearls[2][3] = "W"
    puzzle = MasyuPuzzle(rows=5, cols=5, pearls=pearls)
    made = model(puzzle)
    steps = NEIGHBOURS.find(made, start(made))
    step = next(step for step in steps if step.because[0] == (2, 2))
    assert step.message.startswith("the white pearl at r3c3 goes straight") and "the white pearl at r3c2 goes " \
        "straight (it cannot turn)" in step.message and "r3c4" in step.message, step.message
    decided = {made.keys[i]: value for (_, i), value in step.decide}
    assert decided[("horizontal", 2, 1)] == decided[("horizontal", 2, 2)] == 0  # not along the row
    assert decided[("vertical", 1, 2)] == decided[("vertical", 2, 2)] == 1
    assert "the line r3c2–r3c3" in step.message and "crossed" in step.message


@pytest.mark.parametrize("seed", range(2))
def test_hints_from_an_empty_grid_follow_the_solution_to_the_end(seed: int) -> None:
    made = generate_puzzle(MasyuParams(size=6, difficulty="hard"), seed, Deadline.after(60))
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


def test_a_hint_names_a_wrong_line() -> None:
    made = generate_puzzle(MasyuParams(size=5, difficulty="easy"), 1, Deadline.after(60))
    target = made.solution.model_dump()
    r, c = next((r, c) for r, row in enumerate(target["vertical"]) for c, v in enumerate(row) if v == 0)
    state = {f: [[None] * len(row) for row in target[f]] for f in FIELDS}
    state["vertical"][r][c] = 1
    hint = DIFFICULTY.hint(made.puzzle, DIFFICULTY.state_model(**state), made.solution, Deadline.after(20))
    assert hint.technique == "mistakes" and hint.mistakes == [[r, c]]


def test_hard_is_made_at_the_largest_size_unique_and_hard() -> None:
    assert MasyuParams(rows=12, cols=8, difficulty="hard").shape() == (12, 8)  # Tatham's 12x8
    made = generate_puzzle(MasyuParams(size=12, difficulty="hard"), 3, Deadline.after(120))
    assert check(made.puzzle, made.solution) == []
    assert DIFFICULTY.grade(made.puzzle, Deadline.after(60)).level == "hard"
    for backend in ("cadical", "z3"):
        outcome = solve(made.puzzle, 2, Deadline.after(60), backend)
        assert outcome.complete and outcome.count == 1, backend


def test_a_bad_url_or_game_id_says_what_is_wrong() -> None:
    with pytest.raises(InvalidInput, match="mashu"):
        parse_url("https://puzz.link/p?akari/4/4/g")
    with pytest.raises(InvalidInput, match="base-27"):
        parse_url("https://puzz.link/p?mashu/3/3/z")
    assert parse_url("https://puzz.link/p?mashu/3/3/") == MasyuPuzzle(rows=3, cols=3, pearls=[[None] * 3] * 3)
    with pytest.raises(InvalidInput, match="cells"):
        parse_tatham("3x3:aB")
    with pytest.raises(InvalidInput, match="game ID"):
        parse_tatham("3x3:x?")
    assert parse_tatham("3x3:i") == parse_tatham("3x3dt:i")


def test_the_picture_draws_pearls_and_the_loop() -> None:
    entry = published()[0]
    puzzle = parse_url(entry["url"])
    svg = render(puzzle, MasyuAnswer(**{f: entry[f] for f in FIELDS}))
    assert svg.count('class="pearl"') == 5 and svg.count(LINE) == sum(map(sum, entry["horizontal"] + entry["vertical"]))
    played = render(puzzle, None, play=True)
    assert played.count('data-cell="') == 36 and played.count('data-edge="') == 60 and 'data-joins="centres"' in played


def test_drawn_loops_are_single_loops_and_every_pearl_place_holds_a_pearl() -> None:
    genre = MasyuGenre()
    for seed in range(20):
        rows, cols = random.Random(seed).choice([(5, 5), (6, 9), (12, 8)])
        board, answer = genre.draw(MasyuParams(rows=rows, cols=cols), random.Random(seed))
        every = frozenset(genre.clues(board, answer))
        puzzle = genre.puzzle(board, answer, every)
        assert single_loop(answer, rows, cols) and pearls_hold(puzzle, answer)
        assert check(puzzle, MasyuAnswer(**answer)) == []
        assert sum(v is not None for row in puzzle.pearls for v in row) == len(every) > 0


def test_our_puzzles_that_pzprjs_accepted_are_unique_and_checked() -> None:
    for entry in read_jsonl(REFERENCE / "masyu" / "pzprjs-generated.jsonl"):
        puzzle, answer = parse_url(entry["url"]), {f: entry[f] for f in FIELDS}
        assert to_url(puzzle) == entry["url"] and check(puzzle, MasyuAnswer(**answer)) == []
        assert solve(puzzle, 2, Deadline.after(20)).solutions == [answer], entry["url"]
