"""The ASGI app: `uvicorn app.main:app`."""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import errors, observability
from app.replay import ReplayStore, ResponseReplay
from app.routes import meta, puzzles
from app.service import PuzzleService
from app.settings import Settings, get_settings
from app.store import PuzzleStore
from app.work import WorkPool
from generators.registry import TYPES

DESCRIPTION = """Generates logic puzzles with exactly one solution (proven by a solver), verifies answers
rule by rule, solves puzzles written by others, and serves a daily puzzle per type."""


class BodySizeLimit:
    """Refuse oversized bodies with 413 before anything parses them."""

    def __init__(self, app: ASGIApp, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._too_large(scope, receive, send)
            return
        seen = 0

        async def limited_receive():  # type: ignore[no-untyped-def]
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                raise _TooLarge
            return message

        try:
            await self.app(scope, limited_receive, send)
        except _TooLarge:
            await self._too_large(scope, receive, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse({"detail": f"Request body larger than {self.max_bytes} bytes."}, status_code=413)
        await response(scope, receive, send)


class _TooLarge(Exception):
    pass


class TextPuzzleBodies:
    """A puzzle sent as text (`curl --data-binary @puzzle.csv -H 'Content-Type: text/csv'`) to the solve
    route of a type with a text format becomes `{"csv": "<text>"}`, so one validated model serves both."""

    def __init__(self, app: ASGIApp, paths: set[str]):
        self.app = app
        self.paths = paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared = dict(scope.get("headers") or []).get(b"content-type", b"") if scope["type"] == "http" else b""
        if scope["type"] != "http" or scope["path"] not in self.paths or not declared.startswith((b"text/csv", b"text/plain")):
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")  # the CSV parser then names the first bad field
        body = json.dumps({"csv": text}).encode()
        scope["headers"] = [(k, v) for k, v in scope["headers"] if k not in (b"content-type", b"content-length")] + [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


class JsonByDefault:
    """`curl -d '{...}'` labels JSON as a form; this API takes no forms, so such bodies are read as JSON."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in {"POST", "PUT", "PATCH"}:
            headers = [(k, v) for k, v in scope.get("headers") or [] if k != b"content-type"]
            declared = dict(scope.get("headers") or []).get(b"content-type", b"")
            if not declared or declared.startswith(b"application/x-www-form-urlencoded"):
                scope["headers"] = [*headers, (b"content-type", b"application/json")]  # in place: outer layers read the scope
        await self.app(scope, receive, send)


GC_THRESHOLDS = (20_000, 20, 100)  # CPython's are (700, 10, 10)


def freeze_start_up_objects() -> None:
    """What start-up made (modules, models, routes: ~150k objects) lives as long as the process. Move
    it out of the collector's sight: a full collection over it took 100-500 ms, stalling every request
    in flight (the p99 under load). Then collect less often: the default thresholds ran the older
    generations so often under verify load that its p99 was ~226 ms; with these it was ~73 ms (a full
    collection still comes every few tens of seconds at 1,000 requests/s)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = PuzzleStore(settings.database_url)
        pool = WorkPool(
            settings.work_processes, settings.pending_limit, settings.verify_processes, warm_up=settings.warm_up_workers
        )
        pool.start()
        app.state.service = PuzzleService(settings, store, pool, metrics)
        thresholds = gc.get_threshold()
        freeze_start_up_objects()
        try:
            yield
        finally:
            gc.unfreeze()
            gc.set_threshold(*thresholds)
            pool.shutdown()
            store.dispose()

    app = FastAPI(title="Puzzle generator service", version="0.1.0", description=DESCRIPTION, lifespan=lifespan)
    app.state.settings = settings
    app.state.metrics = metrics = observability.Metrics()
    app.state.replay = replays = ReplayStore()
    errors.install(app)
    for puzzle_type in TYPES.values():
        app.include_router(puzzles.type_router(puzzle_type))
    app.include_router(puzzles.stored_router)
    app.include_router(meta.router)
    app.include_router(observability.router)
    app.include_router(puzzles.unknown_router)
    app.add_middleware(JsonByDefault)
    app.add_middleware(TextPuzzleBodies, paths={f"/solve/{t.name}" for t in TYPES.values() if t.parse_text})
    app.add_middleware(ResponseReplay, store=replays)
    app.add_middleware(observability.RequestLog, metrics=metrics)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    return app


def configure_logging() -> None:
    """Service logs as text; access logs as bare JSON lines (uvicorn's own access log is turned off)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    access = logging.getLogger("puzzlegen.access")
    if not access.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        access.addHandler(handler)
        access.propagate = False


configure_logging()
app = create_app()
