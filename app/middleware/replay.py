"""Replaying GET responses that can never change, without running the app again.

A stored record, its solution and a daily puzzle for a given date are immutable, so the exact response
sent once (status, headers, body) is the right answer to the same request forever. Replaying it skips
routing, query validation, the store and rendering: the stored-daily hot path. The route that made a
response decides whether it may be replayed (``allow_replay``), and for how long: today's daily without
`date` is right only until midnight UTC, so it is replayed until then with its max-age counting down
(as the route itself computes it). A request with `If-None-Match` always goes through the app, which
answers 304 itself. Replays happen inside ``RequestLog``, so they are logged and counted like any request.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REPLAY_KEY = "puzzlegen.replay"  # set in the request scope by a route whose response may be replayed
MAX_AGE = 3600  # Cache-Control max-age of an immutable response, seconds


def allow_replay(request: Request, until: float = math.inf) -> None:
    """Mark this request's response as the answer to every later identical request, until the Unix time
    ``until`` (forever by default)."""
    request.scope[REPLAY_KEY] = until


def max_age_until(until: float) -> int:
    """The max-age of a response that is right only until ``until``: no cache may keep it past then."""
    return MAX_AGE if until == math.inf else max(0, min(MAX_AGE, int(until - time.time())))


@dataclass(frozen=True)
class Kept:
    """A 200 response as sent, with the route that made it (metrics and access logs read it) and how
    long it stays right (``until``; its Cache-Control is then rewritten on every replay)."""

    route: Any
    headers: list[tuple[bytes, bytes]]
    body: bytes
    until: float

    def current_headers(self) -> list[tuple[bytes, bytes]]:
        if self.until == math.inf:
            return self.headers
        control = f"public, max-age={max_age_until(self.until)}".encode()
        return [(name, control if name == b"cache-control" else value) for name, value in self.headers]


class ReplayStore:
    """The kept responses, least recently used dropped first; keyed by path and raw query string.

    Hand-made rather than cachetools' TLRUCache (per-item expiry): this lookup is the replay hot path,
    and the library's was several times slower per hit (bench/cache_lookup.py)."""

    def __init__(self, capacity: int = 1024):
        self.capacity = capacity
        self._kept: OrderedDict[tuple[str, bytes], Kept] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: tuple[str, bytes]) -> Kept | None:
        kept = self._kept.get(key)
        if kept is not None:
            if time.time() >= kept.until:  # e.g. yesterday's "today"
                del self._kept[key]
                return None
            self._kept.move_to_end(key)
        return kept

    def put(self, key: tuple[str, bytes], kept: Kept) -> None:
        self._kept[key] = kept
        self._kept.move_to_end(key)
        while len(self._kept) > self.capacity:
            self._kept.popitem(last=False)


class ResponseReplay:
    """ASGI middleware: answers a GET from the store when it holds the response, and keeps a response
    its route allowed to be replayed (a complete 200 in one body message)."""

    def __init__(self, app: ASGIApp, store: ReplayStore):
        self.app = app
        self.store = store

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "GET" or any(
            name == b"if-none-match" for name, _ in scope.get("headers") or []
        ):
            await self.app(scope, receive, send)
            return
        key = (scope["path"], scope["query_string"])
        kept = self.store.get(key)
        if kept is not None:
            scope["route"] = kept.route
            await send({"type": "http.response.start", "status": 200, "headers": kept.current_headers()})
            await send({"type": "http.response.body", "body": kept.body})
            return
        sent: list[Message] = []

        async def watch(message: Message) -> None:
            sent.append(message)
            await send(message)

        await self.app(scope, receive, watch)
        if REPLAY_KEY in scope and len(sent) == 2:
            start, body = sent
            if start["status"] == 200 and not body.get("more_body", False):
                self.store.put(key, Kept(scope.get("route"), list(start["headers"]), bytes(body.get("body", b"")),
                                         scope[REPLAY_KEY]))
