"""Keeping the store bounded: retention of puzzles generated on demand, and SQLite's write-ahead log.

Every `POST /generate` stores a row for good, so without retention the store grows with traffic. A row
generated on demand (not a daily, not pre-generated for a pool) that nobody has fetched for
`RETENTION_DAYS` is pruned: it is reproducible from its parameters and seed (generating again with
them stores the same puzzle under the same id), so pruning drops a copy, never a puzzle. Daily and
pooled puzzles are never pruned.

"Fetched" is tracked without a write per read: ids of stored puzzles read (`GET /puzzles/{id}...`,
answer checks) are gathered in memory, replayed responses included, and `fetched_at` is written for
them in one statement per interval, at most once an hour per row.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import sys
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.store import PuzzleRow

log = logging.getLogger("puzzlegen.upkeep")
STORED_PATH = re.compile(r"/puzzles/([^/.]{1,64})(?:/[^/]*|\.\w+)?")
FETCH_RESOLUTION = timedelta(hours=1)  # fetched_at is at most this stale: far finer than retention needs
MAX_TRACKED = 100_000  # ids waiting for the next write; past this, the oldest news is dropped
PRUNE_BATCH = 1000


def prunable(older_than: datetime) -> Any:
    """Generated on demand, and neither made nor fetched since ``older_than``."""
    return (
        PuzzleRow.daily_key.is_(None),
        PuzzleRow.pool_key.is_(None),
        PuzzleRow.created_at < older_than,
        or_(PuzzleRow.fetched_at.is_(None), PuzzleRow.fetched_at < older_than),
    )


def prune(engine: Engine, older_than: datetime, dry_run: bool = False) -> int:
    """Delete prunable rows in short batches (each its own transaction, so writers are never held long)."""
    if dry_run:
        return count_prunable(engine, older_than)
    removed = 0
    while True:
        with Session(engine) as session:
            ids = list(session.scalars(select(PuzzleRow.id).where(*prunable(older_than)).limit(PRUNE_BATCH)))
            if not ids:
                return removed
            session.execute(delete(PuzzleRow).where(PuzzleRow.id.in_(ids), *prunable(older_than)))
            session.commit()
            removed += len(ids)


def count_prunable(engine: Engine, older_than: datetime) -> int:
    with Session(engine) as session:
        return session.scalar(select(func.count()).select_from(PuzzleRow).where(*prunable(older_than))) or 0


def mark_fetched(engine: Engine, ids: Iterable[str], now: datetime | None = None) -> None:
    now = now or datetime.now(UTC)
    ids = list(ids)
    with Session(engine) as session:
        for start in range(0, len(ids), PRUNE_BATCH):
            session.execute(
                update(PuzzleRow)
                .where(PuzzleRow.id.in_(ids[start:start + PRUNE_BATCH]),
                       or_(PuzzleRow.fetched_at.is_(None), PuzzleRow.fetched_at < now - FETCH_RESOLUTION))
                .values(fetched_at=now)
            )
        session.commit()


def checkpoint(engine: Engine) -> tuple[int, int, int] | None:
    """Copy SQLite's write-ahead log into the database and truncate it (None for other databases). The
    automatic checkpoint copies but never shrinks the file, and cannot finish while readers keep
    reading; this one waits for them (up to the busy timeout) and leaves an empty log."""
    if engine.dialect.name != "sqlite":
        return None
    with engine.connect() as connection:
        busy, frames, copied = connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
        return busy, frames, copied


class FetchTracker:
    """ASGI middleware: notes the id of every stored puzzle a client reads (answered below 400)."""

    def __init__(self, app: ASGIApp, upkeep: Upkeep):
        self.app = app
        self.upkeep = upkeep

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = STORED_PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if match is None:
            await self.app(scope, receive, send)
            return

        async def watch(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] < 400:
                self.upkeep.fetched(match.group(1))
            await send(message)

        await self.app(scope, receive, watch)


class Upkeep:
    """The service's background chores, every `interval` seconds: write fetch times; prune and
    checkpoint once per `prune_every` of them."""

    def __init__(self, retention_days: int, interval: float = 60.0, prune_every: int = 60):
        self.retention_days = retention_days
        self.interval = interval
        self.prune_every = prune_every
        self._fetched: dict[str, None] = {}
        self._task: asyncio.Task[None] | None = None
        self.engine: Engine | None = None

    def fetched(self, puzzle_id: str) -> None:
        self._fetched[puzzle_id] = None
        if len(self._fetched) > MAX_TRACKED:
            del self._fetched[next(iter(self._fetched))]

    def start(self, engine: Engine) -> None:
        self.engine = engine
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.run_once(prune_too=False)  # fetches noted since the last round are not lost

    async def run_once(self, prune_too: bool) -> None:
        assert self.engine is not None
        try:
            if self._fetched:
                ids, self._fetched = list(self._fetched), {}
                await run_in_threadpool(mark_fetched, self.engine, ids)
            if prune_too and self.retention_days:
                cutoff = datetime.now(UTC) - timedelta(days=self.retention_days)
                removed = await run_in_threadpool(prune, self.engine, cutoff)
                if removed:
                    log.info("pruned %d puzzles not fetched since %s", removed, cutoff.date())
            if prune_too:
                await run_in_threadpool(checkpoint, self.engine)
        except Exception as exc:  # a database outage: the next round tries again
            log.warning("store upkeep failed, retrying next round: %s", exc)

    async def _run(self) -> None:
        rounds = 0
        while True:
            await asyncio.sleep(self.interval)
            rounds += 1
            await self.run_once(prune_too=rounds % self.prune_every == 0)


def add_prune_command(commands: Any) -> None:
    """`puzzlegen prune`: the same retention as the service, run by hand or from cron."""
    command = commands.add_parser("prune", help="delete puzzles generated on demand that nobody fetched for --days")
    command.add_argument("--days", type=int, default=None, help="retention in days (default: RETENTION_DAYS)")
    command.add_argument("--dry-run", action="store_true", help="count what would be deleted, delete nothing")
    command.set_defaults(run=prune_command)


def prune_command(args: argparse.Namespace) -> int:
    from app.settings import get_settings
    from app.store import PuzzleStore

    settings = get_settings()
    days = settings.retention_days if args.days is None else args.days
    if days <= 0:
        print("retention is 0 days (keep everything): nothing to prune; give --days N", file=sys.stderr)
        return 2
    url = args.database_url or settings.database_url
    store = PuzzleStore(url)
    cutoff = datetime.now(UTC) - timedelta(days=days)
    removed = prune(store.engine, cutoff, dry_run=args.dry_run)
    verb = "would delete" if args.dry_run else "deleted"
    print(f"{verb} {removed} puzzles generated on demand and not fetched since {cutoff:%Y-%m-%d %H:%M} UTC "
          f"(dailies and pooled puzzles are kept) from {store.engine.url.render_as_string(hide_password=True)}",
          file=sys.stderr)
    if not args.dry_run:
        checkpoint(store.engine)  # SQLite: the deletions leave the log; freed pages are reused by new rows
    store.dispose()
    return 0
