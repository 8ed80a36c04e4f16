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

from pydantic import BaseModel, Field
from sqlalchemy import JSON, DateTime, Integer, String, create_engine, event, func, select, text, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column


class Base(DeclarativeBase):
    pass


class PuzzleRecord(BaseModel):
    """A stored puzzle as the API and `puzzlegen export` show it; the routes narrow `puzzle` and
    `solution` to each type's models for the OpenAPI document."""

    id: str
    type: str
    params: dict[str, Any] = Field(description="The generation parameters (normalised) and the seed or date.")
    puzzle: dict[str, Any]
    solution: dict[str, Any] | None = None
    stats: dict[str, Any] = Field(default_factory=dict, description="Generation work: repair rounds, restarts, time.")
    difficulty: dict[str, Any] | None = Field(None, description="How hard it is for a person (types with levels).")
    created_at: str


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
    # How hard it is for a person (level, score, steps, hardest technique); None until graded.
    difficulty: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    # Players' checks of an answer through POST /puzzles/{id}/verify: all, solved, first tries, solved at a first try.
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    solves: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    first_tries: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    first_try_solves: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Last time a client fetched it (retention keeps what people use).
    fetched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    def record(self, include_solution: bool = False) -> dict[str, Any]:
        """The record as the API shows it (``PuzzleRecord``), ready for JSON."""
        created = self.created_at if self.created_at.tzinfo else self.created_at.replace(tzinfo=UTC)
        record = PuzzleRecord.model_construct(
            id=self.id, type=self.type, params=self.params, puzzle=self.puzzle, solution=self.solution,
            stats=self.stats, difficulty=self.difficulty, created_at=created.isoformat().replace("+00:00", "Z"),
        )
        return record.model_dump(exclude=None if include_solution else {"solution"})


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def derive_id(prefix: str, *parts: Any) -> str:
    return f"{prefix}-{hashlib.sha256(canonical(parts).encode()).hexdigest()[:20]}"


def derive_seed(*parts: Any) -> int:
    """A seed every replica derives alike (48 bits, so it stays readable)."""
    return int(hashlib.sha256(canonical(parts).encode()).hexdigest()[:12], 16)


def make_engine(url: str, timeout_seconds: float = 30.0) -> Engine:
    """``timeout_seconds`` bounds every wait on the database (connecting, a pooled connection, a lock,
    a statement), so a database that is down or stuck fails a request fast instead of holding it."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": timeout_seconds})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
            cursor = dbapi_conn.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers never wait on the writer
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")  # a checkpoint truncates the WAL to this
            cursor.close()

        return engine
    milliseconds = int(timeout_seconds * 1000)
    connect_args = {
        "connect_timeout": max(1, round(timeout_seconds)),
        "tcp_user_timeout": milliseconds,  # a server gone silent drops the connection instead of hanging a query
        "options": f"-c statement_timeout={milliseconds} -c lock_timeout={milliseconds}",
    }
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20, pool_timeout=timeout_seconds,
                         connect_args=connect_args)


WAL_SIZE_LIMIT = 64 * 1024 * 1024


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
            # a migration may take long, and so may waiting for another replica's: no request timeouts here
            connection.execute(text("SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0"))
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class PuzzleStore:
    def __init__(self, url: str, timeout_seconds: float = 30.0):
        self.engine = make_engine(url, timeout_seconds)
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
        """Hand out one unserved pooled puzzle, each to exactly one caller, even across replicas: one
        UPDATE ... RETURNING. On PostgreSQL its subquery takes the row FOR UPDATE SKIP LOCKED, so
        concurrent claims take different rows instead of waiting on each other; SQLite runs one writing
        statement at a time (and renders no FOR UPDATE)."""
        unserved = (
            select(PuzzleRow.id)
            .where(PuzzleRow.pool_key == pool_key, PuzzleRow.served_at.is_(None))
            .limit(1)
            .with_for_update(skip_locked=True)
            .scalar_subquery()
        )
        claim = (
            update(PuzzleRow)
            .where(PuzzleRow.id == unserved, PuzzleRow.served_at.is_(None))
            .values(served_at=datetime.now(UTC))
            .returning(PuzzleRow.id)
        )
        with Session(self.engine, expire_on_commit=False) as session:
            claimed = session.execute(claim).scalar()
            session.commit()
            return None if claimed is None else session.get(PuzzleRow, claimed)

    def record_attempt(self, puzzle_id: str, solved: bool, first_try: bool) -> None:
        """One atomic increment, so concurrent checks on any replica all count."""
        with Session(self.engine) as session:
            session.execute(
                update(PuzzleRow).where(PuzzleRow.id == puzzle_id).values(
                    attempts=PuzzleRow.attempts + 1,
                    solves=PuzzleRow.solves + int(solved),
                    first_tries=PuzzleRow.first_tries + int(first_try),
                    first_try_solves=PuzzleRow.first_try_solves + int(solved and first_try),
                )
            )
            session.commit()

    def plays(self, puzzle_id: str) -> dict[str, int] | None:
        with Session(self.engine) as session:
            row = session.execute(
                select(PuzzleRow.attempts, PuzzleRow.solves, PuzzleRow.first_tries, PuzzleRow.first_try_solves)
                .where(PuzzleRow.id == puzzle_id)
            ).first()
        return None if row is None else dict(zip(("attempts", "solves", "first_tries", "first_try_solves"), row,
                                                 strict=True))

    def plays_by_level(self) -> list[dict[str, Any]]:
        """Players' checks summed per type and difficulty level."""
        level = PuzzleRow.difficulty["level"].as_string()
        with Session(self.engine) as session:
            rows = session.execute(
                select(PuzzleRow.type, level, func.count(), func.sum(PuzzleRow.attempts), func.sum(PuzzleRow.solves),
                       func.sum(PuzzleRow.first_tries), func.sum(PuzzleRow.first_try_solves))
                .group_by(PuzzleRow.type, level).order_by(PuzzleRow.type, level)
            ).all()
        return [{"type": kind, "level": lv, "puzzles": n, "attempts": int(a or 0), "solves": int(s or 0),
                 "first_tries": int(t or 0), "first_try_solves": int(f or 0),
                 "first_try_solve_rate": (int(f or 0) / int(t)) if t else None}
                for kind, lv, n, a, s, t, f in rows]

    def ungraded(self, types: list[str], limit: int) -> list[PuzzleRow]:
        with Session(self.engine, expire_on_commit=False) as session:
            return list(session.scalars(
                select(PuzzleRow).where(PuzzleRow.difficulty.is_(None), PuzzleRow.type.in_(types)).limit(limit)))

    def set_difficulty(self, puzzle_id: str, difficulty: dict[str, Any]) -> None:
        with Session(self.engine) as session:
            session.execute(update(PuzzleRow).where(PuzzleRow.id == puzzle_id).values(difficulty=difficulty))
            session.commit()

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
