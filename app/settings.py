"""Service settings, read from environment variables (or a `.env` file) by pydantic-settings."""

from __future__ import annotations

import os
from functools import lru_cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = Field(
        "sqlite:///data/puzzles.db",
        description="SQLAlchemy URL of the store; SQLite file by default, postgresql+psycopg://... for replicas.",
    )
    generate_budget_seconds: float = Field(20.0, gt=0, description="Time budget of one generation request.")
    solve_budget_seconds: float = Field(20.0, gt=0, description="Time budget of one solve request.")
    verify_budget_seconds: float = Field(
        20.0, gt=0, description="Time budget of one verify request (an Othello verify is an exact search, as its solve).")
    work_processes: int = Field(
        default_factory=lambda: os.cpu_count() or 1, ge=1, description="Worker processes for generation and solving."
    )
    verify_processes: int = Field(2, ge=1, description="Worker processes for verifying answers.")
    warm_up_workers: bool = Field(
        True, description="Start every worker at start-up and load its JIT code there; off, a worker starts and "
                          "loads it on first use.",
    )
    worker_niceness: int = Field(
        10, ge=0, le=19, description="Added to each worker process's nice value, so the server process (event loop, "
                                     "cached reads, /healthz) comes first while generation runs flat out.",
    )
    max_pending_jobs: int = Field(
        0, ge=0, description="Jobs queued or running at once before new ones get 503 at once; 0 = 4 per process."
    )
    retry_after_seconds: int = Field(5, ge=1, description="Retry-After sent with a 503.")
    max_body_bytes: int = Field(1_000_000, ge=1024, description="Larger request bodies get 413.")

    database_timeout_seconds: float = Field(
        2.0, gt=0, description="Longest wait on the database (connect, lock, statement); past it a request gets 503."
    )
    retention_days: int = Field(
        30, ge=0, description="Puzzles generated on demand and not fetched for this many days are pruned; 0 keeps all."
    )
    upkeep_interval_seconds: float = Field(
        60.0, gt=0, description="How often fetch times are written; pruning and the SQLite checkpoint run every 60th time."
    )
    rate_limits: bool = Field(
        True, description="Per-client budgets on costly routes and reads; turn off only behind a gateway that limits."
    )
    rate_limit_work: str = Field(
        "60/minute;600/hour", description="Budget per client for generate, solve, grade, hint and render (`limits` notation)."
    )
    rate_limit_verify: str = Field("300/minute", description="Budget per client for answer checks.")
    rate_limit_read: str = Field("1200/minute", description="Budget per client for stored puzzles and dailies.")
    api_keys: str = Field(
        "", description="Comma-separated X-API-Key values: `key` lifts the limits, `key:10` multiplies them by 10."
    )
    redis_url: str | None = Field(None, description="redis://host:port/db: budgets shared by every replica; memory if unset.")
    trusted_proxies: str = Field(
        "", description="Comma-separated addresses/networks whose X-Forwarded-For names the client; none by default."
    )

    @property
    def pending_limit(self) -> int:
        return self.max_pending_jobs or 4 * self.work_processes


@lru_cache
def get_settings() -> Settings:
    return Settings()
