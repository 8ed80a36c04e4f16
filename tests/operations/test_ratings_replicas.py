"""Two real service processes on one PostgreSQL database, checks and their replays racing through both:
every game rated exactly once, and every rating equal to its chain of games replayed in order."""

from __future__ import annotations

import pytest

from bench.bench_ratings_concurrency import describe, run
from tests.conftest import fresh_postgres_database

pytestmark = pytest.mark.slow


def test_racing_checks_on_two_replicas_rate_each_game_exactly_once(request: pytest.FixtureRequest) -> None:
    worker = getattr(request.config, "workerinput", {}).get("workerid", "main")
    result = run(fresh_postgres_database(f"puzzlegen_ratings_{worker}"), players=10, puzzles=20, threads=12)
    summary = describe(result)
    assert result.failures == [], summary
    assert result.checks == 2 * result.games == 400, summary
    assert result.rated_answers == result.games, summary  # one of each check's two copies, never both
    assert result.stored == dict.fromkeys(("games settled", "games rated", "puzzle games", "player games"), 200), summary
    assert result.audit_games == 200 and result.audit_problems == [], summary
