"""Shared fixtures: the published reference puzzles, app clients, databases."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")

REPO = Path(__file__).resolve().parent.parent
REFERENCE = REPO / "tests" / "data"  # copies of the team's shared reference/ (see its README)
SHARED_REFERENCE = REPO.parent / "shared" / "reference"  # where new data arrives, when it sits beside the repo
WHOLE_SETS = os.environ.get("PUZZLEGEN_WHOLE_SETS") == "1"  # `make test-whole`
# The services the suite starts (in this process and as programs) run their workers at the suite's own priority: a
# niced worker would wait on the suite's other half, not on its server, and every test through it would crawl.
# test_service.py checks the service's default niceness itself.
os.environ.setdefault("WORKER_NICENESS", "0")


def share(items: Sequence[T], every: int) -> list[T]:
    """Every ``every``-th item, spread over the whole set, so CI's run stays within its time; the same
    items every run. ``make test-whole`` (PUZZLEGEN_WHOLE_SETS=1) takes them all."""
    return list(items) if WHOLE_SETS else list(items)[::every]


def pytest_sessionstart(session: pytest.Session) -> None:
    """Compile every type's numba code into numba's on-disk cache once, before any test process or service
    worker needs it: it then loads in a fraction of a second instead of compiling for seconds inside a
    request's time budget."""
    if not hasattr(session.config, "workerinput"):  # the controlling process, before xdist starts workers
        from app.work import warm_up_worker

        warm_up_worker()


@pytest.hookimpl(trylast=True)  # after pytest-xdist has tagged the grouped tests
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests first (in their own order), so no worker is left running one long test at the end.
    Tests of one xdist_group must run in one process (one restarts RabbitMQ, one shares a browser):
    stop at once if this pytest and pytest-xdist no longer make that so."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if getattr(config.option, "loadgroup", False):
        ungrouped = [item.nodeid for item in items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
        if ungrouped:
            raise pytest.UsageError(f"--dist loadgroup did not group {ungrouped[:3]}...: see constraints.txt")


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    return REFERENCE


@pytest.fixture
def make_client(tmp_path: Path):
    """Build a TestClient on a fresh SQLite file; extra keyword arguments override settings."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.settings import Settings

    clients = []

    def build(db: Path | str | None = None, **overrides) -> TestClient:
        url = db if isinstance(db, str) else f"sqlite:///{db or tmp_path / 'puzzles.db'}"
        options = {"rate_limits": False, "work_processes": 2, "verify_processes": 1, "warm_up_workers": False,
                   **overrides}  # tests of budgets turn rate limits on
        settings = Settings(database_url=url, **options)
        client = TestClient(create_app(settings))
        client.__enter__()
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture(scope="module")
def client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    """One app (with its worker processes) shared by a test module. A module that generates at hard
    levels sets GENERATE_BUDGET_SECONDS: draws and adjustments take longer on a loaded CI machine."""
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.settings import Settings

    db = tmp_path_factory.mktemp("db") / "puzzles.db"
    budget = getattr(request.module, "GENERATE_BUDGET_SECONDS", Settings.model_fields["generate_budget_seconds"].default)
    settings = Settings(database_url=f"sqlite:///{db}", work_processes=2, verify_processes=1, warm_up_workers=False,
                        rate_limits=False, generate_budget_seconds=budget)  # a module's many requests come from one client
    with TestClient(create_app(settings)) as test_client:
        yield test_client


POSTGRES_ADMIN_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def fresh_postgres_database(name: str) -> str:
    """A new empty database on the local server (`make test` makes sure one is running)."""
    from sqlalchemy import create_engine, text

    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # no silent skip: the suite promises PostgreSQL coverage
        pytest.fail(f"PostgreSQL at 127.0.0.1:5432 is needed (run scripts/ensure-postgres.sh): {exc}")
    finally:
        admin.dispose()
    return POSTGRES_ADMIN_URL.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.db'}"
    worker = getattr(request.config, "workerinput", {}).get("workerid", "main")
    return fresh_postgres_database(f"puzzlegen_test_{worker}")

