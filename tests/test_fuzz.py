"""Schemathesis against the committed OpenAPI document: no 5xx, and every response as documented.

Bounded so CI stays fast: a few examples per operation, small time budgets. Generation gets 10 s:
some valid requests need seconds (a 19-empty Othello `win` daily for 2000-01-01 takes ~3 s here), and
the no-5xx check counts the documented budget 503 as a failure.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.main import create_app
from app.openapi import OPENAPI_PATH
from app.settings import Settings

pytestmark = pytest.mark.slow


def build_app(db: Path):
    return create_app(Settings(database_url=f"sqlite:///{db}", work_processes=2, verify_processes=1, warm_up_workers=False,
                               generate_budget_seconds=10, solve_budget_seconds=2, verify_budget_seconds=2))


FUZZ_DB = Path(tempfile.mkdtemp(prefix="puzzlegen-fuzz-")) / "fuzz.db"
APP = build_app(FUZZ_DB)
schema = schemathesis.openapi.from_dict(json.loads(OPENAPI_PATH.read_text()))
schema.app = APP  # requests go straight to the ASGI app


@pytest.fixture(scope="module", autouse=True)
def running_app():
    with TestClient(APP):  # the lifespan: store and worker pools live until the module ends
        yield
    shutil.rmtree(FUZZ_DB.parent, ignore_errors=True)


@schema.parametrize()
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_api_matches_its_documentation(case) -> None:
    case.call_and_validate(
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
    )
