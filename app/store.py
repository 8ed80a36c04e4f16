"""Stored puzzles, in SQLite by default or any database SQLAlchemy 2 speaks (PostgreSQL for replicas).

Ids are derived from what determines the puzzle (type, parameters, seed; or type, date and
parameters for a daily puzzle), so every replica computes the same id for the same puzzle and a
second insert of it is a harmless no-op: that is what keeps concurrent first requests for a daily
puzzle from creating two different records.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import JSON, DateTime, String, create_engine, event, func, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class Base(DeclarativeBase):
    pass


class PuzzleRow(Base):
    __tablename__ = "puzzles"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    type: Mapped[str] = mapped_column(String(32), index=True)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    puzzle: Mapped[dict[str, Any]] = mapped_column(JSON)
    solution: Mapped[dict[str, Any]] = mapped_column(JSON)
    stats: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    daily_key: Mapped[str | None] = mapped_column(String(200), unique=True, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Pre-generated puzzles wait in a pool (type + parameters) until one request claims them.
    pool_key: Mapped[str | None] = mapped_column(String(300), nullable=True)
    served_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    def record(self, include_solution: bool = False) -> dict[str, Any]:
        created = self.created_at if self.created_at.tzinfo else self.created_at.replace(tzinfo=UTC)
        out: dict[str, Any] = {
            "id": self.id,
            "type": self.type,
            "params": self.params,
            "puzzle": self.puzzle,
            "stats": self.stats,
            "created_at": created.isoformat().replace("+00:00", "Z"),
        }
        if include_solution:
            out["solution"] = self.solution
        return out


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def derive_id(prefix: str, *parts: Any) -> str:
    return f"{prefix}-{hashlib.sha256(canonical(parts).encode()).hexdigest()[:20]}"


def derive_seed(*parts: Any) -> int:
    """A seed every replica derives alike (48 bits, so it stays readable)."""
    return int(hashlib.sha256(canonical(parts).encode()).hexdigest()[:12], 16)


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait on the writer
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20)


MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_LOCK = 727_274  # PostgreSQL advisory lock id: replicas starting together migrate one at a time


@contextmanager
def migration_lock(engine: Engine) -> Iterator[None]:
    """Replicas starting together migrate one at a time: a file lock beside a SQLite file (SQLite
    is one machine's database); PostgreSQL takes its advisory lock inside the transaction."""
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if not database or database == ":memory:":
        yield
        return
    with open(f"{database}.migrate-lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with migration_lock(engine), engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class PuzzleStore:
    def __init__(self, url: str):
        self.engine = make_engine(url)
        migrate(self.engine)

    def get(self, puzzle_id: str) -> PuzzleRow | None:
        with Session(self.engine, expire_on_commit=False) as session:
            return session.get(PuzzleRow, puzzle_id)

    def get_daily(self, daily_key: str) -> PuzzleRow | None:
        with Session(self.engine, expire_on_commit=False) as session:
            return session.scalars(select(PuzzleRow).where(PuzzleRow.daily_key == daily_key)).first()

    def add(self, row: PuzzleRow) -> PuzzleRow:
        """Insert ``row`` unless a row with its id exists; return the stored row either way."""
        row.created_at = row.created_at or datetime.now(UTC)
        with Session(self.engine, expire_on_commit=False) as session:
            existing = session.get(PuzzleRow, row.id)
            if existing is not None:
                return existing
            session.add(row)
            try:
                session.commit()
                return row
            except IntegrityError:  # another request or replica stored it first
                session.rollback()
        stored = self.get(row.id)
        if stored is None:
            raise RuntimeError(f"puzzle {row.id} vanished after a conflicting insert")
        return stored

    def add_to_pool(self, row: PuzzleRow, pool_key: str) -> bool:
        """Store a pre-generated puzzle in a pool; False if it was stored already (resuming a batch)."""
        row.pool_key = pool_key
        stored = self.add(row)
        return stored is row

    def claim_from_pool(self, pool_key: str) -> PuzzleRow | None:
        """Hand out one unserved pooled puzzle, each to exactly one caller, even across replicas."""
        for _ in range(5):
            with Session(self.engine, expire_on_commit=False) as session:
                candidate = session.scalars(
                    select(PuzzleRow.id).where(PuzzleRow.pool_key == pool_key, PuzzleRow.served_at.is_(None)).limit(1)
                ).first()
                if candidate is None:
                    return None
                claimed = session.execute(
                    update(PuzzleRow)
                    .where(PuzzleRow.id == candidate, PuzzleRow.served_at.is_(None))
                    .values(served_at=datetime.now(UTC))
                )
                session.commit()
                if claimed.rowcount == 1:
                    return session.get(PuzzleRow, candidate)
        return None  # lost every race: generate instead

    def pool_sizes(self) -> dict[str, int]:
        with Session(self.engine) as session:
            rows = session.execute(
                select(PuzzleRow.pool_key, func.count())
                .where(PuzzleRow.pool_key.is_not(None), PuzzleRow.served_at.is_(None))
                .group_by(PuzzleRow.pool_key)
            )
            return {key: count for key, count in rows}

    def dispose(self) -> None:
        self.engine.dispose()
