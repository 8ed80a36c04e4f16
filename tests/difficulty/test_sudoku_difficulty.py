"""Sudoku difficulty: single techniques on hand-made candidates, soundness against every published answer,
the published ratings' order, generation at each level (Tatham's rule, minimal clues, easy by singles alone,
levels ordered by an independent effort), and hints a player follows to the solution."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest

from bench.stats import spearman
from generators import sudoku as gen
from generators.pipeline import Generated
from solvers.common import Deadline, InvalidInput
from solvers.sudoku import engine, rules
from solvers.sudoku import techniques as human
from tests.conftest import REFERENCE, read_jsonl, share

LEVELS = human.LEVELS
DATA = REFERENCE / "sudoku"


def published(*names: str) -> list[dict]:
    return [line for name in names for line in read_jsonl(DATA / f"{name}.jsonl")]


def blank(n: int = 9) -> human.Candidates:
    return human.Candidates.empty(human.board_for(n))


def only(state: human.Candidates, cell: tuple[int, int], *digits: int) -> None:
    state.masks[cell[0] * state.board.n + cell[1]] = sum(human.bit(d) for d in digits)


def removed(steps: list) -> set[tuple[tuple[int, int], int]]:
    return {(d.cell, d.digit) for step in steps for d in step.decide if d.eliminate}


def puzzle9() -> human.Puzzle:
    return human.Puzzle(human.board_for(9), (0,) * 81)


# ---------------------------------------------------------------- single techniques


def test_hidden_and_naked_singles() -> None:
    puzzle = human.board_of(rules.SudokuPuzzle(size=4, givens=[[0, 1, 0, 0], [0, 0, 0, 2], [3, 0, 0, 0], [0, 0, 3, 0]]))
    state = human.start(puzzle)
    hidden = human.hidden_single(puzzle, state)
    assert hidden and all(not d.eliminate for step in hidden for d in step.decide)
    assert hidden[0].message.startswith("Hidden single: in box ")
    state = blank()
    only(state, (4, 4), 7)
    [step] = human.naked_single(puzzle9(), state)
    assert step.decide == (human.Decision((4, 4), 7),) and "r5c5 can only be 7" in step.message


def test_pointing_and_claiming() -> None:
    state = blank()
    for c in range(3):  # box 1: 5 only in row 1
        only(state, (1, c), 1, 2, 3)
        only(state, (2, c), 1, 2, 3)
    steps = human.pointing(puzzle9(), state)
    assert {((0, c), 5) for c in range(3, 9)} <= removed(steps)
    assert any("rest of row 1 cannot hold 5" in s.message for s in steps)
    state = blank()
    for c in range(3, 9):  # row 1: 4 only in box 1
        only(state, (0, c), 1, 2, 3, 5, 6, 7, 8, 9)
    steps = human.claiming(puzzle9(), state)
    assert {((r, c), 4) for r in (1, 2) for c in range(3)} <= removed(steps)


def test_naked_and_hidden_pairs() -> None:
    state = blank()
    only(state, (0, 0), 1, 2)
    only(state, (0, 5), 1, 2)
    steps = human.naked_subset(2)(puzzle9(), state)
    assert removed(steps) == {((0, c), d) for c in (1, 2, 3, 4, 6, 7, 8) for d in (1, 2)}
    assert "the digits 1 and 2" in steps[0].message
    state = blank()
    for c in range(2, 9):  # row 1: 8 and 9 fit only in r1c1, r1c2
        only(state, (0, c), *range(1, 8))
    steps = human.hidden_subset(2)(puzzle9(), state)
    assert removed(steps) == {((0, c), d) for c in (0, 1) for d in range(1, 8)}


def test_x_wing_and_xy_wing() -> None:
    state = blank()
    for r in (0, 4):  # 5 in rows 1 and 5 only in columns 2 and 7
        for c in range(9):
            if c not in (1, 6):
                only(state, (r, c), 1, 2, 3, 4, 6, 7, 8, 9)
    steps = human.fish(2)(puzzle9(), state)
    assert removed(steps) == {((r, c), 5) for r in range(9) if r not in (0, 4) for c in (1, 6)}
    assert steps[0].message.startswith("X-Wing on 5: in rows 1 and 5, 5 fits only in columns 2 and 7")
    state = blank()
    only(state, (0, 0), 1, 2)  # pivot
    only(state, (0, 4), 1, 3)  # pincer in row 1
    only(state, (1, 1), 2, 3)  # pincer in box 1
    [step] = human.xy_wing(puzzle9(), state)
    assert removed([step]) == {((0, 1), 3), ((0, 2), 3), ((1, 3), 3), ((1, 4), 3), ((1, 5), 3)}


def test_xy_chain_and_forcing_chain_on_a_published_puzzle() -> None:
    line = next(x for x in published("sudoku-exchange") if x.get("rating") == 8.3)
    path = human.SOLVER.run(human.board_of(rules.SudokuPuzzle.model_validate(line["puzzle"])))
    chains = [s for s in path.steps if s.technique == "forcing-chain"]
    assert path.state.solved and chains
    assert all(s.message.startswith("Forcing chain: if r") and "So r" in s.message for s in chains)


def plain_smallest_forcing_net(state: human.Candidates) -> tuple[int, int, int, int] | None:
    """Every assumption followed to its end, one by one: what the compiled search must find."""
    g, board = engine.geometry(state.board.n), state.board
    masks = np.array(state.masks, dtype=np.int32)
    placed_round, why, best = np.zeros(len(masks), dtype=np.int32), np.zeros(3, dtype=np.int32), None
    for i in sorted((i for i, v in enumerate(state.digits) if not v), key=lambda i: state.masks[i].bit_count()):
        for d in human.digits_of(state.masks[i]):
            broke = engine.trial(masks.copy(), i, d, g.units, g.peers, board.full, human.FORCING_ROUNDS,
                                 placed_round, why)
            if broke:
                found = (int(np.count_nonzero(placed_round > 0)), broke, i, d)
                best = found if best is None or found < best else best
    return best


def test_the_compiled_forcing_search_finds_what_trying_every_candidate_finds() -> None:
    lines = published("top95")[:12] + published("sizes")[:6]
    compared = 0
    for line in lines:
        puzzle = rules.SudokuPuzzle.model_validate(line["puzzle"])
        model = human.board_of(puzzle)
        stuck = human.SOLVER.run(model, upto=LEVELS.index("hard")).state
        for _ in range(4):  # the stuck state, then after each of a few chain steps
            if stuck.solved:
                break
            g, board = engine.geometry(stuck.board.n), stuck.board
            cells = np.array(sorted((i for i, v in enumerate(stuck.digits) if not v),
                                    key=lambda i: stuck.masks[i].bit_count()), dtype=np.int32)
            best = np.zeros(4, dtype=np.int64)
            found = engine.smallest_forcing_net(np.array(stuck.masks, dtype=np.int32), cells, g.units, g.peers,
                                                board.full, human.FORCING_ROUNDS, best)
            expected = plain_smallest_forcing_net(stuck)
            assert (tuple(int(v) for v in best) if found else None) == expected
            compared += 1
            steps = human.forcing_chain(model, stuck)
            if not steps:
                break
            for step in steps:
                stuck.apply(step)
    assert compared >= 20


# ---------------------------------------------------------------- soundness and the published ratings


@pytest.mark.parametrize("name", ["sudoku-exchange", "top95", "17-clue", "sizes", "hardest"])
def test_every_step_agrees_with_the_published_answer(name: str) -> None:
    lines = published(name) if name != "hardest" else share(published(name), 5)
    for line in lines:
        puzzle = rules.SudokuPuzzle.model_validate(line["puzzle"])
        solution = rules.flat(line["solution"]["digits"])
        path = human.SOLVER.run(human.board_of(puzzle))
        n = puzzle.size
        for step in path.steps:
            for d in step.decide:
                right = solution[d.cell[0] * n + d.cell[1]] == d.digit
                assert right != d.eliminate, (line["id"], step.message)
        if path.state.solved:
            assert path.state.digits == solution




def test_grades_follow_the_published_ratings() -> None:
    """Sudoku Exchange's buckets and Sukaku Explainer ratings: the scores rise with the rating band, every
    `easy` one is easy, nothing rated 5 or more is below expert, and the hardest list is past every level."""
    graded = [(line, human.grade(rules.SudokuPuzzle.model_validate(line["puzzle"]), Deadline.never()))
              for line in published("sudoku-exchange")]
    assert {g.level for line, g in graded if line["level"] == "easy"} == {"easy"}
    assert {g.level for line, g in graded if (line.get("rating") or 0) >= 5} == {"expert"}
    rated = [(line["rating"], g.score) for line, g in graded if line.get("rating")]
    assert spearman([r for r, _ in rated], [s for _, s in rated]) > 0.8
    bands = sorted({int(r) for r, _ in rated})
    means = [statistics.mean(s for r, s in rated if int(r) == band) for band in bands]
    assert means[0] < means[-1] and sum(a > b for a, b in zip(means, means[1:], strict=False)) <= 1  # one dip allowed (5-6)
    for line in share(published("hardest"), 10):
        assert human.grade(rules.SudokuPuzzle.model_validate(line["puzzle"]), Deadline.never()).level is None, line["id"]


# ---------------------------------------------------------------- generation at a level


def singles_solve(givens: list[int], n: int) -> bool:
    """An independent singles-only solver in plain Python (naked and hidden singles, nothing shared with
    the techniques or the search): does it fill the grid?"""
    box_rows, box_cols = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}[n]
    units = [[(r, c) for c in range(n)] for r in range(n)] + [[(r, c) for r in range(n)] for c in range(n)]
    units += [[(r, c) for r in range(br, br + box_rows) for c in range(bc, bc + box_cols)]
              for br in range(0, n, box_rows) for bc in range(0, n, box_cols)]
    grid = {(i // n, i % n): v for i, v in enumerate(givens)}
    seen_by = {cell: {other for unit in units if cell in unit for other in unit} - {cell} for cell in grid}
    progress = True
    while progress:
        progress = False
        options = {cell: set(range(1, n + 1)) - {grid[o] for o in seen_by[cell]} for cell, v in grid.items() if not v}
        for cell, left in options.items():
            if len(left) == 1:
                grid[cell], progress = left.pop(), True
        for unit in units:
            for d in range(1, n + 1):
                if d in (grid[c] for c in unit):
                    continue
                places = [c for c in unit if not grid[c] and d in options.get(c, ())]
                if len(places) == 1 and not grid[places[0]]:
                    grid[places[0]], progress = d, True
    return all(grid.values())


def made(size: int, level: str, seed: int, symmetry: str = "rotational") -> Generated:
    result = gen.generate_puzzle(gen.SudokuParams(size=size, difficulty=level, symmetry=symmetry), seed,
                                 Deadline.after(120))
    assert result.difficulty is not None and result.difficulty.level == level
    return result


def test_easy_is_always_solved_by_singles_alone() -> None:
    for size, seeds in ((4, 30), (6, 30), (9, 40), (16, 2)):
        for seed in range(seeds):
            puzzle = made(size, "easy", seed).puzzle
            assert singles_solve(rules.flat(puzzle.givens), size), (size, seed)


@pytest.mark.parametrize("level", LEVELS)
def test_each_level_is_solved_at_its_level_and_not_below(level: str) -> None:
    index = LEVELS.index(level)
    for seed in range(12):
        result = made(9, level, seed)
        board = human.board_of(result.puzzle)
        assert human.SOLVER.run(board, upto=index).state.solved
        assert index == 0 or not human.SOLVER.run(board, upto=index - 1).state.solved
        assert human.grade(result.puzzle, Deadline.never()) == result.difficulty
        assert rules.solve(result.puzzle, 2, Deadline.after(30), "cadical").count == 1


def test_clues_are_minimal_for_the_level() -> None:
    """Below expert no given (pair) can go with the level still finishing the puzzle; at expert none can go
    without losing uniqueness, and without symmetry that holds for every single given."""
    for level in ("easy", "medium", "hard"):
        for seed in range(3):
            puzzle = made(9, level, seed).puzzle
            givens = rules.flat(puzzle.givens)
            for orbit in (o for o in gen.orbits(9, "rotational") if givens[o[0]]):
                fewer = [0 if i in orbit else v for i, v in enumerate(givens)]
                fewer_puzzle = rules.SudokuPuzzle(size=9, givens=rules.square(fewer, 9))
                assert not gen.solvable_at(fewer_puzzle, LEVELS.index(level), Deadline.never()), (level, seed, orbit)
    for symmetry in ("rotational", "none"):
        for seed in range(3):
            puzzle = made(9, "expert", seed, symmetry).puzzle
            givens = rules.flat(puzzle.givens)
            for orbit in (o for o in gen.orbits(9, symmetry) if givens[o[0]]):
                fewer = [0 if i in orbit else v for i, v in enumerate(givens)]
                assert not gen.is_unique(9, fewer, Deadline.never()), (symmetry, seed, orbit)


def test_levels_are_strictly_ordered_by_search_effort() -> None:
    """An effort the levels are not defined by: the nodes an exact search that only knows singles needs to
    solve and prove the puzzle (the guesses a person without techniques makes), averaged over ten random
    digit orders, on 20 seeds per level."""
    means = []
    for level in LEVELS:
        efforts = []
        for seed in range(20):
            givens = rules.flat(made(9, level, seed).puzzle.givens)
            rng = random.Random(seed)
            nodes = []
            for _ in range(10):
                order = np.array([rng.sample(range(1, 10), 9) for _ in range(81)], dtype=np.int32)
                nodes.append(engine.Search(9, givens, 2, 0, order).run(Deadline.after(30)).nodes)
            efforts.append(statistics.mean(nodes))
        means.append(statistics.mean(efforts))
        if level == "easy":
            assert max(efforts) == 0  # singles never guess
    assert means == sorted(means) and len(set(means)) == len(means), means


@pytest.mark.parametrize(("size", "level"), [(6, "hard"), (6, "expert"), (16, "medium")])
def test_other_sizes_reach_their_levels(size: int, level: str) -> None:
    result = made(size, level, 1)
    assert rules.solve(result.puzzle, 2, Deadline.after(60)).count == 1


# ---------------------------------------------------------------- hints


def apply(hint: dict, digits: list[list[int]], marks: list[list[list[int] | None]], n: int) -> None:
    """What the play page does with a hint: place its digits, strike its candidates from the pencil marks
    (pencilling the cell first with what its row, column and box allow)."""
    for decision in hint["decide"]:
        r, c = decision["cell"]
        if not decision.get("eliminate"):
            digits[r][c] = decision["value"]
            continue
        if marks[r][c] is None:
            box_rows, box_cols = engine.BOXES[n]
            r0, c0 = r - r % box_rows, c - c % box_cols
            seen = {digits[r][k] for k in range(n)} | {digits[k][c] for k in range(n)}
            seen |= {digits[i][j] for i in range(r0, r0 + box_rows) for j in range(c0, c0 + box_cols)}
            marks[r][c] = [d for d in range(1, n + 1) if d not in seen]
        marks[r][c] = [d for d in marks[r][c] if d != decision["value"]]


def test_hints_one_after_another_solve_an_expert_puzzle() -> None:
    result = made(9, "expert", 2)
    digits = [row[:] for row in result.puzzle.givens]
    marks: list[list[list[int] | None]] = [[None] * 9 for _ in range(9)]
    techniques = set()
    for _ in range(200):
        state = human.SudokuState(digits=digits, candidates=marks)
        hint = human.hint(result.puzzle, state, result.solution, Deadline.never()).as_json()
        if hint["technique"] == "solved":
            break
        techniques.add(hint["technique"])
        assert hint["technique"] not in ("reveal", "mistakes") and hint["decide"] and "r" in hint["message"]
        assert all(set(d) in ({"cell", "value"}, {"cell", "value", "eliminate"}) and d.get("eliminate", True) is True
                   for d in hint["decide"])
        apply(hint, digits, marks, 9)
    assert digits == result.solution.digits
    assert techniques & {"xy-chain", "forcing-chain"}


def test_hint_names_mistakes_and_wrong_pencil_marks() -> None:
    result = made(9, "medium", 0)
    solution = result.solution.digits
    r, c = next((r, c) for r in range(9) for c in range(9) if not result.puzzle.givens[r][c])
    digits = [row[:] for row in result.puzzle.givens]
    digits[r][c] = solution[r][c] % 9 + 1
    hint = human.hint(result.puzzle, human.SudokuState(digits=digits), result.solution, Deadline.never())
    assert hint.technique == "mistakes" and hint.mistakes == [[r, c]]
    marks = [[None] * 9 for _ in range(9)]
    marks[r][c] = [d for d in range(1, 10) if d != solution[r][c]]
    hint = human.hint(result.puzzle, human.SudokuState(digits=result.puzzle.givens, candidates=marks), result.solution,
                      Deadline.never())
    assert hint.technique == "mistakes" and "pencil marks" in hint.message
    solved = human.hint(result.puzzle, human.SudokuState(digits=solution), result.solution, Deadline.never())
    assert solved.technique == "solved"
    with pytest.raises(InvalidInput):
        human.hint(result.puzzle, human.SudokuState(digits=[[0] * 4] * 4), result.solution, Deadline.never())


# ---------------------------------------------------------------- through the service


def test_levels_grades_and_hints_through_the_service(client) -> None:
    listed = next(t for t in client.get("/types").json() if t["name"] == "sudoku")
    assert listed["difficulties"] == list(LEVELS) and listed["default_difficulty"] == "medium"
    assert listed["backends"] == ["search", "cadical", "z3"]
    size = next(p for p in listed["params"] if p["name"] == "size")
    assert size["choices"] == [4, 6, 9, 16] and size["default"] == 9

    made = client.post("/generate/sudoku", params={"difficulty": "hard", "seed": 3, "include_solution": True})
    assert made.status_code == 201 and made.json()["difficulty"]["level"] == "hard"
    record = made.json()
    assert record["params"] == {"size": 9, "symmetry": "rotational", "difficulty": "hard", "seed": 3}
    again = client.post("/generate/sudoku", params={"size": 9, "symmetry": "rotational", "difficulty": "hard", "seed": 3})
    assert again.status_code == 200 and again.json()["id"] == record["id"]  # one spelling, one id

    line = next(x for x in published("sudoku-exchange") if x.get("rating") == 8.3)
    graded = client.post("/grade/sudoku", json={"puzzle": line["puzzle"]}).json()
    assert graded["status"] == "unique" and graded["level"] == "expert" and graded["hardest"] == "forcing-chain"

    empty = [[v or None for v in row] for row in record["puzzle"]["givens"]]
    hint = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"digits": empty}}).json()
    assert hint["technique"] in ("hidden-single", "naked-single") and hint["decide"][0]["value"]
    anyone = client.post("/hint/sudoku", json={"puzzle": line["puzzle"], "state": {"digits": line["puzzle"]["givens"]}})
    assert anyone.status_code == 200 and anyone.json()["technique"] == "hidden-single"
    bad_state = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"digits": [[0] * 4] * 4}})
    assert bad_state.status_code == 422 and "9 rows of 9" in bad_state.text


@pytest.mark.parametrize(("params", "says"), [({"size": 4, "difficulty": "hard"}, "singles finish every 4×4"),
                                              ({"size": 6, "difficulty": "medium"}, "about 1 in 1,000"),
                                              ({"size": 5}, "size must be 4, 6, 9 or 16"),
                                              ({"symmetry": "mirror"}, "rotational")])
def test_parameters_out_of_range_are_a_clear_422(client, params: dict, says: str) -> None:
    response = client.post("/generate/sudoku", params=params)
    assert response.status_code == 422 and says in response.text, response.text
