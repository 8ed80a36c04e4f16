"""Ratings in the store, on SQLite and on a real PostgreSQL: every game settled exactly once however
many checks race for it, priors for new and older puzzles, and the audit that proves the chains."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import update
from sqlalchemy.orm import Session

from app.ratings_audit import audit
from app.store import PUZZLES, PuzzleRow, PuzzleStore


def puzzle(puzzle_id: str, level: str = "easy", score: float = 10.0) -> PuzzleRow:
    return PuzzleRow(id=puzzle_id, type="dabuhamienai", params={}, puzzle={}, solution={}, stats={},
                     difficulty={"level": level, "score": score, "steps": 3, "hardest": "pair-near"})


def test_racing_checks_settle_each_game_once_and_every_chain_holds(database_url: str) -> None:
    store = PuzzleStore(database_url)
    players = [f"racer-{n:04d}" for n in range(8)]
    puzzles = [store.add(puzzle(f"dab-race-{n}", ("easy", "medium", "hard")[n % 3])).id for n in range(6)]
    for player in players:
        for puzzle_id in puzzles:
            store.record_fetch(player, puzzle_id, "dabuhamienai")
    checks = [(player, puzzle_id, random.Random(player + puzzle_id).random() < 0.5)
              for player in players for puzzle_id in puzzles] * 2  # every check sent twice: a replay races the first
    random.Random(7).shuffle(checks)
    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(lambda c: store.play(c[1], "dabuhamienai", c[2], c[0], 30.0), checks))
    assert sum(o["rated"] for o in outcomes) == len(players) * len(puzzles)
    report = audit(store.engine)
    assert report.games == len(players) * len(puzzles) and report.problems == []
    assert {store.get(p).games for p in puzzles} == {len(players)}
    assert {perf["games"] for player in players for perf in [store.perfs(player)["dabuhamienai"]]} == {len(puzzles)}
    store.dispose()


def test_the_audit_finds_a_lost_update(database_url: str) -> None:
    store = PuzzleStore(database_url)
    store.add(puzzle("dab-audited"))
    for player in ("audited-a", "audited-b"):
        store.record_fetch(player, "dab-audited", "dabuhamienai")
        store.play("dab-audited", "dabuhamienai", True, player, None)
    assert audit(store.engine).problems == []
    with Session(store.engine) as session:  # as if the second game had been written over the first's result
        session.execute(update(PUZZLES).where(PUZZLES.c.id == "dab-audited").values(rating=PUZZLES.c.rating + 1))
        session.commit()
    assert any("puzzle dab-audited" in problem for problem in audit(store.engine).problems)
    store.dispose()


def test_a_new_puzzle_is_placed_by_its_level_and_its_score_among_its_levels_puzzles(database_url: str) -> None:
    store = PuzzleStore(database_url)
    assert store.add(puzzle("dab-lone-easy", "easy", 40.0)).rating == 1100.0  # nothing to compare its score with yet
    for n in range(25):
        store.add(puzzle(f"dab-medium-{n}", "medium", 10.0 + n))
    store._level_medians.clear()  # as after the hourly refresh
    median = 22.0
    assert store.level_median("dabuhamienai", "medium") == median
    hard_one = store.add(puzzle("dab-medium-hard", "medium", 4 * median)).rating
    easy_one = store.add(puzzle("dab-medium-easy", "medium", median / 4)).rating
    assert 1300 < easy_one < 1500 < hard_one < 1700
    store.dispose()


def test_puzzles_stored_before_ratings_get_their_prior_when_a_store_opens(database_url: str) -> None:
    store = PuzzleStore(database_url)
    for n, level in enumerate(("easy", "hard")):
        store.add(puzzle(f"dab-old-{n}", level))
    store.add(PuzzleRow(id="ubo-old", type="ubongo", params={}, puzzle={}, solution={}, stats={}))
    with Session(store.engine) as session:  # as rows stored before migration 0003 look
        session.execute(update(PUZZLES).values(rating=None, rd=None, volatility=None))
        session.commit()
    store.dispose()
    reopened = PuzzleStore(database_url)
    assert [(reopened.get(i).rating, reopened.get(i).rd) for i in ("dab-old-0", "dab-old-1", "ubo-old")] == [
        (1100.0, 200.0), (1900.0, 200.0), (1500.0, 350.0)]
    reopened.dispose()
