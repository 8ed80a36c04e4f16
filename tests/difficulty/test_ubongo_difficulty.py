"""Ubongo difficulty: sound techniques, levels that hold, published boards graded, hints that finish a card."""

from __future__ import annotations

import random
from collections import Counter
from typing import get_args

import pytest

from generators import ubongo as gen
from solvers.common import Deadline, InvalidInput
from solvers.techniques.human import Contradiction
from solvers.ubongo import rules
from solvers.ubongo import techniques as human
from tests.conftest import read_jsonl, share

NEVER = Deadline.never()
LEVELS = human.SOLVER.level_names


def as_set(answer: dict | rules.UbongoAnswer) -> set[tuple[str, frozenset]]:
    placements = answer["placements"] if isinstance(answer, dict) else [p.model_dump() for p in answer.placements]
    return {(p["piece"], frozenset(map(tuple, p["cells"]))) for p in placements}


def path_placements(board: human.Board, path) -> set[tuple[str, frozenset]]:
    out = set()
    for step in path.steps:
        for placement in step.decide:
            k, mask = board.placements[placement]
            out.add((board.names[k], frozenset(human.cell_of(b) for b in human.bits_of(mask))))
    return out


def puzzle(shape: list[str], pieces: list[str] | None = None, count: int | None = None) -> rules.UbongoPuzzle:
    if pieces is None:
        return rules.UbongoPuzzle(shape=shape, mode="hidden", piece_count=count)
    return rules.UbongoPuzzle(shape=shape, pieces=pieces)


# --- single techniques on hand-made positions ---------------------------------------------------------


def first_steps(p: rules.UbongoPuzzle, technique) -> list[str]:
    board = human.board_of(p)
    return [board.describe(step.decide[0]) for step in technique.find(board, human.start(board))]


def test_only_fit_places_a_piece_with_one_place_and_a_cell_with_one_piece() -> None:
    # The I4 lies only along the bottom row; r1c1 is then still open to both I2 positions.
    assert first_steps(puzzle(["##..", "####"], ["I2", "I4"]), human.ONLY_FIT) == ["the I4 on r2c1, r2c2, r2c3, r2c4"]
    # r4c3 (a one-wide pocket) takes only the I2 lying in it.
    steps = first_steps(puzzle(["##.", "###", "##.", ".##"], ["I2", "I3", "T4"]), human.ONLY_FIT)
    assert "the I2 on r4c2, r4c3" in steps


def test_cut_off_region_needs_sizes_the_remaining_pieces_make() -> None:
    p = puzzle(["###", "##.", "##.", "##."], ["I2", "L3", "I4"])
    assert first_steps(p, human.ONLY_FIT) == []
    # The I4 down column 2 would leave 1 + 3 cells on the left... only down column 1 leaves 2 + 3.
    assert first_steps(p, human.CUT_OFF_REGION) == ["the I4 on r1c1, r2c1, r3c1, r4c1"]


def test_parity_sees_what_areas_alone_do_not() -> None:
    p = puzzle([".###", "####", ".##."], ["I2", "I3", "T4"])
    assert first_steps(p, human.ONLY_FIT) == first_steps(p, human.CUT_OFF_REGION) == []
    assert first_steps(p, human.PARITY) == ["the I3 on r1c3, r2c3, r3c3"]
    assert as_set({"placements": [{"piece": "I3", "cells": [[0, 2], [1, 2], [2, 2]]}]}) <= \
        as_set(rules.solve(p, 2, NEVER).solutions[0])


def test_assignable_counts_areas_and_checkerboard_colours() -> None:
    t4, o4, i3, p5 = (4, 2), (4, 0), (3, 1), (5, 1)
    assert human.assignable(tuple(sorted((t4, o4))), ((8, 2),), 2)
    assert not human.assignable(tuple(sorted((t4, o4))), ((8, 0),), 2)  # a T4 always covers 3 + 1
    assert human.assignable((i3, p5), ((3, -1), (5, 1)), 2)
    assert not human.assignable((i3, p5), ((4, 0), (4, 0)), 2)
    assert human.assignable(tuple(sorted((i3, o4, p5))), ((4, 0),), 1)  # hidden: one of three
    assert not human.assignable(tuple(sorted((i3, o4, p5))), ((4, 0),), 2)


def test_trials_take_back_placements_that_lead_to_dead_ends() -> None:
    p = puzzle(["..#.", "####", "####"], ["I2", "I3", "L4"])
    board = human.board_of(p)
    state = human.start(board)
    for technique in (human.ONLY_FIT, human.CUT_OFF_REGION, human.PARITY):
        assert technique.find(board, state) == []
    [step] = human.TWO_WAY.find(board, state)
    assert board.describe(step.decide[0]) == "the I2 on r2c4, r3c4"
    assert step.message.startswith("Only two placements can cover r2c4. Try the other one: with the L4")


def test_a_dead_end_is_a_contradiction() -> None:
    board = human.board_of(puzzle(["##..", "####"], ["I2", "I4"]))
    state = human.start(board)
    wrong = next(i for i, (k, mask) in enumerate(board.placements)
                 if board.names[k] == "I2" and mask == (1 << 0 | 1 << human.GRID))  # down column 1
    state.place(wrong)
    with pytest.raises(Contradiction):
        human.only_fit(board, state)


# --- soundness ----------------------------------------------------------------------------------------


def assert_path_in_solution(generated) -> None:
    board = human.board_of(generated.puzzle)
    path = human.SOLVER.run(board)
    assert path.state.solved
    assert path_placements(board, path) == as_set(generated.solution)


@pytest.mark.parametrize(("pieces", "mode", "cards"), [(3, "given", 300), (4, "given", 100), (3, "hidden", 40)])
def test_every_placement_on_the_path_is_in_the_solution(pieces: int, mode: str, cards: int) -> None:
    for seed in range(cards):
        assert_path_in_solution(gen.generate_unique(gen.UbongoParams(pieces=pieces, mode=mode), seed, NEVER))


@pytest.mark.slow
@pytest.mark.parametrize(("pieces", "mode", "cards"), [(3, "given", 2000), (4, "given", 600), (5, "given", 200),
                                                       (4, "hidden", 100), (5, "hidden", 30)])
def test_every_placement_on_the_path_is_in_the_solution_many(pieces: int, mode: str, cards: int) -> None:
    """A third of the cards (all of them in `make test-whole`)."""
    for seed in share(range(1000, 1000 + cards), 3):
        assert_path_in_solution(gen.generate_unique(gen.UbongoParams(pieces=pieces, mode=mode), seed, NEVER))


def random_small_card(rng: random.Random) -> rules.UbongoPuzzle:
    """Two or three random pieces pushed together, often with several coverings or other piece sets."""
    names = rng.sample(list(rules.CATALOGUES["standard"]), rng.choice((2, 3)))
    cells: set = set()
    for name in names:
        shape = rng.choice(rules.piece_orientations("standard", name))
        options = [(dr, dc) for dr in range(-4, 5) for dc in range(-4, 5)
                   if not {(r + dr, c + dc) for r, c in shape} & cells
                   and (not cells or any((r + dr + a, c + dc + b) in cells
                                         for r, c in shape for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0))))]
        dr, dc = rng.choice(options)
        cells |= {(r + dr, c + dc) for r, c in shape}
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    rows, cols = max(r for r, _ in cells) - r0 + 1, max(c for _, c in cells) - c0 + 1
    shape_rows = ["".join("#" if (r + r0, c + c0) in cells else "." for c in range(cols)) for r in range(rows)]
    if rng.random() < 0.3:
        return puzzle(shape_rows, count=len(names))
    return puzzle(shape_rows, names)


def test_on_small_cards_every_placement_made_is_in_every_covering_the_exact_cover_solver_finds() -> None:
    """Also on cards with several coverings (or piece sets): a technique places only what all share."""
    rng = random.Random(15)
    multiple = placed_on_multiple = 0
    for _ in range(400):
        p = random_small_card(rng)
        coverings = [as_set(s) for s in rules.solve(p, 10**6, NEVER).solutions]
        board = human.board_of(p)
        path = human.SOLVER.run(board)
        placed = path_placements(board, path)
        assert all(placed <= covering for covering in coverings), p
        if len(coverings) == 1:
            assert path.state.solved and placed == coverings[0], p
        else:
            multiple += 1
            placed_on_multiple += bool(placed)
    assert multiple > 50 and placed_on_multiple > 10  # the check above had cases to bite on


# --- levels -------------------------------------------------------------------------------------------


def test_the_params_levels_are_the_solvers() -> None:
    assert list(get_args(gen.UbongoParams.model_fields["difficulty"].annotation)) == LEVELS
    assert human.DIFFICULTY.names == LEVELS and human.DIFFICULTY.default in LEVELS
    assert gen.PUZZLE_TYPE.difficulty is human.DIFFICULTY


@pytest.mark.parametrize("mode", ["given", "hidden"])
@pytest.mark.parametrize("pieces", [3, 4])
def test_a_card_generated_at_a_level_grades_there_and_not_below(pieces: int, mode: str) -> None:
    for index, level in enumerate(LEVELS):
        for seed in range(2):
            made = gen.generate_puzzle(gen.UbongoParams(pieces=pieces, mode=mode, difficulty=level), seed, NEVER)
            assert rules.solve(made.puzzle, 2, NEVER).status == "unique"
            assert human.grade(made.puzzle, NEVER).level == level == made.difficulty.level
            board = human.board_of(made.puzzle)
            assert human.SOLVER.run(board, upto=index).state.solved
            if index:
                assert not human.SOLVER.run(human.board_of(made.puzzle), upto=index - 1).state.solved


def test_same_seed_same_card_at_a_level() -> None:
    params = gen.UbongoParams(pieces=4, difficulty="hard")
    assert gen.generate_puzzle(params, 9, NEVER).puzzle == gen.generate_puzzle(params, 9, NEVER).puzzle


@pytest.mark.slow
def test_mean_effort_rises_with_the_level() -> None:
    for pieces in (3, 4):
        means = []
        for level in LEVELS:
            scores = [gen.generate_puzzle(gen.UbongoParams(pieces=pieces, difficulty=level), seed, NEVER).difficulty.score
                      for seed in range(20)]
            means.append(sum(scores) / len(scores))
        assert means == sorted(means) and len(set(means)) == len(means), (pieces, means)


# --- published boards ---------------------------------------------------------------------------------


def published_unique_cards(reference_dir) -> list[rules.UbongoPuzzle]:
    cards = []
    for line in read_jsonl(reference_dir / "ubongo" / "m-kasahr-orig.jsonl"):
        width = max(len(row) for row in line["shape"])
        shape = [row.ljust(width, ".") for row in line["shape"]]
        if line["mode"] == "given" and line.get("coverings") == 1:
            cards.append(puzzle(shape, line["pieces"]))
        elif line["mode"] == "hidden" and sum(c["coverings"] for c in line["combinations"]) == 1:
            cards.append(puzzle(shape, count=line["piece_count"]))
    return cards


def test_published_unique_boards_are_graded_and_the_path_is_their_covering(reference_dir) -> None:
    cards = published_unique_cards(reference_dir)
    assert len(cards) >= 60
    levels = Counter()
    for p in cards:
        board = human.board_of(p)
        path = human.SOLVER.run(board)
        [covering] = rules.solve(p, 2, NEVER).solutions
        assert path.state.solved and path_placements(board, path) == as_set(covering)
        levels[human.grade(p, NEVER).level] += 1
    assert set(levels) <= set(LEVELS) and len(levels) >= 2, levels


# --- hints --------------------------------------------------------------------------------------------


def hints_until_solved(p: rules.UbongoPuzzle, solution: rules.UbongoAnswer) -> list:
    state = human.UbongoState()
    hints = []
    for _ in range(10):
        h = human.DIFFICULTY.hint(p, state, solution, NEVER)
        hints.append(h)
        if h.technique == "solved":
            return hints
        assert not h.mistakes
        state.placements.append(rules.Placement(**h.decide[0]))
    raise AssertionError("hints did not finish the card")


@pytest.mark.parametrize("mode", ["given", "hidden"])
def test_hints_from_an_empty_card_finish_it(mode: str) -> None:
    for seed in range(6):
        made = gen.generate_puzzle(gen.UbongoParams(pieces=4, mode=mode, difficulty=LEVELS[seed % 3]), seed, NEVER)
        hints = hints_until_solved(made.puzzle, made.solution)
        assert len(hints) == len(made.solution.placements) + 1
        assert {(h.decide[0]["piece"], frozenset(map(tuple, h.decide[0]["cells"]))) for h in hints[:-1]} == \
            as_set(made.solution)
        assert rules.check(made.puzzle, rules.UbongoAnswer(placements=[rules.Placement(**h.decide[0])
                                                                       for h in hints[:-1]])) == []
        for h in hints[:-1]:
            assert h.message.endswith(".") and "the " in h.message and h.because == h.decide[0]["cells"]


def test_a_misplaced_piece_is_a_mistake_and_a_malformed_one_is_refused() -> None:
    made = gen.generate_puzzle(gen.UbongoParams(pieces=3, difficulty="easy"), 3, NEVER)
    right = made.solution.placements[0]
    board = human.board_of(made.puzzle)
    k = board.names.index(right.piece)
    cells = {tuple(c) for c in right.cells}
    moved = next(mask for i, (piece, mask) in enumerate(board.placements)
                 if piece == k and {human.cell_of(b) for b in board.bits[i]} != cells)
    wrong = rules.Placement(piece=right.piece, cells=[list(human.cell_of(b)) for b in human.bits_of(moved)])
    h = human.DIFFICULTY.hint(made.puzzle, human.UbongoState(placements=[wrong]), made.solution, NEVER)
    assert h.technique == "mistakes" and sorted(map(tuple, h.mistakes)) == sorted(map(tuple, wrong.cells))
    assert right.piece in h.message
    outside = rules.Placement(piece=right.piece, cells=[[r + 20, c] for r, c in right.cells])
    assert human.DIFFICULTY.hint(made.puzzle, human.UbongoState(placements=[outside]), made.solution,
                                 NEVER).technique == "mistakes"
    for bad in (rules.Placement(piece="Q9", cells=[[0, 0]]), rules.Placement(piece=right.piece, cells=[[0, 0]])):
        with pytest.raises(InvalidInput):
            human.DIFFICULTY.hint(made.puzzle, human.UbongoState(placements=[bad]), made.solution, NEVER)
    done = human.DIFFICULTY.hint(made.puzzle, human.UbongoState(placements=made.solution.placements),
                                 made.solution, NEVER)
    assert done.technique == "solved" and not done.decide


# --- through the service ------------------------------------------------------------------------------


GENERATE_BUDGET_SECONDS = 120  # the `client` fixture's (conftest): levels take draws and adjustments


def test_types_list_ubongo_levels_and_the_difficulty_parameter(client) -> None:
    info = next(t for t in client.get("/types").json() if t["name"] == "ubongo")
    assert info["difficulties"] == LEVELS and info["default_difficulty"] == human.DIFFICULTY.default
    assert [t["name"] for level in info["levels"] for t in level["techniques"]] == \
        ["only-fit", "cut-off-region", "parity", "two-way", "trial", "deep-trial"]
    assert client.post("/generate/ubongo", params={"difficulty": "fiendish"}).status_code == 422


@pytest.mark.parametrize("mode", ["given", "hidden"])
def test_a_player_plays_a_stored_card_with_hints(client, mode: str) -> None:
    record = client.post("/generate/ubongo", params={"pieces": 4, "mode": mode, "seed": 4, "difficulty": "hard"}).json()
    assert record["difficulty"]["level"] == "hard"
    assert client.post("/grade/ubongo", json={"puzzle": record["puzzle"]}).json() == {"status": "unique",
                                                                                        **record["difficulty"]}
    placements: list[dict] = []
    techniques = []
    for _ in range(6):
        hint = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"placements": placements}}).json()
        if hint["technique"] == "solved":
            break
        techniques.append(hint["technique"])
        assert not hint["mistakes"] and len(hint["decide"]) == 1
        placements.append(hint["decide"][0])
    assert len(placements) == 4 and "reveal" not in techniques
    assert client.post(f"/puzzles/{record['id']}/verify", json={"answer": {"placements": placements}}).json()["solved"]
    misplaced = {"piece": placements[0]["piece"], "cells": [[r + 9, c] for r, c in placements[0]["cells"]]}
    hint = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"placements": [misplaced]}}).json()
    assert hint["technique"] == "mistakes" and hint["mistakes"] == sorted(misplaced["cells"])
    not_a_piece = {"piece": placements[0]["piece"], "cells": [[0, 0]]}
    refused = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"placements": [not_a_piece]}})
    assert refused.status_code == 422 and "rotation or reflection" in refused.text
    anyone = client.post("/hint/ubongo", json={"puzzle": record["puzzle"], "state": {"placements": []}}).json()
    assert anyone["decide"] and anyone["message"]


def test_easy_five_hidden_pieces_is_generated(client) -> None:
    """Every level at every piece count in both modes: the rarest, easy with 5 hidden pieces, included."""
    made = client.post("/generate/ubongo", params={"pieces": 5, "mode": "hidden", "difficulty": "easy", "seed": 3})
    assert made.status_code == 201, made.text
    record = made.json()
    assert record["difficulty"]["level"] == "easy" and record["puzzle"]["piece_count"] == 5
    puzzle = rules.UbongoPuzzle(**record["puzzle"])
    assert rules.solve(puzzle, 2, NEVER).status == "unique"
    assert human.grade(puzzle, NEVER).level == "easy"
