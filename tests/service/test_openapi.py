"""The committed OpenAPI document must match what the app generates (`make openapi` refreshes it)."""

from __future__ import annotations

from app.openapi import OPENAPI_PATH, render


def test_committed_openapi_is_current() -> None:
    assert OPENAPI_PATH.exists(), "openapi/openapi.json is missing: run `make openapi`"
    assert OPENAPI_PATH.read_text() == render(), "openapi/openapi.json is stale: run `make openapi` and commit it"
