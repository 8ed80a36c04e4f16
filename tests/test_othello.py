"""Othello: move generation (perft), exact scores against brute force and the FFO suite, the checker,
and generated puzzles."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pydantic import ValidationError

from generators import othello as gen
from solvers import othello as rules
from solvers import othello_engine as engine
from solvers.common import Deadline, InvalidInput

START = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27  # D4 O, E4 X, D5 X, E5 O; black (X) moves first


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    engine.warm_up()


# --- an independent plain-Python Othello on a list of characters -------------------------------------

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def ref_flips(board: list[str], sq: int, me: str) -> list[int]:
    if board[sq] != "-":
        return []
    them = "O" if me == "X" else "X"
    r0, c0 = divmod(sq, 8)
    out = []
    for dr, dc in DIRECTIONS:
        r, c, line = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == them:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            out += line
    return out


def ref_moves(board: list[str], me: str) -> list[int]:
    return [sq for sq in range(64) if ref_flips(board, sq, me)]


def ref_play(board: list[str], sq: int, me: str) -> list[str]:
    after = list(board)
    for s in [*ref_flips(board, sq, me), sq]:
        after[s] = me
    return after


def ref_value(board: list[str], me: str, passed: bool = False) -> int:
    """Plain minimax, no pruning: the definition of a move's score."""
    them = "O" if me == "X" else "X"
    moves = ref_moves(board, me)
    if not moves:
        if passed:
            diff, empty = board.count(me) - board.count(them), board.count("-")
            return diff + empty if diff > 0 else diff - empty if diff < 0 else 0
        return -ref_value(board, them, True)
    return max(-ref_value(ref_play(board, sq, me), them) for sq in moves)


def ref_perft(board: list[str], me: str, depth: int, passed: bool = False) -> int:
    if depth == 0:
        return 1
    them = "O" if me == "X" else "X"
    moves = ref_moves(board, me)
    if not moves:
        return 1 if passed else ref_perft(board, them, depth - 1, True)
    return sum(ref_perft(ref_play(board, sq, me), them, depth - 1) for sq in moves)


# --- move generation -----------------------------------------------------------------------------------


def test_perft_from_the_opening() -> None:
    p, o = rules.position(START, "X")
    assert [engine.perft(p, o, d) for d in range(1, 9)] == [4, 12, 56, 244, 1396, 8200, 55092, 390216]


def test_perft_matches_plain_python_in_midgame_positions() -> None:
    rng = random.Random(5)
    for _ in range(5):
        found = gen.plausible_position(rng.randint(20, 40), rng)
        if found is None:
            continue
        p, o, _ = found
        board = list(rules.board_string(p, o, "X"))
        assert engine.perft(p, o, 3) == ref_perft(board, "X", 3)


# --- exact scores -------------------------------------------------------------------------------------


def test_exact_scores_match_brute_force_on_small_endgames() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 25:
        found = gen.plausible_position(rng.randint(1, 8), rng)
        if found is None:
            continue
        p, o, _ = found
        board = list(rules.board_string(p, o, "X"))
        scores = rules.exact_scores(p, o, Deadline.never())
        expected = {sq: -ref_value(ref_play(board, sq, "X"), "O") for sq in ref_moves(board, "X")}
        assert dict(scores.scores) == expected, "".join(board)
        checked += 1


def ffo_positions(reference_dir: Path) -> list[tuple[int, str, str, dict[str, int]]]:
    """(number, board, side to move, every legal move's exact score) for each FFO line."""
    rows = []
    lines = [line for line in (reference_dir / "othello" / "ffo.obf").read_text().splitlines()
             if line.strip() and not line.startswith("%")]
    for number, line in enumerate(lines, start=1):
        board, side, *moves = line.replace(";", " ").split()
        rows.append((number, board, side, {m.split(":")[0]: int(m.split(":")[1]) for m in moves}))
    return rows


def assert_ffo(reference_dir: Path, numbers: range) -> None:
    for number, board, side, expected in ffo_positions(reference_dir):
        if number in numbers:
            scores = rules.exact_scores(*rules.position(board, side), Deadline.never())
            got = {m["move"]: m["score"] for m in scores.as_json()}
            assert got == expected, f"FFO #{number}"


def test_ffo_1_to_19_every_move(reference_dir: Path) -> None:
    assert_ffo(reference_dir, range(1, 20))


@pytest.mark.slow
def test_ffo_20_to_39_every_move(reference_dir: Path) -> None:
    assert_ffo(reference_dir, range(20, 40))


def test_solve_lists_every_move_best_first_and_the_solutions() -> None:
    board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"  # FFO #1
    out = rules.solve(rules.OthelloPuzzle(board=board, to_move="X", task="best"), 2, Deadline.after(30))
    assert out.extra["exact"] and out.status == "unique" and out.complete
    assert out.solutions == [{"move": "G8"}]
    assert out.extra["moves"][:2] == [{"move": "G8", "score": 18}, {"move": "H1", "score": 12}]
    scores = [m["score"] for m in out.extra["moves"]]
    assert scores == sorted(scores, reverse=True) and len(scores) == 8
    win = rules.solve(rules.OthelloPuzzle(board=board, to_move="X", task="win"), 2, Deadline.after(30))
    assert win.status == "multiple" and not win.complete  # five moves win; two shown


def test_many_empties_fall_back_to_a_heuristic_search() -> None:
    out = rules.solve(rules.OthelloPuzzle(board=START, to_move="X"), 2, Deadline.after(1.0))
    assert out.extra["exact"] is False
    assert sorted(m["move"] for m in out.extra["moves"]) == ["C4", "D3", "E6", "F5"]


# --- validation and the checker -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "to_move", "message"),
    [
        ("X" * 63, "X", "64 characters"),
        ("x" * 64, "X", "only X, O and -"),
        (START.replace("-", ".", 1), "X", "only X, O and -"),
        ("-" * 64, "X", "no legal move"),
        ("X" * 60 + "----", "X", "no legal move"),
    ],
)
def test_malformed_positions_are_rejected(board: str, to_move: str, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        rules.OthelloPuzzle(board=board, to_move=to_move)


def test_side_to_move_must_be_x_or_o() -> None:
    with pytest.raises(ValidationError):
        rules.OthelloPuzzle(board=START, to_move="B")


FFO1 = rules.OthelloPuzzle(board="--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--", to_move="X",
                           task="best")


@pytest.mark.parametrize(("move", "code"), [("Z9", "bad-move"), ("G", "bad-move"), ("A1", "illegal-move")])
def test_malformed_or_illegal_moves_raise(move: str, code: str) -> None:
    with pytest.raises(InvalidInput) as err:
        rules.check(FFO1, rules.OthelloAnswer(move=move))
    assert [v.rule for v in err.value.violations] == [code]
    if code == "illegal-move":
        assert "G8" in err.value.message


def test_check_reports_scores_and_uniqueness() -> None:
    violations, facts = rules.assess(FFO1, rules.OthelloAnswer(move="g8"))
    assert violations == [] and facts == {"move": "G8", "score": 18, "best_score": 18, "unique_solution": True,
                                          "exact": True}
    violations, facts = rules.assess(FFO1, rules.OthelloAnswer(move="H1"))
    assert [v.rule for v in violations] == ["not-best"] and facts["score"] == 12
    lose = FFO1.model_copy(update={"task": "win"})
    assert [v.rule for v in rules.check(lose, rules.OthelloAnswer(move="A4"))] == ["not-winning"]
    violations, facts = rules.assess(lose, rules.OthelloAnswer(move="G8"))
    assert violations == [] and facts["unique_solution"] is False  # H1, H7, A2, A3 win too


# --- generation ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("empties", "task", "to_move"), [(12, "win", "X"), (10, "best", "O"), (14, "win", "random")])
def test_generated_puzzles_have_exactly_one_answer(empties: int, task: str, to_move: str) -> None:
    params = gen.OthelloParams(empties=empties, task=task, to_move=to_move)
    for seed in range(3):
        made = gen.generate_puzzle(params, seed, Deadline.after(60))
        puzzle = made.puzzle
        assert puzzle.empties == empties and puzzle.task == task
        if to_move != "random":
            assert puzzle.to_move == to_move
        scores = rules.exact_scores(*puzzle.bitboards(), Deadline.never())
        assert [rules.square_name(sq) for sq in rules.solving(task, scores)] == [made.solution.move]
        verdict = gen.check(puzzle, made.solution)
        assert verdict.violations == [] and verdict.extra["unique_solution"] is True


def test_same_seed_same_puzzle() -> None:
    params = gen.OthelloParams(empties=12)
    first = gen.generate_puzzle(params, 7, Deadline.after(60))
    again = gen.generate_puzzle(params, 7, Deadline.after(60))
    assert (first.puzzle, first.solution) == (again.puzzle, again.solution)
    assert gen.generate_puzzle(params, 8, Deadline.after(60)).puzzle != first.puzzle


def test_generated_positions_are_reachable_games_not_scatter() -> None:
    """Every disc is connected to the centre through discs (a property of real games)."""
    made = gen.generate_puzzle(gen.OthelloParams(empties=16), 3, Deadline.after(60))
    board = made.puzzle.board
    seen, stack = {27}, [27]
    while stack:
        r, c = divmod(stack.pop(), 8)
        for dr, dc in DIRECTIONS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] != "-" and rr * 8 + cc not in seen:
                seen.add(rr * 8 + cc)
                stack.append(rr * 8 + cc)
    assert len(seen) == 64 - 16
