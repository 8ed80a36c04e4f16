"""Battleship difficulty: single techniques on hand-made positions, soundness against the published
answers and against every solution the SAT solver finds, generation at each level, hints."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from generators.battleship import BattleshipParams, generate_puzzle, random_layout
from solvers.battleship import rules
from solvers.battleship import techniques as bt
from solvers.common import Deadline, InvalidInput
from solvers.techniques.human import Contradiction, GridState
from tests.conftest import REFERENCE, read_jsonl, share
from tests.puzzles.test_battleship import grid, puzzle_for

LEVELS = bt.SOLVER.level_names


def state_of(text: str) -> GridState:
    """``#`` ship, ``.`` water, ``?`` undecided."""
    return GridState.from_grid([[{"#": 1, ".": 0, "?": None}[ch] for ch in line] for line in text.split()])


def decided(steps) -> dict[tuple[int, int], int]:
    return {cell: value for step in steps for cell, value in step.decide}


# ---------------------------------------------------------------- single techniques

SHIPS = grid("""
###..#
......
#.##..
#....#
......
.#....
""")
FLEET = [3, 2, 2, 1, 1, 1]


def test_full_and_fill_line() -> None:
    board = bt.board_of(puzzle_for(SHIPS, FLEET))
    state = bt.start(board)
    water = decided(bt.full_line(board, state))
    assert all(water[(1, c)] == 0 for c in range(6)) and all(water[(4, c)] == 0 for c in range(6))  # rows of 0
    assert (0, 0) not in water
    state = state_of("""
???..?
......
??????
??????
......
??????
""")
    ships = decided(bt.fill_line(board, state))
    assert ships == {(0, 0): 1, (0, 1): 1, (0, 2): 1, (0, 5): 1}  # row 1 needs 4 and has 4 undecided


def test_diagonal_water_and_touching_ships() -> None:
    board = bt.board_of(puzzle_for(SHIPS, FLEET))
    steps = bt.diagonal_water(board, state_of("??????\n?#????\n??????\n??????\n??????\n??????"))
    assert decided(steps) == {(0, 0): 0, (0, 2): 0, (2, 0): 0, (2, 2): 0}
    assert "never touch" in steps[0].message and "r2c2" in steps[0].message
    with pytest.raises(Contradiction, match="touch"):
        bt.diagonal_water(board, state_of("??????\n?#????\n??#???\n??????\n??????\n??????"))


def test_revealed_shapes() -> None:
    board = bt.board_of(puzzle_for(SHIPS, FLEET, [(2, 0, "top"), (0, 1, "middle"), (0, 5, "sub")]))
    found = decided(bt.revealed_shape(board, bt.start(board)))
    assert found[(2, 0)] == 1 and found[(3, 0)] == 1 and found[(1, 0)] == 0 and found[(2, 1)] == 0  # top end
    assert found[(0, 0)] == found[(0, 2)] == 1 and found[(1, 1)] == 0  # a middle on the top edge lies along the row
    assert found[(0, 4)] == found[(1, 5)] == 0  # a one-cell ship is surrounded by water
    with pytest.raises(Contradiction, match="revealed as the top end"):
        bt.revealed_shape(board, state_of("??????\n??????\n??????\n.?????\n??????\n??????"))


def test_longest_ship_is_capped() -> None:
    board = bt.board_of(puzzle_for(SHIPS, FLEET))
    steps = bt.longest_ship(board, state_of("?###??\n??????\n??????\n??????\n??????\n??????"))
    assert decided(steps) == {(0, 0): 0, (0, 4): 0}
    with pytest.raises(Contradiction, match="longer than the longest"):
        bt.longest_ship(board, state_of("####??\n??????\n??????\n??????\n??????\n??????"))


def test_biggest_ship_has_one_place_left() -> None:
    # Only row 1 has room for the 3-ship, and column 4 is full (r3c4): it can only be r1c1–r1c3.
    board = bt.board_of(puzzle_for(SHIPS, FLEET))
    state = state_of("????.?\n......\n#.##..\n#....#\n......\n.#....")
    steps = bt.biggest_ship(board, state)
    assert decided(steps) == {(0, 0): 1, (0, 1): 1, (0, 2): 1}
    assert "3-cell ship" in steps[0].message


def test_ship_must_continue_when_no_one_cell_ship_is_left() -> None:
    # The three one-cell ships are finished, so the ship cell at r1c6 is the 2-ship: column 5 holds no
    # ship, so it goes on downward.
    ships = grid("""
.....#
.....#
#.#...
......
#.....
......
""")
    board = bt.board_of(puzzle_for(ships, [2, 1, 1, 1]))
    state = state_of("....?#\n.?.???\n#.#.??\n.?.???\n#.????\n.?????")
    steps = bt.ship_shape(board, state)
    assert decided(steps) == {(1, 5): 1, (0, 4): 0}
    assert "2-cell ship" in steps[0].message
    assert decided(bt.no_ship_fits(board, state))[(3, 3)] == 0  # row 4 holds no ship: nothing fits r4c4


def test_fleet_places_fills_the_last_places() -> None:
    ships = grid("""
##....
......
......
...#..
...#..
......
""")
    board = bt.board_of(puzzle_for(ships, [2, 2]))
    steps = bt.fleet_places(board, bt.start(board))  # the counts leave the two 2-ships two places
    assert decided(steps) == {(0, 0): 1, (0, 1): 1, (3, 3): 1, (4, 3): 1}
    assert "r1c1–r1c2 and r4c4–r5c4" in steps[0].message


# ---------------------------------------------------------------- soundness


def path_agrees(puzzle: rules.BattleshipPuzzle, solutions: list[list[list[int]]]) -> bt.GridState:
    path = bt.SOLVER.run(bt.board_of(puzzle))
    for step in path.steps:
        for (r, c), value in step.decide:
            assert all(s[r][c] == value for s in solutions), (step.technique, step.message)
    return path.state


def test_every_decided_cell_holds_in_every_solution_of_small_random_puzzles() -> None:
    """Puzzles with few or no revealed cells have many solutions; the SAT solver lists them all."""
    rng = random.Random(7)
    checked = 0
    for _ in range(40):
        fleet = [3, 2, 2, 1, 1, 1]
        ships = random_layout(6, 6, fleet, rng)
        revealed = []
        for _ in range(rng.randrange(3)):
            r, c = rng.randrange(6), rng.randrange(6)
            if all((r, c) != (rr, cc) for rr, cc, _ in revealed):
                revealed.append((r, c, rules.segment_kind(ships, r, c)))
        puzzle = puzzle_for(ships, fleet, revealed)
        outcome = rules.solve(puzzle, 500, Deadline.after(60))
        assert outcome.complete
        solutions = [s["ships"] for s in outcome.solutions]
        state = path_agrees(puzzle, solutions)
        checked += 36 - state.undecided
    assert checked > 40 * 18  # the techniques decide most cells, not nothing


REFERENCE_LINES = [line for name in ("courses", "janko") for line in read_jsonl(REFERENCE / "battleship" / f"{name}.jsonl")]


@pytest.mark.slow
def test_published_puzzles_grade_soundly_and_the_course_labels_in_order() -> None:
    """The labelled course puzzles all, and an eighth of the rest (all of them in `make test-whole`)."""
    course = [line for line in REFERENCE_LINES if line["id"].startswith("csc384/")]
    lines = course + share([line for line in REFERENCE_LINES if not line["id"].startswith("csc384/")], 8)
    levels: dict[str, str | None] = {}
    for line in lines:
        puzzle = rules.BattleshipPuzzle.model_validate(line["puzzle"])
        path_agrees(puzzle, [line["solution"]["ships"]])
        levels[line["id"]] = bt.SOLVER.grade(bt.board_of(puzzle)).level
    assert len(REFERENCE_LINES) == 894 and len(levels) == len(lines)
    distribution = Counter(levels.values())
    print("published battleship levels:", dict(distribution))
    assert all(distribution[name] > 0 for name in LEVELS)  # every level occurs among human-made puzzles
    rank = {name: k for k, name in enumerate(LEVELS)} | {None: len(LEVELS)}
    by_label = {label: [rank[level] for pid, level in levels.items() if pid.startswith(f"csc384/{label}")]
                for label in ("easy", "medium", "hard", "impossible")}
    order = list(by_label.values())
    assert all(max(easier) <= min(harder) for easier, harder in zip(order, order[1:], strict=False)), by_label
    assert max(by_label["easy"]) < min(by_label["hard"]) < min(by_label["impossible"])


# ---------------------------------------------------------------- generation at a level


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2])
def test_generated_puzzle_is_unique_and_of_its_level(level: str, seed: int) -> None:
    params = BattleshipParams(size=8, difficulty=level)
    result = generate_puzzle(params, seed, Deadline.after(120))
    puzzle, ships = result.puzzle, result.solution.ships
    outcome = rules.solve(puzzle, 2, Deadline.after(60))
    assert outcome.status == "unique" and outcome.solutions == [{"ships": ships}]
    board = bt.board_of(puzzle)
    assert bt.SOLVER.grade(board).level == level == result.difficulty.level
    index = LEVELS.index(level)
    assert bt.SOLVER.run(board, upto=index).state.solved
    if index:
        assert not bt.SOLVER.run(board, upto=index - 1).state.solved  # Tatham's rule
    path_agrees(puzzle, [ships])


def test_expert_keeps_minimal_revealed_cells_and_easier_levels_reveal_more() -> None:
    expert = generate_puzzle(BattleshipParams(size=8, difficulty="expert"), 3, Deadline.after(120)).puzzle
    for i in range(len(expert.revealed)):
        fewer = expert.model_copy(update={"revealed": expert.revealed[:i] + expert.revealed[i + 1:]})
        assert rules.solve(fewer, 2, Deadline.after(60)).status == "multiple"
    easy = [len(generate_puzzle(BattleshipParams(size=8, difficulty="easy"), s, Deadline.after(60)).puzzle.revealed)
            for s in range(4)]
    minimal = [len(generate_puzzle(BattleshipParams(size=8, difficulty="expert"), s, Deadline.after(120))
                   .puzzle.revealed) for s in range(4)]
    assert sum(easy) > sum(minimal)


def test_same_seed_same_puzzle_at_a_level() -> None:
    params = BattleshipParams(size=8, difficulty="easy")
    assert generate_puzzle(params, 5, Deadline.after(60)).puzzle == generate_puzzle(params, 5, Deadline.after(60)).puzzle


# ---------------------------------------------------------------- hints


def hint(puzzle, ships, state):
    return bt.DIFFICULTY.hint(puzzle, bt.BattleshipState(ships=state), rules.BattleshipAnswer(ships=ships),
                              Deadline.after(30))


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_hints_from_an_empty_grid_solve_the_puzzle(level: str) -> None:
    result = generate_puzzle(BattleshipParams(size=8, difficulty=level), 4, Deadline.after(60))
    puzzle, ships = result.puzzle, result.solution.ships
    state: list[list[int | None]] = [[None] * 8 for _ in range(8)]
    messages = []
    for _ in range(200):
        given = hint(puzzle, ships, state)
        if given.technique == "solved":
            break
        assert given.decide and not given.mistakes and given.technique != "reveal"
        messages.append(given.message)
        for item in given.decide:
            r, c = item["cell"]
            state[r][c] = item["value"]
    assert state == ships
    assert messages[0].startswith("r") and "revealed" in messages[0]  # the revealed cells come first


def test_a_wrong_cell_is_a_mistake_and_a_misshapen_state_is_invalid() -> None:
    result = generate_puzzle(BattleshipParams(size=8, difficulty="easy"), 4, Deadline.after(60))
    puzzle, ships = result.puzzle, result.solution.ships
    state: list[list[int | None]] = [[None] * 8 for _ in range(8)]
    state[2][3] = 1 - ships[2][3]
    given = hint(puzzle, ships, state)
    assert given.technique == "mistakes" and given.mistakes == [[2, 3]] and "r3c4" in given.message
    with pytest.raises(InvalidInput, match="8 rows of 8"):
        hint(puzzle, ships, [[None] * 8 for _ in range(7)])


# ---------------------------------------------------------------- through the service


GENERATE_BUDGET_SECONDS = 120  # the `client` fixture's (conftest): levels take draws and adjustments


def test_service_lists_levels_generates_grades_and_hints_to_the_end(client) -> None:
    info = next(t for t in client.get("/types").json() if t["name"] == "battleship")
    assert info["difficulties"] == LEVELS and info["default_difficulty"] == "medium"
    record = client.post("/generate/battleship", params={"size": 8, "seed": 6, "difficulty": "medium"}).json()
    assert record["difficulty"]["level"] == "medium"
    graded = client.post("/grade/battleship", json={"puzzle": record["puzzle"]}).json()
    assert graded == {"status": "unique", **record["difficulty"]}
    state: list[list[int | None]] = [[None] * 8 for _ in range(8)]
    for _ in range(64):
        hint = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"ships": state}}).json()
        if hint["technique"] == "solved":
            break
        assert hint["decide"] and not hint["mistakes"] and hint["technique"] != "reveal"
        for decision in hint["decide"]:
            r, c = decision["cell"]
            state[r][c] = decision["value"]
    assert client.post(f"/puzzles/{record['id']}/verify", json={"answer": {"ships": state}}).json()["solved"]
    wrong_shape = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"ships": [[None]]}})
    assert wrong_shape.status_code == 422 and "8 rows of 8" in wrong_shape.text
