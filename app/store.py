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
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    Index,
    Integer,
    String,
    Table,
    bindparam,
    create_engine,
    event,
    exists,
    func,
    or_,
    select,
    text,
    union_all,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from app import ratings
from app.ratings import Glicko
from generators.registry import TYPES


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
    rating: float | None = Field(None, description="Glicko-2 rating from players' first attempts; before any, "
                                                   "the prior from its grade. At most a minute old.")
    rd: float | None = Field(None, description="The rating's deviation: it shrinks as players play it.")


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
    # Glicko-2 from players' rated games (app/ratings.py); the prior from the grade until the first game.
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    rd: Mapped[float | None] = mapped_column(Float, nullable=True)
    volatility: Mapped[float | None] = mapped_column(Float, nullable=True)
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __table_args__ = (Index("ix_puzzles_type_rating", "type", "rating"),)  # GET /next walks it outward from a rating

    def record(self, include_solution: bool = False) -> dict[str, Any]:
        """The record as the API shows it (``PuzzleRecord``), ready for JSON."""
        created = self.created_at if self.created_at.tzinfo else self.created_at.replace(tzinfo=UTC)
        record = PuzzleRecord.model_construct(
            id=self.id, type=self.type, params=self.params, puzzle=self.puzzle, solution=self.solution,
            stats=self.stats, difficulty=self.difficulty, created_at=created.isoformat().replace("+00:00", "Z"),
            rating=None if self.rating is None else round(self.rating, 1), rd=None if self.rd is None else round(self.rd, 1),
        )
        return record.model_dump(exclude=None if include_solution else {"solution"})


class GameRow(Base):
    """One player's game against one puzzle: opened by the player's first fetch of it, settled by their
    first check. One row per (player, puzzle), so a game is settled once whatever is replayed."""

    __tablename__ = "games"

    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    type: Mapped[str] = mapped_column(String(32))
    fetched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)  # None: never rated
    hints: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # asked before the first check
    settled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    solved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)  # client-reported, to the first check
    score: Mapped[float | None] = mapped_column(Float, nullable=True)  # the player's; None: not rated
    # Both sides before the game and how many rated games each had played: an audit trail from which
    # every rating can be recomputed, and which shows that no game was applied twice or lost.
    player_games: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    player_rd: Mapped[float | None] = mapped_column(Float, nullable=True)
    player_volatility: Mapped[float | None] = mapped_column(Float, nullable=True)
    puzzle_games: Mapped[int | None] = mapped_column(Integer, nullable=True)
    puzzle_rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    puzzle_rd: Mapped[float | None] = mapped_column(Float, nullable=True)
    puzzle_volatility: Mapped[float | None] = mapped_column(Float, nullable=True)


class PerfRow(Base):
    """A player's rating in one puzzle type (Lichess calls it a perf)."""

    __tablename__ = "player_ratings"

    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    type: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


PUZZLES: Table = PuzzleRow.__table__  # type: ignore[assignment]
GAMES: Table = GameRow.__table__  # type: ignore[assignment]
PERFS: Table = PerfRow.__table__  # type: ignore[assignment]
NEXT_CANDIDATES = 10  # unplayed puzzles read on each side of a player's rating; /next picks among the close ones
LEVEL_MEDIAN_SAMPLE = 5000  # a type's most recent graded puzzles, whose median score per level places a new one
LEVEL_MEDIAN_MINIMUM = 20  # fewer puzzles at a level: no median, the level alone places a puzzle
LEVEL_MEDIAN_REFRESH_SECONDS = 3600.0


def insert_absent(session: Session, table: Table, values: dict[str, Any]) -> bool:
    """INSERT unless the primary key exists (no error, no waiting for a retry); True if it inserted."""
    dialect = session.get_bind().dialect.name
    if dialect not in ("postgresql", "sqlite"):
        raise NotImplementedError(f"ratings need PostgreSQL or SQLite, not {dialect}")
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return session.execute(insert(table).values(**values).on_conflict_do_nothing()).rowcount == 1


def relaxed_commit(session: Session) -> None:
    """On PostgreSQL, commit this transaction without waiting for its log to reach the disk (an fsync of
    several ms on a busy disk): a crash may lose the last fraction of a second of such commits, never
    their consistency. Only for fetches, whose loss costs at most one unrated game; games stay durable."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET LOCAL synchronous_commit = off"))


def glicko_of(rating: float | None, rd: float | None, volatility: float | None) -> Glicko | None:
    return None if rating is None or rd is None or volatility is None else Glicko(rating, rd, volatility)


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


MIGRATIONS = Path(str(resources.files("app") / "migrations"))  # shipped in the package as data
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
        self._level_medians: dict[str, tuple[float, dict[str | None, float]]] = {}
        self.place_unrated()

    def get(self, puzzle_id: str) -> PuzzleRow | None:
        with Session(self.engine, expire_on_commit=False) as session:
            return session.get(PuzzleRow, puzzle_id)

    def get_daily(self, daily_key: str) -> PuzzleRow | None:
        with Session(self.engine, expire_on_commit=False) as session:
            return session.scalars(select(PuzzleRow).where(PuzzleRow.daily_key == daily_key)).first()

    def add(self, row: PuzzleRow) -> PuzzleRow:
        """Insert ``row`` unless a row with its id exists; return the stored row either way. A new puzzle
        gets its prior rating from its grade."""
        row.created_at = row.created_at or datetime.now(UTC)
        if row.rating is None:
            row.rating, row.rd, row.volatility = self.prior(row.type, row.difficulty)
            row.games = 0
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
        """Players' checks summed per type and difficulty level, beside the level's mean puzzle rating and
        the median time of solved first checks: how hard each level is for people."""
        level = PuzzleRow.difficulty["level"].as_string()
        with Session(self.engine) as session:
            rows = session.execute(
                select(PuzzleRow.type, level, func.count(), func.sum(PuzzleRow.attempts), func.sum(PuzzleRow.solves),
                       func.sum(PuzzleRow.first_tries), func.sum(PuzzleRow.first_try_solves), func.sum(PuzzleRow.games),
                       func.avg(PuzzleRow.rating))
                .group_by(PuzzleRow.type, level).order_by(PuzzleRow.type, level)
            ).all()
            times = self._median_seconds_by_level(session)
        return [{"type": kind, "level": lv, "puzzles": n, "attempts": int(a or 0), "solves": int(s or 0),
                 "first_tries": int(t or 0), "first_try_solves": int(f or 0),
                 "first_try_solve_rate": (int(f or 0) / int(t)) if t else None,
                 "rated_games": int(g or 0), "mean_rating": None if r is None else round(float(r), 1),
                 "median_seconds": times.get((kind, lv))}
                for kind, lv, n, a, s, t, f, g, r in rows]

    @staticmethod
    def _median_seconds_by_level(session: Session) -> dict[tuple[str, str | None], float]:
        level = PuzzleRow.difficulty["level"].as_string()
        solved = (GAMES.c.solved.is_(True), GAMES.c.seconds.is_not(None))
        joined = GAMES.join(PUZZLES, PUZZLES.c.id == GAMES.c.puzzle_id)
        if session.get_bind().dialect.name == "postgresql":
            median = func.percentile_cont(0.5).within_group(GAMES.c.seconds)
            rows = session.execute(select(PUZZLES.c.type, level, median).select_from(joined).where(*solved)
                                   .group_by(PUZZLES.c.type, level)).all()
            return {(kind, lv): float(m) for kind, lv, m in rows}
        seconds: dict[tuple[str, str | None], list[float]] = defaultdict(list)
        for kind, lv, value in session.execute(select(PUZZLES.c.type, level, GAMES.c.seconds).select_from(joined)
                                               .where(*solved)):
            seconds[(kind, lv)].append(value)
        return {key: statistics.median(values) for key, values in seconds.items()}

    def ungraded(self, types: list[str], limit: int) -> list[PuzzleRow]:
        with Session(self.engine, expire_on_commit=False) as session:
            return list(session.scalars(
                select(PuzzleRow).where(PuzzleRow.difficulty.is_(None), PuzzleRow.type.in_(types)).limit(limit)))

    def set_difficulty(self, puzzle_id: str, difficulty: dict[str, Any]) -> None:
        """A new grade; a puzzle nobody has played yet also moves to the prior of that grade."""
        with Session(self.engine) as session:
            session.execute(update(PuzzleRow).where(PuzzleRow.id == puzzle_id).values(difficulty=difficulty))
            kind = session.scalar(select(PuzzleRow.type).where(PuzzleRow.id == puzzle_id))
            if kind is not None:
                rating, rd, volatility = self.prior(kind, difficulty)
                session.execute(update(PuzzleRow).where(PuzzleRow.id == puzzle_id, PuzzleRow.games == 0)
                                .values(rating=rating, rd=rd, volatility=volatility))
            session.commit()

    def pool_sizes(self) -> dict[str, int]:
        with Session(self.engine) as session:
            rows = session.execute(
                select(PuzzleRow.pool_key, func.count())
                .where(PuzzleRow.pool_key.is_not(None), PuzzleRow.served_at.is_(None))
                .group_by(PuzzleRow.pool_key)
            )
            return {key: count for key, count in rows}

    # Ratings (app/ratings.py says what a game is and how it is scored).

    def prior(self, type_name: str, difficulty: dict[str, Any] | None) -> tuple[float, float, float]:
        puzzle_type = TYPES.get(type_name)
        levels = puzzle_type.difficulty.names if puzzle_type and puzzle_type.difficulty else []
        level = difficulty.get("level") if difficulty else None
        median = self.level_median(type_name, level) if levels and difficulty else None
        placed = ratings.prior(levels, difficulty, median)
        return placed.rating, placed.rd, placed.volatility

    def level_median(self, type_name: str, level: str | None) -> float | None:
        """The median score of the type's recent graded puzzles at ``level``, re-read at most hourly:
        a score is only meaningful next to its own type's and level's, so that is what it is set against."""
        now = time.monotonic()
        cached = self._level_medians.get(type_name)
        if cached is None or now - cached[0] > LEVEL_MEDIAN_REFRESH_SECONDS:
            level_of, score_of = PuzzleRow.difficulty["level"].as_string(), PuzzleRow.difficulty["score"].as_float()
            with Session(self.engine) as session:
                recent = session.execute(
                    select(level_of, score_of).where(PuzzleRow.type == type_name, PuzzleRow.difficulty.is_not(None))
                    .order_by(PuzzleRow.created_at.desc()).limit(LEVEL_MEDIAN_SAMPLE)).all()
            scores: dict[str | None, list[float]] = defaultdict(list)
            for name, points in recent:
                if points is not None and points > 0:
                    scores[name].append(float(points))
            medians = {name: statistics.median(v) for name, v in scores.items() if len(v) >= LEVEL_MEDIAN_MINIMUM}
            cached = self._level_medians[type_name] = (now, medians)
        return cached[1].get(level)

    def place_unrated(self, batch: int = 1000) -> int:
        """Give puzzles stored without a rating (before ratings existed, or by an older replica) their
        prior. Idempotent, so replicas starting together may both run it."""
        placed = 0
        while True:
            with Session(self.engine) as session:
                rows = session.execute(select(PuzzleRow.id, PuzzleRow.type, PuzzleRow.difficulty)
                                       .where(PuzzleRow.rating.is_(None)).limit(batch)).all()
                if not rows:
                    return placed
                values = [dict(zip(("rating", "rd", "volatility"), self.prior(kind, grade), strict=True), key=puzzle_id)
                          for puzzle_id, kind, grade in rows]
                session.connection().execute(
                    update(PUZZLES).where(PUZZLES.c.id == bindparam("key"), PUZZLES.c.rating.is_(None))
                    .values(rating=bindparam("rating"), rd=bindparam("rd"), volatility=bindparam("volatility")), values)
                session.commit()
                placed += len(rows)

    def record_fetch(self, player: str, puzzle_id: str, type_name: str) -> None:
        """The player has the puzzle: their first check of it will be a rated game."""
        with Session(self.engine) as session:
            relaxed_commit(session)
            insert_absent(session, GAMES, {"player": player, "puzzle_id": puzzle_id, "type": type_name,
                                           "fetched_at": datetime.now(UTC)})
            session.commit()

    def record_hint(self, player: str, puzzle_id: str) -> None:
        """A hint asked before the player's first check: that game can no longer be a win."""
        with Session(self.engine) as session:
            session.execute(update(GAMES).where(GAMES.c.player == player, GAMES.c.puzzle_id == puzzle_id,
                                                GAMES.c.settled_at.is_(None)).values(hints=GAMES.c.hints + 1))
            session.commit()

    def play(self, puzzle_id: str, type_name: str, solved: bool, player: str, seconds: float | None) -> dict[str, Any]:
        """A checked answer from ``player``. Their first check of a puzzle they fetched settles the game
        and updates both ratings, all in one transaction; any other check is only counted.

        Exactly once, on any number of replicas: the game row is settled by a conditional UPDATE (a
        replayed or concurrent check finds it settled); then the player's and the puzzle's rows are read
        FOR UPDATE, always in that order, so concurrent games of one player or one puzzle queue up instead
        of overwriting each other. SQLite renders no FOR UPDATE, but the transaction's first statement
        writes, so it holds the database's one write lock throughout and reads the newest ratings."""
        now = datetime.now(UTC)
        this_game = (GAMES.c.player == player, GAMES.c.puzzle_id == puzzle_id)
        with Session(self.engine) as session:
            settled = session.execute(
                update(GAMES).where(*this_game, GAMES.c.settled_at.is_(None))
                .values(settled_at=now, solved=solved, seconds=seconds).returning(GAMES.c.hints)).first()
            if settled is None:
                first = insert_absent(session, GAMES, {"player": player, "puzzle_id": puzzle_id, "type": type_name,
                                                       "settled_at": now, "solved": solved, "seconds": seconds})
                session.execute(self._count_check(puzzle_id, solved, first))
                session.commit()
                why = "not fetched with this player token first" if first else "not this player's first check of it"
                return {"rated": False, "reason": why, "first_try": first}
            insert_absent(session, PERFS, {"player": player, "type": type_name, **ratings.NEWCOMER.shown(),
                                           "games": 0, "updated_at": now})
            perf = session.execute(select(PERFS.c.rating, PERFS.c.rd, PERFS.c.volatility, PERFS.c.games)
                                   .where(PERFS.c.player == player, PERFS.c.type == type_name).with_for_update()).one()
            puzzle = session.execute(select(PUZZLES.c.rating, PUZZLES.c.rd, PUZZLES.c.volatility, PUZZLES.c.games,
                                            PUZZLES.c.difficulty).where(PUZZLES.c.id == puzzle_id).with_for_update()).first()
            if puzzle is None:  # pruned since the check read it: nothing left to rate against
                session.rollback()
                return {"rated": False, "reason": "the puzzle is no longer stored", "first_try": False}
            player_before = Glicko(perf.rating, perf.rd, perf.volatility)
            puzzle_before = glicko_of(puzzle.rating, puzzle.rd, puzzle.volatility) or Glicko(
                *self.prior(type_name, puzzle.difficulty))
            result = ratings.score(solved, settled.hints)
            player_after, puzzle_after = ratings.game(player_before, puzzle_before, result)
            session.execute(self._count_check(puzzle_id, solved, True).values(
                rating=puzzle_after.rating, rd=puzzle_after.rd, volatility=puzzle_after.volatility,
                games=PUZZLES.c.games + 1))
            session.execute(update(PERFS).where(PERFS.c.player == player, PERFS.c.type == type_name).values(
                rating=player_after.rating, rd=player_after.rd, volatility=player_after.volatility,
                games=PERFS.c.games + 1, updated_at=now))
            session.execute(update(GAMES).where(*this_game).values(
                score=result, player_games=perf.games, player_rating=player_before.rating, player_rd=player_before.rd,
                player_volatility=player_before.volatility, puzzle_games=puzzle.games,
                puzzle_rating=puzzle_before.rating, puzzle_rd=puzzle_before.rd, puzzle_volatility=puzzle_before.volatility))
            session.commit()
        return {"rated": True, "result": "win" if result == 1.0 else "loss", "hints": settled.hints, "first_try": True,
                "player": {**player_after.shown(), "games": perf.games + 1},
                "puzzle": {key: value for key, value in puzzle_after.shown().items() if key != "volatility"}}

    @staticmethod
    def _count_check(puzzle_id: str, solved: bool, first_try: bool) -> Any:
        return update(PUZZLES).where(PUZZLES.c.id == puzzle_id).values(
            attempts=PUZZLES.c.attempts + 1, solves=PUZZLES.c.solves + int(solved),
            first_tries=PUZZLES.c.first_tries + int(first_try),
            first_try_solves=PUZZLES.c.first_try_solves + int(first_try and solved))

    def perfs(self, player: str) -> dict[str, dict[str, Any]]:
        """The player's rating in every type (a type never played: a newcomer's)."""
        with Session(self.engine) as session:
            rows = session.execute(select(PERFS.c.type, PERFS.c.rating, PERFS.c.rd, PERFS.c.volatility, PERFS.c.games)
                                   .where(PERFS.c.player == player)).all()
        played = {row.type: {**Glicko(row.rating, row.rd, row.volatility).shown(), "games": row.games} for row in rows}
        return {name: played.get(name, {**ratings.NEWCOMER.shown(), "games": 0}) for name in TYPES}

    def perf(self, player: str, type_name: str) -> Glicko:
        with Session(self.engine) as session:
            row = session.execute(select(PERFS.c.rating, PERFS.c.rd, PERFS.c.volatility)
                                  .where(PERFS.c.player == player, PERFS.c.type == type_name)).first()
        return ratings.NEWCOMER if row is None else Glicko(*row)

    def next_for(self, player: str, type_name: str, rating: float | None = None) -> PuzzleRow | None:
        """A stored puzzle of the type that ``player`` has not played, rated close to ``rating`` (by default
        the player's rating in the type), fetched for them (so their first check of it is a rated game).

        Close means within ``ratings.BAND``: one at random among the nearest unplayed puzzles on each side
        (two short walks along the (type, rating) index). Puzzles still waiting in a generate pool are not
        shared: if none of the others is close, the nearest pooled puzzle closer than the nearest other
        is claimed, as POST /generate claims one (it is served once, then shared like any other). Else the
        nearest unplayed puzzle, however far; None when the player has played every stored puzzle."""
        unplayed = ~exists().where(GAMES.c.player == player, GAMES.c.puzzle_id == PUZZLES.c.id)
        shared = or_(PUZZLES.c.pool_key.is_(None), PUZZLES.c.served_at.is_not(None))
        base = select(PUZZLES.c.id, PUZZLES.c.rating).where(PUZZLES.c.type == type_name, shared, unplayed)
        with Session(self.engine, expire_on_commit=False) as session:
            relaxed_commit(session)
            if rating is None:  # read here, not in a session of its own: one connection, one round trip less
                rating = session.scalar(select(PERFS.c.rating).where(PERFS.c.player == player, PERFS.c.type == type_name))
                rating = ratings.NEWCOMER.rating if rating is None else rating
            above = base.where(PUZZLES.c.rating >= rating).order_by(PUZZLES.c.rating).limit(NEXT_CANDIDATES).subquery()
            below = base.where(PUZZLES.c.rating < rating).order_by(PUZZLES.c.rating.desc()).limit(NEXT_CANDIDATES).subquery()
            candidates = session.execute(union_all(select(above), select(below))).all()
            close = [c.id for c in candidates if abs(c.rating - rating) <= ratings.BAND]
            chosen = random.choice(close) if close else None
            if chosen is None:
                nearest = min(candidates, key=lambda c: abs(c.rating - rating), default=None)
                chosen = self._claim_pooled(session, player, type_name, rating,
                                            abs(nearest.rating - rating) if nearest else None)
                chosen = chosen or (nearest.id if nearest else None)
            if chosen is None:
                return None
            insert_absent(session, GAMES, {"player": player, "puzzle_id": chosen, "type": type_name,
                                           "fetched_at": datetime.now(UTC)})
            row = session.get(PuzzleRow, chosen)
            session.commit()
            return row

    @staticmethod
    def _claim_pooled(session: Session, player: str, type_name: str, rating: float, within: float | None) -> str | None:
        distance = func.abs(PUZZLES.c.rating - rating)
        waiting = select(PUZZLES.c.id).where(
            PUZZLES.c.type == type_name, PUZZLES.c.pool_key.is_not(None), PUZZLES.c.served_at.is_(None),
            PUZZLES.c.rating.is_not(None),
            ~exists().where(GAMES.c.player == player, GAMES.c.puzzle_id == PUZZLES.c.id))
        if within is not None:
            waiting = waiting.where(distance < within)
        nearest = waiting.order_by(distance).limit(1).with_for_update(skip_locked=True).scalar_subquery()
        return session.execute(update(PUZZLES).where(PUZZLES.c.id == nearest, PUZZLES.c.served_at.is_(None))
                               .values(served_at=datetime.now(UTC)).returning(PUZZLES.c.id)).scalar()

    def puzzle_stats(self, puzzle_id: str) -> dict[str, Any] | None:
        """Plays of one puzzle: checks, first tries, its rating and the median solving time of first checks."""
        with Session(self.engine) as session:
            row = session.execute(
                select(PUZZLES.c.attempts, PUZZLES.c.solves, PUZZLES.c.first_tries, PUZZLES.c.first_try_solves,
                       PUZZLES.c.rating, PUZZLES.c.rd, PUZZLES.c.games).where(PUZZLES.c.id == puzzle_id)).first()
            if row is None:
                return None
            seconds = session.scalars(select(GAMES.c.seconds).where(
                GAMES.c.puzzle_id == puzzle_id, GAMES.c.solved.is_(True), GAMES.c.seconds.is_not(None))).all()
        stats = dict(row._mapping)
        stats["median_seconds"] = statistics.median(seconds) if seconds else None
        return stats

    def dispose(self) -> None:
        self.engine.dispose()
