"""The ASGI app: `uvicorn app.main:app`."""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import swagger_ui_bundle
from fastapi import Depends, FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import upkeep
from app.middleware import budgets, errors, faults, observability
from app.middleware.replay import ReplayStore, ResponseReplay
from app.routes import front, meta, pictures, puzzles, ratings
from app.service import PuzzleService
from app.settings import Settings, get_settings
from app.store import PuzzleStore
from app.work import WorkPool
from generators.registry import TYPES

DESCRIPTION = """Generates logic puzzles with exactly one solution (proven by a solver), verifies answers
rule by rule, solves puzzles written by others, and serves a daily puzzle per type."""


class BodySizeLimit:
    """Refuse oversized bodies with 413: at once when Content-Length says so, and as soon as a chunked
    body passes the limit. Past it the app is told the client left (it stops reading) and whatever it
    answers is dropped, since the 413 has been sent."""

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
        refused = started = False

        async def limited_receive() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                refused = True
                if not started:
                    await self._too_large(scope, receive, send)
                return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if not refused:
                started = True
                await send(message)

        await self.app(scope, limited_receive, guarded_send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse({"detail": f"Request body larger than {self.max_bytes} bytes."}, status_code=413)
        await response(scope, receive, send)


class TextPuzzleBodies:
    """A puzzle sent as text (`curl --data-binary @puzzle.csv -H 'Content-Type: text/csv'`) to the solve
    route of a type with a text format (``PuzzleType.parse_text``) becomes `{"<format>": "<text>"}`, so
    one validated model serves both."""

    def __init__(self, app: ASGIApp, formats: dict[str, str]):
        self.app = app
        self.formats = formats  # solve path -> the type's text format

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        declared = dict(scope.get("headers") or []).get(b"content-type", b"") if scope["type"] == "http" else b""
        text_format = self.formats.get(scope["path"]) if scope["type"] == "http" else None
        if text_format is None or not declared.startswith((f"text/{text_format}".encode(), b"text/plain")):
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":  # gone, or refused by BodySizeLimit
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        raw = b"".join(chunks)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")  # the type's parser then names the first bad field
        body = json.dumps({text_format: text}).encode()
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
    """What start-up made (modules, models, routes) lives as long as the process: move it out of the
    collector's sight, so a full collection does not walk it and stall every request in flight. Then
    collect less often, as a request makes many short-lived objects that the young generation
    handles (bench/load measures the effect on tail latency). A process freezes once, at its first app's start:
    a server runs one app, and a process that starts many (a test run) would otherwise walk its whole heap
    in a full collection at every start."""
    if not gc.get_freeze_count():
        gc.collect()
        gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


ROUTE_PROBE = {"type": "http", "method": "GET", "path": "/", "root_path": "", "headers": [], "query_string": b""}


def prepare_routes(app: FastAPI) -> None:
    """Match a request against every route once, at start: FastAPI builds an included router's routes (their
    parameters' validators, for every type) when a request first passes through it, which made a fresh server's
    first request take half a second. Built now, they are start-up objects, frozen with the rest."""
    for route in app.router.routes:
        route.matches(ROUTE_PROBE)


def serve_docs(app: FastAPI) -> None:
    """Swagger UI at /docs from files the service serves itself (the swagger-ui-bundle package), so the
    docs work on a machine without internet access."""
    app.mount("/docs/assets", StaticFiles(directory=swagger_ui_bundle.swagger_ui_path), name="swagger-ui")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json", title=f"{app.title} - docs",
            swagger_js_url="/docs/assets/swagger-ui-bundle.js", swagger_css_url="/docs/assets/swagger-ui.css",
            swagger_favicon_url="/docs/assets/favicon-32x32.png",
        )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = PuzzleStore(settings.database_url, settings.database_timeout_seconds)
        pool = WorkPool(
            settings.work_processes, settings.pending_limit, settings.verify_processes, warm_up=settings.warm_up_workers,
            niceness=settings.worker_niceness,
        )
        pool.start()
        app.state.service = PuzzleService(settings, store, pool, metrics)
        chores.start(store.engine)
        prepare_routes(app)
        thresholds = gc.get_threshold()
        freeze_start_up_objects()
        try:
            yield
        finally:
            gc.set_threshold(*thresholds)
            await chores.stop()
            pool.shutdown()
            store.dispose()

    app = FastAPI(
        title="Puzzle generator service", version="0.1.0", description=DESCRIPTION, lifespan=lifespan,
        dependencies=[Depends(puzzles.single_query_values)], docs_url=None,
    )
    app.state.settings = settings
    app.state.metrics = metrics = observability.Metrics()
    app.state.replay = replays = ReplayStore()
    app.state.upkeep = chores = upkeep.Upkeep(settings.retention_days, settings.upkeep_interval_seconds)
    errors.install(app)
    faults.install(app)
    serve_docs(app)
    for puzzle_type in TYPES.values():
        app.include_router(puzzles.type_router(puzzle_type))
    app.include_router(pictures.router)  # before stored_router, whose /puzzles/{id} would take /puzzles/{id}.svg
    app.include_router(puzzles.stored_router)
    app.include_router(ratings.router)
    app.include_router(meta.router)
    app.include_router(front.router)
    app.include_router(observability.router)
    app.include_router(puzzles.unknown_router)
    app.add_middleware(JsonByDefault)
    app.add_middleware(TextPuzzleBodies, formats={f"/solve/{t.name}": t.text_format for t in TYPES.values() if t.parse_text})
    app.add_middleware(ResponseReplay, store=replays)
    app.add_middleware(upkeep.FetchTracker, upkeep=chores)  # outside the replay: replayed reads are fetches too
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(budgets.RateLimit, budgets=budgets.Budgets(settings, metrics.registry))
    app.add_middleware(observability.RequestLog, metrics=metrics)  # every answer is logged and counted
    budgets.trust_proxies(app, settings.trusted_proxies)
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
