"""The store on SQLite and on a real PostgreSQL server: ids, conflicts, the daily key and the pool."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from app.store import PuzzleRow, PuzzleStore, derive_id, derive_seed


def row(puzzle_id: str, **extra) -> PuzzleRow:
    return PuzzleRow(id=puzzle_id, type="dabuhamienai", params={"size": 4}, puzzle={"n": 1}, solution={"s": 1}, stats={},
                     **extra)


def test_add_is_idempotent_and_keeps_the_first(database_url: str) -> None:
    store = PuzzleStore(database_url)
    first = store.add(row("dab-1"))
    second = store.add(PuzzleRow(id="dab-1", type="dabuhamienai", params={}, puzzle={"n": 2}, solution={}, stats={}))
    assert second.puzzle == {"n": 1} and second.record()["created_at"] == first.record()["created_at"]
    assert store.get("dab-1").record()["puzzle"] == {"n": 1}
    assert store.get("dab-2") is None
    PuzzleStore(database_url)  # migrating an up-to-date schema again is harmless
    store.dispose()


def test_daily_key_finds_the_record(database_url: str) -> None:
    store = PuzzleStore(database_url)
    store.add(row("dab-d", daily_key="dabuhamienai|2026-01-01|{}"))
    assert store.get_daily("dabuhamienai|2026-01-01|{}").id == "dab-d"
    assert store.get_daily("dabuhamienai|2026-01-02|{}") is None
    store.dispose()


def test_concurrent_inserts_of_one_id_store_one_row(database_url: str) -> None:
    store = PuzzleStore(database_url)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: store.add(row("dab-race")), range(16)))
    assert {r.record()["created_at"] for r in results} == {store.get("dab-race").record()["created_at"]}
    store.dispose()


def test_each_pooled_puzzle_is_claimed_once(database_url: str) -> None:
    store = PuzzleStore(database_url)
    for i in range(10):
        assert store.add_to_pool(row(f"dab-p{i}"), "dabuhamienai|size=4")
    assert not store.add_to_pool(row("dab-p0"), "dabuhamienai|size=4")  # resuming a batch stores nothing twice
    assert store.pool_sizes() == {"dabuhamienai|size=4": 10}
    with ThreadPoolExecutor(8) as pool:
        claimed = list(pool.map(lambda _: store.claim_from_pool("dabuhamienai|size=4"), range(14)))
    ids = [c.id for c in claimed if c is not None]
    assert sorted(ids) == sorted(f"dab-p{i}" for i in range(10))
    assert store.pool_sizes() == {}
    store.dispose()


def test_ids_and_seeds_are_derived_deterministically() -> None:
    """The values are pinned (tests/service/test_stored_ids.py pins them as the service derives them):
    stored ids and daily seeds must not change when this code does."""
    assert derive_id("dab", "dabuhamienai", {"size": 8}, 1) == "dab-92e175049b6989496cfa"
    assert derive_id("dab", "dabuhamienai", {"size": 8}, 1) != derive_id("dab", "dabuhamienai", {"size": 8}, 2)
    seeds = {derive_seed("daily", "x", f"2026-01-{day:02d}", {}) for day in range(1, 29)}
    assert len(seeds) == 28 and all(0 <= seed < 2**48 for seed in seeds)
    assert derive_seed("daily", "x", "2026-01-01", {}) == 79823312132486
