"""A database that is down, restarting or unwritable is a 503 with `Retry-After`, never a 500 or a hang
(every wait on it is bounded: ``store.make_engine``), and `/readyz` says whether the database answers.
`/healthz` stays a liveness check that never touches the database, so a load balancer does not restart a
healthy process for a database outage; the service recovers by itself once the database is back
(pooled connections are checked before use)."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.concurrency import run_in_threadpool

log = logging.getLogger("puzzlegen.faults")
DATABASE_FAULTS = (OperationalError, InterfaceError, PoolTimeout)


def describe(exc: BaseException) -> str:
    """The driver's first line (e.g. "connection refused", "attempt to write a readonly database")."""
    origin = getattr(exc, "orig", None) or exc
    return (str(origin).strip().splitlines() or [type(origin).__name__])[0][:200]


def unavailable(request: Request, message: str, body: dict[str, Any] | None = None) -> JSONResponse:
    retry = str(request.app.state.settings.retry_after_seconds)
    return JSONResponse(body or {"detail": message}, status_code=503, headers={"Retry-After": retry})


router = APIRouter(tags=["operations"])


@router.get("/readyz", summary="Readiness: the database answers (503 with Retry-After when it does not)")
async def readyz(request: Request) -> JSONResponse:
    service = request.app.state.service
    timeout = request.app.state.settings.database_timeout_seconds
    started = time.perf_counter()
    try:
        await asyncio.wait_for(run_in_threadpool(check_database, service.store.engine), timeout + 0.5)
    except (TimeoutError, *DATABASE_FAULTS) as exc:
        reason = describe(exc) if not isinstance(exc, TimeoutError) else f"no answer within {timeout} s"
        body = {"status": "unavailable", "database": reason, "jobs_in_flight": service.pool.in_flight}
        return unavailable(request, reason, body)
    ms = round((time.perf_counter() - started) * 1000, 1)
    return JSONResponse({"status": "ready", "database": "ok", "database_ms": ms, "jobs_in_flight": service.pool.in_flight})


def check_database(engine: Any) -> None:
    """A read; for SQLite also the write lock (taken and given back) and the files' write permission: a
    locked or read-only file reads fine but cannot store a puzzle."""
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
        if engine.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            connection.exec_driver_sql("ROLLBACK")
    database = engine.url.database if engine.dialect.name == "sqlite" else None
    if database and database != ":memory:":
        for path in (database, f"{database}-wal", os.path.dirname(os.path.abspath(database))):
            if os.path.exists(path) and not os.access(path, os.W_OK):
                raise OperationalError("readiness check", None, PermissionError(f"{path} is not writable"))


def install(app: FastAPI) -> None:
    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    @app.exception_handler(PoolTimeout)
    async def _database_down(request: Request, exc: Exception) -> JSONResponse:
        log.warning("database unavailable on %s %s: %s", request.method, request.url.path, describe(exc))
        return unavailable(request, f"The database is unavailable ({describe(exc)}); retry shortly.")

    app.include_router(router)
