"""Structured request logs (one JSON line per request) and Prometheus metrics at /metrics.

Metrics are per process; run several workers under a process manager that aggregates, or scrape
each replica (every replica is its own process here).
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.middleware.faults import DATABASE_FAULTS

access_log = logging.getLogger("puzzlegen.access")


class Metrics:
    """One registry per app, so tests and several apps in one process never collide."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("http_requests_total", "HTTP requests", ["method", "route", "status"], registry=self.registry)
        self.latency = Histogram(
            "http_request_seconds", "HTTP request latency", ["method", "route"], registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
        )
        self.generation_seconds = Histogram(
            "puzzle_generation_seconds", "Time to generate one puzzle (in the worker)", ["type"], registry=self.registry,
            buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
        )
        self.repair_rounds = Histogram(
            "puzzle_generation_repair_rounds", "Repair rounds per generated puzzle", ["type"], registry=self.registry,
            buckets=(0, 1, 2, 5, 10, 20, 50, 100, 200, 500),
        )
        self.pool_size = Gauge("puzzle_pool_ready", "Ready pre-generated puzzles", ["pool"], registry=self.registry)
        self.jobs_in_flight = Gauge("work_jobs_in_flight", "Generation and solve jobs queued or running", registry=self.registry)

    def observe_generation(self, type_name: str, stats: dict[str, Any]) -> None:
        self.generation_seconds.labels(type_name).observe(stats.get("seconds", 0.0))
        self.repair_rounds.labels(type_name).observe(stats.get("repair_rounds", 0))


class RequestLog:
    """Times every request, counts it by route template (not raw path: ids would explode the labels)."""

    def __init__(self, app: ASGIApp, metrics: Metrics):
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def capture(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, capture)
        finally:
            elapsed = time.perf_counter() - started
            route = getattr(scope.get("route"), "path", "unmatched")
            self.metrics.requests.labels(scope["method"], route, str(status)).inc()
            self.metrics.latency.labels(scope["method"], route).observe(elapsed)
            if access_log.isEnabledFor(logging.INFO):
                access_log.info(json.dumps({
                    "ts": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                    "method": scope["method"], "path": scope["path"], "route": route, "status": status,
                    "ms": round(elapsed * 1000, 2), "client": (scope.get("client") or ("-",))[0],
                }))


router = APIRouter(tags=["operations"])


@router.get("/metrics", summary="Prometheus metrics", response_class=Response)
async def metrics(request: Request) -> Response:
    state = request.app.state
    service = state.service
    state.metrics.pool_size.clear()
    try:
        sizes = await run_in_threadpool(service.store.pool_sizes)
    except DATABASE_FAULTS:  # a database outage is when metrics matter most: serve the rest without pool sizes
        sizes = {}
    for pool, count in sizes.items():
        state.metrics.pool_size.labels(pool).set(count)
    state.metrics.jobs_in_flight.set(service.pool.in_flight)
    return Response(generate_latest(state.metrics.registry), media_type=CONTENT_TYPE_LATEST)
