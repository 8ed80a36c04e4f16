"""Per-client budgets (app/middleware/budgets.py): the defaults stop a flood, other clients and reads go on,
API keys lift or raise limits, forwarded headers count only from trusted proxies, and Redis makes two
app instances share one budget."""

from __future__ import annotations

import math
import time
import uuid
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.middleware.budgets import budget_for, client_address, parse_api_keys
from app.settings import Settings

REDIS_URL = "redis://127.0.0.1:6379/0"
GENERATE = "/generate/dabuhamienai?size=4&seed=1"  # stored after the first request: the rest cost no work


def served(response) -> int:
    """200 for a puzzle served, whether made now (201) or already stored (200 or 201, as main decides)."""
    return 200 if response.status_code in (200, 201) else response.status_code


@pytest.fixture
def build(tmp_path: Path):
    """Apps with budgets on (default settings unless overridden), each reachable as several clients. Tests
    of small budgets count per hour: a sliding-window counter forgives the previous window in proportion
    to the time passed, and a slow first generation must not free a slot mid-test."""
    opened: list[TestClient] = []

    def make(address: str = "198.51.100.1", **overrides):
        overrides = {"generate_budget_seconds": 120, **overrides}  # a cold worker's first job is slow on a busy machine
        settings = Settings(database_url=f"sqlite:///{tmp_path / f'{uuid.uuid4().hex}.db'}", work_processes=1,
                            verify_processes=1, warm_up_workers=False, **overrides)
        app = create_app(settings)
        host = TestClient(app, client=(address, 1000))
        host.__enter__()  # the lifespan (store, workers) and one event loop for every request it sends
        opened.append(host)

        def as_client(address: str) -> TestClient:
            return TestClient(app, client=(address, 1000))

        return host, as_client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def test_default_budget_stops_300_rapid_generates_from_one_address(build) -> None:
    client, as_client = build()
    assert served(client.post(GENERATE)) == 200  # the one request that does work; the flood reads it back
    started = time.monotonic()
    statuses = [served(client.post(GENERATE)) for _ in range(299)]
    flood_seconds = time.monotonic() - started
    assert 429 in statuses
    first_refused = 1 + statuses.index(429)
    assert set(statuses[first_refused - 1:]) == {429}
    refused = client.post(GENERATE)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 3600
    assert refused.headers["RateLimit-Remaining"] == "0"
    # The per-minute window may roll over mid-flood: the sliding-window counter then forgives the
    # previous minute's hits in proportion to the time passed, at most one hit per second of flood.
    limit = int(refused.headers["RateLimit-Limit"])
    assert limit <= first_refused <= limit + math.ceil(limit * flood_seconds / 60) + 1
    assert "Retry after" in refused.json()["detail"]
    # another address keeps its own budget; the flooding one still reads stored puzzles
    assert served(as_client("198.51.100.2").post(GENERATE)) == 200
    stored = as_client("198.51.100.2").post(GENERATE).json()["id"]
    assert client.get(f"/puzzles/{stored}").status_code == 200
    assert 'rate_limit_refused_total{budget="work"}' in client.get("/metrics").text


def test_successful_responses_carry_ratelimit_headers(build) -> None:
    client, _ = build(rate_limit_work="5/minute;50/hour")
    response = client.post(GENERATE)
    assert response.status_code == 201
    assert response.headers["RateLimit-Limit"] == "5" and response.headers["RateLimit-Remaining"] == "4"
    assert response.headers["RateLimit-Policy"] == "5;w=60, 50;w=3600"
    assert 1 <= int(response.headers["RateLimit-Reset"]) <= 60
    assert "RateLimit-Limit" not in client.get("/healthz").headers  # not a limited route


def test_budgets_are_per_kind_of_route(build) -> None:
    client, _ = build(rate_limit_work="2/hour", rate_limit_verify="3/hour", rate_limit_read="4/hour")
    puzzle_id = client.post(GENERATE).json()["id"]
    assert served(client.post(GENERATE)) == 200
    assert client.post("/solve/dabuhamienai", json={}).status_code == 429  # generate and solve share "work"
    verify = [client.post(f"/puzzles/{puzzle_id}/verify", json={"answer": {}}).status_code for _ in range(4)]
    assert verify == [422, 422, 422, 429]
    reads = [client.get(f"/puzzles/{puzzle_id}").status_code for _ in range(5)]
    assert reads == [200, 200, 200, 200, 429]  # replayed reads (app/middleware/replay.py) count too
    assert client.get("/types").status_code == 200 and client.get("/healthz").status_code == 200


def test_api_keys_lift_or_raise_the_limits(build) -> None:
    client, _ = build(rate_limit_work="2/hour", api_keys="backend-secret, partner:3")
    for _ in range(10):
        lifted = client.post(GENERATE, headers={"X-API-Key": "backend-secret"})
        assert served(lifted) == 200 and "RateLimit-Limit" not in lifted.headers
    raised = [served(client.post(GENERATE, headers={"X-API-Key": "partner"})) for _ in range(7)]
    assert raised == [200] * 6 + [429]
    assert [served(client.post(GENERATE)) for _ in range(3)] == [200, 200, 429]  # the address's own budget
    unknown = client.post(GENERATE, headers={"X-API-Key": "guess"})
    assert unknown.status_code == 401 and "API_KEYS" in unknown.json()["detail"]


def test_forwarded_for_counts_only_from_trusted_proxies(build) -> None:
    _, as_client = build(rate_limit_work="1/hour", trusted_proxies="10.0.0.0/8")
    stranger = as_client("203.0.113.9")
    assert served(stranger.post(GENERATE, headers={"X-Forwarded-For": "192.0.2.1"})) == 200
    assert served(stranger.post(GENERATE, headers={"X-Forwarded-For": "192.0.2.2"})) == 429  # the header is ignored
    proxy = as_client("10.1.2.3")
    for player in ("192.0.2.10", "192.0.2.11"):  # players behind the proxy each have their own budget
        assert served(proxy.post(GENERATE, headers={"X-Forwarded-For": player})) == 200
    assert served(proxy.post(GENERATE, headers={"X-Forwarded-For": "192.0.2.10"})) == 429


def test_redis_makes_two_instances_share_one_budget(build) -> None:
    address = f"192.0.2.{uuid.uuid4().int % 200 + 20}"  # fresh in Redis: other runs use other addresses
    limit = f"{3 + uuid.uuid4().int % 1000}/hour"
    amount = int(limit.split("/")[0])
    first, _ = build(address, redis_url=REDIS_URL, rate_limit_work=limit)
    second, _ = build(address, redis_url=REDIS_URL, rate_limit_work=limit)
    statuses = [served((first if i % 2 else second).post(GENERATE)) for i in range(amount + 1)]
    assert statuses == [200] * amount + [429]
    assert second.post(GENERATE).headers["RateLimit-Remaining"] == "0"


def test_unreachable_redis_lets_requests_through_quickly(build) -> None:
    client, _ = build(redis_url="redis://127.0.0.1:1/0", rate_limit_work="1/minute")
    assert served(client.post(GENERATE)) == 200  # the worker's first job (imports, JIT) is not what is timed
    started = time.monotonic()
    assert [served(client.post(GENERATE)) for _ in range(3)] == [200] * 3
    assert time.monotonic() - started < 10
    assert "rate_limit_storage_errors_total 4.0" in client.get("/metrics").text


@pytest.mark.parametrize(("path", "budget"), [
    ("/generate/battleship", "work"), ("/solve/ubongo", "work"), ("/grade/othello", "work"),
    ("/hint/dabuhamienai", "work"), ("/puzzles/db-123/hint", "work"), ("/render/ubongo", "work"),
    ("/puzzles/db-123.svg", "work"), ("/verify/othello", "verify"), ("/puzzles/db-123/verify", "verify"),
    ("/puzzles/db-123", "read"), ("/puzzles/db-123/solution", "read"), ("/daily/othello", "read"),
    ("/puzzles/db-123/plays", "read"), ("/plays", "read"), ("/next/ubongo", "read"), ("/players/abcdefgh", "read"),
    ("/daily/othello.svg", "read"), ("/play/daily/othello", "read"), ("/play/db-123", "read"), ("/", None),
    ("/healthz", None), ("/readyz", None), ("/types", None), ("/metrics", None), ("/docs", None),
])
def test_routes_are_budgeted_by_pattern(path: str, budget: str | None) -> None:
    assert budget_for(path) == budget


def test_api_keys_and_addresses_parse() -> None:
    assert parse_api_keys(" a, b:2.5 ,") == {"a": float("inf"), "b": 2.5}
    with pytest.raises(ValueError):
        parse_api_keys("a:0")
    assert client_address({"client": ("2001:db8::1", 1)}) == client_address({"client": ("2001:db8::ffff", 2)})
    assert client_address({"client": ("::ffff:192.0.2.1", 1)}) == "192.0.2.1"
