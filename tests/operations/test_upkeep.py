"""Bounded storage (app/upkeep.py): retention prunes only on-demand puzzles nobody fetched, reads
(replayed ones too) count as fetches, `puzzlegen prune` does it by hand, SQLite's WAL is truncated."""

from __future__ import annotations

import asyncio
import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from app.cli.main import main as cli
from app.store import PuzzleRow, PuzzleStore
from app.upkeep import Upkeep, checkpoint, prune

NOW = datetime.now(UTC)
OLD = NOW - timedelta(days=40)


def row(puzzle_id: str, created: datetime, fetched: datetime | None = None, **extra) -> PuzzleRow:
    return PuzzleRow(id=puzzle_id, type="dabuhamienai", params={"size": 4, "seed": 1}, puzzle={"size": 4},
                     solution={"shaded": []}, stats={}, created_at=created, fetched_at=fetched, **extra)


def fill(store: PuzzleStore) -> None:
    for item in (
        row("old-unfetched", OLD),
        row("old-fetched-long-ago", OLD, OLD + timedelta(days=1)),
        row("old-fetched-lately", OLD, NOW - timedelta(days=2)),
        row("new-unfetched", NOW - timedelta(days=3)),
        row("old-daily", OLD, daily_key="dabuhamienai|2026-01-01|{}"),
        row("old-pooled-unclaimed", OLD, pool_key="dabuhamienai|{}"),
        row("old-pooled-claimed", OLD, pool_key="dabuhamienai|{}", served_at=OLD),
    ):
        store.add(item)


def ids(store: PuzzleStore) -> set[str]:
    with Session(store.engine) as session:
        return set(session.scalars(PuzzleRow.__table__.select().with_only_columns(PuzzleRow.id)))


def test_prune_drops_only_on_demand_puzzles_nobody_fetched(database_url: str) -> None:
    store = PuzzleStore(database_url)
    fill(store)
    cutoff = NOW - timedelta(days=30)
    assert prune(store.engine, cutoff, dry_run=True) == 2
    assert len(ids(store)) == 7
    assert prune(store.engine, cutoff) == 2
    assert ids(store) == {"old-fetched-lately", "new-unfetched", "old-daily", "old-pooled-unclaimed", "old-pooled-claimed"}
    assert prune(store.engine, cutoff) == 0
    store.dispose()


def test_puzzlegen_prune(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    store = PuzzleStore(url)
    fill(store)
    assert cli(["--database-url", url, "prune", "--days", "30", "--dry-run"]) == 0
    assert "would delete 2 puzzles" in capsys.readouterr().err
    assert len(ids(store)) == 7
    assert cli(["--database-url", url, "prune", "--days", "35"]) == 0
    assert "deleted 2 puzzles" in capsys.readouterr().err
    assert cli(["--database-url", url, "prune", "--days", "0"]) == 2
    assert len(ids(store)) == 5
    store.dispose()


def test_reads_mark_puzzles_fetched_and_the_service_prunes_the_rest(make_client, tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    client = make_client(db=db, upkeep_interval_seconds=0.1, generate_budget_seconds=120)  # a cold worker is slow when busy
    kept, dropped, replayed = (client.post("/generate/dabuhamienai", params={"size": 4, "seed": s}).json()["id"]
                               for s in range(3))
    store = PuzzleStore(f"sqlite:///{db}")
    with Session(store.engine) as session:  # all three made 40 days ago
        session.execute(update(PuzzleRow).values(created_at=OLD))
        session.commit()
    def fetched_ids(expected: set[str]) -> set[str]:
        deadline = time.monotonic() + 10
        while True:
            with Session(store.engine) as session:
                fetched = {r.id for r in session.query(PuzzleRow).filter(PuzzleRow.fetched_at.is_not(None))}
            if fetched == expected or time.monotonic() > deadline:
                return fetched
            time.sleep(0.1)

    assert client.get(f"/puzzles/{replayed}").status_code == 200
    assert fetched_ids({replayed}) == {replayed}
    with Session(store.engine) as session:
        session.execute(update(PuzzleRow).values(fetched_at=None))
        session.commit()
    assert len(client.app.state.replay) == 1
    assert client.get(f"/puzzles/{replayed}").status_code == 200  # answered by the replay (app/middleware/replay.py) alone
    assert client.get(f"/puzzles/{kept}").status_code == 200
    assert fetched_ids({kept, replayed}) == {kept, replayed}
    upkeep = Upkeep(retention_days=30)
    upkeep.engine = store.engine
    asyncio.run(upkeep.run_once(prune_too=True))
    assert ids(store) == {kept, replayed} and dropped not in ids(store)
    store.dispose()


def test_checkpoint_truncates_the_write_ahead_log(tmp_path: Path) -> None:
    db = tmp_path / "store.db"
    store = PuzzleStore(f"sqlite:///{db}")
    for number in range(200):
        store.add(row(f"p{number}", NOW))
    wal = Path(f"{db}-wal")
    assert wal.exists() and wal.stat().st_size > 0
    busy, _, _ = checkpoint(store.engine)
    assert busy == 0 and wal.stat().st_size == 0
    assert len(ids(store)) == 200
    with store.engine.connect() as connection:
        limit = connection.exec_driver_sql("PRAGMA journal_size_limit").scalar()
    assert 0 < limit <= 64 * 1024 * 1024
    assert os.path.getsize(db) > 0
    store.dispose()
