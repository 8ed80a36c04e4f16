"""Per-client request budgets: past its budget a client gets 429 with `Retry-After`.

Counting is the `limits` library's sliding-window counter: two counters per client and budget whatever
the rate, in this process's memory by default, or in Redis (`REDIS_URL`) so replicas share one budget.
Budgets are chosen by path pattern, so a new route under a costly prefix is covered the day it lands.
The check runs before the response replay (`app.middleware.replay`): a replayed read counts like any other, so no
kind of request escapes its budget.

A client is its address (an IPv6 address by its /64, what one host is usually given), or its API key
(`X-API-Key`, keys from `API_KEYS`), which lifts its limits or multiplies them. Forwarded headers are
believed only from `TRUSTED_PROXIES` (see ``trust_proxies``).
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import re
import time
from dataclasses import dataclass

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string
from prometheus_client import CollectorRegistry, Counter
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.settings import Settings

log = logging.getLogger("puzzlegen.budgets")

# (budget, path pattern): the first match decides; paths matching none are not limited.
ROUTES: tuple[tuple[str, str], ...] = (
    ("work", r"/(generate|solve|grade|hint|render)/[^/]+"),
    ("work", r"/puzzles/[^/]+/hint"),
    ("work", r"/puzzles/[^/]+\.svg"),
    ("verify", r"/verify/[^/]+"),
    ("verify", r"/puzzles/[^/]+/verify"),
    ("read", r"/puzzles/.*"),
    ("read", r"/daily/.*"),  # a daily's record and picture (`/daily/{type}.svg`): what the front page shows
    ("read", r"/play/.*"),  # play pages read a record, or make a daily as `/daily/...` does
    ("read", r"/plays"),
    ("read", r"/next/[^/]+"),
    ("read", r"/players/[^/]+"),
)
WHAT = {"work": "generate, solve, grade, hint and render", "verify": "answer checks",
        "read": "stored puzzles, dailies, play pages, plays, players and next puzzles"}
PATTERNS = [(name, re.compile(pattern)) for name, pattern in ROUTES]
STORAGE_TIMEOUT_SECONDS = 0.5  # a slow Redis must not hold requests: past this they go unlimited


def budget_for(path: str) -> str | None:
    return next((name for name, pattern in PATTERNS if pattern.fullmatch(path)), None)


def parse_api_keys(spec: str) -> dict[str, float]:
    """`key` lifts every limit (factor infinity); `key:10` multiplies every limit by 10."""
    keys: dict[str, float] = {}
    for entry in filter(None, (part.strip() for part in spec.split(","))):
        key, _, factor = entry.partition(":")
        keys[key] = float(factor) if factor else math.inf
        if not keys[key] > 0:
            raise ValueError(f"API_KEYS: the factor of a key must be positive (got {factor!r})")
    return keys


def client_address(scope: Scope) -> str:
    host = (scope.get("client") or ("unknown",))[0]
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    limit: RateLimitItem
    remaining: int
    reset_seconds: int  # until the window lets this client in again (or is full again)

    def headers(self, policy: str) -> list[tuple[bytes, bytes]]:
        """IETF draft-ietf-httpapi-ratelimit-headers-06 fields, plus `Retry-After` on a refusal."""
        fields = {
            "RateLimit-Limit": self.limit.amount,
            "RateLimit-Remaining": self.remaining,
            "RateLimit-Reset": self.reset_seconds,
            "RateLimit-Policy": policy,
        }
        if not self.allowed:
            fields["Retry-After"] = self.reset_seconds
        return [(name.lower().encode(), str(value).encode()) for name, value in fields.items()]


class Budgets:
    """The limits of each budget, for anonymous clients and for each API key."""

    def __init__(self, settings: Settings, registry: CollectorRegistry | None = None):
        self.enabled = settings.rate_limits
        self.limits = {
            "work": parse_many(settings.rate_limit_work),
            "verify": parse_many(settings.rate_limit_verify),
            "read": parse_many(settings.rate_limit_read),
        }
        self.api_keys = parse_api_keys(settings.api_keys)
        if settings.redis_url:
            self.storage: Storage = storage_from_string(
                "async+" + settings.redis_url, implementation="redispy", wrap_exceptions=True,
                socket_timeout=STORAGE_TIMEOUT_SECONDS, socket_connect_timeout=STORAGE_TIMEOUT_SECONDS,
            )
        else:
            self.storage = storage_from_string("async+memory://", wrap_exceptions=True)
        self.limiter = SlidingWindowCounterRateLimiter(self.storage)
        self.refused = Counter("rate_limit_refused_total", "Requests refused with 429, by budget", ["budget"],
                               registry=registry)
        self.storage_errors = Counter("rate_limit_storage_errors_total", "Budget checks skipped: storage unreachable",
                                      registry=registry)
        self._last_warning = 0.0

    def scaled(self, budget: str, factor: float) -> list[RateLimitItem]:
        items = self.limits[budget]
        if factor == 1:
            return items
        return [type(item)(max(1, int(item.amount * factor)), item.multiples, item.namespace) for item in items]

    async def check(self, budget: str, client: str, factor: float) -> Verdict | None:
        """Count one request; None when there is nothing to count against (unlimited, or storage down)."""
        if not self.enabled or factor == math.inf:
            return None
        try:
            verdicts = []
            for limit in self.scaled(budget, factor):
                allowed = await self.limiter.hit(limit, budget, client)
                stats = await self.limiter.get_window_stats(limit, budget, client)
                reset = max(1, math.ceil(stats.reset_time - time.time()))
                verdicts.append(Verdict(allowed, limit, stats.remaining, reset))
                if not allowed:
                    self.refused.labels(budget).inc()
                    return verdicts[-1]
        except StorageError as exc:
            self.storage_errors.inc()
            if time.monotonic() - self._last_warning > 10:  # a Redis outage is one warning, not one per request
                self._last_warning = time.monotonic()
                log.warning("rate limit storage unreachable, requests go unlimited meanwhile: %s", exc.storage_error)
            return None
        return min(verdicts, key=lambda verdict: (verdict.remaining, -verdict.reset_seconds))

    def policy(self, budget: str, factor: float) -> str:
        return ", ".join(f"{item.amount};w={item.get_expiry()}" for item in self.scaled(budget, factor))


class RateLimit:
    """ASGI middleware: refuses a request past its client's budget (429), and tells every client of a
    limited route where it stands (`RateLimit-*` headers)."""

    def __init__(self, app: ASGIApp, budgets: Budgets):
        self.app = app
        self.budgets = budgets

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        budget = budget_for(scope["path"]) if scope["type"] == "http" and self.budgets.enabled else None
        if budget is None:
            await self.app(scope, receive, send)
            return
        key = next((value for name, value in scope.get("headers") or [] if name == b"x-api-key"), None)
        if key is None:
            client, factor = "address:" + client_address(scope), 1.0
        else:
            factor = self.budgets.api_keys.get(key.decode("latin-1"), 0.0)
            if not factor:
                detail = "Unknown X-API-Key. Send a key from the service's API_KEYS, or no key for the anonymous limits."
                await JSONResponse({"detail": detail}, status_code=401)(scope, receive, send)
                return
            client = "key:" + hashlib.sha256(key).hexdigest()[:24]  # no secret in Redis
        verdict = await self.budgets.check(budget, client, factor)
        if verdict is None:
            await self.app(scope, receive, send)
            return
        headers = verdict.headers(self.budgets.policy(budget, factor))
        if not verdict.allowed:
            detail = (f"Too many requests: this client may send at most {verdict.limit} to {WHAT[budget]}. "
                      f"Retry after {verdict.reset_seconds} s (or send an X-API-Key with higher limits).")
            await JSONResponse({"detail": detail}, status_code=429, headers=dict(
                (name.decode(), value.decode()) for name, value in headers))(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *headers]}
            await send(message)

        await self.app(scope, receive, with_headers)


def trust_proxies(app: FastAPI, trusted: str) -> None:
    """Behind a reverse proxy every request comes from the proxy's address; only a request from one of
    `TRUSTED_PROXIES` (addresses or networks) has its client read from `X-Forwarded-For`, so no client
    can name itself another to escape its budget. Added last, so it runs first."""
    hosts = [host.strip() for host in trusted.split(",") if host.strip()]
    if hosts:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=hosts)
