"""Othello: all-move scoring windows, the reading features that grade a puzzle, levels, and hints."""

from __future__ import annotations

import random
import statistics
import threading
from pathlib import Path

import pytest

from generators import othello as gen
from solvers.common import BudgetExceeded, Deadline, InvalidInput
from solvers.othello import engine, rules, split
from solvers.othello import techniques as human
from tests.conftest import share
from tests.puzzles.test_othello import ffo_positions, random_game_positions, reference_value


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    engine.warm_up()


def position_of(board_rows: list[str], to_move: str = "X") -> tuple[int, int]:
    """Rows listed from row 8 (north) down to row 1, as a diagram reads."""
    board = "".join(reversed(board_rows))
    return rules.position(board, to_move)


# --- scoring every move: exact where asked, proved bounds elsewhere ---------------------------------


def reference_scores(p: int, o: int) -> dict[int, int]:
    return {sq: -reference_value(*engine.play(p, o, sq)) for sq in rules.squares_of(engine.legal_moves(p, o))}


@pytest.mark.parametrize("seed", range(4))
def test_best_pass_is_exact_at_the_top_and_proves_bounds_below(seed: int) -> None:
    for p, o in random_game_positions(random.Random(seed), 6, (9, 12), 0):
        want = reference_scores(p, o)
        engine.table().clear()
        scorer = rules.MoveScorer(p, o, Deadline.never())
        best = scorer.best()
        assert best == max(want.values())
        assert set(scorer.exact) | set(scorer.upper) == set(want)
        for sq, score in scorer.exact.items():
            assert score == want[sq]  # the first move searched, and every move reaching the best
        assert {sq for sq, v in scorer.exact.items() if v == best} == {sq for sq, v in want.items() if v == best}
        for sq, bound in scorer.upper.items():
            assert want[sq] <= bound < best  # a true upper bound, enough to show it is not best


@pytest.mark.parametrize("seed", range(4))
def test_settle_makes_every_score_exact(seed: int) -> None:
    for p, o in random_game_positions(random.Random(100 + seed), 6, (9, 12), 0):
        want = reference_scores(p, o)
        scores = rules.exact_scores(p, o, Deadline.never())
        assert scores.exact and not scores.upper
        assert dict(scores.scores) == want


@pytest.mark.parametrize("threads", [1, 3])
def test_scores_are_the_same_on_one_thread_or_several(threads: int) -> None:
    """Several threads share one transposition table and walk a move down together; each has its own
    stack. Any thread count must give the brute-force scores."""
    for p, o in random_game_positions(random.Random(300 + threads), 6, (9, 12), 0):
        want = reference_scores(p, o)
        engine.table().clear()
        scorer = rules.MoveScorer(p, o, Deadline.never(), threads=threads)
        assert scorer.best() == max(want.values())
        scorer.settle()
        assert scorer.exact == want and not scorer.upper


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("seed", range(3))
def test_reaching_answers_only_the_threshold_question(seed: int, threads: int) -> None:
    for p, o in random_game_positions(random.Random(200 + seed), 6, (9, 12), 0):
        want = reference_scores(p, o)
        winners = {sq for sq, v in want.items() if v >= 1}
        assert set(rules.MoveScorer(p, o, Deadline.never(), threads=threads).reaching(1)) == winners
        for stop_at in (1, 2):
            found = rules.MoveScorer(p, o, Deadline.never(), threads=threads).reaching(1, stop_at=stop_at)
            assert len(found) == min(stop_at, len(winners)) and set(found) <= winners


@pytest.mark.parametrize("threads", [1, 2])
def test_a_move_losing_every_disc_is_exact_without_a_test(threads: int) -> None:
    """A comparison that proves "at most -64" proves -64: no test is left to run for that move, and
    scoring must end rather than wait for one."""
    p, o = rules.position("OOOX---OOOOOOOOOOX-OOOOOOXXOOOOOOXXXOOOO--XOOOOO--XOOOOO-OOOOOOO", "X")
    scorer = rules.MoveScorer(p, o, Deadline.never(), threads=threads)
    done = threading.Thread(target=scorer.settle, daemon=True)
    done.start()
    done.join(30)
    assert not done.is_alive(), "settle is waiting for a test that will never come"
    assert {rules.square_name(sq): v for sq, v in scorer.exact.items()} == {"G1": -58, "F1": -64}


def test_once_the_best_is_proved_settling_may_use_the_time_kept_for_the_fallback() -> None:
    """The service keeps the end of the budget for a heuristic fallback, needed only while the best
    score is unproved; after that, settling the other moves may go on into that time."""
    p, o = rules.position("OOOX---OOOOOOOOOOX-OOOOOOXXOOOOOOXXXOOOO--XOOOOO--XOOOOO-OOOOOOO", "X")
    scorer = rules.MoveScorer(p, o, Deadline.after(60), share=0.0, share_once_bounded=0.9)
    assert scorer._out_of_time()  # the best's share (none) is spent
    scorer.exact, scorer.upper = {rules.parse_square("G1"): -58}, {rules.parse_square("F1"): -60}
    assert scorer.bounded and not scorer._out_of_time()


def test_a_starved_helper_hands_its_search_back_and_the_scores_stay_exact(monkeypatch: pytest.MonkeyPatch,
                                                                          reference_dir: Path) -> None:
    """On a busy machine a helper thread gets too little of a core: it stops in the middle of its
    search, hands the search back and quits, and the calling thread proves every score alone."""
    monkeypatch.setattr(split, "HELPER_TRIAL_SECONDS", 0.0)
    monkeypatch.setattr(split, "HELPER_MIN_CPU_SHARE", 2.0)  # never enough: every helper is starved
    _, board, side, published = ffo_positions(reference_dir)[25 - 1]  # FFO #25, 19 empties
    p, o = rules.position(board, side)
    engine.table().clear()
    scorer = rules.MoveScorer(p, o, Deadline.never(), threads=2)
    scorer.settle()
    assert not scorer.upper
    assert {rules.square_name(sq): v for sq, v in scorer.exact.items()} == published
    helper_nodes = [e.counters.nodes for ident, e in scorer._efforts.items() if ident != threading.get_ident()]
    assert helper_nodes and max(helper_nodes) <= engine.SLICE_NODES + 1000  # stopped at its first look at the clock


def test_budget_running_out_keeps_the_proved_part() -> None:
    """Past the budget, solve keeps exact solutions and the bounds proved so far (`at_most`)."""
    p, o = rules.position("-OOOOO----OXXO---OOOOXXO-OOOXOXX-OOXOOXX-XOXXOXX--O-XXXX--O----O", "X")  # FFO #26
    engine.table().clear()
    with pytest.raises(BudgetExceeded):
        rules.exact_scores(p, o, Deadline.after(0.05))
    engine.table().clear()
    scorer = rules.MoveScorer(p, o, Deadline.never())
    assert scorer.best() == 0 and scorer.exact[rules.parse_square("D8")] == 0
    partial = scorer.scores()
    assert not partial.exact and rules.solving("best", partial) == [rules.parse_square("D8")]
    assert all(entry["score"] < 0 for entry in partial.as_json()[1:])
    assert sum(1 for entry in partial.as_json() if entry.get("at_most")) >= len(partial.scores) - scorer.threads
    assert rules.proved("best", partial)  # every other move is bounded below the best (0)
    assert rules.proved("win", partial) == all(s < 1 for _, s in partial.scores)
    assert not rules.proved("best", rules.heuristic_scores(p, o, Deadline.after(0.5)))


# --- reading features -------------------------------------------------------------------------------


def test_a_corner_that_wins_at_once_is_easy() -> None:
    # X to move; A8 takes the corner and the whole top row; everything else hands O the game
    p, o = position_of([
        "-OOOOOOX",
        "XXXXXXXX",
        "XXXXXXXX",
        "XXXXXXXX",
        "OOOOOOOO",
        "OOOOOOOO",
        "OOOOOOOO",
        "OOOOOO--",
    ])
    puzzle = rules.OthelloPuzzle(board=rules.board_string(p, o, "X"), to_move="X", task="best")
    answer = human.answer_of(puzzle, Deadline.never())
    f = human.features(p, o, answer, Deadline.never())
    assert rules.square_name(answer) == "A8"
    assert f.sight == 1 and f.traps == [] and f.level == "easy"


def test_x_square_answer_is_a_sacrifice() -> None:
    p, o = rules.position("-" * 64, "X")
    p |= 1 << 10  # C2: playing B2 (X-square of an empty A1) is flagged
    assert human.x_square(p, o, 9) and not human.x_square(p | 1, o, 9)


def test_settled_from() -> None:
    assert human.settled_from([False, True, True], exact_at_end=False) == 2
    assert human.settled_from([True, False, True], exact_at_end=False) == 3
    assert human.settled_from([True, True, False], exact_at_end=False) == human.TO_THE_END
    assert human.settled_from([True, True, True], exact_at_end=True) == 1


def generated(empties: int, level: str, seed: int) -> gen.Generated:
    return gen.generate_puzzle(gen.OthelloParams(empties=empties, difficulty=level, task="win"), seed,
                               Deadline.after(60))


@pytest.mark.parametrize("level", human.LEVELS)
def test_generated_puzzle_reads_at_its_level_and_not_below(level: str) -> None:
    made = generated(12, level, 3)
    p, o = made.puzzle.bitboards()
    answer = rules.parse_square(made.solution.move)
    f = human.features(p, o, answer, Deadline.never())
    assert made.difficulty.level == level == f.level
    index = human.LEVELS.index(level)
    assert f.sight <= human.READINGS[index].max_sight
    if index > 0 and not f.sacrifice:  # a reader of the level below does not see it
        assert f.sight > human.READINGS[index - 1].max_sight
    # the answer really is best at the reading the level names, and the puzzle's only solution
    assert rules.solving_moves(made.puzzle, Deadline.never()) == [answer]


def test_the_level_screen_never_turns_away_a_position_of_its_level() -> None:
    """``may_reach`` reads what the grade of an easy or medium puzzle reads first, so it never turns
    one of theirs away. Positions come from the generator's games at 11-13 empties (just past the
    reading to the end)."""
    rng = random.Random(7)
    seen: set[str] = set()
    while len(seen & {"easy", "medium"}) < 2 or rng.random() < 0.97:
        found = gen.plausible_position(rng.randint(11, 13), rng)
        if found is None:
            continue
        p, o, _ = found
        winners = rules.MoveScorer(p, o, Deadline.never()).reaching(1, stop_at=2)
        if len(winners) != 1:
            continue
        level = human.features(p, o, winners[0], Deadline.never()).level
        seen.add(level)
        if level in ("easy", "medium"):
            scorer = rules.MoveScorer(p, o, Deadline.never())
            assert human.may_reach(level, p, o, lambda sq, s=scorer: s.within(sq, 0, 1) >= 1, Deadline.never()), \
                (level, rules.board_string(p, o, "X"))


@pytest.mark.slow
def test_effort_rises_with_the_level_over_20_seeds() -> None:
    """Half the seeds (all 20 in `make test-whole`)."""
    means = []
    for level in human.LEVELS:
        means.append(statistics.mean(generated(12, level, seed).difficulty.score for seed in share(range(20), 2)))
    assert means == sorted(means) and len(set(means)) == len(means), means


def test_grade_of_a_puzzle_with_two_answers_is_none() -> None:
    for p, o in random_game_positions(random.Random(9), 40, (10, 12), 0):
        puzzle = rules.OthelloPuzzle(board=rules.board_string(p, o, "X"), to_move="X", task="win")
        if len(rules.solving_moves(puzzle, Deadline.never())) == 2:
            assert human.grade(puzzle, Deadline.never()).level is None
            return
    raise AssertionError("no position with two winning moves among 40")


def test_grade_refuses_positions_too_large_to_solve() -> None:
    puzzle = rules.OthelloPuzzle(board="-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27, to_move="X", task="best")
    with pytest.raises(InvalidInput, match="at most 22 empty squares"):
        human.grade(puzzle, Deadline.never())


# --- hints ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_first_hint_never_names_the_move_and_the_second_does(seed: int) -> None:
    level = human.LEVELS[seed % len(human.LEVELS)]
    made = generated(12, level, seed)
    name = made.solution.move
    first = human.hint(made.puzzle, human.OthelloHintState(hint=1), made.solution, Deadline.never())
    assert name not in first.message and name.lower() not in first.message
    assert first.decide == [] and first.mistakes == []
    assert len(first.because) >= 2  # a region or an idea, not one square
    second = human.hint(made.puzzle, human.OthelloHintState(hint=2), made.solution, Deadline.never())
    row, col = rules.cell(rules.parse_square(name))
    assert second.decide == [{"cell": [row, col], "value": 1, "move": name}] and name in second.message
    assert second.because == [[row, col]]


def test_hint_regions_are_named_by_compass() -> None:
    legal = [0, 1, 62, 63]  # A1, B1 (south-west), G8, H8 (north-east)
    assert human._region(0, legal) == ("the south-west region", [0, 1])
    assert human._region(63, legal) == ("the north-east region", [62, 63])
    assert human._region(63, [63, 0, 7])[0] == "the whole board"


def test_hint_rejects_a_solution_that_is_not_a_legal_move() -> None:
    made = generated(12, "easy", 1)
    occupied = next(sq for sq in range(64) if made.puzzle.board[sq] != "-")
    with pytest.raises(InvalidInput):
        human.hint(made.puzzle, human.OthelloHintState(), rules.OthelloAnswer(move=rules.square_name(occupied)),
                   Deadline.never())


# --- through the service ----------------------------------------------------------------------------


GENERATE_BUDGET_SECONDS = 120  # the `client` fixture's (conftest): levels take draws and adjustments


def test_levels_grades_and_hints_through_the_service(client) -> None:
    info = next(t for t in client.get("/types").json() if t["name"] == "othello")
    assert info["difficulties"] == human.LEVELS
    assert all(t["description"] for level in info["levels"] for t in level["techniques"])
    record = client.post("/generate/othello", params={"empties": 12, "seed": 5, "difficulty": "hard",
                                                      "include_solution": "true"}).json()
    assert record["difficulty"]["level"] == "hard"
    graded = client.post("/grade/othello", json={"puzzle": record["puzzle"]}).json()
    assert graded == {"status": "unique", **record["difficulty"]}
    move = record["solution"]["move"]
    first = client.post(f"/puzzles/{record['id']}/hint", json={"state": {"hint": 1}}).json()
    assert move not in first["message"] and first["decide"] == [] and first["mistakes"] == []
    second = client.post("/hint/othello", json={"puzzle": record["puzzle"], "state": {"hint": 2}}).json()
    assert second["decide"] == [{"cell": list(rules.cell(rules.parse_square(move))), "value": 1, "move": move}]
    bad = client.post("/hint/othello", json={"puzzle": record["puzzle"], "state": {"hint": 3}})
    assert bad.status_code == 422


def test_easy_is_offered_up_to_its_largest_size() -> None:
    """The easiest level at its largest size: a generated puzzle of that level, its one solving move proved;
    without a level, the type's largest size."""
    most = gen.level_empties("easy")[1]
    made = gen.generate_puzzle(gen.OthelloParams(empties=most, difficulty="easy"), 1, Deadline.never())
    assert made.puzzle.empties == most and made.difficulty.level == "easy"
    assert human.grade(made.puzzle, Deadline.never()).level == "easy"
    assert rules.solving_moves(made.puzzle, Deadline.never()) == [rules.parse_square(made.solution.move)]
    assert gen.OthelloParams(empties=gen.EMPTIES_MAX).difficulty is None


@pytest.mark.parametrize("level", human.LEVELS)
def test_a_level_beyond_its_largest_size_is_a_clear_422(level: str, client) -> None:
    """Past the empties a level is made at, the request is refused with the range, not left to run out of
    time; without a level the same size is made and graded."""
    least, most = gen.level_empties(level)
    assert most == gen.LEVEL_MAX_EMPTIES[level] and least <= most <= gen.EMPTIES_MAX
    if most < gen.EMPTIES_MAX:
        response = client.post("/generate/othello", params={"empties": most + 1, "difficulty": level, "seed": 1})
        assert response.status_code == 422 and f"at most {most} empty squares" in response.text
    assert gen.OthelloParams(empties=most, difficulty=level).difficulty == level
    info = next(t for t in client.get("/types").json() if t["name"] == "othello")
    assert info["catalogue"]["level_empties"][level] == [least, most]


def test_hard_and_expert_at_their_largest_size_are_of_their_level() -> None:
    for level in ("hard", "expert"):
        most = gen.level_empties(level)[1]
        made = gen.generate_puzzle(gen.OthelloParams(empties=most, difficulty=level), 3, Deadline.after(60))
        assert made.puzzle.empties == most and human.grade(made.puzzle, Deadline.never()).level == level


@pytest.mark.parametrize(("level", "least"), [("hard", 7), ("expert", 11)])
def test_a_level_needs_a_game_longer_than_the_reading_below_it(level: str, least: int, client) -> None:
    """With fewer empties the reading of the level below reaches the end of the game and sees the answer,
    so no puzzle of the level exists: a clear 422, not a generation that runs out of time."""
    response = client.post("/generate/othello", params={"empties": least - 1, "difficulty": level, "seed": 1})
    assert response.status_code == 422 and f"needs at least {least} empty squares" in response.text
    made = gen.generate_puzzle(gen.OthelloParams(empties=least, difficulty=level), 1, Deadline.after(60))
    assert made.difficulty.level == level


def test_the_first_glance_is_what_the_features_say_of_the_shallow_look() -> None:
    """The first hint reads only the shallow look (``first_glance``); it must agree with ``features``."""
    rng = random.Random(24)
    for p, o in random_game_positions(rng, 12, (3, 12), 0):
        for answer in rules.squares_of(engine.legal_moves(p, o)):
            f = human.features(p, o, answer, Deadline.never())
            assert human.first_glance(p, o, answer, Deadline.never()) == (f.traps, f.sacrifice), (p, o, answer)
