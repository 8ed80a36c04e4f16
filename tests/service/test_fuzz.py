"""Schemathesis against the committed OpenAPI document: no 5xx, and every response as documented.

Bounded so CI stays fast: a few examples per operation, small time budgets. Generation gets 30 s, and
schemathesis waits 60 s for an answer: some valid requests need seconds (a 19-empty Othello `win`
daily for 2000-01-01 takes ~3 s alone, several times that while the other test process works), and
the no-5xx check counts the documented budget 503 as a failure.
"""

from __future__ import annotations

import atexit
import json
import math
import re
import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.main import create_app
from app.openapi import OPENAPI_PATH
from app.settings import Settings
from app.work import warm_up_worker
from tests.conftest import WHOLE_SETS

pytestmark = pytest.mark.slow


def build_app(db: Path):
    return create_app(Settings(database_url=f"sqlite:///{db}", work_processes=2, verify_processes=1, warm_up_workers=False,
                               generate_budget_seconds=30, solve_budget_seconds=2, verify_budget_seconds=2, rate_limits=False))


FUZZ_DIR = Path(tempfile.mkdtemp(prefix="puzzlegen-fuzz-"))
atexit.register(shutil.rmtree, FUZZ_DIR, True)
APP = build_app(FUZZ_DIR / "fuzz.db")


class LifespanRunElsewhere:
    """The app as schemathesis sees it: schemathesis starts and ends an app's lifespan around every
    test (a store and three worker processes each time, most of a cheap test's cost); this app's
    lifespan runs once per test process instead, in the ``client`` fixture."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "lifespan":
            return await self.app(scope, receive, send)
        for answer in ("lifespan.startup.complete", "lifespan.shutdown.complete"):
            await receive()
            await send({"type": answer})


def loaded(boundaries: bool = True) -> schemathesis.BaseSchema:
    """The committed document for schemathesis; ``boundaries``: with its coverage phase (each parameter's edge
    values, valid and not, before the random examples)."""
    loaded = schemathesis.openapi.from_dict(json.loads(OPENAPI_PATH.read_text()))
    loaded.app = LifespanRunElsewhere(APP)
    loaded.config.phases.coverage.enabled = boundaries
    return loaded


schema = loaded()


@pytest.fixture(scope="module")
def client():
    """The app running (store and worker pools) until the module's last test in this process; set up
    again if other modules' tests come between. Every worker is started and has loaded every type's compiled
    code before the first case: the 2 s budgets are for a case's work, not for a worker's start."""
    with TestClient(APP, raise_server_exceptions=False) as client:
        for pool in client.app.state.service.pool._pools.values():
            for started in [pool.submit(warm_up_worker) for _ in range(pool._max_workers)]:
                started.result(timeout=600)
        yield client


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# The routes that make a puzzle for each example: a type's generate, its daily and the daily's picture and page.
# Each example there is a generation of seconds at the larger sizes, so they get fewer examples than the rest
# (the daily's picture and page share the daily's parameters and generator: their shape is what they add, one
# example each beside the schema's own boundary cases).
MAKING = r"^/(generate|daily|play/daily)/"
# A type's five body routes read the same puzzle model through one route factory: the boundary cases of its puzzle
# (and of the route's own fields) are sent to one of the five, a different one type after type, so each route
# meets them on a fifth of the types; the other four get random examples alone. `make test-whole` bounds them all.
BODY_ROUTES = ("verify", "hint", "solve", "grade", "render")
# Random examples per operation: CI's share; `make test-whole` sends twice as many (and so does the hostile bodies' test).
EXAMPLES = 10 if WHOLE_SETS else 5
TYPE_NAMES = sorted(path.split("/")[2] for path in json.loads(OPENAPI_PATH.read_text())["paths"] if path.startswith("/verify/"))
UNBOUNDED = [] if WHOLE_SETS else [f"/{route}/{name}" for i, name in enumerate(TYPE_NAMES)
                                   for route in BODY_ROUTES if route != BODY_ROUTES[i % len(BODY_ROUTES)]]
UNBOUNDED_PATHS = "^(" + "|".join(map(re.escape, UNBOUNDED)) + ")$" if UNBOUNDED else "^$"


@schema.exclude(path_regex=MAKING).exclude(path_regex=UNBOUNDED_PATHS).parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_matches_its_documentation(case, client: TestClient) -> None:
    case.call_and_validate(timeout=60, checks=CHECKS)


@loaded(boundaries=False).include(path_regex=UNBOUNDED_PATHS).parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_a_types_other_body_routes_match_their_documentation(case, client: TestClient) -> None:
    case.call_and_validate(timeout=60, checks=CHECKS)


@schema.include(path_regex=r"^/generate/").parametrize()
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_generating_routes_match_their_documentation(case, client: TestClient) -> None:
    case.call_and_validate(timeout=60, checks=CHECKS)


# A daily reads its type's generate parameters (whose boundary cases, the largest and hardest puzzles, the generate
# route meets) and a date: random examples alone. Its picture and page read the daily's own query.
@loaded(boundaries=False).include(path_regex=r"^/daily/[^/.]+$").parametrize()
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_daily_routes_match_their_documentation(case, client: TestClient) -> None:
    case.call_and_validate(timeout=60, checks=CHECKS)


@loaded(boundaries=False).include(path_regex=r"^/(daily/.+\.svg|play/daily/.+)$").parametrize()
@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_a_dailys_picture_and_page_match_their_documentation(case, client: TestClient) -> None:
    case.call_and_validate(timeout=60, checks=CHECKS)


# What schemathesis cannot send (its bodies are valid JSON): non-finite numbers, integers past any
# parser's size, nesting past the interpreter's recursion limit, bodies labelled with any content type,
# and chunked bodies over the size limit. Every operation in the document gets them; none may be a 5xx.
DOCUMENTED = json.loads(OPENAPI_PATH.read_text())["paths"]
OPERATIONS = [(method.upper(), path) for path, item in DOCUMENTED.items() for method in item if method in {"post", "put"}]
WITH_BODY = [(method, path) for method, path in OPERATIONS if "requestBody" in DOCUMENTED[path][method.lower()]]
HUGE = "<a 5000-digit integer>"  # written into the JSON text by raw_json (Python will not print such an int)
SCALARS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True), st.integers(min_value=-(10**40), max_value=10**40),
    st.just(HUGE), st.booleans(), st.none(), st.text(max_size=8),
)
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20
)
KEYS = st.sampled_from(["puzzle", "answer", "csv", "max_solutions", "backend", "size", "numbers", "shaded", "move", "board"])


def raw_json(value) -> bytes:
    text = json.dumps(value, allow_nan=True)  # NaN, Infinity as Python writes them
    return text.replace(json.dumps(HUGE), "-" + "9" * 5000).encode()


def nested(depth: int) -> bytes:
    """Valid JSON nested ``depth`` deep, in lists and in objects, where puzzles and answers go."""
    lists, objects = b"[" * depth + b"]" * depth, b'{"a":' * depth + b"1" + b"}" * depth
    return b'{"puzzle": {"size": 4, "numbers": ' + lists + b'}, "answer": {"shaded": ' + objects + b"}}"


BODIES = st.one_of(
    st.dictionaries(KEYS, VALUES, max_size=4).map(raw_json),
    st.fixed_dictionaries({"puzzle": st.dictionaries(KEYS, VALUES, max_size=3),
                           "answer": st.dictionaries(KEYS, VALUES, max_size=3)}).map(raw_json),
    st.sampled_from([600, 900, 3000, 100_000]).map(nested),  # around and past the interpreter's recursion limit
    st.binary(max_size=64),
)
CONTENT_TYPES = st.just("application/json") | st.sampled_from([  # JSON half the time: most bodies are meant as JSON
    "application/json", "text/plain", "text/csv", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
    "application/xml", "application/json; charset=utf-16", "", "image/png",
])
QUERY_VALUES = st.one_of(st.integers(-(10**30), 10**30).map(str), st.sampled_from(["NaN", "Infinity", "-1e309", "9" * 5000]))
QUERIES = st.dictionaries(st.sampled_from(["size", "seed", "rows", "cols", "empties", "pieces", "date", "fleet", "x"]),
                          QUERY_VALUES, max_size=3)


def concrete(path: str, puzzle_id: str) -> str:
    return path.replace("{puzzle_id}", puzzle_id).replace("{type_name}", "dabuhamienai")


@pytest.fixture(scope="module")
def stored_id(client: TestClient) -> str:
    response = client.post("/generate/dabuhamienai", params={"size": 4, "seed": 1})
    assert response.status_code in (200, 201), response.text
    return response.json()["id"]


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_hostile_bodies_never_get_a_5xx(method: str, path: str, client: TestClient, stored_id: str) -> None:
    # A generate route reads no body (its params are in the query) and makes a puzzle for each valid query: one seed
    # unless the query draws its own, so a valid query's puzzle is made once and then read back from the store.
    making = re.match(MAKING, path) is not None
    examples = EXAMPLES if making else EXAMPLES * 5 // 2

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(body=BODIES, content_type=CONTENT_TYPES, query=QUERIES)
    @example(body=nested(600), content_type="application/json", query={})  # each class at least once, whatever the draw
    @example(body=nested(100_000), content_type="application/json", query={})
    @example(body=raw_json({"puzzle": {"size": math.nan, "numbers": [[-math.inf]]}, "answer": {"move": math.inf}}),
             content_type="application/x-www-form-urlencoded", query={})
    @example(body=raw_json({"puzzle": {"size": HUGE}, "answer": {"move": HUGE}, "max_solutions": 10**30}),
             content_type="application/json", query={"size": "9" * 5000})
    @example(body=b'{"puzzle": {}}', content_type="text/plain", query={})
    def check(body: bytes, content_type: str, query: dict) -> None:
        headers = {"Content-Type": content_type} if content_type else {}
        params = {"seed": "1", **query} if making else query
        response = client.request(method, concrete(path, stored_id), content=body, headers=headers, params=params)
        assert response.status_code < 500, (body[:200], content_type, query, response.text[:300])
        assert response.status_code >= 400 or response.status_code in (200, 201)

    check()


@pytest.mark.parametrize(("method", "path"), WITH_BODY)  # a route that reads no body answers without reading it
def test_chunked_bodies_over_the_limit_are_413(method: str, path: str, client: TestClient, stored_id: str) -> None:
    size = client.app.state.settings.max_body_bytes

    def chunks():
        yield b'{"puzzle": "'
        for _ in range(size // 65536 + 2):
            yield b"x" * 65536

    response = client.request(method, concrete(path, stored_id), content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413, response.text[:300]
